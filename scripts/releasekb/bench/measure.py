"""`releasekb bench`: how the build scales against plain MkDocs, and what a reader and a curator feel.

For each shape (releases x entries per release) a synthetic corpus shaped like the real data
is written: texts of realistic length in both languages, features introduced, promoted,
improved, extended (`part_of`), deprecated, broken and removed across releases; the same
`--seed` always gives the same corpus. After an untimed warm-up (a tiny shape's builds), first
for every shape:

- load, validate, catalog and render are timed in this process (best of --repeat runs);
- the real build is timed as a curator runs it, `releasekb build` in a copy of the project,
  so it measures whatever the build does today; its peak memory is the largest sum of the
  resident memory of the build process and its workers, sampled from /proc. This first build
  of a fresh project is what CI pays;
- the baseline: plain MkDocs + Material + Material's search plugin builds one plain Markdown
  page per generated page, carrying the same text in both languages, the two language builds
  at once in two processes as ours are, the Chinese one segmented with jieba (Material's
  search does so when it can import jieba). Its configuration is the bench's own, whatever
  the project's says, so the baseline stays plain MkDocs + Material + search;
- the build and the baseline are alternated `--pairs` times (3 by default), each time in new
  folders: the times reported are the medians, the ratio the median of the pairs' ratios. A
  pair is measured within the same minute, and the machine's speed drifts between minutes
  (one run's first builds were a fifth slower than the next's, the baseline's too);

then for every shape (these delete thousands of files, which on some file systems slows the
files made in the next minutes, so they come after every first build: see run):

- the rebuild: `releasekb build` again in the same project, its data unchanged, as a curator
  builds again;
- the reader's search, where Chromium is installed (Debian's, driven by Playwright): the built
  site served by a static server, a fresh browser opens each language's home page, clicks the
  header search and types a query; measured are the seconds from the click until the first
  result shows, timed in the page, and the search data transferred until then (see measure_search);
- the curator's edit: `releasekb serve` starts (seconds until the home page answers; its cache
  empty, as the build's was), then one line of the newest release file changes (an entry's
  English summary becomes a unique marker) and its release page is polled until it serves
  the marker (seconds from the write).

Ratios reported: build / baseline per shape; twice the releases and twice the entries per
release against the first shape; pages per second; peak memory; the largest HTML page.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import importlib.util
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from releasekb.bench.browser import CHROMIUM, Transfer, chromium, chromium_unavailable_reason, free_port, static_server
from releasekb.bench.corpus import Corpus, dump_yaml
from releasekb.common.i18n import url_prefix
from releasekb.common.markup import without_tags

# The pipeline's modules are imported where they are timed, so that `releasekb --help` and
# every other command do not pay for them.

DEFAULT_SHAPES = ("20x60", "40x60", "20x120", "80x60")
SMOKE_SHAPES = ("2x6", "4x6", "2x12")
WARM_UP_SHAPE = "2x4"
STAGES = ("load", "validate", "catalog", "render", "build", "plain_mkdocs", "rebuild")
BUILD_COMMAND = [sys.executable, "-m", "releasekb.cli", "build"]  # as a curator runs it

# ------------------------------------------------------------------------------- measuring


def best_time(action, repeat: int):
    """(seconds of the fastest run, the last run's result)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
    return best, result


def _trees_rss(roots: list[int]) -> int:
    """Resident bytes of some processes and all their descendants together (Linux /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        rss[int(entry.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    tree, frontier = set(roots), list(roots)
    while frontier:
        children = [pid for pid, parent in parents.items() if parent in frontier and pid not in tree]
        tree.update(children)
        frontier = children
    return sum(rss.get(pid, 0) for pid in tree)


def command_env(cache: Path | None = None, *, served_at_root: bool = False) -> dict[str, str]:
    """The environment of every releasekb or MkDocs command the bench and the tests start, read
    when it starts (a test may have set a variable). With `cache`, a cache folder of its own
    (empty at first): the command segments and compiles what a first run does, and leaves the
    user's cache alone. With served_at_root, without RELEASEKB_SITE_URL, so that the site is
    served at /."""
    env = {key: value for key, value in os.environ.items() if not (served_at_root and key == "RELEASEKB_SITE_URL")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    if cache is not None:
        env["XDG_CACHE_HOME"] = str(cache)
    return env


def measured_env(cache: Path) -> dict[str, str]:
    """The environment of a command the bench times: command_env, with its own empty cache, and
    with Python writing the bytecode of the modules it compiles. An installed package has its
    bytecode (pip compiles it as it installs), and so do MkDocs and Material here; a checkout run
    where PYTHONDONTWRITEBYTECODE is set would compile every module of ours again in every
    process of every build, which no installed user pays: the warm-up's builds write it once."""
    env = command_env(cache, served_at_root=True)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_measured(commands: list[list[str]], cwd: Path) -> tuple[float, int]:
    """Run commands all at once, each in its own process; return (wall seconds until the last
    ends, peak resident bytes of all their process trees together). Raises RuntimeError with a
    failed command's output."""
    env = measured_env(cwd / ".cache")
    start = time.perf_counter()
    processes = [
        subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for command in commands
    ]
    # A first sample before anything can reap them: on a busy machine the sampler thread may
    # first run after short commands have ended, and a peak of 0 would be a wrong answer.
    on_proc = Path("/proc/self/stat").exists()
    peak, done = _trees_rss([process.pid for process in processes]) if on_proc else 0, threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _trees_rss([process.pid for process in processes]))
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True) if on_proc else None
    if sampler:
        sampler.start()
    # Read each output to its end in a thread of its own: a full pipe would stall its process.
    outputs: list[bytes] = [b""] * len(processes)
    readers = [
        threading.Thread(target=lambda i=i: outputs.__setitem__(i, processes[i].communicate()[0]))
        for i in range(len(processes))
    ]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    seconds = time.perf_counter() - start
    done.set()
    if sampler:
        sampler.join()
    for command, process, output in zip(commands, processes, outputs, strict=True):
        if process.returncode != 0:
            tail = output.decode(errors="replace")[-3000:]
            raise RuntimeError(f"{' '.join(command)} failed in {cwd}:\n{tail}")
    return seconds, peak


def copy_project(root: Path, target: Path, data_dir: Path) -> Path:
    """The project's site sources (configurations, hand-written docs, not the pages the build
    generates) with `data_dir` as its releases/; the plugin, its theme and its assets come from
    the installed package. The bench and the tests both start their projects here."""
    from releasekb.kb.urls import GENERATED_PATHS

    target.mkdir(parents=True, exist_ok=True)
    for config in root.glob("mkdocs*.yml"):
        shutil.copy(config, target / config.name)
    docs = root / "docs"
    for item in docs.iterdir():
        if item.is_dir() and item.name not in LANGUAGES:
            shutil.copytree(item, target / "docs" / item.name)
    for lang in LANGUAGES:
        (target / "docs" / lang).mkdir(parents=True, exist_ok=True)
        for page in (docs / lang).glob("*") if (docs / lang).is_dir() else []:
            if page.is_file() and page.name not in GENERATED_PATHS:
                shutil.copy(page, target / "docs" / lang / page.name)
    shutil.copytree(data_dir, target / "releases")
    return target


# -------------------------------------------------------------------- the plain MkDocs baseline

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_HEADING = re.compile(r"<h([1-6])[^>]*>(.*?)</h\1>")
_BLOCK_END = re.compile(r"</(?:p|li|tr|div|table|ul|section|form)>|<br>")


def plain_markdown(page_html: str) -> str:
    """A generated page's text as plain Markdown: its headings as Markdown headings, every
    paragraph, list item and table row a paragraph, every other tag dropped."""
    text = _FRONT_MATTER.sub("", page_html)
    text = _HEADING.sub(lambda m: f"\n\n{'#' * int(m[1])} {without_tags(m[2]).replace('&para;', '')}\n\n", text)
    text = _BLOCK_END.sub("\n\n", text)
    lines = (line.strip() for line in without_tags(text, " ").splitlines())  # 4 spaces would make code
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))


def plain_config(lang: str, page_paths: list[str]) -> dict:
    """A self-contained MkDocs configuration for one language of the baseline: Material with
    its own search plugin and index, what a plain MkDocs site of these pages would use. It
    reads nothing of the project's configuration, so a change of ours (another search, another
    theme option) never changes what we are compared with. Not strict: plain text keeps no
    promise about links. `page_paths`: the language's pages, inside its docs folder."""
    sections = [path for path in page_paths if path == "index.md" or re.fullmatch(r"[^/]+/index\.md", path)]
    return {
        "site_name": "Plain MkDocs baseline",
        "docs_dir": f"docs/{lang}",
        # One folder per language, side by side: a build cleans its site_dir first, so one
        # language's site inside the other's would be deleted by the build running beside it.
        "site_dir": f"site/{lang}",
        "strict": False,
        "theme": {
            "name": "material",
            "language": lang,
            "font": False,
            "features": [
                "navigation.tabs",
                "navigation.top",
                "navigation.footer",
                "search.highlight",
                "content.code.copy",
            ],
        },
        # Material segments Han text with jieba when it can import it; Chinese pages also name
        # APIs in English, hence both languages' rules for the Chinese index, as our site has.
        "plugins": [{"search": {"lang": "en" if lang == "en" else ["en", lang]}}],
        # The theme features and Markdown extensions of a typical Material site (and of ours).
        "markdown_extensions": [
            "admonition",
            "attr_list",
            "md_in_html",
            "tables",
            {"toc": {"permalink": True}},
            "pymdownx.superfences",
            "pymdownx.details",
        ],
        # Only the section index pages in the navigation: Material renders the whole navigation
        # into every page, so thousands of entries would make any MkDocs build quadratic.
        "nav": sections,
        "not_in_nav": "\n".join(f"/{path.removesuffix('index.md')}*.md" for path in sections if path != "index.md"),
    }


def plain_project(target: Path, pages: dict[str, str]) -> list[Path]:
    """Plain MkDocs over the same pages: one plain Markdown page per generated page with its
    text (plain_markdown), and a configuration per language (plain_config). Returns the
    configurations, one per language. Raises RuntimeError without jieba: unsegmented Chinese
    would be a cheaper baseline than the one this site is compared with."""
    if importlib.util.find_spec("jieba") is None:
        raise RuntimeError(
            "the baseline segments its Chinese search index with jieba, as Material does: "
            "pip install 'releasekb[bench]'"
        )
    target.mkdir(parents=True)
    configs = []
    for lang in LANGUAGES:
        prefix = f"{lang}/"
        paths = [path.removeprefix(prefix) for path in pages if path.startswith(prefix)]
        config = target / f"mkdocs.{lang}.yml"
        config.write_text(dump_yaml(plain_config(lang, paths)), encoding="utf-8")
        configs.append(config)
    for path, html in pages.items():
        page = target / "docs" / path
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(plain_markdown(html), encoding="utf-8")
    return configs


def measure_plain_mkdocs(pages: dict[str, str], work: Path) -> tuple[float, int]:
    """(seconds, peak resident bytes) of the baseline's language builds, run at once."""
    configs = plain_project(work, pages)
    commands = [[sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)] for config in configs]
    return run_measured(commands, work)


# -------------------------------------------------------------------------- the reader's search

# What a reader types, per language: words every corpus writes (an area's name, ADJECTIVES
# and ZH_WORDS), so that every shape's search has results to show.
SEARCH_QUERIES = {"en": "distributed", "zh": "分布式"}
# The bench's corpus is this repository's PyTorch knowledge base (corpus.py): English and Chinese.
LANGUAGES = tuple(SEARCH_QUERIES)
SEARCH_BOX = ".md-search__input"  # Material's header search box
SEARCH_RESULT = ".md-search-result__item"  # one result in Material's result list
SEARCH_TIMEOUT = 120  # seconds for a page to open or a search to answer
VIEWPORT = {"width": 1280, "height": 800}  # wide enough for the search box in the header
# The control page load: Material starts its search (its worker, which fetches the search
# data) only on a page with the search form, so this init script takes the header search out
# of the page as it is parsed, before Material's script runs.
_WITHOUT_SEARCH = """
new MutationObserver(records => {
  for (const record of records)
    for (const node of record.addedNodes)
      if (node.nodeType === 1 && node.matches('[data-md-component="search"]')) node.remove();
}).observe(document, {childList: true, subtree: true});
"""
SEARCH_DATA_COUNTED = (
    "body bytes, as the bench's static server sent them (whole and uncompressed: a host that "
    "compresses sends fewer), of every response from opening the page until the first result "
    "shows, except those the same page also loads when it has no search (checked in a control "
    "load without the header search): the search's index and code, whatever their names"
)


@dataclass
class SearchCost:
    seconds: float  # from the click into the search box until the first result shows, in the page
    body_bytes: int  # the search data transferred until then (SEARCH_DATA_COUNTED)
    paths: list[str]  # the responses counted
    # The search data of a page view without a search (a reader who never searches), counted
    # the same way, over as long as the searching reader's page was open.
    idle_bytes: int = 0
    idle_paths: list[str] = field(default_factory=list)


def _path(transfer: Transfer) -> str:
    return urlsplit(transfer.path).path


def paths_without_search(browser, url: str, transfers: list[Transfer], open_for: float) -> set[str]:
    """The paths a page loads by itself, search left out: opened with the header search taken
    out, for at least `open_for` seconds (as long as the reader's page was open until its
    first result: a page also fetches after it has loaded, Material its sitemaps) and until
    its network is idle."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(SEARCH_TIMEOUT * 1000)
    context.add_init_script(_WITHOUT_SEARCH)
    try:
        page = context.new_page()
        start = time.monotonic()
        page.goto(url)
        page.wait_for_timeout(max(0.0, open_for - (time.monotonic() - start)) * 1000)
        page.wait_for_load_state("networkidle")
        end = time.monotonic()
        if page.locator(SEARCH_BOX).count():
            raise RuntimeError(f"{url}: the control load still has a search box; search data cannot be told apart")
    finally:
        context.close()
    return {_path(transfer) for transfer in transfers if start <= transfer.received <= end}


def _open_without_searching(browser, url: str, open_for: float) -> tuple[float, float]:
    """Open `url` in a fresh browser with its search box, and leave it alone for at least
    `open_for` seconds and until its network is idle; returns the time.monotonic() of opening
    and of leaving."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(SEARCH_TIMEOUT * 1000)
    try:
        page = context.new_page()
        start = time.monotonic()
        page.goto(url)
        page.wait_for_timeout(max(0.0, open_for - (time.monotonic() - start)) * 1000)
        page.wait_for_load_state("networkidle")
        return start, time.monotonic()
    finally:
        context.close()


# What a reader sees, timed in the page (performance.now): the click into the search box (its
# pointerdown) and the first result in Material's list. Timed from Python the same moment came 0.1
# to 0.5 s later, varying from run to run: Playwright's wait for an element polls, and its
# messages cross processes.
_TIMED_IN_PAGE = f"""
addEventListener('pointerdown', () => {{ window.__rkbClicked ??= performance.now(); }}, true);
new MutationObserver(() => {{
  if (window.__rkbShown === undefined && document.querySelector('{SEARCH_RESULT}'))
    window.__rkbShown = performance.now();
}}).observe(document, {{childList: true, subtree: true}});
"""


def _first_results(browser, url: str, query: str) -> tuple[float, float, float, float]:
    """Open `url` in a fresh browser (nothing cached), click the header search and type
    `query`; returns the time.monotonic() of the page opening, of the first keystroke and of
    the first result shown (bounds for counting what was transferred), and the seconds from
    the click to the first result, timed in the page (_TIMED_IN_PAGE)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(SEARCH_TIMEOUT * 1000)
    context.add_init_script(_TIMED_IN_PAGE)
    try:
        page = context.new_page()
        opened = time.monotonic()
        page.goto(url)
        page.locator(SEARCH_BOX).click()
        typed = time.monotonic()
        page.keyboard.type(query)
        # Chinese characters are inserted without key events, as an input method commits them,
        # and Material reads the box on a key event: End, which types nothing, sends one.
        page.keyboard.press("End")
        page.locator(SEARCH_RESULT).first.wait_for(state="visible")
        shown = time.monotonic()
        clicked, first = page.evaluate("[window.__rkbClicked, window.__rkbShown]")
        return opened, typed, shown, (first - clicked) / 1000
    finally:
        context.close()


def measure_search(browser, base_url: str, transfers: list[Transfer], page_path: str, query: str) -> SearchCost:
    """What the first query costs a reader on a page: seconds from the click into the box to the
    first result, and the bytes of search data transferred from opening the page until then
    (SEARCH_DATA_COUNTED). Measured through the page and the network only, so it holds for any
    search behind Material's box: Material's lunr index (fetched as the page loads) or an index
    in fragments fetched per query. `transfers` is the static server's record of what it sent.
    Raises RuntimeError when the page shows no result, or no search data was counted."""
    from playwright.sync_api import Error as PlaywrightError

    url = base_url + page_path
    try:
        opened, typed, shown, seconds = _first_results(browser, url, query)
        page_own = paths_without_search(browser, url, transfers, open_for=shown - opened)
        idle_from, idle_to = _open_without_searching(browser, url, open_for=shown - opened)
    except PlaywrightError as error:
        raise RuntimeError(f"search for {query!r} on {url}: {str(error).splitlines()[0]}") from None
    counted = [t for t in transfers if opened <= t.received <= shown and _path(t) not in page_own]
    if not counted:
        raise RuntimeError(f"search for {query!r} on {url} showed results, but no search data was counted")
    idle = [t for t in transfers if idle_from <= t.received <= idle_to and _path(t) not in page_own]
    return SearchCost(
        seconds,
        sum(t.body_bytes for t in counted),
        sorted({t.path for t in counted}),
        sum(t.body_bytes for t in idle),
        sorted({t.path for t in idle}),
    )


def browser_unavailable_reason() -> str | None:
    """Why the reader's search cannot be measured here (None: Chromium launches)."""
    reason = chromium_unavailable_reason(CHROMIUM)
    if reason:
        return reason
    try:
        with chromium(CHROMIUM):
            return None
    except Exception as error:  # whatever stops Playwright from launching it
        return f"playwright cannot launch {CHROMIUM}: {str(error).splitlines()[0]}"


def search_data_on_disk(site: Path, lang: str) -> int:
    """Bytes of a language's search data in the built site: Material's search/ (its index)
    and Pagefind's pagefind/ (index, fragments and code), whichever the build wrote."""
    folders = [site / url_prefix(lang, LANGUAGES) / name for name in ("search", "pagefind")]
    return sum(path.stat().st_size for folder in folders for path in folder.rglob("*") if path.is_file())


# ------------------------------------------------------------------------ the curator's edit

SERVE_START_TIMEOUT = 600  # seconds: serve builds the whole site before it answers
EDIT_TIMEOUT = 120  # seconds from an edit until its page must be served
# An entry's English summary: its first line in a release file as Corpus writes it.
_ENTRY_SUMMARY_EN = re.compile(r"^(  summary:\n    en: ).*$", re.M)


def edit_newest_release(data_dir: Path, marker: str) -> str:
    """A curator's one-line edit: the English summary of the first entry of the newest release
    becomes `marker`, the file replaced at once, as editors save (written beside the data
    folder, so that the watcher never sees a half-written file). Returns the release's version."""
    from releasekb.common.versions import version_key
    from releasekb.kb.validate import release_paths

    newest = max(release_paths(data_dir), key=lambda path: version_key(path.stem))
    text = newest.read_text(encoding="utf-8")
    edited, count = _ENTRY_SUMMARY_EN.subn(lambda match: match[1] + json.dumps(marker), text, count=1)
    if not count:
        raise RuntimeError(f"{newest}: no entry summary to edit")
    written = data_dir.parent / f".{newest.name}.bench-edit"
    written.write_text(edited, encoding="utf-8")
    os.replace(written, newest)
    return newest.stem


def _http_body(url: str) -> bytes | None:
    """The body of a 200 answer from `url`; None for any other answer, or none yet."""
    try:
        with urllib.request.urlopen(url, timeout=EDIT_TIMEOUT) as response:
            return response.read() if response.status == 200 else None
    except (OSError, http.client.HTTPException):  # refused, reset, 404, cut short: not served yet
        return None


def _serve_log_tail(log_file: Path) -> str:
    return log_file.read_text(encoding="utf-8", errors="replace")[-3000:]


def _wait_for(condition, since: float, timeout: float, process: subprocess.Popen, what: str, log_file: Path) -> float:
    """Poll `condition` until it holds; return the seconds from `since` (a time.perf_counter())
    until then. RuntimeError, with serve's output, when serve ends or `timeout` seconds pass first."""
    while not condition():
        if process.poll() is not None:
            raise RuntimeError(f"serve ended (exit {process.returncode}) before {what}:\n{_serve_log_tail(log_file)}")
        if time.perf_counter() - since > timeout:
            raise RuntimeError(f"timed out after {timeout} s waiting for {what}:\n{_serve_log_tail(log_file)}")
        time.sleep(0.05)
    return time.perf_counter() - since


STOP_TIMEOUT = 30  # seconds for serve and its workers to end after SIGTERM


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)  # signal 0: nothing is sent, only whether the group has a process
    except ProcessLookupError:
        return False
    return True


def _stop(process: subprocess.Popen, log) -> None:
    """SIGTERM, as a terminal's Ctrl+C or a service manager would; serve ends its workers.
    Whatever of its process group is still running STOP_TIMEOUT seconds later is reported and
    killed: a serve that does not stop cleanly is worth knowing about."""
    process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    try:
        process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        log(f"serve (pid {process.pid}) did not end within {STOP_TIMEOUT} s of SIGTERM; killing it")
        process.kill()
        process.wait()
    # Its workers end after it does: wait for the group to empty.
    while _group_alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _group_alive(process.pid):
        log(f"serve (pid {process.pid}) left processes running {STOP_TIMEOUT} s after SIGTERM; killing them")
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def measure_serve(project: Path, log) -> tuple[float, float, str]:
    """(seconds from starting `releasekb serve` until it answers its home page, seconds from a
    one-line edit of the newest release until its page serves it, that page's address)."""
    from releasekb.kb.urls import page_url, release_path

    address = f"127.0.0.1:{free_port()}"
    log_file = project / "serve.log"
    with open(log_file, "wb") as output:
        started = time.perf_counter()
        # A session of its own: serve and its workers are one process group, ended together.
        process = subprocess.Popen(
            [sys.executable, "-m", "releasekb.cli", "serve", "--dev-addr", address],
            cwd=project,
            env=measured_env(project / ".cache-serve"),
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        home = f"http://{address}/"
        start_up = _wait_for(
            lambda: _http_body(home) is not None, started, SERVE_START_TIMEOUT, process, home, log_file
        )
        marker = f"Edited by the bench, marker {uuid.uuid4().hex}."
        edited = time.perf_counter()
        version = edit_newest_release(project / "releases", marker)
        page = f"/{url_prefix(LANGUAGES[0], LANGUAGES)}{page_url(release_path(version))}"

        def served() -> bool:
            return marker.encode() in (_http_body(f"http://{address}{page}") or b"")

        edit = _wait_for(served, edited, EDIT_TIMEOUT, process, f"the edit on {page}", log_file)
    finally:
        _stop(process, log)
    return start_up, edit, page


# -------------------------------------------------------------------------------- per shape


@dataclass
class ShapeResult:
    shape: str
    releases: int
    entries_per_release: int
    features: int = 0  # distinct ids (features and changes) in the catalog
    entries: int = 0
    pages_per_language: int = 0  # generated Markdown pages
    html_pages: int = 0  # index.html files of the built site, every language
    seconds: dict[str, float] = field(default_factory=dict)  # stage -> seconds
    build_peak_mb: float = 0.0
    plain_peak_mb: float = 0.0  # both baseline builds together
    largest_html_page: str = ""
    largest_html_mb: float = 0.0
    search_index_mb: dict[str, float] = field(default_factory=dict)  # search data on disk, per language
    pages_per_second: float = 0.0
    rebuild_pages_per_second: float = 0.0
    build_vs_plain: float = 0.0  # the median of the pairs' ratios
    # Each pair of first builds, alternated (measure_first_build): [ours, the baseline's] seconds.
    first_build_pairs: list[list[float]] = field(default_factory=list)
    # The curator under `releasekb serve` (measure_serve).
    serve_start_seconds: float | None = None
    edit_to_page_seconds: float | None = None
    edited_page: str = ""
    # The reader's first query, per language (measure_search); None where it was not measured.
    search_first_results_seconds: dict[str, float | None] = field(default_factory=dict)
    search_first_query_kb: dict[str, float | None] = field(default_factory=dict)
    search_counted: dict[str, list[str]] = field(default_factory=dict)  # the responses counted
    # ... and the search data of a page view without a search (SearchCost.idle_bytes)
    search_idle_kb: dict[str, float | None] = field(default_factory=dict)
    search_idle_counted: dict[str, list[str]] = field(default_factory=dict)
    search_unmeasured: str | None = None  # why the search columns are empty


def time_pipeline(result: ShapeResult, data_dir: Path, repeat: int) -> dict[str, str]:
    """Time load, validate, catalog and render in this process; returns the generated pages."""
    from releasekb.kb.catalog import build_catalog
    from releasekb.kb.loader import load_document
    from releasekb.kb.validate import PROJECT_FILE, load_data, release_paths
    from releasekb.site.render import render_all

    files = [data_dir / PROJECT_FILE, *release_paths(data_dir)]
    result.seconds["load"], _ = best_time(lambda: [load_document(path) for path in files], repeat)

    def load_and_validate_all():
        return load_data(data_dir)  # every file parsed: what `build` does, not a second load in `serve`

    load_and_validate, data = best_time(load_and_validate_all, repeat)
    result.seconds["validate"] = max(load_and_validate - result.seconds["load"], 0.0)
    result.seconds["catalog"], catalog = best_time(lambda: build_catalog(data), repeat)
    result.seconds["render"], pages = best_time(lambda: render_all(catalog), repeat)
    result.features = len(catalog.features)
    result.entries = sum(len(release.entries) for release in catalog.releases)
    pages = {path: text for path, text in pages.items() if path.endswith(".md")}  # not the features' filter text
    result.pages_per_language = len(pages) // len(LANGUAGES)
    return pages


def measure_site(result: ShapeResult, site: Path) -> None:
    """The sizes of a built site: its pages, the largest, the search data; pages per second."""
    html = list(site.rglob("*.html"))
    result.html_pages = sum(1 for path in html if path.name == "index.html")
    largest = max(html, key=lambda path: path.stat().st_size)
    result.largest_html_page = "/" + str(largest.parent.relative_to(site)).removeprefix(".") + "/"
    result.largest_html_mb = largest.stat().st_size / 2**20
    result.search_index_mb = {lang: search_data_on_disk(site, lang) / 2**20 for lang in LANGUAGES}
    result.pages_per_second = result.html_pages / result.seconds["build"]


def measure_reader_search(result: ShapeResult, site: Path, unavailable: str | None, log) -> None:
    """The first query of a reader in each language (measure_search), or why not (`unavailable`:
    the columns stay None)."""
    result.search_first_results_seconds = dict.fromkeys(SEARCH_QUERIES)
    result.search_first_query_kb = dict.fromkeys(SEARCH_QUERIES)
    result.search_idle_kb = dict.fromkeys(SEARCH_QUERIES)
    result.search_unmeasured = unavailable
    if unavailable:
        return
    log(f"{result.shape}: a reader's first search in Chromium ...")
    transfers: list[Transfer] = []
    with static_server(site, transfers) as base_url, chromium(CHROMIUM) as browser:
        for lang, query in SEARCH_QUERIES.items():
            cost = measure_search(browser, base_url, transfers, "/" + url_prefix(lang, LANGUAGES), query)
            result.search_first_results_seconds[lang] = cost.seconds
            result.search_first_query_kb[lang] = cost.body_bytes / 1024
            result.search_counted[lang] = cost.paths
            result.search_idle_kb[lang] = cost.idle_bytes / 1024
            result.search_idle_counted[lang] = cost.idle_paths
            log(
                f"{result.shape}: search {lang}: first results in {cost.seconds:.2f} s, {cost.body_bytes / 1024:.0f} KB"
                f" ({cost.idle_bytes / 1024:.0f} KB for a page view without a search)"
            )


def measure_people(result: ShapeResult, project: Path, browser_unavailable: str | None, log) -> None:
    """What people feel on a built project: a reader's first search, the curator's serve and edit."""
    measure_reader_search(result, project / "site", browser_unavailable, log)
    log(f"{result.shape}: releasekb serve and a one-line edit ...")
    result.serve_start_seconds, result.edit_to_page_seconds, result.edited_page = measure_serve(project, log)
    start_up, edit = result.serve_start_seconds, result.edit_to_page_seconds
    log(f"{result.shape}: serve answered in {start_up:.1f} s; the edit was served {edit:.2f} s after it was saved")


def measure_first_build(
    shape: str, root: Path, work: Path, seed: int, repeat: int, log, pairs: int = 1
) -> tuple[ShapeResult, Path]:
    """The first measurements of one shape (see the module's description), in order: the
    pipeline in process, then `pairs` times the build of a fresh project and the baseline,
    alternated (each pair in new folders: nothing is deleted between them). The times are the
    medians, the ratio the median of the pairs' ratios: on a machine whose speed drifts from one
    minute to the next, a pair is measured in the same minute. Returns the result and the first
    built project, for measure_the_rest."""
    releases, per_release = parse_shape(shape)
    result = ShapeResult(shape, releases, per_release)
    data_dir = work / "releases"
    log(f"{shape}: writing the corpus ({releases} releases x {per_release} entries, seed {seed})")
    Corpus(releases, per_release, seed).write(data_dir)
    pages = time_pipeline(result, data_dir, repeat)
    log(f"{shape}: {result.features} features, {result.pages_per_language} pages per language; pipeline timed")

    for number in range(1, pairs + 1):
        suffix = "" if number == 1 else f"-{number}"
        log(f"{shape}: releasekb build ({number} of {pairs}) ...")
        project = copy_project(root, work / f"project{suffix}", data_dir)
        build_seconds, peak = run_measured([BUILD_COMMAND], project)
        log(f"{shape}: plain MkDocs baseline, both languages at once ({number} of {pairs}) ...")
        plain_seconds, plain_peak = measure_plain_mkdocs(pages, work / f"plain{suffix}")
        result.first_build_pairs.append([build_seconds, plain_seconds])
        result.build_peak_mb = max(result.build_peak_mb, peak / 2**20)
        result.plain_peak_mb = max(result.plain_peak_mb, plain_peak / 2**20)
        log(f"{shape}: built in {build_seconds:.1f} s, plain MkDocs {plain_seconds:.1f} s")
    result.seconds["build"] = statistics.median(ours for ours, _ in result.first_build_pairs)
    result.seconds["plain_mkdocs"] = statistics.median(plain for _, plain in result.first_build_pairs)
    result.build_vs_plain = statistics.median(ours / plain for ours, plain in result.first_build_pairs)
    project = work / "project"
    measure_site(result, project / "site")
    log(f"{shape}: built {result.html_pages} HTML pages; build / plain = {result.build_vs_plain:.2f}")
    return result, project


def measure_the_rest(result: ShapeResult, project: Path, browser_unavailable: str | None, log) -> None:
    """After measure_first_build: the rebuild, then (measure_people) the reader's search on the
    built site and the curator's serve and edit. `browser_unavailable`: why the reader's search
    cannot be measured, or None."""
    log(f"{result.shape}: releasekb build again, nothing changed ...")
    result.seconds["rebuild"], _ = run_measured([BUILD_COMMAND], project)
    result.rebuild_pages_per_second = result.html_pages / result.seconds["rebuild"]
    log(f"{result.shape}: built again in {result.seconds['rebuild']:.1f} s")
    measure_people(result, project, browser_unavailable, log)


def parse_shape(shape: str) -> tuple[int, int]:
    match = re.fullmatch(r"([1-9][0-9]*)x([1-9][0-9]*)", shape)
    if not match:
        raise argparse.ArgumentTypeError(f"'{shape}' is not a shape like 20x60 (releases x entries per release)")
    return int(match[1]), int(match[2])


def _shape_argument(shape: str) -> str:
    parse_shape(shape)
    return shape


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of 1 or more")
    return int(text)


def ratios(results: list[ShapeResult]) -> dict[str, float | None]:
    """Growth against the first shape: twice the releases, twice the entries per release."""
    base = results[0]
    by_shape = {(r.releases, r.entries_per_release): r for r in results}

    def ratio(releases: int, per_release: int) -> float | None:
        other = by_shape.get((releases, per_release))
        return other.seconds["build"] / base.seconds["build"] if other else None

    return {
        "base_shape": base.shape,
        "double_releases_build": ratio(2 * base.releases, base.entries_per_release),
        "double_entries_per_release_build": ratio(base.releases, 2 * base.entries_per_release),
    }


def _seconds(value: float | None) -> str:
    return "" if value is None else f"{value:.2f} s"


def _kb(value: float | None) -> str:
    return "" if value is None else f"{value:.0f} KB"


def _render_table(columns: tuple, results: list[ShapeResult]) -> list[str]:
    rows = [[name for name, _ in columns]] + [[cell(r) for _, cell in columns] for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(columns))]
    lines = ["  ".join(value.rjust(width) for value, width in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return lines


def table(results: list[ShapeResult], growth: dict) -> str:
    """Two tables: the pipeline's stages and sizes; then ours against the baseline and what
    people feel (serve, an edit, a reader's first search per language)."""
    pipeline = (
        ("shape", lambda r: r.shape),
        ("features", lambda r: str(r.features)),
        ("HTML pages", lambda r: str(r.html_pages)),
        *((stage, lambda r, s=stage: _seconds(r.seconds[s])) for stage in ("load", "validate", "catalog", "render")),
        ("largest page", lambda r: f"{r.largest_html_mb:.2f} MB"),
        ("search data", lambda r: " ".join(f"{lang} {mb:.1f} MB" for lang, mb in r.search_index_mb.items())),
    )
    felt = (
        ("shape", lambda r: r.shape),
        ("build", lambda r: _seconds(r.seconds["build"])),
        ("baseline", lambda r: _seconds(r.seconds["plain_mkdocs"])),
        ("build/baseline", lambda r: f"{r.build_vs_plain:.2f}x"),
        ("pages/s", lambda r: f"{r.pages_per_second:.0f}"),
        ("rebuild", lambda r: _seconds(r.seconds["rebuild"])),
        ("rebuild pages/s", lambda r: f"{r.rebuild_pages_per_second:.0f}"),
        ("peak MB", lambda r: f"{r.build_peak_mb:.0f}"),
        ("serve start", lambda r: _seconds(r.serve_start_seconds)),
        ("edit→page", lambda r: _seconds(r.edit_to_page_seconds)),
        *(
            column
            for lang in SEARCH_QUERIES
            for column in (
                (f"search {lang}", lambda r, lang=lang: _seconds(r.search_first_results_seconds.get(lang))),
                (f"{lang} KB", lambda r, lang=lang: _kb(r.search_first_query_kb.get(lang))),
                (f"{lang} idle", lambda r, lang=lang: _kb(r.search_idle_kb.get(lang))),
            )
        ),
    )
    lines = _render_table(pipeline, results) + [""] + _render_table(felt, results)
    lines.append(
        "baseline: plain MkDocs + Material + its search, the same pages' text, both languages built at once, "
        "Chinese segmented with jieba"
    )
    lines.append("build: the first build of a fresh project; rebuild: `releasekb build` again, nothing changed")
    queries = ", ".join(f"{lang} {query!r} on /{url_prefix(lang, LANGUAGES)}" for lang, query in SEARCH_QUERIES.items())
    unmeasured = {r.search_unmeasured for r in results if r.search_unmeasured}
    lines.append(
        f"search: not measured: {'; '.join(sorted(unmeasured))}"
        if unmeasured
        else f"search: click into the box to first result in Chromium (timed in the page), and the search data "
        f"it transferred ({queries}); "
        "idle: the search data of a page view without a search"
    )
    base = growth["base_shape"]
    for key, label in (("double_releases_build", "2x releases"), ("double_entries_per_release_build", "2x entries")):
        value = growth[key]
        lines.append(f"{label} (vs {base}): " + (f"build {value:.2f}x the time" if value else "shape not measured"))
    return "\n".join(lines)


def run(
    shapes: list[str], *, seed: int, repeat: int, root: Path, keep: Path | None = None, pairs: int = 1
) -> tuple[dict, str]:
    """Measure every shape; return the JSON-ready report and the table for the terminal."""

    def log(message: str) -> None:
        print(f"bench: {message}", file=sys.stderr, flush=True)

    browser_unavailable = browser_unavailable_reason()
    if browser_unavailable:
        log(f"the reader's search is not measured: {browser_unavailable}")
    with tempfile.TemporaryDirectory(prefix="releasekb-bench-") as tmp:
        # Untimed: the first build of a session also compiles bytecode (measured_env) and fills
        # caches, which would make the first (base) shape look slow and the ratios too good. The
        # builds warm what serve loads, and browser_unavailable_reason() has launched Chromium once.
        log(f"warm-up (untimed): {WARM_UP_SHAPE}")
        measure_first_build(WARM_UP_SHAPE, root, Path(tmp) / "warm-up", seed, 1, lambda message: None)
        # Every shape's first build and baseline before any rebuild or serve, which delete
        # thousands of files (a rebuild replaces its site; serve removes its own when it stops).
        # Some file systems make files slowly for minutes after many were deleted: a build would
        # be timed by what the bench measured before it. (A previous bench's clean-up, just
        # before, has that effect too.)
        works = {shape: (keep or Path(tmp)) / shape for shape in shapes}
        for work in works.values():
            shutil.rmtree(work, ignore_errors=True)
        first_builds = [
            measure_first_build(shape, root, work, seed, repeat, log, pairs) for shape, work in works.items()
        ]
        results = []
        for result, project in first_builds:
            measure_the_rest(result, project, browser_unavailable, log)
            results.append(result)
    report = {
        "seed": seed,
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "stages": list(STAGES),
        "baseline": (
            "plain MkDocs + Material + Material's search plugin (lang en; lang [en, zh] with jieba) building "
            "the same pages' text as plain Markdown, both languages at once in two processes"
        ),
        "search_probe": {
            "browser": CHROMIUM,
            "unavailable": browser_unavailable,
            "queries": SEARCH_QUERIES,
            "pages": {lang: "/" + url_prefix(lang, LANGUAGES) for lang in SEARCH_QUERIES},
            "seconds": (
                "from the click into the header search box until the first result is in its list, timed in the page"
            ),
            "kb_counted": SEARCH_DATA_COUNTED,
        },
        "serve_probe": (
            "serve start: from starting `releasekb serve` (empty cache) until its home page answers 200; "
            "edit to page: from replacing the newest release file, one entry's English summary changed to a "
            "marker, until its release page serves the marker"
        ),
        "shapes": [asdict(r) for r in results],
        "ratios": ratios(results),
    }
    return report, table(results, report["ratios"])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--shape",
        action="append",
        type=_shape_argument,
        help="releases x entries per release, like 20x60; repeat for several; the first is the base "
        f"the 2x ratios compare with (default: {' '.join(DEFAULT_SHAPES)})",
    )
    parser.add_argument("--smoke", action="store_true", help=f"tiny shapes for CI ({' '.join(SMOKE_SHAPES)})")
    parser.add_argument("--seed", type=int, default=7, help="corpus seed: the same seed writes the same data")
    parser.add_argument("--repeat", type=int, default=3, help="in-process stages: best of this many runs")
    parser.add_argument(
        "--pairs",
        type=_positive,
        default=3,
        help="first builds: ours and the baseline alternated this many times per shape; the ratio "
        "is the median of theirs (default: 3)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON instead of a table")
    parser.add_argument(
        "--keep",
        type=Path,
        help="keep each shape's corpus, project (edited by the serve measurement) and sites under this folder",
    )
    parser.add_argument(
        "--config", default="mkdocs.yml", help="the project's MkDocs configuration (default: mkdocs.yml)"
    )


def main(args: argparse.Namespace) -> int:
    """`releasekb bench`, run from the project root (where mkdocs.yml is)."""
    root = Path(args.config).resolve().parent
    if not (root / Path(args.config).name).is_file():
        print(f"releasekb bench: {args.config} not found (run it from the project root)", file=sys.stderr)
        return 2
    shapes = list(SMOKE_SHAPES) if args.smoke else args.shape or list(DEFAULT_SHAPES)
    try:
        report, text = run(shapes, seed=args.seed, repeat=args.repeat, root=root, keep=args.keep, pairs=args.pairs)
    except RuntimeError as error:
        print(f"releasekb bench: {error}", file=sys.stderr)
        return 1
    print(json.dumps(report, indent=2, ensure_ascii=False) if args.json else text)
    return 0
