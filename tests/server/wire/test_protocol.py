"""The protocol's message schemas, parsing and encoding; docs/protocol.md is current."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.schemacheck import SCHEMAS, conforms
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.events import CardDealt
from stud8.core.hand import Hand
from stud8.core.rules import TableRules
from stud8.server.table.commands import Act, Sit
from stud8.server.table.events import (
    AnyEvent,
    CameBack,
    Disconnected,
    HandFinished,
    HandRefunded,
    HandStarted,
    Reconnected,
    SatOut,
    SatOutReason,
    SeatLeft,
    SeatOffered,
    SeatTaken,
    TimerStarted,
    ToppedUp,
    TurnPhase,
    WaitingListChanged,
)
from stud8.server.table.snapshot import OfferSnapshot, SeatSnapshot
from stud8.server.table.spec import TableSpec
from stud8.server.wire.client import (
    CLIENT_MESSAGES,
    ActMessage,
    JoinWaitlistMessage,
    LeaveWaitlistMessage,
    PingMessage,
    SitMessage,
    parse_command,
)
from stud8.server.wire.codec import ProtocolError, to_json
from stud8.server.wire.events import encode_event
from stud8.server.wire.rest import table_info
from stud8.server.wire.schemas import schemas_markdown, updated_doc
from stud8.server.wire.server import (
    SERVER_MESSAGES,
    AckMessage,
    EventMessage,
    LoggedEvent,
    PongMessage,
    RejectMessage,
    SnapshotMessage,
    TurnMessage,
    WelcomeMessage,
)

DOC = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"


def test_every_client_message_parses_into_its_dataclass() -> None:
    assert parse_command('{"t":"act","d":{"kind":"raise","amount":8,"id":"a"}}') == ActMessage(
        ActionKind.RAISE, "a", 8
    )
    assert parse_command(b'{"t":"sit","d":{"seat":3,"amount":100,"id":"b"}}') == SitMessage(
        3, 100, "b"
    )
    assert parse_command('{"t":"ping","v":3,"d":{"id":"c"}}') == PingMessage("c")
    assert parse_command('{"t":"join_waitlist","d":{"id":"w"}}') == JoinWaitlistMessage("w")
    assert parse_command('{"t":"leave_waitlist","d":{"id":"w"}}') == LeaveWaitlistMessage("w")
    for cls in CLIENT_MESSAGES:
        assert cls.t in SCHEMAS["client"] and cls.doc


def test_a_parsed_message_is_the_table_s_command_with_the_engine_s_action() -> None:
    act = parse_command('{"t":"act","d":{"kind":"raise","amount":8,"id":"a"}}').command("ann")
    assert act == Act(player="ann", action=make_action("raise", 8), command_id="a")
    sit = parse_command('{"t":"sit","d":{"seat":3,"amount":100,"id":"b"}}').command("bob")
    assert sit == Sit(player="bob", seat=3, amount=100, command_id="b")
    with pytest.raises(ProtocolError, match="not a table command"):
        PingMessage("c").command("ann")


@pytest.mark.parametrize(
    ("text", "why", "command_id"),
    [
        ("{", "malformed JSON", None),
        ('"act"', "JSON object", None),
        ("null", "JSON object", None),
        ('{"t":"fly","d":{"id":"a"}}', "unknown message type 'fly'", "a"),
        ('{"d":{"id":"a"}}', "type t must be a string", "a"),
        ('{"t":"act"}', "d must be a JSON object", None),
        ('{"t":"act","d":{"kind":"call"}}', "missing field 'id'", None),
        ('{"t":"act","d":{"id":"a"}}', "missing field 'kind'", "a"),
        ('{"t":"act","d":{"kind":"call","id":"a","to":3}}', "unknown fields ['to']", "a"),
        ('{"t":"act","d":{"kind":"call","id":"a"},"x":1}', "unknown envelope fields", "a"),
        ('{"t":"act","d":{"kind":1,"id":"a"}}', "kind must be a string", "a"),
        ('{"t":"act","d":{"kind":"bet","amount":8.5,"id":"a"}}', "amount must be", "a"),
        ('{"t":"act","d":{"kind":"dance","id":"a"}}', "not an action: 'dance'", "a"),
        ('{"t":"act","d":{"kind":"call","amount":3,"id":"a"}}', "takes no amount", "a"),
        ('{"t":"act","d":{"kind":"bet","id":"a"}}', "not an action: 'bet'", "a"),
        ('{"t":"act","d":{"kind":"raise","amount":-4,"id":"a"}}', "not an action", "a"),
        ("[" * 5000 + "]" * 5000, "message too large", None),
        ("[" * 2000 + "]" * 2000, "nested too deeply", None),
        ('{"t":"sit","d":{"seat":"1","amount":9,"id":"a"}}', "seat must be an integer", "a"),
        ('{"t":"sit","d":{"seat":false,"amount":9,"id":"a"}}', "seat must be an integer", "a"),
        ('{"t":"ping","d":{"id":""}}', "id must be 1 to 64", None),
        ('{"t":"ping","d":{"id":"' + "i" * 65 + '"}}', "id must be 1 to 64", None),
        ('{"t":"ping","d":{"id":"' + "i" * 5000 + '"}}', "message too large", None),
    ],
)
def test_a_bad_message_is_refused_with_its_reason(
    text: str, why: str, command_id: str | None
) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_command(text)
    assert why in info.value.reason
    assert info.value.command_id == command_id


# ---------------------------------------------------------------- schemas


def test_the_schemas_describe_the_client_messages_strictly() -> None:
    act = SCHEMAS["client"]["act"]
    good = {"t": "act", "d": {"kind": "bet", "amount": 8, "id": "x"}}
    assert conforms(good, act)
    assert conforms({"t": "act", "d": {"kind": "call", "id": "x"}}, act)
    assert not conforms({"t": "act", "d": {"kind": "call"}}, act)
    assert not conforms({"t": "act", "d": {"kind": "call", "id": "x", "z": 1}}, act)
    assert not conforms({"t": "act", "d": {"kind": "bet", "amount": "8", "id": "x"}}, act)
    assert not conforms({"t": "sit", "d": {"kind": "call", "id": "x"}}, act)
    assert act["properties"]["d"]["required"] == ["kind", "id"]
    assert {c.t for c in SERVER_MESSAGES} == set(SCHEMAS["server"])


def _played_hand() -> Hand:
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    hand = Hand.start(rules=rules, stacks={1: 100, 2: 100, 3: 100}, deck=Deck.seeded(5))
    while not hand.is_over:
        legal = {a.kind: a for a in hand.legal_actions()}
        for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN):
            if kind in legal:
                hand.apply(legal[kind].action())
                break
    return hand


def test_every_message_the_server_sends_conforms_to_its_schema() -> None:
    hand = _played_hand()
    table_events = [
        SeatTaken(1, "ann", 100),
        SeatLeft(1, "ann", 90),
        ToppedUp(1, 10, 100),
        SatOut(1, SatOutReason.ASKED),
        CameBack(1),
        Disconnected(2),
        Reconnected(2),
        HandStarted("h1", ((1, 100), (2, 100))),
        TimerStarted(1, TurnPhase.ACTION, 10.0, 1010.0),
        HandFinished("h1", False),
        WaitingListChanged(("cat", "dan")),
        SeatOffered(3, "cat", 30.0),
    ]
    events: list[AnyEvent] = [*hand.events, *table_events]
    kinds = set()
    for seq, event in enumerate(events, 1):
        message = json.loads(EventMessage(event).encode(seq))
        kinds.add(message["d"]["k"])
        assert conforms(message, SCHEMAS["server"]["event"]), message
        assert conforms(message["d"], SCHEMAS["events"][message["d"]["k"]])
    assert {"deal", "show", "award", "end", "timer", "hand_start"} <= kinds
    assert {"waiting_list", "seat_offered"} <= kinds
    assert encode_event(WaitingListChanged(("cat", "dan"))) == {
        "k": "waiting_list",
        "players": ["cat", "dan"],
    }
    assert encode_event(SeatOffered(3, "cat", 30.0)) == {
        "k": "seat_offered",
        "seat": 3,
        "player": "cat",
        "seconds": 30.0,
    }
    # a hidden card is null, and still conforms
    hidden = {"k": "deal", "seat": 2, "card": None, "face_up": False, "street": 3}
    assert conforms(hidden, SCHEMAS["events"]["deal"])
    spec = TableSpec(structure="no_limit", rake_percent="5/2")
    info = table_info("t1", "Low stakes", spec)
    live = Hand.start(
        rules=TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8),
        stacks={1: 100, 2: 100},
        deck=Deck.seeded(1),
    )
    assert live.to_act is not None
    seats = (SeatSnapshot(1, "ann", 99, False, False, True, True),)
    snapshot = SnapshotMessage(
        table_id="t1",
        viewer_seat=1,
        seats=seats,
        hand_id=live.hand_id,
        hand=live.view(1),
        turn=TimerStarted(1, TurnPhase.ACTION, 10.0, 1010.0),
        waiting_list=("cat", "dan"),
        offer=OfferSnapshot(3, "cat", 12.5),
        # the hand so far, as this viewer saw it: the other's down card null
        log=(
            LoggedEvent(7, HandStarted(live.hand_id, ((1, 100), (2, 100)))),
            LoggedEvent(8, CardDealt(2, None, False, 3)),
            *(LoggedEvent(9 + i, e) for i, e in enumerate(live.events)),
        ),
        log_seats=((1, "ann"), (2, "bob")),
        refunded=(HandRefunded("123456789012345678", "123456789012345678"),),
    )
    others = [
        WelcomeMessage("t1", None, None, info).encode(None),
        AckMessage("a").encode(3),
        RejectMessage(None, "malformed JSON").encode(None),
        PongMessage("p").encode(3),
        TurnMessage(live.to_act, tuple(live.legal_actions())).encode(9),
        snapshot.encode(9),
        SnapshotMessage("t1", None, (), None, None, None).encode(9),
    ]
    for text in others:
        message = json.loads(text)
        assert conforms(message, SCHEMAS["server"][message["t"]]), message
    # the shapes clients rely on
    welcome = json.loads(others[0])
    assert "v" not in welcome and welcome["d"]["table"]["stakes"] == {
        "ante": 1,
        "bring_in": 2,
        "small_bet": 4,
        "big_bet": 8,
    }
    assert welcome["d"]["table"]["rake_percent"] == "5/2"
    turn = json.loads(others[4])["d"]
    assert set(turn["legal"][0]) == {"kind", "min_to", "max_to", "adds", "all_in"}
    snap = json.loads(others[5])["d"]
    assert list(snap) == [
        "table_id",
        "viewer_seat",
        "seats",
        "hand_id",
        "hand",
        "turn",
        "waiting_list",
        "offer",
        "tournament",
        "log",
        "log_seats",
        "refunded",
        "mixed",
    ]
    assert snap["mixed"] is None  # a table of one game
    assert snap["log"][1] == {"v": 8, "d": hidden}
    assert snap["refunded"] == [
        {"k": "hand_refunded", "hand_id": "123456789012345678", "number": "123456789012345678"}
    ]
    assert snap["turn"] == {
        "k": "timer",
        "seat": 1,
        "phase": "action",
        "seconds": 10.0,
        "deadline": 1010.0,
    }
    assert snap["seats"][0] == {
        "seat": 1,
        "player": "ann",
        "chips": 99,
        "bot": False,
        "sitting_out": False,
        "connected": True,
        "in_hand": True,
        "out_reason": "",
    }
    assert list(snap["hand"]) == [
        "hand_id",
        "viewer",
        "street",
        "to_act",
        "bring_in_seat",
        "pot",
        "current_bet",
        "community_card",
        "seats",
        "legal_actions",
        "is_over",
    ]
    mine = snap["hand"]["seats"][0]
    assert all(isinstance(c, str) for c in mine["down_cards"] + mine["up_cards"])


def test_the_protocol_document_shows_the_current_schemas() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert schemas_markdown() in text, (
        "docs/protocol.md is out of date: "
        "python -m stud8.server.wire.schemas --write docs/protocol.md"
    )
    assert updated_doc(text) == text
    for name in [*SCHEMAS["client"], *SCHEMAS["server"]]:
        assert f"#### `{name}`" in text


def test_msgspec_writes_a_message_as_the_generic_encoding_gives_it() -> None:
    """The most sent messages are written by msgspec from the Struct itself (for
    speed): exactly its fields, as the generic encoding of the engine's values gives
    them (a legal action's kind its value, each of its amounts)."""
    live = Hand.start(
        rules=TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8),
        stacks={1: 100, 2: 100},
        deck=Deck.seeded(3),
    )
    assert live.to_act is not None
    messages = [
        TurnMessage(live.to_act, tuple(live.legal_actions())),
        AckMessage("a"),
        RejectMessage("r", "no"),
        RejectMessage(None, "no"),
        PongMessage("p"),
    ]
    for message in messages:
        assert message.data() is message  # written by msgspec, no JSON values made first
        assert json.loads(message.encode(3)) == {"t": message.t, "v": 3, "d": to_json(message)}
