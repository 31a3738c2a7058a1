"""The protocol's JSON schemas and a small checker of values against them (the
subset of JSON Schema they use), for the tests that check what the server sends."""

from __future__ import annotations

from typing import Any

from stud8.server.wire.schemas import json_schemas

SCHEMAS = json_schemas()


def conforms(value: Any, schema: dict[str, Any]) -> bool:
    """A small JSON-schema check, for the keywords the generator writes."""
    if "$ref" in schema:
        _, section, name = schema["$ref"].split("/")
        return conforms(value, SCHEMAS[section][name])
    if "const" in schema and value != schema["const"]:
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "anyOf" in schema and not any(conforms(value, s) for s in schema["anyOf"]):
        return False
    if "oneOf" in schema and sum(conforms(value, s) for s in schema["oneOf"]) != 1:
        return False
    kind = schema.get("type")
    checks = {
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "string": lambda v: isinstance(v, str),
        "boolean": lambda v: isinstance(v, bool),
        "null": lambda v: v is None,
        "array": lambda v: isinstance(v, list),
        "object": lambda v: isinstance(v, dict),
    }
    if kind is not None and not checks[kind](value):
        return False
    if kind == "object":
        props = schema.get("properties", {})
        if any(k not in value for k in schema.get("required", ())):
            return False
        if schema.get("additionalProperties") is False and set(value) - set(props):
            return False
        return all(conforms(value[k], s) for k, s in props.items() if k in value)
    if kind == "array":
        prefix = schema.get("prefixItems")
        if prefix is not None:
            return len(value) == len(prefix) and all(
                conforms(v, s) for v, s in zip(value, prefix, strict=True)
            )
        items = schema.get("items")
        return items is None or all(conforms(v, items) for v in value)
    return True


# ---------------------------------------------------------------- parsing
