"""A team's own stability labels look like levels (issue 35, item 4): every label gets a distinct,
accessible colour in the light and the dark scheme, in badges, bars, lifecycle dots and the README
badges, from its rank or from the colour project.yaml gives it (`stability.labels.<key>.colour`).

The knowledge base is `releasekb init`'s, its labels changed to ga, preview, alpha and sunset
(alpha with a team colour too light for white text, which must be darkened), built; axe's colour
contrast finds nothing in either scheme, and each label's computed colours differ.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from helpers import (
    AXE_TAGS,
    AXE_TIMEOUT_MS,
    SETTLED,
    START_AXE,
    axe_script,
    build,
    describe,
    page_html,
    problems_of,
    run_releasekb,
    static_server,
)
from releasekb.kb.catalog import Level
from releasekb.site import level_colours

LABELS = {"ga": 4, "preview": 3, "alpha": 2, "sunset": 1}
TEAM_COLOUR = "#ffd54f"  # alpha's, from the team: white text on it is 1.5:1
SCHEMES = {"light": "default", "dark": "slate"}
# Where each label shows: its level page (badges), the stability overview (bars), the
# features index (badges in a table), a feature's page (its lifecycle chart's dots).
PAGES = ["stability/", "stability/ga/", "features/", "releases/1.0/", "features/sunset-feature/"]
DEFAULT_COLOURS = {"rgb(0, 0, 0)", "rgb(117, 117, 117)", "rgba(0, 0, 0, 0)"}  # black, Unlabeled's grey, none


def level(key: str, rank: int | None, colour: str | None = None) -> Level:
    return Level(key, rank, {"en": key}, {"en": key}, colour)


def rewrite(path: Path, data: dict) -> None:
    """The file's data replaced, its first line (the editors' schema line) kept."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    path.write_text(first + "\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def with_labels(project: Path, colours: dict[str, str] | None = None) -> Path:
    """`releasekb init`'s knowledge base in `project`, its labels ga, preview, alpha and sunset,
    and a feature at each level in 1.0."""
    data = project / "releases"
    config = yaml.safe_load((data / "project.yaml").read_text(encoding="utf-8"))
    config["stability"]["labels"] = {
        key: {
            "rank": rank,
            "name": {"en": key.capitalize(), "zh": f"{key}版"},
            "description": {"en": f"The {key} level.", "zh": f"{key}级别。"},
            **({"colour": colours[key]} if colours and key in colours else {}),
        }
        for key, rank in LABELS.items()
    }
    config["stability"]["schemes"] = {"unlabeled": [], "ours": list(LABELS)}
    rewrite(data / "project.yaml", config)
    release = yaml.safe_load((data / "1.0.yaml").read_text(encoding="utf-8"))
    release["scheme"] = "ours"
    template = release["features"][0]
    release["features"] = [
        {
            **copy.deepcopy(template),
            "id": f"{key}-feature",
            "name": {"en": f"{key} feature", "zh": f"{key}功能"},
            "title": {"en": f"The {key} feature", "zh": f"{key}功能上线"},
            "stability": key,
            "apis": [f"acme.{key}"],
        }
        for key in LABELS
    ]
    release["highlights"] = ["ga-feature"]
    rewrite(data / "1.0.yaml", release)
    return project


@pytest.fixture(scope="module")
def labelled_site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("labels")
    result = run_releasekb(folder, "init", "kb", "--product", "Acme", "--languages", "en,zh")
    assert result.returncode == 0, result.stdout + result.stderr
    project = with_labels(folder / "kb", {"alpha": TEAM_COLOUR})
    return build(project)


# --------------------------------------------------------------------------- the colours themselves


def test_every_label_gets_a_distinct_colour_readable_in_both_schemes():
    levels = [level(key, rank) for key, rank in LABELS.items()] + [level("unlabeled", None)]
    colours = level_colours.colours(levels)
    assert list(colours) == list(LABELS)  # Unlabeled keeps its grey
    assert len(set(colours.values())) == len(LABELS)
    for light, dark in colours.values():
        assert level_colours.contrast(light, "#ffffff") >= 4.5  # white badge text; a bar on the white page
        assert level_colours.contrast(dark, "#000000") >= 4.5  # black badge text in the dark scheme
        assert level_colours.contrast(dark, "#1e2129") >= 3  # a bar or dot on Material's slate background


def test_the_four_levels_of_old_keep_their_colours_by_rank():
    levels = [level("stable", 3), level("beta", 2), level("experimental", 2), level("prototype", 1)]
    light = {key: pair[0] for key, pair in level_colours.colours(levels).items()}
    assert light == {"stable": "#2e7d32", "beta": "#1565c0", "experimental": "#6a1b9a", "prototype": "#b85000"}


def test_a_team_colour_is_kept_when_readable_and_adjusted_when_not():
    colours = level_colours.colours([level("ga", 2, "#1565C0"), level("alpha", 1, TEAM_COLOUR)])
    assert colours["ga"][0] == "#1565c0"
    light, dark = colours["alpha"]
    assert light != TEAM_COLOUR and level_colours.contrast(light, "#ffffff") >= 4.5
    assert dark == TEAM_COLOUR  # black text on it is already readable
    # the palette skips a colour a team took
    assert level_colours.colours([level("a", 2), level("b", 1, "#2e7d32")])["a"][0] != "#2e7d32"


def test_many_labels_all_get_distinct_colours():
    levels = [level(f"l{index}", 100 - index) for index in range(30)]
    assert len(set(level_colours.colours(levels).values())) == 30


@pytest.mark.parametrize(
    ("colour", "message"),
    [
        ("yellow", "'yellow' is not a colour written #RRGGBB"),
        ("#fff", "'#fff' is not a colour written #RRGGBB"),
    ],
)
def test_a_colour_that_is_not_hex_is_a_located_error(tmp_path, colour, message):
    result = run_releasekb(tmp_path, "init", "kb", "--product", "Acme", "--languages", "en,zh")
    assert result.returncode == 0, result.stderr
    project = with_labels(tmp_path / "kb", {"alpha": colour})
    problems = problems_of(project / "releases")
    assert any("project.yaml" in problem and "colour" in problem and message in problem for problem in problems), (
        problems
    )


def test_two_labels_of_one_colour_are_an_error(tmp_path):
    result = run_releasekb(tmp_path, "init", "kb", "--product", "Acme", "--languages", "en,zh")
    assert result.returncode == 0, result.stderr
    project = with_labels(tmp_path / "kb", {"ga": "#2E7D32", "alpha": "#2e7d32"})
    problems = problems_of(project / "releases")
    assert any("the labels 'ga' and 'alpha' have the same colour #2e7d32" in problem for problem in problems), problems


def test_the_readme_badges_take_each_labels_colour(labelled_site):
    fills = {}
    for key in LABELS:
        badge = (labelled_site / "badges" / f"{key}-feature.svg").read_text(encoding="utf-8")
        fills[key] = re.findall(r'fill="(#[0-9a-f]{6})"', badge)[1]  # the status half
        assert level_colours.contrast(fills[key], "#ffffff") >= 4.5
    assert len(set(fills.values())) == len(LABELS)


def test_every_page_states_the_labels_colours(labelled_site):
    for path in ("", "stability/ga/", "zh/features/"):
        html = page_html(labelled_site, path)
        assert '<style id="rkb-level-colours">' in html
        for key in LABELS:
            assert f".rkb-level-{key}{{" in html and f".rkb-fill-{key}{{" in html


# --------------------------------------------------------------------------- in the browser


@pytest.fixture(scope="module")
def labels_url(chromium, labelled_site) -> Iterator[str]:
    if axe_script() is None:
        pytest.fail("axe-playwright-python (axe.min.js) is not installed: pip install -e '.[test]'")
    with static_server(labelled_site) as url:
        yield url


def new_context(browser, base: str, scheme: str):
    """A context in the colour scheme, every request to another host answered empty."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    context.set_default_timeout(15_000)
    local = re.compile("^" + re.escape(base) + "/")
    context.route(lambda url: not local.match(url), lambda route: route.fulfill(status=204, body=""))
    return context


# Each label's computed colours on the page: badge backgrounds and SVG fills (bars, dots, legend).
COMPUTED = """keys => Object.fromEntries(keys.map(key => {
  const badges = document.querySelectorAll(`.rkb-badge.rkb-level-${key}`);
  return [key, {
    badges: Array.from(badges, e => getComputedStyle(e).backgroundColor),
    fills: Array.from(document.querySelectorAll(`.rkb-fill-${key}`), e => getComputedStyle(e).fill),
  }];
}))"""


@pytest.mark.browser
@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_custom_labels_have_distinct_colours_and_no_contrast_violation(chromium, labels_url, scheme):
    context = new_context(chromium, labels_url, scheme)
    try:
        seen = {key: {"badges": set(), "fills": set()} for key in LABELS}
        for path in PAGES:
            page = context.new_page()
            page.goto(f"{labels_url}/{path}")
            page.wait_for_function(SETTLED, arg=SCHEMES[scheme])
            for key, found in page.evaluate(COMPUTED, list(LABELS)).items():
                seen[key]["badges"].update(found["badges"])
                seen[key]["fills"].update(found["fills"])
            page.add_script_tag(path=str(axe_script()))
            page.evaluate(START_AXE, AXE_TAGS)
            page.wait_for_function("window.rkbAxe !== null", polling=100, timeout=AXE_TIMEOUT_MS)
            result = page.evaluate("window.rkbAxe")
            assert "error" not in result, result.get("error")
            assert "color-contrast" in result["checked"]
            assert not result["violations"], f"{path} ({scheme}):\n" + describe(result["violations"])
            page.close()
    finally:
        context.close()
    for key, found in seen.items():
        # every label is on some badge and some chart, in one colour, and no other label's
        assert len(found["badges"]) == 1 and found["fills"] == found["badges"], (key, found)
        assert not found["badges"] & DEFAULT_COLOURS, (key, found)
    colours = [next(iter(found["badges"])) for found in seen.values()]
    assert len(set(colours)) == len(LABELS), seen
