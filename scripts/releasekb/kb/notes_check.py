"""`releasekb notes --check --base REF`: does a branch that needs a note add one?

project.yaml's `notes:` declares the files whose change needs a note (`required_for`, glob
patterns relative to the repository's root). The branch's changes are git's, against the point
where it left the base (`git diff --name-status BASE...HEAD`, as a pull request shows them); a
note is a file added or edited under the notes' folder. A branch opts out with the marker in a
commit message of its own (`BASE..HEAD`), or with the label, which the CI passes in (the labels
of a pull request are not in git).
"""

from __future__ import annotations

import fnmatch
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from releasekb.common.safe_text import visible
from releasekb.kb import notes
from releasekb.kb.model import NotesConfig
from releasekb.kb.validate import load_project

# The command that writes a note, as a failed check names it.
ADD_COMMAND = "releasekb add --feature --id ID --area AREA"


class GitFailed(Exception):
    """git could not answer (no repository, an unknown base): a sentence saying what to do."""


@dataclass(frozen=True)
class Verdict:
    passed: bool
    message: str


def check_branch(data_dir: Path, base: str, labels: list[str]) -> Verdict:
    """Whether the branch checked out in the repository around `data_dir` may merge into `base`."""
    config = load_project(data_dir).notes
    if config is None:
        return Verdict(True, "project.yaml declares no `notes:`, so no change needs a note")
    root = Path(_git(["rev-parse", "--show-toplevel"], data_dir, "is the data folder in a git repository?").strip())
    folder = PurePosixPath(notes.notes_folder(Path(data_dir).resolve()).relative_to(root.resolve()).as_posix())
    changed = _changes(root, base)
    added = changed_notes(changed, folder)
    if added:
        listed = ", ".join(map(visible, added))
        return Verdict(True, f"the branch adds {len(added)} note{'s' if len(added) != 1 else ''}: {listed}")
    needing = [path for path in changed if _needs_note(path, config)]
    if not needing:
        return Verdict(True, "the branch changes no file that needs a note")
    if config.skip_label in labels:
        return Verdict(True, f"the branch needs no note: it is labelled '{config.skip_label}'")
    messages = _git(["log", "--format=%B", f"{base}..HEAD"], root, _base_hint(base))
    if config.skip_marker in messages:
        return Verdict(True, f"the branch needs no note: a commit message says '{config.skip_marker}'")
    more = f" (and {len(needing) - 1} more)" if len(needing) > 1 else ""
    return Verdict(
        False,
        f"this branch changes {visible(needing[0])}{more} but adds no note under {folder}/: write one with "
        f"`{ADD_COMMAND}` (or `--change KIND` for a breaking change, deprecation or removal), or, when it needs "
        f"none, write '{config.skip_marker}' in a commit message or label the pull request '{config.skip_label}'",
    )


def changed_notes(changed: dict[str, str], folder: PurePosixPath) -> list[str]:
    """The notes the branch adds or edits (a removed one is none)."""
    return [
        path
        for path, status in changed.items()
        if status != "D"
        and PurePosixPath(path).parent == folder
        and path.endswith(".yaml")
        and not PurePosixPath(path).name.startswith(".")
    ]


def _needs_note(path: str, config: NotesConfig) -> bool:
    return any(fnmatch.fnmatchcase(path, pattern) for pattern in config.required_for)


def _changes(root: Path, base: str) -> dict[str, str]:
    """{path: git's status letter} of the branch's changes since it left `base`; a renamed file
    counts at its new path (and its old one, which the branch removed)."""
    output = _git(["diff", "--name-status", "-z", "--no-renames", f"{base}...HEAD"], root, _base_hint(base))
    fields = output.split("\0")
    return {path: status[:1] for status, path in zip(fields[0::2], fields[1::2], strict=False) if path}


def _base_hint(base: str) -> str:
    return (
        f"is '{base}' a branch git knows here? Fetch it first (`git fetch origin`; in GitHub Actions, "
        "check out with `fetch-depth: 0`)"
    )


def _git(arguments: list[str], folder: Path, hint: str) -> str:
    try:
        result = subprocess.run(["git", *arguments], cwd=folder, capture_output=True, check=False)
    except OSError as error:
        raise GitFailed(f"cannot run git ({error.strerror or error}): install git") from None
    if result.returncode != 0:
        said = result.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitFailed(f"`git {arguments[0]}` failed ({said[-1] if said else 'no message'}): {hint}")
    return result.stdout.decode("utf-8", "replace")
