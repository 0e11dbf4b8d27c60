"""`releasekb serve`: build both languages, serve them as one site with MkDocs' live-reload
server, and rebuild when the data, the hand-written docs or the configuration change (only the
pages whose generated file changed, when only the data changed).

MkDocs' server holds every request, even for a stylesheet, until a rebuild returns: a rebuild
here never raises, so a fault (a data file turned into a folder, a page that cannot be read)
leaves the last good site served, and says so only when there is one.

Ctrl-C and SIGTERM end serve the same way: one line, the language workers shut down and the
served folder removed.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import stat
import sys
import time
import traceback
from pathlib import Path
from urllib.parse import urlsplit

from releasekb.common.locales import team_signature
from releasekb.common.safe_text import visible, visible_block
from releasekb.kb.notes import NotesAs
from releasekb.kb.validate import read_files
from releasekb.site import leftovers
from releasekb.site.build import Interrupted, SiteBuilder
from releasekb.site.markdown_export import generated_roots


def serve_site(config_file: str, dev_addr: str) -> int:
    """`releasekb serve`: build every language, serve them as one site with live reload, and
    rebuild when the data, the hand-written docs or the configuration change. Returns the exit
    status once Ctrl-C (0: the usual way to end serve) or SIGTERM (128 + its number) stops it."""
    builder = served = None
    stop = _StopSignals()  # before the workers start: they set their own (build._start_worker)
    try:
        builder = SiteBuilder(config_file, strict=False, serving=True)
        served = leftovers.temporary_folder("releasekb-serve-") / "site"
        _serve(builder, served, dev_addr, stop)
    except Interrupted as stopped:
        signum = stopped.signum
    finally:
        if builder is not None:
            builder.close()  # waits for a build the workers run: they write into the served folder
        if served is not None:
            shutil.rmtree(served.parent, ignore_errors=True)
    print(f"serve stopped ({signal.Signals(signum).name})", file=sys.stderr, flush=True)
    return 0 if signum == signal.SIGINT else 128 + signum


class _StopSignals:
    """Ctrl-C and SIGTERM raise build.Interrupted in serve, once: the second is ignored, as it
    would cut the clean-up short. A terminal sends Ctrl-C to the whole process group, and a
    service manager SIGTERM: the language workers and the Pagefind they run ignore both, and a
    build that the signal interrupts stops them itself (SiteBuilder), rather than each printing a
    KeyboardInterrupt traceback or a failed search index.

    An exception raised from a signal handler lands wherever the main thread is, and a library's
    `except:` (an optional import's fallback, in a first build's imports) can swallow it: the
    signal is also kept, and `raise_if_asked` raises it again after every rebuild."""

    def __init__(self):
        self.signum: int | None = None
        self._serve_pid = os.getpid()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, self._stop)

    def _stop(self, signum: int, frame) -> None:
        if os.getpid() != self._serve_pid:  # a child forked before it set its own handler: not for it
            return
        for interrupt_signal in (signal.SIGINT, signal.SIGTERM):
            signal.signal(interrupt_signal, signal.SIG_IGN)
        self.signum = signum
        raise Interrupted(signum)

    def raise_if_asked(self) -> None:
        if self.signum is not None:
            raise Interrupted(self.signum)


def _serve(builder: SiteBuilder, served: Path, dev_addr: str, stop: _StopSignals) -> None:
    """Build into `served`, then serve it and rebuild on every change, until a signal stops it."""
    from releasekb.serve.handler import ServeServer

    host, _, port = dev_addr.rpartition(":")
    rebuild_or_say_why = _Rebuilds(builder, served, stop)
    server = ServeServer(
        builder=rebuild_or_say_why,
        host=host,
        port=int(port),
        root=str(served),
        mount_path=urlsplit(builder.site_url).path or "/",
        # The watched sources are a few small folders (see _ServeSources.watched), so polling
        # them often is cheap; MkDocs' 0.5 s was a quarter of the time an edit takes to show.
        polling_interval=0.1,
    )
    server.error_handler = lambda code: (served / "404.html").read_bytes() if (served / "404.html").is_file() else None
    # A burst of connections (a browser opening a page's assets, a link checker) waits in the
    # queue while the server's one thread accepts them: socketserver's queue of 5 refused the rest.
    server.request_queue_size = socket.SOMAXCONN
    # Watching starts before the first build, so that a change saved while it runs (the fix of
    # a file it names) brings the next build rather than going unseen.
    for path, recursive in rebuild_or_say_why.sources.watched():
        server.watch(str(path), recursive=recursive)
    server.observer.start()
    rebuild_or_say_why()
    try:
        server.serve()
    finally:
        server.shutdown()


class _Rebuilds:
    """serve's builder for MkDocs' server: called once to begin, then on every change of a source.
    Never raises (see the module's docstring): a fault is said in one sentence."""

    def __init__(self, builder: SiteBuilder, served: Path, stop: _StopSignals):
        self.builder = builder
        self.served = served
        self.sources = _ServeSources(builder)
        self.stop = stop

    def __call__(self) -> None:
        try:
            self._rebuild()
        except Exception as error:  # any fault: said, and the last good site, if any, stays served
            self.stop.raise_if_asked()  # the fault may be a stop signal a library turned into another error
            if isinstance(error, OSError) and error.filename:  # a file that changed after state() looked
                self._say_not_rebuilt(
                    f"{_shown(error.filename)} cannot be read ({str(error.strerror or error).lower()})"
                )
            else:
                print(visible_block(traceback.format_exc()), file=sys.stderr)
                self._say_not_rebuilt("an unexpected error")
        self.stop.raise_if_asked()  # one a library's `except:` swallowed

    def _rebuild(self) -> None:
        sources = self.sources
        state = sources.state()
        if state == sources.built:
            return  # only generated pages changed: the build that wrote them is already served
        unreadable = _ServeSources.unreadable(state)
        if unreadable:  # MkDocs would fail on it (or wait forever on a FIFO): said, and not built
            for path, why in unreadable:
                self._say_not_rebuilt(f"{_shown(path)} {why}")
            return
        start = time.perf_counter()
        only_data_changed = sources.built is not None and sources.built[1] == state[1]
        if self.builder.update(self.served) if only_data_changed else self.builder.build_into(self.served):
            sources.built = state
            print(f"site rebuilt in {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)

    def _say_not_rebuilt(self, why: str) -> None:
        """Why the site was not rebuilt, and what is served meanwhile: the last good site, if
        there is one (before the first build succeeds, nothing)."""
        if self.sources.built is None:
            said = f"site not built: {why} (nothing is served until it builds)"
        else:
            said = f"site not rebuilt: {why} (the last good site is still served)"
        print(said, file=sys.stderr, flush=True)


def _shown(path: str | Path) -> str:
    """A path for the log: relative to the current folder when inside it, control characters visible."""
    path = Path(path)
    try:
        path = path.relative_to(Path.cwd())
    except ValueError:
        pass
    return visible(path)


class _ServeSources:
    """What a rebuild under `serve` depends on, and whether it changed since the last build. The
    generated folders of docs/ are not sources: a build replaces what is there with the pages it
    makes (plugin_modes.WholeSite), so `releasekb export` writing them is no reason to build."""

    def __init__(self, builder: SiteBuilder):
        self.builder = builder
        self.built: tuple | None = None

    def watched(self) -> list[tuple[Path, bool]]:
        """(path, recursive) for every source: the data, the configurations and the hand-written
        docs, not the generated folders (an export's thousands of pages at scale, which no build
        reads: the server polls what it watches)."""
        docs = self.builder.docs_root
        generated = {root.resolve() for root in generated_roots(docs, self.builder.languages)}
        configs = dict.fromkeys(self.builder.configs.values())  # one file may configure several languages
        watched = [(self.builder.data_dir, True), *((config, False) for config in configs)]
        for top in sorted(docs.iterdir()) if docs.is_dir() else []:
            if _left_out_by_mkdocs(top.name) or not top.exists():
                continue  # not a source (an editor's lock file, a dangling symlink: state() says why)
            if top.name not in self.builder.languages or not top.is_dir():
                watched.append((top, True))
                continue
            watched.append((top, False))  # a language's own files (about.md)
            watched += [(sub, True) for sub in sorted(top.iterdir()) if sub.is_dir() and sub.resolve() not in generated]
        return watched

    def state(self) -> tuple:
        """((the data's fingerprint, its interface strings' locales.team_signature), each source
        file's (path, mtime, size), or (path, why) when it cannot be read). Files MkDocs leaves out
        of every site (names starting with a dot, such as the `.#about.md` lock file, a dangling
        symlink, an editor makes) are not sources."""
        stats = []
        generated = {root.resolve() for root in generated_roots(self.builder.docs_root, self.builder.languages)}

        def folder_unreadable(error: OSError) -> None:
            if not isinstance(error, FileNotFoundError):  # a folder removed as we looked is no problem
                stats.append((str(error.filename), f"is a folder that cannot be read ({error.strerror.lower()})"))

        for directory, subdirs, files in os.walk(self.builder.docs_root, onerror=folder_unreadable):
            here = Path(directory).resolve()
            subdirs[:] = sorted(d for d in subdirs if here / d not in generated and not _left_out_by_mkdocs(d))
            for name in sorted(files):
                if here / name not in generated and not _left_out_by_mkdocs(name):
                    stats += _file_state(here / name)
        for config in self.builder.configs.values():
            stats += _file_state(config)
        data_dir = self.builder.data_dir
        with_notes = NotesAs()  # a saved note changes the preview of the next release
        return (read_files(data_dir, with_notes).fingerprint, team_signature(data_dir)), tuple(stats)

    @staticmethod
    def unreadable(state: tuple) -> list[tuple[str, str]]:
        """(path, why) for each source in `state` that cannot be read."""
        return [(entry[0], entry[1]) for entry in state[1] if len(entry) == 2]


def _left_out_by_mkdocs(name: str) -> bool:
    """Whether MkDocs leaves a file or folder of this name out of every site: its `exclude_docs`
    always holds `.*` (editors' lock and swap files, `.DS_Store`, `.git`)."""
    return name.startswith(".")


def _file_state(path: Path) -> list[tuple]:
    """[(path, mtime, size)] for a file MkDocs can read; [(path, why)] for one it cannot (it reads
    every page and copies every other file, and would fail, or wait forever on a FIFO); [] for a
    file removed as we looked."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return [(str(path), "is a symlink to a missing file")] if path.is_symlink() else []
    except OSError as error:  # a symlink loop, a name too long
        return [(str(path), f"cannot be read ({error.strerror.lower()})")]
    if not stat.S_ISREG(status.st_mode):
        return [(str(path), "is not a regular file (a FIFO, a socket or a device)")]
    if not os.access(path, os.R_OK):
        return [(str(path), "cannot be read (permission denied)")]
    return [(str(path), status.st_mtime_ns, status.st_size)]
