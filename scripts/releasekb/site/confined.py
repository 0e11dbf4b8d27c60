"""Writes and deletes that stay inside their folder.

`releasekb export` writes and deletes files in folders it owns inside a project: the generated
pages (docs/<lang>/releases/, ...; markdown_export.py). A cloned repository can hold a symbolic
link at any of those paths (`docs/zh/releases -> ../../../victim`), and following it would delete or overwrite files
outside the project. So no path of ours is followed through a link: a link there is an error
naming it, and a file is opened for writing with O_NOFOLLOW, which refuses a link put there since.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from releasekb.common.safe_text import visible


class LinkInTheWay(OSError):
    """A path ReleaseKB would write or delete through is a symbolic link."""

    def __init__(self, link: Path, base: Path):
        super().__init__(
            f"{visible(link)} is a symbolic link, in a folder ReleaseKB writes ({visible(base)}): ReleaseKB "
            "would write or delete through it, outside that folder; remove the link (ReleaseKB writes "
            "what belongs there itself)"
        )


def refuse_links(path: Path, base: Path) -> None:
    """Raise LinkInTheWay if path, or a folder between base and it, is a symbolic link (base
    itself is the project's, and may be one). What does not exist yet is made by the caller."""
    current = base
    for part in path.relative_to(base).parts:
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return
        if stat.S_ISLNK(mode):
            raise LinkInTheWay(current, base)


def files_under(root: Path, base: Path) -> list[Path]:
    """The files under root (root itself when it is a file), without following a link: a link at
    root, on the way to it from base, or anywhere under it is LinkInTheWay."""
    refuse_links(root, base)
    if not os.path.lexists(root):
        return []
    if not root.is_dir():
        return [root]
    files = []
    for folder, folders, names in os.walk(root):
        for name in (*folders, *names):
            if os.path.islink(os.path.join(folder, name)):
                raise LinkInTheWay(Path(folder, name), base)
        files += [Path(folder, name) for name in names]
    return files


def no_follow(path: str, flags: int) -> int:
    """An `opener` for open(): the file is opened only if it is not a symbolic link (ELOOP)."""
    return os.open(path, flags | os.O_NOFOLLOW, 0o666)
