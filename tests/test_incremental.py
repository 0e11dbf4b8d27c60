"""Under `serve`, an edit renders only the pages that show what it changed (incremental.py).
Each test makes an edit a curator makes, lets LanguagePages.generate_once write the pages incrementally, and
compares every generated file with a whole render of the edited data: a page left out would
show the old text."""

from __future__ import annotations

import copy
import random
import shutil
from pathlib import Path

import pytest
import yaml

from releasekb.bench.corpus import Corpus
from releasekb.kb.pages import pages
from releasekb.kb.pipeline import load_catalog
from releasekb.kb.validate import load_data, read_files
from releasekb.site import incremental
from releasekb.site.generate import LanguagePages
from releasekb.site.render import render_language, render_pages

ROOT = Path(__file__).resolve().parent.parent


def _tree(docs: Path) -> dict[str, str]:
    return {
        path.relative_to(docs).as_posix(): path.read_text(encoding="utf-8")
        for path in docs.rglob("*")
        if path.is_file()
    }


def _write(path: Path, data: dict) -> None:
    first_line = path.read_text(encoding="utf-8").partition("\n")[0]  # the schema comment
    path.write_text(first_line + "\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


@pytest.fixture(params=["real", "corpus"])
def data_dir(request, tmp_path) -> Path:
    target = tmp_path / "releases"
    if request.param == "real":
        shutil.copytree(ROOT / "releases", target)
    else:
        Corpus(6, 10, seed=3).write(target)
    return target


@pytest.fixture
def generated_pages() -> LanguagePages:
    """What a process generates, as a new `serve`'s worker starts: nothing generated yet."""
    return LanguagePages()


# Edits a curator makes to one release's data, in place; each returns False where it does not apply.


def entry_text(data, project, rng):
    rng.choice(data["features"] + data.get("changes", []))["summary"]["en"] += " Edited."


def entry_title(data, project, rng):
    rng.choice(data["features"] + data.get("changes", []))["title"]["zh"] += "（已修订）"


def _labeled(data) -> list[dict]:
    return [entry for entry in data["features"] if entry.get("stability") and not entry.get("stability_stated_in")]


def entry_level(data, project, rng):
    if not _labeled(data):
        return False
    entry = rng.choice(_labeled(data))
    others = [label for label in project["stability"]["schemes"][data["scheme"]] if label != entry["stability"]]
    if not others:  # a scheme of one label (1.4's, experimental-only): no other level to set
        return False
    entry["stability"] = others[0]


def level_removed(data, project, rng):
    if not _labeled(data):
        return False
    del rng.choice(_labeled(data))["stability"]


def release_fields(data, project, rng):
    data["title"]["en"] += " (edited)"
    data["summary"]["zh"] += "已修订。"


def release_date(data, project, rng):
    data["date"] = str(data["date"])[:4] + "-01"


def apis_added(data, project, rng):
    rng.choice(data["features"]).setdefault("apis", []).append("torch.edited_api")


def highlight_dropped(data, project, rng):
    if not data.get("highlights"):
        return False
    data["highlights"] = data["highlights"][1:]


def parent_dropped(data, project, rng):
    parts = [entry for entry in data["features"] if entry.get("part_of")]
    if not parts:
        return False
    del rng.choice(parts)["part_of"]


EDITS = [entry_text, entry_title, entry_level, level_removed, release_fields, release_date, apis_added,
         highlight_dropped, parent_dropped]  # fmt: skip


def test_an_edit_renders_the_pages_a_whole_render_gives(data_dir, tmp_path, generated_pages):
    """Every kind of edit, to every release, checked against a whole render of the edited data."""
    project = yaml.safe_load((data_dir / "project.yaml").read_text(encoding="utf-8"))
    docs = tmp_path / "docs"
    rng = random.Random(5)
    release_files = sorted(data_dir.glob("[0-9]*.yaml"))
    originals = {path: path.read_text(encoding="utf-8") for path in release_files}
    checked = 0
    for edit in EDITS:
        for path in release_files:
            data = yaml.safe_load(originals[path])
            if edit(data, project, rng) is False:
                continue
            lang = ("en", "zh")[checked % 2]
            generated_pages.generate_once(read_files(data_dir), docs, "", lang)  # the pages before the edit
            _write(path, data)
            try:
                generated = generated_pages.generate_once(read_files(data_dir), docs, "", lang)
                whole = render_language(load_catalog(data_dir), lang)
            finally:
                path.write_text(originals[path], encoding="utf-8")
            written = _tree(docs / lang)
            assert written == whole, (
                f"{edit.__name__} in {path.name}: {sorted(p for p in whole if written.get(p) != whole[p])}"
            )
            assert generated.pages == frozenset(whole)
            checked += 1
    assert checked >= 20


def test_an_edit_renders_only_what_shows_it(tmp_path):
    """A summary edited in one release of a long history: that release's page, the feature's
    page, the pages linking to the feature, and the overviews; not the other pages."""
    data_dir = tmp_path / "releases"
    Corpus(30, 20, seed=3).write(data_dir)
    catalog = load_catalog(data_dir)
    path = sorted(data_dir.glob("[0-9]*.yaml"))[len(catalog.releases) // 2]
    release = yaml.safe_load(path.read_text(encoding="utf-8"))
    edited = copy.deepcopy(release)
    entry = next(entry for entry in edited["features"] if not entry.get("part_of"))
    entry["summary"]["en"] += " Edited."
    old = load_data(data_dir)
    _write(path, edited)
    change = incremental.what_changed(old, load_data(data_dir))
    changed = change.pages
    assert changed == {f"releases/{release['version']}.md", f"features/{entry['id']}.md"}
    links = render_pages(catalog, "en").links
    rendered = incremental.pages_to_render(pages(catalog), changed, links)
    overviews = {page.path for page in pages(catalog) if not page.kind.per_item}
    linking = {path for path, targets in links.items() if changed & targets}
    assert rendered == overviews | changed | linking
    assert len(rendered) < len(pages(catalog)) / 10


def test_what_may_change_every_page_renders_every_page(data_dir):
    before = load_data(data_dir)
    project = data_dir / "project.yaml"
    project.write_text(project.read_text(encoding="utf-8").replace("name:", "name:", 1) + "\n", encoding="utf-8")
    assert incremental.what_changed(before, load_data(data_dir)) == incremental.Change(frozenset(), frozenset())
    data = yaml.safe_load(project.read_text(encoding="utf-8"))
    first_area = next(iter(data["areas"]))
    data["areas"][first_area]["en"] = "An edited area name"
    _write(project, data)
    assert incremental.what_changed(before, load_data(data_dir)) is None
