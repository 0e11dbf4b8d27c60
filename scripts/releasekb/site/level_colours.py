"""Each stability label's colour, in the light and the dark colour scheme: a team's own labels
(`ga`, `preview`) look like levels, as the four this repository publishes do.

A label's colour is the one project.yaml gives it (`stability.labels.<key>.colour`), else the
next of a palette taken in the labels' order, highest rank first (stable, beta, experimental,
prototype get the colours they have always had). Either is made accessible rather than refused:

- light scheme: the colour, darkened until white badge text on it reaches 4.5:1 (WCAG AA for
  text), which also puts a bar or a lifecycle dot at 3:1 or more against the white page;
- dark scheme: the colour, lightened until black badge text on it reaches 4.5:1, which puts a bar
  or dot at 3:1 or more against Material's slate background.

The pages get the colours as CSS custom properties in a small style block (stylesheet()), so the
static stylesheet needs to know no label; the README badges take the light colour (badge()).
"""

from __future__ import annotations

import colorsys
import functools
from collections.abc import Iterable

from releasekb.kb.catalog import Level

# Distinct hues, each dark enough for white text; the first four are the levels' colours of old.
PALETTE = (
    "#2e7d32",  # green
    "#1565c0",  # blue
    "#6a1b9a",  # purple
    "#b85000",  # orange
    "#00695c",  # teal
    "#ad1457",  # pink
    "#5d4037",  # brown
    "#283593",  # indigo
    "#827717",  # olive
    "#c62828",  # red
)
WHITE, BLACK = "#ffffff", "#000000"
TEXT_CONTRAST = 4.5  # WCAG 1.4.3, badge text on its colour


def luminance(colour: str) -> float:
    """WCAG's relative luminance of '#rrggbb'."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    lighter, darker = sorted((luminance(one), luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _mix(colour: str, towards: str, share: float) -> str:
    mixed = (round(int(colour[i : i + 2], 16) * (1 - share) + int(towards[i : i + 2], 16) * share) for i in (1, 3, 5))
    return "#" + "".join(f"{channel:02x}" for channel in mixed)


def _until_readable(colour: str, text: str) -> str:
    """The colour, mixed towards the opposite of `text` in small steps until `text` on it
    reaches TEXT_CONTRAST (at the latest, black or white themselves)."""
    towards = BLACK if text == WHITE else WHITE
    for step in range(21):
        candidate = _mix(colour, towards, step / 20)
        if contrast(candidate, text) >= TEXT_CONTRAST:
            return candidate
    return towards


def light_and_dark(colour: str) -> tuple[str, str]:
    """A colour's accessible variants: (light scheme, white text; dark scheme, black text)."""
    colour = colour.lower()
    return _until_readable(colour, WHITE), _until_readable(colour, BLACK)


def _generated(index: int) -> str:
    """A colour beyond the palette: hues a golden angle apart, dark enough for white text."""
    red, green, blue = colorsys.hls_to_rgb((index * 0.381966) % 1, 0.35, 0.65)
    return "#" + "".join(f"{round(channel * 255):02x}" for channel in (red, green, blue))


def colours(levels: Iterable[Level]) -> dict[str, tuple[str, str]]:
    """{label key: (light colour, dark colour)} for every label (not Unlabeled), each distinct."""
    return dict(_colours(tuple((level.key, level.rank, level.colour) for level in levels if level.rank is not None)))


@functools.lru_cache(maxsize=8)  # asked once per README badge: thousands of times for one set of labels
def _colours(labels: tuple[tuple[str, int, str | None], ...]) -> tuple[tuple[str, tuple[str, str]], ...]:
    ranked = sorted(labels, key=lambda label: -label[1])  # stable: equal ranks keep project.yaml's order
    chosen = {key: light_and_dark(colour) for key, _, colour in ranked if colour}
    taken = set(chosen.values())
    offered = iter([*PALETTE, *(_generated(index) for index in range(len(ranked) + len(PALETTE)))])
    for key, _, _ in ranked:
        if key in chosen:
            continue
        pair = light_and_dark(next(offered))
        while pair in taken:  # a team colour took this one
            pair = light_and_dark(next(offered))
        chosen[key] = pair
        taken.add(pair)
    return tuple((key, chosen[key]) for key, _, _ in ranked)


def stylesheet(levels: Iterable[Level]) -> str:
    """The labels' colours as CSS: a custom property per label and scheme, and the badge, bar
    and dot rules that use it (keys are slugs: letters, digits and hyphens, safe in CSS names)."""
    pairs = colours(levels)
    light = ";".join(f"--rkb-level-{key}:{pair[0]}" for key, pair in pairs.items())
    dark = ";".join(f"--rkb-level-{key}:{pair[1]}" for key, pair in pairs.items())
    rules = "".join(
        f".rkb-level-{key}{{background:var(--rkb-level-{key});color:var(--rkb-on-level)}}"
        f".rkb-fill-{key}{{fill:var(--rkb-level-{key})}}"
        for key in pairs
    )
    return f":root{{{light}}}[data-md-color-scheme=slate]{{{dark}}}{rules}"


def style_element(levels: Iterable[Level]) -> str:
    return f'<style id="rkb-level-colours">{stylesheet(levels)}</style>'


def badge(level: Level, levels: Iterable[Level]) -> str:
    """The colour of a README badge of this level (white text, on any page: the light one)."""
    return colours(levels)[level.key][0]
