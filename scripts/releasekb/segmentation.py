"""Chinese word segmentation for the search index, remembered between builds.

Material's search plugin splits every run of Han characters into words with jieba before
indexing it (Material's search matches whole words only). Loading jieba's dictionary costs
about 0.7 s per build, and segmenting a site's text about as much again, for text that mostly
did not change since the last build. `CachedSegmenter` stands in for the jieba module in
Material's search plugin: it answers `cut` from the segmentations of the previous build, kept
in the user's cache folder, and loads jieba only for text it has not seen. jieba's answer for
a run depends only on the run, its dictionary and the words added to it, which together name
the cache file, so the index is the same byte for byte whether the answer came from the cache.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path


def cache_dir() -> Path:
    """Where ReleaseKB keeps what it can recompute: $XDG_CACHE_HOME/releasekb (~/.cache/releasekb)."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "releasekb"


class CachedSegmenter:
    """`cut(text)` as jieba's, for the search plugin, remembering answers between builds.

    `words` are added to jieba's dictionary (terms to keep whole, like 自动求导) before it
    segments anything."""

    def __init__(self, words: list[str], folder: Path | None = None):
        self.words = sorted(words)
        key = json.dumps([version("jieba"), self.words], ensure_ascii=False)
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
        self.path = (folder or cache_dir()) / f"jieba-segments-{digest}.json"
        self.known = self._read()
        self.used: dict[str, str] = {}  # what this build asked: run -> words joined by spaces
        self.jieba = None  # the module, once a run not in the cache needed it

    def cut(self, text: str | bytes) -> Iterator[str]:
        if isinstance(text, bytes):  # Material passes UTF-8 bytes, as jieba accepts
            text = text.decode("utf-8")
        words = self.used.get(text) or self.known.get(text)
        if words is None:
            words = " ".join(self._jieba().cut(text))  # Han runs hold no spaces
        self.used[text] = words
        return iter(words.split(" "))

    def save(self) -> None:
        """Keep this build's answers (only these: the file follows the site's text, it does not
        grow with every edit). Written whole and renamed into place, never half-written."""
        if self.used == self.known:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=self.path.parent, delete=False) as out:
                json.dump(self.used, out, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
            os.replace(out.name, self.path)
        except OSError:
            pass  # a read-only home folder: the next build segments again, nothing is wrong
        self.known = dict(self.used)

    def _jieba(self):
        if self.jieba is None:
            import jieba

            jieba.setLogLevel(logging.WARNING)
            for word in self.words:
                jieba.add_word(word)
            self.jieba = jieba
        return self.jieba

    def _read(self) -> dict[str, str]:
        try:
            known = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # none yet, or damaged: segment again
        valid = isinstance(known, dict) and all(isinstance(words, str) for words in known.values())
        return known if valid else {}
