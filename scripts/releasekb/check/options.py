"""The choices of one `releasekb check` run (--from, --to, --max-stability, --fail-on, --lang,
--only, --show-in-effect), checked against the knowledge base: wrong usage is CheckUsage (exit 2).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from releasekb.check.kinds import DEFAULT_FAIL_ON, FAIL_ON_CHOICES
from releasekb.common.safe_text import visible
from releasekb.common.versions import is_version, release_as_of, version_key

if TYPE_CHECKING:
    from releasekb.check.index import ApiIndex

# The option (and [tool.releasekb.check] key) that lists the changes already in effect at --from
SHOW_IN_EFFECT = "--show-in-effect"
CONFIDENCES = ("high", "medium", "low")


class CheckUsage(Exception):
    """Wrong usage of `check` (unknown version, --from newer than --to...): exit 2."""


@dataclass(frozen=True)
class Options:
    old: str  # --from as asked; a release of the knowledge base as it spells it (1.4.0 -> 1.4)
    new: str  # --to, likewise
    old_defaulted: bool  # --from was not given (the text header says so)
    max_stability: str
    fail_on: frozenset[str]
    # The releases compared: the latest release described at or before --from and --to; None
    # when the version comes before the first release described (nothing described applies yet).
    old_release: str | None
    new_release: str | None
    lang: str = ""  # the report's language: one of `languages`
    # the knowledge base's languages (the index's texts have one text in each): messages are made in each
    languages: tuple[str, ...] = ()
    only: frozenset[str] = frozenset()  # --only: report just these features (ids), and every use of them
    # --show-in-effect: list the changes already in effect at --from (apart, never counted)
    show_in_effect: bool = False
    # The releases the knowledge base does not describe after --from up to --to: what they changed
    # is not checked (the report's header says so).
    not_described: tuple[str, ...] = ()


def resolve_options(
    index: ApiIndex,
    old: str | None,
    new: str | None,
    max_stability: str | None,
    fail_on: str | None,
    lang: str | None,
    only: str | None = None,
    show_in_effect: bool = False,
) -> Options:
    """Check the command's choices against the index; raise CheckUsage naming what is allowed.
    lang None: the knowledge base's first language."""
    languages = index.languages
    if lang is not None and lang not in languages:
        raise CheckUsage(
            f"--lang {visible(lang)}: not a language of the knowledge base (one of: {', '.join(languages)})"
        )
    resolved_old = _asked_version(index, "--from", old) if old is not None else index.versions[0]
    resolved_new = _asked_version(index, "--to", new) if new is not None else index.versions[-1]
    if version_key(resolved_old) > version_key(resolved_new):
        raise CheckUsage(f"--from {resolved_old} is newer than --to {resolved_new}")
    ranked = index.ranked_levels()
    if max_stability is not None and max_stability not in ranked:
        raise CheckUsage(f"--max-stability {max_stability}: not a stability level (one of: {', '.join(ranked)})")
    failing = parse_fail_on(fail_on)
    return Options(
        old=resolved_old,
        new=resolved_new,
        old_defaulted=old is None,
        max_stability=max_stability or ranked[0],
        fail_on=failing,
        old_release=release_as_of(resolved_old, index.versions),
        new_release=release_as_of(resolved_new, index.versions),
        lang=lang or languages[0],
        languages=languages,
        only=_parse_only(index, only),
        show_in_effect=show_in_effect,
        not_described=tuple(
            version
            for version in index.not_described
            if version_key(resolved_old) < version_key(version) <= version_key(resolved_new)
        ),
    )


def _asked_version(index: ApiIndex, flag: str, text: str) -> str:
    """--from/--to as the report names it: any version; a release described here in the knowledge
    base's own spelling (1.4.0 is 1.4). Only text that is no version is wrong usage."""
    version = text.strip().removeprefix("v").removeprefix("V")
    if not is_version(version):
        raise CheckUsage(
            f"{flag} {visible(text)}: not a version (write it as 1.4 or 1.7.1; "
            f"this knowledge base describes {', '.join(index.versions)})"
        )
    same = [release for release in index.versions if version_key(release) == version_key(version)]
    return same[0] if same else version


def _parse_only(index: ApiIndex, text: str | None) -> frozenset[str]:
    """'torch-fft,rpc-api' -> those feature ids, each of which must list an API in the index."""
    if not text:
        return frozenset()
    ids = {part.strip() for part in text.split(",") if part.strip()}
    known = {entry.id for record in index.records.values() for entry in record.entries}
    unknown = sorted(ids - known)
    if unknown:
        hint = difflib.get_close_matches(unknown[0], sorted(known), n=1)
        near = f" (did you mean {hint[0]}?)" if hint else ""
        raise CheckUsage(f"--only {','.join(unknown)}: no feature of the knowledge base lists an API by that id{near}")
    return frozenset(ids)


def parse_fail_on(text: str | None) -> frozenset[str]:
    """'removed,breaking' -> those kinds; 'none' or '' -> nothing fails the run."""
    if text is None:
        return frozenset(DEFAULT_FAIL_ON)
    kinds = {part.strip() for part in text.split(",") if part.strip()} - {"none"}
    unknown = sorted(kinds - set(FAIL_ON_CHOICES))
    if unknown:
        raise CheckUsage(
            f"--fail-on {','.join(unknown)}: unknown kind (choose from {','.join(FAIL_ON_CHOICES)}, or none)"
        )
    return frozenset(kinds)
