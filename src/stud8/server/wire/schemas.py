"""The protocol's JSON schemas, generated from the message classes, and ``docs/protocol.md``.

Every message is a JSON object ``{"t": type, "v": seq, "d": data}``. A client sends
commands (:mod:`stud8.server.wire.client`; ``v`` is not used); the server sends
events, snapshots, turns and replies (:mod:`stud8.server.wire.server`), ``v`` being
the table's last event number when the message was made; the REST API's bodies are
:mod:`stud8.server.wire.rest`'s. :func:`json_schemas` has msgspec make the schema of
every one of them from its Struct, the very type that parses or encodes it (the
engine's values and events in their wire forms: :mod:`stud8.server.wire.standins`),
and adds what msgspec cannot know (the accounts' limits, a new table's options);
``docs/protocol.md`` shows them with the protocol's limits
(``python -m stud8.server.wire.schemas --write docs/protocol.md`` brings it up to
date; a test checks it is).
"""

from __future__ import annotations

import copy
import json

import msgspec

from stud8.server.table.events import AnyEvent
from stud8.server.table.spec import RULE_OPTIONS, OptionKind, RuleOption
from stud8.server.wire.account import ACCOUNT_ENDPOINTS
from stud8.server.wire.admin import ADMIN_ENDPOINTS
from stud8.server.wire.client import CLIENT_MESSAGES
from stud8.server.wire.codec import JSON
from stud8.server.wire.equity import EQUITY_ENDPOINTS
from stud8.server.wire.limits import (
    LIMITS,
    MAX_ID_CHARS,
    NAME_CHARS,
    NAME_PATTERN,
    PASSWORD_CHARS,
)
from stud8.server.wire.replay import REPLAY_ENDPOINTS
from stud8.server.wire.rest import ENDPOINTS, Failure
from stud8.server.wire.server import SERVER_MESSAGES, EventMessage
from stud8.server.wire.standins import EVENT_STANDINS, schema_hook, wire_type
from stud8.server.wire.tournaments import TOURNAMENT_ENDPOINTS

__all__ = ["json_schemas", "main", "schemas_markdown", "updated_doc"]

_ENDPOINTS = (
    *ENDPOINTS,
    *ACCOUNT_ENDPOINTS,
    *REPLAY_ENDPOINTS,
    *EQUITY_ENDPOINTS,
    *TOURNAMENT_ENDPOINTS,
    *ADMIN_ENDPOINTS,
)
_TYPES = "#/types/"


# ------------------------------------------------------------------ schemas


def _msgspec_schemas(roots: list[object]) -> tuple[list[dict[str, JSON]], dict[str, JSON]]:
    """msgspec's schema of each root type (in its wire form: :mod:`.standins`) and the
    records they refer to (``#/types/NAME``)."""
    schemas, components = msgspec.json.schema_components(
        [wire_type(tp) for tp in roots], schema_hook=schema_hook, ref_template=_TYPES + "{name}"
    )
    return list(schemas), components


def _finished(value: JSON, events: dict[str, str]) -> JSON:
    """A copy of ``value`` as the protocol shows it: a reference to an event's Struct
    points to ``#/events/KIND``; every object of named fields is closed
    (``additionalProperties: false``: each the room reads forbids unknown fields, as
    msgspec says of those, and each it writes has exactly its fields); an enum of
    strings says it is a string; a description on one line."""
    if isinstance(value, list):
        return [_finished(v, events) for v in value]
    if isinstance(value, str) and value.startswith(_TYPES):
        name = value.removeprefix(_TYPES)
        return f"#/events/{events[name]}" if name in events else value
    if not isinstance(value, dict):
        return value
    out = {k: _finished(v, events) for k, v in value.items()}
    if isinstance(out.get("description"), str):
        out["description"] = " ".join(out["description"].split())
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if "enum" in out and "type" not in out and all(isinstance(v, str) for v in out["enum"]):
        out = {k: v for k, v in out.items() if k != "enum"} | {
            "type": "string",
            "enum": out["enum"],
        }
    return out


def _referred(value: JSON, found: set[str]) -> set[str]:
    """The names of the records ``value`` refers to (``#/types/NAME``)."""
    if isinstance(value, dict):
        for v in value.values():
            _referred(v, found)
    elif isinstance(value, list):
        for v in value:
            _referred(v, found)
    elif isinstance(value, str) and value.startswith(_TYPES):
        found.add(value.removeprefix(_TYPES))
    return found


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


def _request_schema(schema: dict[str, JSON], name: str, query: bool) -> dict[str, JSON]:
    """A REST request's schema with what msgspec cannot know of it: a new table's
    options from RULE_OPTIONS, the accounts' limits, a query's parameters never null."""
    props = schema["properties"]
    if name == "TableSpec":  # read field by field, each option as RULE_OPTIONS says
        schema["title"], schema["description"] = "NewTable", "a table's settings"
        props["table_id"] = {"type": "string"}
        props["name"] = {"type": "string"}
        for option in RULE_OPTIONS:  # what each allows, its default, what it does
            props[option.name] = _option_schema(option)
    if name == "Credentials":  # the limits the accounts enforce
        props["name"] = _text(NAME_CHARS, pattern=f"^{NAME_PATTERN}$")
        props["password"] = _text(PASSWORD_CHARS)
    if query:  # a parameter is absent or a value, never null
        for key, prop in props.items():
            kinds = [k for k in prop.get("anyOf", [prop]) if k != {"type": "null"}]
            if len(kinds) == 1 and "anyOf" in prop:
                rest = {k: v for k, v in prop.items() if k != "anyOf"}
                if rest.get("default", 0) is None:
                    del rest["default"]
                props[key] = {**kinds[0], **rest}
    return schema


def json_schemas() -> dict[str, JSON]:
    """The JSON schemas of every message (client and server), of every event, of the
    REST API's bodies (``rest``: by endpoint, its ``body`` or ``query`` and its
    ``answer``), and of the records they refer to (``types``). msgspec makes each
    from its type (in its wire form, :mod:`stud8.server.wire.standins`); a message's
    ``d``, a body and an answer are shown whole, the records they hold by reference
    (``#/types/NAME``), the events as ``#/events/KIND``."""
    requests = [(e, e.request) for e in _ENDPOINTS if e.request is not None]
    answers = [(e, e.answer) for e in _ENDPOINTS if e.answer is not None]
    server = [cls for cls in SERVER_MESSAGES if cls is not EventMessage]
    roots: list[object] = [
        *CLIENT_MESSAGES,
        *server,
        *(tp for _, tp in requests),
        *(tp for _, tp in answers),
        Failure,
        AnyEvent,  # an event message's d: one of every event, tagged k
    ]
    found, components = _msgspec_schemas(roots)
    events = {standin.__name__: cls.kind for cls, standin in EVENT_STANDINS.items()}
    finished: list[dict[str, JSON]] = _finished(found, events)
    parts: dict[str, JSON] = _finished(components, events)

    def whole(schema: dict[str, JSON], doc: str | None = None) -> dict[str, JSON]:
        ref = schema.get("$ref", "")
        out = copy.deepcopy(parts[ref.removeprefix(_TYPES)]) if ref.startswith(_TYPES) else schema
        if doc:  # a message's doc (msgspec shows a docstring), after its title
            title = {"title": out["title"]} if "title" in out else {}
            out = {**title, "description": doc, **out}
        return dict(out)

    shown = iter(finished)
    client: dict[str, JSON] = {}
    for cls in CLIENT_MESSAGES:
        data = whole(next(shown), cls.doc)
        data["properties"]["id"] = _text((1, MAX_ID_CHARS))  # as parse_command checks it
        client[cls.t] = _envelope_schema(cls.t, data, with_v=True)
    server_schemas = {
        cls.t: _envelope_schema(cls.t, whole(next(shown), cls.doc), with_v=cls.numbered)
        for cls in server
    }
    rest: dict[str, JSON] = {}
    for e, tp in requests:
        query = e.method == "GET"
        schema = _request_schema(whole(next(shown)), tp.__name__, query)
        rest.setdefault(f"{e.method} {e.path}", {})["query" if query else "body"] = schema
    for e, _ in answers:
        rest.setdefault(f"{e.method} {e.path}", {})["answer"] = whole(next(shown))
    failure = whole(next(shown), "any error, with its status")
    event = whole(next(shown), EventMessage.doc)
    server_schemas["event"] = _envelope_schema("event", event, with_v=EventMessage.numbered)
    server_schemas = {cls.t: server_schemas[cls.t] for cls in SERVER_MESSAGES}
    endpoints: dict[str, JSON] = {}
    for e in _ENDPOINTS:
        entry = {"description": e.doc, "status": e.status, "login": e.login}
        endpoints[f"{e.method} {e.path}"] = {**entry, **rest.get(f"{e.method} {e.path}", {})}
    endpoints["errors"] = failure
    shown_events = {kind: parts[name] for name, kind in events.items()}
    out: dict[str, JSON] = {
        "client": client,
        "server": server_schemas,
        "events": shown_events,
        "rest": endpoints,
    }
    referred = _referred(out, set())
    while True:  # the records referred to, and those they refer to
        more = _referred([parts[name] for name in referred], set(referred))
        if more == referred:
            break
        referred = more
    out["types"] = {name: parts[name] for name in sorted(referred)}
    return out


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
        ("types", "Records (`#/types/NAME`: the objects the schemas above refer to)"),
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
