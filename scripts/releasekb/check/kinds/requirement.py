"""requirement: the project declares a requirement on the product (torch>=1.4) that allows
releases before the one its code needs (it uses `torch.fft.fft`, from 1.7), reported at the
declaration's file and line. check/requirement.py reads the declarations from the packaging files;
this module compares them with what the code needs (min_release.later_requirement).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from releasekb.check.kinds import BY_NAME
from releasekb.check.records import ApiRecord
from releasekb.check.report import STRINGS, Finding, Report, finding_order, place_text

if TYPE_CHECKING:
    from releasekb.check.index import ApiIndex
    from releasekb.check.options import Options

KIND = "requirement"


def product_distribution(index: ApiIndex) -> str | None:
    """The distribution whose versions the knowledge base's releases are: its first Python code
    root (torch). The other roots (torchvision, torchaudio) are released with versions of their
    own, which the knowledge base's releases do not number."""
    python_roots = index.code_roots.get("python") or []
    return python_roots[0] if python_roots else None


def needing(root: str | None, use, records: list[ApiRecord]) -> list[ApiRecord]:
    """The records of a reference that tell which release of `root` the code needs: names under
    the root, used unguarded (a guarded use runs only where the API exists)."""
    if root is None or use.guarded:
        return []
    return [record for record in records if record.name == root or record.name.startswith(root + ".")]


def check_declared_requirement(options: Options, report: Report, paths: list[str]) -> None:
    """Read what the checked project declares on the product (requirement.py) into the report,
    with a `requirement` finding for each declaration that allows releases before the one the
    code needs, and the packaging files that could not be read among the report's errors."""
    from releasekb.check import requirement
    from releasekb.check.scan import FileError

    if report.distribution is None:
        return
    cwd = Path.cwd().resolve()
    found, unreadable, computed = requirement.declared(requirement.project_folders(paths, cwd), report.distribution)
    report.declared_not_readable = [
        {"field": c.field, "path": _shown_file(c.file, paths, cwd), "line": c.line} for c in computed
    ]
    for declared in found:
        where = _shown_file(declared.file, paths, cwd)
        report.declared.append({"requirement": declared.text, "path": where, "line": declared.line})
        if report.needed and requirement.allows_before(declared.specifier, report.needed[2].introduced_in):
            finding = _finding(options, report, declared.text, where, declared.line)
            if not options.only or finding.entry in options.only:
                report.findings.append(finding)
    report.errors += [FileError(_shown_file(u.file, paths, cwd), u.line, u.reason) for u in unreadable]
    report.errors.sort(key=lambda error: (error.path, error.line))
    report.findings.sort(key=finding_order)


def _shown_file(file: Path, paths: list[str], cwd: Path) -> str:
    """A packaging file as reports name it: like the scanned files (relative to the current
    directory when below it, else to the scanned folder it belongs to)."""
    if file.is_relative_to(cwd):
        return file.relative_to(cwd).as_posix()
    for path in paths:
        folder = Path(path).resolve()
        folder = folder if folder.is_dir() else folder.parent
        if file.is_relative_to(folder):
            return file.relative_to(folder).as_posix()
    return file.as_posix()


def _finding(options: Options, report: Report, declared: str, path: str, line: int) -> Finding:
    """A declaration that allows releases before the one the code needs, cited by the entry that
    introduced the deciding API."""
    _, use, record = report.needed
    values = {"declared": declared, "release": record.introduced_in, "api": record.name}
    message, migration = {}, {}
    for lang in options.languages:
        strings = STRINGS[lang]
        where = place_text(lang, use.path, use.line, use.column, use.cell)
        message[lang] = strings[BY_NAME[KIND].message_key].format(**values, location=where)
        migration[lang] = strings["requirement_migration"].format(**values, distribution=report.distribution)
    return Finding.cite(
        KIND,
        record,
        record.introducing_entry(),
        use,
        path=path,
        line=line,
        column=0,
        cell=None,
        guarded=False,
        in_effect_at_from=False,
        message=message,
        migration=migration,
        replacement=None,
        replacement_drop_in=None,
    )
