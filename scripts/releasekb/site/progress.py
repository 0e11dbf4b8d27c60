"""Build progress on a terminal: pages done per language and elapsed time, on one line.

The language builds run in worker processes; each counts its pages into counters shared
with the parent (given to each worker's Progress as it starts), and the parent's Reporter redraws the
line a few times a second. Nothing is printed when stderr is not a terminal (CI logs,
pipes), and outside `releasekb build`/`serve` (a plain `mkdocs build`) nothing is counted.
"""

from __future__ import annotations

import sys
import threading
import time
from multiprocessing import get_context
from multiprocessing.sharedctypes import SynchronizedArray


def shared_counters(languages: tuple[str, ...]) -> SynchronizedArray:
    """Per language of the site, in its order: pages done, pages in total (0 until the build has
    collected its files)."""
    return get_context("fork").Array("i", 2 * len(languages))


def reset(counters: SynchronizedArray) -> None:
    with counters.get_lock():
        counters[:] = [0] * len(counters)


class Progress:
    """What one process counts into the shared counters: the pages of the language it builds.
    Without counters (a plain `mkdocs build`), nothing is counted."""

    def __init__(self, counters: SynchronizedArray | None = None):
        self.counters = counters
        self._slot: int | None = None  # this process's language, once its build has started

    def start(self, lang: str, languages: tuple[str, ...]) -> None:
        """Called by the MkDocs plugin when a language's build starts in this process."""
        self._slot = languages.index(lang) if lang in languages else None
        if self.counters is not None and self._slot is not None and 2 * self._slot + 1 >= len(self.counters):
            self._slot = None  # the builder counted other languages (project.yaml changed under `serve`)

    def total(self, pages: int) -> None:
        if self.counters is not None and self._slot is not None:
            self.counters[2 * self._slot + 1] = pages

    def page_done(self) -> None:
        if self.counters is not None and self._slot is not None:
            with self.counters.get_lock():
                self.counters[2 * self._slot] += 1


def line(counters, elapsed: float, languages: tuple[str, ...]) -> str:
    """'building: en 812/1050, zh 790/1050 pages, 2.4 s'"""
    parts = [f"{lang} {counters[2 * i]}/{counters[2 * i + 1] or '?'}" for i, lang in enumerate(languages)]
    return f"building: {', '.join(parts)} pages, {elapsed:.1f} s"


class Reporter:
    """Redraws the progress line on a terminal while the `with` block runs."""

    def __init__(self, counters: SynchronizedArray, languages: tuple[str, ...], stream=None, interval: float = 0.25):
        self.counters, self.stream, self.interval = counters, stream or sys.stderr, interval
        self.languages = languages
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Reporter:
        self.start = time.perf_counter()
        if self.stream.isatty():
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
            self._draw()
            self.stream.write("\n")
            self.stream.flush()

    def _run(self) -> None:
        while not self._done.wait(self.interval):
            self._draw()

    def _draw(self) -> None:
        self.stream.write("\r\x1b[K" + line(self.counters[:], time.perf_counter() - self.start, self.languages))
        self.stream.flush()
