"""Under `serve`, an edit renders only the pages that show what it changed (incremental.py).
Each test makes an edit a curator makes, lets LanguagePages.generate_once render the pages incrementally, and
compares every generated page with a whole render of the edited data: a page left out would
show the old text."""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from helpers import FIXTURE_RELEASES, command_env, copy_project
from releasekb.bench.corpus import Corpus
from releasekb.common.versions import version_key
from releasekb.kb.loader import YamlParser
from releasekb.kb.pages import pages
from releasekb.kb.pipeline import load_catalog
from releasekb.kb.validate import load_data, read_files
from releasekb.site import incremental
from releasekb.site.generate import LanguagePages
from releasekb.site.render import render_language, render_pages

ROOT = Path(__file__).resolve().parent.parent


# libyaml's reader and writer, as the loader reads (loader.YamlParser): PyYAML's own, in Python,
# took a quarter of the real files' edit tests, each of which reads every release file.
_LOADER = YamlParser
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _read(path: Path):
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)


def _write(path: Path, data: dict) -> None:
    first_line = path.read_text(encoding="utf-8").partition("\n")[0]  # the schema comment
    text = yaml.dump(data, Dumper=_DUMPER, allow_unicode=True, sort_keys=False)
    path.write_text(first_line + "\n" + text, encoding="utf-8")


# The data edited: the real releases, and a synthetic history with every kind of entry.
SOURCES = {
    "real": lambda target: shutil.copytree(ROOT / "releases", target),
    "corpus": lambda target: Corpus(6, 10, seed=3).write(target),
}


@pytest.fixture(params=list(SOURCES))
def data_dir(request, tmp_path) -> Path:
    target = tmp_path / "releases"
    SOURCES[request.param](target)
    return target


# Edits a curator makes to one release's data, in place; each returns False where it does not apply.
# `others`: what the other release files have (Others).


def entry_text(data, project, rng, others):
    rng.choice(data["features"] + data.get("changes", []))["summary"]["en"] += " Edited."


def entry_title(data, project, rng, others):
    rng.choice(data["features"] + data.get("changes", []))["title"]["zh"] += "（已修订）"


def _labeled(data) -> list[dict]:
    return [entry for entry in data["features"] if entry.get("stability") and not entry.get("stability_stated_in")]


def entry_level(data, project, rng, others):
    if not _labeled(data):
        return False
    entry = rng.choice(_labeled(data))
    others = [label for label in project["stability"]["schemes"][data["scheme"]] if label != entry["stability"]]
    if not others:  # a scheme of one label (1.4's, experimental-only): no other level to set
        return False
    entry["stability"] = others[0]


def level_removed(data, project, rng, others):
    if not _labeled(data):
        return False
    del rng.choice(_labeled(data))["stability"]


def release_fields(data, project, rng, others):
    data["title"]["en"] += " (edited)"
    data["summary"]["zh"] += "已修订。"


def release_date(data, project, rng, others):
    data["date"] = str(data["date"])[:4] + "-01"


def apis_added(data, project, rng, others):
    rng.choice(data["features"]).setdefault("apis", []).append("torch.edited_api")


def highlight_dropped(data, project, rng, others):
    if not data.get("highlights"):
        return False
    data["highlights"] = data["highlights"][1:]


def parent_dropped(data, project, rng, others):
    parts = [entry for entry in data["features"] if entry.get("part_of")]
    if not parts:
        return False
    del rng.choice(parts)["part_of"]


def entry_added(data, project, rng, others):
    """A feature of another release gets an entry in this one too, a step of its lifecycle: the
    pages showing this release did not link to that feature's page before."""
    here = {entry["id"] for entry in data["features"] + data.get("changes", [])}
    candidates = sorted(feature_id for feature_id in others.features if feature_id not in here)
    if not candidates:
        return False
    feature_id = rng.choice(candidates)
    other = others.features[feature_id]
    data["features"].append({
        "id": feature_id,
        "name": other.get("name") or {"en": f"The {feature_id} feature", "zh": f"{feature_id} 功能"},
        "kind": "improvement",
        "area": other["area"],
        "title": {"en": f"{feature_id} improves again", "zh": f"{feature_id} 再次改进"},
        "summary": {"en": "An entry added by the edit.", "zh": "这一条目是编辑时加上的。"},
    })  # fmt: skip


def entry_dropped(data, project, rng, others):
    """An entry is removed from this release; its feature keeps the entries other releases have."""
    parents = {entry.get("part_of") for entry in data["features"]}
    candidates = [
        position
        for position, entry in enumerate(data["features"])
        if entry["id"] in others.features
        and entry["id"] not in parents
        and (others.features[entry["id"]].get("name") or not entry.get("name"))
    ]
    if not candidates:
        return False
    dropped = data["features"].pop(rng.choice(candidates))
    if dropped["id"] in data.get("highlights", []):
        data["highlights"].remove(dropped["id"])


def effect_moved(data, project, rng, others):
    """A change announced here takes effect in another later release than it said: that release's
    sections did not list it before."""
    announced = [entry for entry in data.get("changes", []) if entry.get("takes_effect")]
    if not announced:
        return False
    entry = rng.choice(announced)
    later = [v for v in others.versions if version_key(v) > version_key(data["version"]) and v != entry["takes_effect"]]
    if not later:
        return False
    entry["takes_effect"] = rng.choice(later)


EDITS = [entry_text, entry_title, entry_level, level_removed, release_fields, release_date, apis_added,
         highlight_dropped, parent_dropped, entry_added, entry_dropped, effect_moved]  # fmt: skip


@dataclass(frozen=True)
class Others:
    """What the release files other than the edited one have."""

    features: dict[str, dict]  # {feature id: its entry}
    versions: list[str]


def _others(releases: dict[Path, dict], edited: Path) -> Others:
    others = [release for path, release in releases.items() if path != edited]
    return Others(
        {entry["id"]: entry for release in others for entry in release["features"]},
        [str(release["version"]) for release in others],
    )


def _rng(edit, release: str) -> random.Random:
    """The choices of one edit to one release file, the same at collection and in its test."""
    return random.Random(f"{edit.__name__}:{release}")


def _edits_that_apply() -> list:
    """Every kind of edit to every release file it applies to, in each source: one test each,
    so that an edit that fails does not hide the others. The languages take turns."""
    cases = []
    with tempfile.TemporaryDirectory() as folder:
        for source, write in SOURCES.items():
            data_dir = Path(folder) / source
            write(data_dir)
            project = _read(data_dir / "project.yaml")
            # each file read once (every test process collects this): each edit gets its own copy
            releases = {path: _read(path) for path in sorted(data_dir.glob("[0-9]*.yaml"))}
            applied = 0
            for edit in EDITS:
                for path, release in releases.items():
                    if edit(copy.deepcopy(release), project, _rng(edit, path.name), _others(releases, path)) is False:
                        continue
                    lang = ("en", "zh")[applied % 2]
                    name = f"{source}-{edit.__name__}-{path.stem}-{lang}"
                    cases.append(pytest.param(source, edit, path.name, lang, id=name))
                    applied += 1
    return cases


EDIT_CASES = _edits_that_apply()


def test_the_edits_cover_enough_releases():
    for source in SOURCES:
        assert len([case for case in EDIT_CASES if case.values[0] == source]) >= 20, source


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One source's data folder, and one LanguagePages per language, shared
    by the edits in turn as by `serve`'s language workers (each keeps its one language): each
    edit's pages are generated from the previous state, the undoing of the edit before it
    included, and each edit is undone once checked."""
    folders = {}
    languages = {}

    def state(source: str, lang: str) -> tuple[Path, LanguagePages]:
        if source not in folders:
            folders[source] = tmp_path_factory.mktemp(f"incremental-{source}")
            SOURCES[source](folders[source] / "releases")
        folder = folders[source]
        return folder / "releases", languages.setdefault((source, lang), LanguagePages())

    return state


@pytest.mark.parametrize(("source", "edit", "release", "lang"), EDIT_CASES)
def test_an_edit_renders_the_pages_a_whole_render_gives(served, source, edit, release, lang):
    """One kind of edit to one release, checked against a whole render of the edited data."""
    data_dir, generated_pages = served(source, lang)
    project = _read(data_dir / "project.yaml")
    path = data_dir / release
    original = path.read_text(encoding="utf-8")
    data = yaml.load(original, Loader=_LOADER)
    releases = {file: _read(file) for file in sorted(data_dir.glob("[0-9]*.yaml"))}
    assert edit(data, project, _rng(edit, release), _others(releases, path)) is not False
    before = generated_pages.generate_once(read_files(data_dir), "", lang).texts()  # the pages before the edit
    generated_pages.built()  # as a kept build says: the next dirty build builds only what changes
    _write(path, data)
    try:
        generated = generated_pages.generate_once(read_files(data_dir), "", lang)
        whole = render_language(load_catalog(data_dir), lang)
    finally:
        path.write_text(original, encoding="utf-8")
    made = generated.texts()
    assert made == whole, sorted(page for page in whole if made.get(page) != whole[page])
    # the dirty build builds exactly the pages whose text changed
    changed = {page for page in made if before.get(page) != made[page]}
    assert {page for page in made if generated_pages.is_unbuilt(page)} == changed
    assert generated.pages == frozenset(whole)


def test_an_edit_renders_only_what_shows_it(tmp_path):
    """A summary edited in one release of a long history: that release's page, the feature's
    page, the pages linking to the feature, and the overviews; not the other pages, not even the
    other features of that release, which link to its page but show none of what changed. Its
    title edited: every page linking to the release's page too."""
    data_dir = tmp_path / "releases"
    Corpus(30, 20, seed=3).write(data_dir)
    catalog = load_catalog(data_dir)
    path = sorted(data_dir.glob("[0-9]*.yaml"))[len(catalog.releases) // 2]
    release = _read(path)
    release_page = f"releases/{release['version']}.md"
    edited = copy.deepcopy(release)
    entry = next(entry for entry in edited["features"] if not entry.get("part_of"))
    entry["summary"]["en"] += " Edited."
    old = load_data(data_dir)
    _write(path, edited)
    change = incremental.what_changed(old, load_data(data_dir))
    feature_page = f"features/{entry['id']}.md"
    assert change.pages == {release_page, feature_page}
    assert change.shown_elsewhere == {feature_page}
    links = render_pages(catalog, "en").links
    rendered = incremental.pages_to_render(pages(catalog), change, links)
    overviews = {page.path for page in pages(catalog) if not page.kind.per_item}
    linking = {path for path, targets in links.items() if feature_page in targets}
    assert rendered == overviews | change.pages | linking
    linking_to_the_release = {path for path, targets in links.items() if release_page in targets}
    assert len(linking_to_the_release - rendered) >= 10  # the release's other features among them
    assert len(rendered) < len(pages(catalog)) / 10

    edited["title"]["en"] += " (edited)"
    _write(path, edited)
    change = incremental.what_changed(old, load_data(data_dir))
    assert change.shown_elsewhere == {release_page, feature_page}
    rendered = incremental.pages_to_render(pages(catalog), change, links)
    assert rendered == overviews | change.pages | linking | linking_to_the_release


def test_what_may_change_every_page_renders_every_page(data_dir):
    before = load_data(data_dir)
    project = data_dir / "project.yaml"
    project.write_text(project.read_text(encoding="utf-8").replace("name:", "name:", 1) + "\n", encoding="utf-8")
    assert incremental.what_changed(before, load_data(data_dir)) == incremental.Change(frozenset(), frozenset())
    data = _read(project)
    first_area = next(iter(data["areas"]))
    data["areas"][first_area]["en"] = "An edited area name"
    _write(project, data)
    assert incremental.what_changed(before, load_data(data_dir)) is None


def test_an_edit_that_relates_two_features_of_other_releases_renders_both(tmp_path):
    """An API added to a feature of 1.7 that a change of 0.2 names as its replacement: the 0.2
    change's page now says which feature provides it, though it linked to neither that feature nor
    1.7 before (incremental.cross_references)."""
    data_dir = tmp_path / "releases"
    shutil.copytree(ROOT / "releases", data_dir)
    replacement = "torch.Tensor.masked_scatter_"
    before = load_catalog(data_dir)
    path = data_dir / "1.7.yaml"
    data = _read(path)
    provider = data["features"][0]
    assert before.provider_of(replacement) is None or before.provider_of(replacement).id != provider["id"]
    generated_pages = LanguagePages()
    generated_pages.generate_once(read_files(data_dir), "", "en")
    provider.setdefault("apis", []).append(replacement)
    _write(path, data)
    assert load_catalog(data_dir).provider_of(replacement).id == provider["id"]
    made = generated_pages.generate_once(read_files(data_dir), "", "en").texts()
    whole = render_language(load_catalog(data_dir), "en")
    assert made == whole, sorted(page for page in whole if made.get(page) != whole[page])


DIRTY_BUILD = """
import json
from pathlib import Path
from releasekb.site.build import SiteBuilder

def pages(site):
    return {str(p.relative_to(site)): (p.stat().st_mtime_ns, p.read_bytes()) for p in site.rglob("index.html")}

builder = SiteBuilder("mkdocs.yml", strict=False, serving=True)  # as serve makes it
site, whole = Path("site").resolve(), Path("whole").resolve()
assert builder.build_into(site)
before = pages(site)
release = Path("releases/1.1.yaml")
release.write_text(release.read_text(encoding="utf-8").replace("Widgets keep their API", "Widgets keep the API", 1))
assert builder.update(site)  # the dirty build, in place
after = pages(site)
assert builder.build_into(whole)  # a whole build of the edited data
truth = pages(whole)
builder.close()
print(json.dumps({
    "all": len(after),
    "rebuilt": sorted(page for page in after if after[page][0] != before[page][0]),
    "changed": sorted(page for page in truth if truth[page][1] != before[page][1]),
    "stale": sorted(page for page in truth if truth[page][1] != after[page][1]),
}))
"""


def test_a_save_under_serve_builds_only_the_pages_it_changed(tmp_path):
    """`serve`'s dirty build builds exactly the pages whose text an edit changed (GeneratedFile.is_modified,
    LanguagePages.is_unbuilt), compared with a whole build of the edited data, in every language."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    result = subprocess.run(
        [sys.executable, "-c", DIRTY_BUILD], cwd=project, capture_output=True, text=True, env=command_env(), timeout=300
    )
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.splitlines()[-1])
    assert found["stale"] == []
    assert found["rebuilt"] == found["changed"]
    assert "features/widgets/index.html" in found["changed"] and len(found["changed"]) < found["all"] / 10
