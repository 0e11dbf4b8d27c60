"""The JSON Schema of `releasekb check --format json` (check_schema.json). It lives with the
knowledge base because the site publishes it beside the API's own schema, and the site never
imports check: check/formats/json.py writes reports of this version, publish.py publishes the file."""

from __future__ import annotations

import json
from pathlib import Path

SCHEMA_VERSION = 1
SCHEMA_FILE = Path(__file__).parent / "check_schema.json"
SCHEMA_PATH = f"api/schema/check-v{SCHEMA_VERSION}.json"  # where the site publishes it


def schema() -> dict:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
