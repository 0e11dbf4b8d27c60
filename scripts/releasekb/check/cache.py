"""The cache of `releasekb check`: what the scanner found in each file, so that a second run over
an unchanged tree parses nothing.

One entry per file, valid while these stay the same: the file's bytes (a hash), the way it was
named (its path and kind, which the uses it yields carry), and everything else the scanner's
result depends on: the scanner's own code (every module of scan/), the Python version (its parser), and the
scanner's configuration, which holds every API name and code root the knowledge base gives it
and the confidence asked for. A knowledge base that gains or loses an API therefore rescans
everything, while findings, messages and levels are always worked out afresh from the uses.

The cache is one JSON file, `.releasekb-cache/scan.json` in the project's folder
(common/cache_folder.py; see config.py), written in one step at
the end of a run; it holds the entries of the last configuration. Entries it cannot read are
ignored: those files are scanned again. Nothing here is ever executed or unpickled, so a cache
committed by someone else can only cost a rescan.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import sys
from pathlib import Path

from releasekb.check import scan
from releasekb.check.messages import Message, check_strings
from releasekb.check.scan.jobs import CACHEABLE
from releasekb.check.scan.reading import opened_regular
from releasekb.common.atomic import WriteFailed, write_text
from releasekb.common.cache_folder import CACHE_FOLDER
from releasekb.common.locales import plural_text
from releasekb.common.regular_files import read_regular_text

FOLDER = CACHE_FOLDER
_FILE = "scan.json"
_FORMAT = 1
# What the scan of a very large repository keeps; a larger file (or a pipe, or a device: a
# cloned repository may carry a link there) is not read, and every file is scanned again.
MAX_CACHE_BYTES = 512_000_000
_SCANNER = Path(scan.__file__).parent  # the scanner's package: all of its code decides what it finds
_STATUSES = CACHEABLE  # scan.jobs.Outcome's first item, when the same bytes always give it
_CHUNK = 1 << 20  # bytes hashed at a time
STRINGS = check_strings("cache")  # common/locales/<lang>.yaml, `check.cache`


class ScanCache:
    """Given to scan.scan(cache=...): outcomes of unchanged files come from here, the others
    from the scanner, and are kept for next time (save())."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.scanned = 0  # files handed to the scanner
        self.reused = 0  # files whose outcome came from the cache
        self._digest: str | None = None
        self._entries: dict[str, dict] = {}
        self._changed = False

    def outcomes(self, jobs: list, config, run) -> list:
        """The outcome of every job, in order: from the cache where an entry is valid, else
        from run(the other jobs), the scanner's own way of running them."""
        self._load(configuration_digest(config))
        contents = [_content_hash(job.path, config.max_file_size) for job in jobs]
        keys = [_job_key(job) for job in jobs]
        outcomes = [_decoded(self._entries.get(key), content) for key, content in zip(keys, contents, strict=True)]
        missing = [position for position, outcome in enumerate(outcomes) if outcome is None]
        for position, outcome in zip(missing, run([jobs[p] for p in missing]), strict=True):
            outcomes[position] = outcome
            # an unreadable, too large or not regular file is asked again next time, and so is one
            # the scanner failed on unexpectedly (out of memory, say): the next run may not fail
            if contents[position] is not None and outcome[0] in _STATUSES:
                self._entries[keys[position]] = {
                    "file": os.path.abspath(jobs[position].path),
                    "content": contents[position],
                    "outcome": _encode(outcome),
                }
                self._changed = True
        self.scanned += len(missing)
        self.reused += len(jobs) - len(missing)
        return outcomes

    def _load(self, digest: str) -> None:
        """The entries of the cache file, when they were made with this configuration."""
        if self._digest == digest:
            return
        self._digest, self._entries = digest, {}
        try:
            document = json.loads(read_regular_text(self.folder / _FILE, MAX_CACHE_BYTES))
        except (OSError, ValueError, RecursionError):
            return  # none yet, or unreadable: every file is scanned and the file written anew
        if (
            isinstance(document, dict)
            and document.get("digest") == digest
            and isinstance(document.get("entries"), dict)
        ):
            self._entries = document["entries"]

    def save(self) -> str | None:
        """Write the cache when this run added to it; entries of files that no longer exist are
        dropped. Returns why it could not be written (the run itself is not affected), else None."""
        if not self._changed:
            return None
        entries = {
            key: entry
            for key, entry in self._entries.items()
            if isinstance(entry, dict) and isinstance(entry.get("file"), str) and os.path.exists(entry["file"])
        }
        document = {"format": _FORMAT, "digest": self._digest, "entries": entries}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            ignore = self.folder / ".gitignore"
            if not ignore.exists():  # a cache is not something to commit
                write_text(ignore, "# written by releasekb check\n*\n")
            write_text(self.folder / _FILE, json.dumps(document, ensure_ascii=False, separators=(",", ":")))
        except (OSError, WriteFailed) as error:
            return str(error)
        self._changed = False
        return None


def configuration_digest(config) -> str:
    """What, besides a file, decides what the scanner finds in it."""
    identity = {
        "format": _FORMAT,
        "python": list(sys.version_info[:2]),
        "scanner": scanner_digest(),
        "config": _canonical(config),
    }
    return hashlib.blake2b(json.dumps(identity, sort_keys=True).encode(), digest_size=16).hexdigest()


def scanner_digest(folder: Path = _SCANNER) -> str:
    """A hash of the scanner's code: every module of its package, in name order."""
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(folder.glob("*.py")):
        data = path.read_bytes()
        digest.update(f"{path.name}:{len(data)}:".encode() + data)  # lengths keep the parts apart
    return digest.hexdigest()


def _canonical(value):
    """A JSON form of the scanner's configuration that is the same in every run: sets sorted
    (their order changes with the hash seed), patterns by their text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__, {f.name: _canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}]
    if isinstance(value, dict):
        return sorted(([_canonical(key), _canonical(item)] for key, item in value.items()), key=json.dumps)
    if isinstance(value, (set, frozenset)):
        return ["set", sorted((_canonical(item) for item in value), key=json.dumps)]
    if isinstance(value, (list, tuple)):
        return [_canonical(item) for item in value]
    if isinstance(value, re.Pattern):
        return ["pattern", _canonical(value.pattern), value.flags]
    if isinstance(value, bytes):
        return ["bytes", value.hex()]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)  # unknown: an address in it changes every run, so the cache is never wrong


def _content_hash(path: str, limit: int | None) -> str | None:
    """A hash of the file's bytes; None when it cannot be read, is not a regular file (a pipe is
    never opened to wait on) or is over the scanner's size limit: the scanner reports those unread,
    so the cache does not read them either (nor more than the limit of one that grows meanwhile)."""
    digest = hashlib.blake2b()
    try:
        with opened_regular(path, limit) as descriptor:
            left = limit + 1 if limit is not None else None
            while chunk := os.read(descriptor, _CHUNK if left is None else min(_CHUNK, left)):
                digest.update(chunk)
                if left is not None:
                    left -= len(chunk)
                    if left == 0:
                        return None  # past the limit: the scanner says so
    except OSError:
        return None
    return digest.hexdigest()[:32]


def _job_key(job) -> str:
    return json.dumps([os.path.abspath(job.path), _canonical(job)])


# --------------------------------------------------------------------------- outcomes as JSON
# An outcome is (status, uses, errors) of the scanner's dataclasses; they are written with their
# class name and fields, and read back only as one of these classes.
_CLASSES = {cls.__name__: cls for cls in (scan.Use, scan.Target, scan.CallArguments, scan.FileError, Message)}


def _encode(value):
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"class": type(value).__name__, "fields": fields}
    if isinstance(value, (set, frozenset)):
        return {"frozenset": sorted((_encode(item) for item in value), key=json.dumps)}
    if isinstance(value, tuple):
        return {"tuple": [_encode(item) for item in value]}
    if isinstance(value, list):
        return [_encode(item) for item in value]
    return value


def _decode(value):
    if isinstance(value, list):
        return [_decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    if "frozenset" in value:
        return frozenset(_decode(item) for item in value["frozenset"])
    if "tuple" in value:
        return tuple(_decode(item) for item in value["tuple"])
    cls = _CLASSES.get(value["class"])
    if cls is None:
        raise TypeError(f"not a scanner class: {value['class']}")
    return cls(**{name: _decode(item) for name, item in value["fields"].items()})


def _decoded(entry, content: str | None):
    """The outcome an entry holds, when it is for this content and can be read; else None."""
    if content is None or not isinstance(entry, dict) or entry.get("content") != content:
        return None
    try:
        status, uses, errors = _decode(entry["outcome"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None  # a damaged or hand-edited entry: scan the file again
    if status not in _STATUSES or not _all(uses, scan.Use) or not _all(errors, scan.FileError):
        return None
    return status, uses, errors


def _all(items, cls: type) -> bool:
    return isinstance(items, list) and all(isinstance(item, cls) for item in items)


def stats_line(cache: ScanCache | None, lang: str, scanned_without_cache: int = 0) -> str:
    """How many files the scanner read and how many came from the cache (--stats)."""
    t = STRINGS[lang]
    scanned = cache.scanned if cache else scanned_without_cache
    word = plural_text(lang, t["files_word"], scanned)
    if cache is None:
        return t["stats_off"].format(scanned=scanned, word=word)
    return t["stats"].format(scanned=scanned, word=word, reused=cache.reused, folder=cache.folder)
