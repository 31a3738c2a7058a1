"""The websocket protocol: parsing, encoding, and the messages' JSON schemas.

Every message is a JSON object ``{"t": type, "v": seq, "d": data}``. A client sends
commands (``v`` is not used); the server sends events, snapshots, turns and replies,
``v`` being the table's last event number when the message was made.

A client message is parsed once, by :func:`parse_command`: an unknown type, malformed
JSON, a missing or extra field, a wrong type or an oversized message raises
:class:`ProtocolError`, whose ``reason`` is sent back in a ``reject``; nothing else
happens. :func:`json_schemas` generates the JSON schemas of every message from its
dataclass (:mod:`stud8.server.wire.messages`); ``docs/protocol.md`` shows them
(``python -m stud8.server.wire.schemas --write docs/protocol.md`` brings it up to date; a
test checks it is).

>>> parse_command('{"t": "act", "d": {"kind": "call", "id": "c1"}}')
ActMessage(kind='call', id='c1', amount=None)
>>> parse_command('{"t": "act", "d": {"kind": "call"}}')
Traceback (most recent call last):
...
stud8.server.wire.schemas.ProtocolError: act: missing field 'id'
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import MISSING, fields
from typing import Any, Union

from stud8.core.actions import LegalAction
from stud8.core.cards import Card
from stud8.core.events import Event
from stud8.core.views import HandView
from stud8.formats.jsonlog import _EVENT_TYPES, encode_event
from stud8.server.table import events as table_events
from stud8.server.table.commands import TableSnapshot
from stud8.server.table.events import AnyEvent, Numbered, TableEvent
from stud8.server.wire.messages import (
    CLIENT_MESSAGES,
    JSON,
    SERVER_MESSAGES,
    AckMessage,
    ActMessage,
    ClientMessage,
    ComeBackMessage,
    EventMessage,
    JoinWaitlistMessage,
    LeaveMessage,
    LeaveWaitlistMessage,
    PingMessage,
    PongMessage,
    RejectMessage,
    ServerMessage,
    SitMessage,
    SitOutMessage,
    SnapshotMessage,
    TopUpMessage,
    TurnMessage,
    WelcomeMessage,
)
from stud8.server.wire.rest import ENDPOINTS, Failure

__all__ = [
    "CLIENT_MESSAGES",
    "JSON",
    "MAX_ID_CHARS",
    "MAX_MESSAGE_BYTES",
    "SERVER_MESSAGES",
    "AckMessage",
    "ActMessage",
    "ClientMessage",
    "ComeBackMessage",
    "EventMessage",
    "JoinWaitlistMessage",
    "LeaveMessage",
    "LeaveWaitlistMessage",
    "PingMessage",
    "PongMessage",
    "ProtocolError",
    "RejectMessage",
    "ServerMessage",
    "SitMessage",
    "SitOutMessage",
    "SnapshotMessage",
    "TopUpMessage",
    "TurnMessage",
    "WelcomeMessage",
    "encode_any_event",
    "envelope",
    "event_message",
    "hand_view_json",
    "json_schemas",
    "legal_json",
    "object_fields",
    "parse_command",
    "schemas_markdown",
    "snapshot_message",
    "updated_doc",
]

MAX_MESSAGE_BYTES = 4096
MAX_ID_CHARS = 64
_BY_TYPE: dict[str, type[ClientMessage]] = {cls.t: cls for cls in CLIENT_MESSAGES}


class ProtocolError(ValueError):
    """A client message that cannot be taken; ``id`` is its command id, if known."""

    def __init__(self, reason: str, command_id: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.command_id = command_id


# ------------------------------------------------------------------ parsing


def _type_ok(value: object, tp: object) -> bool:
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    if tp is bool:
        return isinstance(value, bool)
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if tp is type(None):
        return value is None
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return any(_type_ok(value, a) for a in typing.get_args(tp))
    raise TypeError(f"no check for {tp!r}")


def _type_name(tp: object) -> str:
    names = {
        int: "an integer",
        str: "a string",
        bool: "true or false",
        float: "a number",
        type(None): "null",
    }
    if tp in names:
        return names[tp]
    return " or ".join(_type_name(a) for a in typing.get_args(tp))


def object_fields(
    cls: type, data: dict[str, Any], what: str, hints: dict[str, Any] | None = None
) -> dict[str, object]:
    """The fields of dataclass ``cls`` found in ``data``, checked: no unknown field, no
    required field missing, each of its declared type; ProtocolError says which not."""
    hints = typing.get_type_hints(cls) if hints is None else hints
    names = [f.name for f in fields(cls)]
    unknown = set(data) - set(names)
    if unknown:
        raise ProtocolError(f"{what}: unknown fields {sorted(unknown)}")
    values: dict[str, object] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is MISSING:
                raise ProtocolError(f"{what}: missing field {f.name!r}")
            continue
        value = data[f.name]
        if not _type_ok(value, hints[f.name]):
            raise ProtocolError(
                f"{what}: {f.name} must be {_type_name(hints[f.name])}, got {value!r}"
            )
        values[f.name] = value
    return values


_HINTS: dict[type[ClientMessage], dict[str, Any]] = {
    cls: typing.get_type_hints(cls) for cls in CLIENT_MESSAGES
}


def parse_command(text: str | bytes) -> ClientMessage:
    """The command a client message carries; ProtocolError says why not."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large: {size} bytes (the limit is {MAX_MESSAGE_BYTES})")
    try:
        obj = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"malformed JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise ProtocolError('a message must be a JSON object {"t": type, "d": data}')
    data = obj.get("d")
    raw_id = data.get("id") if isinstance(data, dict) else None
    command_id = raw_id if isinstance(raw_id, str) and len(raw_id) <= MAX_ID_CHARS else None
    extra = set(obj) - {"t", "d", "v"}
    if extra:
        raise ProtocolError(f"unknown envelope fields {sorted(extra)}", command_id)
    kind = obj.get("t")
    if not isinstance(kind, str):
        raise ProtocolError("the message type t must be a string", command_id)
    cls = _BY_TYPE.get(kind)
    if cls is None:
        known = ", ".join(sorted(_BY_TYPE))
        raise ProtocolError(f"unknown message type {kind!r} (known: {known})", command_id)
    if not isinstance(data, dict):
        raise ProtocolError(f"{kind}: d must be a JSON object", command_id)
    try:
        values = object_fields(cls, data, kind, _HINTS[cls])
    except ProtocolError as exc:
        raise ProtocolError(exc.reason, command_id) from None
    cid = values["id"]
    assert isinstance(cid, str)
    if not 1 <= len(cid) <= MAX_ID_CHARS:
        raise ProtocolError(f"{kind}: id must be 1 to {MAX_ID_CHARS} characters", None)
    return cls(**values)


# ------------------------------------------------------------------ encoding


def _jsonable(value: object) -> JSON:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "value") and hasattr(value, "name"):  # an enum
        return _jsonable(value.value)
    if hasattr(value, "strength"):
        return _jsonable(value.strength)
    raise TypeError(f"no JSON form for {value!r}")


def encode_any_event(event: AnyEvent) -> dict[str, JSON]:
    """A table or hand event as a JSON object ``{"k": kind, field: value, ...}``."""
    if isinstance(event, Event):
        return encode_event(event)
    out: dict[str, JSON] = {"k": event.kind}
    for f in fields(event):
        out[f.name] = _jsonable(getattr(event, f.name))
    return out


def envelope(t: str, v: int | None, d: JSON) -> str:
    obj: dict[str, JSON] = {"t": t}
    if v is not None:
        obj["v"] = v
    obj["d"] = d
    return json.dumps(obj, separators=(",", ":"))


def event_message(item: Numbered) -> str:
    return envelope("event", item.seq, encode_any_event(item.event))


def legal_json(legal: tuple[LegalAction, ...] | list[LegalAction]) -> list[dict[str, JSON]]:
    return [
        {
            "kind": a.kind.value,
            "min_to": a.min_to,
            "max_to": a.max_to,
            "adds": a.adds,
            "all_in": a.all_in,
        }
        for a in legal
    ]


def hand_view_json(view: HandView) -> dict[str, JSON]:
    return {
        "hand_id": view.hand_id,
        "viewer": view.viewer,
        "street": view.street,
        "to_act": view.to_act,
        "bring_in_seat": view.bring_in_seat,
        "pot": view.pot,
        "current_bet": view.current_bet,
        "community_card": _jsonable(view.community_card),
        "seats": [
            {
                "seat": s.seat,
                "stack": s.stack,
                "bet": s.bet,
                "contributed": s.contributed,
                "folded": s.folded,
                "all_in": s.all_in,
                "up_cards": _jsonable(s.up_cards),
                "down_cards": _jsonable(s.down_cards),
            }
            for s in view.seats
        ],
        "legal_actions": legal_json(view.legal_actions),
        "is_over": view.is_over,
    }


def snapshot_message(snap: TableSnapshot) -> str:
    turn = snap.turn
    data = {
        "table_id": snap.table_id,
        "viewer_seat": snap.viewer_seat,
        "seats": [
            {
                "seat": s.seat,
                "player": s.player,
                "chips": s.chips,
                "bot": s.bot,
                "sitting_out": s.sitting_out,
                "connected": s.connected,
                "in_hand": s.in_hand,
            }
            for s in snap.seats
        ],
        "hand_id": snap.hand_id,
        "hand": hand_view_json(snap.hand) if snap.hand is not None else None,
        "turn": encode_any_event(turn) if turn is not None else None,
        "waiting_list": list(snap.waiting_list),
        "offer": (
            {
                "seat": snap.offer.seat,
                "player": snap.offer.player,
                "seconds_left": round(snap.offer.seconds_left, 3),
            }
            if snap.offer is not None
            else None
        ),
    }
    return envelope("snapshot", snap.seq, data)


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
    if origin is dict:
        return {"type": "object"}
    if isinstance(tp, type) and hasattr(tp, "strength"):
        return {"type": "integer", "description": "a hand value's strength (higher is better)"}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _object_schema(tp, title=tp.__name__)
    return {"description": repr(tp)}


def _object_schema(cls: type, *, title: str, doc: str = "") -> dict[str, JSON]:
    hints = typing.get_type_hints(cls)
    props: dict[str, JSON] = {}
    required: list[str] = []
    for f in fields(cls):
        props[f.name] = _schema_of_type(hints[f.name])
        if f.default is MISSING:
            required.append(f.name)
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
    table_types = [
        obj
        for obj in vars(table_events).values()
        if isinstance(obj, type) and issubclass(obj, TableEvent) and obj is not TableEvent
    ]
    all_types: list[type[Event] | type[TableEvent]] = [*_EVENT_TYPES, *table_types]
    for cls in all_types:
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


def _rest_schemas() -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    for e in ENDPOINTS:
        entry: dict[str, JSON] = {"description": e.doc, "status": e.status, "login": e.login}
        if e.request is not None:
            what = "query" if e.method == "GET" else "body"
            doc = " ".join((e.request.__doc__ or "").split())
            if e.request.__name__ == "TableSpec":
                request = _object_schema(e.request, title="NewTable", doc="a table's settings")
                request["properties"]["table_id"] = {"type": "string"}
                request["properties"]["name"] = {"type": "string"}
            else:
                request = _object_schema(e.request, title=e.request.__name__, doc=doc)
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
            cls.t,
            _object_schema(cls, title=cls.__name__, doc=cls.doc),
            with_v=cls.t not in ("welcome",),
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
    parts = [DOC_BEGIN, ""]
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
