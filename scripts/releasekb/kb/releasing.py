"""`releasekb release VERSION`: the notes (releases/unreleased/) become the release file.

The release file is the notes composed as validate reads them (kb/notes.py), with the version
and date given and TODO placeholders for the release's own title and summary; translations.lock
records the notes' translated texts as reviewed (their translations were written with them).

An interruption (Ctrl-C, a full disk, a crash) must leave either the notes or the release file,
never both (the entries would be released twice) or neither (they would be lost). The steps:

1. the journal, `releases/unreleased/.releasing.json`, names the version and the notes it folds;
2. the release file and translations.lock are written, each atomically (common/atomic.py);
3. the notes are removed (`git rm` where git tracks them);
4. the journal is removed.

Until 2 the release file does not exist and the notes are the state; from 2 on, the release file
is. Between 2 and 4 both are on disk: every reader of the notes (validate.read_files) leaves out
those a journal names once its release file exists, and the next `release` or `add` finishes
the removal (finish_interrupted). So whatever the moment of an interruption, the data holds
exactly one of the two.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from releasekb.common import atomic
from releasekb.common.problems import DataError
from releasekb.common.safe_text import visible
from releasekb.common.versions import version_key
from releasekb.kb import notes, starter, translations
from releasekb.kb.model import DATE_PATTERN, VERSION_PATTERN
from releasekb.kb.skeleton import NewReleaseError
from releasekb.kb.urls import MAX_NAME_LENGTH
from releasekb.kb.validate import display_path, load_data, read_files, release_paths

JOURNAL = notes.JOURNAL


@dataclass(frozen=True)
class Released:
    path: Path  # the release file written
    notes: tuple[str, ...]  # the notes it folded, as problems name them
    finished: str | None = None  # an interrupted release this run finished first, said so


def release(data_dir: Path, version: str, date: str) -> Released:
    """Fold every note into releases/<version>.yaml (see the module's docstring). Raises
    NewReleaseError (usage: a malformed version or date; else there is nothing to release or the
    release exists) or DataError (a note is invalid), in both cases with nothing changed."""
    data_dir = Path(data_dir)
    finished = finish_interrupted(data_dir)
    version = version.removesuffix(".yaml")
    if not re.fullmatch(VERSION_PATTERN, version) or len(version) > MAX_NAME_LENGTH:
        raise NewReleaseError(f"'{visible(version)}' is not a version like 1.8 or 1.10", usage=True)
    if not re.fullmatch(DATE_PATTERN, date):
        raise NewReleaseError(
            f"--date '{visible(date)}' is not a date written YYYY-MM-DD (or YYYY-MM when only the month is known)",
            usage=True,
        )
    path = data_dir / f"{version}.yaml"
    same = next((p for p in release_paths(data_dir) if version_key(p.stem) == version_key(version)), None)
    if os.path.lexists(path) or same is not None:
        raise NewReleaseError(
            f"{display_path(same or path)} already exists: version {version} is released; give the next version"
        )
    if not notes.note_paths(data_dir):
        raise NewReleaseError(
            f"there are no notes in {display_path(notes.notes_folder(data_dir))} to release "
            "(`releasekb add` writes one per change)"
        )
    read = read_files(data_dir, with_notes=notes.NotesAs(version, date))
    if read.notes is None:  # no note could be read: their problems say why
        raise DataError(list(read.problems))
    data = load_data(read)  # raises DataError, located at the notes' own lines
    composed = read.notes
    lock_path = data_dir / translations.LOCK_FILE
    # the notes' translated texts, reviewed with the notes (the release's own title and summary
    # are written below as placeholders: they get their record when the release is marked reviewed)
    released = next(loaded.record for loaded in data.releases if loaded.record.version == version)
    entry_keys = [f"{version}:{entry.id}" for entry in (*released.features, *released.changes)]
    records, _ = translations.reviewed_records(data, data_dir, entry_keys)
    note_files = [notes.notes_folder(data_dir) / Path(shown).name for shown in composed.paths]
    journal = notes.notes_folder(data_dir) / JOURNAL
    header = _header_lines(composed, date, released.scheme, data.project.languages)
    release_text = notes.release_file_text(composed, header)
    if notes.entries_of(release_text) != notes.entries_of(composed.text):
        # a text of a note held what looked like `add`'s help (a block text's line ending in
        # "  # e.g. ..."): the notes are written as they are, so the file says what was validated
        release_text = notes.release_file_text(composed, header, tidy=False)
    lock_text = translations.lock_text(records, data.project.languages)
    atomic.write_text(journal, json.dumps({"version": version, "notes": [p.name for p in note_files]}) + "\n")
    try:
        atomic.write_files({path: release_text, lock_path: lock_text})
    except BaseException:
        journal.unlink(missing_ok=True)  # the release was not written: the notes are the state
        raise
    _remove(note_files)
    journal.unlink(missing_ok=True)
    return Released(path, composed.paths, finished)


def _header_lines(composed: notes.Composed, date: str, scheme: str, languages) -> list[str]:
    """The release's own keys as `releasekb release` writes them: TODO placeholders for its title
    and summary, which no note holds, as `releasekb new` writes them."""
    texts = starter.texts_in(
        "title: __TEXT:new_release_title__\nsummary: __TEXT:new_release_summary__", tuple(languages), quoted=True
    )
    return [
        f"# Made by `releasekb release` from {_count_notes(len(composed.notes))} of releases/unreleased/: write the",
        "# release's title and summary (the TODOs), then `releasekb validate`.",
        f'version: "{composed.version}"',
        f"date: {date}",
        f"scheme: {scheme}",
        *texts.split("\n"),
        "sources:",
        f"  - {{kind: original, lang: {languages[0]}}}  # add `url:`, the announcement's address, if it has one",
        "highlights: []  # ids of the entries below that the release itself highlighted",
    ]


def _count_notes(count: int) -> str:
    return f"{count} note{'s' if count != 1 else ''}"


def finish_interrupted(data_dir: Path) -> str | None:
    """Finish a release an interruption left halfway (a journal is there): its notes are removed
    when its release file was written, else the journal alone (the notes are still the state).
    Returns a sentence saying what was done, or None when there was nothing to finish."""
    folder = notes.notes_folder(data_dir)
    pending = notes.pending_release(data_dir)
    if pending is None:
        return None
    version, names = pending
    journal = folder / JOURNAL
    if not (Path(data_dir) / f"{version}.yaml").is_file():
        journal.unlink(missing_ok=True)
        return f"an interrupted `releasekb release {version}` had not written its release file; its notes are kept"
    _remove([folder / name for name in names if (folder / name).exists()])
    journal.unlink(missing_ok=True)
    return f"an interrupted `releasekb release {version}` was finished: its notes were removed"


def _remove(paths: list[Path]) -> None:
    """Remove the notes: those git tracks with `git rm` (so the removal is in the next commit),
    the others from the disk."""
    tracked = _tracked(paths)
    if tracked:
        subprocess.run(
            ["git", "rm", "-q", "-f", "--", *(str(p.resolve()) for p in tracked)],
            cwd=paths[0].parent,
            check=True,
            capture_output=True,
        )
    for path in paths:
        if path not in tracked:
            remove_note(path)


def remove_note(path: Path) -> None:
    """One note off the disk (a function of its own: the tests interrupt a release here)."""
    path.unlink(missing_ok=True)


def _tracked(paths: list[Path]) -> list[Path]:
    """The paths git tracks, none when the folder is no git repository or git is missing."""
    if not paths:
        return []
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--", *(p.name for p in paths)],
            cwd=paths[0].parent,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    names = {Path(name).name for name in listed.decode("utf-8", "replace").split("\0") if name}
    return [path for path in paths if path.name in names]
