"""Each language's build of the one mkdocs.yml: its own settings (configure_language, which
`releasekb build` applies to each language's configuration), the language switcher's entries,
and the refusal of mkdocs-static-i18n, which would build the languages a second time."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from releasekb.common.i18n import interface_strings, url_prefix
from releasekb.site.generate import build_language
from releasekb.site.plugin_config import data_dir_of

# The package's theme overrides (main.html, 404.html, the search box, the sitemap) and the
# assets every page of a whole site loads: MkDocs copies the files of a theme folder into the site.


def configure_language(config: MkDocsConfig, lang: str) -> None:
    """The settings of one language's build that mkdocs.yml, written in the default language,
    cannot give every language: `releasekb build` and `serve` build each language of the
    knowledge base from the one mkdocs.yml, and set here, before the build, its theme language,
    its docs folder (docs/<lang>), its search languages and the palette toggles' names. The site's
    names, the switcher and the search settings follow in on_config, from project.yaml."""
    written = build_language(config)
    if written == lang:
        return  # mkdocs.yml's own language, or a language's own mkdocs.<lang>.yml
    config.theme["language"] = lang
    config.docs_dir = str(Path(config.docs_dir).parent / lang)
    strings = interface_strings(lang, data_dir_of(config))
    for palette in config.theme.get("palette") or []:
        toggle = palette.get("toggle") if isinstance(palette, dict) else None
        # Material's toggle switches away from its scheme: slate's to light, the others' to dark
        key = "palette_to_light" if palette.get("scheme") == "slate" else "palette_to_dark"
        if isinstance(toggle, dict) and key in strings:
            palette["toggle"] = {**toggle, "name": strings[key]}
    for name, plugin in config.plugins.items():
        # Material's search: the other language's words beside the default's (pages name APIs in it)
        if name.split("/")[-1] == "search" and getattr(plugin, "config", None) is not None:
            given = plugin.config.get("lang")
            if given:
                plugin.config["lang"] = list(dict.fromkeys([*given, lang]))


def alternates(configured: list | None, languages: tuple[str, ...], root_url: str, data_dir: Path) -> list[dict]:
    """Material's language switcher and the hreflang links: one entry per language of the knowledge
    base, in its order, each pointed at the same page in that language by on_page_context; none on
    a one-language site (Material then shows no switcher). Each language's home is given from the
    site's root path (under a sub-path too): the theme's templates (the 404 page, served at any
    depth) see these; pages get their own. An entry mkdocs.yml gives for a language keeps its name;
    one for a language the knowledge base does not have is dropped (it would link to no site);
    an entry without a language (a link elsewhere) is kept."""
    root_path = urlsplit(root_url).path or "/"
    given = {entry.get("lang"): entry for entry in configured or [] if isinstance(entry, dict)}
    entries = [
        {
            **given.get(lang, {}),
            "name": given.get(lang, {}).get("name") or interface_strings(lang, data_dir)["language_name"],
            "lang": lang,
            "link": root_path + url_prefix(lang, languages),
        }
        for lang in languages
    ]
    others = [entry for entry in configured or [] if isinstance(entry, dict) and not entry.get("lang")]
    return [*entries, *others] if len(languages) > 1 or others else []


def refuse_static_i18n(config: MkDocsConfig) -> None:
    """mkdocs-static-i18n builds the site once per language from the docs' files: it reads a
    section's pages, held in memory, as files (a TypeError from deep inside it), and a whole site
    already has a build per language. Refused by name, before either plugin has done anything."""
    for name, plugin in config.plugins.items():
        if type(plugin).__module__.split(".")[0] == "mkdocs_static_i18n":
            raise PluginError(
                f"{config.config_file_path}: releasekb does not support mkdocs-static-i18n (`{name}` in `plugins:`): "
                "a section is built in the site's language (theme.language), and a whole site builds each of its "
                "languages itself (project.yaml `languages`, from one mkdocs.yml); remove one of the two plugins"
            )
