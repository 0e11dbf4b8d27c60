"""`releasekb new VERSION`: a release file to fill in, valid in shape, with every key shown."""

from __future__ import annotations

import re
from pathlib import Path

from releasekb.model import SCHEMA_COMMENT, VERSION_PATTERN
from releasekb.validate import load_project

SKELETON = """{schema_comment}
version: "{version}"
date: 2000-01-31             # YYYY-MM-DD, or "YYYY-MM" when only the month is known
scheme: {scheme}  # one of: {schemes}
title: {{en: "TODO: a short headline", zh: "TODO：一句话标题"}}
summary:
  en: "TODO: what this release brought, in two to four sentences of your own."
  zh: "TODO：用两到四句话概括这个版本带来了什么。"
sources:
  - {{kind: original, lang: en, url: "https://example.org/TODO"}}
highlights: []               # ids of the entries below that the release itself highlighted
features:
  - id: todo-feature         # ASCII slug; it becomes the permanent URL /features/todo-feature/
    kind: new                # new | improvement | fix
    area: {area}  # one of: {areas}
    # stability: {label}     # a label of the scheme; omit when the release stated no level
    title: {{en: "TODO: feature title", zh: "TODO：特性标题"}}
    summary: {{en: "TODO: what it does and why it matters.", zh: "TODO：它做什么、为什么重要。"}}
    apis: []
    links: []
changes: []                  # breaking | deprecation | removal, each with a `migration` text
"""


def write_skeleton(data_dir: Path, version: str) -> Path:
    if not re.fullmatch(VERSION_PATTERN, version):
        raise SystemExit(f"releasekb new: '{version}' is not a version like 1.8 or 1.10")
    path = Path(data_dir) / f"{version}.yaml"
    if path.exists():
        raise SystemExit(f"releasekb new: {path} already exists")
    project = load_project(data_dir)
    schemes = list(project.stability.schemes)
    areas = list(project.areas)
    scheme = schemes[-1]
    labels = project.stability.schemes[scheme] or ["stable"]
    path.write_text(
        SKELETON.format(
            schema_comment=SCHEMA_COMMENT,
            version=version,
            scheme=scheme,
            schemes=", ".join(schemes),
            area=areas[0],
            areas=", ".join(areas),
            label=labels[0],
        ),
        encoding="utf-8",
    )
    return path
