"""The generated schemas say what the room really writes: real encoded events of every
kind and real messages validate against them with a JSON Schema validator
(``jsonschema``, draft 2020-12), and values the room never writes do not.

The events' schemas are msgspec's of stand-in Structs (``wire/standins.py``), not of
the events themselves, so these tests are what ties the two together: a field the
hand-history format writes otherwise than its stand-in says fails here.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import re
import types
import typing
from typing import Any, Union

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stud8.core.actions import ActionKind
from stud8.core.cards import CARDS, Card, Deck
from stud8.core.evaluate import HighValue, LowValue, RazzValue
from stud8.core.events import Event, HandShown
from stud8.core.hand import Hand
from stud8.core.rules import Game, TableRules
from stud8.formats.jsonlog import decode_event
from stud8.server.table.events import AnyEvent, HandRefunded, TimerStarted, TurnPhase
from stud8.server.table.snapshot import SeatSnapshot
from stud8.server.wire.client import CLIENT_MESSAGES, parse_command
from stud8.server.wire.codec import ProtocolError
from stud8.server.wire.events import EVENT_TYPES, HAND_EVENT_TYPES
from stud8.server.wire.schemas import json_schemas
from stud8.server.wire.server import EventMessage, LoggedEvent, SnapshotMessage, TurnMessage
from stud8.server.wire.standins import CardsText, CardText

SCHEMAS = json_schemas()


@functools.cache
def _validator(section: str, name: str) -> jsonschema.Draft202012Validator:
    """A validator of ``SCHEMAS[section][name]``, its references (``#/types/...``,
    ``#/events/...``) resolved in the whole document, as ``GET /api/v1/schemas`` serves it."""
    pointer = "/".join(p.replace("~", "~0").replace("/", "~1") for p in (section, name))
    return jsonschema.Draft202012Validator({**SCHEMAS, "$ref": f"#/{pointer}"})


def _valid(value: Any, section: str, name: str) -> bool:
    return _validator(section, name).is_valid(value)


def test_every_schema_is_a_json_schema() -> None:
    for section in ("client", "server", "events", "types"):
        for schema in SCHEMAS[section].values():
            jsonschema.Draft202012Validator.check_schema(schema)
    for entry in SCHEMAS["rest"].values():
        for part in ("body", "query", "answer"):
            if part in entry:
                jsonschema.Draft202012Validator.check_schema(entry[part])
    assert set(SCHEMAS["events"]) == {cls.kind for cls in EVENT_TYPES}


def test_a_card_is_its_text() -> None:
    one = re.compile(CardText.schema["pattern"])
    many = re.compile(CardsText.schema["pattern"])
    assert all(one.fullmatch(str(card)) for card in CARDS)
    assert not any(one.fullmatch(text) for text in ("10d", "td", "Tx", "T", "Tdd", ""))
    assert many.fullmatch("As Kd 7c") and many.fullmatch("")
    assert not any(many.fullmatch(text) for text in ("As,Kd", "As  Kd", "As ", "AsKd"))


# ---------------------------------------------------------------- every kind of event
_GAMES = (Game.STUD_HI_LO, Game.STUD_HIGH, Game.RAZZ)


def _values(tp: Any) -> st.SearchStrategy[Any]:
    """Any value of a field's type, as the engine or the table may make it."""
    simple: dict[Any, st.SearchStrategy[Any]] = {
        int: st.integers(0, 10**6),
        bool: st.booleans(),
        float: st.floats(0, 10**6, allow_nan=False, allow_infinity=False),
        str: st.text(st.characters(exclude_categories=["Cs"]), max_size=20),  # text only
        Card: st.sampled_from(CARDS),
        HighValue: st.integers(1, 7462).map(HighValue.from_strength),
        LowValue: st.integers(1, 56).map(LowValue.from_strength),
        RazzValue: st.integers(1, 6175).map(RazzValue.from_strength),
    }
    if tp in simple:
        return simple[tp]
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return st.sampled_from(list(tp))
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (Union, types.UnionType):
        return st.one_of(*(st.none() if a is type(None) else _values(a) for a in args))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(_values(args[0]), max_size=7).map(tuple)
    if origin is tuple:
        return st.tuples(*(_values(a) for a in args))
    raise AssertionError(f"no values for {tp!r}: add them here")


def _events(cls: type[Any]) -> st.SearchStrategy[AnyEvent]:
    hints = typing.get_type_hints(cls)
    return st.builds(cls, **{f.name: _values(hints[f.name]) for f in dataclasses.fields(cls)})


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(EVENT_TYPES).flatmap(_events), st.integers(1, 10**9))
def test_every_event_as_sent_conforms_to_its_schema(event: AnyEvent, seq: int) -> None:
    """Any event of any kind, as an event message writes it: its kind's schema and
    the event message's (one of every kind, on k) say it, field for field."""
    message = json.loads(EventMessage(event).encode(seq))
    assert _valid(message, "server", "event"), message
    assert _valid(message["d"], "events", type(event).kind), message
    if isinstance(event, Event):  # the hand-history format's own object, read back whole
        assert decode_event(message["d"]) == event


@pytest.mark.parametrize(
    "low",
    [
        None,
        LowValue.from_strength(1),
        LowValue.from_strength(56),
        RazzValue.from_strength(1),
        RazzValue.from_strength(6175),
    ],
)
@pytest.mark.parametrize("high", [1, 7462])
def test_a_shown_hand_s_values_at_their_ends_conform(low: Any, high: int) -> None:
    cards = tuple(Card.parse(c) for c in ("As", "2d", "3c", "4h", "5s", "Kd", "Kc"))
    event = HandShown(1, cards, HighValue.from_strength(high), low)
    message = json.loads(EventMessage(event).encode(1))
    assert _valid(message, "server", "event"), message
    assert message["d"]["cards"] == "As 2d 3c 4h 5s Kd Kc"


def _play(seed: int, game: Game, choices: list[int]) -> Hand:
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, game=game)
    hand = Hand.start(rules=rules, stacks={1: 60, 2: 100, 3: 100}, deck=Deck.seeded(seed))
    turn = 0
    while not hand.is_over:
        choice = choices[turn % len(choices)]
        every = tuple(hand.legal_actions())  # a fold only when the choice is 5
        legal = [a for a in every if (a.kind is ActionKind.FOLD) == (choice == 5)] or every
        pick = legal[choice % len(legal)]
        sized = pick.kind in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)
        hand.apply(pick.action(pick.max_to if sized and choice == 6 else None))  # at most
        turn += 1
    return hand


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from(_GAMES),
    st.lists(st.integers(0, 6), min_size=1, max_size=12),
)
def test_the_events_of_a_real_hand_conform_and_so_does_its_snapshot(
    seed: int, game: Game, choices: list[int]
) -> None:
    """A hand played to its end (a showdown's cards and values, a razz low, the
    awards): each event as sent, and a snapshot of the table holding them in its log."""
    hand = _play(seed, game, choices)
    for seq, event in enumerate(hand.events, 1):
        message = json.loads(EventMessage(event).encode(seq))
        assert _valid(message, "server", "event"), message
    snapshot = SnapshotMessage(
        table_id="t1",
        viewer_seat=2,
        seats=(SeatSnapshot(2, "bob", 99, False, False, True, True),),
        hand_id=hand.hand_id,
        hand=hand.view(2),
        turn=TimerStarted(2, TurnPhase.ACTION, 10.0, 1010.0),
        log=tuple(LoggedEvent(i, e) for i, e in enumerate(hand.events, 1)),
        refunded=(HandRefunded("1", "2"),),
    )
    message = json.loads(snapshot.encode(len(hand.events)))
    assert _valid(message, "server", "snapshot"), message["d"]["hand"]


def test_a_hand_event_kind_of_each_is_played() -> None:
    """The real hands above reach the showdown's kinds, not only the betting's."""
    kinds = set()
    for seed in range(30):
        for game in _GAMES:
            kinds |= {type(e).kind for e in _play(seed, game, [seed % 7, 3, 1]).events}
    assert {"ante", "bring_in", "deal", "show", "award", "end"} <= kinds
    assert kinds <= {cls.kind for cls in HAND_EVENT_TYPES}


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("deal", {"k": "deal", "seat": 2, "card": "Zz", "face_up": True, "street": 3}),
        ("deal", {"k": "deal", "seat": 2, "card": None, "face_up": True}),  # no street
        ("deal", {"k": "deal", "seat": 2, "card": None, "face_up": True, "street": 3, "x": 1}),
        ("deal", {"k": "fold", "seat": 2, "card": None, "face_up": True, "street": 3}),
        ("show", {"k": "show", "seat": 1, "cards": ["As", "Kd"], "high": 9, "low": None}),
        ("show", {"k": "show", "seat": 1, "cards": "As Kd", "high": 9, "low": {"razz": 0}}),
        ("show", {"k": "show", "seat": 1, "cards": "As Kd", "high": 9, "low": 57}),
        ("sit", {"k": "sit", "seat": 1, "player": "ann", "chips": 100}),  # bot is always sent
        ("timer", {"k": "timer", "seat": 1, "phase": "lunch", "seconds": 1, "deadline": 2}),
    ],
)
def test_what_the_room_never_writes_does_not_conform(kind: str, value: Any) -> None:
    assert not _valid(value, "events", kind)
    assert not _valid({"t": "event", "v": 1, "d": value}, "server", "event")


def test_a_turn_and_a_client_message_conform_and_their_wrong_forms_do_not() -> None:
    hand = _play(3, Game.STUD_HI_LO, [0])
    live = Hand.start(
        rules=TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8),
        stacks={1: 100, 2: 100},
        deck=Deck.seeded(3),
    )
    assert hand.is_over and live.to_act is not None
    turn = json.loads(TurnMessage(live.to_act, tuple(live.legal_actions())).encode(4))
    assert _valid(turn, "server", "turn")
    assert not _valid({**turn, "d": {**turn["d"], "legal": [{"kind": "dance"}]}}, "server", "turn")
    assert _valid({"t": "act", "d": {"kind": "raise", "amount": 8, "id": "a"}}, "client", "act")
    for cls in CLIENT_MESSAGES:  # a command id's limit, as parse_command checks it
        assert SCHEMAS["client"][cls.t]["properties"]["d"]["properties"]["id"]["maxLength"] == 64
    for command_id, ok in (("", False), ("i" * 64, True), ("i" * 65, False)):
        ping = {"t": "ping", "d": {"id": command_id}}
        assert _valid(ping, "client", "ping") is ok
        if not ok:
            with pytest.raises(ProtocolError, match="id must be 1 to 64"):
                parse_command(json.dumps(ping))
    assert not _valid({"t": "act", "d": {"kind": "raise", "id": "a", "to": 8}}, "client", "act")
    register = SCHEMAS["rest"]["POST /api/v1/register"]["body"]
    check = jsonschema.Draft202012Validator(register)
    assert check.is_valid({"name": "ann_1", "password": "a long secret"})
    assert not check.is_valid({"name": "a b", "password": "a long secret"})
    assert not check.is_valid({"name": "ann", "password": "short"})
