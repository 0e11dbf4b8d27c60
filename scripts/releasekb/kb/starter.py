"""`releasekb init`: a new knowledge base for another product, from the package's starter files.

starter/ holds what a team's repository starts with: project.yaml (every key commented), a
first release whose entries are marked `example: true`, the site's configuration (one for every
language; using the plugin; no theme file is copied: the theme comes with the package),
hand-written about pages in each language, a .gitignore, a deploy workflow, a pre-commit
configuration and the requirement the workflow installs. Files whose names start with `dot-` are
written as dotfiles (a package's data keeps them visible). `init` never overwrites a file.

A starter file names each text of the knowledge base `__TEXT:<key>__`: starter_texts.yaml holds it
in every language init can start a knowledge base in, and init writes it in the chosen ones.

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

import yaml
from babel import Locale

from releasekb.common import atomic
from releasekb.common.cache_folder import CACHE_FOLDER
from releasekb.common.i18n import interface_strings, url_prefix

STARTER_DIR = Path(__file__).parent / "starter"
STARTER_TEXTS = Path(__file__).parent / "starter_texts.yaml"
# The languages of a knowledge base `init` starts without --languages (README, "Languages", says why).
INIT_LANGUAGES = ("en",)
_TEXT = re.compile(r"^(?P<indent> *)(?P<item>- )?(?P<key>[\w-]+): __TEXT:(?P<name>\w+)__$", re.MULTILINE)
# A text this long or longer is written as a block (one line per language), as a curator would.
_FLOW_LENGTH = 40
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


def starter_languages() -> tuple[str, ...]:
    """The languages init can start a knowledge base in: those starter_texts.yaml has every text
    in, and the site has interface strings for."""
    from releasekb.common.i18n import has_interface_strings

    texts = _starter_texts()
    return tuple(
        lang
        for lang in dict.fromkeys(lang for text in texts.values() for lang in text)
        if all(lang in text for text in texts.values()) and has_interface_strings(lang)
    )


def _starter_texts() -> dict[str, dict[str, str]]:
    return yaml.safe_load(STARTER_TEXTS.read_text(encoding="utf-8"))


def starter_text(name: str, lang: str, **fields: str) -> str:
    """One text of starter_texts.yaml in `lang` (in English where it has none: a language only a
    team's locales/ file speaks), its {fields} filled in."""
    by_language = _starter_texts()[name]
    return (by_language.get(lang) or by_language["en"]).format(**fields)


def parse_languages(text: str) -> tuple[str, ...]:
    """--languages 'en,ja,zh' -> ('en', 'ja', 'zh'); raises InitError naming what is allowed."""
    languages = tuple(part.strip() for part in text.split(",") if part.strip())
    known = starter_languages()
    if not languages:
        raise InitError(f"--languages '{text}': name at least one language ({', '.join(known)})")
    for lang in languages:
        if lang not in known:
            raise InitError(
                f"--languages: '{lang}' is not a language init can start a knowledge base in "
                f"(one of {', '.join(known)})"
            )
    if len(set(languages)) != len(languages):
        raise InitError(f"--languages '{text}': name each language once")
    return languages


def _render_texts(
    text: str, texts: dict, languages: tuple[str, ...], values: dict[str, str], quoted: bool = False
) -> str:
    """Every `key: __TEXT:<name>__` line as the text in each language: one line when short,
    else one line per language under the key; quoted: every text in quotes (else where needed)."""

    def filled(lang: str, name: str) -> str:
        return texts[name][lang].format(**values)

    def render(match: re.Match) -> str:
        indent, item, key, name = match["indent"], match["item"] or "", match["key"], match["name"]
        written = {
            lang: json.dumps(filled(lang, name), ensure_ascii=False) if quoted else _scalar(filled(lang, name))
            for lang in languages
        }
        if sum(len(value) for value in written.values()) < _FLOW_LENGTH * len(languages):
            return f"{indent}{item}{key}: {{{', '.join(f'{lang}: {value}' for lang, value in written.items())}}}"
        inner = " " * (len(indent) + len(item) + 2)
        return f"{indent}{item}{key}:\n" + "\n".join(f"{inner}{lang}: {value}" for lang, value in written.items())

    return _TEXT.sub(render, text)


def _scalar(text: str) -> str:
    """A text as YAML writes it in a flow mapping: plain when YAML reads it back as the same text,
    else quoted."""
    plain = not re.search(r"[,{}\[\]#:`\"']", text) and text == text.strip()
    if plain:
        try:
            plain = yaml.safe_load(f"k: {text}") == {"k": text}
        except yaml.YAMLError:
            plain = False
    return text if plain else json.dumps(text, ensure_ascii=False)


def texts_in(text: str, languages: tuple[str, ...], quoted: bool = False) -> str:
    """`text` with each `key: __TEXT:<name>__` line written in `languages` (starter_texts.yaml's
    text; a language it has none in gets the first language's, or the table's first: a placeholder still)."""
    texts = {
        name: {
            lang: by_language.get(lang) or by_language.get(languages[0]) or next(iter(by_language.values()))
            for lang in languages
        }
        for name, by_language in _starter_texts().items()
    }
    return _render_texts(text, texts, languages, {}, quoted)


def _other_languages(lang: str, languages: tuple[str, ...], release: str) -> str:
    """The about page's sentences saying where the same page is in each other language."""
    sentence = _starter_texts()["about_other_language"][lang]
    return " ".join(
        sentence.format(
            name=Locale.parse(other).get_display_name(lang),
            address=f"/{url_prefix(other, languages)}releases/{release}/",
        )
        for other in languages
        if other != lang
    )


def starter_files(
    product: str, release: str, today: datetime.date, languages: tuple[str, ...] = INIT_LANGUAGES
) -> dict[str, str]:
    """{path inside the new knowledge base: text} for a product and its first release, in `languages`."""
    product = product.strip()
    if not _PRODUCT_NAME.fullmatch(product):
        raise InitError(f"--product '{product}': use up to 60 printable characters, without quotes, \\, <, > or `")
    if not re.fullmatch(r"\d+(\.\d+)*", release):
        raise InitError(f"--release '{release}': a version such as 1.0")
    default = languages[0]
    texts = _starter_texts()
    text_values = {"product": product, "module": module_name(product), "version": release}
    strings = interface_strings(default)
    values = {
        "__SITE_NAME_YAML__": json.dumps(texts["site_name"][default].format(**text_values), ensure_ascii=False),
        "__LANGUAGES__": ", ".join(languages),
        "__LANGUAGE_KEYS__": ", ".join(f"{lang}: ..." for lang in languages),
        "__DEFAULT_LANGUAGE__": default,
        "__PALETTE_TO_DARK__": json.dumps(strings["palette_to_dark"], ensure_ascii=False),
        "__PALETTE_TO_LIGHT__": json.dumps(strings["palette_to_light"], ensure_ascii=False),
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
        page_language = relative.split("/")[1] if relative.startswith("docs/") else None
        if page_language is not None and page_language not in languages:
            continue  # the hand-written pages of a language the knowledge base does not have
        target = relative.replace(RELEASE_TEMPLATE, f"releases/{release}.yaml")
        target = "/".join(
            ("." + part.removeprefix("dot-")) if part.startswith("dot-") else part for part in target.split("/")
        )
        text = _render_texts(source.read_text(encoding="utf-8"), texts, languages, text_values)
        if page_language is not None:
            text = text.replace("__HOME__", "/" + url_prefix(page_language, languages))
            text = text.replace("__OTHER_LANGUAGES__", _other_languages(page_language, languages, release))
        for placeholder, value in values.items():
            text = text.replace(placeholder, value)
        files[target] = text
    return files


def init(
    folder: Path,
    product: str,
    release: str = "1.0",
    today: datetime.date | None = None,
    languages: tuple[str, ...] = INIT_LANGUAGES,
) -> list[Path]:
    """Write a new knowledge base in `languages` into folder (made if missing); returns the files written.
    Raises InitError, naming every file that exists already, before writing anything, and
    atomic.WriteFailed when the folder cannot hold them (a file, a read-only place, a full disk):
    then the folders it made are removed again, and nothing was written."""
    files = starter_files(product, release, today or datetime.date.today(), languages)
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
