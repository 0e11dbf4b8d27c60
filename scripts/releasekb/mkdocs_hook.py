"""The thin glue between MkDocs and the pipeline, loaded by mkdocs.yml's `hooks:`.

on_config validates the data and writes the generated pages before MkDocs collects
files, and asks `mkdocs serve` to watch the data folder. Everything else lives in plain
modules that the tests call directly.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import jieba
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from releasekb.problems import DataError
from releasekb.rules import HAN
from releasekb.site import data_fingerprint, generate
from releasekb.validate import load_data

_generated_for: tuple | None = None  # (data, docs, fingerprint) last generated in this process


def search_words(data) -> list[str]:
    """Chinese terms to keep whole when jieba segments pages for search: the glossary's and
    the area names' short terms (2 to 4 characters, like 自动求导). Longer compounds such as
    分布式自动求导 stay split, so a search for either of their parts still finds them;
    Material's search matches whole tokens only."""
    candidates = [term.zh for term in data.project.glossary]
    candidates += [part for name in data.project.areas.values() for part in re.split(r"[与、，\s]+", name.zh)]
    return sorted({word for word in candidates if 2 <= len(word) <= 4 and all(HAN.match(c) for c in word)})


@event_priority(100)  # before mkdocs-static-i18n (-100) and the search plugin
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _generated_for
    root = Path(config.config_file_path).parent
    data_dir = root / config.extra.get("releasekb_data", "releases")
    if str(data_dir) not in config.watch:
        config.watch.append(str(data_dir))
    fingerprint = (str(data_dir), config.docs_dir, data_fingerprint(data_dir))
    if fingerprint == _generated_for:
        return config  # mkdocs-static-i18n runs on_config again for each extra language
    try:
        data = load_data(data_dir)
        generate(data, Path(config.docs_dir), config.site_url or "")
    except DataError as error:
        # Printed here because `mkdocs serve` logs only "Aborted with a BuildError!" for
        # plugin errors; the curator needs the same lines `releasekb validate` prints.
        print(error.report(), file=sys.stderr, flush=True)
        raise PluginError("invalid release data (problems listed above)") from None
    for word in search_words(data):
        jieba.add_word(word)
    _generated_for = fingerprint
    return config
