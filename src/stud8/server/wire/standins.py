"""The types msgspec is asked for a schema in place of the engine's values it cannot
describe as the room writes them.

msgspec makes every message's JSON schema from its Struct
(:mod:`stud8.server.wire.schemas`), but three kinds of value in a message are not
written as msgspec would write them, and one it refuses outright:

* a card is written as its text (``"Td"``), not as its dataclass's fields, and a
  hand's value as its strength (:func:`~stud8.server.wire.codec.to_json`);
* an event is written by the hand-history format's rules
  (:func:`stud8.formats.jsonlog.encode_event`, the table's own field by field:
  :mod:`stud8.server.wire.events`), tagged with its kind ``k``, every field present,
  a hand's shown cards one space-separated text, a low ``{"razz": strength}`` in Razz;
* a field of any event (``AnyEvent``: a hand's ``Event`` or a ``TableEvent``, all
  dataclasses) is a union msgspec refuses ("Type unions may not contain more than
  one dataclass").

:func:`wire_type` gives the type to ask msgspec about instead: each event becomes a
Struct of its fields in their wire forms, tagged ``k`` (so a union of events is a
tagged union, which msgspec describes itself: ``anyOf`` with a discriminator on
``k``); a record holding such a value becomes a Struct of the same name, doc and
fields; a card, a shown hand's cards and its values become a small class
(:class:`WireForm`) whose schema :func:`schema_hook` gives. Whether these say what is
really written is tested against real encoded events and messages
(``tests/server/wire/test_schema_validation.py``).

>>> import msgspec
>>> from stud8.core.events import CardDealt
>>> (deal,), parts = msgspec.json.schema_components([wire_type(CardDealt)],
...     schema_hook=schema_hook)
>>> parts["CardDealt"]["properties"]["k"], parts["CardDealt"]["required"][:2]
({'enum': ['deal']}, ['k', 'seat'])
>>> parts["CardDealt"]["properties"]["card"]["anyOf"][0]["pattern"]
'^[2-9TJQKA][cdhs]$'
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, ClassVar, Union

import msgspec

from stud8.core.cards import Card
from stud8.core.evaluate import HighValue, LowValue, RazzValue
from stud8.core.events import Event
from stud8.server.table.events import TableEvent
from stud8.server.wire.events import EVENT_TYPES, HAND_EVENT_TYPES, TABLE_EVENT_TYPES

__all__ = ["EVENT_STANDINS", "WireForm", "schema_hook", "wire_type"]

JSON = Any
_CARD = "[2-9TJQKA][cdhs]"  # a card's text: its rank then its suit (core.cards.Card)


class WireForm:
    """A value written in a form of the project's own: its ``schema`` says which."""

    schema: ClassVar[dict[str, JSON]] = {}


class CardText(WireForm):
    schema: ClassVar[dict[str, JSON]] = {
        "type": "string",
        "pattern": f"^{_CARD}$",
        "description": "a card: rank and suit, e.g. 'Td'",
    }


class CardsText(WireForm):
    schema: ClassVar[dict[str, JSON]] = {
        "type": "string",
        "pattern": f"^({_CARD}( {_CARD})*)?$",
        "description": "cards, space separated, e.g. 'As Kd 7c'",
    }


class HighStrength(WireForm):
    schema: ClassVar[dict[str, JSON]] = {
        "type": "integer",
        "minimum": 1,
        "maximum": 7462,
        "description": "the high hand's strength (higher is better)",
    }


class LowStrength(WireForm):
    schema: ClassVar[dict[str, JSON]] = {
        "anyOf": [
            {"type": "integer", "minimum": 1, "maximum": 56},
            {
                "type": "object",
                "properties": {"razz": {"type": "integer", "minimum": 1, "maximum": 6175}},
                "required": ["razz"],
                "additionalProperties": False,
            },
            {"type": "null"},
        ],
        "description": "the low hand's strength (higher is better): an 8-or-better low, "
        '{"razz": strength} for an ace-to-five low in Razz, or null: no low',
    }


def schema_hook(cls: type) -> dict[str, JSON]:
    """The schema of a :class:`WireForm` (msgspec asks for each custom type)."""
    if isinstance(cls, type) and issubclass(cls, WireForm):
        return dict(cls.schema)
    raise NotImplementedError(f"no schema for {cls!r}")


# A type as written anywhere: a card is its text.
_FORMS: dict[object, object] = {Card: CardText}
# A hand event's fields as the hand-history format writes them (jsonlog's codecs).
_EVENT_FORMS: dict[object, object] = {
    **_FORMS,
    tuple[Card, ...]: CardsText,
    HighValue: HighStrength,
    LowValue | RazzValue | None: LowStrength,
}


def wire_type(tp: object) -> Any:
    """The type msgspec is asked for a schema of in place of ``tp`` (see the module);
    ``tp`` itself if it holds none of those values."""
    return _substituted(tp, _FORMS)


def _substituted(tp: object, forms: dict[object, object]) -> Any:
    try:
        form = forms.get(tp)
    except TypeError:  # an unhashable annotation: no form of ours
        form = None
    if form is not None:
        return form
    if tp is Event or tp is TableEvent:  # any event of the family
        family = HAND_EVENT_TYPES if tp is Event else TABLE_EVENT_TYPES
        return Union[tuple(EVENT_STANDINS[cls] for cls in family)]  # noqa: UP007
    standin = EVENT_STANDINS.get(typing.cast(Any, tp)) if isinstance(tp, type) else None
    if standin is not None:
        return standin
    if isinstance(tp, type) and (issubclass(tp, msgspec.Struct) or dataclasses.is_dataclass(tp)):
        return _record(tp)
    args = typing.get_args(tp)
    if not args:
        return tp
    new = tuple(_substituted(a, forms) for a in args)
    if new == args:
        return tp
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return Union[new]  # noqa: UP007
    return typing.cast(Any, origin)[new]


def _fields(cls: type) -> list[tuple[str, object, Any]]:
    """Each field of a Struct or a dataclass: its name, type and msgspec default."""
    hints = typing.get_type_hints(cls)
    if issubclass(cls, msgspec.Struct):
        return [
            (f.name, hints[f.name], msgspec.field(default=f.default))
            if f.default_factory is msgspec.NODEFAULT
            else (f.name, hints[f.name], msgspec.field(default_factory=f.default_factory))
            for f in msgspec.structs.fields(cls)
        ]
    out: list[tuple[str, object, Any]] = []
    for f in dataclasses.fields(typing.cast(Any, cls)):
        if f.default_factory is not dataclasses.MISSING:
            out.append((f.name, hints[f.name], msgspec.field(default_factory=f.default_factory)))
        elif f.default is not dataclasses.MISSING:
            out.append((f.name, hints[f.name], msgspec.field(default=f.default)))
        else:
            out.append((f.name, hints[f.name], msgspec.field()))
    return out


def _doc(cls: type) -> str | None:
    """``cls``'s docstring, if it has one of its own (a dataclass without one is given
    its signature, which msgspec leaves out of a dataclass's schema: so here)."""
    doc = cls.__doc__
    if doc and dataclasses.is_dataclass(cls) and doc.startswith(f"{cls.__name__}("):
        return None
    return doc


@functools.cache
def _record(cls: type) -> type:
    """``cls``, or a Struct of its name, doc and fields with theirs substituted."""
    fields = _fields(cls)
    new = [(name, _substituted(tp, _FORMS), default) for name, tp, default in fields]
    if all(n[1] is f[1] for n, f in zip(new, fields, strict=True)):
        return cls
    forbid = issubclass(cls, msgspec.Struct) and cls.__struct_config__.forbid_unknown_fields
    standin = msgspec.defstruct(
        cls.__name__, new, module=cls.__module__, forbid_unknown_fields=forbid, frozen=True
    )
    standin.__doc__ = _doc(cls)
    return standin


def _event_standin(cls: type[Event] | type[TableEvent]) -> type[msgspec.Struct]:
    """The event as its wire object: ``k`` its kind, then every field (all are always
    written, and the hand-history format reads none as optional), in its wire form."""
    forms = _EVENT_FORMS if issubclass(cls, Event) else _FORMS
    hints = typing.get_type_hints(cls)
    standin = msgspec.defstruct(
        cls.__name__,
        [(f.name, _substituted(hints[f.name], forms)) for f in dataclasses.fields(cls)],
        module=cls.__module__,
        tag_field="k",
        tag=cls.kind,
        forbid_unknown_fields=True,
        frozen=True,
    )
    standin.__doc__ = _doc(cls)
    return standin


EVENT_STANDINS: dict[type[Event] | type[TableEvent], type[msgspec.Struct]] = {}
EVENT_STANDINS.update((cls, _event_standin(cls)) for cls in EVENT_TYPES)
