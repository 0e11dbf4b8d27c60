"""Charts drawn at build time as inline SVG: readable without JavaScript, with a text alternative.

Colours come from CSS classes (docs/assets/stylesheets/releasekb.css), so charts follow the
light and dark palettes. Every text goes through safe_text.xml_text, so a chart is valid XML
whatever the data holds. Each function returns one line of markup: a blank line would end
the raw HTML block Markdown leaves untouched.
"""

from __future__ import annotations

from markupsafe import Markup

from releasekb.common.cjk import display_width
from releasekb.common.formatting import format_number
from releasekb.common.i18n import count_text, interface_strings
from releasekb.common.locales import Strings
from releasekb.common.safe_text import xml_text
from releasekb.kb.catalog import Catalog, Feature, Level, Release

ROW_HEIGHT = 26
# A lifecycle marker of a release that mentioned the feature without restating its level.
_NOT_RESTATED = 'fill-opacity="0.45" stroke="currentColor" stroke-width="1.5" stroke-dasharray="3 2"'
LABEL_WIDTH = 70
BAR_WIDTH = 480


def plain(text: str) -> str:
    """A data text for a label or title, which shows text only: `code` spans lose their backticks."""
    return text.replace("`", "") if text.count("`") % 2 == 0 else text


def _label(strings: Strings, label: str, value: str) -> str:
    """'label: value' with the language's colon (标签：值)."""
    return strings["label"].format(label=label) + value


def _svg(width: int, height: int, label: str, body: str, name: str) -> Markup:
    """The chart at its own size, in a box that scrolls it where the column is narrower (named
    `name`, focusable while it scrolls, as a wide table's: releasekb.css, releasekb.js). A chart
    scaled down to a phone's width had its 12 px text 6 to 8 px tall."""
    return Markup(
        f'<div class="rkb-scroll" role="region" tabindex="0" aria-label="{xml_text(name)}">'
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rkb-svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{xml_text(label)}">'
        f"<title>{xml_text(label)}</title>{body}</svg></div>"
    )


def _bar(y: int, counts: list[tuple[Level, int]], strings: Strings, scale: float) -> str:
    lang = strings.lang
    x, parts = LABEL_WIDTH, []
    for level, count in counts:
        if not count:
            continue
        width = count * scale
        shown = format_number(lang, count)
        parts.append(
            f'<rect class="rkb-fill-{xml_text(level.key)}" x="{x:.1f}" y="{y}" width="{width:.1f}" '
            f'height="{ROW_HEIGHT - 8}"><title>{xml_text(_label(strings, level.name[lang], shown))}</title></rect>'
        )
        if width >= 22:
            parts.append(
                f'<text class="rkb-bar-count" x="{x + width / 2:.1f}" y="{y + ROW_HEIGHT / 2 + 1}" '
                f'text-anchor="middle">{shown}</text>'
            )
        x += width
    return "".join(parts)


def _legend(levels: list[Level], lang: str, y: int) -> str:
    parts, x = [], LABEL_WIDTH
    for level in levels:
        name = xml_text(level.name[lang])
        parts.append(
            f'<rect class="rkb-fill-{xml_text(level.key)}" x="{x}" y="{y}" width="12" height="12"/>'
            f'<text class="rkb-svg-text" x="{x + 16}" y="{y + 11}">{name}</text>'
        )
        x += 28 + 9 * display_width(level.name[lang])  # wide (Chinese) characters take two units
    return "".join(parts)


def _describe(counts: list[tuple[Level, int]], strings: Strings) -> str:
    lang = strings.lang
    return strings["list_separator"].join(
        f"{level.name[lang]} {format_number(lang, count)}" for level, count in counts if count
    )


def release_levels(release: Release, lang: str, title: str) -> Markup:
    """One stacked bar: how many of a release's features carry each level."""
    strings = interface_strings(lang, release.catalog.data_dir)
    counts = release.level_counts
    total = sum(c for _, c in counts) or 1
    height = ROW_HEIGHT + 26
    body = (
        f'<text class="rkb-svg-text" x="0" y="{ROW_HEIGHT / 2 + 5}">{xml_text(release.version)}</text>'
        + _bar(4, counts, strings, BAR_WIDTH / total)
        + _legend([level for level, _ in counts], lang, ROW_HEIGHT + 6)
    )
    return _svg(LABEL_WIDTH + BAR_WIDTH + 10, height, _label(strings, title, _describe(counts, strings)), body, title)


def distribution(catalog: Catalog, lang: str, title: str) -> Markup:
    """One stacked bar per release: how many features are at each level as of it
    (Catalog.levels_as_of), bars scaled to the largest count."""
    strings = interface_strings(lang, catalog.data_dir)
    as_of = catalog.levels_as_of
    releases = [release for release, _ in as_of]
    largest = max(sum(c for _, c in counts) for _, counts in as_of) or 1
    scale = BAR_WIDTH / largest
    rows, used_levels = [], []
    for i, (release, counts) in enumerate(as_of):
        y = i * ROW_HEIGHT
        rows.append(
            f'<text class="rkb-svg-text" x="0" y="{y + ROW_HEIGHT / 2 + 5}">{xml_text(release.version)}</text>'
            + _bar(y + 4, counts, strings, scale)
        )
        used_levels += [level for level, count in counts if count and level not in used_levels]
    ordered = [level for level in catalog.levels.values() if level in used_levels]
    height = len(releases) * ROW_HEIGHT + 26
    separator = strings["clause_separator"]
    description = separator.join(
        _label(strings, release.version, _describe(counts, strings)) for release, counts in as_of
    )
    body = "".join(rows) + _legend(ordered, lang, len(releases) * ROW_HEIGHT + 6)
    return _svg(LABEL_WIDTH + BAR_WIDTH + 10, height, _label(strings, title, description), body, title)


def timeline(feature: Feature, lang: str, strings: Strings) -> Markup:
    """A line through the releases where the feature (or a part of it) appears, with a marker
    for each; '…' marks releases in between that did not mention it. Only those releases are
    drawn, so the chart grows with the feature's own history, never with the whole catalog."""
    events_by_release, shown = {}, {}
    for event in feature.timeline:
        events_by_release.setdefault(event.release.version, []).append(event)
        shown[event.release.version] = event.release
    for entry in feature.entries:
        shown[entry.release.version] = entry.release
    releases = sorted(shown.values(), key=lambda release: release.order)
    step = 120
    width = 40 + step * (len(releases) - 1) + 80
    height = 92
    parts = [f'<line class="rkb-axis" x1="30" y1="34" x2="{width - 30}" y2="34"/>']
    described = []
    for i, release in enumerate(releases):
        x = 40 + i * step
        version = xml_text(release.version)
        if i and release.order - releases[i - 1].order > 1:
            parts.append(f'<text class="rkb-svg-text" x="{x - step // 2}" y="38" text-anchor="middle">…</text>')
        events = events_by_release.get(release.version, [])
        entry = feature.entry_in(release)
        if entry is not None:
            state = entry.in_effect  # the level as of this release (None for a change)
            css = f"rkb-fill-{xml_text(state.level.key)}" if state else f"rkb-fill-{xml_text(entry.kind)}"
            label = state.level.name[lang] if state else strings[f"change_{entry.kind}"]
            if state and state.carried:
                # the release mentioned the feature without restating its level: a lighter,
                # dashed marker, and the words under the level's name
                parts.append(f'<circle class="{css}" cx="{x}" cy="34" r="9" {_NOT_RESTATED}/>')
                note = strings["timeline_not_restated"]
                parts.append(f'<text class="rkb-svg-text" x="{x}" y="82" text-anchor="middle">{xml_text(note)}</text>')
            else:
                parts.append(f'<circle class="{css}" cx="{x}" cy="34" r="9"/>')
            parts.append(f'<text class="rkb-svg-text" x="{x}" y="66" text-anchor="middle">{xml_text(label)}</text>')
            provenance = state.provenance(strings) if state else ""
            described.append(_label(strings, release.version, label + (f" {provenance}" if provenance else "")))
        else:
            parts.append(f'<circle class="rkb-part" cx="{x}" cy="34" r="6"/>')
            label = count_text(strings, "timeline_additions", len(events))
            parts.append(f'<text class="rkb-svg-text" x="{x}" y="66" text-anchor="middle">{xml_text(label)}</text>')
            described.append(_label(strings, release.version, label))
        parts.append(f'<text class="rkb-svg-text rkb-strong" x="{x}" y="16" text-anchor="middle">{version}</text>')
    steps = strings["clause_separator"].join(described)
    label = strings["timeline_label"].format(title=plain(feature.title[lang]), steps=steps)
    return _svg(width, height, label, "".join(parts), strings["lifecycle"])
