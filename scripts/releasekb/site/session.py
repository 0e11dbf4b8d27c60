"""The state one process keeps between its builds of one language, in one object.

A language worker of `releasekb build` and `serve` (build.py) makes its Session as it starts and
keeps it as long as it lives: under `serve` each rebuild starts from what the ones before left
(the pages written, the overviews' rows, the release files parsed, the search feed and the
pages given to Pagefind), so that it does only what the edit changed. The worker hands its
session to the MkDocs plugin of each build. A plain `mkdocs build` or `mkdocs serve` uses the
session of its plugin instance, which MkDocs keeps across `mkdocs serve`'s rebuilds.
"""

from __future__ import annotations

from multiprocessing.sharedctypes import SynchronizedArray

from releasekb.kb.validate import LoadedReleases
from releasekb.site.afterwards import Jobs
from releasekb.site.generate import LanguagePages
from releasekb.site.progress import Progress
from releasekb.site.search import Indexer


class Session:
    def __init__(self, counters: SynchronizedArray | None = None):
        self.jobs = Jobs()  # the work left for after each build (under `serve`)
        self.indexer = Indexer(self.jobs)
        self.releases = LoadedReleases()
        self.pages = LanguagePages(self.releases)
        self.progress = Progress(counters)
        self.built_languages: set[str] = set()  # a dirty build needs an earlier one to start from
