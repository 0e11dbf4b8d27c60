"""JSON Schemas for editors, generated from the pydantic models (never edited by hand).

Vocabulary fields carry an `x-vocabulary` marker in the models; here it becomes an `enum`
of the values project.yaml defines, so editors complete areas, schemes and labels too.
Release files point at the schema with a first line
`# yaml-language-server: $schema=release.schema.json`.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import UnionType
from typing import Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from releasekb.common import atomic
from releasekb.common.i18n import known_languages, language_name
from releasekb.common.regular_files import read_regular_file
from releasekb.kb.model import PROJECT_SCHEMA, RELEASE_SCHEMA, GlossaryTerm, InLanguages, ProjectFile, ReleaseFile, Text
from releasekb.kb.validate import load_project


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


def _with_languages(schema: dict, languages: list[str], untranslated: str) -> dict:
    """Texts (and glossary terms) as the knowledge base writes them: one key per language of
    project.yaml's `languages`, each required (only the first with `untranslated: fallback`), no
    other; the model itself takes its languages from the validator (model.InLanguages)."""
    required = languages if untranslated == "error" else languages[:1]
    for name, definition in schema.get("$defs", {}).items():
        if name not in (Text.__name__, GlossaryTerm.__name__):
            continue
        text = definition.pop("additionalProperties", {"type": "string"})
        definition["properties"] = {
            **{lang: {**text, "description": f"The text in {language_name(lang)} ({lang})."} for lang in languages},
            **definition.get("properties", {}),
        }
        definition["required"] = [*(languages if name == GlossaryTerm.__name__ else required)]
        definition["additionalProperties"] = False
    languages_field = schema.get("properties", {}).get("languages")
    if languages_field is not None:
        languages_field["items"] = {"enum": known_languages()}
    return schema


def schemas(data_dir: Path) -> dict[str, str]:
    """{file name: JSON text} for the release and project schemas."""
    project = load_project(data_dir)
    vocabularies = {
        "areas": list(project.areas),
        "schemes": list(project.stability.schemes),
        "labels": list(project.stability.labels),
        "languages": list(project.languages),
    }
    result = {}
    for name, model, title in (
        (RELEASE_SCHEMA, ReleaseFile, "A release file: releases/<version>.yaml"),
        (PROJECT_SCHEMA, ProjectFile, "The project's vocabularies: releases/project.yaml"),
    ):
        schema = _with_vocabularies(model.model_json_schema(), vocabularies)
        schema = _with_languages(schema, list(project.languages), project.untranslated)
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema, "title": title}
        result[name] = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    return result


def write_schemas(data_dir: Path, check: bool = False) -> list[Path]:
    """Write the schemas next to the data; with check, write nothing and return stale files."""
    stale = []
    for name, text in schemas(data_dir).items():
        path = Path(data_dir) / name
        if _holds(path, text):
            continue
        stale.append(path)
        if not check:
            atomic.write_text(path, text)
    return stale


def _holds(path: Path, text: str) -> bool:
    """Whether path is a regular file holding text, line endings aside (a checkout may have
    made them CRLF). Read no further than twice text's length: a larger file, a pipe or a
    device is simply not the schema."""
    try:
        data = read_regular_file(path, 2 * len(text.encode("utf-8")))
    except OSError:
        return False
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n") == text


def project_reference() -> str:
    """The reference of project.yaml's keys, as a Markdown table, from the model's own field
    descriptions (the README holds it; a test checks the two are the same)."""
    return _reference(ProjectFile)


def release_reference() -> str:
    """The reference of a release file's keys, as project_reference is (the README holds it):
    a key with fixed values lists them after its description."""
    return _reference(ReleaseFile)


def _reference(model) -> str:
    rows = ["| key | required | what it is for |", "| --- | --- | --- |"]
    for path, field in _fields(model):
        required = "yes" if field.is_required() else "no"
        values = _literal_values(field.annotation)
        described = f"{field.description} One of {', '.join(f'`{value}`' for value in values)}." if values else ""
        rows.append(f"| `{path}` | {required} | {described or field.description} |")
    return "\n".join(rows) + "\n"


def _literal_values(annotation) -> tuple:
    """The values a Literal field allows (a kind), else ()."""
    return get_args(annotation) if get_origin(annotation) is Literal else ()


def _fields(model, prefix: str = ""):
    """(dotted path, field) for every field of a model and of the models inside it; a key the
    user chooses is written <key>, a list item []."""
    if issubclass(model, InLanguages):  # its languages are keys the knowledge base chooses
        yield f"{prefix}<lang>", FieldInfo(annotation=str, description=model.LANGUAGE_KEY_DESCRIPTION)
    for name, field in model.model_fields.items():
        path = f"{prefix}{name}"
        yield path, field
        inner, suffix = _inner_model(field.annotation)
        if inner is not None:
            yield from _fields(inner, f"{path}{suffix}.")


def _inner_model(annotation) -> tuple[type[BaseModel] | None, str]:
    """The model a field holds (itself, perhaps None, the values of a dict, the items of a
    list, one of them a plain name), and how a path names one of them: '', '.<key>' or '[]'."""
    args = [arg for arg in get_args(annotation) if arg is not type(None)]
    origin = get_origin(annotation)
    if _is_model(annotation):
        return annotation, ""
    if origin is dict and _is_model(args[-1]):
        return args[-1], ".<key>"
    if origin is list:
        items = get_args(args[0]) if get_origin(args[0]) in (Union, UnionType) else (args[0],)
        model = next((item for item in items if _is_model(item)), None)  # `apis`: a name or an ApiUse
        return model, "[]"
    if len(args) == 1 and _is_model(args[0]):  # Model | None
        return args[0], ""
    return None, ""


def _is_model(annotation) -> bool:
    """A record with keys of its own (a Text is one value: {en, zh})."""
    return isinstance(annotation, type) and issubclass(annotation, BaseModel) and annotation is not Text
