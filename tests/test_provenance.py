"""Every level says who stated it: a level that another release's announcement stated is shown as
such everywhere, and validate refuses one that no cited release could have published."""

from __future__ import annotations

import re

from helpers import html_pages, problems_of, real_data
from releasekb.kb import api

BORROWED = '    stability_stated_in: "1.5"\n    stability: experimental\n'


def test_the_1_4_rpc_parts_cite_the_1_5_announcement(real_catalog):
    rpc_api = real_catalog.features["rpc-api"]
    assert [(e.release.version, e.level.key, e.level_stated_by) for e in rpc_api.entries] == [
        ("1.4", "experimental", "1.5"),
        ("1.5", "stable", None),
    ]
    borrowed = sorted(e.id for e in real_catalog.release("1.4").features if e.level_stated_by)
    assert borrowed == [
        "distributed-autograd",
        "distributed-optimizer",
        "distributed-rpc",
        "rpc-api",
        "rpc-remote-reference",
    ]
    remote = {e.release.version: e.level.key for e in real_catalog.features["rpc-remote-reference"].entries}
    assert remote == {"1.4": "experimental", "1.5": "stable"}  # 1.5 promotes the four parts alike


def test_pages_say_which_announcement_stated_a_level_in_both_languages(real_catalog):
    for lang, note in (("en", "(stated in the 1.5 announcement)"), ("zh", "（据 1.5 版公告）")):
        pages = html_pages(real_catalog, lang)
        release = pages["releases/1.4.md"]
        section = release.split('id="rpc-api"')[1].split("<h4")[0]
        assert re.search(f'<a class="rkb-provenance" href="[^"]+">{re.escape(note)}</a>', section)
        own = release.split('id="torchscript-java"')[1].split("<h4")[0]  # 1.4's article labels it itself
        assert "rkb-provenance" not in own
        timeline = pages["features/rpc-api.md"].split('id="lifecycle"')[1].split('id="releases"')[0]
        assert note in timeline
        short = "(per 1.5)" if lang == "en" else "（据 1.5）"
        # the features index and the overview read levels as of each release, 1.4's among them
        assert short in pages["features/index.md"] and short in pages["stability/index.md"]


def test_the_api_gives_the_citation(real_catalog):
    record = api.feature_record(real_catalog.features["rpc-api"], "")
    assert [(e["release"], e["level_stated_by"]) for e in record["entries"]] == [("1.4", "1.5"), ("1.5", None)]
    assert record["level_stated_by"] is None  # the current level (stable) is 1.5's own


def test_a_level_no_cited_release_could_publish_is_refused(tmp_path):
    data = real_data(
        tmp_path / "a", {"1.4.yaml": [(BORROWED, '    stability_stated_in: "1.7"\n    stability: experimental\n')]}
    )
    (problem,) = problems_of(data)
    assert "'experimental' is not a label of 1.7's scheme 'stable-beta-prototype'" in problem
    data = real_data(
        tmp_path / "b", {"1.4.yaml": [(BORROWED, '    stability_stated_in: "1.4"\n    stability: experimental\n')]}
    )
    (problem,) = problems_of(data)
    assert "is this entry's own release" in problem
    data = real_data(
        tmp_path / "c", {"1.4.yaml": [(BORROWED, '    stability_stated_in: "1.6"\n    stability: experimental\n')]}
    )
    (problem,) = problems_of(data)
    assert "no release '1.6' in the data" in problem


def test_a_borrowed_level_may_come_from_another_scheme(tmp_path):
    """0.2 published no levels (its scheme has no labels): a level needs a release that stated it."""
    cited = '  - id: torch-matmul\n    stability_stated_in: "1.5"\n    stability: stable\n'
    assert problems_of(real_data(tmp_path / "a", {"0.2.yaml": [("  - id: torch-matmul\n", cited)]})) == []
    uncited = "  - id: torch-matmul\n    stability: stable\n"
    (problem,) = problems_of(real_data(tmp_path / "b", {"0.2.yaml": [("  - id: torch-matmul\n", uncited)]}))
    assert "this release uses the scheme 'unlabeled', which has no labels" in problem
