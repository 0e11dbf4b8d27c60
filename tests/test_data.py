"""Checks over the curated PyTorch data (issue: curate the four releases).

What `validate` enforces on every data folder (both languages in their script, one title per
entry, the glossary's traps) is shown to fire on a bad copy of the real data; the other tests
state the curated facts themselves.
"""

import pytest
import yaml

from helpers import REAL_RELEASES, line_of, problems_of, real_data

# Two titles of 1.7's features, written in the file as `zh: "..."` on a line of their own.
PROFILER_TITLE = 'zh: "内存性能分析器转为稳定"'  # features[1], memory-profiler
TENSOR_LIKE_TITLE = 'zh: "通过类张量对象扩展 PyTorch 转为稳定"'  # features[2], tensor-like-extensions


def test_the_four_releases_are_curated(real_catalog):
    assert [r.version for r in real_catalog.releases] == ["0.2", "1.4", "1.5", "1.7"]
    assert {r.version: r.date for r in real_catalog.releases} == {
        "0.2": "2017-08",
        "1.4": "2020-01",
        "1.5": "2020-04-21",
        "1.7": "2020-10-27",
    }


def test_the_real_data_is_valid():
    assert problems_of(REAL_RELEASES) == []


def test_a_text_in_the_wrong_script_is_refused_at_its_line(tmp_path):
    data = real_data(
        tmp_path,
        {
            "1.7.yaml": [
                (TENSOR_LIKE_TITLE, 'zh: "Extending PyTorch with tensor-like objects"'),
                ('en: "Memory profiler is stable"', 'en: "内存性能分析器转为稳定"'),
            ]
        },
    )
    path = data / "1.7.yaml"
    english, chinese = line_of(path, 'en: "内存性能分析器'), line_of(path, 'zh: "Extending')
    assert problems_of(data) == [
        f"{path}:{english}:11: features[1].title.en: the English text contains Chinese characters",
        f"{path}:{chinese}:11: features[2].title.zh: the Chinese text contains no Chinese",
    ]


def test_two_entries_of_a_release_with_one_title_are_refused(tmp_path):
    data = real_data(tmp_path, {"1.7.yaml": [(TENSOR_LIKE_TITLE, PROFILER_TITLE)]})
    path = data / "1.7.yaml"
    lines = [n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if PROFILER_TITLE in text]
    assert problems_of(data) == [
        f"{path}:{lines[1]}:11: features[2].title.zh: the same title is already used by 'memory-profiler'; "
        "give each entry its own"
    ]


def test_every_release_has_sources_with_an_original(real_catalog):
    for release in real_catalog.releases:
        kinds = {(s.kind, s.lang) for s in release.sources}
        # 1.4's Chinese source is a news article about the release, not a translation of the notes.
        chinese = "report" if release.version == "1.4" else "translation"
        assert ("original", "en") in kinds and (chinese, "zh") in kinds, release.version
        assert release.highlights, release.version


def test_schemes_are_the_ones_each_release_used(real_catalog):
    assert {r.version: r.scheme for r in real_catalog.releases} == {
        "0.2": "unlabeled",
        "1.4": "experimental-only",  # its article labels features experimental, none stable
        "1.5": "stable-experimental",
        "1.7": "stable-beta-prototype",
    }
    assert {e.level.key for e in real_catalog.release("0.2").features} == {"unlabeled"}
    assert {e.level.key for e in real_catalog.release("1.7").features} == {"stable", "beta", "prototype", "unlabeled"}


def test_what_an_upgrade_must_not_miss_is_exactly_the_curated_list(real_catalog):
    """Every breaking change, removal, deprecation and level change of the four releases: the
    upgrade view's sections (Release.upgrade_events)."""
    assert {r.version: [(ev.kind, ev.feature.id) for ev in r.upgrade_events] for r in real_catalog.releases} == {
        "0.2": [
            ("breaking", "broadcasting-result-shape-change"),
            ("breaking", "reduction-keepdim-default"),
            ("deprecation", "pointwise-1d-view-deprecated"),
            ("deprecation", "masked-copy-renamed"),
        ],
        "1.4": [("deprecation", "python2-support"), ("deprecation", "cpp11-support")],
        "1.5": [
            ("removal", "python2-support"),
            ("promoted", "distributed-rpc"),
            ("promoted", "rpc-api"),
            ("promoted", "rpc-remote-reference"),
            ("promoted", "distributed-autograd"),
            ("promoted", "distributed-optimizer"),
        ],
        "1.7": [("deprecation", "torch-fft-function"), ("promoted", "custom-cpp-classes")],
    }
    removed = {f.id: f.removed_in.version for f in real_catalog.features.values() if f.removed_in}
    assert removed == {"python2-support": "1.5"}


@pytest.mark.parametrize(
    ("feature_id", "lifecycle"),
    [
        ("distributed-rpc", [("1.4", "experimental"), ("1.5", "stable")]),
        ("custom-cpp-classes", [("1.5", "experimental"), ("1.7", "stable")]),
        ("rpc-api", [("1.4", "experimental"), ("1.5", "stable")]),
    ],
)
def test_published_level_changes(real_catalog, feature_id, lifecycle):
    feature = real_catalog.features[feature_id]
    assert [(e.release.version, e.level.key) for e in feature.entries] == lifecycle
    assert feature.events[-1].kind == "promoted"


def test_the_four_parts_of_the_rpc_framework_are_promoted_alike(real_catalog):
    """1.5's announcement declares the RPC framework stable and describes remote references inside
    that section: like the other three parts, they are stable from 1.5 (issue 36; the file's rule
    that sub-entries carry their section's label)."""
    for part in ("rpc-api", "rpc-remote-reference", "distributed-autograd", "distributed-optimizer"):
        feature = real_catalog.features[part]
        assert [(e.release.version, e.level.key) for e in feature.entries[:2]] == [
            ("1.4", "experimental"),
            ("1.5", "stable"),
        ], part
        assert "promoted" in {event.kind for event in feature.events}, part


@pytest.mark.parametrize(
    ("parent", "child", "version"),
    [
        ("rpc-api", "rpc-torchscript-sync-remote", "1.7"),
        ("rpc-api", "rpc-per-call-timeout", "1.7"),
        ("rpc-remote-reference", "rref-helpers", "1.7"),
        ("distributed-package", "windows-distributed-training", "1.7"),
        ("distributed-collectives", "nccl-async-error-handling", "1.7"),
        ("pytorch-mobile", "mobile-ios-android-binaries", "1.7"),
        ("distributed-rpc", "rpc-profiling", "1.7"),
        ("cpp-frontend", "cpp-transformer", "1.7"),
        ("distributed-data-parallel", "ddp-uneven-inputs", "1.7"),
        ("lr-schedulers", "lr-scheduler-chaining", "1.4"),
    ],
)
def test_later_additions_link_to_their_feature(real_catalog, parent, child, version):
    assert real_catalog.features[child].parent is real_catalog.features[parent]
    assert real_catalog.features[child].first.release.version == version


def test_cpp_frontend_starts_at_its_first_published_level(real_catalog):
    """1.4's unlabeled "C++ API updates" are their own entry: reusing cpp-frontend for them read
    as unlabeled -> stable and hid that 1.5 calls the frontend previously experimental."""
    frontend = real_catalog.features["cpp-frontend"]
    assert [(e.release.version, e.level.key) for e in frontend.entries] == [("1.5", "stable")]
    assert "experimental" in frontend.entries[0].summary["en"]
    assert real_catalog.features["cpp-api-updates-1-4"].first.release.version == "1.4"


def test_bug_fixes_of_14_span_several_areas(real_catalog):
    assert real_catalog.features["bug-fixes-1-4"].first.area.key == "general"


def test_python2_support_ends(real_catalog):
    entries = real_catalog.features["python2-support"].entries
    assert [(e.release.version, e.kind) for e in entries] == [("1.4", "deprecation"), ("1.5", "removal")]
    assert all(e.migration for e in entries)


GLOSSARY = yaml.safe_load((REAL_RELEASES / "project.yaml").read_text(encoding="utf-8"))["glossary"]
TRAPS = [(term["en"], term["zh"], avoided) for term in GLOSSARY for avoided in term.get("avoid", [])]


def test_the_glossary_names_the_known_translation_traps():
    assert {avoided for _, _, avoided in TRAPS} >= {"变压器", "视网膜", "焦距损失", "火炬脚本"}


@pytest.mark.parametrize(("english", "chinese", "avoided"), TRAPS, ids=[avoided for _, _, avoided in TRAPS])
def test_each_translation_trap_of_the_glossary_is_refused_at_its_line(tmp_path, english, chinese, avoided):
    data = real_data(tmp_path, {"1.7.yaml": [(PROFILER_TITLE, f'zh: "内存性能分析器（{avoided}）转为稳定"')]})
    path = data / "1.7.yaml"
    assert problems_of(data) == [
        f"{path}:{line_of(path, avoided)}:11: features[1].title.zh: '{avoided}' is a wrong rendering of "
        f"'{english}'; write '{chinese}' (glossary in project.yaml)"
    ]


# --------------------------------------------------------------------------- issue 27, content


def entry_of(real_catalog, version: str, entry_id: str):
    return next(e for e in real_catalog.release(version).entries if e.id == entry_id)


def test_profiler_stack_traces_give_each_argument_to_its_own_function(real_catalog):
    """`with_stack` is an argument of `torch.autograd.profiler.profile`; `group_by_stack_n` one of
    `key_averages()`: passing both to profile() is a TypeError. In both languages."""
    entry = entry_of(real_catalog, "1.7", "profiler-stack-traces")
    for lang in ("en", "zh"):
        text = entry.summary[lang]
        assert "`with_stack=True`" in text and "`torch.autograd.profiler.profile`" in text
        # every mention of group_by_stack_n passes it to key_averages()
        assert text.count("group_by_stack_n") == text.count("`key_averages(group_by_stack_n=") > 0
        assert "`with_stack`" not in text.split("`with_stack=True`")[0]  # not listed as one of two
    assert "torch.autograd.profiler.profile.key_averages" in entry.apis


def test_the_old_fft_function_is_replaced_but_not_as_a_drop_in(real_catalog):
    entry = entry_of(real_catalog, "1.7", "torch-fft-function")
    ref = entry.api_refs[0]
    assert (ref.name, ref.use, ref.replacement, ref.drop_in) == ("torch.fft", "call", "torch.fft.fft", False)
    # The migration says why a rename is not enough, in both languages.
    for lang in ("en", "zh"):
        assert "`signal_ndim`" in entry.migration[lang] and "`dim`" in entry.migration[lang]


def test_a_reduction_is_named_one_way_in_chinese(real_catalog):
    """归约 for reductions (sum, mean...), never 降维函数 beside it; the glossary keeps it so."""
    assert {"en": "reduction", "zh": "归约", "avoid": ["降维函数"]} in GLOSSARY
    for release in real_catalog.releases:
        for entry in release.entries:
            for text in (entry.title, entry.summary, entry.migration or {"zh": ""}):
                assert "降维" not in text["zh"], entry
    keepdim = entry_of(real_catalog, "0.2", "reduction-keepdim-default")
    assert "归约函数" in keepdim.migration["zh"] and "reduction" in keepdim.migration["en"]
