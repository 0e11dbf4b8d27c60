"""Stage 6, build: the whole site, one MkDocs build per language of the knowledge base, in parallel.

Each language (project.yaml `languages`) is an independent MkDocs build of the one mkdocs.yml,
with that language's settings (language_config.configure_language; a mkdocs.<lang>.yml from an earlier
version is still used for its language) and its own search index. `build_site`
runs the language builds in parallel worker processes (one per language, each generating its
own pages first, see generate.py) and assembles them into one site: the default language at
the root, the others under <lang>/. The site is swapped in only when every language built.

The data files are read once per build, by the builder, and every language's worker builds from
those bytes: a file saved during a build is in none of its outputs, rather than in some. A worker
reads its configuration once per build (for its builder's question about its folders, then kept
for the build), generates its pages once, and gives them to the plugin (plugin.build_with).
"""

from __future__ import annotations

import contextlib
import enum
import gc
import gzip
import multiprocessing
import os
import shutil
import signal
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import cached_property
from multiprocessing import get_context
from multiprocessing.sharedctypes import SynchronizedArray
from pathlib import Path

from releasekb.common import collector
from releasekb.common.i18n import url_prefix
from releasekb.common.problems import DataError
from releasekb.common.safe_text import visible
from releasekb.kb.notes import NotesAs
from releasekb.kb.validate import DataFiles, read_files
from releasekb.site import afterwards, leftovers, progress
from releasekb.site.generate import docs_root
from releasekb.site.session import Session
from releasekb.site.site_folder import check_site_folder, is_marked, mark, previous_site, replaceable


def site_languages(config_file: str | Path) -> tuple[str, ...]:
    """The knowledge base's languages (project.yaml `languages`), read before any build: through
    mkdocs.yml's `releasekb` plugin's `data` folder. Read leniently: whatever is wrong there, the
    builds report it (the default languages are used until then)."""
    from mkdocs.utils.yaml import yaml_load

    from releasekb.kb.validate import project_languages

    config_file = Path(config_file)
    try:
        with open(config_file, "rb") as handle:
            config = yaml_load(handle) or {}
    except Exception:
        config = {}
    data = "releases"
    for plugin in config.get("plugins") or [] if isinstance(config, dict) else []:
        if isinstance(plugin, dict) and isinstance(plugin.get("releasekb"), dict):
            data = str(plugin["releasekb"].get("data", data))
    return project_languages(config_file.parent / data)


def language_configs(config_file: str | Path, languages: tuple[str, ...]) -> dict[str, Path]:
    """{lang: its MkDocs configuration}: mkdocs.yml for every language, the plugin setting each
    language's own settings (language_config.configure_language); a mkdocs.<lang>.yml beside it, written
    for a site from before one file served every language, is still that language's."""
    config_file = Path(config_file)
    own = {lang: config_file.with_name(f"{config_file.stem}.{lang}.yml") for lang in languages[1:]}
    return {lang: own[lang] if lang in own and own[lang].is_file() else config_file for lang in languages}


# A language worker's session (session.py): made once, as the worker starts (_start_worker), and
# used by every build it runs. The worker's one piece of state across the calls its executor
# makes: a ProcessPoolExecutor gives the functions it runs no other way to share an object.
_worker_session: Session | None = None
# The configuration a worker read for its builder (_sources), kept for the build that follows it
# ({configuration file: (strict, the configuration)}): each build reads it once, not twice.
_configs_read: dict[str, tuple] = {}


def _start_worker(parent_pid: int, counters: SynchronizedArray) -> None:
    """Run in each language's worker as it starts: end it when the releasekb process ends, however
    it ends (SIGKILL, a crash), so no worker is left running, orphaned, after its build or serve;
    and make the session its builds share, counting its pages into the builder's counters.

    Ctrl-C reaches every process of the terminal's process group, and a service manager's SIGTERM
    often does too: a worker ignores both (as do the commands it runs, Pagefind, which inherit
    that). Only the builder stops it, with _STOP_WORKER (SiteBuilder.stop_workers), after it has
    handled the signal itself: a worker that ended on the group's signal first broke the builder's
    pool before the builder knew it was interrupted, and serve took that for a failed build and
    served on. Every signal is blocked from the fork until now (_forking)."""
    global _worker_session
    for interrupt_signal in _INTERRUPTS:
        signal.signal(interrupt_signal, signal.SIG_IGN)
    signal.signal(_STOP_WORKER, _stop_worker)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _INTERRUPTS | {_STOP_WORKER})
    leftovers.end_with_parent(parent_pid)
    _worker_session = Session(counters)


def _stop_worker(signum: int, frame) -> None:
    """A worker's _STOP_WORKER: stop the commands its build runs (Pagefind, which would write on
    into a staging folder the builder is about to remove) and end at once, quietly: the builder
    that asked discards what the build made."""
    if _worker_session is not None:
        _worker_session.jobs.end_commands()
    os._exit(128 + signum)


# What ends a build: Ctrl-C, and `kill`, a service manager or a CI runner's SIGTERM.
_INTERRUPTS = {signal.SIGINT, signal.SIGTERM}
# What the builder stops a worker with: a signal no terminal or service manager sends a group.
_STOP_WORKER = afterwards.STOP_WORKER


class Interrupted(BaseException):
    """Raised in the main thread of `releasekb build` by SIGINT or SIGTERM (_interruptible). A
    BaseException, as KeyboardInterrupt is: no `except Exception` on the way up stops it."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _release_jobs(moved: dict[Path, Path]) -> None:
    """Run in a worker: its build's folder is in place, so are its pages (a dirty build after it
    builds only what changes next), and its held jobs run (afterwards.Jobs.release)."""
    _worker_session.pages.built()
    _worker_session.jobs.release(moved)


def _drop_jobs() -> None:
    """Run in a worker: its build failed, its held jobs are dropped (afterwards.Jobs.drop)."""
    _worker_session.jobs.drop()


def _warm_up() -> None:
    """Run in each language's worker as it starts: the imports and templates its builds need,
    and a garbage collector tuned for a build: it holds millions of objects for as long as it
    lives (the catalog, MkDocs' pages), and with Python's default thresholds the collector
    scanned them again every 700 allocations, a third of a rebuild's time under `serve`."""
    gc.set_threshold(20_000, 50, 1_000)
    import mkdocs.commands.build  # noqa: F401

    from releasekb.site.material_search import import_material_search
    from releasekb.site.render import compile_templates

    import_material_search()

    compile_templates()


class Outcome(enum.Enum):
    BUILT = "built"
    INVALID_DATA = "invalid data"  # report: the data problems, as `validate` prints them
    BUILD_FAILED = "build failed"  # report: what MkDocs said
    WORKER_ENDED = "worker ended"  # report: which language's worker process ended, and why it may have
    NEEDS_FULL_BUILD = "needs a full build"  # a dirty build cannot be done; report: why


@dataclass(frozen=True)
class LanguageResult:
    outcome: Outcome
    report: str = ""
    site_url: str = ""  # the configuration's site address, once it is read


def _configuration_errors() -> tuple[type[BaseException], ...]:
    """What a language's configuration cannot be built for: MkDocs' own errors, a missing plugin."""
    from mkdocs.exceptions import Abort, ConfigurationError, PluginError

    return Abort, ConfigurationError, PluginError, SystemExit


@dataclass(frozen=True)
class Sources:
    """The folders one language's configuration names: its data, which the builder reads once
    for every language, and the docs folder (docs/, the parent of its docs_dir)."""

    data: Path
    docs: Path


def _sources(config_file: str, strict: bool) -> Sources | LanguageResult:
    """Run in a worker process: the folders one language's configuration names; the failure when
    the configuration cannot be read."""
    from mkdocs.config import load_config

    from releasekb.site.plugin_config import data_dir_of

    _configs_read.pop(config_file, None)
    try:
        config = load_config(config_file, strict=strict)
        sources = Sources(data_dir_of(config), docs_root(config))
        _configs_read[config_file] = (strict, config)
        return sources
    except _configuration_errors() as error:
        return LanguageResult(Outcome.BUILD_FAILED, f"{config_file}: {error}")


def _build_one_language(
    config_file: str, lang: str, site_dir: str, strict: bool, dirty: bool, serving: bool, data: DataFiles
) -> LanguageResult:
    """Run in a worker process: generate one language's pages from `data` (the data files as the
    builder read them) and build it with MkDocs.
    A dirty build (under `serve`) renders only the pages whose generated file changed, in place.
    Under `serve`, the search index and the other outputs are written after the build
    (afterwards.py): a whole build's, once its folder is in place (SiteBuilder.build_into).
    Every build of this worker shares its session (session.py)."""
    from mkdocs.commands.build import build

    from releasekb.site.language_config import configure_language
    from releasekb.site.plugin_config import plugin_of

    session = _worker_session  # made as the worker started
    session.jobs.defer(serving, hold=serving and not dirty)
    session.jobs.building(True)  # the work left from the build before waits for this one
    try:
        config = _config_for_build(config_file, site_dir, strict)
        configure_language(config, lang)  # one mkdocs.yml for every language
        # Generated here rather than in the plugin, from the data as the builder read it, so that
        # data problems are reported once by the parent rather than by every language; the
        # plugin is given the pages (build_with) and generates nothing itself.
        with collector.paused():
            generated = session.pages.generate_once(data, config.site_url or "", lang)
            if not serving:
                # The catalog and the pages, which live until the process ends: a build's later
                # collections need not scan them again (a worker of `build` runs one build; under
                # `serve` each build's objects must stay collectable). Frozen before the collector
                # runs again, which would scan them all once first.
                gc.freeze()
        if dirty and (generated.dropped_pages or lang not in session.built_languages):
            why = "pages were removed" if generated.dropped_pages else "no earlier build"
            return LanguageResult(Outcome.NEEDS_FULL_BUILD, why)
        plugin_of(config).build_with(session, generated)
        build(config, dirty=dirty)
        _without_gzip_time(Path(config.site_dir))
        if dirty:  # in place: its pages are the site's now (a whole build's, once it is kept: _release_jobs)
            session.pages.built()
        session.built_languages.add(lang)
        site_url = config.site_url or ""
    except DataError as error:
        return LanguageResult(Outcome.INVALID_DATA, error.report())
    except _configuration_errors() as error:
        return LanguageResult(Outcome.BUILD_FAILED, f"{config_file}: {error}")
    except OSError as error:  # a full disk, a read-only folder
        return LanguageResult(Outcome.BUILD_FAILED, f"cannot write {os_error_text(error)}")
    finally:
        session.jobs.building(False)
    return LanguageResult(Outcome.BUILT, site_url=site_url)


def _config_for_build(config_file: str, site_dir: str, strict: bool):
    """Run in a worker process: the configuration of the build about to run, the one _sources
    read for its builder when there is one (taken: a build changes its configuration)."""
    from mkdocs.config import load_config

    strict_read, config = _configs_read.pop(config_file, (None, None))
    if config is None or strict_read != strict:
        return load_config(config_file, site_dir=site_dir, strict=strict)
    # As load_config(site_dir=) gives it: an absolute path (the builder's folders are resolved).
    config.site_dir = os.path.abspath(site_dir)
    return config


class SiteBuilder:
    """Builds the whole bilingual site: one MkDocs build per language (pages generated in
    the same process), in parallel worker processes, assembled into one folder. Each
    language has its own worker, which lives as long as the builder: `serve` pays for
    importing MkDocs once, and can rebuild only the pages that changed."""

    def __init__(
        self, config_file: str | Path, *, strict: bool = True, serving: bool = False, unreleased: bool = False
    ):
        if not Path(config_file).is_file():
            raise FileNotFoundError(f"configuration not found: {config_file}")
        self.config_file = Path(config_file)
        self.languages = site_languages(config_file)
        self.configs = language_configs(config_file, self.languages)
        self.strict = strict
        self.serving = serving
        # the notes (releases/unreleased/) as the next release: under `serve`, and `build --unreleased`
        self.unreleased = unreleased or serving
        self.site_url_set = False  # whether the last build knew the site's address
        self._stopped = False  # whether stop_workers ended the workers
        self.counters = progress.shared_counters(self.languages)
        self._workers = {lang: self._new_worker() for lang in self.languages}

    def _new_worker(self) -> ProcessPoolExecutor:
        """A language's worker process, started and warming up."""
        worker = ProcessPoolExecutor(
            max_workers=1,
            mp_context=get_context("fork"),
            initializer=_start_worker,
            initargs=(os.getpid(), self.counters),  # inherited by the forked worker, not pickled
        )
        with _forking():
            worker.submit(_warm_up)  # forks the worker
        return worker

    def _submit(self, lang: str, function, *args) -> Future:
        """`function(*args)` run in lang's worker. A worker that has ended gives a future that holds
        BrokenProcessPool, as one that ends while it runs does (see _results)."""
        try:
            return self._workers[lang].submit(function, *args)
        except BrokenProcessPool as broken:
            failed = Future()
            failed.set_exception(broken)
            return failed

    def _results(self, futures: dict[str, Future]) -> dict:
        """{lang: its future's result}. A worker that had ended (killed, out of memory) is
        replaced by a new one, so the next build runs, and its result is that failure."""
        results = {}
        for lang, future in futures.items():
            try:
                results[lang] = future.result()  # raises a worker's unexpected error
            except BrokenProcessPool:
                self._workers[lang].shutdown(wait=True)
                self._workers[lang] = self._new_worker()
                why = f"the {lang} build's process had ended (killed, or out of memory); a new one was started"
                results[lang] = LanguageResult(Outcome.WORKER_ENDED, why)
        return results

    @cached_property
    def _default_config(self):
        """The default language's configuration, read when `serve` asks for its folders (not
        by `build`, which would read it beside the workers' own reading, on the same cores)."""
        from mkdocs.config import load_config

        return load_config(str(self.config_file))

    @property
    def docs_root(self) -> Path:
        return docs_root(self._default_config)

    @property
    def data_dir(self) -> Path:
        from releasekb.site.plugin_config import data_dir_of

        return data_dir_of(self._default_config)

    @property
    def site_url(self) -> str:
        return self._default_config.site_url or ""

    def build_into(self, site_dir: Path) -> bool:
        """Build the site into a new folder beside site_dir and swap it in only on success,
        so a failed build (bad data, a strict-mode warning) leaves the previous site as it was.
        Raises SiteFolderRefused, before anything is touched, when site_dir is one of the
        project's own folders or holds what no build wrote (site_folder.py)."""
        sources = self._sources()
        for result in sources.values():
            if isinstance(result, Sources):
                project = self.config_file.parent
                check_site_folder(site_dir, project, {"data folder": result.data, "docs folder": result.docs})
        site_dir = site_dir.resolve()
        site_dir.parent.mkdir(parents=True, exist_ok=True)  # as MkDocs makes its site_dir
        _put_back_previous_site(site_dir)
        staging = leftovers.temporary_folder(f".{site_dir.name}-staging-", site_dir.parent)
        built = False
        try:
            with self._workers_stopped_if_interrupted():  # first: they would write on into the staging folder
                languages = self.languages
                if self._run({lang: staging / lang for lang in languages}, False, sources) is not Outcome.BUILT:
                    print(f"{site_dir} was left as it was", file=sys.stderr, flush=True)
                    return False
                default = staging / languages[0]
                for lang in languages[1:]:  # each other language's site goes under <lang>/
                    (staging / lang).rename(default / url_prefix(lang, languages))
                mark(default)
                _swap(default, site_dir)
                built = True
                return True
        finally:
            if self.serving and not self._stopped:  # the outputs held for after the build: placed, or dropped
                for lang, worker in self._workers.items():
                    with contextlib.suppress(BrokenProcessPool):  # a worker that ended holds no jobs
                        if built:
                            worker.submit(_release_jobs, {staging / lang: site_dir / url_prefix(lang, self.languages)})
                        else:
                            worker.submit(_drop_jobs)
            shutil.rmtree(staging, ignore_errors=True)

    def update(self, site_dir: Path) -> bool:
        """Rebuild, in place, only the pages whose generated file changed since the last
        build (MkDocs' dirty build); falls back to a whole build when pages were removed."""
        languages = self.languages
        site_dirs = {lang: site_dir.resolve() / url_prefix(lang, languages) for lang in languages}
        with self._workers_stopped_if_interrupted():
            outcome = self._run(site_dirs, dirty=True)
        if outcome is Outcome.NEEDS_FULL_BUILD:
            return self.build_into(site_dir)
        return outcome is Outcome.BUILT

    def _run(self, site_dirs: dict[str, Path], dirty: bool, sources: dict | None = None) -> Outcome:
        """Build every language from the data files read once for all of them. Returns BUILT,
        NEEDS_FULL_BUILD when a language cannot build dirty, or the failure (printed).
        sources: each language's folders, when the caller has read them already."""
        progress.reset(self.counters)
        sources = sources or self._sources()
        broken = [result for result in sources.values() if isinstance(result, LanguageResult)]
        if broken:
            return _reported(broken)
        data = _read_once({lang: result.data for lang, result in sources.items()}, self.unreleased)
        futures = {
            lang: self._submit(
                lang,
                _build_one_language,
                str(config),
                lang,
                str(site_dirs[lang]),
                self.strict,
                dirty,
                self.serving,
                data[lang],
            )
            for lang, config in self.configs.items()
        }
        with progress.Reporter(self.counters, self.languages):
            wait(futures.values())  # every language, even after one failed: its staging folder goes only then
        results = list(self._results(futures).values())
        self.site_url_set = any(result.site_url for result in results)
        return _reported(results)

    def _sources(self) -> dict[str, Sources | LanguageResult]:
        """{lang: the folders its configuration names, or why the configuration cannot be read}."""
        sources = self._ask_sources()
        ended = [
            result.report
            for result in sources.values()
            if isinstance(result, LanguageResult) and result.outcome is Outcome.WORKER_ENDED
        ]
        if ended:  # while it waited between builds (under serve): the new one builds
            print("\n".join(ended), file=sys.stderr, flush=True)
            sources = self._ask_sources()
        return sources

    def _ask_sources(self) -> dict[str, Sources | LanguageResult]:
        configs = self.configs.items()
        futures = {lang: self._submit(lang, _sources, str(config), self.strict) for lang, config in configs}
        return self._results(futures)

    def close(self) -> None:
        for worker in self._workers.values():
            worker.shutdown(cancel_futures=True)

    @contextlib.contextmanager
    def _workers_stopped_if_interrupted(self):
        """An interruption (Interrupted, Ctrl-C, sys.exit) inside stops the workers before it goes
        on: the build is discarded, and they would write on into its folders."""
        try:
            yield
        except (Interrupted, KeyboardInterrupt, SystemExit):
            self.stop_workers()
            raise

    def stop_workers(self) -> None:
        """End the language workers now, for an interrupted build whose output is discarded: each
        stops the commands it runs (Pagefind) and ends (_stop_worker); this returns once they have
        ended, so nothing writes into the build's folders any more. The builder is then only
        closed: it builds nothing more."""
        self._stopped = True
        workers = multiprocessing.active_children()  # this process's children: the workers
        for worker in workers:
            with contextlib.suppress(ProcessLookupError):  # ended already (killed, out of memory)
                os.kill(worker.pid, _STOP_WORKER)
        for worker in workers:
            worker.join()


def _read_once(folders: dict[str, Path], unreleased: bool) -> dict[str, DataFiles]:
    """{lang: the data files its build uses}: each data folder read once, for every language;
    `unreleased`: with the notes, as the preview of the next release."""
    with_notes = NotesAs() if unreleased else None
    read = {folder: read_files(folder, with_notes) for folder in set(folders.values())}
    return {lang: read[folder] for lang, folder in folders.items()}


def _reported(results: list[LanguageResult]) -> Outcome:
    """The outcome of the languages' builds together; what failed is printed (data problems
    once, not once per language)."""
    failures = [result for result in results if result.outcome is not Outcome.BUILT]
    if any(result.outcome is Outcome.NEEDS_FULL_BUILD for result in failures):
        return Outcome.NEEDS_FULL_BUILD
    data_problems = {result.report for result in failures if result.outcome is Outcome.INVALID_DATA}
    # each once: a full disk fails every language the same way
    for report in data_problems or dict.fromkeys(f"build failed: {result.report}" for result in failures):
        print(report, file=sys.stderr, flush=True)
    if not failures:
        return Outcome.BUILT
    return Outcome.INVALID_DATA if data_problems else Outcome.BUILD_FAILED


def _without_gzip_time(site: Path) -> None:
    """MkDocs stamps a language's sitemap.xml.gz's gzip header with the build day; without it two
    builds of the same sources are byte-identical whenever they run."""
    packed = site / "sitemap.xml.gz"
    if packed.is_file():
        packed.write_bytes(gzip.compress(gzip.decompress(packed.read_bytes()), mtime=0))


def _put_back_previous_site(site_dir: Path) -> None:
    """Undo a swap that a kill (SIGKILL, power loss) interrupted: the previous site moved aside
    and the new one not yet in place. (A killed build's staging folder is removed by
    leftovers.temporary_folder when the next build makes its own.) Only a site a build wrote."""
    previous = previous_site(site_dir)
    if is_marked(previous) and not os.path.lexists(site_dir):
        previous.rename(site_dir)


def _swap(new: Path, site_dir: Path) -> None:
    """Replace site_dir by new with two renames: at every moment either the previous site or the
    new one is complete on disk (`_put_back_previous_site` puts the previous back if we are killed
    between the renames). What it removes, check_site_folder found empty or written by a build."""
    previous = previous_site(site_dir)
    _remove_site(previous)
    if os.path.lexists(site_dir):
        site_dir.rename(previous)
    new.rename(site_dir)
    _remove_site(previous)


def _remove_site(folder: Path) -> None:
    """Remove folder if a build wrote it (or it is empty): never anything else, whatever changed
    since check_site_folder looked."""
    if os.path.lexists(folder) and replaceable(folder):
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def _forking():
    """Around forking the workers: SIGINT, SIGTERM and _STOP_WORKER wait (blocked, then delivered)
    until the worker has set its own handlers (_start_worker), instead of reaching it with the
    builder's."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _INTERRUPTS | {_STOP_WORKER})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


@contextlib.contextmanager
def _interruptible():
    """SIGINT and SIGTERM raise Interrupted in the main thread while the block runs; after the
    first, both are ignored, so that a second Ctrl-C does not break the clean-up off halfway."""

    def interrupt(signum: int, frame) -> None:
        for interrupt_signal in _INTERRUPTS:
            signal.signal(interrupt_signal, signal.SIG_IGN)
        raise Interrupted(signum)

    before = {interrupt_signal: signal.getsignal(interrupt_signal) for interrupt_signal in _INTERRUPTS}
    for interrupt_signal in _INTERRUPTS:
        signal.signal(interrupt_signal, interrupt)
    try:
        yield
    finally:
        for interrupt_signal, handler in before.items():
            signal.signal(interrupt_signal, handler)


def exit_on_sigterm() -> None:
    """Let SIGTERM (`kill`, a service manager, a test harness) end the command the way Ctrl-C
    does, so the `finally` blocks run: the language workers are shut down and temporary
    folders removed, instead of workers left running without their parent."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))


def build_site(config_file: str, site_dir: Path, unreleased: bool = False) -> bool:
    """`releasekb build`: the whole site into site_dir, replaced only on success. Raises
    SiteFolderRefused (site_folder.py) before anything is touched; Interrupted by SIGINT or
    SIGTERM, once the workers have stopped and the staging folder is gone; BuildFailed when
    the site cannot be written (a full disk, a read-only folder), site_dir left as it was."""
    start = time.perf_counter()
    with _interruptible():
        builder = None
        try:
            builder = SiteBuilder(config_file, unreleased=unreleased)
            if not builder.build_into(site_dir):
                return False
        except OSError as error:
            raise BuildFailed(
                f"cannot write the site into {visible(site_dir)} ({os_error_text(error)}); it was left as it was"
            ) from None
        finally:
            if builder is not None:
                builder.close()
            _put_back_previous_site(site_dir.resolve())  # if the swap was cut off between its renames
    print(f"site built in {site_dir} ({time.perf_counter() - start:.1f} s)")
    if not builder.site_url_set:
        print(SITE_URL_MISSING, file=sys.stderr)
    return True


class BuildFailed(Exception):
    """The site could not be written; the message says where and why, in one sentence."""


def os_error_text(error: OSError) -> str:
    """An OSError in a few words: the path it names and what the system said."""
    if error.filename is not None and error.strerror:
        return f"{visible(error.filename)}: {error.strerror}"
    return f"the site: {error.strerror}" if error.strerror else visible(str(error))


# Said once per build: a site published without its address works at the domain's root only.
SITE_URL_MISSING = (
    "warning: no site address (site_url in mkdocs.yml, or RELEASEKB_SITE_URL): the sitemap, the feeds' and "
    "the API's absolute links, canonical links and a 404 page under a sub-path need it; set it before deploying"
)
