"""Stage 5, site: write the rendered pages into the docs tree and build with MkDocs.

Pages are real files under docs/<lang>/, so every MkDocs-compatible engine (MkDocs,
ProperDocs) builds them as hand-written pages. Only the paths listed in GENERATED_PATHS are
ours: .gitignore lists the same paths, a test checks they agree, and files there that no
longer correspond to data are removed. Files are rewritten only when their text changes,
so MkDocs' dirty checks and file watchers see only real changes.

Each language is an independent MkDocs build with its own configuration file
(LANGUAGE_CONFIGS: mkdocs.yml for the default language, mkdocs.<lang>.yml for the others)
and its own search index. `build_site` generates the pages once, runs the language builds
in parallel processes (one per core) and assembles them into one site: the default language
at the root, the others under <lang>/. `serve_site` does the same on every change and
serves the result with MkDocs' live-reload server.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property
from multiprocessing import get_context
from pathlib import Path

from releasekb import progress, translations
from releasekb.catalog import Catalog, build_catalog
from releasekb.i18n import DEFAULT_LANGUAGE, LANGUAGES, url_prefix
from releasekb.problems import DataError
from releasekb.render import render_language
from releasekb.rules import HAN
from releasekb.validate import ValidatedData, load_data, release_paths

# Inside each docs/<lang>/ tree: what the generator owns.
GENERATED_PATHS = ("index.md", "releases", "features", "stability", "changelog")
# Beside the docs/<lang>/ trees: folders every language's site gets a copy of.
SHARED_DOCS = ("assets",)


def generated_roots(docs_dir: Path, languages: Iterable[str] = LANGUAGES) -> list[Path]:
    return [docs_dir / lang / path for lang in languages for path in GENERATED_PATHS]


def write_pages(pages: dict[str, str], docs_dir: Path, languages: Iterable[str] = LANGUAGES) -> list[str]:
    """Write pages (paths relative to docs_dir); delete generated files of these languages
    not among them. Returns the paths that changed."""
    changed = []
    wanted = {(docs_dir / path).resolve() for path in pages}
    for root in generated_roots(docs_dir, languages):
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
    """Changes whenever any data file changes: lets every build after the first skip generation."""
    digest = hashlib.sha256()
    for path in [data_dir / "project.yaml", data_dir / translations.LOCK_FILE, *release_paths(data_dir)]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()


def generate(
    data: ValidatedData, docs_dir: Path, site_url: str = "", languages: Iterable[str] = LANGUAGES
) -> tuple[Catalog, dict[str, str]]:
    """Build the catalog from validated data and write every page of these languages.
    Returns the catalog and the files written, {"en/releases/1.7.md": page, ...}."""
    catalog = build_catalog(data)
    pages = {
        f"{lang}/{path}": text for lang in languages for path, text in render_language(catalog, lang, site_url).items()
    }
    write_pages(pages, docs_dir, languages)
    return catalog, pages


def search_words(data: ValidatedData) -> list[str]:
    """Chinese terms to keep whole when jieba segments pages for search: the glossary's and
    the area names' short terms (2 to 4 characters, like 自动求导). Longer compounds such as
    分布式自动求导 stay split, so a search for either of their parts still finds them;
    Material's search matches whole tokens only."""
    candidates = [term.zh for term in data.project.glossary]
    candidates += [part for name in data.project.areas.values() for part in re.split(r"[与、，\s]+", name.zh)]
    return sorted({word for word in candidates if 2 <= len(word) <= 4 and all(HAN.match(c) for c in word)})


@dataclass(frozen=True)
class Generated:
    """What a language build needs to know about the pages generated for it."""

    key: tuple  # (data_dir, docs_root, site_url, language, data fingerprint)
    search_words: list[str]  # see search_words
    pages: frozenset[str]  # paths inside a language tree; every language has the same ones
    dropped_pages: bool = False  # pages generated before in this process are gone now
    catalog: Catalog | None = field(default=None, compare=False)  # for the machine-readable outputs


# The pages this process last generated: MkDocs calls the hook's on_config on every build,
# and `releasekb build` generates before the build starts (to report data problems once).
_generated: Generated | None = None


def generate_once(data_dir: Path, docs_root: Path, site_url: str, lang: str) -> Generated:
    """Validate and write one language's pages unless this data version is already written
    by this process. Raises DataError on invalid data."""
    global _generated
    key = (str(data_dir), str(docs_root), site_url, lang, data_fingerprint(data_dir))
    if _generated is None or _generated.key != key:
        data = load_data(data_dir)
        catalog, pages = generate(data, docs_root, site_url, [lang])
        tree = frozenset(path.removeprefix(f"{lang}/") for path in pages)
        dropped = _generated is not None and _generated.key[:4] == key[:4] and not _generated.pages <= tree
        _generated = Generated(key, search_words(data), tree, dropped, catalog)
    return _generated


def searches_chinese(config) -> bool:
    """Whether this build's search index is for Chinese (its search `lang` has zh)."""
    search = config.plugins.get("search") or config.plugins.get("material/search")
    return search is not None and "zh" in (search.config.lang or [])


def build_language(config) -> str:
    """The language of one MkDocs build: its Material `theme.language`."""
    return config.theme["language"]


def docs_root(config) -> Path:
    """docs/, the parent of every language's docs_dir (docs/en, docs/zh)."""
    return Path(config.docs_dir).parent


def language_configs(config_file: str | Path) -> dict[str, Path]:
    """{lang: its MkDocs configuration}: mkdocs.yml for the default language and
    mkdocs.<lang>.yml beside it for each other language."""
    config_file = Path(config_file)
    return {
        lang: config_file if lang == DEFAULT_LANGUAGE else config_file.with_name(f"{config_file.stem}.{lang}.yml")
        for lang in LANGUAGES
    }


def data_dir_of(config) -> Path:
    """The release data of a build: `extra.releasekb_data`, relative to the configuration."""
    return Path(config.config_file_path).parent / config.extra.get("releasekb_data", "releases")


def _end_with_parent(parent_pid: int) -> None:
    """Run in each language's worker as it starts: end it when the releasekb process ends, however
    it ends (SIGKILL, a crash), so no worker is left running, orphaned, after its build or serve."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent ended before the line above took effect
        os._exit(1)


def _warm_up(config_file: str, load_dictionary: bool) -> None:
    """Run in each language's worker as it starts: the imports and templates its builds need,
    and, when asked, jieba's dictionary (over half a second, only for Chinese search; `serve`
    asks, so that an edit with new Chinese words is not slowed by it, while a one-off build
    loads it only if the search index has text the last build did not segment)."""
    import logging

    import material.plugins.search.plugin  # noqa: F401
    import mkdocs.commands.build  # noqa: F401
    from mkdocs.config import load_config

    from releasekb.render import compile_templates

    compile_templates()
    if load_dictionary and searches_chinese(load_config(config_file)):
        import jieba

        jieba.setLogLevel(logging.WARNING)
        jieba.initialize()


def _build_one_language(config_file: str, site_dir: str, strict: bool, dirty: bool) -> tuple[str, str] | None:
    """Run in a worker process: generate one language's pages and build it with MkDocs.
    A dirty build (under `serve`) renders only the pages whose generated file changed, in place.
    Returns None, ("data", problems), ("build", what failed) or ("full", why a dirty build
    cannot be done)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, ConfigurationError, PluginError

    try:
        config = load_config(config_file, site_dir=site_dir, strict=strict)
        # Generated here rather than in the hook, so that data problems are reported once
        # by the parent rather than by every language; the hook then finds them written.
        lang = build_language(config)
        generated = generate_once(data_dir_of(config), docs_root(config), config.site_url or "", lang)
        if dirty and (generated.dropped_pages or lang not in _search_docs):
            return ("full", "pages were removed" if generated.dropped_pages else "no earlier build")
        build(config, dirty=dirty)
        _keep_search_index(Path(site_dir) / "search" / "search_index.json", lang, dirty)
    except DataError as error:
        return ("data", error.report())
    except (Abort, ConfigurationError, PluginError, SystemExit) as error:
        return ("build", f"{config_file}: {error}")
    return None


# Per language, the search index entries of the last build in this process, by page.
_search_docs: dict[str, dict[str, list[dict]]] = {}


def _keep_search_index(index_file: Path, lang: str, dirty: bool) -> None:
    """A dirty build's search index holds only the pages it rendered: add back every other
    page's entries from the build before, so search under `serve` keeps finding them."""
    if not index_file.is_file():
        return
    index = json.loads(index_file.read_text(encoding="utf-8"))
    by_page: dict[str, list[dict]] = {}
    for doc in index["docs"]:
        by_page.setdefault(doc["location"].partition("#")[0], []).append(doc)
    if dirty:
        by_page = {**_search_docs[lang], **by_page}
        index["docs"] = [doc for docs in by_page.values() for doc in docs]
        index_file.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    _search_docs[lang] = by_page


class SiteBuilder:
    """Builds the whole bilingual site: one MkDocs build per language (pages generated in
    the same process), in parallel worker processes, assembled into one folder. Each
    language has its own worker, which lives as long as the builder: `serve` pays for
    importing MkDocs and loading jieba once, and can rebuild only the pages that changed."""

    def __init__(self, config_file: str | Path, *, strict: bool = True, serving: bool = False):
        self.configs = language_configs(config_file)
        missing = [str(path) for path in self.configs.values() if not path.is_file()]
        if missing:
            raise FileNotFoundError(f"configuration not found: {', '.join(missing)}")
        self.strict = strict
        self.counters = progress.shared_counters()
        progress.use(self.counters)  # inherited by the workers
        self._workers = {
            lang: ProcessPoolExecutor(
                max_workers=1, mp_context=get_context("fork"), initializer=_end_with_parent, initargs=(os.getpid(),)
            )
            for lang in LANGUAGES
        }
        for lang, worker in self._workers.items():
            worker.submit(_warm_up, str(self.configs[lang]), serving)

    @cached_property
    def _default_config(self):
        """The default language's configuration, read when `serve` asks for its folders (not
        by `build`, which would read it beside the workers' own reading, on the same cores)."""
        from mkdocs.config import load_config

        return load_config(str(self.configs[DEFAULT_LANGUAGE]))

    @property
    def docs_root(self) -> Path:
        return docs_root(self._default_config)

    @property
    def data_dir(self) -> Path:
        return data_dir_of(self._default_config)

    @property
    def site_url(self) -> str:
        return self._default_config.site_url or ""

    def build_into(self, site_dir: Path) -> bool:
        """Build the site into a new folder beside site_dir and swap it in only on success,
        so a failed build (bad data, a strict-mode warning) leaves the previous site as it was."""
        site_dir = site_dir.resolve()
        _clean_leftovers(site_dir)
        staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}-staging-{os.getpid()}-", dir=site_dir.parent))
        try:
            if self._run({lang: staging / lang for lang in LANGUAGES}, dirty=False) is not True:
                print(f"{site_dir} was left as it was", file=sys.stderr, flush=True)
                return False
            for lang in LANGUAGES[1:]:  # each other language's site goes under <lang>/
                (staging / lang).rename(staging / DEFAULT_LANGUAGE / url_prefix(lang))
            _without_gzip_time(staging / DEFAULT_LANGUAGE)
            _swap(staging / DEFAULT_LANGUAGE, site_dir)
            return True
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def update(self, site_dir: Path) -> bool:
        """Rebuild, in place, only the pages whose generated file changed since the last
        build (MkDocs' dirty build); falls back to a whole build when pages were removed."""
        outcome = self._run({lang: site_dir.resolve() / url_prefix(lang) for lang in LANGUAGES}, dirty=True)
        return self.build_into(site_dir) if outcome == "full" else outcome

    def _run(self, site_dirs: dict[str, Path], dirty: bool) -> bool | str:
        progress.reset(self.counters)
        futures = [
            self._workers[lang].submit(_build_one_language, str(config), str(site_dirs[lang]), self.strict, dirty)
            for lang, config in self.configs.items()
        ]
        with progress.Reporter(self.counters):
            failures = [failure for future in futures if (failure := future.result())]
        if any(kind == "full" for kind, _ in failures):
            return "full"
        data_problems = {report for kind, report in failures if kind == "data"}
        for report in data_problems or [f"build failed: {report}" for _, report in failures]:
            print(report, file=sys.stderr, flush=True)
        return not failures

    def close(self) -> None:
        for worker in self._workers.values():
            worker.shutdown(cancel_futures=True)


def _without_gzip_time(site: Path) -> None:
    """MkDocs stamps sitemap.xml.gz's gzip header with the build day; without it two builds of
    the same sources are byte-identical whenever they run."""
    for packed in site.rglob("sitemap.xml.gz"):
        packed.write_bytes(gzip.compress(gzip.decompress(packed.read_bytes()), mtime=0))


def _clean_leftovers(site_dir: Path) -> None:
    """Undo what a build killed halfway (SIGKILL, power loss) left beside site_dir: its staging
    folder (named with its process id, removed once that process is gone), and a previous site
    moved aside by a swap that did not finish (put back)."""
    previous = site_dir.with_name(f".{site_dir.name}-previous")
    if previous.is_dir() and not site_dir.exists():
        previous.rename(site_dir)
    staging_name = re.compile(rf"\.{re.escape(site_dir.name)}-staging-([0-9]+)-.*")
    for staging in site_dir.parent.iterdir():
        if (match := staging_name.fullmatch(staging.name)) and not _process_alive(int(match[1])):
            shutil.rmtree(staging, ignore_errors=True)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, under another user
    return True


def _swap(new: Path, site_dir: Path) -> None:
    """Replace site_dir by new with two renames: at every moment either the previous site or the
    new one is complete on disk (`_clean_leftovers` puts the previous back if we are killed
    between the renames)."""
    previous = site_dir.with_name(f".{site_dir.name}-previous")
    shutil.rmtree(previous, ignore_errors=True)
    if site_dir.exists():
        site_dir.rename(previous)
    new.rename(site_dir)
    shutil.rmtree(previous, ignore_errors=True)


def _exit_on_sigterm() -> None:
    """Let SIGTERM (`kill`, a service manager, a test harness) end the command the way Ctrl-C
    does, so the `finally` blocks run: the language workers are shut down and temporary
    folders removed, instead of workers left running without their parent."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))


def build_site(config_file: str, site_dir: Path) -> bool:
    """`releasekb build`: the whole site into site_dir, replaced only on success."""
    start = time.perf_counter()
    _exit_on_sigterm()
    builder = SiteBuilder(config_file)
    try:
        if not builder.build_into(site_dir):
            return False
    finally:
        builder.close()
    print(f"site built in {site_dir} ({time.perf_counter() - start:.1f} s)")
    return True


def serve_site(config_file: str, dev_addr: str) -> None:
    """`releasekb serve`: build both languages, serve them as one site with live reload, and
    rebuild when the data, the hand-written docs or the configuration change."""
    from urllib.parse import urlsplit

    from mkdocs.livereload import LiveReloadServer

    _exit_on_sigterm()
    builder = SiteBuilder(config_file, strict=False, serving=True)
    host, _, port = dev_addr.rpartition(":")
    served = Path(tempfile.mkdtemp(prefix="releasekb-serve-")) / "site"
    sources = _ServeSources(builder)

    def rebuild() -> None:
        state = sources.state()
        if state == sources.built:
            return  # only generated pages changed: the build that wrote them is already served
        start = time.perf_counter()
        only_data_changed = sources.built is not None and sources.built[1] == state[1]
        if builder.update(served) if only_data_changed else builder.build_into(served):
            sources.built = state
            print(f"site rebuilt in {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)

    server = LiveReloadServer(
        builder=rebuild,
        host=host,
        port=int(port),
        root=str(served),
        mount_path=urlsplit(builder.site_url).path or "/",
        # The watched sources are a few small folders (see _ServeSources.watched), so polling
        # them often is cheap; MkDocs' 0.5 s was a quarter of the time an edit takes to show.
        polling_interval=0.1,
    )
    server.error_handler = lambda code: (served / "404.html").read_bytes() if (served / "404.html").is_file() else None
    try:
        rebuild()
        for path, recursive in sources.watched():
            server.watch(str(path), recursive=recursive)
        try:
            server.serve()
        except KeyboardInterrupt:
            pass
        finally:
            server.shutdown()
    finally:
        builder.close()
        shutil.rmtree(served.parent, ignore_errors=True)


class _ServeSources:
    """What a rebuild under `serve` depends on, and whether it changed since the last build:
    writing the generated pages must not trigger a rebuild of its own."""

    def __init__(self, builder: SiteBuilder):
        self.builder = builder
        self.built: tuple | None = None

    def watched(self) -> list[tuple[Path, bool]]:
        """(path, recursive) for every source: the data, the configurations and the hand-written
        docs, not the generated pages (thousands at scale: the server polls what it watches,
        and a build's own writes are no reason to build)."""
        docs = self.builder.docs_root
        generated = {root.resolve() for root in generated_roots(docs)}
        watched = [(self.builder.data_dir, True), *((config, False) for config in self.builder.configs.values())]
        for top in sorted(docs.iterdir()) if docs.is_dir() else []:
            if top.name not in LANGUAGES or not top.is_dir():
                watched.append((top, True))
                continue
            watched.append((top, False))  # a language's own files (about.md)
            watched += [(sub, True) for sub in sorted(top.iterdir()) if sub.is_dir() and sub.resolve() not in generated]
        return watched

    def state(self) -> tuple:
        stats = []
        generated = {root.resolve() for root in generated_roots(self.builder.docs_root)}
        for directory, subdirs, files in os.walk(self.builder.docs_root):
            here = Path(directory).resolve()
            subdirs[:] = sorted(d for d in subdirs if here / d not in generated)
            for name in sorted(files):
                if here / name not in generated:
                    stat = (here / name).stat()
                    stats.append((str(here / name), stat.st_mtime_ns, stat.st_size))
        for config in self.builder.configs.values():
            stats.append((str(config), config.stat().st_mtime_ns, config.stat().st_size))
        return data_fingerprint(self.builder.data_dir), tuple(stats)
