"""The bus codec: every message a real table sends or is sent, as bytes and back,
equal and of the same types; the format pinned; hostile bytes refused with
BusCodecError (saying what and where), never another exception."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import fields, is_dataclass
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.bus.play import engine_hands, table_session
from stud8.core.actions import (
    ActionKind,
    Bet,
    BringIn,
    Call,
    Check,
    Complete,
    Fold,
    LegalAction,
    Raise,
)
from stud8.core.events import Event, HandEnded
from stud8.server.bus import Listed
from stud8.server.bus.codec import (
    FORMAT,
    READS,
    BusCodecError,
    decode_catch_up,
    decode_command,
    decode_listed,
    decode_numbered,
    decode_reply,
    describe,
    encode_catch_up,
    encode_command,
    encode_listed,
    encode_numbered,
    encode_reply,
)
from stud8.server.table import commands
from stud8.server.table.commands import (
    Act,
    AutoTopUp,
    Chat,
    ComeBack,
    Command,
    Connect,
    Disconnect,
    JoinWaitlist,
    Leave,
    LeaveWaitlist,
    Reply,
    SeatBot,
    Sit,
    SitOut,
    TopUp,
)
from stud8.server.table.events import (
    ChatSaid,
    HandStarted,
    LeaveReason,
    Numbered,
    SeatTaken,
    TableEvent,
    TimerStarted,
    ToppedUp,
    TurnPhase,
)
from stud8.server.table.snapshot import CatchUp, SeatSnapshot, TableSnapshot
from stud8.server.table.spec import TableSpec
from stud8.server.table.status import TableStatus

Codec = tuple[Callable[[Any], bytes], Callable[[bytes], Any]]
CODECS: dict[str, Codec] = {
    "command": (encode_command, decode_command),
    "reply": (encode_reply, decode_reply),
    "numbered": (encode_numbered, decode_numbered),
    "catch_up": (encode_catch_up, decode_catch_up),
    "listed": (encode_listed, decode_listed),
}
DECODERS = [decode for _, decode in CODECS.values()]


def assert_same(got: object, want: object, where: str = "message") -> None:
    """``got == want``, and of the same types all the way down."""
    assert type(got) is type(want), f"{where}: {type(got).__name__}, not {type(want).__name__}"
    if isinstance(want, Mapping):
        assert isinstance(got, Mapping) and list(got) == list(want), where
        for key, value in want.items():
            assert_same(got[key], value, f"{where}[{key!r}]")
    elif is_dataclass(want):
        for f in fields(want):
            assert_same(getattr(got, f.name), getattr(want, f.name), f"{where}.{f.name}")
    elif isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_same(g, w, f"{where}[{i}]")
    assert got == want, where


def round_trip(kind: str, message: object) -> Any:
    encode, decode = CODECS[kind]
    data = encode(message)
    assert isinstance(data, bytes)
    data.decode("utf-8")  # compact JSON in UTF-8 (msgspec's)
    back = decode(data)
    assert_same(back, message, kind)
    assert encode(back) == data  # one message, one text
    # a node before msgspec wrote the same JSON with every other character escaped
    # (and a float as Python's repr): the same format still, read the same
    escaped = json.dumps(json.loads(data), separators=(",", ":")).encode()
    assert_same(decode(escaped), message, kind)
    return back


# ---------------------------------------------------------------- commands
ACTIONS = [Fold(), Check(), Call(), BringIn(), Complete(), Complete(to=8), Bet(to=16)]
ACTIONS += [Raise(), Raise(to=24)]
EXAMPLES: list[Command] = [
    Sit(player="ann", seat=1, amount=100),
    Sit(player="Zoë 玩家 \U0001f0a1", seat=8, amount=2**63 - 1, command_id="c1"),
    SeatBot(player="bot1", seat=3, amount=200),
    SeatBot(player="bot2", seat=4, amount=40, policy="random", seed=-7, command_id="b"),
    TopUp(player="ann", amount=60, command_id=""),
    SitOut(player="ann"),
    ComeBack(player="ann", command_id="x" * 1000),
    Leave(player="ann"),
    Leave(player="ann", reason=LeaveReason.TABLE_CLOSED),
    Connect(player="ann"),
    Connect(player="ann", auto_top_up=True),
    AutoTopUp(player="ann", on=True, command_id="s1"),
    AutoTopUp(player="ann", on=False),
    Disconnect(player="ann"),
    JoinWaitlist(player="ivy"),
    LeaveWaitlist(player="ivy", command_id="w"),
    Chat(player="ann", text='gl <b>all</b> \u2663 "quoted" 玩家', command_id="m1"),
    Chat(player="bob", text="x" * 200),
    *(Act(player="bob", action=a, command_id=f"a{i}") for i, a in enumerate(ACTIONS)),
]


def test_every_kind_of_command_round_trips() -> None:
    kinds = {c for c in vars(commands).values() if isinstance(c, type) and issubclass(c, Command)}
    assert {type(c) for c in EXAMPLES} == kinds - {Command}
    for cmd in EXAMPLES:
        round_trip("command", cmd)


def test_a_command_s_bytes_are_its_kind_and_fields_in_order() -> None:
    assert encode_command(Sit(player="ann", seat=2, amount=50)) == b'[6,"sit","ann",null,2,50]'
    assert (
        encode_command(Act(player="a", action=Complete()))
        == b'[6,"act","a",null,["complete",null]]'
    )


@given(
    player=st.text(),
    command_id=st.none() | st.text(max_size=40),
    seat=st.integers(-(2**63) + 1, 2**63 - 1),
    amount=st.integers(-(2**63) + 1, 2**63 - 1),
)
def test_any_text_and_any_64_bit_number_round_trip(
    player: str, command_id: str | None, seat: int, amount: int
) -> None:
    """Names with lone surrogates and control characters included: what the edge
    accepted from a client goes through unchanged."""
    round_trip("command", Sit(player=player, seat=seat, amount=amount, command_id=command_id))
    round_trip("command", Act(player=player, action=Raise(to=amount), command_id=command_id))


def test_the_replies_and_commands_of_a_real_table_round_trip() -> None:
    session = table_session()
    assert len(session.commands) > 300
    for cmd in session.commands:
        round_trip("command", cmd)
    for reply in [*session.replies, Reply(False, "not your turn", 7), Reply(True)]:
        round_trip("reply", reply)


# ------------------------------------------------------------------ events
def test_every_numbered_event_of_a_real_table_round_trips() -> None:
    session = table_session()
    # a tournament's own events come from its tables: tests/server/tournaments
    # round-trips those of a real tournament
    table_kinds = {cls.kind for cls in TableEvent.__subclasses__()} - {"tournament", "moved"}
    seen = {item.event.kind for item in session.numbered}
    assert table_kinds <= seen, f"the session emitted none of {table_kinds - seen}"
    assert {"deal", "call", "raise", "timeout", "show", "award", "cancel", "end"} <= seen
    assert any(item.legal for item in session.numbered)
    for item in session.numbered:
        round_trip("numbered", item)


def test_a_numbered_event_is_written_as_in_a_catch_up() -> None:
    """Written the quick way (its parts' texts kept), it is the same as the long way:
    the layout a catch-up's events are written with."""
    session = table_session()
    for item in session.numbered:
        body = encode_numbered(item).removeprefix(b'[6,"numbered",').removesuffix(b"]")
        caught = encode_catch_up(CatchUp(item.seq, events=(item,)))
        assert caught == b'[6,"catch_up",%d,[[%s]],null]' % (item.seq, body)


def test_a_numbered_event_s_bytes() -> None:
    item = Numbered(
        9,
        TimerStarted(3, TurnPhase.ACTION, 10.0, 1015.25),
        MappingProxyType({1: "ann", 3: "bob"}),
        (LegalAction(ActionKind.FOLD), LegalAction(ActionKind.CALL, 8, 8, 4)),
    )
    assert encode_numbered(item) == (
        b'[6,"numbered",9,{"k":"timer","seat":3,"phase":"action","seconds":10.0,'
        b'"deadline":1015.25},[[1,"ann"],[3,"bob"]],'
        b'[["fold",null,null,0,false],["call",8,8,4,false]]]'
    )


def test_a_hand_s_decoded_events_share_one_read_only_seat_mapping() -> None:
    session = table_session()
    start = next(i for i, n in enumerate(session.numbered) if isinstance(n.event, HandStarted))
    items = [decode_numbered(encode_numbered(n)) for n in session.numbered[start : start + 30]]
    with_seats = [n.seats for n in items if n.seats is not None]
    assert len(with_seats) > 10 and all(s is with_seats[0] for s in with_seats)
    assert isinstance(with_seats[0], MappingProxyType)
    with pytest.raises(TypeError):
        with_seats[0][9] = "eve"  # type: ignore[index]


def test_every_kind_of_hand_event_of_engine_hands_round_trips() -> None:
    hands = engine_hands()
    kinds = {cls.kind for cls in Event.__subclasses__()}
    seen = {e.kind for hand in hands for e in hand.events}
    assert kinds <= seen, f"the hands made none of {kinds - seen}"
    seq = 0
    for hand in hands:
        seats = MappingProxyType(dict(hand.players))
        legal = iter(hand.legal)
        for event in hand.events:
            seq += 1
            round_trip("numbered", Numbered(seq, event, seats, next(legal, None)))


def test_views_of_every_seat_round_trip_in_a_snapshot() -> None:
    """A snapshot's hand is whole, but the codec takes any view: hidden cards too."""
    views = [view for hand in engine_hands(40) for view in hand.views]
    assert any(None in s.down_cards for v in views for s in v.seats)
    assert any(v.community_card is not None for v in views)
    for i, view in enumerate(views):
        players = {s.seat: f"p{s.seat}" for s in view.seats}
        snapshot = TableSnapshot(
            table_id="t9",
            seq=i,
            seats=tuple(
                SeatSnapshot(s.seat, players[s.seat], s.stack, False, False, True, True)
                for s in view.seats
            ),
            hand=view,
            hand_seats=players,
            turn=TimerStarted(view.to_act or 1, TurnPhase.TIME_BANK, 19.5, 1e9 + 0.1),
        )
        round_trip("catch_up", CatchUp(i, snapshot=snapshot))


# -------------------------------------------------------------- catch-ups
def test_catch_ups_mid_hand_and_between_hands_round_trip() -> None:
    catch_ups = table_session().catch_ups
    snapshots = [c.snapshot for c in catch_ups if c.snapshot is not None]
    assert any(s.hand is not None and s.turn is not None for s in snapshots)  # mid-hand
    assert any(s.hand is None and s.waiting_list for s in snapshots)  # between hands
    assert any(s.offer is not None for s in snapshots)
    assert any(c.events for c in catch_ups) and any(c.events == () for c in catch_ups)
    for c in catch_ups:
        back = round_trip("catch_up", c)
        if back.snapshot is not None:
            assert type(back.snapshot.hand_seats) is dict


# ------------------------------------------------------------------ listed
def test_the_directory_s_entries_round_trip() -> None:
    statuses = table_session().statuses
    assert any(s.hands_played and s.hands_per_hour for s in statuses)
    specs = [
        TableSpec(),
        TableSpec(rake_percent="5/2", rake_cap=3, between_hands=0.1, bot_delay=0, seats=2),
        TableSpec(offer_seconds=1e-7, sit_out_seconds=1e300, timeout_policy="check_or_fold"),
    ]
    for status in [*statuses, TableStatus("t2", paused="the database is down")]:
        for spec in specs:
            round_trip("listed", Listed(status.table_id, "Main — 玩家", spec, status))


@given(
    seconds=st.floats(allow_nan=False, allow_infinity=False),
    deadline=st.floats(allow_nan=False, allow_infinity=False),
)
def test_floats_round_trip_exactly(seconds: float, deadline: float) -> None:
    item = round_trip("numbered", Numbered(1, TimerStarted(1, TurnPhase.ACTION, seconds, deadline)))
    assert item.event.seconds.hex() == seconds.hex()
    assert item.event.deadline.hex() == deadline.hex()


# ---------------------------------------------------------------- the format
def test_a_chat_line_crosses_the_bus_as_it_was_said() -> None:
    """The chat's command and event between nodes: any text (markup, quotes, other
    scripts, the longest line) comes back exactly, observer or seated, in a hand or not."""
    texts = ("<img src=x onerror=alert(1)>", "</script>", 'a "b" \\ c', "玩家", "x" * 200)
    for text in texts:
        for seat, hand_id in ((3, "h1"), (None, None)):
            round_trip("numbered", Numbered(7, ChatSaid("ann", text, seat, hand_id)))
        round_trip("command", Chat(player="ann", text=text, command_id="c1"))
    data = encode_numbered(Numbered(7, ChatSaid("ann", "hi", None, None)))
    assert data == (
        b'[6,"numbered",7,{"k":"chat","player":"ann","text":"hi","seat":null,"hand_id":null},'
        b"null,null]"
    )
    with pytest.raises(BusCodecError, match="text"):
        decode_numbered(data.replace(b'"text":"hi"', b'"text":5'))
    with pytest.raises(BusCodecError, match="seat"):
        decode_numbered(data.replace(b'"seat":null', b'"seat":"1"'))


def test_an_auto_top_up_crosses_the_bus() -> None:
    """The auto top-up between nodes: the setting told (a command, and with Connect),
    and the table's top-up event, partial or not, as it was emitted."""
    for item in (
        Numbered(5, ToppedUp(2, 80, 200, auto=True, short=20)),
        Numbered(6, ToppedUp(2, 0, 120, auto=True, short=80)),
        Numbered(7, ToppedUp(2, 50, 170)),
    ):
        round_trip("numbered", item)
    assert encode_numbered(Numbered(5, ToppedUp(2, 80, 200, auto=True, short=20))) == (
        b'[6,"numbered",5,{"k":"top_up","seat":2,"amount":80,"chips":200,"auto":true,'
        b'"short":20},null,null]'
    )
    assert encode_command(AutoTopUp(player="ann", on=True)) == b'[6,"auto_top_up","ann",null,true]'
    assert encode_command(Connect(player="ann", auto_top_up=True)) == (
        b'[6,"connect","ann",null,true]'
    )
    with pytest.raises(BusCodecError, match="on"):
        decode_command(b'[6,"auto_top_up","ann",null,1]')


def test_the_layout_of_format_1_is_pinned() -> None:
    """A change to any layout must come with a new FORMAT (the module's versioning
    rule): add the new format's description here, keep the old."""
    assert FORMAT in READS
    assert describe() == PINNED[FORMAT]


PINNED = {
    1: """format 1
reply: ok bool, reason str, seq int
sit: player str, command_id str?, seat int, amount int
seat_bot: player str, command_id str?, seat int, amount int, policy str, seed int?
top_up: player str, command_id str?, amount int
sit_out: player str, command_id str?
come_back: player str, command_id str?
leave: player str, command_id str?, reason str
act: player str, command_id str?, action action
connect: player str, command_id str?
disconnect: player str, command_id str?
join_waitlist: player str, command_id str?
leave_waitlist: player str, command_id str?
numbered: seq int, event event, seats seats?, legal legal_actions?
catch_up: seq int, events numbereds?, snapshot table_snapshot?
listed: table_id str, name str, spec table_spec, status table_status
seat_view: seat int, stack int, bet int, contributed int, folded bool, all_in bool, \
up_cards cards, down_cards cards?
hand_view: hand_id str, viewer int?, street int, to_act int?, bring_in_seat int?, pot int, \
current_bet int, community_card card?, seats seat_views, legal_actions legal_actions, is_over bool
seat_snapshot: seat int, player str, chips int, bot bool, sitting_out bool, connected bool, \
in_hand bool
offer_snapshot: seat int, player str, seconds_left float
table_snapshot: table_id str, seq int, seats seat_snapshots, hand hand_view?, hand_seats seats, \
turn timer?, waiting_list strs, offer offer_snapshot?
table_spec: ante int, bring_in int, small_bet int, big_bet int, structure str, seats int, \
min_buy_in int, max_buy_in int, action_seconds int, time_bank_seconds int, reconnect_seconds int, \
rake_percent str, rake_cap int?, bots int, bot_policy str, between_hands float, bot_delay float, \
offer_seconds float, timeout_policy str, sit_out_seconds float
table_status: table_id str, players strs, waiting int, hands_played int, average_pot float, \
hands_per_hour float, paused str?
event sit: seat int, player str, chips int, bot bool
event leave: seat int, player str, chips int, reason str
event top_up: seat int, amount int, chips int
event sit_out: seat int, reason str
event come_back: seat int
event disconnected: seat int
event reconnected: seat int
event hand_start: hand_id str, stacks pairs
event timer: seat int, phase str, seconds float, deadline float
event waiting_list: players strs
event seat_offered: seat int, player str, seconds float
event hand_finish: hand_id str, cancelled bool
hand event ante: seat, amount, all_in
hand event street: street
hand event deal: seat, card, face_up, street
hand event community: card
hand event first_to_act: street, seat
hand event bring_in: seat, amount, all_in
hand event complete: seat, to, adds, all_in
hand event bet: seat, to, adds, all_in
hand event raise: seat, to, adds, all_in
hand event call: seat, to, adds, all_in
hand event check: seat
hand event fold: seat
hand event timeout: seat, outcome
hand event uncalled: seat, amount
hand event show: seat, cards, high, low
hand event muck: seat
hand event rake: amount
hand event award: pot, seat, amount, half
hand event end: stacks
hand event cancel: refunds, reason
legal_action: kind, min_to, max_to, adds, all_in; action: kind, amount""",
    # format 2: a table_spec gained its game and showdown_seconds
    2: """format 2
reply: ok bool, reason str, seq int
sit: player str, command_id str?, seat int, amount int
seat_bot: player str, command_id str?, seat int, amount int, policy str, seed int?
top_up: player str, command_id str?, amount int
sit_out: player str, command_id str?
come_back: player str, command_id str?
leave: player str, command_id str?, reason str
act: player str, command_id str?, action action
connect: player str, command_id str?
disconnect: player str, command_id str?
join_waitlist: player str, command_id str?
leave_waitlist: player str, command_id str?
numbered: seq int, event event, seats seats?, legal legal_actions?
catch_up: seq int, events numbereds?, snapshot table_snapshot?
listed: table_id str, name str, spec table_spec, status table_status
seat_view: seat int, stack int, bet int, contributed int, folded bool, all_in bool, \
up_cards cards, down_cards cards?
hand_view: hand_id str, viewer int?, street int, to_act int?, bring_in_seat int?, pot int, \
current_bet int, community_card card?, seats seat_views, legal_actions legal_actions, is_over bool
seat_snapshot: seat int, player str, chips int, bot bool, sitting_out bool, connected bool, \
in_hand bool
offer_snapshot: seat int, player str, seconds_left float
table_snapshot: table_id str, seq int, seats seat_snapshots, hand hand_view?, hand_seats seats, \
turn timer?, waiting_list strs, offer offer_snapshot?
table_spec: game str, ante int, bring_in int, small_bet int, big_bet int, structure str, \
seats int, min_buy_in int, max_buy_in int, action_seconds int, time_bank_seconds int, \
reconnect_seconds int, rake_percent str, rake_cap int?, bots int, bot_policy str, \
between_hands float, showdown_seconds float, bot_delay float, offer_seconds float, \
timeout_policy str, sit_out_seconds float
table_status: table_id str, players strs, waiting int, hands_played int, average_pot float, \
hands_per_hour float, paused str?
event sit: seat int, player str, chips int, bot bool
event leave: seat int, player str, chips int, reason str
event top_up: seat int, amount int, chips int
event sit_out: seat int, reason str
event come_back: seat int
event disconnected: seat int
event reconnected: seat int
event hand_start: hand_id str, stacks pairs
event timer: seat int, phase str, seconds float, deadline float
event waiting_list: players strs
event seat_offered: seat int, player str, seconds float
event hand_finish: hand_id str, cancelled bool
hand event ante: seat, amount, all_in
hand event street: street
hand event deal: seat, card, face_up, street
hand event community: card
hand event first_to_act: street, seat
hand event bring_in: seat, amount, all_in
hand event complete: seat, to, adds, all_in
hand event bet: seat, to, adds, all_in
hand event raise: seat, to, adds, all_in
hand event call: seat, to, adds, all_in
hand event check: seat
hand event fold: seat
hand event timeout: seat, outcome
hand event uncalled: seat, amount
hand event show: seat, cards, high, low
hand event muck: seat
hand event rake: amount
hand event award: pot, seat, amount, half
hand event end: stacks
hand event cancel: refunds, reason
legal_action: kind, min_to, max_to, adds, all_in; action: kind, amount""",
    # format 3: a table_spec gained sit_out_on_timeout
    3: """format 3
reply: ok bool, reason str, seq int
sit: player str, command_id str?, seat int, amount int
seat_bot: player str, command_id str?, seat int, amount int, policy str, seed int?
top_up: player str, command_id str?, amount int
sit_out: player str, command_id str?
come_back: player str, command_id str?
leave: player str, command_id str?, reason str
act: player str, command_id str?, action action
connect: player str, command_id str?
disconnect: player str, command_id str?
join_waitlist: player str, command_id str?
leave_waitlist: player str, command_id str?
numbered: seq int, event event, seats seats?, legal legal_actions?
catch_up: seq int, events numbereds?, snapshot table_snapshot?
listed: table_id str, name str, spec table_spec, status table_status
seat_view: seat int, stack int, bet int, contributed int, folded bool, all_in bool, \
up_cards cards, down_cards cards?
hand_view: hand_id str, viewer int?, street int, to_act int?, bring_in_seat int?, pot int, \
current_bet int, community_card card?, seats seat_views, legal_actions legal_actions, is_over bool
seat_snapshot: seat int, player str, chips int, bot bool, sitting_out bool, connected bool, \
in_hand bool
offer_snapshot: seat int, player str, seconds_left float
table_snapshot: table_id str, seq int, seats seat_snapshots, hand hand_view?, hand_seats seats, \
turn timer?, waiting_list strs, offer offer_snapshot?
table_spec: game str, ante int, bring_in int, small_bet int, big_bet int, structure str, \
seats int, min_buy_in int, max_buy_in int, action_seconds int, time_bank_seconds int, \
reconnect_seconds int, rake_percent str, rake_cap int?, bots int, bot_policy str, \
between_hands float, showdown_seconds float, bot_delay float, offer_seconds float, \
timeout_policy str, sit_out_seconds float, sit_out_on_timeout bool
table_status: table_id str, players strs, waiting int, hands_played int, average_pot float, \
hands_per_hour float, paused str?
event sit: seat int, player str, chips int, bot bool
event leave: seat int, player str, chips int, reason str
event top_up: seat int, amount int, chips int
event sit_out: seat int, reason str
event come_back: seat int
event disconnected: seat int
event reconnected: seat int
event hand_start: hand_id str, stacks pairs
event timer: seat int, phase str, seconds float, deadline float
event waiting_list: players strs
event seat_offered: seat int, player str, seconds float
event hand_finish: hand_id str, cancelled bool
hand event ante: seat, amount, all_in
hand event street: street
hand event deal: seat, card, face_up, street
hand event community: card
hand event first_to_act: street, seat
hand event bring_in: seat, amount, all_in
hand event complete: seat, to, adds, all_in
hand event bet: seat, to, adds, all_in
hand event raise: seat, to, adds, all_in
hand event call: seat, to, adds, all_in
hand event check: seat
hand event fold: seat
hand event timeout: seat, outcome
hand event uncalled: seat, amount
hand event show: seat, cards, high, low
hand event muck: seat
hand event rake: amount
hand event award: pot, seat, amount, half
hand event end: stacks
hand event cancel: refunds, reason
legal_action: kind, min_to, max_to, adds, all_in; action: kind, amount""",
    # format 4: the chat (a command, an event), a table_spec's observer_chat and private
    4: """format 4
reply: ok bool, reason str, seq int
sit: player str, command_id str?, seat int, amount int
seat_bot: player str, command_id str?, seat int, amount int, policy str, seed int?
top_up: player str, command_id str?, amount int
sit_out: player str, command_id str?
come_back: player str, command_id str?
leave: player str, command_id str?, reason str
act: player str, command_id str?, action action
connect: player str, command_id str?
disconnect: player str, command_id str?
join_waitlist: player str, command_id str?
leave_waitlist: player str, command_id str?
chat: player str, command_id str?, text str
numbered: seq int, event event, seats seats?, legal legal_actions?
catch_up: seq int, events numbereds?, snapshot table_snapshot?
listed: table_id str, name str, spec table_spec, status table_status
seat_view: seat int, stack int, bet int, contributed int, folded bool, all_in bool, \
up_cards cards, down_cards cards?
hand_view: hand_id str, viewer int?, street int, to_act int?, bring_in_seat int?, pot int, \
current_bet int, community_card card?, seats seat_views, legal_actions legal_actions, \
is_over bool
seat_snapshot: seat int, player str, chips int, bot bool, sitting_out bool, connected bool, \
in_hand bool
offer_snapshot: seat int, player str, seconds_left float
table_snapshot: table_id str, seq int, seats seat_snapshots, hand hand_view?, \
hand_seats seats, turn timer?, waiting_list strs, offer offer_snapshot?, tournament tournament?
table_spec: game str, ante int, bring_in int, small_bet int, big_bet int, structure str, \
seats int, min_buy_in int, max_buy_in int, action_seconds int, time_bank_seconds int, \
reconnect_seconds int, rake_percent str, rake_cap int?, bots int, bot_policy str, \
between_hands float, showdown_seconds float, bot_delay float, offer_seconds float, \
timeout_policy str, sit_out_seconds float, sit_out_on_timeout bool, observer_chat bool, \
private bool
table_status: table_id str, players strs, waiting int, hands_played int, average_pot float, \
hands_per_hour float, paused str?
event sit: seat int, player str, chips int, bot bool
event leave: seat int, player str, chips int, reason str
event top_up: seat int, amount int, chips int
event sit_out: seat int, reason str
event come_back: seat int
event disconnected: seat int
event reconnected: seat int
event hand_start: hand_id str, stacks pairs
event timer: seat int, phase str, seconds float, deadline float
event waiting_list: players strs
event seat_offered: seat int, player str, seconds float
event hand_finish: hand_id str, cancelled bool
event chat: player str, text str, seat int?, hand_id str?
event tournament: tournament_id int, name str, table_number int, phase str, level int, \
ante int, bring_in int, small_bet int, big_bet int, next_ante int, next_bring_in int, \
next_small_bet int, next_big_bet int, seconds_left float, on_break bool, players_left int, \
entries int, average_stack int, prize_pool int, standings strs, prizes pairs, results strs, \
result_prizes pairs, notice str
event moved: player str, to_table str, to_seat int, reason str
hand event ante: seat, amount, all_in
hand event street: street
hand event deal: seat, card, face_up, street
hand event community: card
hand event first_to_act: street, seat
hand event bring_in: seat, amount, all_in
hand event complete: seat, to, adds, all_in
hand event bet: seat, to, adds, all_in
hand event raise: seat, to, adds, all_in
hand event call: seat, to, adds, all_in
hand event check: seat
hand event fold: seat
hand event timeout: seat, outcome
hand event uncalled: seat, amount
hand event show: seat, cards, high, low
hand event muck: seat
hand event rake: amount
hand event award: pot, seat, amount, half
hand event end: stacks
hand event cancel: refunds, reason
legal_action: kind, min_to, max_to, adds, all_in; action: kind, amount""",
    # format 5: the tournament event carries each seat's place at its table (places), not
    # the whole standings nor the prizes (the lobby's, over REST); a seat_snapshot's out_reason
    5: """format 5
reply: ok bool, reason str, seq int
sit: player str, command_id str?, seat int, amount int
seat_bot: player str, command_id str?, seat int, amount int, policy str, seed int?
top_up: player str, command_id str?, amount int
sit_out: player str, command_id str?
come_back: player str, command_id str?
leave: player str, command_id str?, reason str
act: player str, command_id str?, action action
connect: player str, command_id str?
disconnect: player str, command_id str?
join_waitlist: player str, command_id str?
leave_waitlist: player str, command_id str?
chat: player str, command_id str?, text str
numbered: seq int, event event, seats seats?, legal legal_actions?
catch_up: seq int, events numbereds?, snapshot table_snapshot?
listed: table_id str, name str, spec table_spec, status table_status
seat_view: seat int, stack int, bet int, contributed int, folded bool, all_in bool, \
up_cards cards, down_cards cards?
hand_view: hand_id str, viewer int?, street int, to_act int?, bring_in_seat int?, pot int, \
current_bet int, community_card card?, seats seat_views, legal_actions legal_actions, \
is_over bool
seat_snapshot: seat int, player str, chips int, bot bool, sitting_out bool, connected bool, \
in_hand bool, out_reason str
offer_snapshot: seat int, player str, seconds_left float
table_snapshot: table_id str, seq int, seats seat_snapshots, hand hand_view?, \
hand_seats seats, turn timer?, waiting_list strs, offer offer_snapshot?, tournament tournament?
table_spec: game str, ante int, bring_in int, small_bet int, big_bet int, structure str, \
seats int, min_buy_in int, max_buy_in int, action_seconds int, time_bank_seconds int, \
reconnect_seconds int, rake_percent str, rake_cap int?, bots int, bot_policy str, \
between_hands float, showdown_seconds float, bot_delay float, offer_seconds float, \
timeout_policy str, sit_out_seconds float, sit_out_on_timeout bool, observer_chat bool, \
private bool
table_status: table_id str, players strs, waiting int, hands_played int, average_pot float, \
hands_per_hour float, paused str?
event sit: seat int, player str, chips int, bot bool
event leave: seat int, player str, chips int, reason str
event top_up: seat int, amount int, chips int
event sit_out: seat int, reason str
event come_back: seat int
event disconnected: seat int
event reconnected: seat int
event hand_start: hand_id str, stacks pairs
event timer: seat int, phase str, seconds float, deadline float
event waiting_list: players strs
event seat_offered: seat int, player str, seconds float
event hand_finish: hand_id str, cancelled bool
event chat: player str, text str, seat int?, hand_id str?
event tournament: tournament_id int, name str, table_number int, phase str, level int, \
ante int, bring_in int, small_bet int, big_bet int, next_ante int, next_bring_in int, \
next_small_bet int, next_big_bet int, seconds_left float, on_break bool, players_left int, \
entries int, average_stack int, prize_pool int, places pairs, results strs, \
result_prizes pairs, notice str
event moved: player str, to_table str, to_seat int, reason str
hand event ante: seat, amount, all_in
hand event street: street
hand event deal: seat, card, face_up, street
hand event community: card
hand event first_to_act: street, seat
hand event bring_in: seat, amount, all_in
hand event complete: seat, to, adds, all_in
hand event bet: seat, to, adds, all_in
hand event raise: seat, to, adds, all_in
hand event call: seat, to, adds, all_in
hand event check: seat
hand event fold: seat
hand event timeout: seat, outcome
hand event uncalled: seat, amount
hand event show: seat, cards, high, low
hand event muck: seat
hand event rake: amount
hand event award: pot, seat, amount, half
hand event end: stacks
hand event cancel: refunds, reason
legal_action: kind, min_to, max_to, adds, all_in; action: kind, amount""",
    # format 6: a snapshot's hand_log (the events of the hand on the table, for a
    # reload) and refunded (the hands a restart cancelled); the hand_refunded event;
    # the table_spec carries every option of RULES.md (all_in_low_card ...) and a
    # mixed table's rotation; the status and the snapshot its game (mixed_game); the
    # auto top-up (issue 28): the auto_top_up command, connect's auto_top_up, and the
    # top_up event's auto and short; a table_status's observers (how many watch
    # without a seat) and watchers (the logged-in ones, for the console) (format 6
    # was never released: changed in place)
    6: """format 6
reply: ok bool, reason str, seq int
sit: player str, command_id str?, seat int, amount int
seat_bot: player str, command_id str?, seat int, amount int, policy str, seed int?
top_up: player str, command_id str?, amount int
sit_out: player str, command_id str?
come_back: player str, command_id str?
leave: player str, command_id str?, reason str
act: player str, command_id str?, action action
auto_top_up: player str, command_id str?, on bool
connect: player str, command_id str?, auto_top_up bool
disconnect: player str, command_id str?
join_waitlist: player str, command_id str?
leave_waitlist: player str, command_id str?
chat: player str, command_id str?, text str
numbered: seq int, event event, seats seats?, legal legal_actions?
catch_up: seq int, events numbereds?, snapshot table_snapshot?
listed: table_id str, name str, spec table_spec, status table_status
seat_view: seat int, stack int, bet int, contributed int, folded bool, all_in bool, \
up_cards cards, down_cards cards?
hand_view: hand_id str, viewer int?, street int, to_act int?, bring_in_seat int?, pot int, \
current_bet int, community_card card?, seats seat_views, legal_actions legal_actions, \
is_over bool
seat_snapshot: seat int, player str, chips int, bot bool, sitting_out bool, connected bool, \
in_hand bool, out_reason str
offer_snapshot: seat int, player str, seconds_left float
table_snapshot: table_id str, seq int, seats seat_snapshots, hand hand_view?, \
hand_seats seats, turn timer?, waiting_list strs, offer offer_snapshot?, tournament tournament?, \
hand_log numbereds, refunded hand_refunded_events, mixed mixed_game?
table_spec: game str, ante int, bring_in int, small_bet int, big_bet int, structure str, \
seats int, min_buy_in int, max_buy_in int, action_seconds int, time_bank_seconds int, \
reconnect_seconds int, rake_percent str, rake_cap int?, bots int, bot_policy str, \
between_hands float, showdown_seconds float, bot_delay float, offer_seconds float, \
timeout_policy str, sit_out_seconds float, sit_out_on_timeout bool, observer_chat bool, \
private bool, all_in_low_card str, first_to_act_tie str, big_bet_street int, \
open_pair_big_bet bool, raise_cap int?, heads_up_cap str, community_card_first_to_act str, \
show_order_no_bet str, rake_third_street bool, odd_chip_half str, odd_chip str, \
rotation str, rotation_hands int?
table_status: table_id str, players strs, waiting int, hands_played int, average_pot float, \
hands_per_hour float, paused str?, observers int, game str, watchers strs
event sit: seat int, player str, chips int, bot bool
event leave: seat int, player str, chips int, reason str
event top_up: seat int, amount int, chips int, auto bool, short int
event sit_out: seat int, reason str
event come_back: seat int
event disconnected: seat int
event reconnected: seat int
event hand_start: hand_id str, stacks pairs
event timer: seat int, phase str, seconds float, deadline float
event waiting_list: players strs
event seat_offered: seat int, player str, seconds float
event hand_finish: hand_id str, cancelled bool
event hand_refunded: hand_id str, number str
event chat: player str, text str, seat int?, hand_id str?
event tournament: tournament_id int, name str, table_number int, phase str, level int, \
ante int, bring_in int, small_bet int, big_bet int, next_ante int, next_bring_in int, \
next_small_bet int, next_big_bet int, seconds_left float, on_break bool, players_left int, \
entries int, average_stack int, prize_pool int, places pairs, results strs, \
result_prizes pairs, notice str
event mixed_game: game str, next_game str, hands_left int, mixed str, notice str
event moved: player str, to_table str, to_seat int, reason str
hand event ante: seat, amount, all_in
hand event street: street
hand event deal: seat, card, face_up, street
hand event community: card
hand event first_to_act: street, seat
hand event bring_in: seat, amount, all_in
hand event complete: seat, to, adds, all_in
hand event bet: seat, to, adds, all_in
hand event raise: seat, to, adds, all_in
hand event call: seat, to, adds, all_in
hand event check: seat
hand event fold: seat
hand event timeout: seat, outcome
hand event uncalled: seat, amount
hand event show: seat, cards, high, low
hand event muck: seat
hand event rake: amount
hand event award: pot, seat, amount, half
hand event end: stacks
hand event cancel: refunds, reason
legal_action: kind, min_to, max_to, adds, all_in; action: kind, amount""",
}


# ---------------------------------------------------------------- hostile
SIT = b'[6,"sit","ann",null,2,50]'
REPLY = b'[6,"reply",true,"",41]'
TIMER = b'{"k":"timer","seat":3,"phase":"action","seconds":10.0,"deadline":1015.0}'


def numbered(event: bytes, seats: bytes = b"null", legal: bytes = b"null") -> bytes:
    return b'[6,"numbered",9,' + event + b"," + seats + b"," + legal + b"]"


def snapshot(seats: bytes = b"[]", turn: bytes = b"null") -> bytes:
    body = b'["t1",5,' + seats + b",null,[]," + turn + b",[],null,null,[],[],null]"
    return b'[6,"catch_up",5,null,' + body + b"]"


HOSTILE: list[tuple[Callable[[bytes], Any], bytes, str, str]] = [
    # decoder, bytes, the error's path, words of its reason
    (decode_reply, b"", "reply", "is not JSON"),
    (decode_reply, REPLY[:-3], "reply", "is not JSON"),
    (decode_reply, b"\xff\xfe[1]", "reply", "is not UTF-8"),
    (decode_reply, REPLY + b" x", "reply", "has more after its JSON"),
    (decode_reply, b" " + REPLY, "reply", "is not JSON"),
    (decode_reply, b"[" * 200_000, "reply", "cannot be read"),
    (decode_reply, b'[6,"reply",true,"",' + b"9" * 5000 + b"]", "reply", "cannot be read"),
    (decode_reply, b'{"v":1,"k":"reply"}', "reply", "must be a list [format, kind, ...]"),
    (decode_reply, b"[1]", "reply", "must be a list [format, kind, ...]"),
    (decode_reply, REPLY.replace(b"[6,", b"[7,"), "reply", "format 7 is newer than this node"),
    (decode_reply, REPLY.replace(b"[6,", b"[5,"), "reply", "format 5 is no longer read"),
    (decode_reply, REPLY.replace(b"[6,", b"[4,"), "reply", "format 4 is no longer read"),
    (decode_reply, REPLY.replace(b"[6,", b"[3,"), "reply", "format 3 is no longer read"),
    (decode_reply, REPLY.replace(b"[6,", b"[2,"), "reply", "format 2 is no longer read"),
    (decode_reply, REPLY.replace(b"[6,", b'["5",'), "reply", "format must be a whole number"),
    (decode_reply, REPLY.replace(b"[6,", b"[5.0,"), "reply", "format must be a whole number"),
    (decode_reply, REPLY[:-1] + b",0]", "reply", "must be [format, kind, ok, reason, seq]"),
    (decode_reply, REPLY.replace(b"41", b"9223372036854775808"), "reply.seq", "fit in 64 bits"),
    (decode_reply, REPLY.replace(b"41", b"41.0"), "reply.seq", "must be a whole number"),
    (decode_reply, REPLY.replace(b"41", b"true"), "reply.seq", "must be a whole number"),
    (decode_reply, REPLY.replace(b"true", b"1"), "reply.ok", "must be true or false"),
    (decode_numbered, REPLY, "numbered", "must be a numbered message, got 'reply'"),
    (decode_command, REPLY, "command", "kind must be one of sit, seat_bot"),
    (decode_command, SIT.replace(b"50", b'"50"'), "sit.amount", "must be a whole number"),
    (decode_command, SIT.replace(b",50", b""), "sit", "must be a list of its 4 fields"),
    (decode_command, SIT.replace(b'"ann"', b"null"), "sit.player", "must be a string"),
    (decode_command, b'[6,"act","a",null,["fold",5]]', "act.action", "fold takes no amount"),
    (decode_command, b'[6,"act","a",null,["jump",null]]', "act.action.kind", "must be one of"),
    (decode_command, b'[6,"act","a",null,"fold"]', "act.action", "must be [kind, amount]"),
    # JSON has no NaN nor Infinity, and a float beyond any range is none
    (decode_numbered, numbered(TIMER.replace(b"10.0", b"NaN")), "numbered", "is not JSON"),
    (decode_numbered, numbered(TIMER.replace(b"10.0", b"1e999")), "numbered", "cannot be read"),
    (decode_numbered, numbered(TIMER.replace(b"10.0", b"-Infinity")), "numbered", "is not JSON"),
    (decode_numbered, numbered(TIMER.replace(b'"action"', b"1")), "numbered.event.phase", "string"),
    (decode_numbered, numbered(TIMER[:-1] + b',"x":1}'), "numbered.event", "unknown ['x']"),
    (
        decode_numbered,
        numbered(TIMER.replace(b'"seat":3,', b"")),
        "numbered.event",
        "lacks ['seat']",
    ),
    (decode_numbered, numbered(b'{"k":"explode"}'), "numbered.event", "unknown event kind"),
    (decode_numbered, numbered(b'{"seat":1}'), "numbered.event", "unknown event kind"),
    (decode_numbered, numbered(b"[]"), "numbered.event", "must be an event object"),
    (decode_numbered, numbered(b'{"k":"fold","seat":1,"t":"2026-01-01"}'), "numbered.event", "'t'"),
    (decode_numbered, numbered(b'{"k":"fold","seat":1,"x":2}'), "numbered.event", "unknown fields"),
    (decode_numbered, numbered(b'{"k":"fold","seat":"1"}'), "numbered.event", "whole number"),
    (
        decode_numbered,
        numbered(b'{"k":"deal","seat":1,"card":"Zz","face_up":true,"street":3}'),
        "numbered.event",
        "cannot read card 'Zz'",
    ),
    (
        decode_numbered,
        numbered(b'{"k":"end","stacks":[[1,100000000000000000000]]}'),
        "numbered.event",
        "numbers must fit in 64 bits",
    ),
    (
        decode_numbered,
        numbered(b'{"k":"show","seat":1,"cards":"As","high":99999,"low":null}'),
        "numbered.event",
        "high strength",
    ),
    (decode_numbered, numbered(TIMER, b'[[1,"a"],[1,"b"]]'), "numbered.seats", "each seat once"),
    (decode_numbered, numbered(TIMER, b'[[1,"a"],[2]]'), "numbered.seats[1]", "[seat, player]"),
    (decode_numbered, numbered(TIMER, b'{"1":"a"}'), "numbered.seats", "must be a list"),
    (decode_numbered, numbered(TIMER, legal=b'[["call",8,8,4]]'), "numbered.legal[0]", "[kind,"),
    (
        decode_numbered,
        numbered(TIMER, legal=b'[["fold",null,null,0,false],["call",8,8,4,0]]'),
        "numbered.legal[1].all_in",
        "true or false",
    ),
    (
        decode_catch_up,
        snapshot(
            b'[[1,"ann",100,false,false,true,true,""],[2,"bob","x",false,false,true,true,""]]'
        ),
        "catch_up.snapshot.seats[1].chips",
        "must be a whole number",
    ),
    (
        decode_catch_up,
        snapshot(turn=b'{"k":"come_back","seat":1}'),
        "catch_up.snapshot.turn",
        "must be a timer event",
    ),
    (
        decode_listed,
        b'[6,"listed","t1","Main",[],["t1",[],0,0,0.0,0.0,null,""]]',
        "listed.spec",
        "38",
    ),
]


@pytest.mark.parametrize(("decode", "data", "path", "words"), HOSTILE)
def test_hostile_bytes_are_refused_saying_what_and_where(
    decode: Callable[[bytes], Any], data: bytes, path: str, words: str
) -> None:
    with pytest.raises(BusCodecError) as caught:
        decode(data)
    assert caught.value.path == path, str(caught.value)
    assert words in caught.value.reason, str(caught.value)
    assert str(caught.value).startswith(f"{path}: ")


@pytest.mark.parametrize("decode", DECODERS)
def test_not_bytes_is_refused(decode: Callable[[Any], Any]) -> None:
    with pytest.raises(BusCodecError, match="must be bytes"):
        decode(REPLY.decode())
    with pytest.raises(BusCodecError, match="must be bytes"):
        decode(None)


def test_bytearray_and_memoryview_are_read() -> None:
    assert decode_reply(bytearray(REPLY)) == decode_reply(memoryview(REPLY)) == Reply(True, "", 41)


def test_what_cannot_be_sent_is_refused_when_encoding() -> None:
    class Shout(Command):
        pass

    with pytest.raises(BusCodecError, match="no bus form for the command"):
        encode_command(Shout(player="ann"))
    with pytest.raises(BusCodecError, match="not a Reply"):
        encode_reply((True, "", 1))  # type: ignore[arg-type]
    with pytest.raises(BusCodecError, match="not a Numbered"):
        encode_numbered(SeatTaken(1, "ann", 100))  # type: ignore[arg-type]
    with pytest.raises(BusCodecError, match="no bus form for the event"):
        encode_numbered(Numbered(1, "deal"))  # type: ignore[arg-type]
    with pytest.raises(BusCodecError, match="cannot be written as JSON"):
        encode_numbered(Numbered(1, TimerStarted(1, TurnPhase.ACTION, float("nan"), 0.0)))
    with pytest.raises(BusCodecError, match="not a CatchUp"):
        encode_catch_up(None)  # type: ignore[arg-type]
    with pytest.raises(BusCodecError, match="not a Listed"):
        encode_listed(TableStatus("t1"))  # type: ignore[arg-type]


# --------------------------------------------------------------- fuzzing
def samples() -> list[tuple[str, bytes]]:
    """Real messages of every kind, as bytes."""
    session = table_session()
    out = [("command", encode_command(c)) for c in session.commands[::10]]
    out += [("numbered", encode_numbered(n)) for n in session.numbered[::7]]
    out += [("catch_up", encode_catch_up(c)) for c in session.catch_ups[::3]]
    out += [("reply", encode_reply(r)) for r in session.replies[:5]]
    spec = TableSpec(rake_cap=4)
    out += [
        ("listed", encode_listed(Listed(s.table_id, "M", spec, s))) for s in session.statuses[:5]
    ]
    return out


SAMPLES = samples()
ODD_VALUES: list[Any] = [None, True, False, 0, -1, 3, 2**63, -(2**63), 10**30, 0.5, -0.0]
ODD_VALUES += [float("inf"), float("nan"), "", "x", "As", "fold", "sit", [], [None], [[1, "a"]]]
ODD_VALUES += [{}, {"k": "sit"}, {"k": "fold", "seat": 1}, [1, "reply", True, "", 1]]


def places(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, list):
        for i, item in enumerate(node):
            yield from places(item, (*path, i))
    elif isinstance(node, dict):
        for key, item in node.items():
            yield from places(item, (*path, key))


def changed(node: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    if not path:
        return value if how == "replace" else node
    head, rest = path[0], path[1:]
    copy = list(node) if isinstance(node, list) else dict(node)
    if rest:
        copy[head] = changed(node[head], rest, how, value)
    elif how == "replace":
        copy[head] = value
    elif how == "delete":
        del copy[head]
    elif isinstance(copy, list):
        copy.insert(head, value)
    else:
        copy["x" if head != "x" else "y"] = value
    return copy


def outcome(decode: Callable[[Any], Any], data: Any) -> object:
    try:
        return decode(data)
    except BusCodecError as e:
        return str(e)


def check_decodes_or_refuses(kind: str, data: bytes) -> None:
    """Only BusCodecError; what is read is a real message, written back the same; and
    the quick way (bytes of a numbered message) reads as the long way does (any
    other buffer)."""
    encode, decode = CODECS[kind]
    got = outcome(decode, data)
    assert_same(outcome(decode, bytearray(data)), got)
    if not isinstance(got, str):
        assert_same(decode(encode(got)), got)


@settings(max_examples=400)
@given(st.data())
def test_damaged_messages_are_read_or_refused_with_bus_codec_error(data: st.DataObject) -> None:
    kind, raw = data.draw(st.sampled_from(SAMPLES))
    tree = json.loads(raw)
    path = data.draw(st.sampled_from(list(places(tree))))
    how = data.draw(st.sampled_from(["replace", "delete", "insert"]))
    value = data.draw(st.sampled_from(ODD_VALUES))
    damaged = json.dumps(changed(tree, path, how, value)).encode()
    check_decodes_or_refuses(kind, damaged)
    for other in CODECS:
        check_decodes_or_refuses(other, damaged)


@settings(max_examples=200)
@given(st.data())
def test_cut_or_flipped_bytes_are_refused_with_bus_codec_error(data: st.DataObject) -> None:
    kind, raw = data.draw(st.sampled_from(SAMPLES))
    cut = data.draw(st.integers(0, len(raw) - 1))
    check_decodes_or_refuses(kind, raw[:cut])
    at = data.draw(st.integers(0, len(raw) - 1))
    flipped = raw[:at] + bytes([data.draw(st.integers(0, 255))]) + raw[at + 1 :]
    check_decodes_or_refuses(kind, flipped)


@given(st.binary(max_size=300))
def test_random_bytes_are_refused_with_bus_codec_error(data: bytes) -> None:
    for decode in DECODERS:
        with pytest.raises(BusCodecError):
            decode(data)


def test_a_hand_s_huge_stacks_are_refused_and_64_bit_ones_read() -> None:
    biggest = HandEnded(((1, 2**63 - 1), (2, -(2**63) + 1)))
    round_trip("numbered", Numbered(1, biggest))
    with pytest.raises(BusCodecError, match="fit in 64 bits"):
        decode_numbered(encode_numbered(Numbered(1, HandEnded(((1, 2**63),)))))
