"""The `releasekb` command: validate, translations, schema, build, serve, bench, contract, new.

Exit status: 0 success, 1 invalid data (or a failed build), 2 wrong usage.
Data problems are printed one per line as `file:line:col: where: message`, never as a traceback.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from releasekb.common.atomic import WriteFailed
from releasekb.common.i18n import DEFAULT_LANGUAGE, LANGUAGES
from releasekb.common.problems import FORMATS, DataError
from releasekb.site.engine import AUTO, ENGINES, EngineError, select

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)  # argparse exits with 2 on wrong usage
    # `check --index` reads a published index: it needs no data folder (a user's own repository)
    if not args.data.is_dir() and not getattr(args, "index", None) and args.run is not _init:
        parser.error(
            f"data folder not found: {args.data} (run from the project root, pass --data, "
            "or start a knowledge base with `releasekb init --product NAME`)"
        )
    try:
        if hasattr(args, "engine"):
            args.engine = select(args.engine)
        return args.run(args)
    except EngineError as error:
        parser.error(str(error))
    except DataError as error:
        print(error.report(), file=sys.stderr)
        return EXIT_INVALID
    except WriteFailed as error:  # a full disk, a read-only folder: the old file is intact
        print(f"releasekb {args.command}: {error}", file=sys.stderr)
        return EXIT_USAGE


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="releasekb",
        description="Release-notes knowledge base: validate curated YAML and build the bilingual site.",
    )
    data_help = "folder with project.yaml and <version>.yaml files (default: releases)"
    parser.add_argument("--data", type=Path, default=Path("releases"), help=data_help)
    # --data is accepted after the command too (`releasekb validate --data docs/releases`), so
    # that tools appending arguments, such as pre-commit's `args:`, can set it.
    data_after = argparse.ArgumentParser(add_help=False)
    data_after.add_argument("--data", type=Path, default=argparse.SUPPRESS, help=data_help)
    commands = parser.add_subparsers(title="commands", dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=help, parents=[data_after])

    init = commands.add_parser("init", help="start a knowledge base for your product in a new or empty folder")
    init.add_argument("folder", nargs="?", type=Path, default=Path("."), help="where (default: this folder)")
    init.add_argument("--product", required=True, help="the product's name, as titles show it (e.g. 'Acme DB')")
    init.add_argument("--release", default="1.0", help="the version of the first release file (default: 1.0)")
    init.set_defaults(run=_init)

    validate = command("validate", "check every release file and report all problems")
    validate.add_argument(
        "--strict", action="store_true", help="exit 1 on warnings too (translations that may be out of date)"
    )
    validate.add_argument(
        "--format",
        choices=FORMATS,
        help="text (default), github (workflow annotations; the default when GITHUB_ACTIONS=true) or json",
    )
    validate.set_defaults(run=_validate)

    translations = command("translations", "list translations that may be out of date, or mark translations reviewed")
    translations.add_argument(
        "--reviewed",
        nargs="*",
        metavar="TARGET",
        help="mark as reviewed: a release file (releases/1.7.yaml), a version (1.7), an entry id "
        "(torch-fft, in every release), 1.7:torch-fft, or one text (1.7:torch-fft.summary)",
    )
    translations.add_argument("--all", action="store_true", help="with --reviewed: mark every text reviewed")
    translations.set_defaults(run=_translations)

    schema = command("schema", "write the JSON Schemas editors use (or --check them)")
    schema.add_argument("--check", action="store_true", help="fail if the written schemas are out of date")
    schema.set_defaults(run=_schema)

    build = command("build", "validate, then build the site into site/ (replaced only on success)")
    build.add_argument("--config", default="mkdocs.yml", help="MkDocs configuration (default: mkdocs.yml)")
    build.add_argument("--site-dir", type=Path, default=Path("site"), help="output folder (default: site)")
    build.add_argument(
        "--engine",
        choices=(AUTO, *ENGINES),
        default=AUTO,
        help="MkDocs or ProperDocs (default: auto, MkDocs when installed, else ProperDocs)",
    )
    build.set_defaults(run=_build)

    serve = command("serve", "build and serve the site, rebuilding when data or docs change")
    serve.add_argument("--config", default="mkdocs.yml", help="MkDocs configuration (default: mkdocs.yml)")
    serve.add_argument("--dev-addr", default="127.0.0.1:8000", help="address to serve on (default: 127.0.0.1:8000)")
    serve.add_argument(
        "--engine",
        choices=(AUTO, *ENGINES),
        default=AUTO,
        help="MkDocs or ProperDocs (default: auto, MkDocs when installed, else ProperDocs)",
    )
    serve.set_defaults(run=_serve)

    from releasekb.bench import measure

    bench_command = command(
        "bench", "measure build, serve and search on synthetic data of several sizes, against plain MkDocs"
    )
    bench_command.description = measure.__doc__.split("\n\n")[0]
    measure.add_arguments(bench_command)
    bench_command.set_defaults(run=measure.main)

    query = command("query", "list the features that match, from the YAML alone (exit 1 when none match)")
    query.add_argument(
        "--stability", default="", metavar="LEVEL", help="at this level as of --as-of (the latest level stated by then)"
    )
    query.add_argument(
        "--as-of",
        default="",
        metavar="VERSION",
        help="read levels as of this release (default: --release when given, else the latest release)",
    )
    query.add_argument("--release", default="", metavar="VERSION", help="mentioned in this release (e.g. 1.7)")
    query.add_argument("--area", default="", help="in this area (a key of project.yaml's areas)")
    query.add_argument("--text", default="", help="words in the id, API names, titles or summaries")
    query.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="language of texts and --text")
    query.add_argument("--format", choices=("table", "json"), default="table", help="table (default) or json")
    query.add_argument(
        "--site-url", default="", help="make the JSON's page addresses absolute (as on a site built with that URL)"
    )
    query.set_defaults(run=_query)

    contract = command("contract", "print the URL contract: every address other sites may link to")
    contract_target = contract.add_mutually_exclusive_group()
    contract_target.add_argument(
        "--check",
        type=Path,
        metavar="FILE",
        help="compare with a committed list: exit 1 when an address there no longer resolves or a new one is missing",
    )
    contract_target.add_argument(
        "--append", type=Path, metavar="FILE", help="add the addresses the data now generates to FILE (never removes)"
    )
    contract.set_defaults(run=_contract)

    new = command("new", "start a new release file from a commented skeleton")
    new.add_argument("version", help="the release's version, e.g. 1.8")
    new.set_defaults(run=_new)

    from releasekb.check.findings import CONFIDENCES, DEFAULT_FAIL_ON, FAIL_ON_CHOICES
    from releasekb.check.output import FORMATS as CHECK_FORMATS

    check = command("check", "what upgrading your code from one release to another breaks, deprecates or needs")
    check.description = (
        "Find the APIs of the knowledge base that Python files and notebooks use, and report what an\n"
        "upgrade from --from to --to means for them: removed, breaking and deprecated APIs (already in\n"
        "effect at --from, or new on the way), APIs newer than --to, APIs less stable than\n"
        "--max-stability, and the lowest release the code runs on, with migration advice."
    )
    check.formatter_class = argparse.RawDescriptionHelpFormatter
    check.epilog = (
        "exit status:\n  0  no finding of a --fail-on kind (guarded, suppressed and baseline uses never count, nor a\n"
        "     change already in effect at --from: the code runs there already)\n"
        "  1  findings of a --fail-on kind\n  2  wrong usage (a version that cannot be parsed, --from newer than\n"
        "     --to...) or a knowledge base that cannot be read or declares no code roots; an --index that\n"
        "     cannot be fetched in time, is too large or is not a valid API index: `index SOURCE: what is wrong`\n\n"
        "Any version works: one between releases means the latest release described before it, one after\n"
        "the last means up to the last release described, one before the first means before anything\n"
        "described.\n\n"
        "Silence one use with a comment on its line: `# releasekb: ignore[ENTRY-ID]` (or `# releasekb: ignore`).\n"
        "Defaults for --from, --to, --exclude, --fail-on, --max-stability and --baseline: [tool.releasekb.check]\n"
        "in the project's pyproject.toml (see CHECK.md)."
    )
    check.add_argument("paths", nargs="+", metavar="PATH", help="files and folders to check")
    check.add_argument(
        "--from", dest="old", metavar="A", help="the version the code runs on now (default: the oldest release)"
    )
    check.add_argument("--to", dest="new", metavar="B", help="the version to upgrade to (default: the latest release)")
    check.add_argument(
        "--max-stability", metavar="LEVEL", help="report used APIs ranked below this level (default: the most stable)"
    )
    check.add_argument("--format", choices=CHECK_FORMATS, help="text (default; github when GITHUB_ACTIONS=true)")
    check.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="language of the report")
    check.add_argument(
        "--fail-on",
        metavar="KINDS",
        help=f"comma-separated kinds that exit 1, or none: {','.join(FAIL_ON_CHOICES)} "
        f"(default: {','.join(DEFAULT_FAIL_ON)})",
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
    _check_linter_options(check)
    check.set_defaults(run=_check)
    return parser


def _check_linter_options(check: argparse.ArgumentParser) -> None:
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
        help="where to keep the cache (default: .releasekb_cache in the project)",
    )
    check.add_argument("--no-cache", action="store_true", help="scan every file, and keep nothing")
    check.add_argument("--stats", action="store_true", help="say how many files were scanned and taken from the cache")


def _init(args) -> int:
    from releasekb.kb.starter import InitError, init

    try:
        written = init(args.folder, args.product, args.release)
    except InitError as error:
        print(f"releasekb init: {error}; nothing was written", file=sys.stderr)
        return EXIT_INVALID
    for path in written:
        print(f"created {path}")
    where = "" if args.folder.resolve() == Path.cwd().resolve() else f"cd {args.folder} && "
    print(
        f"\nNext: {where}releasekb serve, then open http://127.0.0.1:8000/. Replace the entries marked "
        f"`example: true` in releases/{args.release}.yaml (`releasekb validate` lists them)."
    )
    return EXIT_OK


def _validate(args) -> int:
    from releasekb.common.problems import github_annotation, json_report
    from releasekb.kb import rules
    from releasekb.kb.pipeline import load_knowledge_base
    from releasekb.kb.translations import stale_warnings, unrecorded_count

    output = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    stale: list = []
    try:
        data, catalog = (knowledge_base := load_knowledge_base(args.data)).data, knowledge_base.catalog
    except DataError as error:
        problems, summary = error.problems, None
    else:
        stale = stale_warnings(data)
        problems = sorted([*rules.warnings(data), *stale])
        summary = f"{args.data}: {len(catalog.releases)} releases, {len(catalog.features)} features and changes"
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    if output == "json":
        print(json_report(problems))
    elif output == "github":
        for problem in problems:
            print(github_annotation(problem))
    if output != "json":
        if errors:
            print(DataError(errors).report(), file=sys.stderr)
        if output == "text":
            for warning in warnings:
                print(warning, file=sys.stderr)
        if summary:
            _print_validate_summary(summary, len(stale), len(warnings) - len(stale), unrecorded_count(data))
    return EXIT_INVALID if errors or (args.strict and warnings) else EXIT_OK


def _print_validate_summary(summary: str, stale: int, other: int, unrecorded: int) -> None:
    said = []
    if stale:
        said.append(
            f"{stale} translation{'s' if stale != 1 else ''} may be out of date (`releasekb translations` lists them)"
        )
    if other:
        said.append(f"{other} {'other ' if stale else ''}warning{'s' if other != 1 else ''}")
    if said:
        print(f"{summary}, no errors; {'; '.join(said)} (warnings above).")
    else:
        print(f"{summary}, no problems.")
    if unrecorded:
        print(
            f"note: {unrecorded} translated text{'s have' if unrecorded != 1 else ' has'} no review record yet; "
            "they count as reviewed and are recorded by `releasekb translations --reviewed <release file>`."
        )


def _translations(args) -> int:
    from releasekb.kb.translations import UnknownTarget, mark_reviewed, stale_warnings, unrecorded_count
    from releasekb.kb.validate import load_data

    if args.reviewed is None:
        if args.all:
            print("releasekb translations: --all goes with --reviewed (`--reviewed --all`)", file=sys.stderr)
            return EXIT_USAGE
        data = load_data(args.data)
        warnings = stale_warnings(data)
        for warning in warnings:
            print(warning)
        stale = f"{len(warnings)} translation{'s' if len(warnings) != 1 else ''} may be out of date"
        print(f"{stale}; {unrecorded_count(data)} not recorded yet (new texts, counted as reviewed).")
        return EXIT_OK
    if bool(args.reviewed) == args.all:
        print("releasekb translations --reviewed: name what to mark (a file, version or id), or --all", file=sys.stderr)
        return EXIT_USAGE
    data = load_data(args.data)
    try:
        path, count = mark_reviewed(data, args.data, None if args.all else args.reviewed)
    except UnknownTarget as error:
        print(
            f"releasekb translations: '{error}' names no release file, version, entry id or text "
            "(like releases/1.7.yaml, 1.7, torch-fft, 1.7:torch-fft or 1.7:torch-fft.summary)",
            file=sys.stderr,
        )
        return EXIT_INVALID
    print(f"marked {count} text{'s' if count != 1 else ''} reviewed in {path}")
    return EXIT_OK


def _schema(args) -> int:
    from releasekb.kb.schema import write_schemas

    stale = write_schemas(args.data, check=args.check)
    if args.check and stale:
        for path in stale:
            print(f"{path}: out of date; run `releasekb schema` to regenerate it", file=sys.stderr)
        return EXIT_INVALID
    return EXIT_OK


def _contract(args) -> int:
    """Print the URL contract; --check compares it with a committed list, --append adds what the
    data now generates to that list. The list only grows: an address once published must keep
    resolving, so a committed address the data no longer generates is an error, never dropped."""
    from releasekb.kb.pipeline import load_catalog
    from releasekb.site.contract import HEADER, contract_addresses, write_list

    generated = contract_addresses(load_catalog(args.data))
    committed_file = args.check or args.append
    if committed_file is None:
        print(HEADER + "".join(address + "\n" for address in generated), end="")
        return EXIT_OK
    committed = _committed_addresses(committed_file, create=args.append is not None)
    if committed is None:
        return EXIT_USAGE
    lost = sorted(set(committed) - set(generated))
    new = sorted(set(generated) - set(committed))
    for address in lost:
        print(
            f"{committed_file}: {address}: published, but the data no longer generates it; keep it: give the "
            "entry `former_anchors: [<old id>]`, the feature `aliases: [<old id>]`, or add the page to "
            "`redirects:` in project.yaml",
            file=sys.stderr,
        )
    if args.append:
        write_list(committed_file, sorted({*committed, *generated}))
        print(f"{committed_file}: {len(new)} address{'es' if len(new) != 1 else ''} appended")
    else:
        for address in new:
            print(f"{committed_file}: {address}: not in the list yet", file=sys.stderr)
        if new:
            print(f"append them with `releasekb contract --append {committed_file}`", file=sys.stderr)
    return EXIT_INVALID if lost or (new and not args.append) else EXIT_OK


def _committed_addresses(path: Path, create: bool) -> list[str] | None:
    """The addresses of a committed contract list; [] for a missing one that --append is to create
    (`--check` needs it to exist). None, the reason printed, when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if create:
            return []
        print(f"{path}: no such file; start the list with `releasekb contract --append {path}`", file=sys.stderr)
        return None
    except OSError as error:
        print(f"{path}: cannot read it ({error.strerror})", file=sys.stderr)
        return None
    return [line for line in text.splitlines() if line.startswith("/")]


def _query(args) -> int:
    from releasekb.kb.pipeline import load_catalog
    from releasekb.kb.query import Query, print_json, print_table, run, unknown_values

    catalog = load_catalog(args.data)
    query = Query(args.stability, args.release, args.area, args.text, args.lang, args.as_of)
    problems = unknown_values(catalog, query)
    if problems:
        for problem in problems:
            print(f"releasekb query: {problem}", file=sys.stderr)
        return EXIT_USAGE
    features = run(catalog, query)
    if not features:
        print("releasekb query: no feature matches", file=sys.stderr)
        return EXIT_INVALID
    try:
        if args.format == "json":
            print_json(catalog, features, args.site_url)
        else:
            print_table(features, args.lang, query.as_of_release(catalog))
    except BrokenPipeError:  # `releasekb query | head`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_OK


def _build(args) -> int:
    from releasekb.site.build import build_site

    _show_mkdocs_log(args.engine)
    return EXIT_OK if build_site(args.config, args.site_dir) else EXIT_INVALID


def _show_mkdocs_log(engine: str) -> None:
    """MkDocs logs progress ("Serving on ...", rebuilds, warnings) through `logging`; its own
    CLI sets up the handler, which we do not run, so set up the same here (on the engine's
    logger: "mkdocs" or "properdocs")."""
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-8s-  %(message)s"))
    logger = logging.getLogger(engine)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def _serve(args) -> int:
    from releasekb.kb.pipeline import load_knowledge_base
    from releasekb.serve.server import serve_site

    load_knowledge_base(args.data)  # fail fast with the same messages as `validate`

    _show_mkdocs_log(args.engine)
    serve_site(args.config, args.dev_addr)
    return EXIT_OK


def _new(args) -> int:
    from releasekb.kb.skeleton import NewReleaseError, write_skeleton

    try:
        path = write_skeleton(args.data, args.version)
    except NewReleaseError as error:
        print(f"releasekb new: {error}; nothing was written", file=sys.stderr)
        return EXIT_USAGE if error.usage else EXIT_INVALID
    print(f"created {path}: replace every TODO (`releasekb validate` lists those left), then validate")
    return EXIT_OK


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


def _check(args) -> int:
    from releasekb.check.baseline import read_baseline
    from releasekb.check.config import apply_config, project_config
    from releasekb.check.findings import CheckUsage, open_index, resolve_options
    from releasekb.check.index_source import IndexUnreadable
    from releasekb.check.links import make_absolute
    from releasekb.common.safe_text import visible

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
            index, args.old, args.new, args.max_stability, args.fail_on, args.lang, only=args.only
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
    from releasekb.check.findings import run_check
    from releasekb.check.output import write

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
    from releasekb.check.output import location

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


if __name__ == "__main__":
    sys.exit(main())
