"""The interface strings of `releasekb check`, and its messages as data.

Every string check shows lives beside the site's in common/locales/<lang>.yaml, under `check`,
one table per part of the command (report, scanner, fix, baseline, cache). A message the scanner
or the requirement reader makes is a Message: a kind (a key of the `scanner` table) and its
parameters, rendered in a language only when a report is written.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from releasekb.common.i18n import interface_strings, known_languages


class _PartStrings(Mapping):
    """{lang: strings} of one part of the command's strings, read when a language is first asked
    for: any language with interface strings (a knowledge base's languages are its own)."""

    def __init__(self, *keys: str):
        self.keys = keys  # the table's place in the catalogue: ("check", "report")

    def __getitem__(self, lang: str) -> dict[str, str]:
        table = interface_strings(lang)
        for key in self.keys:
            table = table[key]
        return table

    def __iter__(self) -> Iterator[str]:
        return iter(known_languages())

    def __len__(self) -> int:
        return len(known_languages())


def check_strings(part: str) -> Mapping[str, dict[str, str]]:
    """{lang: strings} of one part of the command's strings, in any language."""
    return _PartStrings("check", part)


def catalogue_table(key: str) -> Mapping[str, dict[str, str]]:
    """{lang: strings} of a top-level table of the catalogue (a part's strings added at the end
    of each locale file), in any language."""
    return _PartStrings(key)


# How old code was read, and whether unreadable files fail the run: a table of its own at the end
# of each catalogue (`check_old_code`), beside `check`.
OLD_CODE_STRINGS: Mapping[str, dict[str, str]] = catalogue_table("check_old_code")


@dataclass(frozen=True)
class Message:
    """A message as data: `kind` names its template, `params` fill it ((name, value) pairs, so
    that it stays hashable, picklable for the process pool and writable to the scan cache)."""

    kind: str
    params: tuple[tuple[str, str | int], ...] = ()

    def text(self, lang: str = "en") -> str:
        strings = interface_strings(lang)
        scanner = strings["check"]["scanner"]
        # how old code was read has its own table (`check_old_code`), at the end of each catalogue
        template = scanner[self.kind] if self.kind in scanner else strings["check_old_code"][self.kind]
        return template.format(**dict(self.params))


def message(kind: str, **params: str | int) -> Message:
    return Message(kind, tuple(params.items()))


def explained(steps: tuple[Message, ...], lang: str = "en") -> str:
    """How a use was resolved, step by step ('a; b'), in `lang`."""
    separator = interface_strings(lang)["check"]["scanner"]["step_separator"]
    return separator.join(step.text(lang) for step in steps)
