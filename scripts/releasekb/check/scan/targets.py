"""The targets indexed for fast lookup (`Config`, built once per scan and sent once to each
worker), and which targets a resolved name matches."""

from __future__ import annotations

import concurrent.futures
import io
import queue
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from releasekb.check.scan.model import CONFIDENCE_LEVELS, RANK, Roots, Target

_USE_KINDS = frozenset({"any", "call", "module"})


# Method names that objects of every Python program have: strings, bytes, lists, dicts, sets,
# numbers, files, paths, threads, queues and futures. A method target with one of these names (the
# last part of `torch.nn.parallel.DistributedDataParallel.join`) is never matched by the method name
# alone, at any confidence: every `os.path.join(...)` and `", ".join(...)` would be reported as a use.
COMMON_METHOD_NAMES = frozenset(
    name
    for kind in (
        str, bytes, bytearray, list, tuple, dict, set, frozenset, int, float,
        io.TextIOWrapper, io.BytesIO, Path, threading.Thread, queue.Queue, concurrent.futures.Future,
    )
    for name in dir(kind)
    if not name.startswith("_")
)  # fmt: skip
_SCOPE_WORDS = ("global", "nonlocal")  # a body that declares these can rebind names outside it


@dataclass(frozen=True)
class Config:
    """The targets indexed for fast lookup; picklable so process-pool workers can receive it."""

    python_roots: frozenset[str]
    exact: dict[str, tuple[Target, ...]]  # Python targets by name
    by_prefix: dict[str, tuple[Target, ...]]  # Python targets a longer name can match ("any", "module")
    name_prefixes: frozenset[str]  # proper prefixes of Python target names, for star imports
    methods: dict[str, tuple[Target, ...]]  # method targets by last segment; empty unless confidence "low"
    tokens: dict[str, tuple[Target, ...]]  # token targets by name
    token_roots: tuple[bytes, ...]
    token_pattern: re.Pattern[str] | None
    python_prefilter: re.Pattern[bytes] | None
    # words without which a function or class body cannot use an API (besides names bound to one)
    body_words: tuple[tuple[str, ...], re.Pattern[str]]
    # names that are both a module and a function (`torch.fft` in 1.7): a reference that is neither
    # a call nor an attribute of it may be either
    ambiguous: frozenset[str]
    min_rank: int
    max_file_size: int | None  # in bytes: a larger file is skipped unread


def _is_python_target(name: str, roots: frozenset[str]) -> bool:
    segments = name.split(".")
    return segments[0] in roots and all(segment.isidentifier() for segment in segments)


def _is_method_target(name: str) -> bool:
    """`torch.Tensor.masked_copy_`: a capitalised segment (after the root) with a segment after it."""
    segments = name.split(".")
    return any(segment[:1].isupper() for segment in segments[1:-1])


def _matches_by_method_name(name: str) -> bool:
    """A method target that a call on an object of unknown type can match by its name (see COMMON_METHOD_NAMES)."""
    return _is_method_target(name) and name.rsplit(".", 1)[-1] not in COMMON_METHOD_NAMES


def _group(pairs: Iterable[tuple[str, Target]]) -> dict[str, tuple[Target, ...]]:
    grouped: dict[str, list[Target]] = {}
    for key, target in pairs:
        grouped.setdefault(key, []).append(target)
    return {key: tuple(targets) for key, targets in grouped.items()}


def _longest_first(alternatives: set) -> list:
    """Longest first, so that a pattern tries `torch.fft` before `torch`; equal lengths in order,
    so that the same words always make the same pattern (cache.py compares configurations)."""
    return sorted(alternatives, key=lambda word: (-len(word), word))


def _word_pattern(words: Iterable[str]) -> re.Pattern[bytes] | None:
    alternatives = _longest_first({re.escape(word.encode()) for word in words if word})
    if not alternatives:
        return None
    return re.compile(rb"\b(?:" + b"|".join(alternatives) + rb")\b")


def text_word_pattern(words: Iterable[str]) -> re.Pattern[str]:
    alternatives = _longest_first({re.escape(word) for word in words if word})
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b") if alternatives else re.compile(r"(?!)")


def _words_and_pattern(words: Iterable[str]) -> tuple[tuple[str, ...], re.Pattern[str]]:
    words = tuple(sorted(set(words)))
    return words, text_word_pattern(words)


GLOBAL_WORD = _words_and_pattern(("global",))  # a function body with it may bind module names


def mentions(text: str, start: int, end: int, words: tuple[tuple[str, ...], re.Pattern[str]]) -> bool:
    """Does text[start:end] contain one of the words, as a whole word? A few substring searches
    (fast) rule most texts out before the regular expression (slow) looks at word boundaries."""
    names, pattern = words
    if len(names) <= 16 and not any(text.find(name, start, end) >= 0 for name in names):
        return False
    return pattern.search(text, start, end) is not None


def _token_pattern(roots: Sequence[str]) -> re.Pattern[str] | None:
    """A token starts at a root with no name character (or `:`) before it and runs to the name's end."""
    alternatives = _longest_first({re.escape(root) for root in roots if root})
    if not alternatives:
        return None
    return re.compile(r"(?<![A-Za-z0-9_:])(?:" + "|".join(alternatives) + r")[A-Za-z0-9_:]*")


def _check_arguments(targets: list[Target], confidence: str) -> None:
    if confidence not in RANK:
        raise ValueError(f"confidence must be one of {', '.join(CONFIDENCE_LEVELS)}, not {confidence!r}")
    for target in targets:
        if target.use not in _USE_KINDS:
            raise ValueError(f"target {target.name!r}: use must be 'any', 'call' or 'module', not {target.use!r}")


def build_config(targets: Iterable[Target], roots: Roots, confidence: str, max_file_size: int | None) -> Config:
    unique = list(dict.fromkeys(targets))
    _check_arguments(unique, confidence)
    python_roots = frozenset(roots.python)
    python = [t for t in unique if _is_python_target(t.name, python_roots)]
    token_targets = [t for t in unique if any(root and t.name.startswith(root) for root in roots.tokens)]
    methods = [t for t in python if _matches_by_method_name(t.name)] if confidence == "low" else []
    prefixes = {t.name[:i] for t in python for i, char in enumerate(t.name) if char == "."}
    called = {t.name for t in python if t.use == "call"}
    return Config(
        python_roots=python_roots,
        exact=_group((t.name, t) for t in python),
        by_prefix=_group((t.name, t) for t in python if t.use != "call"),
        name_prefixes=frozenset(prefixes),
        methods=_group((t.name.rsplit(".", 1)[-1], t) for t in methods),
        tokens=_group((t.name, t) for t in token_targets),
        token_roots=tuple(root.encode() for root in roots.tokens if root),
        token_pattern=_token_pattern(roots.tokens),
        python_prefilter=_word_pattern(roots.python),
        body_words=_words_and_pattern({*roots.python, *(t.name.rsplit(".", 1)[-1] for t in methods), *_SCOPE_WORDS}),
        ambiguous=frozenset(t.name for t in python if t.use == "module" and t.name in called),
        min_rank=RANK[confidence],
        max_file_size=max_file_size,
    )


def use_matches(use: str, is_call: bool) -> bool:
    """How a reference whose resolved name equals the target's name counts, by the target's `use`."""
    if use == "call":
        return is_call
    if use == "module":
        return not is_call
    return True


def python_matches(config: Config, qualname: str, is_call: bool) -> list[Target]:
    """Targets a reference to `qualname` matches: the same name, or a module/any target it lies under."""
    found = [t for t in config.exact.get(qualname, ()) if use_matches(t.use, is_call)]
    dot = qualname.rfind(".")
    while dot > 0:
        found.extend(config.by_prefix.get(qualname[:dot], ()))
        dot = qualname.rfind(".", 0, dot)
    return found


def is_known(config: Config, qualname: str) -> bool:
    """True when `qualname` is a target, lies under one, or leads to one (a star import may supply it)."""
    if qualname in config.exact or qualname in config.name_prefixes:
        return True
    dot = qualname.rfind(".")
    while dot > 0:
        if qualname[:dot] in config.exact:
            return True
        dot = qualname.rfind(".", 0, dot)
    return False
