"""The content fixes of issue 36's review, item 10: what the texts and the data now say, in English
and Chinese, and what `check` finds because of it. Each test reads the real data (releases/), the
hand-written about pages (docs/) or the starter's (what `releasekb init` writes), and nothing
outside the repository."""

from __future__ import annotations

import json
import re

import pytest

from helpers import ROOT, html_pages, run_check
from releasekb.common.i18n import interface_strings
from releasekb.kb.catalog import Catalog

LANGS = ("en", "zh")
RPC_PARTS = ("rpc-api", "rpc-remote-reference", "distributed-autograd", "distributed-optimizer")
# The reductions along a dimension whose `keepdim` default 0.2 changed (issue 36: the notes'
# example is the method call `sum(1)`).
REDUCTIONS = ("sum", "mean", "prod", "max", "min", "std", "var", "norm", "median", "mode")
OLD_FFT_FUNCTIONS = ("torch.fft", "torch.ifft", "torch.rfft", "torch.irfft")
DOCS_1_7 = re.compile(r"https://pytorch\.org/docs/1\.7\.[01]/")
STARTER_DOCS = ROOT / "scripts" / "releasekb" / "kb" / "starter" / "docs"


def entry_of(catalog: Catalog, version: str, entry_id: str):
    return next(e for e in catalog.release(version).entries if e.id == entry_id)


def refs_by_name(entry) -> dict:
    return {ref.name: ref for ref in entry.api_refs}


def check_json(capsys, *args: str) -> dict:
    status, out, err = run_check(capsys, ".", *args, "--format", "json")
    assert status in (0, 1), err
    return json.loads(out)


# --------------------------------------------------------------------------- torch.fft (1.7)


@pytest.mark.parametrize("lang", LANGS)
def test_the_fft_migration_gives_the_exact_equivalent_of_the_old_call(real_catalog, lang):
    """`torch.fft(x, k, normalized)` transformed the last k dimensions before a trailing size-2
    one: the equivalent names those dimensions (`dim`), the scaling (`norm="ortho"`) and the
    layout conversions both ways; following a bare `torch.fft.fftn(x)` gives wrong numbers on
    batched input."""
    migration = entry_of(real_catalog, "1.7", "torch-fft-function").migration[lang]
    for needed in (
        "`torch.fft(x, k, normalized)`",
        "torch.fft.fftn(torch.view_as_complex(x), dim=tuple(range(-k, 0))",
        'norm="ortho"',
        "`normalized=True`",
        "torch.view_as_real(",
        "`signal_ndim`",
    ):
        assert needed in migration, needed
    # each of the other old functions has its counterpart
    for old, new in (("`torch.ifft`", "`torch.fft.ifftn`"), ("`torch.rfft(x, k)`", "torch.fft.rfftn(")):
        assert old in migration and new in migration


@pytest.mark.parametrize("lang", LANGS)
def test_both_fft_entries_say_the_import_takes_the_name_and_where_that_is_documented(real_catalog, lang):
    """Once any code imports `torch.fft`, the old function can no longer be called by that name:
    the module's page and the deprecated function's page both say so, and both link the 1.7
    documentation that states the clash."""
    module = entry_of(real_catalog, "1.7", "torch-fft")
    function = entry_of(real_catalog, "1.7", "torch-fft-function")
    says = {"en": ("no longer be called", "fails"), "zh": ("不能再以", "就会失败")}[lang]
    documentation = {"en": "1.7 documentation", "zh": "1.7 版"}[lang]
    for entry, phrase in ((module, says[0]), (function, says[1])):
        summary = entry.summary[lang]
        assert "`import torch.fft`" in summary and phrase in summary, entry.id
        assert documentation in summary, entry.id
        assert "https://pytorch.org/docs/1.7.0/fft.html" in [link.url for link in entry.links], entry.id


def test_the_old_fft_functions_share_the_deprecation_with_the_1_7_documentation_as_source(real_catalog):
    entry = entry_of(real_catalog, "1.7", "torch-fft-function")
    refs = refs_by_name(entry)
    assert set(OLD_FFT_FUNCTIONS) <= set(refs)
    for name in OLD_FFT_FUNCTIONS:
        assert refs[name].replacement.startswith("torch.fft.") and refs[name].drop_in is False, name
        # the function's own 1.7 documentation page, which carries the deprecation warning
        page = f"/generated/{name}.html"
        assert any(DOCS_1_7.match(link.url) and link.url.endswith(page) for link in entry.links), name
    # what the module provides to replace them is the module feature's
    provided = set(entry_of(real_catalog, "1.7", "torch-fft").apis)
    assert {ref.replacement for ref in refs.values() if ref.replacement} <= provided


def test_check_finds_the_old_fft_functions_written_for_1_4(code, capsys):
    """kymatio's `torch.irfft(x, 2)` and torchaudio's `torch.rfft` (issue 36), beside `torch.fft`."""
    code(
        **{
            "scattering.py": "import torch\n\n"
            "a = torch.fft(x, 2)\nb = torch.ifft(a, 2)\nc = torch.irfft(x, 2)\nd = torch.rfft(y, 1)\n"
        }
    )
    report = check_json(capsys, "--from", "1.4", "--to", "1.7")
    found = {(f["kind"], f["api"], f["line"]) for f in report["findings"]}
    assert found == {
        ("deprecated", "torch.fft", 3),
        ("deprecated", "torch.ifft", 4),
        ("deprecated", "torch.irfft", 5),
        ("deprecated", "torch.rfft", 6),
    }
    assert {f["url"] for f in report["findings"]} == {"/releases/1.7/#torch-fft-function"}


# --------------------------------------------------------------------------- keepdim (0.2)


def test_keepdim_lists_the_reductions_as_functions_and_tensor_methods_with_one_condition(real_catalog):
    refs = refs_by_name(entry_of(real_catalog, "0.2", "reduction-keepdim-default"))
    for reduction in REDUCTIONS:
        function, method = refs[f"torch.{reduction}"], refs[f"torch.Tensor.{reduction}"]
        for ref in (function, method):
            assert ref.use == "call" and ref.when is not None, ref.name
            assert ref.when.not_passed == ("keepdim",), ref.name
        # the same condition: the method's parameters are the function's without the tensor
        assert function.when.params == ("input", *method.when.params), reduction
        assert function.when.passed == method.when.passed, reduction
    for lang in LANGS:
        summary = entry_of(real_catalog, "0.2", "reduction-keepdim-default").summary[lang]
        assert "`x.sum(1)`" in summary and "`torch.Tensor`" in summary
        assert all(f"`{reduction}`" in summary for reduction in REDUCTIONS if reduction != "sum")


def test_check_finds_reductions_along_a_dimension_that_leave_keepdim_to_its_default(code, capsys):
    """`x.sum(1)` (the notes' example: a method on an object of unknown type, so `--confidence
    low`) and `torch.max(x, 1)`; not a reduction over everything, nor one that passes `keepdim`."""
    code(
        **{
            "reduce.py": "import torch\n\n"
            "a = x.sum(1)\n"
            "b = torch.max(x, 1)\n"
            "c = x.sum()\n"
            "d = x.sum(1, keepdim=True)\n"
            "e = x.norm(2, 1)\n"
            "f = torch.median(x)\n"
            "g = x.mode()\n"
        }
    )
    report = check_json(capsys, "--from", "0.1", "--to", "0.2", "--confidence", "low")
    found = sorted((f["line"], f["api"]) for f in report["findings"] if f["kind"] == "breaking")
    assert found == [
        (3, "torch.Tensor.sum"),
        (4, "torch.max"),
        (7, "torch.Tensor.norm"),
        (9, "torch.Tensor.mode"),  # mode reduces its last dimension when `dim` is left out
    ]
    assert all(f["url"] == "/releases/0.2/#reduction-keepdim-default" for f in report["findings"])


# --------------------------------------------------------------------------- levels and labels


@pytest.mark.parametrize("lang", LANGS)
def test_a_release_header_lists_only_the_labels_its_source_used(real_catalog, lang):
    """1.4's article labels features experimental and none stable: its header (and the releases
    list) shows Experimental only; 1.5's shows both."""
    pages = html_pages(real_catalog, lang)

    def header_levels(page: str) -> set[str]:
        meta = page[page.index('<div class="rkb-meta">') :]
        return set(re.findall(r"rkb-level-([a-z0-9-]+)", meta[: meta.index("</div>")]))

    assert header_levels(pages["releases/1.4.md"]) == {"experimental"}
    assert header_levels(pages["releases/1.5.md"]) == {"stable", "experimental"}
    listing = pages["releases/index.md"]
    section = listing[listing.index(f'id="{real_catalog.release("1.4").anchor}"') :]
    line_14 = section[: section.index("</p>")]  # date · labels used
    assert "rkb-level-stable" not in line_14 and "rkb-level-experimental" in line_14
    # every label a 1.4 entry carries is one its scheme has
    labels = {level.key for level in real_catalog.release("1.4").scheme_levels}
    assert {e.level.key for e in real_catalog.release("1.4").features} - {"unlabeled"} <= labels


def test_the_four_parts_of_the_rpc_framework_have_one_level_in_each_release(real_catalog):
    """1.5.yaml's own rule: sub-entries under a labelled section carry its label. RRefs are
    described inside 1.5's stable RPC framework section, so they are stable in 1.5 like the
    other three parts, and each part names its APIs."""
    for version, level in (("1.4", "experimental"), ("1.5", "stable")):
        parts = {e.id: e for e in real_catalog.release(version).features if e.id in RPC_PARTS}
        assert set(parts) == set(RPC_PARTS)
        assert {e.id: e.level.key for e in parts.values()} == dict.fromkeys(RPC_PARTS, level)
        for entry in parts.values():
            assert entry.apis and all(api.startswith("torch.distributed.") for api in entry.apis), entry.id
    rref = real_catalog.features["rpc-remote-reference"]
    assert rref.level.key == "stable" and rref.level_since.version == "1.5"
    assert rref.current.provenance(interface_strings("en")) == ""  # 1.5 stated it: no "did not restate it"


# --------------------------------------------------------------------------- wording


def zh_texts(catalog: Catalog):
    """(where, Chinese text) of every release and entry."""
    for release in catalog.releases:
        yield f"{release.version}:title", release.title["zh"]
        yield f"{release.version}:summary", release.summary["zh"]
        for entry in release.entries:
            for field in ("title", "summary", "migration"):
                text = getattr(entry, field, None)
                if text:
                    yield f"{release.version}:{entry.id}.{field}", text["zh"]


def en_texts(catalog: Catalog):
    for release in catalog.releases:
        yield f"{release.version}:summary", release.summary["en"]
        for entry in release.entries:
            for field in ("summary", "migration"):
                text = getattr(entry, field, None)
                if text:
                    yield f"{release.version}:{entry.id}.{field}", text["en"]


def han(text: str) -> str:
    return "".join(re.findall(r"[\u4e00-\u9fff]", text))


def test_chinese_wording(real_catalog):
    texts = dict(zh_texts(real_catalog))
    # 1.4's RPC title no longer repeats the 1.5 announcement's 14 Han characters
    assert not [where for where, text in texts.items() if "用于模型并行训练的分布式框架" in han(text)]
    # a list joins its last item with 与, never an earlier one (0.2's title mixed them)
    for where, text in texts.items():
        if where.endswith("title") and "、" in text and "与" in text:
            assert text.rindex("与") > text.rindex("、"), where
    # no clause stacks three 的 (1.5's distributed optimizer)
    for where, text in texts.items():
        assert all(clause.count("的") < 3 for clause in re.split(r"[，。：；、（）]", text)), where
    assert han(texts["1.4:nn-gelu.summary"]).count("激活函数") <= 1  # a word said twice
    assert "被 1.7 列入" not in texts["1.7:custom-cpp-classes.summary"]  # the passive
    ranks = texts["0.2:distributed-init-methods.summary"]  # world size defined once
    assert ranks.count("进程个数") + ranks.count("进程总数") == 1


def test_no_text_calls_the_announcements_contradictory_or_narrates_the_highlights_list(real_catalog):
    english = dict(en_texts(real_catalog))
    chinese = dict(zh_texts(real_catalog))
    for where, text in english.items():
        assert "disagree" not in text and "among the highlights" not in text, where
        assert "first item" not in text and "fourth main part" not in text, where
    for where, text in chinese.items():
        assert "说法不一" not in text and "亮点清单" not in text and "亮点中的第一项" not in text, where
    # the two RPC profiling accounts are said to fit together, in both languages
    for version, entry_id in (("1.5", "distributed-rpc"), ("1.7", "rpc-profiling")):
        summary = entry_of(real_catalog, version, entry_id).summary
        assert "1.6" in summary["en"] and ("contradiction" in summary["en"] or "fit together" in summary["en"])
        assert "1.6" in summary["zh"] and "并不矛盾" in summary["zh"]


def test_facts_the_sources_give_and_no_more(real_catalog):
    upsample = entry_of(real_catalog, "0.2", "nn-upsample").summary
    assert "spatial (2-D)" in upsample["en"] and "volumetric (3-D)" in upsample["en"]
    assert "二维空间数据" in upsample["zh"] and "三维体数据" in upsample["zh"]
    powerpc = entry_of(real_catalog, "0.2", "ibm-powerpc64-support").summary
    assert all("x86" not in text for text in powerpc.values())  # the source does not mention x86
    transformer = entry_of(real_catalog, "1.7", "cpp-transformer")
    assert {"torch::nn::Transformer", "torch::nn::TransformerImpl"} <= set(transformer.apis)
    assert all("`torch::nn::Transformer`" in text for text in transformer.summary.values())


# --------------------------------------------------------------------------- about pages

SITE_ABOUT = {lang: ROOT / "docs" / lang / "about.md" for lang in LANGS}
HEADINGS = {
    "en": ("## Reading stability levels", "## Linking to this site"),
    "zh": ("## 如何理解稳定性级别", "## 链接到本站"),
}
CARRY_OVER = {"en": "keeps", "zh": "沿用", "ja": "引き継が"}


@pytest.mark.parametrize("lang", LANGS)
def test_this_sites_about_page_describes_levels_as_they_are_and_former_addresses_as_former(lang):
    text = SITE_ABOUT[lang].read_text(encoding="utf-8")
    for heading in HEADINGS[lang]:  # their anchors stay
        assert f"\n{heading}\n" in text
    levels = text.split(HEADINGS[lang][0])[1].split(HEADINGS[lang][1])[0]
    assert CARRY_OVER[lang] in levels
    prefix = "/zh" if lang == "zh" else ""
    table = [line for line in text.splitlines() if line.startswith("|")]
    assert any(f"`{prefix}/changelog/upgrade/?from=1.4&to=1.7`" in line for line in table)
    assert not any("version=" in line or "1.4-to-1.7" in line for line in table)  # the current forms only
    former = next(p for p in text.split("\n\n") if "1.4-to-1.7" in p)
    assert "version=" in former and ("redirect" if lang == "en" else "跳转") in former
    assert "页面地址是一种承诺" not in text


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_the_starters_about_page_says_levels_carry_over(lang):
    text = (STARTER_DOCS / lang / "about.md").read_text(encoding="utf-8")
    levels = text.split("\n## ")[1]
    assert CARRY_OVER[lang] in levels, lang
