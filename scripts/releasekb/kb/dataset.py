"""The validated data every later stage reads: the typed records of project.yaml and of each
release file, with where each entry and text sits in its file.

`validate` produces a ValidatedData; the rules, the translation records and the catalog read
it. The walkers below are the one way to visit a release's entries and bilingual texts with
their locations, so that a problem is always reported at the right line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from pydantic import BaseModel

from releasekb.common.problems import Problem
from releasekb.kb.loader import Document, Location
from releasekb.kb.model import ChangeEntry, FeatureEntry, ProjectFile, ReleaseFile, Text
from releasekb.kb.notes import Composed

# translations.lock: language -> {text key: hash of the English text it was last reviewed against}
TranslationRecords = dict[str, dict[str, str]]


@dataclass(frozen=True)
class LoadedRelease:
    document: Document
    record: ReleaseFile
    # Where each of record.features + record.changes sits in the file. When some entries
    # are invalid the record holds only the valid ones, so rules can still check those.
    entry_locations: tuple[Location, ...]
    complete: bool = True
    # What was worked out from this file alone (kept.py), kept with it and gone with it: under
    # `serve` an unchanged file's object comes back after every save, and this with it.
    worked_out: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class ValidatedData:
    """Everything the catalog is built from, known to be valid."""

    project: ProjectFile
    project_document: Document
    releases: tuple[LoadedRelease, ...]  # ordered by version (versions.version_key)
    # False when some file or entry had shape problems and is missing from `releases`:
    # rules that look across releases then stay quiet rather than guess.
    complete: bool = True
    translation_records: TranslationRecords = field(default_factory=dict)
    # The notes, composed into the release they are read as (notes.Composed), when they were read.
    notes: Composed | None = None

    @property
    def preview_version(self) -> str | None:
        """The version of the release the notes make, when it is a preview of the next one."""
        return self.notes.version if self.notes is not None and self.notes.preview else None

    def located(self, problem: Problem) -> Problem:
        """A problem found in the notes' release, at its note's own file and line."""
        return self.notes.located(problem) if self.notes is not None else problem


def entries(release: LoadedRelease) -> Iterator[tuple[Location, FeatureEntry | ChangeEntry]]:
    """Every valid entry of a release with its location in the file."""
    yield from zip(release.entry_locations, [*release.record.features, *release.record.changes], strict=True)


def release_texts(release: LoadedRelease) -> Iterator[tuple[Location, BaseModel]]:
    """Every bilingual Text of a release file, with its location in the file. Entries are walked
    with `entries`, not as the record's lists: after an invalid entry the record holds only the
    valid ones, and their list index would point a problem at the entry before."""
    for location, text in texts(release.record):
        if location[0] not in ("features", "changes"):
            yield location, text
    for location, entry in entries(release):
        for inner, text in texts(entry):
            yield (*location, *inner), text


def texts(record: BaseModel, location: Location = ()) -> Iterator[tuple[Location, BaseModel]]:
    """Every bilingual Text inside a record, with its location relative to the record (for a
    whole release file, release_texts)."""
    for name in type(record).model_fields:
        value = getattr(record, name)
        items = enumerate(value) if isinstance(value, list) else [(None, value)]
        for index, item in items:
            here = (*location, name) if index is None else (*location, name, index)
            if isinstance(item, Text):
                yield here, item
            elif isinstance(item, BaseModel):
                yield from texts(item, here)
