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
from releasekb.common.safe_text import visible
from releasekb.common.versions import version_key
from releasekb.kb import starter
from releasekb.kb.loader import load_document
from releasekb.kb.model import SCHEMA_COMMENT, VERSION_PATTERN, ProjectFile
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
