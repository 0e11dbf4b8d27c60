"""`releasekb serve`: build both languages, serve them as one site with MkDocs' live-reload
server, and rebuild when the data, the hand-written docs or the configuration change (only the
pages whose generated file changed, when only the data changed).

MkDocs' server holds every request, even for a stylesheet, until a rebuild returns: a rebuild
here never raises, so a fault (a data file turned into a folder) leaves the last good site served.
"""

from __future__ import annotations

import os
import shutil
import socket
import sys
import time
import traceback
from pathlib import Path
from urllib.parse import urlsplit

from releasekb.common.i18n import LANGUAGES
from releasekb.common.safe_text import visible_block
from releasekb.kb.validate import read_files
from releasekb.site import leftovers
from releasekb.site.build import SiteBuilder, exit_on_sigterm
from releasekb.site.generate import generated_roots


def serve_site(config_file: str, dev_addr: str) -> None:
    """`releasekb serve`: build both languages, serve them as one site with live reload, and
    rebuild when the data, the hand-written docs or the configuration change."""
    from mkdocs.livereload import LiveReloadServer

    exit_on_sigterm()
    builder = SiteBuilder(config_file, strict=False, serving=True)
    host, _, port = dev_addr.rpartition(":")
    served = leftovers.temporary_folder("releasekb-serve-") / "site"
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

    def rebuild_or_say_why() -> None:
        try:
            rebuild()
        except Exception:  # any fault: said, and the last good site stays served (see above)
            print(visible_block(traceback.format_exc()), file=sys.stderr)
            print("site not rebuilt: the last good site is still served", file=sys.stderr, flush=True)

    server = LiveReloadServer(
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
    try:
        rebuild_or_say_why()
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
        return read_files(self.builder.data_dir).fingerprint, tuple(stats)
