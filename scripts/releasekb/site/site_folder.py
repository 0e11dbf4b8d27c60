"""Where `releasekb build` may put the site, and what it may replace there.

A build replaces its output folder whole: build.py's swap renames the folder aside and removes
it. So the folder must be none of the project's own: not the project folder (the folder of the
MkDocs configuration) nor a folder around it, and neither the data folder nor the docs folder,
nor a folder inside or around them. And a folder that exists is replaced only when it is empty
or a ReleaseKB build wrote it: every built site carries MARKER, a small file that says so.
Anything else is refused before anything is touched, with a sentence naming the conflict.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from releasekb.common.safe_text import visible

# Written into every site a build makes (build.py), and read before a build replaces a folder.
MARKER = ".releasekb-site"
MARKER_TEXT = (
    "This folder is a site built by ReleaseKB (`releasekb build`): the next build replaces it whole.\n"
    "A build replaces a folder only when it is empty or holds this file, so that it never removes\n"
    "anything it did not write. Deploy the folder as it is; this file is harmless there.\n"
)


class SiteFolderRefused(Exception):
    """The output folder overlaps the project's own folders, or holds what no build wrote."""


def check_site_folder(site_dir: Path, project: Path, sources: dict[str, Path]) -> None:
    """Raise SiteFolderRefused unless site_dir may be replaced by a build. project: the folder of
    the configuration; sources: {"data folder": path, "docs folder": path, ...}."""
    site = site_dir.resolve()
    named = visible(site_dir)
    project = project.resolve()
    if site == project:
        raise SiteFolderRefused(
            f"cannot build into {named}: it is the project folder (the folder of mkdocs.yml){_ADVICE}"
        )
    if site in project.parents:
        raise SiteFolderRefused(f"cannot build into {named}: it holds the project folder {visible(project)}{_ADVICE}")
    for what, folder in sources.items():
        folder = folder.resolve()
        if site == folder:
            conflict = f"it is the {what}"
        elif site in folder.parents:
            conflict = f"it holds the {what} {visible(folder)}"
        elif folder in site.parents:
            conflict = f"it is inside the {what} {visible(folder)}"
        else:
            continue
        raise SiteFolderRefused(f"cannot build into {named}: {conflict}{_ADVICE}")
    if not replaceable(site):
        raise SiteFolderRefused(
            f"cannot build into {named}: it holds files that no ReleaseKB build wrote (it has no {MARKER} file), "
            "and the build would replace it; empty or remove it yourself, or pass --site-dir a new or empty folder"
        )
    previous = previous_site(site)
    if os.path.lexists(previous) and not replaceable(previous):
        raise SiteFolderRefused(
            f"cannot build into {named}: {visible(previous)}, where a build moves the previous site aside, "
            f"holds files that no ReleaseKB build wrote (it has no {MARKER} file); move or remove it yourself"
        )


_ADVICE = "; the build replaces its output folder whole: pass --site-dir a folder of its own, such as site"


def previous_site(site: Path) -> Path:
    """Where a swap moves the previous site aside (build.py)."""
    return site.with_name(f".{site.name}-previous")


def replaceable(folder: Path) -> bool:
    """Whether folder may be removed by a build: absent, or a real folder (not a link) that is
    empty or holds the MARKER a build writes."""
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        return True
    if not stat.S_ISDIR(mode):
        return False
    return is_marked(folder) or not any(folder.iterdir())


def is_marked(folder: Path) -> bool:
    """Whether folder is a real folder holding the MARKER file (a regular file, not a link)."""
    try:
        return stat.S_ISDIR(os.lstat(folder).st_mode) and stat.S_ISREG(os.lstat(folder / MARKER).st_mode)
    except OSError:
        return False


def mark(site: Path) -> None:
    """Leave the MARKER in a site a build made."""
    (site / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
