"""Builds are deterministic and atomic: the same sources give byte-identical sites whatever the
hash seed, locale, day and file creation order; a build killed halfway leaves the previous site
complete, and the next build cleans up after it; a failed build removes its staging folder; one
build reads the data once, so a file saved during it is in none of its outputs; `serve` keeps
serving the last good site while the data is invalid and recovers on the next good save."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import sphobjinv

from helpers import (
    FIXTURE_RELEASES,
    LANGUAGE_PREFIXES,
    command_env,
    copy_project,
    fetch,
    page_html,
    release_file,
    releasekb_command,
    run_releasekb,
    search_pages,
    serve,
    temporary_leftovers,
    wait_for,
)

ENV = {**command_env(), "RELEASEKB_SITE_URL": "https://kb.example.org/"}


def tree(site: Path) -> dict[str, str]:
    """Every file of a site by its path, with the hash of its bytes."""
    return {
        path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(site.rglob("*"))
        if path.is_file()
    }


def project_with_releases_created_in(target: Path, source: Path, order: list[str]) -> Path:
    """A copy of the project `source` whose release files are created in `order`."""
    project = Path(shutil.copytree(source, target, ignore=shutil.ignore_patterns("releases")))
    (project / "releases").mkdir()
    for name in order:
        shutil.copy(source / "releases" / name, project / "releases" / name)
    return project


def test_two_builds_with_other_hash_seed_locale_day_file_order_and_cache_are_byte_identical(tmp_path):
    # One snapshot of the sources for both builds: the working tree may change meanwhile.
    source = copy_project(tmp_path / "source")
    files = sorted(path.name for path in (source / "releases").iterdir())
    # Each build with a cache folder of its own: Jinja's bytecode cache must not change the site.
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    sites = []
    for name, order, variant in (
        ("a", files, {"PYTHONHASHSEED": "1", "LC_ALL": "C", "LANG": "C", "SOURCE_DATE_EPOCH": "1700000000"}),
        ("b", files[::-1], {"PYTHONHASHSEED": "4242", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}),
    ):
        project = project_with_releases_created_in(tmp_path / name, source, order)
        result = run_releasekb(project, "build", env={**ENV, **variant, **cache})
        assert result.returncode == 0, result.stderr
        sites.append(tree(project / "site"))
    first, second = sites
    assert "sitemap.xml" in first and "sitemap.xml.gz" in first and "zh/sitemap.xml.gz" in first
    assert "pagefind/pagefind-entry.json" in first and "zh/pagefind/pagefind-entry.json" in first
    assert b"https://kb.example.org/releases/1.7/" in (tmp_path / "a" / "site" / "sitemap.xml").read_bytes()
    assert sorted(first) == sorted(second)
    assert [path for path in first if first[path] != second[path]] == []


def staging_folders(project: Path) -> list[Path]:
    return sorted(project.glob(".site-staging-*"))


def test_build_killed_halfway_leaves_the_previous_site_and_the_next_build_cleans_up(tmp_path):
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    assert run_releasekb(project, "build", env=ENV).returncode == 0
    before = tree(project / "site")
    release = project / "releases" / "1.1.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("小部件转为稳定}", "小部件已稳定}", 1), "utf-8")

    build = subprocess.Popen(
        [sys.executable, "-m", "releasekb.cli", "build"],
        cwd=project,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the kill reaches the MkDocs workers too
    )
    try:
        # halfway: the staging folder exists and MkDocs has begun writing pages into it
        wait_for(lambda: any(p.is_file() for s in staging_folders(project) for p in s.rglob("*")), 120, "output")
    finally:
        os.killpg(build.pid, signal.SIGKILL)
        build.wait(timeout=30)
    assert build.returncode == -signal.SIGKILL
    assert staging_folders(project), "the killed build left its staging folder"
    assert tree(project / "site") == before

    result = run_releasekb(project, "build", env=ENV)
    assert result.returncode == 0, result.stderr
    assert staging_folders(project) == []
    assert not (project / ".site-previous").exists()
    assert "小部件已稳定" in (project / "site" / "zh" / "releases" / "1.1" / "index.html").read_text(encoding="utf-8")


def test_a_site_moved_aside_by_an_interrupted_swap_is_put_back(tmp_path):
    """Killed between the two renames of the swap, a build leaves the previous site as
    .site-previous; the next build puts it back even when that build fails."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    assert run_releasekb(project, "build", env=ENV).returncode == 0
    before = tree(project / "site")
    (project / "site").rename(project / ".site-previous")
    release = project / "releases" / "1.1.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("stability: stable", "stability: stabel"), "utf-8")
    result = run_releasekb(project, "build", env=ENV)
    assert result.returncode == 1
    assert "'stabel' is not one of stable, experimental" in result.stderr
    assert tree(project / "site") == before


def test_serve_keeps_the_last_good_site_while_the_data_is_invalid(tmp_path):
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    log = open(tmp_path / "serve.log", "w+")
    process, base = serve(project, log)
    try:
        page = f"{base}/zh/releases/1.1/"
        wait_for(lambda: "小部件转为稳定" in fetch(page), 90, "the first build")
        release = project / "releases" / "1.1.yaml"
        text = release.read_text(encoding="utf-8")
        release.write_text(
            text.replace("stability: stable", "stability: stabel").replace("小部件转为稳定}", "坏}", 1), "utf-8"
        )

        def reported() -> bool:
            log.seek(0)
            return "features[0].stability: 'stabel' is not one of stable, experimental" in log.read()

        wait_for(reported, 60, "the problem to be reported")
        # served (fetch gives up after a few seconds: a guard against a wedged server), and still
        # the last good page
        shown = fetch(page)
        assert "小部件转为稳定" in shown and "坏" not in shown.split("<article", 1)[-1].split("</article>", 1)[0]

        release.write_text(text.replace("小部件转为稳定}", "小部件已稳定}", 1), encoding="utf-8")
        wait_for(lambda: "小部件已稳定" in fetch(page), 60, "the site to come back with the good save")
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()


def test_a_build_leaves_nothing_in_the_temporary_folder(tmp_path):
    """Each language worker ends by os._exit, which skips tempfile's clean-up: the pages written
    for Pagefind were once left behind by every build (10 GB in /tmp before anyone noticed)."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    result = run_releasekb(project, "build", env={**ENV, "TMPDIR": str(temporary)})
    assert result.returncode == 0, result.stderr
    assert (project / "site" / "zh" / "pagefind" / "pagefind-entry.json").is_file()
    assert temporary_leftovers(temporary) == []


# A save to releases/1.1.yaml that every kind of output shows: the release's title (its pages,
# search, feeds, the API), an entry's title (the changelog), a feature's title (objects.inv) and
# its first API name (its badges). "gadget" is in every output of the edited data, in no other.
SAVE = [
    ("title: {en: Widgets are stable, zh: 小部件转为稳定}", "title: {en: Gadgets are stable, zh: Gadgets 转为稳定}"),
    (
        "title: {en: Widgets become stable, zh: 小部件转为稳定}",
        "title: {en: Gadgets become stable, zh: Gadgets 变为稳定}",
    ),
    (
        "title: {en: No crash on empty files, zh: 读取空文件不再崩溃}",
        "title: {en: Gadgets read empty files, zh: Gadgets 读取空文件}\n    apis: [acme.gadget]",
    ),
]


API_FILES = ("features.json", "releases.json", "changelog.json", "releases/1.1.json")


def outputs_with_the_save(site: Path) -> dict[str, bool]:
    """{output: whether it shows the saved data}, for every kind of output of each language."""
    inventory = "objects.inv"
    texts = {"api/" + name: (site / "api" / name).read_text(encoding="utf-8") for name in API_FILES}
    for prefix in LANGUAGE_PREFIXES:
        texts[prefix + "releases/1.1/"] = page_html(site, prefix + "releases/1.1")
        texts[prefix + "pagefind/"] = json.dumps(search_pages(site, prefix), ensure_ascii=False)
        texts[prefix + "feed.xml"] = (site / prefix / "feed.xml").read_text(encoding="utf-8")
        texts[prefix + inventory] = sphobjinv.Inventory(fname_zlib=str(site / prefix / inventory)).data_file().decode()
        texts[prefix + "badges/"] = (site / prefix / "badges" / "crash-on-empty-file.svg").read_text(encoding="utf-8")
    return {output: "gadget" in text.lower() for output, text in texts.items()}


# Run in each language's worker just after it has the data (its first step): the file is saved
# then, before any page or output is written. Written whole (renamed into place), as editors do,
# so that the other worker reads the file before or after the save, never half of it.
SAVE_ONCE_THE_DATA_IS_READ = f"""
import os
import tempfile
from pathlib import Path
from releasekb.site import generate

generate_language = generate.generate_language

def save_then_generate(*args):
    release = Path("releases/1.1.yaml")
    text = release.read_text(encoding="utf-8")
    for old, new in {SAVE!r}:
        text = text.replace(old, new)
    descriptor, written = tempfile.mkstemp(prefix=".1.1.yaml.", dir="releases")  # a name of its own
    with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
        stream.write(text)
    os.replace(written, release)
    return generate_language(*args)

generate.generate_language = save_then_generate
"""


def test_a_file_saved_during_a_build_is_in_none_of_its_outputs_and_in_all_of_the_next_builds(tmp_path):
    """The build reads the data once, for every language and every output: a save during the
    build gave a site whose pages, search and feeds were of the old data and whose API was of
    the new (or one language of each)."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    result = run_releasekb(project, "build", env=ENV, change=SAVE_ONCE_THE_DATA_IS_READ)
    assert result.returncode == 0, result.stderr
    assert "Gadgets are stable" in (project / "releases" / "1.1.yaml").read_text(encoding="utf-8")  # saved
    shown = outputs_with_the_save(project / "site")
    assert [output for output, saved in shown.items() if saved] == []

    assert run_releasekb(project, "build", env=ENV).returncode == 0
    shown = outputs_with_the_save(project / "site")
    assert [output for output, saved in shown.items() if not saved] == []


# The English worker fails as it starts (an error no check foresaw, as feedgen's once was); the
# Chinese one builds on after that, writing into the staging folder.
FAULT_IN_ONE_LANGUAGE = """
import time
from pathlib import Path
from releasekb.site import generate

generate_language = generate.generate_language
failed = Path("english-failed")

def fail_in_english(knowledge_base, site_url, lang, *rest):
    if lang == "en":
        failed.touch()
        raise ValueError("a simulated fault in the English build")
    for _ in range(6000):  # a guard: the English build fails at once
        if failed.exists():
            break
        time.sleep(0.01)
    return generate_language(knowledge_base, site_url, lang, *rest)

generate.generate_language = fail_in_english
"""


def test_a_failed_build_removes_its_staging_folder_and_leaves_the_site(tmp_path):
    """The staging folder was removed as soon as one language failed, while the other still
    wrote into it: it was left until the next build."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    assert run_releasekb(project, "build", env=ENV).returncode == 0
    before = tree(project / "site")
    result = run_releasekb(project, "build", env=ENV, change=FAULT_IN_ONE_LANGUAGE)
    assert result.returncode != 0
    assert "a simulated fault in the English build" in result.stderr
    assert (project / "english-failed").exists()  # the fault happened, after the staging folder was made
    assert staging_folders(project) == []
    assert tree(project / "site") == before


def make_unreadable(path: Path, fault: str) -> str:
    """Turn the release path `path` into something that cannot be read as a file; returns what
    the problem says."""
    if fault == "folder":
        path.mkdir()
        return "is a folder, not a file (rename or remove it)"
    if fault == "pipe":
        os.mkfifo(path)  # opened for reading, it waited for a writer forever
        return "is not a regular file (a pipe?) (rename or remove it)"
    if fault == "loop":
        path.symlink_to(path.name)
        return "cannot be read: Too many levels of symbolic links"
    path.write_text(release_file("1.8"), encoding="utf-8")
    path.chmod(0)
    return "cannot be read: permission denied (give yourself read access, e.g. `chmod u+r`)"


@pytest.mark.parametrize("fault", ["folder", "pipe", "loop", "unreadable"])
def test_a_data_path_that_cannot_be_read_is_a_problem_at_its_file(tmp_path, fault):
    """...for `validate` and `build` alike: it was a traceback (or, for a pipe, a wait forever)."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    message = make_unreadable(project / "releases" / "1.8.yaml", fault)
    for command in ("validate", "build"):
        result = subprocess.run(
            releasekb_command(command, permissions=True),
            cwd=project,
            capture_output=True,
            text=True,
            env=ENV,
            timeout=120,
        )
        assert result.returncode == 1, result.stderr
        assert result.stderr.splitlines()[:2] == [
            f"releases/1.8.yaml:1:1: (document): {message}",
            "1 problem found; nothing was built.",
        ]
    assert not (project / "site").exists() and staging_folders(project) == []
