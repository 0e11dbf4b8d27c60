"""Builds are deterministic and atomic: the same sources give byte-identical sites whatever the
hash seed, locale, day and file creation order; a build killed halfway leaves the previous site
complete, and the next build cleans up after it; `serve` keeps serving the last good site while
the data is invalid and recovers on the next good save."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from helpers import (
    FIXTURE_RELEASES,
    command_env,
    copy_project,
    fetch,
    run_releasekb,
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
