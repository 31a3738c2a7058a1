"""The protocol's JSON schemas, generated from the message classes, and ``docs/protocol.md``.

Every message is a JSON object ``{"t": type, "v": seq, "d": data}``. A client sends
commands (:mod:`stud8.server.wire.client`; ``v`` is not used); the server sends
events, snapshots, turns and replies (:mod:`stud8.server.wire.server`), ``v`` being
the table's last event number when the message was made; the REST API's bodies are
:mod:`stud8.server.wire.rest`'s. :func:`json_schemas` generates the schema of every
one of them from its dataclass, the very class that parses or encodes it;
``docs/protocol.md`` shows them with the protocol's limits
(``python -m stud8.server.wire.schemas --write docs/protocol.md`` brings it up to
date; a test checks it is).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, fields
from typing import Any, Union, cast

import msgspec

from stud8.core.cards import Card
from stud8.core.events import Event
from stud8.server.table.events import TableEvent
from stud8.server.table.spec import RULE_OPTIONS, OptionKind, RuleOption
from stud8.server.wire.account import ACCOUNT_ENDPOINTS
from stud8.server.wire.admin import ADMIN_ENDPOINTS
from stud8.server.wire.client import CLIENT_MESSAGES
from stud8.server.wire.codec import JSON
from stud8.server.wire.equity import EQUITY_ENDPOINTS
from stud8.server.wire.events import EVENT_TYPES, HAND_EVENT_TYPES, TABLE_EVENT_TYPES
from stud8.server.wire.limits import LIMITS, NAME_CHARS, NAME_PATTERN, PASSWORD_CHARS
from stud8.server.wire.replay import REPLAY_ENDPOINTS
from stud8.server.wire.rest import ENDPOINTS, Failure
from stud8.server.wire.server import SERVER_MESSAGES, EventMessage
from stud8.server.wire.tournaments import TOURNAMENT_ENDPOINTS

__all__ = ["json_schemas", "main", "schemas_markdown", "updated_doc"]


# ------------------------------------------------------------------ schemas


def _schema_of_type(tp: object) -> dict[str, JSON]:
    if tp is int:
        return {"type": "integer"}
    if tp is str:
        return {"type": "string"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is float:
        return {"type": "number"}
    if tp is type(None):
        return {"type": "null"}
    if tp is Card:
        return {"type": "string", "description": "a card: rank and suit, e.g. 'Td'"}
    if tp is Event or tp is TableEvent:  # any event of the family (a snapshot's log)
        family = HAND_EVENT_TYPES if tp is Event else TABLE_EVENT_TYPES
        return {"oneOf": [{"$ref": f"#/events/{cls.kind}"} for cls in family]}
    if isinstance(tp, type) and issubclass(tp, (Event, TableEvent)):
        return {"$ref": f"#/events/{tp.kind}"}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"type": "string", "enum": [m.value for m in tp]}
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema_of_type(a) for a in typing.get_args(tp)]}
    if origin in (tuple, list):
        args = typing.get_args(tp)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema_of_type(args[0])}
        if origin is tuple:
            return {
                "type": "array",
                "prefixItems": [_schema_of_type(a) for a in args],
                "items": False,
            }
        return {"type": "array", "items": _schema_of_type(args[0])}
    if origin in (dict, Mapping) or tp is Mapping:
        return {"type": "object"}
    if isinstance(tp, type) and hasattr(tp, "strength"):
        return {"type": "integer", "description": "a hand value's strength (higher is better)"}
    if isinstance(tp, type) and (dataclasses.is_dataclass(tp) or issubclass(tp, msgspec.Struct)):
        return _object_schema(tp, title=tp.__name__)
    return {"description": repr(tp)}


def _fields(cls: type) -> list[tuple[str, bool]]:
    """The fields of a message (a msgspec Struct) or of a record (a dataclass) in
    order, each with whether it is required."""
    if isinstance(cls, type) and issubclass(cls, msgspec.Struct):
        return [
            (f.name, f.default is msgspec.NODEFAULT and f.default_factory is msgspec.NODEFAULT)
            for f in msgspec.structs.fields(cls)
        ]
    # a record's field with a default factory is always sent: required in the answer
    return [(f.name, f.default is MISSING) for f in fields(cast(Any, cls))]


def _object_schema(cls: type, *, title: str, doc: str = "") -> dict[str, JSON]:
    hints = typing.get_type_hints(cls)
    props: dict[str, JSON] = {}
    required: list[str] = []
    for name, needed in _fields(cls):
        props[name] = _schema_of_type(hints[name])
        if needed:
            required.append(name)
    schema: dict[str, JSON] = {"title": title, "type": "object", "properties": props}
    schema["required"] = required
    schema["additionalProperties"] = False
    if doc:
        schema["description"] = doc
    return schema


def _envelope_schema(t: str, data: dict[str, JSON], *, with_v: bool) -> dict[str, JSON]:
    props: dict[str, JSON] = {"t": {"const": t}}
    if with_v:
        props["v"] = {"type": "integer", "minimum": 0}
    props["d"] = data
    return {
        "type": "object",
        "properties": props,
        "required": ["t", "d"],
        "additionalProperties": False,
    }


def _event_schemas() -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    for cls in EVENT_TYPES:
        schema = _object_schema(cls, title=cls.__name__, doc=(cls.__doc__ or "").strip())
        if issubclass(cls, Event):  # as formats.jsonlog writes them
            props = schema["properties"]
            if "cards" in props:
                props["cards"] = {"type": "string", "description": "cards, space separated"}
            if "low" in props:
                props["low"] = {
                    "anyOf": [
                        {"type": "integer"},
                        {
                            "type": "object",
                            "properties": {"razz": {"type": "integer"}},
                            "required": ["razz"],
                            "additionalProperties": False,
                        },
                        {"type": "null"},
                    ],
                    "description": "the low hand's strength (higher is better), or null",
                }
        schema["properties"] = {"k": {"const": cls.kind}, **schema["properties"]}
        schema["required"] = ["k", *schema["required"]]
        out[cls.kind] = schema
    return out


def _text(chars: tuple[int, int], pattern: str | None = None) -> dict[str, JSON]:
    schema: dict[str, JSON] = {"type": "string", "minLength": chars[0], "maxLength": chars[1]}
    if pattern is not None:
        schema["pattern"] = pattern
    return schema


def _option_schema(option: RuleOption) -> dict[str, JSON]:
    """A table option's schema, from its one definition (RULE_OPTIONS)."""
    kinds: list[dict[str, JSON]] = []
    if option.choices:
        values = [v for v, _ in option.choices]
        kinds.append({"type": "string" if isinstance(values[0], str) else "integer"})
        kinds[0]["enum"] = values
    elif option.kind is OptionKind.INT:
        kinds.append({"type": "integer", "minimum": option.minimum or 0})
    elif option.kind is OptionKind.BOOL:
        kinds.append({"type": "boolean"})
    else:
        kinds.append({"type": "string", "description": "a number: '5' or '5/2'"})
    if option.nullable:
        kinds.append({"type": "null"})
    schema: dict[str, JSON] = dict(kinds[0]) if len(kinds) == 1 else {"anyOf": kinds}
    schema["description"] = option.doc
    schema["default"] = option.default
    return schema


def _rest_schemas() -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    endpoints = (
        *ENDPOINTS,
        *ACCOUNT_ENDPOINTS,
        *REPLAY_ENDPOINTS,
        *EQUITY_ENDPOINTS,
        *TOURNAMENT_ENDPOINTS,
        *ADMIN_ENDPOINTS,
    )
    for e in endpoints:
        entry: dict[str, JSON] = {"description": e.doc, "status": e.status, "login": e.login}
        if e.request is not None:
            what = "query" if e.method == "GET" else "body"
            doc = " ".join((e.request.__doc__ or "").split())
            if e.request.__name__ == "TableSpec":
                request = _object_schema(e.request, title="NewTable", doc="a table's settings")
                request["properties"]["table_id"] = {"type": "string"}
                request["properties"]["name"] = {"type": "string"}
                for option in RULE_OPTIONS:  # what each allows, its default, what it does
                    request["properties"][option.name] = _option_schema(option)
            else:
                request = _object_schema(e.request, title=e.request.__name__, doc=doc)
            if e.request.__name__ == "Credentials":  # the limits the accounts enforce
                request["properties"]["name"] = _text(NAME_CHARS, pattern=f"^{NAME_PATTERN}$")
                request["properties"]["password"] = _text(PASSWORD_CHARS)
            if what == "query":  # a parameter is absent or a value, never null
                for name, prop in request["properties"].items():
                    kinds = [k for k in prop.get("anyOf", [prop]) if k != {"type": "null"}]
                    request["properties"][name] = kinds[0] if len(kinds) == 1 else prop
            entry[what] = request
        if e.answer is not None:
            doc = " ".join((e.answer.__doc__ or "").split())
            entry["answer"] = _object_schema(e.answer, title=e.answer.__name__, doc=doc)
        out[f"{e.method} {e.path}"] = entry
    out["errors"] = _object_schema(Failure, title="Failure", doc="any error, with its status")
    return out


def json_schemas() -> dict[str, JSON]:
    """The JSON schemas of every message (client and server), of every event, and
    of the REST API's bodies (``rest``: by endpoint, its ``body`` or ``query`` and
    its ``answer``)."""
    client = {
        cls.t: _envelope_schema(
            cls.t, _object_schema(cls, title=cls.__name__, doc=cls.doc), with_v=True
        )
        for cls in CLIENT_MESSAGES
    }
    server = {
        cls.t: _envelope_schema(
            cls.t, _object_schema(cls, title=cls.__name__, doc=cls.doc), with_v=cls.numbered
        )
        for cls in SERVER_MESSAGES
    }
    server["event"]["properties"]["d"] = {
        "description": EventMessage.doc,
        "oneOf": [{"$ref": f"#/events/{k}"} for k in _event_schemas()],
    }
    return {
        "client": client,
        "server": server,
        "events": _event_schemas(),
        "rest": _rest_schemas(),
    }


DOC_BEGIN = "<!-- schemas: generated by `python -m stud8.server.wire.schemas`; do not edit -->"
DOC_END = "<!-- end of generated schemas -->"


def schemas_markdown() -> str:
    """The generated part of ``docs/protocol.md``."""
    schemas = json_schemas()
    parts = [DOC_BEGIN, "", "### Limits\n", "| limit | value | |", "|---|---|---|"]
    parts += [f"| `{name}` | {value} | {what} |" for name, (value, what) in LIMITS.items()]
    parts.append("")
    titles = (
        ("rest", "REST endpoints (bodies, queries and answers)"),
        ("client", "Client messages"),
        ("server", "Server messages"),
        ("events", "Events (`d` of an `event` message)"),
    )
    for section, title in titles:
        parts.append(f"### {title}\n")
        for name, schema in schemas[section].items():
            parts.append(f"#### `{name}`\n")
            parts.append("```json")
            parts.append(json.dumps(schema, indent=2))
            parts.append("```\n")
    parts.append(DOC_END)
    return "\n".join(parts)


def updated_doc(text: str) -> str:
    """``text`` (docs/protocol.md) with its generated part replaced by the current one."""
    start, end = text.find(DOC_BEGIN), text.find(DOC_END)
    if start < 0 or end < start:
        raise ValueError("the document has no generated part (its markers are missing)")
    return text[:start] + schemas_markdown() + text[end + len(DOC_END) :]


def main(argv: list[str] | None = None) -> int:
    """``python -m stud8.server.wire.schemas [--write docs/protocol.md]``: print the
    generated schemas, or bring the document up to date."""
    import sys
    from pathlib import Path

    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "--write":
        path = Path(args[1])
        path.write_text(updated_doc(path.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    if args:
        print("usage: python -m stud8.server.wire.schemas [--write docs/protocol.md]")
        return 2
    print(schemas_markdown())
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
