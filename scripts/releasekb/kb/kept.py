"""What was worked out from one release file, kept while that file's loaded object is the same one.

Under `serve`, LoadedReleases hands back an unchanged file's object after every save, so the work
that reads one release file at a time (some of the rules, the translated texts and their hashes)
is done again for the file an edit changed, not for all of them: at 80 releases that work was
most of what an edit cost before the pages. Anything else the work reads (`depends_on`: the
project, a language) is compared too, by equality.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import TypeVar

from releasekb.kb.dataset import LoadedRelease

Result = TypeVar("Result")


class KeptPerRelease:
    def __init__(self):
        self._kept: dict[tuple[Hashable, int], tuple[weakref.ref, object, object]] = {}

    def get(self, what: Hashable, release: LoadedRelease, depends_on: object, work: Callable[[], Result]) -> Result:
        """work()'s result for `release`: the kept one while `release` is the same object and
        `depends_on` is equal, else work() again (kept until the release object is gone)."""
        key = (what, id(release))
        kept = self._kept.get(key)
        if kept is not None and kept[0]() is release and kept[1] == depends_on:
            return kept[2]  # type: ignore[return-value]
        result = work()
        forget = lambda _ref, key=key: self._kept.pop(key, None)  # noqa: E731 (the release is gone)
        self._kept[key] = (weakref.ref(release, forget), depends_on, result)
        return result
