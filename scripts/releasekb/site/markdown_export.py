"""`releasekb export`: the generated pages as standalone Markdown files in docs/<lang>/, for an
engine that does not run the plugin.

A build writes nothing into docs/: the plugin gives MkDocs the pages as objects
(mkdocs_pages.GeneratedFile). The export writes the same pages as files
(RenderedPage.markdown: the title and description in front matter, the headings as Markdown with
their anchors), which any MkDocs-compatible engine, with Material and attr_list, builds without the
plugin into pages with the same titles and anchors (tests/test_markdown_export.py builds them so).

Only the paths listed in urls.GENERATED_PATHS are the export's: .gitignore lists the same paths (a
test checks they agree), and files there that no longer correspond to data are removed. Files are
rewritten only when their text changes, so an engine's file watcher sees only real changes. A
link in those folders is an error, never followed (confined.py).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from releasekb.kb.urls import GENERATED_PATHS
from releasekb.site.confined import LinkInTheWay, files_under, no_follow, refuse_links


def generated_roots(docs_dir: Path, languages: Iterable[str]) -> list[Path]:
    """The files and folders of docs/ that are the export's: every language's GENERATED_PATHS."""
    return [docs_dir / lang / path for lang in languages for path in GENERATED_PATHS]


def export_markdown(config_file: Path) -> dict[str, list[str]]:
    """Write every language's pages into its docs folder. Returns {lang: the paths written or
    removed}. Raises DataError on invalid data, LinkInTheWay for a link in a generated folder."""
    from mkdocs.config import load_config

    from releasekb.kb.validate import read_files
    from releasekb.site.build import language_configs, site_languages
    from releasekb.site.generate import LanguagePages, docs_root
    from releasekb.site.language_config import configure_language
    from releasekb.site.plugin_config import data_dir_of

    if not Path(config_file).is_file():
        raise FileNotFoundError(f"configuration not found: {config_file}")
    languages = site_languages(config_file)
    changed: dict[str, list[str]] = {}
    for lang, language_config in language_configs(config_file, languages).items():
        config = load_config(str(language_config))
        configure_language(config, lang)
        generated = LanguagePages().generate_once(read_files(data_dir_of(config)), config.site_url or "", lang)
        docs = docs_root(config)
        texts = {f"{lang}/{path}": text for path, text in generated.texts().items()}
        changed[lang] = write_pages(texts, docs, [lang])
    return changed


def write_pages(pages: dict[str, str], docs_dir: Path, languages: Iterable[str]) -> list[str]:
    """Write pages (paths relative to docs_dir); delete generated files of these languages
    not among them. Returns the paths that changed."""
    changed = []
    wanted = {(docs_dir / path).resolve() for path in pages}
    for root in generated_roots(docs_dir, languages):
        # a link there (a cloned repository can hold one) is an error, never followed (confined.py)
        for stale in (f for f in files_under(root, docs_dir) if f.is_file() and f.resolve() not in wanted):
            stale.unlink()
            changed.append(str(stale.relative_to(docs_dir)))
    _make_folders((docs_dir / path for path in pages), docs_dir)
    changed += [path for path, text in pages.items() if _write_if_changed(docs_dir / path, text)]
    return changed


def _make_folders(files: Iterable[Path], docs_dir: Path) -> None:
    """The folders of these files, each made once: a folder per page cost a system call each,
    thousands of them at scale, for the few folders the pages are in. None is made or used
    through a link (confined.py)."""
    for folder in {file.parent for file in files}:
        refuse_links(folder, docs_dir)
        folder.mkdir(parents=True, exist_ok=True)


def _write_if_changed(target: Path, text: str) -> bool:
    """Write text to target (its folder exists) unless it holds that text already; never
    through a link at target (LinkInTheWay)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISLNK(mode):
        raise LinkInTheWay(target, target.parent)
    if mode is not None and stat.S_ISREG(mode) and target.read_text(encoding="utf-8") == text:
        return False
    with open(target, "w", encoding="utf-8", opener=no_follow) as page:
        page.write(text)
    return True
