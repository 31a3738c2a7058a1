"""The bus codec's building blocks (:mod:`stud8.server.bus.codec`): its error, the
readers of a field's JSON value (each checks the type exactly: a whole number is no
float nor bool and fits in 64 bits, a float is finite, a card is its name), and a
record class's :class:`Layout`: its fields in order, written and read.

Each reader takes the JSON value and the name of where it is; what it refuses raises
:class:`BusCodecError`, which each level out prefixes with its own name
(:meth:`BusCodecError.within`), so the error says where: ``catch_up.snapshot.seats[1].chips``.

>>> read_int(7, "seat")
7
>>> read_int(True, "seat")
Traceback (most recent call last):
...
stud8.server.bus.fields.BusCodecError: seat: must be a whole number, got True
>>> tuple_of(read_int)([1, 2, "3"], "stacks")
Traceback (most recent call last):
...
stud8.server.bus.fields.BusCodecError: stacks[2]: must be a whole number, got '3'
"""

from __future__ import annotations

import math
import re
import reprlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import fields
from enum import Enum
from operator import attrgetter
from typing import Any, NoReturn, TypeVar

from stud8.core.cards import Card

JSON = Any  # a value json may give
Enc = Callable[[Any], JSON]
Dec = Callable[[JSON, str], Any]

_T = TypeVar("_T")

LIMIT = 2**63 - 1  # every whole number is within ±LIMIT (a 64-bit integer)


class BusCodecError(ValueError):
    """A bus message that cannot be encoded or read: the message says what and where
    (``path``, e.g. ``numbered.event.seat``) and why (``reason``)."""

    def __init__(self, reason: str, path: str = "") -> None:
        super().__init__(f"{path}: {reason}" if path else reason)
        self.reason, self.path = reason, path

    def within(self, part: str) -> BusCodecError:
        """The same error, one level out (``part`` holds what failed)."""
        if not part:
            return self
        inner = self.path
        path = part if not inner else part + (inner if inner[0] == "[" else "." + inner)
        return BusCodecError(self.reason, path)


_SHORT = reprlib.Repr()  # a value in an error: short, however big or deep it is
_SHORT.maxstring = _SHORT.maxother = 40
_SHORT.maxlevel = 3


def bad(what: str, expected: str, got: object) -> NoReturn:
    """Raise the error of ``what``, which ``expected`` but got ``got``."""
    raise BusCodecError(f"{expected}, got {_SHORT.repr(got)}", what)


# ------------------------------------------------------------------ scalars
def read_enum(cls: type[Enum]) -> Dec:
    """The reader of an enum written as its value (text on the bus)."""
    members = {m.value: m for m in cls}
    expected = "must be one of " + ", ".join(members)

    def read(v: JSON, what: str) -> Enum:
        member = members.get(read_str(v, what))
        if member is None:
            bad(what, expected, v)
        return member

    return read


def read_int(v: JSON, what: str) -> int:
    if type(v) is not int:
        bad(what, "must be a whole number", v)
    if not -LIMIT <= v <= LIMIT:
        bad(what, "must fit in 64 bits", v)
    return v


def read_bool(v: JSON, what: str) -> bool:
    if type(v) is not bool:
        bad(what, "must be true or false", v)
    return v


def read_str(v: JSON, what: str) -> str:
    if type(v) is not str:
        bad(what, "must be a string", v)
    return v


def read_float(v: JSON, what: str) -> float:
    # a float field holds what the object held: JSON keeps 2 and 2.0 apart
    if type(v) is float:
        if not math.isfinite(v):
            bad(what, "must be a finite number", v)
        return v
    return read_int(v, what)


CARDS: dict[str, Card] = {str(c): c for c in (Card(r, s) for r in range(2, 15) for s in "cdhs")}


def read_card(v: JSON, what: str) -> Card:
    card = CARDS.get(v) if type(v) is str else None
    if card is None:
        bad(what, "must be a card's name like 'Td'", v)
    return card


def optional(dec: Dec) -> Dec:
    def read(v: JSON, what: str) -> Any:
        return None if v is None else dec(v, what)

    return read


def read_list(v: JSON, what: str) -> list[JSON]:
    if type(v) is not list:
        bad(what, "must be a list", v)
    return v


def tuple_of(dec: Dec) -> Dec:
    def read(v: JSON, what: str) -> tuple[Any, ...]:
        items = read_list(v, what)
        out: list[Any] = []
        try:
            for x in items:
                out.append(dec(x, ""))
        except BusCodecError as e:
            raise e.within(f"{what}[{len(out)}]") from None
        return tuple(out)

    return read


def pair_of(second: Dec, name: str) -> Dec:
    def read(v: JSON, what: str) -> tuple[int, Any]:
        if type(v) is not list or len(v) != 2:
            bad(what, f"must be a pair [seat, {name}]", v)
        return read_int(v[0], what), second(v[1], what)

    return read


# ------------------------------------------------------------------ layouts
Codec = tuple[Enc | None, Dec, str]  # encoder (None: as it is), reader, its name


class Layout:
    """How one record class is written: its fields, each with its encoder and its
    reader, worked out once."""

    def __init__(self, cls: type, kind: str, codecs: Mapping[str, Codec]) -> None:
        self.cls, self.kind = cls, kind
        self.names = names = tuple(f.name for f in fields(cls))
        self.keywords = any(f.kw_only for f in fields(cls))
        self.description = f"{kind}: " + ", ".join(f"{n} {codecs[n][2]}" for n in names)
        get = attrgetter(*names)
        self.get: Callable[[Any], Any] = get if len(names) > 1 else (lambda o: (get(o),))
        self.convert = tuple(
            (i, enc) for i, n in enumerate(names) if (enc := codecs[n][0]) is not None
        )
        self.readers = tuple((n, codecs[n][1]) for n in names)
        self.shape = f"must be a list of its {len(names)} fields ({', '.join(names)})"

    def encode(self, obj: Any) -> list[JSON]:
        out = list(self.get(obj))
        for i, enc in self.convert:
            out[i] = enc(out[i])
        return out

    def encode_object(self, obj: Any) -> dict[str, JSON]:
        out: dict[str, JSON] = {"k": self.kind}
        out.update(zip(self.names, self.encode(obj), strict=True))
        return out

    def decode(self, v: JSON, what: str, start: int = 0) -> Any:
        """The record from the list ``v`` (its fields from ``start`` on)."""
        if type(v) is not list or len(v) != start + len(self.readers):
            bad(what, self.shape, v)
        try:
            values = [dec(x, n) for (n, dec), x in zip(self.readers, v[start:], strict=True)]
        except BusCodecError as e:
            raise e.within(what) from None
        return self._make(values, what)

    def decode_object(self, v: dict[str, JSON], what: str) -> Any:
        """The record from the object ``v``: ``{"k": kind, field: value, ...}``."""
        try:
            values = [dec(v[n], n) for n, dec in self.readers]
        except KeyError:
            values = None
        except BusCodecError as e:
            raise e.within(what) from None
        if values is None or len(v) != len(self.readers) + 1:
            extra = sorted(set(v) - {"k", *self.names})
            missing = [n for n in self.names if n not in v]
            bad(what, f"the {self.kind} event lacks {missing} or has unknown {extra}", v)
        return self._make(values, what)

    def _make(self, values: list[Any], what: str) -> Any:
        try:
            if self.keywords:
                return self.cls(**dict(zip(self.names, values, strict=True)))
            return self.cls(*values)
        except (ValueError, TypeError) as e:  # a record that checks itself
            raise BusCodecError(str(e), what) from None


def snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def named_subclasses(cls: type[_T]) -> list[type[_T]]:
    """The subclasses of ``cls`` that their modules name (a slotted dataclass or a
    record replaces the class it was made from, which may linger until collected)."""
    out: list[type[_T]] = []
    for sub in cls.__subclasses__():
        if getattr(sys.modules.get(sub.__module__), sub.__name__, None) is sub:
            out.append(sub)
        out.extend(named_subclasses(sub))
    return out


def or_none(enc: Enc) -> Enc:
    return lambda v: None if v is None else enc(v)
