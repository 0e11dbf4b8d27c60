"""A badge per feature, /badges/<id>.svg (and /zh/badges/<id>.svg): its current level and since
when, as the badges code hosts show in READMEs. A text's control characters are shown as visible
escapes, so that a badge is well-formed XML whatever the data holds."""

from __future__ import annotations

import html
from collections.abc import Callable

from releasekb.common.cjk import is_wide
from releasekb.common.i18n import interface_strings
from releasekb.common.safe_text import visible
from releasekb.kb.catalog import Catalog, Feature
from releasekb.kb.urls import badge_path
from releasekb.site import level_colours
from releasekb.site.outputs.output import go_on

# Badge colours: a level's is its own (level_colours.py, the light scheme's: white text on it);
# grey for unlabeled, red for removed.
_UNLABELED_COLOUR, _REMOVED_COLOUR, _LABEL_COLOUR = "#616161", "#c62828", "#455a64"


def describe(lang: str) -> str:
    return f"the badges ({lang})"


def wanted(catalog: Catalog, lang: str, section: bool) -> bool:
    return True


def files(catalog: Catalog, lang: str, site_url: str, give_way: Callable[[], None] = go_on) -> dict[str, bytes]:
    return badges(catalog, lang, give_way)


def paths(catalog: Catalog, lang: str, site_url: str) -> set[str]:
    return {badge_path(feature.id) for feature in catalog.features.values()}


def badge_label(feature: Feature) -> str:
    """The badge's left half: the feature's first API name (what README readers recognise),
    else its id."""
    return feature.apis[0] if feature.apis else feature.id


def badge_status(feature: Feature, lang: str) -> str:
    t = interface_strings(lang, feature.first.release.catalog.data_dir)
    if feature.removed_in:
        return t["badge_removed"].format(version=feature.removed_in.version)
    if feature.level is None:
        return t["badge_changes"]
    since = feature.level_since
    status = t["badge_since"].format(level=feature.level.name[lang], version=since.version if since else "")
    stated_by = feature.current.stated_by  # "since" already covers releases that did not restate it
    return f"{status} {t['level_stated_by_short'].format(version=stated_by)}" if stated_by else status


def badge_colour(feature: Feature) -> str:
    if feature.removed_in:
        return _REMOVED_COLOUR
    level = feature.level
    if level is None or level.rank is None:
        return _UNLABELED_COLOUR
    return level_colours.badge(level, feature.first.release.catalog.levels.values())


def _text_width(text: str) -> int:
    """Approximate width in pixels at 11px Verdana: wide (CJK) characters count nearly double.

    >>> _text_width("torch.fft"), _text_width("分布式"), _text_width("RPC 框架")
    (73, 46, 62)
    """
    if text.isascii():  # most labels (API names), and every English status: no wide character
        return 7 * len(text) + 10
    return sum(12 if is_wide(c) else 7 for c in text) + 10


def badges(catalog: Catalog, lang: str, give_way: Callable[[], None] = go_on) -> dict[str, bytes]:
    made = {}
    for number, feature in enumerate(catalog.features.values()):
        if number % _BADGES_BETWEEN_STEPS == 0:
            give_way()  # thousands of badges at 80 releases: a build under `serve` goes first
        made[badge_path(feature.id)] = badge(feature, lang)
    return made


_BADGES_BETWEEN_STEPS = 200  # a few milliseconds of work


def badge(feature: Feature, lang: str) -> bytes:
    """A flat two-part badge like the ones code hosts show in READMEs, with a <title> for
    screen readers and tooltips."""
    # XML allows no control character: one is shown as its escape (`\x1b`), the badge stays readable
    label, status = visible(badge_label(feature)), visible(badge_status(feature, lang))
    left, right = _text_width(label), _text_width(status)
    width = left + right
    title = html.escape(f"{label}: {status}")
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" aria-label="{title}">'
        f"<title>{title}</title>"
        f'<rect width="{left}" height="20" fill="{_LABEL_COLOUR}"/>'
        f'<rect x="{left}" width="{right}" height="20" fill="{badge_colour(feature)}"/>'
        '<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
        f'<text x="{left / 2:g}" y="14">{html.escape(label)}</text>'
        f'<text x="{left + right / 2:g}" y="14">{html.escape(status)}</text>'
        "</g></svg>\n"
    )
    return svg.encode("utf-8")
