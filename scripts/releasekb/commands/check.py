"""`releasekb check`: what upgrading code from one release to another breaks, deprecates or needs.

Its arguments and how they reach check/ (the scan, findings, outputs, fix, baseline and cache).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from releasekb.check import formats
from releasekb.check.kinds import DEFAULT_FAIL_ON, FAIL_ON_CHOICES
from releasekb.check.options import CONFIDENCES, SHOW_IN_EFFECT
from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from releasekb.common.problems import DataError

NAME = "check"


def add_arguments(subparsers, shared) -> None:
    check = subparsers.add_parser(
        NAME,
        help="what upgrading your code from one release to another breaks, deprecates or needs",
        parents=shared,
    )
    check.description = (
        "Find the APIs of the knowledge base that Python files and notebooks use, and report what an\n"
        "upgrade from --from to --to means for them: removed, breaking and deprecated APIs new on the\n"
        "way (those already in effect at --from with --show-in-effect), APIs newer than --to, APIs less\n"
        "stable than --max-stability, and the lowest release the code runs on, with migration advice.\n"
        "Every report ends with its coverage: the changes of the range it can find in code, those it\n"
        "cannot, and the releases the knowledge base does not describe."
    )
    check.formatter_class = argparse.RawDescriptionHelpFormatter
    check.epilog = (
        "exit status:\n  0  no finding of a --fail-on kind (guarded, suppressed and baseline uses never count, nor a\n"
        "     change already in effect at --from: the code runs there already)\n"
        "  1  findings of a --fail-on kind: the only errors in the sarif and github formats\n"
        "  2  wrong usage (a version that cannot be parsed, --from newer than\n"
        "     --to...) or a knowledge base that cannot be read or declares no code roots; an --index that\n"
        "     cannot be fetched in time, is too large or is not a valid API index: `index SOURCE: what is wrong`\n\n"
        "Any version works: one between releases means the latest release described before it, one after\n"
        "the last means up to the last release described, one before the first means before anything\n"
        "described.\n\n"
        "Silence one use with a comment on its line: `# releasekb: ignore[ENTRY-ID]` (or `# releasekb: ignore`).\n"
        "Defaults for --from, --to, --exclude, --fail-on, --max-stability, --show-in-effect and --baseline:\n"
        "[tool.releasekb.check]"
        " in the project's pyproject.toml (see CHECK.md)."
    )
    check.add_argument("paths", nargs="+", metavar="PATH", help="files and folders to check")
    check.add_argument(
        "--from", dest="old", metavar="A", help="the version the code runs on now (default: the oldest release)"
    )
    check.add_argument("--to", dest="new", metavar="B", help="the version to upgrade to (default: the latest release)")
    check.add_argument(
        "--max-stability", metavar="LEVEL", help="report used APIs ranked below this level (default: the most stable)"
    )
    check.add_argument(
        "--format", choices=list(formats.FORMATS), help="text (default; github when GITHUB_ACTIONS=true)"
    )
    check.add_argument(
        "--lang",
        help="language of the report: one of the knowledge base's (default: its first, project.yaml `languages`)",
    )
    check.add_argument(
        "--fail-on",
        metavar="KINDS",
        help=f"comma-separated kinds that exit 1, or none: {','.join(FAIL_ON_CHOICES)} "
        f"(default: {','.join(DEFAULT_FAIL_ON)})",
    )
    check.add_argument(
        SHOW_IN_EFFECT,
        action="store_true",
        default=None,  # None: not given, so that [tool.releasekb.check] may set it
        help="also list the changes already in effect at --from, apart: never counted, never failing the run",
    )
    check.add_argument(
        "--include", action="append", default=[], metavar="GLOB", help="also check matching files (C++: '*.cpp')"
    )
    check.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip matching files")
    check.add_argument(
        "--max-file-size",
        type=_file_size,
        default="5MB",
        metavar="SIZE",
        help="skip (and report) files larger than this: 5MB (the default), 500KB, or a number of bytes",
    )
    check.add_argument(
        "--only",
        metavar="IDS",
        help="comma-separated feature ids: report only their findings, and every use of their APIs (kind `used`)",
    )
    check.add_argument(
        "--confidence",
        choices=CONFIDENCES,
        default="medium",
        help="lowest confidence of a use to report (default: medium; low adds methods of unknown objects)",
    )
    check.add_argument(
        "--index", metavar="FILE_OR_URL", help="a published api/apis.json instead of the data folder (--data)"
    )
    check.add_argument(
        "--timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="with an http(s) --index: the most the whole download may take (default: 30)",
    )
    check.add_argument("--output", type=Path, metavar="FILE", help="write the report to FILE (stdout: the summary)")
    check.add_argument(
        "--site-url",
        default=os.environ.get("RELEASEKB_SITE_URL", ""),
        help="the knowledge base's address, for absolute links "
        "(default: $RELEASEKB_SITE_URL, else site_url in project.yaml, else where --index was fetched from)",
    )
    _linter_options(check)


def needs_data(args) -> bool:
    """`check --index` reads a published index: it needs no data folder (a user's own repository)."""
    return not args.index


def _linter_options(check: argparse.ArgumentParser) -> None:
    """What users of linters expect: fixes, a baseline, a cache (and [tool.releasekb.check] in
    pyproject.toml for the options above)."""
    check.add_argument(
        "--fix", action="store_true", help="rewrite the uses whose replacement is a drop-in (not in notebooks)"
    )
    check.add_argument("--baseline", type=Path, metavar="FILE", help="report only findings that FILE does not hold")
    check.add_argument(
        "--write-baseline", type=Path, metavar="FILE", help="write today's findings to FILE: they are accepted"
    )
    check.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help="where to keep the cache (default: .releasekb-cache in the project)",
    )
    check.add_argument("--no-cache", action="store_true", help="scan every file, and keep nothing")
    check.add_argument("--stats", action="store_true", help="say how many files were scanned and taken from the cache")


def _seconds(text: str) -> float:
    """--timeout's value: a positive number of seconds."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return seconds


_SIZE_UNITS = {"": 1, "B": 1, "KB": 1000, "MB": 1000**2, "GB": 1000**3}


def _file_size(text: str) -> int:
    """'5MB', '500 KB', '1048576' -> bytes (1 KB is 1,000 bytes, as in the data files' limit)."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?B?)\s*", text, re.IGNORECASE)
    if match is None or match.group(2).upper() not in _SIZE_UNITS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: write it as 5MB, 500KB or a number of bytes")
    return int(match.group(1)) * _SIZE_UNITS[match.group(2).upper()]


def run(args) -> int:
    from releasekb.check.baseline import read_baseline
    from releasekb.check.config import apply_config, project_config
    from releasekb.check.index import open_index
    from releasekb.check.index_source import IndexUnreadable
    from releasekb.check.links import make_absolute
    from releasekb.check.options import CheckUsage, resolve_options
    from releasekb.common.atomic import check_target
    from releasekb.common.safe_text import visible

    for written in (args.output, args.write_baseline):
        if written is not None:
            check_target(written)  # a pipe, a device or a link is refused before the scan (WriteFailed)
    missing = [path for path in args.paths if not os.path.exists(path)]
    origin = ""  # where options that turn out to be wrong were set, when not on the command line
    try:
        if missing:
            raise CheckUsage(f"no such file or folder: {', '.join(missing)}")
        project = project_config(args.paths)
        origin = apply_config(args, project)  # the command line wins: only the options it left out
        if project.warning:
            print(f"releasekb check: {visible(project.warning)}", file=sys.stderr)
        index = open_index(args.index, args.data, args.site_url, timeout=args.timeout)
        make_absolute(index, args.site_url)
        options = resolve_options(
            index,
            args.old,
            args.new,
            args.max_stability,
            args.fail_on,
            args.lang,
            only=args.only,
            show_in_effect=bool(args.show_in_effect),
        )
        baseline = read_baseline(args.baseline) if args.baseline and not args.write_baseline else None
    except (CheckUsage, IndexUnreadable) as error:  # may quote the index: one safe line
        where = origin if isinstance(error, CheckUsage) else ""
        print(f"releasekb check: {visible(error)}{visible(where)}", file=sys.stderr)
        return EXIT_USAGE
    except DataError as error:  # the knowledge base, not the user's code: wrong usage of check
        print(error.report(), file=sys.stderr)
        print(f"releasekb check: the knowledge base in {args.data} is invalid (see above)", file=sys.stderr)
        return EXIT_USAGE
    return _run_check(args, index, options, project, baseline)


def _run_check(args, index, options, project, baseline: set | None) -> int:
    """Scan (through the cache), fix, accept the baseline's findings, report."""
    from releasekb.check.baseline import accept
    from releasekb.check.cache import FOLDER, ScanCache, stats_line
    from releasekb.check.formats import write
    from releasekb.check.run import run_check

    cache = None if args.no_cache else ScanCache(args.cache_dir or project.root / FOLDER)

    def checked():
        report = run_check(
            index,
            options,
            args.paths,
            include=args.include,
            exclude=args.exclude,
            confidence=args.confidence,
            max_file_size=args.max_file_size,
            cache=cache,
        )
        if baseline:
            accept(report, baseline, args.baseline)
        return report

    report = checked()
    if args.fix:
        report = _fix(report, checked)
    if args.write_baseline:
        _write_baseline(report, args.write_baseline)
    output_format = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    write(report, output_format, args.output, sys.stdout)
    problem = cache.save() if cache else None
    if problem:
        print(f"releasekb check: the cache was not written ({problem}); the next run scans again", file=sys.stderr)
    if args.stats:
        print(stats_line(cache, options.lang, report.files_checked), file=sys.stderr)
    return EXIT_INVALID if report.failed() else EXIT_OK


def _fix(report, checked):
    """Rewrite the drop-in replacements, say what was done, and check again: what is left, at
    the places it is now."""
    from releasekb.check import fix as check_fix
    from releasekb.check.formats.shared import location

    result = check_fix.apply_fixes(report)
    lines = check_fix.summary(result, report.options.lang, lambda f: location(report, f.path, f.line, f.column, f.cell))
    print("\n".join(lines), file=sys.stderr)
    return checked() if result.fixed else report


def _write_baseline(report, file: Path) -> None:
    """Write the report's findings to the baseline file, and accept them in this run too."""
    from releasekb.check.baseline import accept, write_baseline, written_line

    accepted = write_baseline(report, file)
    accept(report, accepted, file)
    print(written_line(len(accepted), file, report.options.lang), file=sys.stderr)
