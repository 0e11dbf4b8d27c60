"""Meaning rules over shape-valid data: one small function per rule, one interface.

Each rule takes the whole validated data and yields Problems; adding a rule means
writing one function and listing it in RULES. Rules run only on files whose shape
is valid, so they may rely on the typed records.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterator

from releasekb.common.cjk import SCRIPT_RULES, has_han, has_han_or_kana
from releasekb.common.i18n import language_name
from releasekb.common.problems import Problem, not_one_of, suggest
from releasekb.common.versions import version_key
from releasekb.kb.dataset import LoadedRelease, ValidatedData, entries, release_texts
from releasekb.kb.kept import kept
from releasekb.kb.loader import Location
from releasekb.kb.model import (
    PYTHON,
    RESERVED_ANCHOR_PREFIX,
    RESERVED_ANCHORS,
    SCHEMA_COMMENT,
    UNLABELED,
    ChangeEntry,
    FeatureEntry,
    GlossaryTerm,
    ProjectFile,
    code_language,
    suggested_code_section,
)
from releasekb.kb.urls import feature_path, level_path, reserved_name

Rule = Callable[[ValidatedData], Iterator[Problem]]


def one_release_at_a_time(check: Callable[[LoadedRelease, ProjectFile], Iterator[Problem]]) -> Rule:
    """A rule that reads one release file (and project.yaml) at a time: each file's problems are
    kept with its loaded object (kept.py), so under `serve` an edit checks again only the files
    it changed, not the 80 of a long history."""

    @functools.wraps(check)
    def rule(data: ValidatedData) -> Iterator[Problem]:
        for release in data.releases:
            work = functools.partial(_problems, check, release, data.project)
            yield from kept(check.__name__, release, data.project, work)

    return rule


def _problems(check, release: LoadedRelease, project: ProjectFile) -> tuple[Problem, ...]:
    return tuple(check(release, project))


def file_name_matches_version(data: ValidatedData) -> Iterator[Problem]:
    for release in data.releases:
        expected = f"{release.record.version}.yaml"
        if release.document.path.name != expected:
            yield release.document.problem(
                ("version",),
                f"version '{release.record.version}' does not match the file name "
                f"'{release.document.path.name}' (rename the file to {expected} or fix the version)",
            )


def one_file_per_version(data: ValidatedData) -> Iterator[Problem]:
    """Two files for one release (a copy, or '1.01' next to '1.1') would make two pages compete
    for one address and one place in every lifecycle."""
    seen: dict[tuple, LoadedRelease] = {}
    for release in data.releases:
        if (first := seen.setdefault(version_key(release.record.version), release)) is not release:
            yield release.document.problem(
                ("version",),
                f"version '{release.record.version}' is the same release as {first.document.display_path} "
                f"(version '{first.record.version}'): one file per release, remove or renumber one of them",
            )


def schema_is_referenced(data: ValidatedData) -> Iterator[Problem]:
    """The first line tells editors (yaml-language-server) which JSON Schema to check with. A
    warning: the file is just as valid without it (`validate` checks it all the same), only less
    helped while it is written."""
    for release in data.releases:
        if release.document.first_line != SCHEMA_COMMENT:
            yield Problem(
                release.document.display_path,
                1,
                1,
                "(document)",
                f"the first line should be '{SCHEMA_COMMENT}' so that editors "
                "validate and complete the file while you type",
                severity="warning",
            )


def scheme_labels_are_defined(data: ValidatedData) -> Iterator[Problem]:
    labels = data.project.stability.labels
    for scheme, scheme_labels in data.project.stability.schemes.items():
        for i, label in enumerate(scheme_labels):
            if label not in labels:
                yield data.project_document.problem(("stability", "schemes", scheme, i), not_one_of(label, labels))


@one_release_at_a_time
def ids_are_unique_in_release(release: LoadedRelease, project: ProjectFile) -> Iterator[Problem]:
    seen: dict[str, Location] = {}
    for location, entry in entries(release):
        if entry.id in seen:
            first = release.document.position((*seen[entry.id], "id"))
            yield release.document.problem(
                (*location, "id"),
                f"duplicate id '{entry.id}' (already used at line {first.line}); one release describes a feature once",
            )
        else:
            seen[entry.id] = location


@one_release_at_a_time
def ids_are_not_reserved_anchors(release: LoadedRelease, project: ProjectFile) -> Iterator[Problem]:
    for location, entry in entries(release):
        if entry.id in RESERVED_ANCHORS or entry.id.startswith(RESERVED_ANCHOR_PREFIX):
            yield release.document.problem(
                (*location, "id"),
                f"'{entry.id}' is reserved for a section of the release page "
                f"({', '.join(RESERVED_ANCHORS)}, {RESERVED_ANCHOR_PREFIX}...); choose another id",
            )


def names_are_free_for_pages(data: ValidatedData) -> Iterator[Problem]:
    """An id (or a former id) names its feature's page, a label key its level's page: one that is
    the name of a page the URL scheme fixes ('index': the features index) would silently replace
    that page, and one Windows reserves ('nul') makes a file Windows cannot hold. `unlabeled` is
    the built-in level of features no release gave a level: a label named so would be replaced."""
    for release in data.releases:
        for location, entry in entries(release):
            names = [
                ((*location, "id"), entry.id),
                *(((*location, "aliases", i), a) for i, a in enumerate(entry.aliases)),
            ]
            for where, name in names:
                if taken := reserved_name(feature_path(name)):
                    yield release.document.problem(where, f"'{name}' cannot be an id: {taken}; choose another id")
    for key in data.project.stability.labels:
        where = ("stability", "labels", key)
        if key == UNLABELED:
            yield data.project_document.problem(
                where,
                f"'{key}' is the built-in level of features no release gave a level, and would replace this "
                "label: choose another key",
                key=True,
            )
        elif taken := reserved_name(level_path(key)):
            yield data.project_document.problem(
                where, f"'{key}' cannot be a label key: {taken}; choose another key", key=True
            )


def aliases_are_free(data: ValidatedData) -> Iterator[Problem]:
    """A former id (alias) redirects to one feature, so it can be neither a current id nor
    the alias of another feature."""
    ids = {entry.id for release in data.releases for _, entry in entries(release)}
    owner: dict[str, str] = {}
    for release in data.releases:
        for location, entry in entries(release):
            for i, alias in enumerate(entry.aliases):
                where = (*location, "aliases", i)
                if alias in ids:
                    yield release.document.problem(
                        where, f"'{alias}' is the id of an entry; an alias must be a former id"
                    )
                elif owner.setdefault(alias, entry.id) != entry.id:
                    yield release.document.problem(
                        where, f"'{alias}' is already an alias of '{owner[alias]}'; it can lead to one feature only"
                    )


def former_anchors_are_free(data: ValidatedData) -> Iterator[Problem]:
    """A former anchor keeps an old link to the release page working, so on that page it can be
    neither an entry's id, nor a section's, nor another entry's former anchor."""
    for release in data.releases:
        ids = {entry.id for _, entry in entries(release)}
        owner: dict[str, str] = {}
        for location, entry in entries(release):
            for i, anchor in enumerate(entry.former_anchors):
                where = (*location, "former_anchors", i)
                if anchor in ids:
                    yield release.document.problem(where, f"'{anchor}' is the id of an entry of this release")
                elif anchor in RESERVED_ANCHORS or anchor.startswith(RESERVED_ANCHOR_PREFIX):
                    yield release.document.problem(where, f"'{anchor}' is reserved for a section of the release page")
                elif owner.setdefault(anchor, entry.id) != entry.id:
                    yield release.document.problem(
                        where, f"'{anchor}' is already a former anchor of '{owner[anchor]}' on this page"
                    )


def borrowed_levels_cite_their_source(data: ValidatedData) -> Iterator[Problem]:
    """A level is shown as published. When a release's own announcement did not state it, the
    entry cites the release whose announcement did, and that release's scheme has the label."""
    releases = {release.record.version: release for release in data.releases}
    labels = data.project.stability.schemes
    for release in data.releases:
        for location, entry in entries(release):
            cited = getattr(entry, "stability_stated_in", None)
            if cited is None:
                continue
            where = (*location, "stability_stated_in")
            if entry.stability is None:
                yield release.document.problem(
                    where, "names where a level was stated, but the entry has no `stability`: add it or remove this"
                )
            elif cited == release.record.version:
                yield release.document.problem(
                    where, "is this entry's own release: remove it (a level this release stated needs no citation)"
                )
            elif cited not in releases:
                if data.complete:
                    yield release.document.problem(
                        where, f"no release '{cited}' in the data{suggest(cited, list(releases))}"
                    )
            elif entry.stability not in labels[releases[cited].record.scheme]:
                scheme = releases[cited].record.scheme
                yield release.document.problem(
                    (*location, "stability"),
                    f"'{entry.stability}' is not a label of {cited}'s scheme '{scheme}', so its announcement "
                    f"cannot have stated it ({', '.join(labels[scheme]) or 'no labels'})",
                )


@one_release_at_a_time
def titles_are_unique_in_release(release: LoadedRelease, project: ProjectFile) -> Iterator[Problem]:
    for lang in project.languages:
        seen: dict[str, str] = {}
        for location, entry in entries(release):
            if entry.title.get(lang) is None:  # not yet translated (untranslated: fallback)
                continue
            title = entry.title[lang].strip().casefold()
            if title in seen:
                yield release.document.problem(
                    (*location, "title", lang),
                    f"the same title is already used by '{seen[title]}'; give each entry its own",
                )
            seen.setdefault(title, entry.id)


@one_release_at_a_time
def highlights_exist(release: LoadedRelease, project: ProjectFile) -> Iterator[Problem]:
    ids = [entry.id for _, entry in entries(release)]
    for i, highlight in enumerate(release.record.highlights):
        if highlight not in ids and release.complete:
            yield release.document.problem(
                ("highlights", i), f"no entry with id '{highlight}' in this release{suggest(highlight, ids)}"
            )


def part_of_refers_to_earlier_feature(data: ValidatedData) -> Iterator[Problem]:
    known: set[str] = set()
    for release in data.releases:
        here = {entry.id for _, entry in entries(release)}
        for location, feature in entries(release):
            target = getattr(feature, "part_of", None)
            if target is None:
                continue
            location = (*location, "part_of")
            if target == feature.id:
                yield release.document.problem(location, "a feature cannot be part of itself")
            elif target not in known and target not in here and data.complete:
                yield release.document.problem(
                    location,
                    f"no feature '{target}' in this or an earlier release{suggest(target, known | here)}",
                )
        known |= here


def changes_name_their_feature(data: ValidatedData) -> Iterator[Problem]:
    """A deprecation, breaking change or removal changes a feature that an entry of this or an
    earlier release describes: a mistyped id would silently start a second feature, while the real
    one stayed at its last level. A change about something no release describes says so with
    `standalone: true`, which is refused where the id is known (it would hide the lifecycle)."""
    if not data.complete:
        return
    described_in: dict[str, str] = {}  # id -> the first release with an entry of that id
    for release in data.releases:
        version = release.record.version
        for _, entry in entries(release):
            if isinstance(entry, FeatureEntry):
                described_in.setdefault(entry.id, version)
        for location, entry in entries(release):
            if not isinstance(entry, ChangeEntry):
                continue
            if entry.standalone and entry.id in described_in:
                yield release.document.problem(
                    (*location, "standalone"),
                    f"'{entry.id}' is described in {described_in[entry.id]}: remove `standalone: true`, "
                    "the change is about that feature",
                )
            elif not entry.standalone and entry.id not in described_in:
                yield release.document.problem(
                    (*location, "id"),
                    f"no feature '{entry.id}' in this or an earlier release{suggest(entry.id, described_in)}: "
                    "write the id of the feature it changes, or add `standalone: true` when it concerns "
                    "something no release describes (older than the first release, or behaviour rather than "
                    "a feature)",
                )
        for _, entry in entries(release):
            described_in.setdefault(entry.id, version)


def removed_ids_stay_removed(data: ValidatedData) -> Iterator[Problem]:
    if not data.complete:
        return
    removed_in: dict[str, str] = {}
    for release in data.releases:
        for location, entry in entries(release):
            if entry.id in removed_in:
                yield release.document.problem(
                    (*location, "id"),
                    f"'{entry.id}' was removed in {removed_in[entry.id]}; "
                    "a removed feature cannot return under the same id (use a new id)",
                )
        for _, entry in entries(release):
            if isinstance(entry, ChangeEntry) and entry.kind == "removal":
                removed_in.setdefault(entry.id, release.record.version)


def undescribed_releases_are_not_described(data: ValidatedData) -> Iterator[Problem]:
    """project.yaml's `releases_not_described` names releases without a file: one with a file
    would be both covered and a gap, and a version listed twice would be named twice as missing."""
    described = {version_key(release.record.version): release for release in data.releases}
    seen: dict[tuple, int] = {}
    listed = data.project.releases_not_described
    for i, version in enumerate(listed):
        location = ("releases_not_described", i)
        if (first := seen.setdefault(version_key(version), i)) != i:
            yield data.project_document.problem(
                location, f"'{version}' is the same release as '{listed[first]}', listed before: list each release once"
            )
        elif version_key(version) in described and data.complete:
            release = described[version_key(version)]
            yield data.project_document.problem(
                location,
                f"'{version}' is described by {release.document.display_path}: remove it from "
                "`releases_not_described`, which lists only releases without a file",
            )


@one_release_at_a_time
def changes_take_effect_later(release: LoadedRelease, project: ProjectFile) -> Iterator[Problem]:
    """`takes_effect` is for a change that a release announces for a later one: at or before the
    announcing release it would say nothing the release itself does not."""
    version = release.record.version
    for location, entry in entries(release):
        effect = getattr(entry, "takes_effect", None)
        if effect is not None and version_key(effect) <= version_key(version):
            yield release.document.problem(
                (*location, "takes_effect"),
                f"'{effect}' is not after {version}, the release that announces the change: write a later "
                "release, or remove `takes_effect` when the change takes effect in this release",
            )


def lifecycles_have_a_name(data: ValidatedData) -> Iterator[Problem]:
    """An id in several releases needs a `name`: entry titles report news ("... becomes
    stable"), while its feature page needs a title that stays true."""
    if not data.complete:
        return
    seen: dict[str, list[tuple[LoadedRelease, Location, FeatureEntry | ChangeEntry]]] = {}
    for release in data.releases:
        for location, entry in entries(release):
            seen.setdefault(entry.id, []).append((release, location, entry))
    for feature_id, occurrences in seen.items():
        if len(occurrences) > 1 and not any(entry.name for _, _, entry in occurrences):
            release, location, _ = occurrences[0]
            versions = ", ".join(r.record.version for r, _, _ in occurrences)
            yield release.document.problem(
                (*location, "id"),
                f"'{feature_id}' appears in {versions}: give one of its entries a `name` "
                "(the feature's own name in en and zh) for its feature page",
            )


def texts_are_in_their_language(data: ValidatedData) -> Iterator[Problem]:
    """A text in a language of a script of its own holds that script (a text left in the default
    language is not a translation); a text in any other language holds no Han, when the knowledge
    base has a Han language (the two texts swapped)."""
    languages = tuple(data.project.languages)
    han_languages = [lang for lang in languages if SCRIPT_RULES.get(lang, (None,))[0] is has_han_or_kana]
    for release in data.releases:
        yield from kept(
            "texts_are_in_their_language",
            release,
            data.project,
            lambda: tuple(_texts_not_in_their_language(release, han_languages)),  # noqa: B023 (called at once)
        )


def _texts_not_in_their_language(release: LoadedRelease, han_languages: list[str]) -> Iterator[Problem]:
    for location, text in release_texts(release):
        for lang in text.languages:
            if lang in SCRIPT_RULES:
                holds_script, script = SCRIPT_RULES[lang]
                if not holds_script(text[lang]):
                    name = language_name(lang)
                    yield release.document.problem((*location, lang), f"the {name} text contains no {name}")
            elif han_languages and has_han(text[lang]):
                yield release.document.problem(
                    (*location, lang),
                    f"the {language_name(lang)} text contains {language_name(han_languages[0])} characters",
                )


def glossary_is_followed(data: ValidatedData) -> Iterator[Problem]:
    """Where the default language's text uses a glossary term, each translated text writes it the
    glossary's way, and none uses a rendering the glossary avoids."""
    terms: list[GlossaryTerm] = data.project.glossary
    if not terms:
        return
    default = data.project.languages[0]
    patterns = [(term, _TermFinder(term, default)) for term in terms]
    for release in data.releases:
        yield from kept(
            "glossary_is_followed",
            release,
            data.project,
            lambda: tuple(_glossary_not_followed(release, patterns, default)),  # noqa: B023 (called at once)
        )


class _TermFinder:
    """Whether a text uses a glossary term (GlossaryTerm.pattern). The expression runs only on a
    text that can match it: in an ASCII text, an ASCII term matches case-insensitively only where
    its lower case is in the text's lower case, which `in` tells at once. With the real glossary's
    81 terms, the expressions run on every text were a quarter of loading the data."""

    def __init__(self, term: GlossaryTerm, lang: str):
        self.pattern = term.pattern(lang)
        self.lowered = term[lang].lower() if term[lang].isascii() else None

    def used_in(self, text: str, lowered: str | None) -> bool:
        """`lowered`: the text's lower case if it is ASCII, else None."""
        if self.lowered is not None and lowered is not None and self.lowered not in lowered:
            return False
        return self.pattern.search(text) is not None


def _glossary_not_followed(release: LoadedRelease, patterns: list, default: str) -> Iterator[Problem]:
    for location, text in release_texts(release):
        said = text[default]
        lowered = said.lower() if said.isascii() else None
        for term, finder in patterns:
            used = None  # whether the default text uses the term: looked up once, when a language asks
            for lang in text.languages:
                if lang == default or term.get(lang) is None:
                    continue
                if used is None:
                    used = finder.used_in(said, lowered)
                if used and term[lang].casefold() not in text[lang].casefold():
                    yield release.document.problem(
                        (*location, lang),
                        f"the {language_name(default)} text says '{term[default]}', so the "
                        f"{language_name(lang)} text should say '{term[lang]}' (glossary in project.yaml)",
                    )
                for avoided in term.avoid:
                    if avoided in text[lang]:
                        yield release.document.problem(
                            (*location, lang),
                            f"'{avoided}' is a wrong rendering of '{term[default]}'; write '{term[lang]}' "
                            "(glossary in project.yaml)",
                        )


_PYTHON_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def api_names(entry: FeatureEntry | ChangeEntry) -> Iterator[tuple[Location, str, str]]:
    """(location inside the entry, name, use) of every API name an entry gives, replacements too."""
    for i, api in enumerate(entry.apis):
        if isinstance(api, str):
            yield ("apis", i), api, "any"
            continue
        yield ("apis", i, "name"), api.name, api.use
        if api.replacement is not None:
            yield ("apis", i, "replacement"), api.replacement, "any"


@one_release_at_a_time
def drop_in_goes_with_a_replacement(release: LoadedRelease, project: ProjectFile) -> Iterator[Problem]:
    """`drop_in` says how `replacement` replaces the API: without a replacement it says nothing."""
    for location, entry in entries(release):
        for i, api in enumerate(entry.apis):
            if not isinstance(api, str) and api.drop_in is not None and api.replacement is None:
                yield release.document.problem(
                    (*location, "apis", i, "drop_in"),
                    "`drop_in` says whether `replacement` can be swapped in as it is, and this API names no "
                    "replacement: add `replacement` or remove `drop_in`",
                )


def apis_are_qualified_code_names(data: ValidatedData) -> Iterator[Problem]:
    """`releasekb check` matches code against API names, so each is a canonical name under a root
    project.yaml declares: `torch.nn.functional.grid_sample`, not `F.grid_sample`."""
    code = data.project.code
    if code is None:
        return
    known = {name for release in data.releases for _, entry in entries(release) for _, name, _ in api_names(entry)}
    for release in data.releases:
        for location, entry in entries(release):
            for inner, name, use in api_names(entry):
                language = code_language(name, code.roots)
                if language not in (None, PYTHON):
                    if use == "call":
                        yield release.document.problem(
                            (*location, *inner[:-1], "use"), "`use: call` applies to Python names only"
                        )
                    continue
                if language == PYTHON and _PYTHON_NAME.match(name):
                    continue
                yield release.document.problem((*location, *inner), _unqualified_message(name, code, known))


def apis_need_code_roots(data: ValidatedData) -> Iterator[Problem]:
    """A warning: entries name APIs, but project.yaml declares no `code.roots`, so `releasekb check`
    finds none of them in code (it would report a clean codebase) and their names go unchecked.
    Located at the first API named, where a curator sees what the roots should be."""
    if data.project.code is not None:  # apis_are_qualified_code_names checks names against it
        return
    named = [
        (release, (*location, *inner), name)
        for release in data.releases
        for location, entry in entries(release)
        for inner, name, _ in api_names(entry)
    ]
    if not named:
        return
    release, location, _ = named[0]
    count = len({name for _, _, name in named})
    problem = release.document.problem(
        location,
        f"entries name {count} API{'s' if count != 1 else ''}, but project.yaml declares no `code.roots`: "
        "`releasekb check` cannot find them in code, and their names are not checked; add "
        f"`{suggested_code_section([name for _, _, name in named])}` to project.yaml",
    )
    yield dataclasses.replace(problem, severity="warning")


def examples_are_replaced(data: ValidatedData) -> Iterator[Problem]:
    """A warning at each entry still marked `example: true` (`releasekb init` writes some): the
    site would publish it as a fact of the release."""
    for release in data.releases:
        for location, entry in entries(release):
            if entry.example:
                problem = release.document.problem(
                    (*location, "example"),
                    "an example entry from `releasekb init`: replace it with what this release brought "
                    "(or delete it), and remove `example: true`",
                    key=True,
                )
                yield dataclasses.replace(problem, severity="warning")


def imported_entries_are_reviewed(data: ValidatedData) -> Iterator[Problem]:
    """A warning at each entry still marked `imported: true` (`releasekb import` writes them from
    a changelog): its id, kind and texts were read by a program, so a curator checks each one."""
    for release in data.releases:
        for location, entry in entries(release):
            if entry.imported:
                problem = release.document.problem(
                    (*location, "imported"),
                    f"'{entry.id}' was imported by `releasekb import`: review its id, kind, area and texts "
                    "(and its level: none was invented), then remove `imported: true`",
                    key=True,
                )
                yield dataclasses.replace(problem, severity="warning")


def _unqualified_message(name: str, code, known: set[str]) -> str:
    roots = ", ".join(root for roots in code.roots.values() for root in roots)
    message = f"'{name}' is not under a code root of project.yaml ({roots})"
    head, _, rest = name.partition(".")
    candidates = []
    if head in code.abbreviations:
        candidates.append(f"{code.abbreviations[head]}.{rest}" if rest else code.abbreviations[head])
    candidates += sorted(k for k in known if k.endswith("." + name) or k.endswith("::" + name))
    if candidates:
        return f"{message}: write the qualified name, '{candidates[0]}'"
    return f"{message}: write the qualified name (like 'acme.io.read_all'), or add its root to `code:`"


RULES: tuple[Rule, ...] = (
    file_name_matches_version,
    one_file_per_version,
    schema_is_referenced,
    scheme_labels_are_defined,
    ids_are_unique_in_release,
    ids_are_not_reserved_anchors,
    names_are_free_for_pages,
    aliases_are_free,
    former_anchors_are_free,
    borrowed_levels_cite_their_source,
    titles_are_unique_in_release,
    highlights_exist,
    part_of_refers_to_earlier_feature,
    changes_name_their_feature,
    removed_ids_stay_removed,
    lifecycles_have_a_name,
    texts_are_in_their_language,
    glossary_is_followed,
    apis_are_qualified_code_names,
    drop_in_goes_with_a_replacement,
    undescribed_releases_are_not_described,
    changes_take_effect_later,
)


# Rules whose problems are warnings: reported by `validate` (failing only `--strict`), never
# keeping the data from building.
WARNINGS: tuple[Rule, ...] = (apis_need_code_roots, examples_are_replaced, imported_entries_are_reviewed)


def check_all(data: ValidatedData) -> list[Problem]:
    return [problem for rule in RULES for problem in rule(data)]


def warnings(data: ValidatedData) -> list[Problem]:
    return [problem for rule in WARNINGS for problem in rule(data)]
