"""The JSON codec of the native hand record: rules, events, decisions and pots.

Every value is written so that reading it back gives an equal value: cards as
their two-character names (``"Td"``), hand values as their strengths, enums as
their values, the rake percentage as an exact fraction (``"5/2"``), times as ISO
8601 text. Money is always an integer number of chips.

>>> from stud8.core.events import BetMade, HandShown
>>> from stud8.core.cards import parse_cards
>>> from stud8.core.evaluate import evaluate_hi_lo
>>> encode_event(BetMade(3, 8, 8, False))
{'k': 'bet', 'seat': 3, 'to': 8, 'adds': 8, 'all_in': False}
>>> decode_event(encode_event(BetMade(3, 8, 8, False))) == BetMade(3, 8, 8, False)
True
>>> cards = parse_cards("As 2d 3c 4h 5s Kd Kc")
>>> shown = HandShown(1, cards, *evaluate_hi_lo(cards))
>>> decode_event(encode_event(shown)) == shown
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import fields
from datetime import datetime
from enum import Enum
from fractions import Fraction
from typing import Any

from stud8.core.actions import Action, ActionKind, make_action
from stud8.core.cards import Card, Deck, format_cards, parse_cards
from stud8.core.errors import Stud8Error
from stud8.core.evaluate import HighValue, LowValue, RazzValue
from stud8.core.events import (
    ActionOpened,
    AntePosted,
    BetMade,
    BringInPosted,
    Called,
    CardDealt,
    Checked,
    CommunityCardDealt,
    Completed,
    Event,
    Folded,
    HandCancelled,
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    Raised,
    RakeTaken,
    StreetStarted,
    TimedOut,
    TimeoutOutcome,
    UncalledBetReturned,
)
from stud8.core.pots import PotResult
from stud8.core.rules import TableRules

__all__ = [
    "CodecError",
    "decode_decision",
    "decode_event",
    "decode_pot",
    "decode_rules",
    "decode_time",
    "encode_decision",
    "encode_event",
    "encode_pot",
    "encode_rules",
    "encode_time",
]

JSON = Any  # a value json.loads may return


class CodecError(Stud8Error):
    """A JSON value that is not a valid part of a hand record."""


# ------------------------------------------------------------------ scalars
def _int(v: JSON, what: str) -> int:
    if type(v) is not int:
        raise CodecError(f"{what} must be a whole number, got {v!r}")
    return v


def _bool(v: JSON, what: str) -> bool:
    if type(v) is not bool:
        raise CodecError(f"{what} must be true or false, got {v!r}")
    return v


def _str(v: JSON, what: str) -> str:
    if type(v) is not str:
        raise CodecError(f"{what} must be a string, got {v!r}")
    return v


def _timeout_outcome(v: JSON, what: str) -> TimeoutOutcome:
    try:
        return TimeoutOutcome(_str(v, what))
    except ValueError:
        known = ", ".join(o.value for o in TimeoutOutcome)
        raise CodecError(f"{what} must be one of {known}, got {v!r}") from None


# The cards by their names: most cards read are written canonically ("Td"), and a look-up
# is much quicker than Card.parse (which also reads "td", "10d").
_CARD_BY_NAME = {str(c): c for c in (Card(rank, suit) for rank in range(2, 15) for suit in "cdhs")}


def _card(v: JSON, what: str) -> Card:
    card = _CARD_BY_NAME.get(v) if type(v) is str else None
    return card if card is not None else Card.parse(_str(v, what))


def _card_or_none(v: JSON, what: str) -> Card | None:
    return None if v is None else _card(v, what)


def _cards(v: JSON, what: str) -> tuple[Card, ...]:
    return parse_cards(_str(v, what))


def _high(v: JSON, what: str) -> HighValue:
    return HighValue.from_strength(_int(v, what))


def _low(v: JSON, what: str) -> LowValue | RazzValue | None:
    """An 8-or-better low is its strength; a razz low ``{"razz": strength}``."""
    if v is None:
        return None
    if isinstance(v, dict) and set(v) == {"razz"}:
        return RazzValue.from_strength(_int(v["razz"], what))
    return LowValue.from_strength(_int(v, what))


def _enc_low(v: LowValue | RazzValue | None) -> JSON:
    if v is None:
        return None
    return {"razz": v.strength} if isinstance(v, RazzValue) else v.strength


def _pairs(v: JSON, what: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(v, list):
        raise CodecError(f"{what} must be a list of [seat, chips] pairs, got {v!r}")
    out = []
    for item in v:
        if not isinstance(item, list) or len(item) != 2:
            raise CodecError(f"{what} must be a list of [seat, chips] pairs, got {item!r}")
        out.append((_int(item[0], what), _int(item[1], what)))
    return tuple(out)


def _ints(v: JSON, what: str) -> tuple[int, ...]:
    if not isinstance(v, list):
        raise CodecError(f"{what} must be a list of whole numbers, got {v!r}")
    return tuple(_int(x, what) for x in v)


def encode_time(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat()


def decode_time(v: JSON, what: str = "time") -> datetime | None:
    if v is None:
        return None
    try:
        return datetime.fromisoformat(_str(v, what))
    except ValueError:
        raise CodecError(f"{what} must be an ISO 8601 date and time, got {v!r}") from None


# ------------------------------------------------------------------- events
_Enc = Callable[[Any], JSON]
_Dec = Callable[[JSON, str], Any]

_CODECS: dict[str, tuple[_Enc, _Dec]] = {
    "int": (lambda v: v, _int),
    "bool": (lambda v: v, _bool),
    "str": (lambda v: v, _str),
    "timeout_outcome": (str, _timeout_outcome),
    "card": (str, _card),
    "card?": (lambda v: None if v is None else str(v), _card_or_none),
    "cards": (format_cards, _cards),
    "high": (lambda v: v.strength, _high),
    "low?": (_enc_low, _low),
    "pairs": (lambda v: [list(p) for p in v], _pairs),
}

# The codec of each field that is not a plain int (by field name, then by class).
_FIELD_CODEC = {
    "all_in": "bool",
    "face_up": "bool",
    "outcome": "timeout_outcome",
    "half": "str",
    "reason": "str",
    "card": "card?",
    "cards": "cards",
    "high": "high",
    "low": "low?",
    "stacks": "pairs",
    "refunds": "pairs",
}
_CLASS_FIELD_CODEC: dict[tuple[type[Event], str], str] = {(CommunityCardDealt, "card"): "card"}

_EVENT_TYPES: tuple[type[Event], ...] = (
    AntePosted,
    StreetStarted,
    CardDealt,
    CommunityCardDealt,
    ActionOpened,
    BringInPosted,
    Completed,
    BetMade,
    Raised,
    Called,
    Checked,
    Folded,
    TimedOut,
    UncalledBetReturned,
    HandShown,
    HandMucked,
    RakeTaken,
    PotAwarded,
    HandEnded,
    HandCancelled,
)


def _layout(cls: type[Event]) -> tuple[tuple[str, _Enc, _Dec], ...]:
    out = []
    for f in fields(cls):
        codec = _CLASS_FIELD_CODEC.get((cls, f.name)) or _FIELD_CODEC.get(f.name, "int")
        enc, dec = _CODECS[codec]
        out.append((f.name, enc, dec))
    return tuple(out)


_BY_TYPE = {cls: (cls.kind, _layout(cls)) for cls in _EVENT_TYPES}
# for reading: each field's name, reader and label (as errors name it)
_BY_KIND = {
    cls.kind: (cls, tuple((name, dec, f"{cls.kind}.{name}") for name, _, dec in _layout(cls)))
    for cls in _EVENT_TYPES
}


def encode_event(event: Event) -> dict[str, JSON]:
    """The event as a JSON object: ``{"k": kind, field: value, ...}`` (a new dict)."""
    return dict(_encoded(event))


@functools.lru_cache(maxsize=8192)
def _encoded(event: Event) -> dict[str, JSON]:
    # Events are immutable values, and most of a room's are the same few thousand (a
    # card dealt, a call of 4 to 4, a fold): each is encoded once. Records compare
    # equal only within their class, so two kinds never share an entry.
    try:
        kind, layout = _BY_TYPE[type(event)]
    except KeyError:
        raise CodecError(f"no JSON form for the event {event!r}") from None
    out: dict[str, JSON] = {"k": kind}
    for name, enc, _ in layout:
        out[name] = enc(getattr(event, name))
    return out


def decode_event(obj: JSON) -> Event:
    """The event a JSON object encodes (see :func:`encode_event`)."""
    if not isinstance(obj, dict):
        raise CodecError(f"an event must be a JSON object, got {obj!r}")
    kind = obj.get("k")
    found = _BY_KIND.get(kind) if isinstance(kind, str) else None
    if found is None:
        raise CodecError(f"unknown event kind {kind!r}")
    cls, layout = found
    values = []
    for name, dec, label in layout:
        if name not in obj:
            raise CodecError(f"the {kind} event has no {name!r}")
        values.append(dec(obj[name], label))
    if len(obj) != len(layout) + 1 + ("t" in obj):  # "k", the fields, and "t" if timed
        extra = set(obj) - {"k", "t"} - {name for name, _, _ in layout}
        raise CodecError(f"the {kind} event has unknown fields {sorted(extra)}")
    return cls(*values)


# ---------------------------------------------------------------- decisions
def encode_decision(decision: tuple[int, Action | None]) -> list[JSON]:
    """``[seat, kind, to]``; ``[seat, null]`` is a timeout."""
    seat, action = decision
    if action is None:
        return [seat, None]
    if action.amount is None:
        return [seat, action.kind.value]
    return [seat, action.kind.value, action.amount]


def decode_decision(v: JSON) -> tuple[int, Action | None]:
    if not isinstance(v, list) or not 2 <= len(v) <= 3:
        raise CodecError(f"a decision is [seat, kind] or [seat, kind, to], got {v!r}")
    seat = _int(v[0], "decision seat")
    if v[1] is None:
        if len(v) != 2:
            raise CodecError(f"a timeout decision is [seat, null], got {v!r}")
        return seat, None
    try:
        kind = ActionKind(_str(v[1], "decision kind"))
    except ValueError:
        raise CodecError(f"unknown action kind {v[1]!r}") from None
    to = _int(v[2], "decision amount") if len(v) == 3 else None
    return seat, make_action(kind, to)


# -------------------------------------------------------------------- pots
def encode_pot(pot: PotResult) -> dict[str, JSON]:
    return {
        "index": pot.index,
        "amount": pot.amount,
        "eligible": list(pot.eligible),
        "high": [list(p) for p in pot.high],
        "low": [list(p) for p in pot.low],
        "high_value": None if pot.high_value is None else pot.high_value.strength,
        "low_value": _enc_low(pot.low_value),
    }


def decode_pot(obj: JSON) -> PotResult:
    if not isinstance(obj, dict):
        raise CodecError(f"a pot must be a JSON object, got {obj!r}")
    try:
        hv = obj["high_value"]
        return PotResult(
            index=_int(obj["index"], "pot index"),
            amount=_int(obj["amount"], "pot amount"),
            eligible=_ints(obj["eligible"], "pot eligible"),
            high=_pairs(obj["high"], "pot high"),
            low=_pairs(obj["low"], "pot low"),
            high_value=None if hv is None else _high(hv, "pot high_value"),
            low_value=_low(obj["low_value"], "pot low_value"),
        )
    except KeyError as e:
        raise CodecError(f"a pot has no {e.args[0]!r}") from None


# ------------------------------------------------------------------- rules
_RULE_FIELDS = tuple(f.name for f in fields(TableRules))


def encode_rules(rules: TableRules) -> dict[str, JSON]:
    """Every field of the rules, enums by value, the rake percentage as a fraction."""
    out: dict[str, JSON] = {}
    for name in _RULE_FIELDS:
        v = getattr(rules, name)
        if isinstance(v, Enum):
            v = v.value
        elif isinstance(v, Fraction):
            v = str(v)
        out[name] = v
    return out


def decode_rules(obj: JSON) -> TableRules:
    if not isinstance(obj, Mapping):
        raise CodecError(f"the rules must be a JSON object, got {obj!r}")
    unknown = set(obj) - set(_RULE_FIELDS)
    if unknown:
        raise CodecError(f"unknown table rules {sorted(unknown)}")
    values = dict(obj)
    rate = values.get("rake_percent")
    if rate is not None and not isinstance(rate, str):
        raise CodecError(f"rake_percent must be written as a fraction like '5/2', got {rate!r}")
    return TableRules(**values)


def encode_deck(deck: Deck) -> str:
    return format_cards(deck.cards)


def decode_deck(v: JSON) -> Deck:
    return Deck(_cards(v, "deck"))
