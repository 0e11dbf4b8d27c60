"""Data folder -> knowledge base, the one way every command starts: load and validate the files,
build the catalog once, then run the checks that need the catalog (they would otherwise have
to build it themselves). Raises DataError listing every problem, as `validate` prints them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from releasekb.common import collector
from releasekb.common.problems import DataError
from releasekb.kb.catalog import Catalog, build_catalog
from releasekb.kb.dataset import ValidatedData
from releasekb.kb.pages import redirects_lead_to_pages
from releasekb.kb.validate import DataFiles, LoadedReleases, load_data


@dataclass(frozen=True)
class KnowledgeBase:
    data: ValidatedData  # the validated files, for what reads them directly (translation records)
    catalog: Catalog


def load_knowledge_base(source: Path | DataFiles, loaded: LoadedReleases | None = None) -> KnowledgeBase:
    """source: a data folder, or its files as read before (validate.read_files); loaded: the
    release files this process loaded before (validate.LoadedReleases)."""
    with collector.paused():  # a graph of hundreds of thousands of objects, kept (collector.py)
        data = load_data(source, loaded)
        catalog = build_catalog(data)
    problems = list(redirects_lead_to_pages(data, catalog))
    if problems:
        raise DataError(problems)
    return KnowledgeBase(data, catalog)


def load_catalog(data_dir: Path) -> Catalog:
    return load_knowledge_base(data_dir).catalog
