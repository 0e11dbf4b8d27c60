"""Pagefind's filter files, made reproducible: the one place ReleaseKB writes Pagefind's output.

Why it must stay: Pagefind writes each filter's values in the order of a hash map, which changes
from run to run, so two builds of the same sources would give different files (and different
names, which are hashes of the bytes), and a site must be byte-identical from build to build
(CONTRIBUTING.md, "Deploying"). Pagefind's documented interfaces (its command line, its Node and
Python APIs) offer no ordered output, so its files are read and written here in its own format
(gzipped CBOR after a signature), the values sorted, and the files that name them renamed with
them, before the bundle is written. tests/test_engine_adapter.py indexes pages with Pagefind and
checks the result. Remove this module when Pagefind writes its filters in a stable order.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path


def sort_filter_values(bundle: dict[str, bytes]) -> None:
    """Pagefind writes each filter's values in the order of a hash map, which changes from run to
    run: the same pages would give other files, and two builds of the same sources would differ.
    In a bundle as Pagefind's service gives it ({path: bytes}, pagefind_service.py), each filter
    file is made again with its values sorted, under a name made from its bytes, and the files
    that name it (the language's meta file, then the entry file) follow."""
    entry = json.loads(bundle["pagefind-entry.json"])
    for language, info in entry["languages"].items():
        meta = _read(bundle.pop(f"pagefind.{info['hash']}.pf_meta"))
        filters = meta[3]  # [[name, chunk], ...]; the chunk names filter/<chunk>.pf_filter
        for pair in filters:
            name, values = _read(bundle.pop(f"filter/{pair[1]}.pf_filter"))
            pair[1], content = _made(language, 7, [name, sorted(values)])
            bundle[f"filter/{pair[1]}.pf_filter"] = content
        filters.sort()
        info["hash"], content = _made(language, 10, meta)
        bundle[f"pagefind.{info['hash']}.pf_meta"] = content
    bundle["pagefind-entry.json"] = json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


# Pagefind's files are gzipped CBOR after this signature.
_PAGEFIND_SIGNATURE = b"pagefind_dcd"


def read_pagefind_file(path: Path):
    return _read(path.read_bytes())


def _read(content: bytes):
    import cbor2

    return cbor2.loads(gzip.decompress(content).removeprefix(_PAGEFIND_SIGNATURE))


def _made(language: str, length: int, data) -> tuple[str, bytes]:
    """(the name Pagefind's files refer to it by, the file's bytes) of data, made as Pagefind makes
    its files."""
    import cbor2

    content = _PAGEFIND_SIGNATURE + cbor2.dumps(data)
    return f"{language}_{hashlib.sha256(content).hexdigest()[:length]}", gzip.compress(content, mtime=0)
