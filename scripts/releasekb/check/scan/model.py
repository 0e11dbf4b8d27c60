"""The scanner's public data: what to look for (`Target`, `Roots`), and what a scan finds (`Use`,
how a call passes its arguments, `FileError`, `ScanResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from releasekb.check.messages import Message, explained


@dataclass(frozen=True)
class Target:
    """An API to look for, by its canonical fully qualified name and how a use of it counts."""

    name: str
    use: str = "any"  # "any" | "call" | "module"


@dataclass(frozen=True)
class Roots:
    """Where target names live: importable packages, and prefixes of names in non-Python files."""

    python: tuple[str, ...]
    tokens: tuple[str, ...] = ()


@dataclass(frozen=True)
class CallArguments:
    """How a call passes its arguments: enough to tell which parameters it gives, or that it cannot be told."""

    positional: int  # arguments given by position, not counting `*args`
    keywords: tuple[str, ...]  # the names given as `name=value`
    unpacked_positional: bool  # a `*args`: more arguments by position, how many unknown
    unpacked_keywords: bool  # a `**kwargs`: more arguments by name, which unknown

    def passes(self, name: str, position: int | None) -> bool | None:
        """Whether the call gives the parameter `name`, which takes the argument at `position` (from 0)
        when it can be given by position: True, False, or None when unpacked arguments may or may not."""
        if name in self.keywords or (position is not None and position < self.positional):
            return True
        if self.unpacked_keywords or (position is not None and self.unpacked_positional):
            return None
        return False


@dataclass(frozen=True)
class Use:
    """One place in the code that refers to a target, with enough context to explain it."""

    path: str
    line: int
    column: int
    cell: int | None
    target: Target
    written: str
    resolved: str
    resolution: tuple[Message, ...]  # how `written` was resolved, step by step (messages.py)
    confidence: str
    guarded: bool
    suppressed: frozenset[str]
    arguments: CallArguments | None = None  # how a call passes its arguments; None when it is not a call

    @property
    def how(self) -> str:
        """How the use was resolved, in English."""
        return explained(self.resolution)


@dataclass(frozen=True)
class FileError:
    """A file (or notebook cell) that could not be scanned; the rest of the scan went on."""

    path: str
    line: int
    reason: Message  # why it could not be scanned (messages.py)

    @property
    def message(self) -> str:
        """Why it could not be scanned, in English."""
        return self.reason.text()


# The messages that say how old code was read (old_code.py), with the method each names: a
# FileError of one of these kinds is a note on a file (or cell) that was checked, not a problem.
READ_OTHERWISE = {"read_rewritten": "rewritten", "cell_read_rewritten": "rewritten", "read_by_tokens_file": "tokens"}


@dataclass(frozen=True)
class ScanResult:
    """Every use found, every file that could not be read, how many files were looked at, the
    paths that are not regular files (pipes, devices, sockets: skipped unread, `line` 0), and the
    files of old code read another way (see old_code.py)."""

    uses: list[Use]
    errors: list[FileError]
    files_scanned: int
    files_skipped: int
    not_regular: list[FileError] = field(default_factory=list)
    # files today's Python cannot parse, read with their old syntax rewritten or by tokens: how and why
    read_otherwise: list[FileError] = field(default_factory=list)


CONFIDENCE_LEVELS = ("low", "medium", "high")
RANK = {level: rank for rank, level in enumerate(CONFIDENCE_LEVELS)}
