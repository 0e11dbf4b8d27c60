"""Material's interface strings (its partials/language.html `t`: "Search", "Skip to content"),
each worked out once per language and key instead of once per use.

Material's base.html imports partials/language.html `with context`, so Jinja makes that module
again for every page (it imports the language's file and the English one), and each `t(key)`
call builds the language file's whole table of strings to look up one: about a twentieth of the
theme's time per page. The package's theme/partials/language.html asks `releasekb_theme_string`
(installed by the plugin for its build) instead, which gives the answer Material's own lines
give: the key in the language's file, else in the English one, else the key itself. Those files
are read through the build's theme, so a site's own partials/languages/<lang>.html is used as
Material would use it. In an environment Material's plugins make for themselves (the search and
blog plugins' `_translate`), the global is absent and the override runs Material's own lines.
tests/test_theme_language.py compares every key of every shipped language with Material's own.
"""

from __future__ import annotations

import jinja2

GLOBAL_NAME = "releasekb_theme_string"
ENGLISH = "partials/languages/en.html"  # Material's fallback for a key a language lacks


class ThemeStrings:
    """`releasekb_theme_string(language, key)` for one build's environment."""

    def __init__(self, env: jinja2.Environment):
        self._env = env
        self._answers: dict[tuple[str, str], str] = {}

    def install(self) -> None:
        self._env.globals[GLOBAL_NAME] = self

    def __call__(self, language: str, key: str) -> str:
        answer = self._answers.get((language, key))
        if answer is None:
            # As Material's `{{ lang.t(key) or fallback.t(key) or key }}`: its files' macros print
            # '' for a key they lack. Modules made without context, as Material imports them.
            own = self._env.get_template(f"partials/languages/{language}.html").module
            fallback = self._env.get_template(ENGLISH).module
            answer = self._answers[(language, key)] = own.t(key) or fallback.t(key) or key
        return answer
