"""`releasekb new VERSION`: a release file to fill in, started from the release before it.

The skeleton takes the scheme and the areas of the latest earlier release, points editors at
the JSON Schema on its first line (so they complete keys and values at once), and leaves every
value only the curator knows as a `TODO` placeholder, the date included: `validate` refuses
each placeholder left, at its line, so an unfinished file never builds.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from releasekb.common import atomic
from releasekb.common.problems import not_one_of, suggest
from releasekb.common.safe_text import visible
from releasekb.common.versions import version_key
from releasekb.kb import notes, starter
from releasekb.kb.loader import load_document
from releasekb.kb.model import SCHEMA_COMMENT, SLUG_PATTERN, VERSION_PATTERN, ProjectFile
from releasekb.kb.schema import write_schemas
from releasekb.kb.urls import MAX_NAME_LENGTH
from releasekb.kb.validate import display_path, load_project, release_paths

SKELETON = """{schema_comment}
# Started by `releasekb new` from {origin}. Replace every TODO (`releasekb validate` lists
# those left, with their lines); your editor completes keys and values from the schema.
version: "{version}"
date: TODO                     # the release date: YYYY-MM-DD, or YYYY-MM when only the month is known
scheme: {scheme}{scheme_comment}
title: __TEXT:new_release_title__
summary: __TEXT:new_release_summary__
sources:
  - {{kind: original, lang: {default_language}, url: TODO}}   # the announcement's address
highlights: []                 # ids of the entries below that the release itself highlighted
{areas_comment}
features:
  - id: TODO                   # an ASCII slug such as fast-io: the permanent address /features/<id>/
    kind: new                  # new | improvement | fix | security
    area: {area}
{stability_line}
    title: __TEXT:new_feature_title__
    summary: __TEXT:new_feature_summary__
    apis: []                   # e.g. [{module}.read_all]
    links: []                  # e.g. [{{kind: docs, url: "https://..."}}]
changes: []                    # breaking | deprecation | removal, each with a `migration` text
"""


NOTE = """# A note: one entry of the next release, in its own file so that no other pull request
# touches it (README, "Working as a team"). Written by `releasekb add`; replace every TODO
# (`releasekb validate` lists those left, with their lines). `releasekb release VERSION` folds
# it into the release file.
id: {id}{id_comment}
kind: {kind}{kind_comment}
area: {area}{area_comment}
{name_line}{kind_lines}title: __TEXT:new_feature_title__
summary: __TEXT:new_feature_summary__
{migration}apis: []  # e.g. [{module}.read_all]
links: []  # e.g. [{{kind: docs, url: "https://..."}}]
"""


class NewReleaseError(Exception):
    """A reason `new` writes nothing; `usage` marks a mistyped version (exit 2), not a conflict (exit 1)."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


def write_skeleton(data_dir: Path, version: str) -> Path:
    """Write releases/<version>.yaml; raise NewReleaseError (and write nothing) when the version
    is malformed or already has a file."""
    data_dir = Path(data_dir)
    # `new 1.8.yaml` names the file to write: the version pattern would take '.yaml' as a
    # suffix (1.8.yaml.yaml), so the extension is dropped, as the file name adds it back.
    version = version.removesuffix(".yaml").removesuffix(".yml")
    if not re.fullmatch(VERSION_PATTERN, version):
        raise NewReleaseError(f"'{visible(version)}' is not a version like 1.8 or 1.10", usage=True)
    if len(version) > MAX_NAME_LENGTH:  # it names the file, and file systems refuse long names
        raise NewReleaseError(
            f"the version is {len(version)} characters long, over the {MAX_NAME_LENGTH} allowed (it names the "
            "release file): give a version like 1.8 or 1.10",
            usage=True,
        )
    path = data_dir / f"{version}.yaml"
    existing = {p.stem: p for p in release_paths(data_dir)}
    same = next((p for v, p in existing.items() if version_key(v) == version_key(version)), None)
    if os.path.lexists(path) or same is not None:
        raise NewReleaseError(f"{display_path(same or path)} already exists: version {version} is in the data")
    atomic.check_target(path)  # a name too long for the file system: refused before the schemas are written
    project = load_project(data_dir)
    earlier = sorted((v for v in existing if version_key(v) < version_key(version)), key=version_key)
    origin, scheme, areas = _taken_from(project, existing[earlier[-1]] if earlier else None)
    labels = project.stability.schemes[scheme]
    if labels:
        stability_line = (
            f"    stability: TODO            # one of {', '.join(labels)}; delete if the release stated none"
        )
    else:
        stability_line = "    # no stability: this scheme has no labels, so features are unlabeled"
    areas_heading = f"# Areas {origin} used" if earlier else "# Areas"
    areas_comment = "\n".join(
        [f"{areas_heading} (all of them are in project.yaml; your editor completes them):"]
        + [f"#   {key}: {project.areas[key][project.languages[0]]}" for key in areas]
    )
    write_schemas(data_dir)  # the schema the first line names, with this project's vocabularies
    atomic.write_text(
        path,
        starter.texts_in(  # each text's placeholder in every language of the knowledge base
            SKELETON.format(
                default_language=project.languages[0],
                schema_comment=SCHEMA_COMMENT,
                origin=f"release {origin}" if earlier else "project.yaml (there is no earlier release)",
                version=version,
                scheme=scheme,
                scheme_comment=f"  # as in {origin}" if earlier else "  # the latest scheme of project.yaml",
                areas_comment=areas_comment,
                area=areas[0],
                stability_line=stability_line,
                module=_example_module(project),
            ),
            tuple(project.languages),
            quoted=True,  # a placeholder starts with TODO: quoted, the text a curator writes over it may need it
        ),
    )
    return path


def _taken_from(project: ProjectFile, previous: Path | None) -> tuple[str, str, list[str]]:
    """(where from, scheme, areas) of the previous release file, in the order it used its
    areas; without one (or when it is unreadable), the latest scheme and every area."""
    fallback = ("project.yaml", list(project.stability.schemes)[-1], list(project.areas))
    if previous is None:
        return fallback
    data = load_document(previous)[0].data
    if not isinstance(data, dict):
        return fallback
    scheme = data.get("scheme") if data.get("scheme") in project.stability.schemes else fallback[1]
    used = [
        entry.get("area")
        for key in ("features", "changes")
        for entry in (data.get(key) or [])
        if isinstance(entry, dict) and entry.get("area") in project.areas
    ]
    return previous.stem, scheme, list(dict.fromkeys(used)) or fallback[2]


def _example_module(project: ProjectFile) -> str:
    """The package the `apis` example names: the project's first Python root, so that the example
    is the team's own name ('acme' -> [acme.read_all]), never another product's."""
    roots = project.code.roots.get("python", []) if project.code else []
    return roots[0] if roots else "package"


def write_note(data_dir: Path, note_id: str, area: str | None, change: str | None, standalone: bool = False) -> Path:
    """Write releases/unreleased/<id>.yaml, a note (kb/notes.py) for a feature, or a change of
    kind `change`; raise NewReleaseError (and write nothing) when the id or the area is not one
    the data allows, a change names no feature (unless `standalone`), or the note exists."""
    data_dir = Path(data_dir)
    if not re.fullmatch(SLUG_PATTERN, note_id) or len(note_id) > MAX_NAME_LENGTH:
        raise NewReleaseError(
            f"'{visible(note_id)}' is not an id: an ASCII slug of at most {MAX_NAME_LENGTH} characters, "
            "such as fast-io",
            usage=True,
        )
    project = load_project(data_dir)
    if area is not None and area not in project.areas:
        raise NewReleaseError(f"--area {not_one_of(visible(area), project.areas)} (project.yaml's areas)", usage=True)
    path = notes.notes_folder(data_dir) / f"{note_id}.yaml"
    if os.path.lexists(path):
        raise NewReleaseError(f"{display_path(path)} already exists: edit that note (one note per feature and release)")
    known, named = _feature_ids(data_dir)  # id -> the latest release describing it; ids with a name
    if change is not None and note_id not in known and not standalone:
        raise NewReleaseError(
            f"no feature '{note_id}' in any release{suggest(note_id, known)}: a change names the feature it "
            "changes by its id; pass --standalone for a change of something no release describes",
            usage=True,
        )
    paths = release_paths(data_dir)
    latest = max(paths, key=lambda p: version_key(p.stem), default=None)
    scheme = _taken_from(project, latest)[1]
    labels = project.stability.schemes[scheme]
    if note_id in known:
        id_comment = f"  # continues the feature of release {known[note_id]}"
    else:
        id_comment = "  # a new feature: its permanent address is /features/<id>/"
    if change is None:
        kind, kind_comment = "new", "  # new | improvement | fix"
        if labels:
            kind_lines = f"stability: TODO  # one of {', '.join(labels)}; delete if the release states none\n"
        else:
            kind_lines = "# no stability: the release's scheme has no labels, so features are unlabeled\n"
        migration = ""
    else:
        kind, kind_comment = change, "  # breaking | deprecation | removal"
        kind_lines = "standalone: true  # it concerns something no release describes\n" if standalone else ""
        migration = "migration: __TEXT:new_change_migration__\n"
    area_comment = f"  # one of {', '.join(project.areas)}"
    path.parent.mkdir(exist_ok=True)
    atomic.write_text(
        path,
        starter.texts_in(
            NOTE.format(
                id=note_id,
                id_comment=id_comment,
                kind=kind,
                kind_comment=kind_comment,
                area=area or "TODO",
                area_comment=area_comment,
                kind_lines=kind_lines,
                # a second release of a feature gives it a name for its page (validate says so)
                name_line="name: __TEXT:new_feature_name__\n" if note_id in known and note_id not in named else "",
                migration=migration,
                module=_example_module(project),
            ),
            tuple(project.languages),
            quoted=True,
        ),
    )
    return path


def _feature_ids(data_dir: Path) -> tuple[dict[str, str], set[str]]:
    """({id: the latest release whose file describes it}, the ids an entry gives a `name`), read
    from the release files as they are (a note is written while other files may be invalid)."""
    known: dict[str, str] = {}
    named: set[str] = set()
    for path in sorted(release_paths(data_dir), key=lambda p: version_key(p.stem)):
        data = load_document(path)[0].data
        if not isinstance(data, dict):
            continue
        for key in notes.SECTIONS:
            for entry in data.get(key) or []:
                if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                    known[entry["id"]] = path.stem
                    if entry.get("name"):
                        named.add(entry["id"])
    return known, named
