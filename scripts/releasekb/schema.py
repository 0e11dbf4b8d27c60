"""JSON Schemas for editors, generated from the pydantic models (never edited by hand).

Vocabulary fields carry an `x-vocabulary` marker in the models; here it becomes an `enum`
of the values project.yaml defines, so editors complete areas, schemes and labels too.
Release files point at the schema with a first line
`# yaml-language-server: $schema=release.schema.json`.
"""

from __future__ import annotations

import json
from pathlib import Path

from releasekb.model import PROJECT_SCHEMA, RELEASE_SCHEMA, ProjectFile, ReleaseFile
from releasekb.validate import load_project


def _with_vocabularies(node, vocabularies: dict[str, list[str]]):
    if isinstance(node, dict):
        name = node.pop("x-vocabulary", None)
        if name is not None:
            node["enum"] = vocabularies[name]
        for value in node.values():
            _with_vocabularies(value, vocabularies)
    elif isinstance(node, list):
        for value in node:
            _with_vocabularies(value, vocabularies)
    return node


def schemas(data_dir: Path) -> dict[str, str]:
    """{file name: JSON text} for the release and project schemas."""
    project = load_project(data_dir)
    vocabularies = {
        "areas": list(project.areas),
        "schemes": list(project.stability.schemes),
        "labels": list(project.stability.labels),
    }
    result = {}
    for name, model, title in (
        (RELEASE_SCHEMA, ReleaseFile, "A release file: releases/<version>.yaml"),
        (PROJECT_SCHEMA, ProjectFile, "The project's vocabularies: releases/project.yaml"),
    ):
        schema = _with_vocabularies(model.model_json_schema(), vocabularies)
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema, "title": title}
        result[name] = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    return result


def write_schemas(data_dir: Path, check: bool = False) -> list[Path]:
    """Write the schemas next to the data; with check, write nothing and return stale files."""
    stale = []
    for name, text in schemas(data_dir).items():
        path = Path(data_dir) / name
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not check:
            path.write_text(text, encoding="utf-8")
    return stale
