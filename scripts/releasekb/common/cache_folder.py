"""The one folder, in a project, where ReleaseKB keeps what a later run may reuse and any run can
make again: the pages `build` gives Pagefind (site/search.py) and the scan results of `check`
(check/cache.py). One name, which the `.gitignore` that `init` writes lists too."""

from __future__ import annotations

CACHE_FOLDER = ".releasekb-cache"
# The folder `check` used before it shared the build's: nothing reads it any more (a cache only
# saves time, so the first check after an upgrade scans every file once), it ignores itself
# (check wrote a `.gitignore` of `*` into it), and the scanner still skips it.
OLD_CHECK_CACHE_FOLDER = ".releasekb_cache"
