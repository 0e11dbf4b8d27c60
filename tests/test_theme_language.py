"""The package's partials/language.html (site/theme_language.py) answers every interface string
exactly as Material's own does: the key in the site's language, else in English, else the key,
in the plugin's build (through releasekb_theme_string) and in an environment a Material plugin
makes for itself (Material's own lines)."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import material
import pytest

from releasekb.site.plugin_modes import THEME_DIR
from releasekb.site.theme_language import GLOBAL_NAME, ThemeStrings

MATERIAL_TEMPLATES = Path(material.__file__).parent / "templates"
LANGUAGES = sorted(path.stem for path in (MATERIAL_TEMPLATES / "partials" / "languages").glob("*.html"))
# Every key Material's English file has (every key its templates ask for), and one no file has.
KEYS = [
    *re.findall(r'^\s*"([^"]+)":', (MATERIAL_TEMPLATES / "partials/languages/en.html").read_text("utf-8"), re.M),
    "releasekb.no-such-key",
]


def answers(folders: list[Path], language: str, fast: bool) -> dict[str, str]:
    """{key: partials/language.html's t(key)} for a site in `language`, with the templates of
    `folders` (first found wins, as a theme's folders), imported as Material's base.html does."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(folder) for folder in folders]))
    if fast:
        ThemeStrings(env).install()
    page = env.from_string(
        '{% import "partials/language.html" as lang with context %}'
        "{% for key in keys %}{{ lang.t(key) }}\x00{% endfor %}"
    )
    said = page.render(config={"theme": {"language": language}}, keys=KEYS).split("\x00")[:-1]
    return dict(zip(KEYS, said, strict=True))


def test_material_ships_languages_and_keys_to_compare():
    assert {"en", "zh", "ja"} <= set(LANGUAGES) and len(KEYS) > 50


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_is_materials_own_in_the_build_and_outside_it(language):
    materials = answers([MATERIAL_TEMPLATES], language, fast=False)
    assert materials["search.placeholder"] and materials["releasekb.no-such-key"] == "releasekb.no-such-key"
    assert answers([THEME_DIR, MATERIAL_TEMPLATES], language, fast=True) == materials
    # a Material plugin's own environment: the override without the plugin's global
    assert answers([THEME_DIR, MATERIAL_TEMPLATES], language, fast=False) == materials


def test_the_build_works_each_answer_out_once_and_with_the_sites_own_language_file(tmp_path):
    own = tmp_path / "partials" / "languages"
    own.mkdir(parents=True)
    (own / "en.html").write_text('{% macro t(key) %}{{ {"search.placeholder": "Find"}[key] }}{% endmacro %}')
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(tmp_path), str(THEME_DIR), str(MATERIAL_TEMPLATES)]))
    strings = ThemeStrings(env)
    strings.install()
    assert env.globals[GLOBAL_NAME] is strings
    loads = []
    real_get_template = env.get_template
    env.get_template = lambda name, *args, **kwargs: loads.append(name) or real_get_template(name, *args, **kwargs)
    assert [strings("en", "search.placeholder") for _ in range(3)] == ["Find"] * 3
    assert loads == ["partials/languages/en.html"] * 2  # the language's file and the fallback: once, not per use
    assert strings("de", "search.placeholder") == "Suche"  # Material's German file, through the theme
    assert strings("de", "releasekb.no-such-key") == "releasekb.no-such-key"
