"""Stage 3, catalog: the cross-version model the site and the CLI read.

A feature is every entry with the same id across releases, in version order; its
lifecycle and the changelog events (introduced, promoted, demoted, breaking change...)
are computed here, once, so templates only loop and print.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from releasekb.common.i18n import interface_strings
from releasekb.common.versions import version_key
from releasekb.kb.dataset import ValidatedData
from releasekb.kb.model import (
    FIX_KINDS,
    RESERVED_ANCHOR_PREFIX,
    UNLABELED,
    ApiUse,
    CallForm,
    ChangeEntry,
    FeatureEntry,
    code_language,
)
from releasekb.kb.translations import stale_entry_keys

Text = dict[str, str]  # language -> text


@dataclass(frozen=True)
class EventKind:
    """What a release can do to a feature, as its changelog says it."""

    key: str
    upgrade: bool = False  # a reader upgrading across the release must not miss it
    milestone: bool = False  # a feature's compact lifecycle shows it (besides its first appearance)
    changes_level: bool = False  # the event's own text names the levels (no level badge beside it)

    @property
    def heading_key(self) -> str:
        """The interface string heading a changelog's group of such events."""
        return f"events_{self.key}"

    @property
    def text_key(self) -> str:
        """The interface string saying what happened ('promoted from {before} to {after}')."""
        return f"event_{self.key}"


# The one table of event kinds, in the order a release's changelog lists them.
EVENT_KINDS: dict[str, EventKind] = {
    kind.key: kind
    for kind in (
        EventKind("breaking", upgrade=True, milestone=True),
        EventKind("removal", upgrade=True, milestone=True),
        EventKind("deprecation", upgrade=True, milestone=True),
        EventKind("promoted", upgrade=True, milestone=True, changes_level=True),
        EventKind("demoted", upgrade=True, milestone=True, changes_level=True),
        EventKind("labeled", milestone=True, changes_level=True),
        EventKind("introduced"),
        EventKind("addition"),
        EventKind("updated"),
        EventKind("improvement"),
        EventKind("fix"),
        EventKind("security"),
    )
}
_EVENT_ORDER = {key: i for i, key in enumerate(EVENT_KINDS)}


class UntranslatedText(str):
    """The default language's text standing in for a text not yet translated (project.yaml
    `untranslated: fallback`): pages mark it with `lang` (its language) and say so."""

    lang: str  # the language of the text (the default language)
    note: str  # what the page says of it, in the page's language ("not yet translated")

    def __new__(cls, text: str, lang: str, note: str) -> UntranslatedText:
        value = super().__new__(cls, text)
        value.lang, value.note = lang, note
        return value


def _text(model, languages: tuple[str, ...], not_yet_translated: dict[str, str]) -> Text:
    """{language: text} in every language of the knowledge base, the default language's text in
    place of one not yet translated (UntranslatedText), with the page language's note
    (`not_yet_translated`: {lang: note}, from the knowledge base's own interface strings, so a
    language only the team's locales/ file speaks has its note too)."""
    default = model[languages[0]]
    return {
        lang: model[lang]
        if model.get(lang) is not None
        else UntranslatedText(default, languages[0], not_yet_translated[lang])
        for lang in languages
    }


@dataclass(frozen=True)
class Level:
    """A stability label as a release published it, or 'unlabeled'."""

    key: str
    rank: int | None
    name: Text
    description: Text
    colour: str | None = None  # the team's '#rrggbb' from project.yaml; else site/level_colours.py picks one


@dataclass(frozen=True)
class LevelInEffect:
    """A feature's level as of a release: the latest level a release stated for it at or before
    that release. A release whose entry states no level leaves the feature where it was (silence
    is not a demotion); a release with a scheme of no labels (0.2) states none either, so a
    feature no release ever gave a level is Unlabeled."""

    level: Level
    stated: Entry | None  # the entry that gave `level`; None: no release has stated one (Unlabeled)
    # Releases after the stating one, up to the release asked about, whose entries for the feature
    # stated no level (oldest first): they left it at `level`.
    not_restated: tuple[Release, ...] = ()

    @property
    def stated_in(self) -> Release | None:
        """The release the level was stated for."""
        return self.stated.release if self.stated else None

    @property
    def stated_by(self) -> str | None:
        """The release whose announcement stated the level, when not the one it was stated for
        (1.5's says the RPC framework came as experimental in 1.4)."""
        return self.stated.level_stated_by if self.stated else None

    @property
    def carried(self) -> bool:
        """Whether a later release mentioned the feature without restating its level."""
        return bool(self.not_restated)

    def provenance(self, strings: dict[str, str], short: bool = False) -> str:
        """Where the level comes from, when not simply from the release asked about: '(stated
        for 1.4 in the 1.5 announcement; 1.5 did not restate it)', '(stated in the 1.5
        announcement)'; '' for a level the release stated itself, and for Unlabeled."""
        stated = self.stated
        if stated is None:
            return ""
        if self.carried:
            releases = list_text([release.version for release in self.not_restated], strings)
            if short:
                return strings["level_not_restated_short"].format(release=stated.release.version, releases=releases)
            if self.stated_by:
                key, version = "level_not_restated_cited", self.stated_by
            else:
                key, version = "level_not_restated", stated.release.version
            return strings[key].format(release=stated.release.version, version=version, releases=releases)
        if self.stated_by:
            return strings["level_stated_by_short" if short else "level_stated_by"].format(version=self.stated_by)
        return ""

    def restated_in(self, release: Release) -> LevelInEffect:
        """The level after `release` mentioned the feature without stating one."""
        if self.stated is None:
            return self
        return LevelInEffect(self.level, self.stated, (*self.not_restated, release))


def list_text(items: list[str], strings: dict[str, str]) -> str:
    """'1.5', '1.5 and 1.7', '1.5, 1.6 and 1.7' (in Chinese '1.5、1.6、1.7')."""
    if len(items) < 2:
        return "".join(items)
    return strings["list_pair"].format(first=strings["list_separator"].join(items[:-1]), last=items[-1])


@dataclass(frozen=True)
class Area:
    key: str
    name: Text

    @property
    def anchor(self) -> str:
        """The id of the area's section on a page grouping entries by area ('area-distributed')."""
        return RESERVED_ANCHOR_PREFIX + self.key


@dataclass(frozen=True)
class Link:
    kind: str
    url: str

    @property
    def label_key(self) -> str:
        return f"link_{self.kind}"


@dataclass(frozen=True)
class CallCondition:
    """The calls of an API an entry concerns, by the arguments they pass (see model.CallForm)."""

    params: tuple[str, ...]
    passed: tuple[str, ...]
    not_passed: tuple[str, ...]

    def as_dict(self) -> dict[str, list[str]]:
        return {"params": list(self.params), "passed": list(self.passed), "not_passed": list(self.not_passed)}


@dataclass(frozen=True)
class ApiRef:
    """An API an entry touches: its canonical name, how a use in code matches it (model.API_USES)
    and the API that replaces it, if the entry names one."""

    name: str
    use: str = "any"
    replacement: str | None = None
    introduced: bool = False  # this entry brought the API (see model.ApiUse.introduced)
    drop_in: bool = True  # `replacement` can be swapped in as it is (see model.ApiUse.drop_in)
    when: CallCondition | None = None  # only these calls (see model.ApiUse.when)


@dataclass(frozen=True)
class Source:
    kind: str
    lang: str
    url: str | None
    credit: str | None

    @property
    def label_key(self) -> str:
        return f"source_{self.kind}"


@dataclass(eq=False)
class Entry:
    """What one release says about one feature or change."""

    release: Release
    id: str
    is_change: bool
    kind: str  # new | improvement | fix | security, or breaking | deprecation | removal
    area: Area
    level: Level | None  # None for changes
    # The release whose announcement stated `level`, when this release's did not (None: its own).
    level_stated_by: str | None
    name: Text | None
    title: Text
    summary: Text
    migration: Text | None
    api_refs: tuple[ApiRef, ...]
    links: tuple[Link, ...]
    part_of: str | None
    aliases: tuple[str, ...]
    former_anchors: tuple[str, ...]  # on the release page (see model.Entry.former_anchors)
    position: int  # order in the release file
    # For a change: the later release in which it takes effect (model.ChangeEntry.takes_effect),
    # None when it does in its own release. It may be a release the data does not describe.
    takes_effect: str | None = None
    # Languages whose translation of this entry's texts may be out of date (see translations.py).
    stale_languages: frozenset[str] = frozenset()
    feature: Feature = field(init=False)
    # The feature's level as of this entry's release, `level` or the one an earlier release
    # stated when this release stated none (None for changes): what pages show beside the entry.
    in_effect: LevelInEffect | None = field(init=False, default=None)

    def __repr__(self) -> str:  # the default would print the whole catalog through `release`
        return f"<Entry {self.release.version}:{self.id}>"

    @cached_property  # read for every row of the overviews: tens of thousands of times
    def apis(self) -> tuple[str, ...]:
        """The API names, as pages list them."""
        return tuple(dict.fromkeys(ref.name for ref in self.api_refs))

    @property
    def anchors_kept(self) -> tuple[str, ...]:
        """Former anchors that lead to this entry on its release page: its own, and for a feature
        entry the feature's former ids."""
        return self.former_anchors if self.is_change else (*self.feature.aliases, *self.former_anchors)

    @property
    def label_key(self) -> str:
        """The interface string naming the entry's kind ('kind_new', 'change_breaking')."""
        return f"change_{self.kind}" if self.is_change else f"kind_{self.kind}"

    @property
    def status_key(self) -> str:
        """The level the release published, or for a change its kind: 'beta', 'change-removal'."""
        return self.level.key if self.level else f"change-{self.kind}"

    @property
    def states_level(self) -> bool:
        """Whether this release stated a level for the feature (its own announcement or, cited,
        a later one): a feature entry with a label, not an unlabeled one or a change."""
        return self.level is not None and self.level.key != UNLABELED


@dataclass(frozen=True)
class Relation:
    """A feature another one's page links to, and why (its interface string `related_<kind>`):
    `same_name` (this feature's API `api` is also the name of an older API that `other` changes),
    `now_named` (the converse: `api`, which this change concerns, now also names `other`),
    `replaced_by` (this change's `api` is replaced by `replacement`, which `other` provides),
    `replaces` (the converse)."""

    kind: str
    api: str
    other: Feature
    replacement: str = ""

    @property
    def text_key(self) -> str:
        return f"related_{self.kind}"


@dataclass(eq=False)
class Feature:
    """One id across releases: its entries in version order and what happened to it."""

    id: str
    entries: list[Entry] = field(default_factory=list)
    parent: Feature | None = None
    parts: list[Feature] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"<Feature {self.id}>"

    @property
    def latest(self) -> Entry:
        return self.entries[-1]

    @property
    def first(self) -> Entry:
        return self.entries[0]

    @property
    def title(self) -> Text:
        names = [e.name for e in self.entries if e.name]
        return names[-1] if names else self.first.title

    @property
    def area(self) -> Area:
        return self.latest.area

    @property
    def current(self) -> LevelInEffect | None:
        """The feature's level as of the latest release: None when only changes mention it, and
        when a release removed it (its current state is then `removed_in`, never its last level)."""
        if self.removed_in is not None:
            return None
        return next((e.in_effect for e in reversed(self.entries) if e.in_effect is not None), None)

    @property
    def level_entry(self) -> Entry | None:
        """The entry that stated the current level; while no release has stated one, the latest
        feature entry (Unlabeled). None when only changes mention the feature."""
        current = self.current
        if current is None:
            return None
        return current.stated or next(e for e in reversed(self.entries) if e.in_effect is not None)

    @property
    def level(self) -> Level | None:
        """The latest stability stated for the feature itself (None for changes only)."""
        current = self.current
        return current.level if current else None

    @property
    def level_stated_in(self) -> Release | None:
        """The 'as of' of `level`: the release it was stated for, else (Unlabeled) the latest
        release that mentioned the feature."""
        entry = self.level_entry
        return entry.release if entry else None

    def level_as_of(self, release: Release) -> LevelInEffect | None:
        """The feature's level as of `release`: the latest level stated at or before it. None
        when the feature had no feature entry by then, or was removed at or before it."""
        removed = self.removed_in
        if removed is not None and removed.order <= release.order:
            return None
        return next(
            (e.in_effect for e in reversed(self.entries) if e.in_effect and e.release.order <= release.order), None
        )

    @property
    def level_since(self) -> Release | None:
        """The release from which the feature has held its current level (labels of equal
        rank count as one level, as for promotions; a release that did not restate the level
        does not interrupt it); None for changes only."""
        return self.level_since_as_of(None)

    def level_since_as_of(self, release: Release | None) -> Release | None:
        """level_since, for the level the feature had as of `release` (None: the latest); None
        once it was removed."""
        if self.level_as_of(release or self.first.release.catalog.latest) is None:
            return None
        entries = [e for e in self.entries if e.in_effect is not None]  # a change says nothing about the level
        if release is not None:
            entries = [e for e in entries if e.release.order <= release.order]
        if not entries:
            return None
        current, since = entries[-1].in_effect.level, None
        for entry in reversed(entries):
            if not _same_level(entry.in_effect.level, current):
                break
            since = entry.release
        return since

    @property
    def level_history(self) -> list[tuple[Release, str]]:
        """(release, level key) at each release from which the feature's level in effect
        differs from the one before, 'removed' from its removal on: what the features index
        reads to answer 'at level L as of release R' (releasekb.js)."""
        history: list[tuple[Release, str]] = []
        for entry in self.entries:
            if entry.is_change and entry.kind == "removal":
                state = "removed"
            elif entry.in_effect is not None:
                state = entry.in_effect.level.key
            else:
                continue
            if not history or history[-1][1] != state:
                history.append((entry.release, state))
            if state == "removed":
                break
        return history

    @property
    def level_key(self) -> str:
        """The current level's key, '' when only changes mention the feature."""
        return self.level.key if self.level else ""

    @property
    def level_since_version(self) -> str:
        since = self.level_since
        return since.version if since else ""

    @property
    def milestones(self) -> list[Event]:
        """A compact lifecycle: the first appearance, then level changes, breaking changes,
        deprecations and removals (not every mention), one per release at most."""
        return [ev for i, ev in enumerate(self.events) if i == 0 or ev.kind_info.milestone]

    @property
    def removed_in(self) -> Release | None:
        return next((e.release for e in self.entries if e.is_change and e.kind == "removal"), None)

    @property
    def is_fix_only(self) -> bool:
        return all(not e.is_change and e.kind in FIX_KINDS for e in self.entries)

    @property
    def releases(self) -> list[Release]:
        return [e.release for e in self.entries]

    @property
    def apis(self) -> list[str]:
        return list(dict.fromkeys(api for e in self.entries for api in e.apis))

    @property
    def aliases(self) -> list[str]:
        return list(dict.fromkeys(alias for e in self.entries for alias in e.aliases))

    @property
    def code_languages(self) -> list[str]:
        """The languages (project.yaml `code.roots`) of the feature's APIs that are code."""
        roots = self.first.release.catalog.code_roots
        return sorted({language for api in self.apis if (language := code_language(api, roots))})

    @property
    def level_order(self) -> int:
        """Sort key of the current level: most stable first, unlabeled next, changes only and
        removed last."""
        return self.first.release.catalog.state_order(self.level_key)

    def filter_text(self, lang: str) -> str:
        """What the features index's text filter searches, lowercased once here: the id, API
        names and every title and summary of the feature in `lang` (distinct texts once)."""
        texts = [self.id, *self.apis]
        for entry in self.entries:
            texts += [entry.name[lang] if entry.name else "", entry.title[lang], entry.summary[lang]]
        return " ".join(dict.fromkeys(text.lower() for text in texts if text))

    @property
    def related(self) -> list[tuple[Feature, list[Relation]]]:
        """The other features this one's page links to, each with why (Catalog.relations)."""
        grouped: dict[str, tuple[Feature, list[Relation]]] = {}
        for relation in self.first.release.catalog.relations.get(self.id, []):
            grouped.setdefault(relation.other.id, (relation.other, []))[1].append(relation)
        return list(grouped.values())

    def entry_in(self, release: Release) -> Entry | None:
        return next((e for e in self.entries if e.release is release), None)

    @property
    def not_covered(self) -> list[str]:
        """The releases not described between the feature's first release and its removal (or the
        latest release): its history there is unknown here."""
        catalog = self.first.release.catalog
        return catalog.not_described_between(self.first.release, self.removed_in or catalog.latest)

    @property
    def timeline(self) -> list[Event]:
        """Own events plus the introduction of each part, in version order."""
        part_events = [ev for part in self.parts for ev in part.events if ev.kind == "addition"]
        return sorted(self.events + part_events, key=lambda ev: (ev.release.order, ev.entry.position))

    def is_part_event(self, event: Event) -> bool:
        """True for a timeline line that introduces one of the feature's parts (it names the part)."""
        return event.feature is not self


@dataclass(eq=False)
class Event:
    """A changelog line: what a release did to a feature."""

    kind: str
    entry: Entry
    before: Level | None = None  # for promoted / demoted / labeled
    after: Level | None = None

    @property
    def release(self) -> Release:
        return self.entry.release

    @property
    def feature(self) -> Feature:
        return self.entry.feature

    def __repr__(self) -> str:
        return f"<Event {self.kind} {self.entry.release.version}:{self.entry.id}>"

    @property
    def kind_info(self) -> EventKind:
        return EVENT_KINDS[self.kind]

    @property
    def shows_level_badge(self) -> bool:
        """Whether a lifecycle line shows the entry's level beside the event's text: not when the
        text already names the levels ('promoted from Beta to Stable')."""
        return self.entry.level is not None and not self.kind_info.changes_level


@dataclass(eq=False)
class Release:
    catalog: Catalog
    version: str
    date: str
    scheme: str
    scheme_levels: list[Level]
    title: Text
    summary: Text
    sources: list[Source]
    entries: list[Entry] = field(default_factory=list)
    highlight_ids: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    previous: Release | None = None
    next: Release | None = None
    stale_languages: frozenset[str] = frozenset()  # of the release's own title and summary
    order: int = 0  # position in version order (0 = oldest): a sort key, as "1.10" > "1.9"
    # Changes announced by earlier releases that take effect here, or in a release not described
    # between the previous release and this one (Entry.takes_effect): an upgrade crossing this
    # release meets them, also from the release that announced them.
    taking_effect: list[Entry] = field(default_factory=list)
    # The notes not released yet, shown as the next release (`serve`, `build --unreleased`).
    preview: bool = False

    def __repr__(self) -> str:
        return f"<Release {self.version}>"

    @property
    def anchor(self) -> str:
        """The id of this release's section on pages listing several releases ('v1-7'):
        anchors are ASCII, and a dot would read as a CSS class in a selector."""
        return "v" + self.version.replace(".", "-")

    @property
    def former_title_anchor(self) -> str:
        """The id the release page's title had while pages were Markdown ('pytorch-17', from
        'PyTorch 1.7'): published addresses ended with it, so the page keeps it."""
        name = self.display_name[self.catalog.default_language].lower()
        return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", name, flags=re.ASCII)).strip("-")

    @property
    def display_name(self) -> Text:
        """How pages, feeds and the inventory name the release: 'PyTorch 1.7'."""
        return {lang: f"{name} {self.version}" for lang, name in self.catalog.product_name.items()}

    @property
    def features(self) -> list[Entry]:
        return [e for e in self.entries if not e.is_change]

    @property
    def changes(self) -> list[Entry]:
        return [e for e in self.entries if e.is_change]

    @property
    def changes_by_kind(self) -> list[tuple[str, list[Entry]]]:
        """The release's breaking changes, removals and deprecations, by kind, in the changelog's
        order: the summary a release page opens with."""
        return [(kind, entries) for kind in EVENT_KINDS if (entries := [e for e in self.changes if e.kind == kind])]

    @property
    def highlights(self) -> list[Entry]:
        by_id = {e.id: e for e in self.entries}
        return [by_id[i] for i in self.highlight_ids]

    @property
    def features_by_area(self) -> list[tuple[Area, list[Entry]]]:
        """Features grouped by area, areas in project.yaml order, entries in file order."""
        return [
            (area, entries)
            for area in self.catalog.areas.values()
            if (entries := [e for e in self.features if e.area is area])
        ]

    @property
    def level_counts(self) -> list[tuple[Level, int]]:
        """How many of the release's features carry each level (in effect: a feature it mentions
        without stating a level keeps the one stated before): the scheme's labels first, then
        any other level such a feature keeps, then unlabeled."""
        counts = Counter(e.in_effect.level.key for e in self.features)
        others = [level for level in self.catalog.levels.values() if level not in self.scheme_levels]
        levels = [*self.scheme_levels, *(level for level in others if level.key != UNLABELED)]
        levels.append(self.catalog.levels[UNLABELED])
        return [
            (level, counts[level.key])
            for level in levels
            if counts[level.key] or (level.rank and level in self.scheme_levels)
        ]

    @property
    def not_described_before(self) -> list[str]:
        """The releases not described between the previous release and this one (project.yaml
        `releases_not_described`): an upgrade crossing this release crosses them too. Each such
        release is named by one release at most, so the pages stay linear in releases."""
        return self.catalog.not_described_between(self.previous, self) if self.previous else []

    @property
    def upgrade_events(self) -> list[Event]:
        """What an upgrader crossing this release must know: breaking changes, removals,
        deprecations and level changes, in changelog order."""
        return [ev for ev in self.events if ev.kind_info.upgrade]

    @property
    def events_by_kind(self) -> list[tuple[EventKind, list[Event]]]:
        """The release's changelog: its events grouped by kind, in the table's order."""
        return _group_by_kind(self.events)

    @property
    def upgrade_events_by_kind(self) -> list[tuple[EventKind, list[Event]]]:
        return _group_by_kind(self.upgrade_events)


@dataclass(eq=False)
class Catalog:
    # project.yaml `languages`: the first is the default, served at the site root
    languages: tuple[str, ...]
    product_name: Text
    site_name: Text
    areas: dict[str, Area]
    levels: dict[str, Level]  # every label of project.yaml, then unlabeled
    releases: list[Release] = field(default_factory=list)  # oldest first
    features: dict[str, Feature] = field(default_factory=dict)  # in order of first appearance
    redirects: dict[str, str] = field(default_factory=dict)  # former address -> current address
    # language -> roots of its API names (project.yaml `code.roots`), for `releasekb check`
    code_roots: dict[str, list[str]] = field(default_factory=dict)
    code_files: dict[str, list[str]] = field(default_factory=dict)  # language -> --include patterns
    site_url: str = ""  # the knowledge base's public address (project.yaml), for `check`'s links
    # the data folder, whose locales/<lang>.yaml are the team's own interface strings
    # (common/locales.py): every page, feed and badge of this catalog takes its strings with it
    data_dir: Path | None = None
    # The product's releases no release file describes (project.yaml `releases_not_described`),
    # in version order.
    not_described: list[str] = field(default_factory=list)
    # {lang: the note beside a text shown in the default language} (_text), in the team's words
    not_yet_translated: dict[str, str] = field(default_factory=dict)

    @cached_property
    def _not_described_keys(self) -> list[tuple]:
        return [version_key(version) for version in self.not_described]

    def not_described_between(self, after: Release | None, upto: Release) -> list[str]:
        """The releases not described after `after` (None: from the start) up to `upto`: the
        gaps an upgrade from `after` to `upto` crosses."""
        keys = self._not_described_keys
        start = bisect_right(keys, version_key(after.version)) if after else 0
        return self.not_described[start : bisect_left(keys, version_key(upto.version))]

    def __repr__(self) -> str:
        return f"<Catalog of {len(self.releases)} releases, {len(self.features)} features>"

    @property
    def default_language(self) -> str:
        return self.languages[0]

    @property
    def translated_languages(self) -> tuple[str, ...]:
        return self.languages[1:]

    @property
    def latest(self) -> Release:
        return self.releases[-1]

    @property
    def releases_newest_first(self) -> list[Release]:
        return self.releases[::-1]

    def release(self, version: str) -> Release:
        return next(r for r in self.releases if r.version == version)

    @cached_property
    def overview_features(self) -> list[Feature]:
        """Rows of the stability overview: every feature and change, not the bug fixes."""
        return [f for f in self.features.values() if not f.is_fix_only]

    @property
    def overview_by_area(self) -> list[tuple[Area, list[Feature]]]:
        """The stability overview's rows grouped by area (project.yaml order), one row per
        feature: linear in features, whatever the number of releases."""
        groups: dict[str, list[Feature]] = {key: [] for key in self.areas}
        for feature in self.overview_features:
            groups[feature.area.key].append(feature)
        return [(self.areas[key], features) for key, features in groups.items() if features]

    def features_now(self, level: Level) -> list[Feature]:
        """The features at `level` as of the latest release (what a level page lists first, and
        what the last row of levels_as_of counts)."""
        return list(self._features_by_level[0].get(level.key, ()))

    def releases_with_entries_at(self, level: Level) -> list[Release]:
        """The releases (oldest first) with entries at `level` in effect: a level page once had a
        section for each, at `#<release.anchor>`, and still holds that anchor (addresses and
        their anchors are kept for good)."""
        return [r for r in self.releases if any(e.in_effect.level is level for e in r.features)]

    def features_before(self, level: Level) -> list[tuple[Feature, list[tuple[Release, Release]]]]:
        """The features at `level` as of some earlier release but not as of the latest, each with
        the periods it held that level, (from, until) releases (level_history): a level page lists
        them apart, with where each is now, so that no reader takes them for the level's members."""
        return list(self._features_by_level[1].get(level.key, ()))

    @cached_property
    def _features_by_level(
        self,
    ) -> tuple[dict[str, list[Feature]], dict[str, list[tuple[Feature, list[tuple[Release, Release]]]]]]:
        """({level key: the features at it now}, {level key: the features at it before, with
        their periods}), in the features' order: one pass over the features for every level page,
        not one per level page (each asked for all the features' levels again)."""
        now: dict[str, list[Feature]] = {}
        before: dict[str, list[tuple[Feature, list[tuple[Release, Release]]]]] = {}
        for feature in self.features.values():
            level = feature.level
            if level is not None:
                now.setdefault(level.key, []).append(feature)
            history = feature.level_history
            periods: dict[str, list[tuple[Release, Release]]] = {}
            for i, (release, state) in enumerate(history[:-1]):
                periods.setdefault(state, []).append((release, history[i + 1][0]))
            for key, held in periods.items():
                if level is None or level.key != key:
                    before.setdefault(key, []).append((feature, held))
        return now, before

    @cached_property
    def levels_as_of(self) -> list[tuple[Release, list[tuple[Level, int]]]]:
        """Per release (oldest first), how many features are at each level as of it (every
        level, most stable first, unlabeled last): the latest level stated at or before the
        release, features removed by then left out. The features index lists each count's
        features (`?stability=<level>&as_of=<version>`). One pass over the features' level
        changes, not releases x features."""
        changes: dict[int, list[tuple[str | None, str]]] = {}
        for feature in self.features.values():
            before = None
            for release, state in feature.level_history:
                changes.setdefault(release.order, []).append((before, state))
                before = state
        counts: Counter[str] = Counter()
        result = []
        for release in self.releases:
            for before, after in changes.get(release.order, ()):
                if before is not None:
                    counts[before] -= 1
                counts[after] += 1
            result.append((release, [(level, counts[level.key]) for level in self.levels.values()]))
        return result

    def state_order(self, state: str) -> int:
        """Sort key of a level key (most stable first, unlabeled next); any other state (a
        removal, a feature only changes mention: '') sorts last."""
        order = {key: i for i, key in enumerate(self.levels)}
        return order.get(state, len(order))

    @cached_property
    def most_stable_level(self) -> Level | None:
        """The project's highest-ranked label (None when it has no labels)."""
        return next((level for level in self.levels.values() if level.rank is not None), None)

    @cached_property
    def api_providers(self) -> dict[str, list[Feature]]:
        """API name -> the features with a feature entry that lists it (not a change's)."""
        providers: dict[str, list[Feature]] = {}
        for feature in self.features.values():
            names = dict.fromkeys(ref.name for e in feature.entries if not e.is_change for ref in e.api_refs)
            for name in names:
                providers.setdefault(name, []).append(feature)
        return providers

    def provider_of(self, api: str) -> Feature | None:
        """The feature that provides `api`: the first that lists it, else the first that lists the
        nearest module it is in (`torch.fft.ifft`: the feature of `torch.fft`); None if none."""
        parts = api.split(".")
        for end in range(len(parts), 0, -1):
            found = self.api_providers.get(".".join(parts[:end]))
            if found:
                return found[0]
        return None

    @cached_property
    def relations(self) -> dict[str, list[Relation]]:
        """Feature id -> its Relations, both ways, from the data alone: a change's API that a
        feature also lists (the deprecated `torch.fft` function and the `torch.fft` module), and a
        change's `replacement` API and the feature that provides it (provider_of)."""
        found: dict[str, dict[tuple, Relation]] = {}

        def relate(feature: Feature, relation: Relation) -> None:
            if relation.other is not feature:
                found.setdefault(feature.id, {})[(relation.kind, relation.api, relation.other.id)] = relation

        for feature in self.features.values():
            for entry in feature.entries:
                if not entry.is_change:
                    continue
                for ref in entry.api_refs:
                    for provider in self.api_providers.get(ref.name, ()):
                        relate(feature, Relation("now_named", ref.name, provider))
                        relate(provider, Relation("same_name", ref.name, feature))
                    provider = self.provider_of(ref.replacement) if ref.replacement else None
                    if provider is not None:
                        relate(feature, Relation("replaced_by", ref.name, provider, ref.replacement))
                        relate(provider, Relation("replaces", ref.name, feature, ref.replacement))
        return {key: list(relations.values()) for key, relations in found.items()}

    @property
    def upgrade_sources(self) -> list[Release]:
        """The releases one can upgrade from (all but the latest), oldest first."""
        return self.releases[:-1]

    @property
    def upgrade_releases(self) -> list[Release]:
        """The releases one can upgrade to (all but the first), oldest first: the upgrade view
        has one section per release, so it answers every (from, to) pair in linear size."""
        return self.releases[1:]


def build_catalog(data: ValidatedData) -> Catalog:
    """Build the cross-version model from validated data (ordered by version)."""
    project = data.project
    languages = tuple(project.languages)
    data_dir = data.project_document.path.parent
    unlabeled_strings = {lang: interface_strings(lang, data_dir) for lang in languages}
    not_yet_translated = {lang: strings["not_yet_translated"] for lang, strings in unlabeled_strings.items()}
    levels = {
        key: Level(
            key,
            label.rank,
            _text(label.name, languages, not_yet_translated),
            _text(label.description, languages, not_yet_translated),
            label.colour,
        )
        for key, label in sorted(project.stability.labels.items(), key=lambda kv: -kv[1].rank)
    }
    levels[UNLABELED] = Level(
        UNLABELED,
        None,
        {lang: s["level_unlabeled"] for lang, s in unlabeled_strings.items()},
        {lang: s["level_unlabeled_description"] for lang, s in unlabeled_strings.items()},
    )
    catalog = Catalog(
        languages=languages,
        product_name=_text(project.product.name, languages, not_yet_translated),
        site_name=_text(project.product.site_name, languages, not_yet_translated),
        areas={key: Area(key, _text(name, languages, not_yet_translated)) for key, name in project.areas.items()},
        levels=levels,
        redirects=dict(project.redirects),
        code_roots={lang: list(roots) for lang, roots in project.code.roots.items()} if project.code else {},
        code_files={lang: list(files) for lang, files in project.code.files.items()} if project.code else {},
        site_url=project.site_url or "",
        data_dir=data_dir,
        not_described=sorted(project.releases_not_described, key=version_key),
        not_yet_translated=not_yet_translated,
    )
    stale = stale_entry_keys(data)
    for loaded in data.releases:
        record = loaded.record
        release = Release(
            catalog=catalog,
            version=record.version,
            date=record.date,
            scheme=record.scheme,
            scheme_levels=[levels[key] for key in project.stability.schemes[record.scheme]],
            title=_text(record.title, languages, not_yet_translated),
            summary=_text(record.summary, languages, not_yet_translated),
            sources=[Source(s.kind, s.lang, s.url, s.credit) for s in record.sources],
            highlight_ids=list(record.highlights),
            stale_languages=frozenset(stale.get(record.version, ())),
            order=len(catalog.releases),
            preview=record.version == data.preview_version,
        )
        for position, raw in enumerate([*record.features, *record.changes]):
            entry = _entry(release, raw, position, catalog)
            entry.stale_languages = frozenset(stale.get(f"{record.version}:{raw.id}", ()))
            feature = catalog.features.setdefault(entry.id, Feature(entry.id))
            entry.feature = feature
            feature.entries.append(entry)
            release.entries.append(entry)
        if catalog.releases:
            release.previous = catalog.releases[-1]
            catalog.releases[-1].next = release
        catalog.releases.append(release)

    for feature in catalog.features.values():
        parent_id = next((e.part_of for e in reversed(feature.entries) if e.part_of), None)
        if parent_id:
            feature.parent = catalog.features[parent_id]
            feature.parent.parts.append(feature)
        _compute_events(feature, levels[UNLABELED])
    for feature in catalog.features.values():  # one pass: a pass per release would grow as releases x features
        for event in feature.events:
            event.release.events.append(event)
    for release in catalog.releases:
        release.events.sort(key=lambda ev: (_EVENT_ORDER[ev.kind], ev.entry.position))
    _place_later_effects(catalog)
    return catalog


def _place_later_effects(catalog: Catalog) -> None:
    """Each change that takes effect after its release goes to the first release at or after the
    one it takes effect in (the release an upgrade must cross to meet it); none when that one is
    after the latest release described."""
    keys = [version_key(release.version) for release in catalog.releases]
    for release in catalog.releases:
        for entry in release.changes:
            if entry.takes_effect is None:
                continue
            position = bisect_left(keys, version_key(entry.takes_effect))
            if position < len(catalog.releases):
                catalog.releases[position].taking_effect.append(entry)


def _entry(release: Release, raw: FeatureEntry | ChangeEntry, position: int, catalog: Catalog) -> Entry:
    is_change = isinstance(raw, ChangeEntry)
    languages, not_yet_translated = catalog.languages, catalog.not_yet_translated
    level = None if is_change else catalog.levels[raw.stability or UNLABELED]
    return Entry(
        release=release,
        id=raw.id,
        is_change=is_change,
        kind=raw.kind,
        area=catalog.areas[raw.area],
        level=level,
        level_stated_by=None if is_change else raw.stability_stated_in,
        name=_text(raw.name, languages, not_yet_translated) if raw.name else None,
        title=_text(raw.title, languages, not_yet_translated),
        summary=_text(raw.summary, languages, not_yet_translated),
        migration=_text(raw.migration, languages, not_yet_translated) if is_change else None,
        api_refs=tuple(_api_ref(api, introduces=not is_change and raw.kind == "new") for api in raw.apis),
        links=tuple(Link(link.kind, link.url) for link in raw.links),
        part_of=None if is_change else raw.part_of,
        aliases=tuple(raw.aliases),
        former_anchors=tuple(raw.former_anchors),
        position=position,
        takes_effect=raw.takes_effect if is_change else None,
    )


def _group_by_kind(events: list[Event]) -> list[tuple[EventKind, list[Event]]]:
    groups: dict[str, list[Event]] = {}
    for event in events:
        groups.setdefault(event.kind, []).append(event)
    return [(kind, groups[key]) for key, kind in EVENT_KINDS.items() if key in groups]


def _api_ref(api: str | ApiUse, introduces: bool) -> ApiRef:
    if isinstance(api, str):
        return ApiRef(api, introduced=introduces)
    introduced = introduces if api.introduced is None else api.introduced
    return ApiRef(api.name, api.use, api.replacement, introduced, api.drop_in is not False, _call_condition(api.when))


def _call_condition(when: CallForm | None) -> CallCondition | None:
    return CallCondition(tuple(when.params), tuple(when.passed), tuple(when.not_passed)) if when else None


def _compute_events(feature: Feature, unlabeled: Level) -> None:
    """One event per entry: what that release did to the feature, given what came before; and
    each feature entry's level in effect (a release that states no level keeps the last stated
    one, so it is neither a demotion nor a change of level)."""
    in_effect: LevelInEffect | None = None
    for entry in feature.entries:
        if entry.is_change:
            feature.events.append(Event(entry.kind, entry))
            continue
        before = in_effect
        if entry.states_level:
            in_effect = LevelInEffect(entry.level, entry)
        elif in_effect is not None:
            in_effect = in_effect.restated_in(entry.release)
        else:
            in_effect = LevelInEffect(unlabeled, None)
        entry.in_effect = in_effect
        if before is None:
            # a first entry's event: a new feature is introduced, any other kind is its own event
            kind = "addition" if entry.part_of else ("introduced" if entry.kind == "new" else entry.kind)
            feature.events.append(Event(kind, entry, after=in_effect.level))
        else:
            kind = _level_change(before.level, in_effect.level)
            feature.events.append(Event(kind, entry, before=before.level, after=in_effect.level))


def _same_level(a: Level, b: Level | None) -> bool:
    if b is None:
        return False
    return a.key == b.key or (a.rank is not None and a.rank == b.rank)


def _level_change(before: Level | None, after: Level) -> str:
    if before is None or before.rank is None:
        return "labeled" if after.rank is not None else "updated"
    if after.rank is None or after.rank == before.rank:
        return "updated"
    return "promoted" if after.rank > before.rank else "demoted"
