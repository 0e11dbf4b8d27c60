"""Pagefind's filter files, made reproducible: the one place ReleaseKB writes Pagefind's output.

Why it must stay: Pagefind writes each filter's values in the order of a hash map, which changes
from run to run, so two builds of the same sources would give different files (and different
names, which are hashes of the bytes), and a site must be byte-identical from build to build
(CONTRIBUTING.md, "Deploying"). Pagefind's documented interfaces (its command line, its Node and
Python APIs) offer no ordered output, so its files are read and written here in its own format
(gzipped CBOR after a signature), the values sorted, and the files that name them renamed with
them. tests/test_engine_adapter.py indexes pages with Pagefind and checks the result. Remove
this module when Pagefind writes its filters in a stable order.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path


def sort_filter_values(bundle: Path) -> None:
    """Pagefind writes each filter's values in the order of a hash map, which changes from run to
    run: the same pages would give other files, and two builds of the same sources would differ.
    Each filter file is written again with its values sorted, under a name made from its bytes,
    and the files that name it (the language's meta file, then the entry file) follow."""
    entry_file = bundle / "pagefind-entry.json"
    entry = json.loads(entry_file.read_text(encoding="utf-8"))
    for language, info in entry["languages"].items():
        meta_file = bundle / f"pagefind.{info['hash']}.pf_meta"
        meta = read_pagefind_file(meta_file)
        filters = meta[3]  # [[name, chunk], ...]; the chunk names filter/<chunk>.pf_filter
        for pair in filters:
            chunk_file = bundle / "filter" / f"{pair[1]}.pf_filter"
            name, values = read_pagefind_file(chunk_file)
            pair[1] = _write_pagefind(bundle / "filter", language, 7, ".pf_filter", [name, sorted(values)])
            chunk_file.unlink()
        filters.sort()
        meta_file.unlink()
        info["hash"] = _write_pagefind(bundle, language, 10, ".pf_meta", meta, prefix="pagefind.")
    entry_file.write_text(json.dumps(entry, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


# Pagefind's files are gzipped CBOR after this signature.
_PAGEFIND_SIGNATURE = b"pagefind_dcd"


def read_pagefind_file(path: Path):
    import cbor2

    return cbor2.loads(gzip.decompress(path.read_bytes()).removeprefix(_PAGEFIND_SIGNATURE))


def _write_pagefind(folder: Path, language: str, length: int, suffix: str, data, prefix: str = "") -> str:
    """Write data as Pagefind does; returns the name Pagefind's files refer to it by."""
    import cbor2

    content = _PAGEFIND_SIGNATURE + cbor2.dumps(data)
    name = f"{language}_{hashlib.sha256(content).hexdigest()[:length]}"
    (folder / f"{prefix}{name}{suffix}").write_bytes(gzip.compress(content, mtime=0))
    return name
