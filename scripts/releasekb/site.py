"""Stage 5, site: write the rendered pages into the docs tree and build with MkDocs.

Pages are real files under docs/<lang>/ (mkdocs-static-i18n rebuilds its File objects
from disk, so in-memory generated files do not survive it). Only the paths listed in
GENERATED_PATHS are ours: .gitignore lists the same paths, a test checks they agree, and
files there that no longer correspond to data are removed. Files are rewritten only when
their text changes, so `mkdocs serve` does not rebuild in a loop.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import tempfile
from pathlib import Path

from releasekb.catalog import Catalog, build_catalog
from releasekb.i18n import LANGUAGES
from releasekb.problems import DataError
from releasekb.render import render_all
from releasekb.validate import ValidatedData, load_data, release_paths

# Inside each docs/<lang>/ tree: what the generator owns.
GENERATED_PATHS = ("index.md", "releases", "features", "stability", "changelog")


def generated_roots(docs_dir: Path) -> list[Path]:
    return [docs_dir / lang / path for lang in LANGUAGES for path in GENERATED_PATHS]


def write_pages(pages: dict[str, str], docs_dir: Path) -> list[str]:
    """Write pages (paths relative to docs_dir); delete generated files not among them.
    Returns the paths that changed."""
    changed = []
    wanted = {(docs_dir / path).resolve() for path in pages}
    for root in generated_roots(docs_dir):
        files = [root] if root.is_file() else list(root.rglob("*")) if root.is_dir() else []
        for stale in (f for f in files if f.is_file() and f.resolve() not in wanted):
            stale.unlink()
            changed.append(str(stale.relative_to(docs_dir)))
    for path, text in pages.items():
        target = docs_dir / path
        if target.is_file() and target.read_text(encoding="utf-8") == text:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        changed.append(path)
    return changed


def data_fingerprint(data_dir: Path) -> str:
    """Changes whenever any data file changes: lets the second i18n pass skip regeneration."""
    digest = hashlib.sha256()
    for path in [data_dir / "project.yaml", *release_paths(data_dir)]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()


def generate(data: ValidatedData, docs_dir: Path, site_url: str = "") -> Catalog:
    """Build the catalog from validated data and write every page of every language."""
    catalog = build_catalog(data)
    write_pages(render_all(catalog, site_url), docs_dir)
    return catalog


def build_site(config_file: str, site_dir: Path, data_dir: Path) -> bool:
    """Build the whole site into a temporary folder and swap it into site_dir only on success,
    so a failed build (bad data, a strict-mode warning) leaves the previous site untouched."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, PluginError

    try:
        load_data(data_dir)  # report data problems exactly as `releasekb validate` does
    except DataError as error:
        print(error.report(), file=sys.stderr)
        return False
    site_dir = site_dir.resolve()
    staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}-", dir=site_dir.parent))
    try:
        config = load_config(config_file, site_dir=str(staging), strict=True)
        build(config)
    except (Abort, PluginError, SystemExit) as error:
        print(f"build failed: {error}; {site_dir} was left as it was", file=sys.stderr)
        shutil.rmtree(staging, ignore_errors=True)
        return False
    previous = site_dir.with_name(f".{site_dir.name}-previous")
    shutil.rmtree(previous, ignore_errors=True)
    if site_dir.exists():
        site_dir.rename(previous)
    staging.rename(site_dir)
    shutil.rmtree(previous, ignore_errors=True)
    print(f"site built in {site_dir}")
    return True
