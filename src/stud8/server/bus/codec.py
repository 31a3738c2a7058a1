"""The bus's messages as bytes and back, for a transport between nodes (Redis).

Each of the bus's messages (:mod:`stud8.server.bus`) is one compact JSON text in
UTF-8 (written and read by msgspec, in C), an array that starts with the
**format** and the message's **kind**, then its fields in the order its class
declares them::

    [6,"act","ann","c7",["raise",8]]                    a command (its kind: act, sit, ...)
    [6,"reply",true,"",41]                              a Reply
    [6,"numbered",42,{"k":"call","seat":3,"to":8,"adds":4,"all_in":false},[[1,"ann"],[3,"bob"]],null]
    [6,"catch_up",42,null,[...a snapshot...]]           a CatchUp
    [6,"listed","t1","Main",[...spec...],[...status...]]

An event (a hand's, as in the hand record: :func:`stud8.formats.jsonlog.encode_event`;
or the table's own) is an object ``{"k": kind, field: value, ...}``; every other record
(a snapshot, a seat, a hand's view, a legal action, a spec, a status) is an array of
its fields in order. Cards are their names (``"Td"``), a hand's values their strengths,
enums their values, a seat mapping ``[[seat, player], ...]`` (read back as the table
makes them: a :class:`Numbered`'s a read-only ``MappingProxyType``, one per hand, a
snapshot's a ``dict``). Money is a whole number,
and every number read must fit in 64 bits; a float goes out as its shortest text
that reads back exactly (msgspec's: ``1e16``, not Python's ``1e+16``; the same number).

Decoding checks everything: anything malformed (not UTF-8, not JSON, which has no
NaN nor Infinity, a wrong type, a missing or extra field, an unknown kind, a number
too big) raises :class:`BusCodecError`, which says what and where
(``numbered.event.seat: ...``), and never another exception.

**The versioning rule.** :data:`FORMAT` is the format this node writes; it reads the
formats in :data:`READS`. Any change to what is written (a field added, removed,
reordered or encoded differently, a kind renamed or added) makes a new format, the
next integer, and ``tests/server/bus/test_codec.py`` pins the layout of each format
(:func:`describe`) so that no change slips through unnumbered. A node refuses a
message of a format it does not read, naming both (``format 7 is newer than this
node reads (6)``): it never guesses. A rolling upgrade across a new format N+1 takes
two releases: the first reads N and N+1 and still writes N; once every node runs it,
the next writes N+1 (and may stop reading N once no node writes it).

>>> from stud8.server.table.commands import Act, Reply
>>> from stud8.core.actions import Raise
>>> encode_command(Act(player="ann", command_id="c7", action=Raise(to=8)))
b'[6,"act","ann","c7",["raise",8]]'
>>> decode_reply(encode_reply(Reply(True, "", 41)))
Reply(ok=True, reason='', seq=41)
>>> decode_reply(b'[7,"reply",true,"",41]')
Traceback (most recent call last):
...
stud8.server.bus.fields.BusCodecError: reply: format 7 is newer than this node reads (6)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import fields
from types import MappingProxyType
from typing import Any, TypeVar

import msgspec

from stud8.core.actions import ACTION_TYPES, Action, ActionKind, LegalAction, make_action
from stud8.core.cards import Card
from stud8.core.errors import Stud8Error
from stud8.core.events import Event
from stud8.core.rules import Game
from stud8.core.views import HandView, SeatView
from stud8.formats.jsonlog import decode_event, encode_event
from stud8.server.bus import Listed
from stud8.server.bus.fields import (
    JSON,
    LIMIT,
    BusCodecError,
    Codec,
    Layout,
    bad,
    named_subclasses,
    optional,
    or_none,
    pair_of,
    read_bool,
    read_card,
    read_enum,
    read_float,
    read_int,
    read_str,
    snake_case,
    tuple_of,
)
from stud8.server.table.commands import Command, Reply
from stud8.server.table.events import (
    HandRefunded,
    LeaveReason,
    MixedGame,
    Numbered,
    SatOutReason,
    TableEvent,
    TimerStarted,
    TournamentInfo,
    TurnPhase,
)
from stud8.server.table.snapshot import CatchUp, OfferSnapshot, SeatSnapshot, TableSnapshot
from stud8.server.table.spec import TableSpec
from stud8.server.table.status import TableStatus
from stud8.tournament.director import Phase
from stud8.tournament.events import MoveReason

__all__ = [
    "FORMAT",
    "READS",
    "BusCodecError",
    "decode_catch_up",
    "decode_command",
    "decode_listed",
    "decode_numbered",
    "decode_reply",
    "describe",
    "encode_catch_up",
    "encode_command",
    "encode_listed",
    "encode_numbered",
    "encode_reply",
]

FORMAT = 6  # the format this node writes (see the module's versioning rule)
_E = TypeVar("_E", bound=TableEvent)  # a kind of table event, read where a field holds one
# Format 2 (a table's spec gained its game and showdown_seconds) replaced format 1
# before any release wrote format 1; format 3 (the spec gained sit_out_on_timeout)
# replaced format 2 before any release wrote it: no node reads either any more.
# Format 4 (the chat: a command, an event, and a spec's observer_chat; the spec's
# private; a tournament's table: the tournament and moved events, the snapshot's
# tournament) replaced format 3 before any release wrote it. Format 5 (the tournament
# event gives each seat's place at its table, not the whole standings nor the prizes;
# a seat_snapshot's out_reason: why the seat sits out) replaced format 4 before any
# release wrote it. Format 6 (a snapshot's hand_log: the events of the hand on the
# table; its refunded: the hands a restart cancelled; the hand_refunded event; the
# table_spec carries every option of RULES.md: all_in_low_card ... rotation; a mixed
# table's mixed_game event, the status's game) replaced format 5 before any release
# wrote it (and its table_status gained observers, in place).
READS = frozenset({6})  # the formats it reads
Bytes = bytes | bytearray | memoryview  # what a decoder reads

_pairs = tuple_of(pair_of(read_int, "chips"))
_seat_pairs = tuple_of(pair_of(read_str, "player"))


def _enc_seats(seats: Mapping[int, str] | None) -> JSON:
    return None if seats is None else list(map(list, seats.items()))


def _seats_key(v: JSON, what: str) -> tuple[tuple[int, str], ...]:
    key: tuple[tuple[int, str], ...] = _seat_pairs(v, what)
    if len({seat for seat, _ in key}) != len(key):
        bad(what, "must name each seat once", v)
    return key


def _seats_dict(v: JSON, what: str) -> dict[int, str]:
    return dict(_seats_key(v, what))


# A hand's events all carry the same seats (one read-only mapping, the table's, which
# it never changes): each is written once, and read into one mapping shared by the
# hand's events on the other side. Both caches are bounded (cleared when full); the
# first holds the mappings themselves, so an id in it is never another's.
_SEATS_OUT: dict[int, tuple[Mapping[int, str], list[list[Any]]]] = {}
_SEATS_IN: dict[tuple[tuple[Any, ...], ...], MappingProxyType[int, str]] = {}


def _enc_seats_shared(seats: Mapping[int, str] | None) -> JSON:
    if type(seats) is not MappingProxyType:  # None, or a mapping that may change
        return _enc_seats(seats)
    known = _SEATS_OUT.get(id(seats))
    if known is None or known[0] is not seats:
        if len(_SEATS_OUT) >= 1024:
            _SEATS_OUT.clear()
        known = _SEATS_OUT[id(seats)] = (seats, _enc_seats(seats))
    return known[1]


def _seats_proxy(v: JSON, what: str) -> MappingProxyType[int, str] | None:
    if v is None:
        return None
    try:
        proxy = _SEATS_IN.get(tuple(map(tuple, v))) if type(v) is list else None
    except TypeError:  # not pairs of plain values: read it the long way, to say why
        proxy = None
    if proxy is not None and all(type(pair[0]) is int for pair in v):  # not 1.0 nor true
        return proxy
    key = _seats_key(v, what)
    if len(_SEATS_IN) >= 4096:
        _SEATS_IN.clear()
    proxy = _SEATS_IN[key] = MappingProxyType(dict(key))
    return proxy


# ------------------------------------------------------------ actions, legal
_KINDS = {k.value: k for k in ActionKind}
_ACTION_CLASSES = frozenset(ACTION_TYPES.values())


def _enc_action(a: Action) -> JSON:
    if type(a) not in _ACTION_CLASSES:
        raise BusCodecError(f"no bus form for the action {a!r}")
    return [a.kind.value, a.amount]


def _action_kind(v: JSON, what: str) -> ActionKind:
    kind = _KINDS.get(v) if type(v) is str else None
    if kind is None:
        bad(what, f"must be one of {', '.join(_KINDS)}", v)
    return kind


def _action(v: JSON, what: str) -> Action:
    if type(v) is not list or len(v) != 2:
        bad(what, "must be [kind, amount]", v)
    kind = _action_kind(v[0], f"{what}.kind")
    amount = None if v[1] is None else read_int(v[1], f"{what}.amount")
    try:
        return make_action(kind, amount)
    except Stud8Error as e:
        raise BusCodecError(str(e), what) from None


def _enc_legal(a: LegalAction) -> JSON:
    return [a.kind.value, a.min_to, a.max_to, a.adds, a.all_in]


def _legal(v: JSON, what: str) -> LegalAction:
    if type(v) is not list or len(v) != 5:
        bad(what, "must be [kind, min_to, max_to, adds, all_in]", v)
    kind, lo, hi, adds, all_in = v
    try:
        return LegalAction.of(
            _action_kind(kind, "kind"),
            None if lo is None else read_int(lo, "min_to"),
            None if hi is None else read_int(hi, "max_to"),
            read_int(adds, "adds"),
            read_bool(all_in, "all_in"),
        )
    except BusCodecError as e:
        raise e.within(what) from None


def _enc_legals(legal: tuple[LegalAction, ...] | None) -> JSON:
    return None if legal is None else [_enc_legal(a) for a in legal]


# ------------------------------------------------------------------- events
def _enc_event(event: Any) -> JSON:
    layout = _TABLE_EVENT_BY_TYPE.get(type(event))
    if layout is not None:
        return layout.encode_object(event)
    if isinstance(event, Event):
        try:
            return encode_event(event)
        except Stud8Error as e:
            raise BusCodecError(str(e)) from None
    raise BusCodecError(f"no bus form for the event {event!r}")


def _event(v: JSON, what: str) -> Any:
    if type(v) is not dict:
        bad(what, "must be an event object", v)
    kind = v.get("k")
    layout = _TABLE_EVENT_BY_KIND.get(kind) if type(kind) is str else None
    if layout is not None:
        return layout.decode_object(v, what)
    if "t" in v:  # the hand record's time: no part of a bus event
        bad(what, "has an unknown field 't'", v)
    try:
        event = decode_event(v)
    except Stud8Error as e:
        raise BusCodecError(str(e), what) from None
    _check_sizes(event, what)
    return event


def _check_sizes(values: tuple[Any, ...], what: str) -> None:
    """The numbers of a hand's event (read by the hand record's codec) fit in 64 bits."""
    for v in values:
        if type(v) is int:
            if not -LIMIT <= v <= LIMIT:
                bad(what, "numbers must fit in 64 bits", v)
        elif type(v) is tuple:
            _check_sizes(v, what)


def _event_of(cls: type[_E]) -> Callable[[JSON, str], _E]:  # a field of one kind of event
    def read(v: JSON, what: str) -> _E:
        event = _event(v, what)
        if type(event) is not cls:
            bad(what, f"must be a {cls.kind} event", v)
        return event

    return read


_timer = _event_of(TimerStarted)
_tournament = _event_of(TournamentInfo)
_mixed = _event_of(MixedGame)
_refunded = _event_of(HandRefunded)


def _numbered(v: JSON, what: str, start: int = 0) -> Numbered:
    """The generic layout's reading (``_NUMBERED``), written out: the most read."""
    if type(v) is not list or len(v) != start + 4:
        bad(what, _NUMBERED.shape, v)
    try:
        seq, event, seats, legal = v[start:]
        return Numbered(
            read_int(seq, "seq"),
            _event(event, "event"),
            _seats_proxy(seats, "seats"),
            None if legal is None else _legals(legal, "legal"),
        )
    except BusCodecError as e:
        raise e.within(what) from None


def _finite(v: float) -> float:
    """A float as it is written: finite (JSON has no NaN nor Infinity, and msgspec
    would write one as null)."""
    if not math.isfinite(v):
        raise BusCodecError(f"cannot be written as JSON: {v!r} is not a finite number")
    return v


def _cards_out(cards: tuple[Card | None, ...]) -> list[str | None]:
    return [None if c is None else str(c) for c in cards]


# The codec of each field, by the type its class declares.
_TABLE_ENUMS = (LeaveReason, SatOutReason, TurnPhase, Phase, MoveReason, Game)  # (enums: see below)
_BY_ANNOTATION: dict[str, Codec] = {
    "int": (None, read_int, "int"),
    "int | None": (None, optional(read_int), "int?"),
    "str": (None, read_str, "str"),
    "str | None": (None, optional(read_str), "str?"),
    # a table event's kind of reason or phase: its value, text as any str on the bus
    **{e.__name__: (None, read_enum(e), "str") for e in _TABLE_ENUMS},
    "bool": (None, read_bool, "bool"),
    "float": (_finite, read_float, "float"),
    "Action": (_enc_action, _action, "action"),
    "Card | None": (or_none(str), optional(read_card), "card?"),
    "tuple[Card, ...]": (_cards_out, tuple_of(read_card), "cards"),
    "tuple[Card | None, ...]": (_cards_out, tuple_of(optional(read_card)), "cards?"),
    "tuple[tuple[int, int], ...]": (lambda ps: [list(p) for p in ps], _pairs, "pairs"),
    "tuple[str, ...]": (list, tuple_of(read_str), "strs"),
    "tuple[LegalAction, ...]": (_enc_legals, tuple_of(_legal), "legal_actions"),
    "tuple[LegalAction, ...] | None": (_enc_legals, optional(tuple_of(_legal)), "legal_actions?"),
    "AnyEvent": (_enc_event, _event, "event"),
    "TimerStarted | None": (or_none(_enc_event), optional(_timer), "timer?"),
    "TournamentInfo | None": (or_none(_enc_event), optional(_tournament), "tournament?"),
    "MixedGame | None": (or_none(_enc_event), optional(_mixed), "mixed_game?"),
    "tuple[HandRefunded, ...]": (
        lambda events: [_enc_event(e) for e in events],
        tuple_of(_refunded),
        "hand_refunded_events",
    ),
}


def _layout(cls: type, kind: str, overrides: Mapping[str, Codec] | None = None) -> Layout:
    codecs = {}
    for f in fields(cls):
        codec = (overrides or {}).get(f.name) or _BY_ANNOTATION.get(str(f.type))
        if codec is None:  # a new kind of field: give it a codec (and a new format)
            raise TypeError(f"no bus codec for {cls.__name__}.{f.name}: {f.type}")
        codecs[f.name] = codec
    return Layout(cls, kind, codecs)


def _record(cls: type, overrides: Mapping[str, Codec] | None = None) -> Layout:
    """The layout of ``cls``, and the codecs of fields of its type (``X``, ``X | None``,
    ``tuple[X, ...]``, ``tuple[X, ...] | None``)."""
    name = cls.__name__
    layout = _layout(cls, snake_case(name), overrides)
    enc = layout.encode

    def dec(v: JSON, what: str) -> Any:
        return layout.decode(v, what)

    def encs(items: tuple[Any, ...]) -> list[JSON]:
        return [enc(o) for o in items]

    many = tuple_of(dec)
    _BY_ANNOTATION[name] = (enc, dec, layout.kind)
    _BY_ANNOTATION[f"{name} | None"] = (or_none(enc), optional(dec), f"{layout.kind}?")
    _BY_ANNOTATION[f"tuple[{name}, ...]"] = (encs, many, f"{layout.kind}s")
    _BY_ANNOTATION[f"tuple[{name}, ...] | None"] = (
        or_none(encs),
        optional(many),
        f"{layout.kind}s?",
    )
    return layout


_TABLE_EVENTS = tuple(_layout(cls, cls.kind) for cls in named_subclasses(TableEvent))
_TABLE_EVENT_BY_TYPE = {layout.cls: layout for layout in _TABLE_EVENTS}
_TABLE_EVENT_BY_KIND = {layout.kind: layout for layout in _TABLE_EVENTS}
_CORE_EVENTS = tuple(named_subclasses(Event))
if {cls.kind for cls in _CORE_EVENTS} & set(_TABLE_EVENT_BY_KIND):  # pragma: no cover
    raise TypeError("a table event has the kind of a hand's event: an event would be misread")

_COMMANDS = tuple(_layout(cls, snake_case(cls.__name__)) for cls in named_subclasses(Command))
_COMMAND_BY_TYPE = {layout.cls: layout for layout in _COMMANDS}
_COMMAND_BY_KIND = {layout.kind: layout for layout in _COMMANDS}

_NUMBERED = _record(Numbered, {"seats": (_enc_seats_shared, _seats_proxy, "seats?")})
_legals = tuple_of(_legal)
_BY_ANNOTATION["tuple[Numbered, ...]"] = (
    _BY_ANNOTATION["tuple[Numbered, ...]"][0],
    tuple_of(_numbered),
    "numbereds",
)
_RECORDS = (
    _record(SeatView),
    _record(HandView),
    _record(SeatSnapshot),
    _record(OfferSnapshot),
    _record(TableSnapshot, {"hand_seats": (_enc_seats, _seats_dict, "seats")}),
    _record(TableSpec),
    _record(TableStatus),
)
_BY_ANNOTATION["tuple[Numbered, ...] | None"] = (
    _BY_ANNOTATION["tuple[Numbered, ...] | None"][0],
    optional(tuple_of(_numbered)),
    "numbereds?",
)
_CATCH_UP = _layout(CatchUp, "catch_up")
_LISTED = _layout(Listed, "listed")


def describe() -> str:
    """Every message and record as this node writes them, one per line: pinned per
    format by the tests, so that a change to any of them comes with a new format."""
    lines = [f"format {FORMAT}", "reply: ok bool, reason str, seq int"]
    lines += [layout.description for layout in _COMMANDS]
    lines += [_NUMBERED.description, _CATCH_UP.description, _LISTED.description]
    lines += [layout.description for layout in _RECORDS]
    lines += [f"event {layout.description}" for layout in _TABLE_EVENTS]
    lines += [
        f"hand event {cls.kind}: " + ", ".join(f.name for f in fields(cls)) for cls in _CORE_EVENTS
    ]
    lines.append("legal_action: kind, min_to, max_to, adds, all_in; action: kind, amount")
    return "\n".join(lines)


# ----------------------------------------------------------------- messages
_encode: Callable[[Any], bytes] = msgspec.json.Encoder().encode
_decode: Callable[[bytes], Any] = msgspec.json.Decoder().decode


def _dumps(o: Any) -> bytes:
    """JSON values as compact JSON (msgspec); BusCodecError if they cannot be."""
    try:
        return _encode(o)
    except (ValueError, TypeError, OverflowError, RecursionError) as e:
        raise BusCodecError(f"cannot be written as JSON: {e}") from None


def _out(message: list[JSON]) -> bytes:
    try:
        return _encode(message)
    except (ValueError, TypeError, OverflowError, RecursionError) as e:
        raise BusCodecError(f"cannot be written as JSON: {e}", str(message[1])) from None


def _unreadable(data: bytes, e: Exception) -> str:
    """Why msgspec could not read ``data``, as the codec says it."""
    try:
        data.decode()
    except UnicodeDecodeError as u:
        return f"is not UTF-8 ({u.reason} at byte {u.start})"
    text = str(e)
    if isinstance(e, msgspec.ValidationError | RecursionError):  # a number out of any
        return f"cannot be read: {text}"  # range, or nested too deep
    if "trailing characters" in text:
        return "has more after its JSON"
    return f"is not JSON ({text})"


def _in(data: Bytes, kinds: Mapping[str, Any] | str) -> tuple[list[JSON], Any]:
    """The message's JSON array and what its kind names (checked against ``kinds``)."""
    expected = kinds if type(kinds) is str else "command"
    if type(data) is not bytes:
        if not isinstance(data, bytearray | memoryview):
            bad(expected, "must be bytes", data)
        data = bytes(data)
    if data[:1].isspace():  # this codec's own form: nothing before the array
        bad(expected, "is not JSON (a space before it)", data[:40])
    try:
        v = _decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as e:
        raise BusCodecError(_unreadable(data, e), expected) from None
    if type(v) is not list or len(v) < 2:
        bad(expected, "must be a list [format, kind, ...]", v)
    version, kind = v[0], v[1]
    if type(version) is not int or version not in READS:
        if type(version) is not int:
            bad(expected, "its format must be a whole number", version)
        newer = "newer than this node reads" if version > FORMAT else "no longer read by this node"
        raise BusCodecError(f"format {version} is {newer} ({', '.join(map(str, READS))})", expected)
    if isinstance(kinds, str):
        if kind != kinds:
            bad(expected, f"must be a {kinds} message", kind)
        return v, None
    found = kinds.get(kind) if type(kind) is str else None
    if found is None:
        bad(expected, f"kind must be one of {', '.join(kinds)}", kind)
    return v, found


def encode_command(cmd: Command) -> bytes:
    """``[format, kind, player, command_id, ...its fields]``; kinds: :func:`describe`."""
    layout = _COMMAND_BY_TYPE.get(type(cmd))
    if layout is None:
        raise BusCodecError(f"no bus form for the command {cmd!r}", "command")
    return _out([FORMAT, layout.kind, *layout.encode(cmd)])


def decode_command(data: Bytes) -> Command:
    v, layout = _in(data, _COMMAND_BY_KIND)
    cmd: Command = layout.decode(v, layout.kind, 2)
    return cmd


def encode_reply(reply: Reply) -> bytes:
    if type(reply) is not Reply:
        raise BusCodecError(f"not a Reply: {reply!r}", "reply")
    return _out([FORMAT, "reply", reply.ok, reply.reason, reply.seq])


def decode_reply(data: Bytes) -> Reply:
    v, _ = _in(data, "reply")
    if len(v) != 5:
        bad("reply", "must be [format, kind, ok, reason, seq]", v)
    return Reply(
        read_bool(v[2], "reply.ok"), read_str(v[3], "reply.reason"), read_int(v[4], "reply.seq")
    )


# A Numbered is the message the bus carries most (every event, read on every node
# with a viewer of the table): its parts that recur (a hand's event, the hand's seats,
# the legal actions) are written once and read once, kept by their exact text, so
# that a part looked up is what reading it afresh would give. Anything not in the
# compact form this node writes is read the long way (which says what is wrong).
_HEAD = f'[{FORMAT},"numbered",'.encode()
# The quick read: msgspec splits the message and hands each part over as its exact
# bytes (msgspec.Raw), the key of what was read from them before.
_PARTS: Callable[[bytes], tuple[Any, ...]] = msgspec.json.Decoder(
    tuple[int, str, int, msgspec.Raw, msgspec.Raw, msgspec.Raw]
).decode
_NULL = b"null"
_EVENT_TEXT: dict[Event, bytes] = {}
_LEGAL_TEXT: dict[tuple[LegalAction, ...], bytes] = {}
_EVENT_READ: dict[bytes, Any] = {}
_SEATS_READ: dict[bytes, MappingProxyType[int, str]] = {}
_LEGAL_READ: dict[bytes, tuple[LegalAction, ...]] = {}


def _kept(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(cache) >= 8192:
        cache.clear()
    cache[key] = value
    return value


def encode_numbered(item: Numbered) -> bytes:
    if type(item) is not Numbered:
        raise BusCodecError(f"not a Numbered: {item!r}", "numbered")
    seq, event, seats, legal = item.seq, item.event, item.seats, item.legal
    if type(seq) is not int:
        return _out([FORMAT, "numbered", *_NUMBERED.encode(item)])  # says what is wrong
    try:
        if not isinstance(event, Event):  # the table's: a timer's is seldom seen twice
            event_text = _dumps(_enc_event(event))
        else:
            event_text = _EVENT_TEXT.get(event) or _kept(
                _EVENT_TEXT, event, _dumps(_enc_event(event))
            )
        seats_text = _dumps(_enc_seats_shared(seats))
        legal_text = _NULL
        if legal is not None:
            legal_text = _LEGAL_TEXT.get(legal) or _kept(
                _LEGAL_TEXT, legal, _dumps([_enc_legal(a) for a in legal])
            )
    except BusCodecError as e:
        raise e.within("numbered") from None
    return b"%s%d,%s,%s,%s]" % (_HEAD, seq, event_text, seats_text, legal_text)


def decode_numbered(data: Bytes) -> Numbered:
    if type(data) is bytes and data.startswith(_HEAD):
        item = _quick_numbered(data)
        if item is not None:
            return item
    v, _ = _in(data, "numbered")
    return _numbered(v, "numbered", 2)


def _quick_numbered(data: bytes) -> Numbered | None:
    """The Numbered ``data`` holds, read through the parts kept; None if it is not
    exactly in this node's form (or wrong: the long way then says why)."""
    try:
        _, _, seq, event_raw, seats_raw, legal_raw = _PARTS(data)
        if not -LIMIT <= seq <= LIMIT:
            return None
        part = bytes(event_raw)
        event = _EVENT_READ.get(part)
        if event is None:
            event = _event(_decode(part), "event")
            if type(event) not in _TABLE_EVENT_BY_TYPE:  # a timer's is seldom seen twice
                _kept(_EVENT_READ, part, event)
        part = bytes(seats_raw)
        seats = None if part == _NULL else _SEATS_READ.get(part)
        if seats is None and part != _NULL:
            seats = _kept(_SEATS_READ, part, _seats_proxy(_decode(part), "seats"))
        part = bytes(legal_raw)
        legal = None if part == _NULL else _LEGAL_READ.get(part)
        if legal is None and part != _NULL:
            legal = _kept(_LEGAL_READ, part, _legals(_decode(part), "legal"))
        return Numbered(seq, event, seats, legal)
    except (ValueError, RecursionError, msgspec.DecodeError):  # BusCodecError, a
        return None  # ValidationError too: the long way says why


def encode_catch_up(c: CatchUp) -> bytes:
    if type(c) is not CatchUp:
        raise BusCodecError(f"not a CatchUp: {c!r}", "catch_up")
    return _out([FORMAT, "catch_up", *_CATCH_UP.encode(c)])


def decode_catch_up(data: Bytes) -> CatchUp:
    v, _ = _in(data, "catch_up")
    c: CatchUp = _CATCH_UP.decode(v, "catch_up", 2)
    return c


def encode_listed(listed: Listed) -> bytes:
    if type(listed) is not Listed:
        raise BusCodecError(f"not a Listed: {listed!r}", "listed")
    return _out([FORMAT, "listed", *_LISTED.encode(listed)])


def decode_listed(data: Bytes) -> Listed:
    v, _ = _in(data, "listed")
    listed: Listed = _LISTED.decode(v, "listed", 2)
    return listed
