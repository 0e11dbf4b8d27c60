"""Build-time benchmark: how the pipeline scales with the number of features.

Run: .venv/bin/python scripts/benchmark.py [--features 400] [--releases 8]

Everything is measured in the same run on the same machine, and reported as ratios to a
baseline (the real releases/ data), so figures from different machines can be compared:
- validate + catalog + render (in process, best of 3);
- the full `releasekb build` (MkDocs, Material, i18n, search; one run each).
A per-feature ratio near 1 means the build grows linearly; the design notes record a
quadratic build when feature pages were in the navigation.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import FIXTURES, copy_project  # noqa: E402
from releasekb.catalog import build_catalog  # noqa: E402
from releasekb.render import render_all  # noqa: E402
from releasekb.validate import load_data  # noqa: E402


def synthetic_releases(target: Path, releases: int, features: int) -> Path:
    """Fixture vocabularies plus `releases` files sharing `features` ids (promotions included)."""
    target.mkdir(parents=True)
    shutil.copy(FIXTURES / "releases" / "project.yaml", target / "project.yaml")
    per_release = max(1, features // releases)
    for r in range(releases):
        lines = [
            "# yaml-language-server: $schema=release.schema.json",
            f'version: "3.{r}"',
            f"date: 2022-{r % 12 + 1:02d}-01",
            "scheme: stable-experimental",
            f"title: {{en: Release 3.{r}, zh: 3.{r} 版本}}",
            "summary: {en: A synthetic release., zh: 一个合成的版本。}",
            "sources: [{kind: original, lang: en, url: 'https://example.org/notes'}]",
            "features:",
        ]
        for f in range(r * per_release, (r + 1) * per_release):
            level = "stable" if f % 3 == 0 else "experimental"
            lines += [
                f"  - id: feature-{f}",
                "    area: core" if f % 2 else "    area: io",
                f"    stability: {level}",
                f"    title: {{en: Feature number {f}, zh: 第 {f} 号特性}}",
                f"    summary: {{en: 'What feature {f} does: `api.f{f}`.', zh: '第 {f} 号特性：`api.f{f}`。'}}",
                f"    apis: [api.f{f}]",
            ]
        if r:  # each release also promotes a feature of the previous one
            previous = (r - 1) * per_release
            lines += [
                f"  - id: feature-{previous}",
                "    name: {en: A promoted feature, zh: 一个升级的特性}",
                "    area: io",
                "    stability: stable",
                f"    title: {{en: Feature {previous} is stable, zh: 第 {previous} 号特性转为稳定}}",
                "    summary: {en: Now stable., zh: 现已稳定。}",
            ]
        (target / f"3.{r}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def time_pipeline(data_dir: Path) -> tuple[float, int, int]:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        catalog = build_catalog(load_data(data_dir))
        pages = render_all(catalog)
        best = min(best, time.perf_counter() - start)
    return best, len(catalog.features), len(pages)


def time_build(project: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "releasekb.cli", "build"],
        cwd=project,
        check=True,
        capture_output=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--features", type=int, default=400)
    parser.add_argument("--releases", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base_data = ROOT / "releases"
        big_data = synthetic_releases(tmp / "big-data", args.releases, args.features)
        base_pipeline, base_features, base_pages = time_pipeline(base_data)
        big_pipeline, big_features, big_pages = time_pipeline(big_data)
        base_build = time_build(copy_project(tmp / "base"))
        big_build = time_build(copy_project(tmp / "big", big_data))

    scale = big_features / base_features
    print(f"baseline: real data, {base_features} features, {base_pages} pages")
    print(f"scaled:   synthetic, {big_features} features, {big_pages} pages ({scale:.1f}x the features)")
    print(f"{'stage':32} {'baseline':>9} {'scaled':>9} {'ratio':>7} {'ratio per feature':>18}")
    for stage, base, big in (
        ("validate + catalog + render", base_pipeline, big_pipeline),
        ("full build (releasekb build)", base_build, big_build),
    ):
        ratio = big / base
        print(f"{stage:32} {base:8.2f}s {big:8.2f}s {ratio:6.2f}x {ratio / scale:17.2f}x")


if __name__ == "__main__":
    main()
