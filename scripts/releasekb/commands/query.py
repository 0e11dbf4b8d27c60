"""`releasekb query`: list the features that match, from the YAML alone."""

from __future__ import annotations

import os
import sys

from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE

NAME = "query"


def add_arguments(subparsers, shared) -> None:
    query = subparsers.add_parser(
        NAME, help="list the features that match, from the YAML alone (exit 1 when none match)", parents=shared
    )
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
    query.add_argument(
        "--lang",
        help="language of texts and --text: one of the knowledge base's (default: its first, project.yaml `languages`)",
    )
    query.add_argument("--format", choices=("table", "json"), default="table", help="table (default) or json")
    query.add_argument(
        "--site-url", default="", help="make the JSON's page addresses absolute (as on a site built with that URL)"
    )


def run(args) -> int:
    from releasekb.common.safe_text import visible
    from releasekb.kb.pipeline import load_catalog
    from releasekb.kb.query import Query, print_json, print_table, unknown_values
    from releasekb.kb.query import run as matching

    catalog = load_catalog(args.data)
    if args.lang is not None and args.lang not in catalog.languages:
        print(
            f"releasekb query: --lang {visible(args.lang)}: not a language of the knowledge base "
            f"(one of: {', '.join(catalog.languages)})",
            file=sys.stderr,
        )
        return EXIT_USAGE
    lang = args.lang or catalog.default_language
    query = Query(args.stability, args.release, args.area, args.text, lang, args.as_of)
    problems = unknown_values(catalog, query)
    if problems:
        for problem in problems:
            print(f"releasekb query: {problem}", file=sys.stderr)
        return EXIT_USAGE
    features = matching(catalog, query)
    if not features:
        print("releasekb query: no feature matches", file=sys.stderr)
        return EXIT_INVALID
    try:
        if args.format == "json":
            print_json(catalog, features, args.site_url)
        else:
            print_table(features, lang, query.as_of_release(catalog))
    except BrokenPipeError:  # `releasekb query | head`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_OK
