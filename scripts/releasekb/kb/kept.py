"""What was worked out from one release file, kept with that file's loaded object.

Under `serve`, LoadedReleases hands back an unchanged file's object after every save, so the work
that reads one release file at a time (some of the rules, the translated texts and their hashes)
is done again for the file an edit changed, not for all of them: at 80 releases that work was
most of what an edit cost before the pages. What is kept lives in the object
(`LoadedRelease.worked_out`), so it goes when the object goes, even when it refers to it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from releasekb.kb.dataset import LoadedRelease

Result = TypeVar("Result")


def kept(what: Hashable, release: LoadedRelease, depends_on: object, work: Callable[[], Result]) -> Result:
    """work()'s result for `release`, kept in it under `what`: the kept one while `depends_on`
    (anything else the work reads: the project, a language) is equal, else work() again."""
    found = release.worked_out.get(what)
    if found is not None and (found[0] is depends_on or found[0] == depends_on):
        return found[1]
    result = work()
    release.worked_out[what] = (depends_on, result)
    return result
