"""What the knowledge base can tell about the range compared, which every report ends with.

A report without findings means "none of the changes this knowledge base can find in code", never
"safe to upgrade": between --from and --to the knowledge base may describe only a few changes that
list APIs (`apis:` in a release file: what the scanner can match), others that no scan can find
(a change without an API, such as the end of Python 2 support), and none of the releases it does
not describe (project.yaml `releases_not_described`), nor any after its last release.
"""

from __future__ import annotations

from dataclasses import dataclass

from releasekb.check.messages import catalogue_table
from releasekb.common.i18n import interface_strings
from releasekb.common.locales import plural_text
from releasekb.common.versions import version_key
from releasekb.kb.catalog import list_text
from releasekb.kb.model import CHANGE_KINDS  # the change entries findings are made of

# The coverage statement's strings: a table of their own (check_report_scope) in each locale file
STRINGS = catalogue_table("check_report_scope")

TITLES_SHOWN = 3  # the statement names this many changes without a code check, then counts the rest


@dataclass(frozen=True)
class Change:
    """A change entry of the range, as the coverage names it."""

    id: str
    release: str
    kind: str
    title: dict[str, str]

    def record(self) -> dict:
        return {"id": self.id, "release": self.release, "kind": self.kind, "title": dict(self.title)}


@dataclass(frozen=True)
class Coverage:
    checked: tuple[Change, ...]  # changes of the range that list APIs: what the scan can find
    # changes of the range that list no API: no scan finds them (None: the index does not say, as
    # indexes published before it existed)
    unchecked: tuple[Change, ...] | None
    not_described: tuple[str, ...]  # releases of the range the knowledge base does not describe
    ends_at: str | None  # the last release described, when --to is after it: later changes are unknown


def in_effect_at_from(index, options, release: str, takes_effect: str | None) -> bool:
    """Whether a change of `release` is in effect at --from: released at or before it, and, for a
    change announced for a later release (1.4: "1.5 needs C++14"), that release too. An upgrade
    from the announcing release still meets such a change, as the upgrade view lists it."""
    if index.order[release] > index.position(options.old_release):
        return False
    return takes_effect is None or version_key(takes_effect) <= version_key(options.old)


def in_range(index, options, release: str, takes_effect: str | None) -> bool:
    """Whether a change is met on the way from --from to --to (new between them)."""
    released = index.order[release] <= index.position(options.new_release)
    return released and not in_effect_at_from(index, options, release, takes_effect)


def coverage(index, options) -> Coverage:
    """The coverage of the range options compares, from the API index (index.ApiIndex)."""
    checked: dict[tuple[str, str], Change] = {}
    for record in index.records.values():
        for entry in record.entries:
            if (
                entry.is_change
                and entry.kind in CHANGE_KINDS
                and in_range(index, options, entry.release, entry.takes_effect)
            ):
                checked.setdefault((entry.release, entry.id), Change(entry.id, entry.release, entry.kind, entry.title))
    unchecked = None
    if index.changes_without_apis is not None:
        unchecked = tuple(
            Change(change["id"], change["release"], change["kind"], change["title"])
            for change in index.changes_without_apis
            if in_range(index, options, change["release"], change.get("takes_effect"))
        )
    last = index.versions[-1]
    after_last = version_key(options.new) > version_key(last)
    return Coverage(
        checked=tuple(sorted(checked.values(), key=lambda c: (index.order[c.release], c.id))),
        unchecked=unchecked,
        not_described=options.not_described,
        ends_at=last if after_last else None,
    )


def statement(found: Coverage, options, lang: str) -> str:
    """One sentence: what this knowledge base checks in the range, what it cannot, what it does
    not describe, and so what a report without findings means."""
    t = STRINGS[lang]
    strings = interface_strings(lang)
    checked = len(found.checked)
    parts = [plural_text(lang, t["checked"], checked).format(n=checked)]
    if found.unchecked is None:
        parts.append(t["unchecked_unknown"])
    elif found.unchecked:
        titles = [t["title"].format(title=change.title[lang]) for change in found.unchecked[:TITLES_SHOWN]]
        if len(found.unchecked) > TITLES_SHOWN:
            titles.append(t["titles_more"].format(n=len(found.unchecked) - TITLES_SHOWN))
        count = len(found.unchecked)
        parts.append(plural_text(lang, t["unchecked"], count).format(n=count, titles=list_text(titles, strings)))
    if found.not_described:
        parts.append(t["not_described"].format(versions=list_text(list(found.not_described), strings)))
    if found.ends_at:
        parts.append(t["ends_at"].format(last=found.ends_at))
    meaning = plural_text(lang, t["meaning"], checked).format(n=checked) if checked else t["meaning_none"]
    text = t["separator"].join([*parts, meaning])
    return t["statement"].format(old=options.old, new=options.new, text=text)


def record(found: Coverage, options) -> dict:
    """The coverage as JSON and SARIF carry it: the changes by id, and the statement in every
    language of the knowledge base."""
    return {
        "checked": [change.record() for change in found.checked],
        "unchecked": None if found.unchecked is None else [change.record() for change in found.unchecked],
        "not_described": list(found.not_described),
        "ends_at": found.ends_at,
        "statement": {lang: statement(found, options, lang) for lang in options.languages},
    }
