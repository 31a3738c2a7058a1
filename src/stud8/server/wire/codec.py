"""The wire's machinery: a message's fields checked in from JSON, and any message out to JSON.

Every message of the protocol is a frozen dataclass (:mod:`stud8.server.wire.client`,
:mod:`stud8.server.wire.server`, :mod:`stud8.server.wire.rest`); this module reads one
from a JSON object, checking each field against the type the class declares
(:func:`object_fields`), and writes any of them back (:func:`to_json`): the same
classes generate the schemas (:mod:`stud8.server.wire.schemas`), so what is sent,
what is accepted and what is documented cannot drift apart.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Move:
...     to: int
...     note: str | None = None
>>> object_fields(Move, {"to": 3}, "move")
{'to': 3}
>>> object_fields(Move, {"to": "3"}, "move")
Traceback (most recent call last):
...
stud8.server.wire.codec.ProtocolError: move: to must be an integer, got '3'
>>> envelope("ack", 7, to_json(Move(3)))
'{"t":"ack","v":7,"d":{"to":3,"note":null}}'
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from typing import Any, Union

import msgspec

from stud8.core.cards import Card
from stud8.core.events import Event
from stud8.server.table.events import TableEvent
from stud8.server.wire.events import encode_event

__all__ = [
    "JSON",
    "ProtocolError",
    "dumps",
    "envelope",
    "object_fields",
    "read_object",
    "refusal",
    "shown",
    "to_json",
    "type_name",
]

JSON = Any


class ProtocolError(ValueError):
    """A client message that cannot be taken; ``command_id`` is its id, if readable."""

    def __init__(self, reason: str, command_id: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.command_id = command_id


# ------------------------------------------------------------------ in
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


def type_name(tp: object) -> str:
    """How a field's type reads in a refusal: 'an integer', 'a string or null'."""
    names = {
        int: "an integer",
        str: "a string",
        bool: "true or false",
        float: "a number",
        type(None): "null",
    }
    if tp in names:
        return names[tp]
    return " or ".join(type_name(a) for a in typing.get_args(tp))


def shown(value: object, most: int = 40) -> str:
    """``value`` as a refusal shows it: its repr, cut to ``most`` characters (a
    client's value is never echoed whole, nor its nesting walked)."""
    if isinstance(value, (list, dict)):
        return f"a JSON {'array' if isinstance(value, list) else 'object'}"
    text = repr(value)
    return text if len(text) <= most else text[: most - 3] + "..."


_MISSING = re.compile(r"Object missing required field `(.*)`")
_UNKNOWN = re.compile(r"Object contains unknown field `(.*)`")
_EXPECTED = re.compile(r"Expected `(.*)`, got `.*` - at `\$\.(\w+)`")
_TYPE_NAMES = {"int": "an integer", "str": "a string", "bool": "true or false"}
_TYPE_NAMES |= {"float": "a number", "null": "null", "object": "a JSON object"}


def refusal(what: str, exc: msgspec.ValidationError, data: Mapping[str, Any]) -> str:
    """msgspec's refusal of ``data`` (the JSON object read as ``what``) in the
    protocol's words: ``act: missing field 'id'``, ``chat: text must be a string,
    got 5`` (a check of the message's own, such as an action's, says its own)."""
    text = str(exc)
    if found := _MISSING.match(text):
        return f"{what}: missing field {found.group(1)!r}"
    if found := _UNKNOWN.match(text):
        return f"{what}: unknown fields [{found.group(1)!r}]"
    if found := _EXPECTED.match(text):
        wanted = " or ".join(_TYPE_NAMES.get(t, t) for t in found.group(1).split(" | "))
        name = found.group(2)
        return f"{what}: {name} must be {wanted}, got {shown(data.get(name))}"
    return text


_StructT = typing.TypeVar("_StructT", bound=msgspec.Struct)


def read_object(cls: type[_StructT], data: Mapping[str, Any], what: str) -> _StructT:
    """The message ``cls`` (a Struct) read by msgspec from the JSON object ``data``:
    no unknown field, none required missing, each of its type (a bool is no
    integer); ProtocolError says which not, in the protocol's words."""
    try:
        return msgspec.convert(data, cls, strict=True)
    except msgspec.ValidationError as exc:
        raise ProtocolError(refusal(what, exc, data)) from None


def object_fields(cls: type, data: Mapping[str, Any], what: str) -> dict[str, object]:
    """The fields of dataclass ``cls`` found in ``data``, checked: no unknown field, no
    required field missing, each of its declared type; ProtocolError says which not."""
    return _reader(cls)(data, what)


Reader = Callable[[Mapping[str, Any], str], dict[str, object]]


@functools.cache
def _reader(cls: type) -> Reader:
    """The checks of ``cls``'s fields, worked out once per class (a client message is
    read with them at every command)."""
    hints = typing.get_type_hints(cls)
    names = frozenset(f.name for f in fields(cls))
    checks = tuple(
        (f.name, f.default is MISSING, _check_of(hints[f.name]), type_name(hints[f.name]))
        for f in fields(cls)
    )

    def read(data: Mapping[str, Any], what: str) -> dict[str, object]:
        if not names.issuperset(data):
            raise ProtocolError(f"{what}: unknown fields {sorted(set(data) - names)}")
        values: dict[str, object] = {}
        for name, required, check, wanted in checks:
            if name not in data:
                if required:
                    raise ProtocolError(f"{what}: missing field {name!r}")
                continue
            value = data[name]
            if not check(value):
                raise ProtocolError(f"{what}: {name} must be {wanted}, got {shown(value)}")
            values[name] = value
        return values

    return read


def _check_of(tp: object) -> Callable[[object], bool]:
    """A fast check that a JSON value is of type ``tp`` (a bool is no integer)."""
    if tp in (int, str, bool):
        return lambda value: type(value) is tp
    options = tuple(typing.get_args(tp))
    if typing.get_origin(tp) in (Union, types.UnionType) and all(
        a in (int, str, bool, type(None)) for a in options
    ):
        return lambda value: type(value) in options
    return lambda value: _type_ok(value, tp)


# ------------------------------------------------------------------ out
def to_json(value: object) -> JSON:
    """A message (or any value in one) as JSON values: a dataclass is an object of its
    fields, an event its ``{"k": kind, ...}`` object, a card its text, an enum its
    value, a hand value its strength, a tuple a list."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (Event, TableEvent)):
        return encode_event(value)
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, msgspec.Struct):
        return {name: to_json(getattr(value, name)) for name in value.__struct_fields__}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
    if hasattr(value, "strength"):
        return to_json(value.strength)
    raise TypeError(f"no JSON form for {value!r}")


# One encoder for the room's texts: msgspec's, compact, in C; a Struct (a message)
# and a record (a dataclass: a legal action, a table's stakes) it writes itself.
encode: Callable[[Any], bytes] = msgspec.json.Encoder().encode


def dumps(value: Any) -> str:
    """``value`` as compact JSON text (msgspec: non-ASCII characters as they are)."""
    return encode(value).decode()


def envelope(t: str, v: int | None, d: Any) -> str:
    """The text of one message: ``{"t": type, "v": seq, "d": data}`` (no ``v`` if None)."""
    if v is None:
        return f'{{"t":"{t}","d":{encode(d).decode()}}}'
    return f'{{"t":"{t}","v":{v:d},"d":{encode(d).decode()}}}'
