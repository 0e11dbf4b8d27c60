"""The plugin's typed options (ReleaseKBConfig), and how the rest of the build finds the plugin
and its data folder in a configuration."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from releasekb.common.safe_text import visible

if TYPE_CHECKING:
    from releasekb.site.plugin import ReleaseKBPlugin

_SECTION_PATH = re.compile(r"[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*")


class _SectionPath(c.Type):
    """The `path` option: a folder inside the site, relative, of names of letters, digits, `.`, `_`
    and `-`; no `.` or `..` among them and no leading slash, so that the section's pages and
    outputs are written inside the site and nowhere else."""

    def __init__(self):
        super().__init__(str, default="")

    def run_validation(self, value):
        value = super().run_validation(value)
        folders = value.rstrip("/").split("/")
        if value and (
            value.startswith("/") or not _SECTION_PATH.fullmatch(value.rstrip("/")) or {".", ".."} & set(folders)
        ):
            raise c.ValidationError(
                f"'{visible(value)}' is not a folder inside the site: give a relative path such as release-notes "
                "or notes/releases (letters, digits, '.', '_' and '-'; no '..', '.' or leading '/')"
            )
        return value


class ReleaseKBConfig(base.Config):
    """The plugin's options, typed (an unknown option is an error)."""

    # The option `data`: MkDocs maps a trailing underscore away, so that the attribute does not
    # hide the `data` dictionary every `base.Config` (a UserDict) holds its values in.
    data_ = c.Type(str, default="releases")  # the data folder, relative to mkdocs.yml
    path = _SectionPath()  # "" the whole site; else the folder of a section of the site


def data_dir_of(config: MkDocsConfig) -> Path:
    """The release data of a build: the plugin's `data`, relative to the configuration file."""
    return Path(config.config_file_path).parent / plugin_of(config).config.data_


def plugin_of(config: MkDocsConfig) -> ReleaseKBPlugin:
    plugin = config.plugins.get("releasekb")
    if not isinstance(getattr(plugin, "config", None), ReleaseKBConfig):
        raise PluginError(f"{config.config_file_path}: add `- releasekb` to `plugins:` (ReleaseKB builds with it)")
    return plugin
