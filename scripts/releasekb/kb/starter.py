"""`releasekb init`: a new knowledge base for another product, from the package's starter files.

starter/ holds what a team's repository starts with: project.yaml (every key commented), a
first release whose entries are marked `example: true`, the two site configurations (using the
plugin; no theme file is copied: the theme comes with the package), hand-written about pages in
each language, a .gitignore, a deploy workflow, a pre-commit configuration and the requirement
the workflow installs. Files whose names start with `dot-` are written as dotfiles (a package's
data keeps them visible). `init` never overwrites a file.

The examples are the one thing `init` leaves for the team to replace: `validate` warns about
each one left (rules.examples_are_replaced).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from releasekb.common import atomic
from releasekb.common.cache_folder import CACHE_FOLDER

STARTER_DIR = Path(__file__).parent / "starter"
RELEASE_TEMPLATE = "releases/RELEASE.yaml"
# A product name goes into YAML strings, Markdown and titles as it is: printable, no quotes.
_PRODUCT_NAME = re.compile(r"[^\x00-\x1f\x7f\"\\<>`]{1,60}")


class InitError(Exception):
    pass


def module_name(product: str) -> str:
    """A Python package name for the examples' API names: 'Acme DB' -> 'acme_db'."""
    name = re.sub(r"[^0-9a-z]+", "_", product.lower()).strip("_") or "product"
    return name if name[0].isalpha() else f"p_{name}"


def requirement() -> str:
    """What the deploy workflow installs: this very version of releasekb."""
    try:
        return f"releasekb=={version('releasekb')}"
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "releasekb"


def starter_files(product: str, release: str, today: datetime.date) -> dict[str, str]:
    """{path inside the new knowledge base: text} for a product and its first release."""
    product = product.strip()
    if not _PRODUCT_NAME.fullmatch(product):
        raise InitError(f"--product '{product}': use up to 60 printable characters, without quotes, \\, <, > or `")
    if not re.fullmatch(r"\d+(\.\d+)*", release):
        raise InitError(f"--release '{release}': a version such as 1.0")
    values = {
        "__PRODUCT_YAML__": json.dumps(product, ensure_ascii=False),
        "__SITE_NAME_EN_YAML__": json.dumps(f"{product} release notes", ensure_ascii=False),
        "__SITE_NAME_ZH_YAML__": json.dumps(f"{product} 版本说明", ensure_ascii=False),
        "__SITE_NAME_EN__": json.dumps(f"{product} release notes", ensure_ascii=False),
        "__SITE_NAME_ZH__": json.dumps(f"{product} 版本说明", ensure_ascii=False),
        "__PRODUCT__": product,
        "__MODULE__": module_name(product),
        "__VERSION__": release,
        "__DATE__": today.isoformat(),
        "__REQUIREMENT__": requirement(),
        "__CACHE_FOLDER__": CACHE_FOLDER,
    }
    files = {}
    for source in sorted(STARTER_DIR.rglob("*")):
        if not source.is_file() or "__pycache__" in source.parts:
            continue
        relative = source.relative_to(STARTER_DIR).as_posix()
        target = relative.replace(RELEASE_TEMPLATE, f"releases/{release}.yaml")
        target = "/".join(
            ("." + part.removeprefix("dot-")) if part.startswith("dot-") else part for part in target.split("/")
        )
        text = source.read_text(encoding="utf-8")
        for placeholder, value in values.items():
            text = text.replace(placeholder, value)
        files[target] = text
    return files


def init(folder: Path, product: str, release: str = "1.0", today: datetime.date | None = None) -> list[Path]:
    """Write a new knowledge base into folder (made if missing); returns the files written.
    Raises InitError, naming every file that exists already, before writing anything, and
    atomic.WriteFailed when the folder cannot hold them (a file, a read-only place, a full disk):
    then the folders it made are removed again, and nothing was written."""
    files = starter_files(product, release, today or datetime.date.today())
    existing = sorted(str(folder / path) for path in files if os.path.lexists(folder / path))
    if existing:
        raise InitError("these files exist already (init never overwrites a file): " + ", ".join(existing))
    targets = {folder / path: text for path, text in files.items()}
    made: list[Path] = []
    try:
        for target in targets:
            _make_folders(target.parent, made)
        atomic.write_files(targets)  # all files or none, as far as the disk allows
    except atomic.WriteFailed:
        for made_folder in reversed(made):  # deepest first; each is empty, since no file was written
            with contextlib.suppress(OSError):
                made_folder.rmdir()
        raise
    written = list(targets)
    from releasekb.kb.schema import write_schemas

    written += write_schemas(folder / "releases")
    return written


def _make_folders(folder: Path, made: list[Path]) -> None:
    """Make folder and its missing parents, adding each one made to `made`; WriteFailed naming
    the first that is not a folder (a file where the knowledge base would go) or cannot be made."""
    missing = []
    for path in (folder, *folder.parents):
        if os.path.lexists(path):
            if not path.is_dir():
                raise atomic.WriteFailed(path, "it is not a folder: name a new or empty folder")
            break
        missing.append(path)
    for path in reversed(missing):
        try:
            path.mkdir()
        except OSError as error:
            raise atomic.WriteFailed(path, error) from error
        made.append(path)
