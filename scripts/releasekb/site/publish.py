"""Machine-readable outputs other sites and tools link to, written beside each language's pages.

`outputs(catalog, lang, site_url)` returns {path inside that language's site: bytes}, from every
output of the registry (outputs/: the JSON API, the badges, the intersphinx inventory, the Atom
feed, one module each); the MkDocs hook writes them after each language's build (so `build` and
`serve` both have them). Everything is deterministic: the same data gives the same bytes. Every
output is well-formed for any text: `validate` refuses control characters, and the writers
neutralise them anyway (a badge shows them as visible escapes, an inventory line holds no line
break); a writer that still refuses a text stops the build with an OutputError that names the
output and the text.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from releasekb.kb.catalog import Catalog
from releasekb.site.outputs import OUTPUTS
from releasekb.site.outputs.output import OutputError, go_on


def outputs(
    catalog: Catalog, lang: str, site_url: str, *, section: bool = False, give_way: Callable[[], None] = go_on
) -> dict[str, bytes]:
    """section: the knowledge base is one language's section of another site (the plugin's
    `path`). Its pages exist in that language only, so what states the addresses of every
    language's pages (the JSON API, the feed of another language than the default) is left out
    (each output's `wanted`). give_way: called between steps (a job's, under `serve`:
    afterwards.Jobs.give_way). Raises OutputError."""
    files: dict[str, bytes] = {}
    for output in OUTPUTS:
        if output.wanted(catalog, lang, section):
            files.update(_made(output.describe(lang), output.files, catalog, lang, site_url, give_way))
            give_way()  # under `serve`, made after the page: a rebuild goes first
    return files


def output_paths(catalog: Catalog, lang: str, site_url: str, *, section: bool = False) -> set[str]:
    """The paths `outputs` writes, without making them: the addresses a site's own files must
    leave free."""
    return {
        path
        for output in OUTPUTS
        if output.wanted(catalog, lang, section)
        for path in output.paths(catalog, lang, site_url)
    }


def _made(what: str, make: Callable, *args):
    """What `make(*args)` returns. A writer's ValueError (a text its format cannot carry, as
    lxml's "All strings must be XML compatible") becomes an OutputError naming the output."""
    try:
        return make(*args)
    except ValueError as error:  # UnicodeEncodeError included
        raise OutputError(f"{what} cannot be written from the data: {error}") from None


def write_outputs(
    catalog: Catalog,
    lang: str,
    site_url: str,
    site_dir: Path,
    *,
    whole: bool = False,
    section: bool = False,
    give_way: Callable[[], None] = go_on,
) -> None:
    """Write the outputs of one language into its site, only those whose bytes changed. whole:
    each as a new file renamed over the old (`serve` may be serving it; a build's folder is not
    served until it is complete, and is spared the extra renames)."""
    files = outputs(catalog, lang, site_url, section=section, give_way=give_way)
    for folder in {(site_dir / path).parent for path in files}:  # once each, not once per badge
        folder.mkdir(parents=True, exist_ok=True)
    for path, content in files.items():
        give_way()
        target = site_dir / path
        if target.is_file() and target.read_bytes() == content:
            continue  # unchanged: `serve` must not see a write
        if not whole:
            target.write_bytes(content)
            continue
        written = target.with_name(f".{target.name}.new")
        written.write_bytes(content)
        os.replace(written, target)
