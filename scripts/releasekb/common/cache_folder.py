"""The one folder, in a project, where ReleaseKB keeps what a later run may reuse and any run can
make again: the scan results of `check` (check/cache.py). One name, which the `.gitignore` that
`init` writes lists too. (`build` kept the pages it gave Pagefind in it, until it gave them
through Pagefind's service instead, site/pagefind_service.py; a folder `search-pages` left there
by an older version is not read.)"""

from __future__ import annotations

CACHE_FOLDER = ".releasekb-cache"
# The folder `check` used before it shared the build's: nothing reads it any more (a cache only
# saves time, so the first check after an upgrade scans every file once), it ignores itself
# (check wrote a `.gitignore` of `*` into it), and the scanner still skips it.
OLD_CHECK_CACHE_FOLDER = ".releasekb_cache"
