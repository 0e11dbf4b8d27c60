"""No script from data (issue 34): a knowledge base made by `releasekb init` whose every text, in
both languages, holds the probe's payloads, built as a whole site (`releasekb build`) and as a
section of a team's Material site (the plugin with `path:`). Every page shows the payloads as
text; none of them becomes an element, an attribute or a script, and in Chromium nothing runs."""

from __future__ import annotations

import contextlib
import html.parser
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from helpers import build, command_env, enter_search, main, problems_of, static_server

PAYLOADS = ('"><img src=x onerror=alert(1)>', "</title><script>alert(2)</script>", "<svg onload=alert(3)>")
PAYLOADS += ("javascript:alert(4)",)
HOSTILE = " ".join(PAYLOADS)
# The probe's own cases: the site's name, and a feature's name that reaches <title>.
SITE_NAME = {"en": 'KB"><img src=x onerror=alert(document.domain)>', "zh": '知识库"><img src=x onerror=alert(5)>'}
FEATURE = "example-connections"
FEATURE_NAME = {"en": "Conn</title><script>alert(6)</script>", "zh": "连接</title><script>alert(6)</script>"}
# Addresses pass validation with any character but whitespace: quotes and brackets too.
LINK = 'https://example.org/"><svg/onload=alert(7)>'
SECTION = "release-notes"

# One address of each kind of page, inside a language's site.
PAGE_KINDS = {
    "home": "",
    "release": "releases/1.1/",
    "feature": f"features/{FEATURE}/",
    "features-index": "features/",
    "stability": "stability/",
    "level-list": "stability/stable/",
    "changelog": "changelog/",
    "upgrade": "changelog/upgrade/",
    "about": "about/",
    "404": "no-such-page/",
}
# The pages whose content shows texts of the data (about and 404 have none of their own).
DATA_PAGES = set(PAGE_KINDS) - {"about", "404"}
# The section's pages: no about page, and the site's own 404 page.
SECTION_KINDS = {kind: path for kind, path in PAGE_KINDS.items() if kind not in ("about", "404")}


def hostile(en: str, zh: str) -> dict[str, str]:
    """A text in both languages with every payload (a Chinese text must hold some Chinese)."""
    return {"en": f"{en} {HOSTILE}", "zh": f"{zh} {HOSTILE}"}


def with_payloads(entry: dict) -> dict:
    entry.pop("example", None)
    for field in ("name", "title", "summary", "migration"):
        if field in entry:
            entry[field] = hostile(entry[field]["en"], entry[field]["zh"])
    entry["links"] = [{"kind": "docs", "url": LINK}]
    return entry


def write_yaml(path: Path, schema: str, value: dict) -> None:
    header = f"# yaml-language-server: $schema={schema}\n"
    path.write_text(header + yaml.safe_dump(value, allow_unicode=True, sort_keys=False), encoding="utf-8")


def plant_payloads(data: Path) -> None:
    """Every text of project.yaml and of the first release gets the payloads; a second release
    (the upgrade page compares two) changes a feature's level and deprecates an API."""
    project = yaml.safe_load((data / "project.yaml").read_text(encoding="utf-8"))
    project["product"] = {"name": hostile("Acme", "产品"), "site_name": SITE_NAME}
    project["redirects"] = {"changelog/old/": "changelog/"}  # a redirect page and an alias page too
    project["areas"] = {key: hostile(area["en"], area["zh"]) for key, area in project["areas"].items()}
    for label in project["stability"]["labels"].values():
        label["name"] = hostile(label["name"]["en"], label["name"]["zh"])
        label["description"] = hostile(label["description"]["en"], label["description"]["zh"])
    write_yaml(data / "project.yaml", "project.schema.json", project)

    first = yaml.safe_load((data / "1.0.yaml").read_text(encoding="utf-8"))
    first["title"] = hostile("First", "首个版本")
    first["summary"] = hostile("The first release.", "第一个版本。")
    first["sources"] = [{"kind": "original", "lang": "en", "url": LINK, "credit": HOSTILE}]
    for entry in first["features"] + first["changes"]:
        with_payloads(entry)
    first["features"][0]["name"] = FEATURE_NAME
    first["features"][0]["aliases"] = ["old-connections"]
    write_yaml(data / "1.0.yaml", "release.schema.json", first)

    second = {
        "version": "1.1",
        "date": "2031-02-01",
        "scheme": "stable-beta-preview",
        "title": hostile("Second", "第二个版本"),
        "summary": hostile("The second release.", "第二个版本。"),
        "sources": [{"kind": "original", "lang": "en", "url": LINK}],
        "features": [
            with_payloads(
                {
                    "id": "example-batch-import",
                    "kind": "improvement",
                    "name": {"en": "Batch import", "zh": "批量导入"},
                    "area": "tooling",
                    "stability": "beta",
                    "title": {"en": "Batch import is beta", "zh": "批量导入进入测试版"},
                    "summary": {"en": "It is complete.", "zh": "功能已经完整。"},
                }
            )
        ],
        "changes": [
            with_payloads(
                {
                    "id": "old-loader",
                    "standalone": True,
                    "kind": "deprecation",
                    "area": "core",
                    "title": {"en": "The old loader is deprecated", "zh": "旧的加载器已弃用"},
                    "summary": {"en": "It goes away in 2.0.", "zh": "它将在 2.0 中移除。"},
                    "migration": {"en": "Use the new loader.", "zh": "请改用新的加载器。"},
                }
            )
        ],
    }
    write_yaml(data / "1.1.yaml", "release.schema.json", second)


@pytest.fixture(scope="module")
def hostile_kb(tmp_path_factory) -> Path:
    """`releasekb init kb --product A`, its texts then edited to hold the payloads."""
    project = tmp_path_factory.mktemp("hostile") / "kb"
    assert main(["init", str(project), "--product", "A", "--languages", "en,zh"]) == 0
    plant_payloads(project / "releases")
    assert problems_of(project / "releases") == []  # the payloads are valid data: only text
    return project


@pytest.fixture(scope="module")
def standalone_site(hostile_kb) -> Path:
    return build(hostile_kb)


HOST_CONFIG = f"""site_name: Host handbook
docs_dir: docs
theme: {{name: material, language: en}}
plugins:
  - search
  - releasekb: {{data: releases, path: {SECTION}}}
"""


@pytest.fixture(scope="module")
def section_site(hostile_kb, tmp_path_factory) -> Path:
    """The same data as a section of a team's small Material site, built by `mkdocs build`."""
    host = tmp_path_factory.mktemp("host")
    (host / "docs").mkdir()
    (host / "docs" / "index.md").write_text("# Handbook\n", encoding="utf-8")
    (host / "mkdocs.yml").write_text(HOST_CONFIG, encoding="utf-8")
    shutil.copytree(hostile_kb / "releases", host / "releases")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"], cwd=host, capture_output=True, text=True, env=command_env()
    )
    assert result.returncode == 0, result.stderr
    return host / "site"


# --------------------------------------------------------------------------- the built pages


class PageScan(html.parser.HTMLParser):
    """What a page's HTML makes of the payloads: elements and attributes that came from them
    (`findings`), the text of its <title> (the page's is the first: charts have their own) and
    its description."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.findings: list[str] = []
        self.titles: list[str] = []
        self.description = ""
        self._inside = ""

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith("on"):
                self.findings.append(f"<{tag} {name}={value!r}>")
            if name in ("href", "src", "action", "formaction") and (value or "").lower().startswith("javascript:"):
                self.findings.append(f"<{tag} {name}={value!r}>")
        if tag == "img" and dict(attrs).get("src") == "x":
            self.findings.append("<img src=x>")
        self._inside = tag
        if tag == "title":
            self.titles.append("")
        if tag == "meta" and ("name", "description") in attrs:
            self.description = dict(attrs).get("content") or ""

    def handle_endtag(self, tag):
        self._inside = ""

    def handle_data(self, data):
        if self._inside == "script" and "alert(" in data:
            self.findings.append(f"<script>{data.strip()[:60]}</script>")
        if self._inside == "title":
            self.titles[-1] += data


def scan(path: Path) -> PageScan:
    page = PageScan()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def page_file(site: Path, address: str) -> Path:
    return site / "404.html" if address.endswith("no-such-page/") else site / address / "index.html"


@pytest.mark.parametrize("mode", ["standalone", "section"])
def test_no_element_or_attribute_of_any_page_comes_from_a_payload(request, mode):
    site = request.getfixturevalue(f"{mode}_site")
    pages = sorted(site.rglob("*.html"))
    found = {str(path.relative_to(site)): scan(path).findings for path in pages}
    assert {path: findings for path, findings in found.items() if findings} == {}
    kinds = PAGE_KINDS if mode == "standalone" else {k: f"{SECTION}/{p}" for k, p in SECTION_KINDS.items()}
    for kind, address in kinds.items():  # the scan saw every kind of page
        assert page_file(site, address) in pages, kind


@pytest.mark.parametrize("prefix", ["", "zh/"], ids=["en", "zh"])
def test_titles_and_descriptions_hold_the_names_as_text(standalone_site, prefix):
    lang = "zh" if prefix else "en"
    feature = scan(standalone_site / prefix / PAGE_KINDS["feature"] / "index.html")
    assert feature.titles[0] == f"{FEATURE_NAME[lang]} - {SITE_NAME[lang]}"
    product = hostile("Acme", "产品")[lang]
    for kind in ("home", "about", "404"):  # the hand-written pages and the 404 too
        assert product in scan(page_file(standalone_site / prefix, PAGE_KINDS[kind])).description, kind


def test_a_section_page_title_holds_the_feature_name_as_text(section_site):
    feature = scan(section_site / SECTION / PAGE_KINDS["feature"] / "index.html")
    assert feature.titles[0] == f"{FEATURE_NAME['en']} - Host handbook"


@pytest.mark.parametrize("url", ["javascript:alert(4)", "JavaScript:alert(4)//https://example.org/"])
def test_a_link_that_is_not_a_web_address_is_refused(hostile_kb, tmp_path, url):
    data = tmp_path / "releases"
    shutil.copytree(hostile_kb / "releases", data)
    release = data / "1.1.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace(LINK, url), encoding="utf-8")
    problems = problems_of(data)
    assert problems and all("1.1.yaml" in problem for problem in problems), problems


# --------------------------------------------------------------------------- in Chromium


def browser_pages() -> list:
    whole = [
        pytest.param("standalone", prefix + path, kind, id=f"standalone-{prefix or 'en/'}{kind}")
        for prefix in ("", "zh/")
        for kind, path in PAGE_KINDS.items()
    ]
    section = [
        pytest.param("section", f"{SECTION}/{path}", kind, id=f"section-{kind}") for kind, path in SECTION_KINDS.items()
    ]
    return whole + section


@pytest.fixture(scope="module")
def served(chromium, request) -> Iterator[dict[str, str]]:
    """Both sites served, {mode: base URL}. Asks for the browser first, so a missing browser
    skips (outside CI) before the sites are built."""
    standalone, section = (request.getfixturevalue(f"{mode}_site") for mode in ("standalone", "section"))
    with static_server(standalone) as standalone_url, static_server(section) as section_url:
        yield {"standalone": standalone_url, "section": section_url}


@contextlib.contextmanager
def watched_page(kept_pages, base: str) -> Iterator[tuple[object, list[str], list[str]]]:
    """A page as a fresh context has it (a kept one, emptied between tests), offline but for
    `base`, with the dialogs that opened (each dismissed) and the errors of its scripts and
    console, as they come."""
    dialogs, errors = [], []
    with kept_pages.lend(base, timeout_ms=15_000) as lease:
        lease.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        lease.on("pageerror", lambda error: errors.append(str(error)))
        lease.on(
            "console",
            lambda message: message.type == "error" and errors.append(f"{message.text} ({message.location['url']})"),
        )
        yield lease.page, dialogs, errors


@pytest.mark.browser
@pytest.mark.parametrize(("mode", "address", "kind"), browser_pages())
def test_nothing_runs_and_the_payloads_show_as_text(kept_pages, served, mode, address, kind):
    base = served[mode]
    with watched_page(kept_pages, base) as (page, dialogs, errors):
        page.goto(base + "/" + address, wait_until="load")
        page.wait_for_load_state("networkidle")
        if kind == "404":  # the address itself answers 404, as it should; nothing else may fail
            errors[:] = [error for error in errors if not error.endswith(f"({base}/{address})")]
        assert dialogs == [] and errors == []
        content = page.locator(".md-content").inner_text()
        lang = "zh" if address.startswith("zh/") else "en"
        if kind in DATA_PAGES:
            assert PAYLOADS[2] in content and PAYLOADS[1] in content
        if kind == "feature":
            assert page.title().startswith(FEATURE_NAME[lang])
        if mode == "standalone":
            topic = page.locator(".md-header__topic:first-child .md-ellipsis").inner_text()
            assert topic.strip() == SITE_NAME[lang]
            assert page.locator(".md-tabs__link").first.inner_text().strip() == SITE_NAME[lang]
            description = page.locator('meta[name="description"]').get_attribute("content")
            assert PAYLOADS[0] in description


@pytest.mark.browser
@pytest.mark.parametrize("prefix", ["", "zh/"], ids=["en", "zh"])
def test_search_results_show_the_payloads_as_text(kept_pages, served, prefix):
    base = served["standalone"]
    lang = "zh" if prefix else "en"
    with watched_page(kept_pages, base) as (page, dialogs, errors):
        page.goto(base + "/" + prefix)
        enter_search(page, FEATURE_NAME[lang].split("<")[0])
        results = page.locator(".md-search-result__list")
        expect(results).to_contain_text(FEATURE_NAME[lang])
        assert results.locator("img, svg[onload], script").count() == 0
        assert dialogs == [] and errors == []


def expect(*args, **kwargs):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(*args, **kwargs)
