"""Property-based tests (Hypothesis): whatever a data file holds, loading, validating and
building the catalog ends in a valid catalog or in located problems, never in another
exception; valid catalogs render, and a few generated ones build with --strict.

Strategies: arbitrary text and YAML-flavoured text; arbitrary YAML documents (nested
mappings, lists and scalars dumped by PyYAML, with release keys among the random ones);
release files built from the fixture project's vocabularies, valid by construction or with
some fields swapped for wrong values; and mutations of the real release files (bytes dropped,
swapped, duplicated). `derandomize=True` makes every run try the same examples.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import FIXTURE_RELEASES, REAL_RELEASES, copy_project, run_releasekb
from releasekb.common.problems import DataError
from releasekb.kb.catalog import Catalog
from releasekb.kb.loader import load_document
from releasekb.kb.model import CHANGE_KINDS, FEATURE_KINDS, SCHEMA_COMMENT
from releasekb.kb.pipeline import load_knowledge_base
from releasekb.kb.translations import stale_warnings
from releasekb.site.render import render_language

FAST = settings(
    derandomize=True, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
PROJECT = yaml.safe_load((FIXTURE_RELEASES / "project.yaml").read_text(encoding="utf-8"))
NEW_RELEASE = "3.0.yaml"


def outcome(data_dir: Path) -> Catalog | None:
    """Run the stages `validate` runs (and render when valid): the catalog of valid data, None
    for data with problems. Any other exception fails the test; every problem must be located
    in a file of the data."""
    try:
        knowledge_base = load_knowledge_base(data_dir)
    except DataError as error:
        # generated data may be valid or not (no pytest.raises): when it is not, its problems must be usable
        assert error.problems  # noqa: PT017
        for problem in error.problems:
            assert problem.file and problem.line >= 1 and problem.column >= 1, problem
            assert str(data_dir) in problem.file or problem.file.startswith(data_dir.name), problem
        return None
    stale_warnings(knowledge_base.data)
    for lang in ("en", "zh"):
        assert render_language(knowledge_base.catalog, lang)
    return knowledge_base.catalog


def with_release(content: bytes, name: str = NEW_RELEASE, base: Path = FIXTURE_RELEASES) -> Catalog | None:
    """The outcome of the data in `base` plus (or with, replacing) one release file."""
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "releases"
        shutil.copytree(base, data)
        (data / name).write_bytes(content)
        return outcome(data)


# ----------------------------------------------------------------- arbitrary YAML documents

YAML_TEXT = st.text(
    alphabet=st.one_of(st.sampled_from(list(":-[]{}&*!|>'\"#,?%@`\n\t \\\ufeff\r")), st.characters()), max_size=200
)


@FAST
@given(YAML_TEXT)
def test_any_text_loads_to_data_or_located_problems(text):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "1.0.yaml"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        document, problems = load_document(path, "releases/1.0.yaml")
    for problem in problems:
        assert problem.file == "releases/1.0.yaml" and problem.line >= 1 and problem.column >= 1
    assert problems or document.data is not None


@FAST
@given(st.binary(max_size=300))
def test_any_bytes_as_a_release_end_in_a_catalog_or_located_problems(content):
    assert with_release(content) is None  # random bytes are never a release


RELEASE_KEYS = ["version", "date", "scheme", "title", "summary", "sources", "features", "changes", "id", "en", "zh"]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.sampled_from(["1.10", "2020-10-27", "2017-08", "TODO", "stable", "core", "https://example.org/x"]),
)
DOCUMENTS = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(RELEASE_KEYS), st.text(max_size=8)), children, max_size=5),
    ),
    max_leaves=25,
)


@FAST
@given(DOCUMENTS, st.sampled_from(["block", "flow"]))
def test_any_yaml_document_as_a_release_ends_in_a_catalog_or_located_problems(document, style):
    text = yaml.safe_dump(document, allow_unicode=True, default_flow_style=style == "flow")
    assert with_release(f"{SCHEMA_COMMENT}\n{text}".encode()) is None  # never a whole release


# ----------------------------------------------------------------- generated release data

EN_WORDS = st.lists(st.sampled_from(["fast", "reader", "colour", "API", "`acme.read`", "now", "safer"]), min_size=1)
HAN_WORDS = st.sampled_from(["更快", "读取器", "颜色", "接口", "现在", "更安全"])
ZH_WORDS = st.lists(st.one_of(HAN_WORDS, st.just("`acme.read`")))
TEXTS = st.builds(lambda en, han, zh: {"en": " ".join(en), "zh": "".join([han, *zh])}, EN_WORDS, HAN_WORDS, ZH_WORDS)
FRESH_IDS = ["fast-reader", "colour-picker", "safe-io", "batch-writer", "quick-start"]


@st.composite
def releases(draw, valid: bool = True) -> dict:
    """A release 3.0 for the fixture project: valid by construction, or (valid=False) with some
    values replaced by wrong ones (an unknown label, an id removed before, a number, ...)."""
    scheme = draw(st.sampled_from(sorted(PROJECT["stability"]["schemes"])))
    labels = PROJECT["stability"]["schemes"][scheme]
    ids = draw(st.lists(st.sampled_from(FRESH_IDS), unique=True, max_size=4))
    features = []
    for id_ in ids:
        title = draw(TEXTS)  # titles are unique within a release: the id makes them so
        title = {"en": f"{title['en']} ({id_})", "zh": f"{title['zh']}（{id_}）"}
        feature = {"id": id_, "area": draw(st.sampled_from(sorted(PROJECT["areas"]))), "title": title}
        feature["summary"] = draw(TEXTS)
        feature["kind"] = draw(st.sampled_from(FEATURE_KINDS))
        if labels and draw(st.booleans()):
            feature["stability"] = draw(st.sampled_from(labels))
        if draw(st.booleans()):
            feature["apis"] = ["acme.read"]
        features.append(feature)
    changes = [
        {
            "id": "default-size",
            "kind": draw(st.sampled_from(CHANGE_KINDS)),
            "standalone": True,  # no earlier release describes it
            "area": "core",
            "title": {"en": "Default size changed", "zh": "默认大小已更改"},
            "summary": draw(TEXTS),
            "migration": draw(TEXTS),
        }
    ] * draw(st.integers(0, 1))
    release = {
        "version": "3.0",
        "date": draw(st.dates()).isoformat(),
        "scheme": scheme,
        "title": draw(TEXTS),
        "summary": draw(TEXTS),
        "sources": [{"kind": "original", "lang": "en", "url": "https://example.org/acme/3.0"}],
        "highlights": ids[:1],
        "features": features,
        "changes": changes,
    }
    if not valid:
        wrong = draw(
            st.sampled_from(
                [
                    ("version", 3.0),
                    ("date", "2021-02-30"),
                    ("scheme", "stable-betta"),
                    ("highlights", ["no-such-feature"]),
                    ("features", [*features, {"id": "old-reader", "area": "io", "title": {"en": "x", "zh": "读"}}]),
                    ("features", [{**f, "stability": "betta"} for f in features] or [{"id": "X"}]),
                    ("title", {"en": "中文", "zh": "English"}),
                    ("sources", []),
                    ("changes", [{**c, "migration": None} for c in changes] or [{"kind": "removal"}]),
                ]
            )
        )
        release[wrong[0]] = wrong[1]
    return release


def release_text(release: dict) -> bytes:
    return f"{SCHEMA_COMMENT}\n{yaml.safe_dump(release, allow_unicode=True, sort_keys=False)}".encode()


@FAST
@given(releases())
def test_generated_valid_releases_make_a_catalog_that_renders(release):
    catalog = with_release(release_text(release))
    assert catalog is not None
    assert [r.version for r in catalog.releases] == ["1.0", "1.1", "2.0", "3.0"]
    assert [e.id for e in catalog.release("3.0").entries] == [f["id"] for f in release["features"] + release["changes"]]


@FAST
@given(releases(valid=False))
def test_generated_releases_with_a_wrong_value_get_located_problems(release):
    assert with_release(release_text(release)) is None


@settings(derandomize=True, max_examples=3, deadline=None, database=None)
@given(releases())
def test_a_few_generated_catalogs_build_with_strict(release):
    with tempfile.TemporaryDirectory() as tmp:
        project = copy_project(Path(tmp) / "p", FIXTURE_RELEASES)
        (project / "releases" / NEW_RELEASE).write_bytes(release_text(release))
        result = run_releasekb(project, "build")  # strict: any MkDocs warning fails
        assert result.returncode == 0, result.stdout + result.stderr
        assert (project / "site" / "zh" / "releases" / "3.0" / "index.html").is_file()


# ----------------------------------------------------------------- mutations of the real files

REAL_FILES = sorted(p.name for p in REAL_RELEASES.glob("*.yaml"))
REAL_VERSIONS = ["0.2", "1.4", "1.5", "1.7"]


@st.composite
def mutations(draw) -> tuple[str, bytes]:
    """One real data file with a few bytes dropped, swapped or duplicated."""
    name = draw(st.sampled_from(REAL_FILES))
    content = bytearray((REAL_RELEASES / name).read_bytes())
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(content) - 2))
        size = draw(st.integers(1, 8))
        operation = draw(st.sampled_from(["drop", "swap", "duplicate"]))
        if operation == "drop":
            del content[at : at + size]
        elif operation == "swap":
            content[at], content[at + 1] = content[at + 1], content[at]
        else:
            content[at:at] = content[at : at + size]
    return name, bytes(content)


@settings(derandomize=True, max_examples=40, deadline=None, database=None)
@given(mutations())
def test_mutated_real_files_end_in_a_catalog_or_located_problems(mutation):
    """Located problems are checked by `outcome`; a mutation that leaves the data valid still
    has every release under its own version (a version changed by a mutation no longer matches
    its file name, a file made unreadable is a problem, never a release quietly dropped)."""
    name, content = mutation
    catalog = with_release(content, name, REAL_RELEASES)
    if catalog is not None:
        assert [r.version for r in catalog.releases] == REAL_VERSIONS
