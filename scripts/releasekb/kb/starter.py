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
from importlib.metadata import PackageNotFoundError, distribution
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
    """What the deploy workflow installs: this very releasekb, from where it was installed."""
    return requirement_of(*_installed_from())


def requirement_note() -> str | None:
    """What `init` tells the team when requirements.txt names a place only this machine has
    (a wheel file, a folder, a local clone) or no version at all; None when it installs as it is."""
    direct_url, installed_version = _installed_from()
    line = requirement_of(direct_url, installed_version)
    if installed_version is None:
        return (
            f"requirements.txt says `{line}`, but this releasekb was run from a source tree, not installed: "
            "write there where the deploy workflow installs it from (releasekb==<version> from your package "
            "index, releasekb @ git+https://<host>/<owner>/releasekb@<tag>, or a wheel's https address)"
        )
    if direct_url is not None and direct_url.get("url", "").startswith("file:"):
        return (
            f"requirements.txt says `{line}`, a place on this machine only: before the deploy workflow runs, "
            f"write there an address it can reach (releasekb=={installed_version} from your package index, "
            "releasekb @ git+https://<host>/<owner>/releasekb@<tag>, or the wheel's https address)"
        )
    return None


def requirement_of(direct_url: dict | None, installed_version: str | None) -> str:
    """The requirement that installs what was installed: the PEP 610 record of a direct install
    (direct_url.json: a wheel or archive, a folder, a VCS commit), else the version from an index.

    >>> requirement_of(None, "1.2.0"), requirement_of(None, None)
    ('releasekb==1.2.0', 'releasekb')
    >>> requirement_of({"url": "https://example.com/releasekb-1.2.0-py3-none-any.whl", "archive_info": {}}, "1.2.0")
    'releasekb @ https://example.com/releasekb-1.2.0-py3-none-any.whl'
    >>> requirement_of({"url": "https://github.com/o/releasekb", "vcs_info": {"vcs": "git", "commit_id": "ab12"}}, "1")
    'releasekb @ git+https://github.com/o/releasekb@ab12'
    >>> requirement_of({"url": "file:///x.whl\\nevil==1"}, "1.2.0")
    'releasekb==1.2.0'
    """
    if installed_version is None:  # run from a source tree that was never installed
        return "releasekb"
    url = (direct_url or {}).get("url")
    if not isinstance(url, str) or not re.fullmatch(r"\S+", url):  # none, or one that would break the line
        return f"releasekb=={installed_version}"
    vcs = direct_url.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") and vcs.get("commit_id"):
        url = f"{vcs['vcs']}+{url}@{vcs['commit_id']}"
    subdirectory = direct_url.get("subdirectory")
    if subdirectory:
        url += f"#subdirectory={subdirectory}"
    return f"releasekb @ {url}"


def _installed_from() -> tuple[dict | None, str | None]:
    """(the PEP 610 direct_url.json of the installed releasekb or None, its version or None)."""
    try:
        installed = distribution("releasekb")
    except PackageNotFoundError:
        return None, None
    try:
        direct_url = json.loads(installed.read_text("direct_url.json") or "null")
    except ValueError:  # a damaged record: the version is still right
        direct_url = None
    return (direct_url if isinstance(direct_url, dict) else None), installed.version


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
