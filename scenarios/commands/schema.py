"""``tapeline schema``: the JSON Schema of scenario files, for editors' autocompletion."""

from __future__ import annotations

import json


def register(sub) -> None:
    p = sub.add_parser("schema", help="print the JSON Schema of scenario files")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..schema import scenario_model

    schema = scenario_model().model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "tapeline scenario file, version 1"
    print(json.dumps(schema, indent=2))
    return 0
