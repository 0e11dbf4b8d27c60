"""One `releasekb check` run: the paths scanned in groups (each reported path unambiguous), the
scan results merged, analysed (analysis.py), compared with the declared requirement and placed
in notebook files, into one Report.
"""

from __future__ import annotations

import dataclasses
import posixpath
from pathlib import Path

from releasekb.check.analysis import analyse
from releasekb.check.index import ApiIndex
from releasekb.check.kinds import requirement
from releasekb.check.notebook_lines import notebook_files, place_in_notebook_files
from releasekb.check.options import Options
from releasekb.check.report import Report


def run_check(
    index: ApiIndex,
    options: Options,
    paths: list[str],
    *,
    include=(),
    exclude=(),
    confidence: str = "medium",
    max_file_size: int | None = None,
    cache=None,
) -> Report:
    """Scan `paths` for the index's APIs and report what an upgrade from --from to --to means.
    A file larger than `max_file_size` bytes is skipped (default: the scanner's limit); with
    `cache`, a cache.ScanCache, unchanged files are not scanned again."""
    from releasekb.check import scan

    targets = [scan.Target(name, use) for name, use in index.records]
    python_roots = tuple(index.code_roots.get("python", ()))
    tokens = tuple(root for language, roots in index.code_roots.items() if language != "python" for root in roots)
    roots = scan.Roots(python_roots, tokens)
    limit = scan.DEFAULT_MAX_FILE_SIZE if max_file_size is None else max_file_size
    scan_options = {"include": include, "exclude": exclude, "confidence": confidence, "max_file_size": limit}
    groups = scan_groups(paths)
    results = [(prefix, scan.scan(group, targets, roots, **scan_options, cache=cache)) for prefix, group in groups]
    report = analyse(index, options, _merged(results), paths, confidence)
    requirement.check_declared_requirement(options, report, paths)
    place_in_notebook_files(report, notebook_files(groups, results), limit)
    return report


def scan_groups(paths: list[str]) -> list[tuple[str, list[str]]]:
    """(display prefix, paths) for one scan each. The scanner reports a file relative to the
    folder it was given, and a file given by itself by its name: each folder is scanned alone and
    files are scanned with the others of their folder, so that every reported path can be made
    unambiguous again (pre-commit passes `a/__init__.py b/__init__.py`)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for path in paths:
        folder = Path(path) if Path(path).is_dir() else Path(path).parent
        key = (display_prefix(folder), path if Path(path).is_dir() else "")
        groups.setdefault(key, []).append(path)
    return [(prefix, group) for (prefix, _), group in groups.items()]


def display_prefix(folder: Path) -> str:
    """How reports name a scanned folder: relative to the current directory when it is below it
    (what GitHub annotations and SARIF's %SRCROOT% expect when run from the repository's root,
    and what a terminal can open), else nothing: paths are then relative to the scanned folder."""
    cwd, absolute = Path.cwd().resolve(), folder.resolve()
    if absolute.is_relative_to(cwd):
        relative = absolute.relative_to(cwd).as_posix()
        return "" if relative == "." else relative
    return ""


def _merged(results: list):
    """One scan.ScanResult from several, with every path as reports show it."""
    from releasekb.check.scan import ScanResult

    def shown(prefix: str, path: str) -> str:
        return posixpath.join(prefix, path) if prefix else path

    def each_shown(errors: str) -> list:
        return [dataclasses.replace(e, path=shown(prefix, e.path)) for prefix, r in results for e in getattr(r, errors)]

    return ScanResult(
        uses=[dataclasses.replace(use, path=shown(prefix, use.path)) for prefix, r in results for use in r.uses],
        errors=each_shown("errors"),
        files_scanned=sum(r.files_scanned for _, r in results),
        files_skipped=sum(r.files_skipped for _, r in results),
        not_regular=each_shown("not_regular"),
        read_otherwise=each_shown("read_otherwise"),
    )
