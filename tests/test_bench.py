"""`releasekb bench` at smoke size: it runs end to end and its JSON report is complete."""

import json
import subprocess
import sys

from helpers import ROOT, catalog_of
from releasekb.bench import SMOKE_SHAPES, STAGES, Corpus


def test_bench_smoke_report_is_complete_and_consistent(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "releasekb.cli", "bench", "--smoke", "--json", "--repeat", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "bench: 2x6: releasekb build" in result.stderr  # progress goes to stderr
    report = json.loads(result.stdout)
    assert [shape["shape"] for shape in report["shapes"]] == list(SMOKE_SHAPES)
    for shape in report["shapes"]:
        assert set(shape["seconds"]) == set(STAGES), shape["shape"]
        # validate is load+validate minus load, two noisy timings: 0 when noise exceeds it. It is
        # part of every build, so a validate time above the build's is a measurement gone wrong.
        assert all(seconds > 0 for stage, seconds in shape["seconds"].items() if stage != "validate"), shape
        assert shape["seconds"]["validate"] < shape["seconds"]["build"], shape
        assert shape["entries"] == shape["releases"] * shape["entries_per_release"]
        # At least one page per release and one per feature, in each of the two languages.
        assert shape["pages_per_language"] >= shape["releases"] + shape["features"]
        assert shape["html_pages"] >= 2 * shape["pages_per_language"]
        assert shape["build_peak_mb"] > 0 and shape["plain_peak_mb"] > 0
        assert 0 < shape["largest_html_mb"] < 2
        assert set(shape["search_index_mb"]) == {"en", "zh"}
        assert shape["pages_per_second"] > 0 and shape["build_vs_plain"] > 0
    ratios = report["ratios"]
    assert ratios["base_shape"] == "2x6"
    assert ratios["double_releases_build"] > 0 and ratios["double_entries_per_release_build"] > 0


def test_corpus_is_deterministic_and_valid(tmp_path):
    Corpus(6, 20, seed=3).write(tmp_path / "a")
    Corpus(6, 20, seed=3).write(tmp_path / "b")
    Corpus(6, 20, seed=4).write(tmp_path / "c")
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "b").iterdir())
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)
    assert (tmp_path / "a" / "1.5.yaml").read_bytes() != (tmp_path / "c" / "1.5.yaml").read_bytes()
    catalog = catalog_of(tmp_path / "a")  # valid data, or this raises
    kinds = {event.kind for release in catalog.releases for event in release.events}
    # Shaped like real release notes: lifecycles across releases, parts, changes.
    assert {"introduced", "promoted", "addition", "deprecation", "breaking"} <= kinds
    assert any(feature.parts for feature in catalog.features.values())
    summary = catalog.releases[1].entries[0].summary
    assert len(summary["en"].split()) >= 30 and len(summary["zh"]) >= 40
