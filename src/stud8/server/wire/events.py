"""Events on the wire: every hand event and table event as its JSON object.

An event is ``{"k": kind, field: value, ...}``: a hand's events exactly as the
hand-history format writes them (:func:`stud8.formats.jsonlog.encode_event`), the
table's own (:mod:`stud8.server.table.events`) field by field. Each class's
fields are read once, so encoding an event is one pass over a few values.

>>> from stud8.server.table.events import SeatTaken
>>> encode_event(SeatTaken(3, "ann", 200))
{'k': 'sit', 'seat': 3, 'player': 'ann', 'chips': 200, 'bot': False}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from stud8.core.events import Event
from stud8.formats.jsonlog import _EVENT_TYPES
from stud8.formats.jsonlog import encode_event as encode_hand_event
from stud8.server.table import events as table_events
from stud8.server.table.events import AnyEvent, TableEvent

__all__ = ["EVENT_TYPES", "HAND_EVENT_TYPES", "TABLE_EVENT_TYPES", "encode_event"]

HAND_EVENT_TYPES: tuple[type[Event], ...] = _EVENT_TYPES
TABLE_EVENT_TYPES: tuple[type[TableEvent], ...] = tuple(
    obj
    for obj in vars(table_events).values()
    if isinstance(obj, type) and issubclass(obj, TableEvent) and obj is not TableEvent
)
EVENT_TYPES: tuple[type[Event] | type[TableEvent], ...] = (*HAND_EVENT_TYPES, *TABLE_EVENT_TYPES)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _table_encoder(cls: type[TableEvent]) -> Callable[[TableEvent], dict[str, Any]]:
    names = tuple(f.name for f in fields(cls))
    kind = cls.kind

    def encode(event: TableEvent) -> dict[str, Any]:
        out: dict[str, Any] = {"k": kind}
        for name in names:
            out[name] = _plain(getattr(event, name))
        return out

    return encode


_TABLE_ENCODERS = {cls: _table_encoder(cls) for cls in TABLE_EVENT_TYPES}


def encode_event(event: AnyEvent) -> dict[str, Any]:
    """The event as its JSON object (see the module)."""
    if isinstance(event, Event):
        return encode_hand_event(event)
    return _TABLE_ENCODERS[type(event)](event)
