"""The tests' one helpers module: paths, project copies, commands and small readers shared by
several test modules. Fixtures live in conftest.py; no test module imports another."""

from __future__ import annotations

import contextlib
import gzip
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

# The browser and the static host are the package's, shared with `releasekb bench`.
from releasekb.bench import measure as bench
from releasekb.bench.browser import CHROMIUM as CHROMIUM
from releasekb.bench.browser import CHROMIUM_ARGS as CHROMIUM_ARGS
from releasekb.bench.browser import chromium_unavailable_reason as chromium_unavailable_reason
from releasekb.bench.browser import free_port
from releasekb.bench.browser import static_server as static_server
from releasekb.bench.measure import command_env as command_env
from releasekb.cli import main
from releasekb.common.problems import DataError
from releasekb.kb.catalog import Catalog
from releasekb.kb.pipeline import load_catalog
from releasekb.kb.validate import project_languages
from releasekb.site.render import render_pages

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
FIXTURE_RELEASES = FIXTURES / "releases"  # Acme: a promotion, a removal, a breaking change
REAL_RELEASES = ROOT / "releases"  # the curated PyTorch data
# The languages of this repository's knowledge base and of the fixtures (project.yaml: en, zh).
LANGUAGES = project_languages(REAL_RELEASES)
LANGUAGE_PREFIXES = ("", "zh/")  # where each language's site is, inside the built site


# ----------------------------------------------------------------- data


def catalog_of(data_dir: Path) -> Catalog:
    """The catalog of a data folder, as every command builds it (validation, then the catalog
    and the checks that need it); raises DataError."""
    return load_catalog(data_dir)


def problems_of(data_dir: Path) -> list[str]:
    """Every problem the data has, as `validate` prints them (`file:line:col: where: message`),
    in order; [] for valid data."""
    try:
        load_catalog(data_dir)
    except DataError as error:
        return [str(problem) for problem in error.problems]
    return []


def html_pages(catalog, lang: str | None = None) -> dict[str, str]:
    """Rendered pages as the plugin hands them to MkDocs (RenderedPage.html: their headings as
    the HTML Markdown makes of them): {path: HTML} in one language, or {lang/path: HTML} in every
    language when none is named."""
    if lang is not None:
        return {path: page.html for path, page in render_pages(catalog, lang).pages.items()}
    return {f"{lang}/{path}": html for lang in catalog.languages for path, html in html_pages(catalog, lang).items()}


Edits = dict[str, list[tuple[str, str]]]  # {file: [(old, new), ...]}: text replacements


def fixture_data(tmp_path: Path, edits: Edits | None = None) -> Path:
    """A copy of the fixture data with `{file: [(old, new), ...]}` text replacements applied."""
    return data_copy(FIXTURE_RELEASES, tmp_path, edits)


def real_data(tmp_path: Path, edits: Edits | None = None) -> Path:
    """A copy of the real data with `{file: [(old, new), ...]}` text replacements applied."""
    return data_copy(REAL_RELEASES, tmp_path, edits)


def data_copy(source: Path, tmp_path: Path, edits: Edits | None = None) -> Path:
    """tmp_path/releases: a copy of the data folder `source`, each replacement made once (and
    required to apply: a replacement that no longer matches the data fails the test)."""
    data = tmp_path / "releases"
    shutil.copytree(source, data)
    for name, replacements in (edits or {}).items():
        path = data / name
        text = path.read_text(encoding="utf-8")
        for old, new in replacements:
            assert old in text, f"{old!r} not in {name}"
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
    return data


def release_file(version: str, date: str = "2020-08-01") -> str:
    """The text of a small valid release file of the fixture project, without entries."""
    return (
        "# yaml-language-server: $schema=release.schema.json\n"
        f'version: "{version}"\n'
        f"date: {date}\n"
        "scheme: unlabeled\n"
        f"title: {{en: Acme {version}, zh: Acme {version} 版本}}\n"
        f"summary: {{en: Acme {version} fixes nothing., zh: Acme {version} 没有修复任何问题。}}\n"
        "sources:\n"
        f'  - {{kind: original, lang: en, url: "https://example.org/acme/{version}"}}\n'
    )


def line_of(path: Path, needle: str) -> int:
    """1-based line number of the first line containing `needle`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def run_validate(data: Path, capsys) -> tuple[int, list[str]]:
    """Run `releasekb --data DATA validate`; return the exit code and the stderr lines."""
    code = main(["--data", str(data), "validate"])
    return code, capsys.readouterr().err.splitlines()


# What a curator writes over the placeholders of `releasekb new` (fixture project: Acme).
SKELETON_FILLED = [
    ("date: TODO", "date: 2021-06-01"),
    ('en: "TODO: a short headline", zh: "TODO：一句话标题"', 'en: "Faster readers", zh: "读取器更快了"'),
    ('en: "TODO: what this release brought, in two to four sentences of your own."', 'en: "Readers got faster."'),
    ('zh: "TODO：用两到四句话概括这个版本带来了什么。"', 'zh: "读取器变得更快。"'),
    ("url: TODO", 'url: "https://example.org/acme/2.1"'),
    ("id: TODO", "id: fast-reader"),
    ("stability: TODO", "stability: beta"),
    ('en: "TODO: feature title", zh: "TODO：特性标题"', 'en: "A faster reader", zh: "更快的读取器"'),
    (
        'en: "TODO: what it does and why it matters.", zh: "TODO：它做什么、为什么重要。"',
        'en: "Reads large files twice as fast.", zh: "读取大文件的速度提高到两倍。"',
    ),
]


def fill_skeleton(path: Path) -> None:
    """Replace every placeholder of a fresh skeleton, as a curator would."""
    text = path.read_text(encoding="utf-8")
    for old, new in SKELETON_FILLED:
        assert old in text, f"{old!r} not in the skeleton"
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")


# Root reads a file whatever its permissions: a test of an unreadable file runs its command
# without the two capabilities that allow that (setpriv is in util-linux, on every Debian).
_WITHOUT_READ_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def bound_by_permissions() -> list[str]:
    """The prefix of a command line that makes the command respect file permissions: nothing for
    a user, setpriv for root."""
    return _WITHOUT_READ_OVERRIDE if os.geteuid() == 0 else []


# ----------------------------------------------------------------- projects and builds


def temporary_leftovers(folder: Path) -> list[str]:
    """What commands left in a temporary folder (their TMPDIR), apart from Jinja's bytecode
    cache: one folder per user, kept on purpose, so that templates compile once."""
    return sorted(path.name for path in folder.iterdir() if not path.name.startswith("_jinja2-cache-"))


def copy_project(target: Path, releases: Path | None = None) -> Path:
    """A copy of this project's site sources with `releases` (default: the real data)."""
    return bench.copy_project(ROOT, target, releases or REAL_RELEASES)


def releasekb_command(*args: str, change: str = "", permissions: bool = False) -> list[str]:
    """The command line of `releasekb ARGS`. change: Python code its process runs first (a fault
    simulated, a file saved at a chosen moment); the language workers, forked from it, run it too.
    permissions: the command respects file permissions even when the tests run as root."""
    prefix = bound_by_permissions() if permissions else []
    if not change:
        return [*prefix, sys.executable, "-m", "releasekb.cli", *args]
    driver = f"{change}\nimport sys\nfrom releasekb.cli import main\nsys.exit(main({list(args)!r}))\n"
    return [*prefix, sys.executable, "-c", driver]


def run_releasekb(project: Path, *args: str, env: dict | None = None, change: str = "") -> subprocess.CompletedProcess:
    """`releasekb ARGS` run in `project`, as a curator types it (change: see releasekb_command)."""
    return subprocess.run(
        releasekb_command(*args, change=change),
        cwd=project,
        capture_output=True,
        text=True,
        env=env or command_env(),
    )


def build(project: Path) -> Path:
    """`releasekb build` in `project`, which must succeed; returns the built site."""
    result = run_releasekb(project, "build")
    assert result.returncode == 0, result.stdout + result.stderr
    return project / "site"


def page_html(site: Path, path: str) -> str:
    """The HTML a host serves for a page's address inside the site: 'zh/releases/1.1'."""
    return (site / path / "index.html").read_text(encoding="utf-8")


def search_settings(site: Path, prefix: str = "") -> dict:
    """The file Material's search box reads before it starts the search worker, in one
    language's site ('' or 'zh/'): settings only, the pages are in the Pagefind index."""
    return json.loads((site / prefix / "search" / "search_index.json").read_text(encoding="utf-8"))


def search_pages(site: Path, prefix: str = "") -> dict[str, dict]:
    """What one language's Pagefind index holds of each page, by address ('features/widgets/'):
    its text ('content': the words, Chinese ones split apart by zero-width spaces), 'meta'
    (its title), 'anchors' (its headings with ids) and 'filters'."""
    pages = {}
    for fragment in (site / prefix / "pagefind" / "fragment").glob("*.pf_fragment"):
        text = gzip.decompress(fragment.read_bytes()).decode("utf-8")
        record = json.loads(text[text.index("{") :])
        pages[record["url"].lstrip("/")] = record
    return pages


# The header search's result count, and Material's text before its search has answered.
SEARCH_META = ".md-search-result__meta"
_SEARCH_PLACEHOLDER = (
    "JSON.parse(document.getElementById('__config').textContent).translations['search.result.placeholder']"
)


def open_search(page) -> None:
    """Click the header search box and wait until its search has started and answered the empty
    box (the worker starts on first use): the prompt shows."""
    box = page.locator(".md-search__input")
    box.click()
    box.fill("")
    box.press("End")
    page.wait_for_function(
        f"() => document.querySelector('{SEARCH_META}').textContent.trim() === {_SEARCH_PLACEHOLDER}"
    )


def enter_search(page, query: str, keys: bool = True) -> None:
    """Ask the header search for `query` and wait for its answer to that query.

    Typed key by key, every prefix is a query of its own (分 finds 分解), and the answer to a
    prefix may be on screen when the results are read; Chinese characters, inserted without key
    events, may not even send one. So the box is emptied first (its prompt shows), then the whole
    query goes in at once and one key press (End, which types nothing) sends it: the worker never
    sees a prefix, and the result count replacing the prompt can only be the answer to the whole
    query. With keys=False no key is pressed: the text arrives as a paste does, by an input event
    alone."""
    open_search(page)
    box = page.locator(".md-search__input")
    box.fill(query)
    if keys:
        box.press("End")
    page.wait_for_function(
        f"""query => document.querySelector(".md-search__input").value === query &&
            document.querySelector('{SEARCH_META}').textContent.trim() !== {_SEARCH_PLACEHOLDER}""",
        arg=query,
    )


def deploy_build_step() -> str:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "deploy.yml").read_text(encoding="utf-8"))
    (step,) = [step for step in workflow["jobs"]["build"]["steps"] if step.get("name") == "Build"]
    return step["run"]


def run_deploy_build(project: Path, venv: Path) -> subprocess.CompletedProcess:
    """The workflow's build step, run in `project` with `venv` as its .venv."""
    (project / ".venv").symlink_to(venv)
    env = {k: v for k, v in command_env().items() if k != "VIRTUAL_ENV"}
    return subprocess.run(["bash", "-c", deploy_build_step()], cwd=project, capture_output=True, text=True, env=env)


# ----------------------------------------------------------------- serving


def fetch(url: str) -> str:
    """The body of `url`, or '' when it cannot be fetched (yet)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except OSError:
        return ""


def wait_for(predicate, timeout: float, what: str):
    """Poll `predicate` until it returns something true (returned), or fail after `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.3)
    pytest.fail(f"timed out after {timeout}s waiting for {what}")


def serve(project: Path, log, change: str = "", permissions: bool = False) -> tuple[subprocess.Popen, str]:
    """`releasekb serve` on a free port, its output to `log`; returns (process, base URL).
    change, permissions: see releasekb_command."""
    port = free_port()
    process = subprocess.Popen(
        releasekb_command("serve", "--dev-addr", f"127.0.0.1:{port}", change=change, permissions=permissions),
        cwd=project,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=command_env(),
    )
    return process, f"http://127.0.0.1:{port}"


# --------------------------------------------------------------------------- browser tests


def browser_unavailable(reason: str) -> None:
    """Skip outside CI, fail in CI (CI=true), where browser tests must run."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests must run in CI, but: {reason}", pytrace=False)
    print(f"\nskipping browser tests: {reason}")
    pytest.skip(f"browser tests skipped: {reason} (set CI=true to make this an error)")


DESKTOP = {"width": 1280, "height": 800}  # the viewport a browser test gets unless it asks


@dataclass
class Lease:
    """A kept page lent to one test (KeptPages.lend): its page, the site's base URL, the
    requests it made to other hosts (each answered empty), and `on`, which adds a listener that
    goes when the lease ends (a listener added with page.on would outlive the test)."""

    page: object  # playwright.sync_api.Page
    base: str
    third_party: list[str] = field(default_factory=list)
    listeners: list[tuple[str, object]] = field(default_factory=list)

    def on(self, event: str, handler) -> None:
        self.page.on(event, handler)
        self.listeners.append((event, handler))


class KeptPages:
    """Browser pages kept open through one test process, one per kind of context (base URL,
    viewport and context options), lent to one test at a time.

    Why: a new context and page cost Chromium a new renderer process. Measured on these
    machines (20 loads of the real site's pages, the offline route in place), a page in a fresh
    context costs about 1.0 CPU-second and a navigation of a kept page about 0.5; the browser
    tests were nearly half the suite's CPU.

    What a test sees is what a fresh context gives it: when a lease ends, the listeners and page
    routes the test added are removed, the site's storage (local and session storage, cookies,
    IndexedDB, caches) is cleared, pages the test opened are closed, the viewport and media are
    put back and the page is left on about:blank (tests/test_kept_pages.py checks each). The HTTP
    cache is off either way: the context's route (requests to other hosts answered empty, never
    the network) turns it off, as it did in the fresh contexts. A page that crashed or cannot be
    emptied is closed with its context and a new one is made for the next test.

    One difference stays: the about:blank a kept page is left on was reached from the site, and
    Chromium refuses it an image of the site that a new page's empty document loads; a test that
    writes its own document (set_content) opens a context of its own."""

    KEPT = 4  # contexts kept at once; the least recently used one is closed (its server may be gone)

    def __init__(self, browser):
        self.browser = browser
        self.kept: dict[tuple, tuple[object, object]] = {}  # key -> (context, page), oldest use first
        self.lent: set[tuple] = set()  # keys of the kept pages lent now
        self.leases: list[Lease] = []  # the leases of the running test

    @contextlib.contextmanager
    def lend(
        self, base: str, viewport: dict | None = None, timeout_ms: int = 60_000, block: str | None = None, **options
    ) -> Iterator[Lease]:
        """A page of `base` at `viewport` in a context with `options` (Playwright's new_context);
        block: the file name of a script every request for which fails (the state before it ran)."""
        viewport = viewport or DESKTOP
        key = (base, tuple(sorted(viewport.items())), block, tuple(sorted(options.items())))
        if key in self.lent:  # the test holds this kind of page already: one of its own, closed after
            context, page = self._open(base, viewport, block, options)
            try:
                page.set_default_timeout(timeout_ms)
                yield Lease(page, base, third_party=self.leases[-1].third_party)
            finally:
                context.close()
            return
        context, page = self.kept.pop(key, None) or self._open(base, viewport, block, options)
        self.kept[key] = (context, page)  # now the most recently used
        self.lent.add(key)
        page.set_default_timeout(timeout_ms)
        lease = Lease(page, base)
        self.leases.append(lease)
        try:
            yield lease
        finally:
            self.leases.remove(lease)
            self.lent.discard(key)
            if not self._empty(lease, context, viewport):
                self.kept.pop(key, None)
                context.close()
            idle = [kind for kind in self.kept if kind not in self.lent]  # oldest use first
            for kind in idle[: max(0, len(self.kept) - self.KEPT)]:
                self.kept.pop(kind)[0].close()

    def _open(self, base: str, viewport: dict, block: str | None, options: dict) -> tuple[object, object]:
        context = self.browser.new_context(viewport=viewport, **options)
        local = re.compile("^" + re.escape(base) + "/")

        def offline(route):
            if self.leases:  # one test runs at a time in a test process: its requests
                self.leases[-1].third_party.append(route.request.url)
            if route.request.resource_type == "stylesheet":
                route.fulfill(status=200, body="", content_type="text/css")
            else:
                route.fulfill(status=204, body="")

        context.route(lambda url: not local.match(url), offline)
        if block:
            context.route(f"**/{block}", lambda route: route.abort())
        return context, context.new_page()

    def _empty(self, lease: Lease, context, viewport: dict) -> bool:
        """Put the page back as a fresh context has it; False when it cannot be (then it goes)."""
        page = lease.page
        try:
            for event, handler in lease.listeners:
                page.remove_listener(event, handler)
            for other in context.pages:
                if other is not page:
                    other.close()
            page.unroute_all(behavior="ignoreErrors")
            page.goto("about:blank")
            # Chromium's own clearing (DevTools protocol): local and session storage, cookies,
            # IndexedDB and caches of the site, as a new context starts without them.
            session = context.new_cdp_session(page)
            session.send("Storage.clearDataForOrigin", {"origin": lease.base, "storageTypes": "all"})
            session.detach()
            context.clear_cookies()  # other hosts' too
            page.set_viewport_size(viewport)
            page.emulate_media(media="null")
            return True
        except Exception:  # a crashed or closed page: a new context for the next test
            return False


# --------------------------------------------------------------------------- releasekb check


REAL_KB = REAL_RELEASES  # the knowledge base `check` reads by default
ACME_KB = FIXTURES / "check" / "releases"  # a small knowledge base of its own, for check
SARIF_SCHEMA = FIXTURES / "check" / "sarif-2.1.0-rtm.5.json"  # the official SARIF 2.1.0 schema
FFT_CALL = "import torch\n\nspectrum = torch.fft(signal, 1)\n"  # deprecated in 1.7
FFT_MODULE = "import torch\n\nspectrum = torch.fft.fft(signal)\n"  # new in 1.7


def write_tree(folder: Path, files: dict[str, str | bytes]) -> Path:
    """Write {relative path: text or bytes} under folder (folders made as needed); returns folder."""
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def run_check(capsys, *args: str, kb: Path = REAL_RELEASES) -> tuple[int, str, str]:
    """`releasekb --data KB check ARGS` in this process: (exit status, stdout, stderr)."""
    try:
        status = main(["--data", str(kb), "check", *args])
    except SystemExit as exit_:  # argparse's own usage errors
        status = exit_.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# ----------------------------------------------------------------- axe-core in Chromium (accessibility)

AXE_TIMEOUT_MS = 120_000  # one page's whole axe run (the features index is the longest)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_script() -> Path | None:
    """axe.min.js as axe-playwright-python ships it (None when the package is missing)."""
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or spec.origin is None:
        return None
    script = Path(spec.origin).parent / "axe.min.js"
    return script if script.is_file() else None


# What a page must have done before it is checked: loaded, its scripts run, the colour scheme
# the test chose applied, and no transition or animation under way (a half-faded tab would be
# measured at its passing colour).
SETTLED = """scheme => document.readyState === "complete"
    && document.body.getAttribute("data-md-color-scheme") === scheme
    && document.getAnimations().length === 0"""

# Starts axe on the page; the summary lands in window.rkbAxe (a run takes seconds, and pages run
# side by side meanwhile).
START_AXE = """tags => {
  window.rkbAxe = null;
  axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]})
    .then(results => { window.rkbAxe = {
      version: results.testEngine.version,
      checked: results.passes.map(rule => rule.id),
      violations: results.violations.map(rule => ({
        id: rule.id, help: rule.help,
        nodes: rule.nodes.map(node => ({target: node.target.join(" "), summary: node.failureSummary})),
      })),
    }; })
    .catch(error => { window.rkbAxe = {error: String(error)}; });
}"""


def describe(violations: list[dict]) -> str:
    lines = []
    for rule in violations:
        lines.append(f"{rule['id']} ({rule['help']}): {len(rule['nodes'])} nodes")
        for node in rule["nodes"][:5]:
            lines.append(f"    {node['target']}: {' '.join(node['summary'].split())}")
    return "\n".join(lines)


def children_of(pid: int) -> list[int]:
    """Process ids whose parent is `pid` (Linux /proc): serve's language workers, say."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass  # the process ended while we looked
    return found
