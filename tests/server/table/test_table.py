"""The table runtime: commands, replies, hands through the engine, the books, events."""

from __future__ import annotations

import asyncio

from server.tableharness import PLAYERS, Harness, play_passively, run, seat_players
from stud8.core.actions import make_action
from stud8.core.events import HandMucked, HandShown
from stud8.formats.pokerstars.write import hand_number
from stud8.server.table.commands import (
    Act,
    Leave,
    SeatBot,
    Sit,
    TopUp,
)
from stud8.server.table.events import (
    HandFinished,
    SeatLeft,
    TimerStarted,
)


def test_two_players_play_a_hand_to_showdown() -> None:
    async def body(h: Harness) -> None:
        await seat_players(h, 2)
        assert h.table.hand is None  # the next hand waits for its start time
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None and hand.seats == (1, 2)
        hand_id = hand.hand_id
        await play_passively(h)
        assert h.table.hand is None
        assert hand.result is not None and hand.result.showdown
        assert sum(isinstance(e, HandShown) for e in hand.events) >= 1
        assert len(h.records) == 1 and h.records[0].hand_id == hand_id
        record = h.records[0]
        assert record.table == "t1" and all(t is not None for t in record.times)
        assert hand_id in h.books.settled
        assert hand.result is not None
        for seat, player in ((1, "ann"), (2, "bob")):
            assert h.table.seats[seat].chips == hand.result.stacks[seat]
            assert h.books.on_table("t1", player) == hand.result.stacks[seat]
        assert h.books.audit()

    run(body)


def test_rule_7_every_hand_has_a_unique_id_and_every_event_its_time() -> None:
    """RULES.md 7: "Every hand has a unique id and a complete history: ... every
    decision with its time" (the record's ``times``: one for each event, the
    decisions' among them). Three players play three hands to the showdown."""

    async def body(h: Harness) -> None:
        await seat_players(h, 3)
        ids = []
        for _ in range(3):
            await h.advance(5)
            assert h.table.hand is not None and h.table.hand.seats == (1, 2, 3)
            ids.append(h.table.hand.hand_id)
            await play_passively(h)
        # each id is its PokerStars number: 18 digits, the same number everywhere
        assert len(set(ids)) == 3 and all(len(i) == 18 and i.isdigit() for i in ids)
        assert all(hand_number(i) == int(i) for i in ids)
        assert [r.hand_id for r in h.records] == ids
        assert all(
            sum(isinstance(e, (HandShown, HandMucked)) for e in r.events) == 3 for r in h.records
        )
        for record in h.records:  # each event, each decision's too, with the time it fell
            times = [t for t in record.times if t is not None]
            assert len(times) == len(record.events), record.hand_id
            assert times == sorted(times)
        total = sum(h.books.on_table("t1", p) for p in PLAYERS) + h.books.rake
        assert total == 300 and h.books.audit()

    run(body)


def test_a_repeated_command_id_is_applied_once_and_answered_the_same() -> None:
    async def body(h: Harness) -> None:
        sit = Sit(player="ann", seat=1, amount=100, command_id="s1")
        first = await h.send(sit)
        again = await h.send(sit)
        assert first.ok and again == first
        assert h.books.balance("ann") == 900  # bought in once
        await h.send(Sit(player="bob", seat=2, amount=100))
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None
        seat = hand.to_act
        assert seat is not None
        player = h.table.seats[seat].player
        act = Act(player=player, action=make_action("bring_in"), command_id="a1")
        reply = await h.send(act)
        n_events, to_act = len(hand.events), hand.to_act
        assert reply.ok and to_act != seat
        assert await h.send(act) == reply  # not his turn any more, yet the same answer
        assert len(hand.events) == n_events and hand.to_act == to_act
        # a refusal is remembered too
        bad = Act(player=player, action=make_action("call"), command_id="a2")
        refused = await h.send(bad)
        assert not refused.ok and await h.send(bad) == refused

    run(body)


def test_bad_commands_are_refused_with_a_reason_and_change_nothing() -> None:
    async def body(h: Harness) -> None:
        await seat_players(h, 2)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None and hand.to_act is not None
        to_act = hand.to_act
        mover = h.table.seats[to_act].player
        other = h.table.seats[3 - to_act].player

        def state() -> tuple[object, ...]:
            assert hand is not None
            return (
                h.table.last_seq,
                len(hand.events),
                hand.to_act,
                h.table.seats[1].chips,
                h.table.seats[2].chips,
                h.books.balance("ann"),
                h.books.balance("bob"),
                h.books.balance("cat"),
            )

        before = state()
        cases = [
            (h.act(other, "call"), "not your turn"),
            (h.act(mover, "complete", 5), "complete"),  # fixed limit: to 4 only
            (h.act(mover, "raise", 8), "not allowed"),
            (h.act("cat", "call"), "not seated"),
            (TopUp(player=mover, amount=10), "between hands"),
            (Sit(player="cat", seat=1, amount=50), "taken"),
            (Sit(player="cat", seat=3, amount=500), "buy-in"),
            (Sit(player="cat", seat=9, amount=50), "seats run"),
            (Sit(player="ann", seat=4, amount=50), "already seated"),
        ]
        for command, why in cases:
            reply = await h.send(command)
            assert not reply.ok and why in reply.reason, (command, reply)
            assert state() == before, command

    run(body)


def test_a_buy_in_the_bank_refuses_is_refused() -> None:
    async def body(h: Harness) -> None:
        reply = await h.send(Sit(player="ann", seat=1, amount=100))
        assert not reply.ok and "account" in reply.reason
        assert h.table.seats == {} and h.table.last_seq == 0

    run(body, accounts={"ann": 50})


def test_top_up_between_hands_within_the_table_maximum() -> None:
    async def body(h: Harness) -> None:
        await seat_players(h, 2)
        reply = await h.send(TopUp(player="ann", amount=100))
        assert reply.ok and h.table.seats[1].chips == 200
        assert h.books.on_table("t1", "ann") == 200 and h.books.balance("ann") == 800
        reply = await h.send(TopUp(player="ann", amount=1))
        assert not reply.ok and "at most 200" in reply.reason

    run(body)


def test_two_commands_racing_for_the_same_turn_one_applies() -> None:
    async def body(h: Harness) -> None:
        await seat_players(h, 2)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None and hand.to_act is not None
        mover = h.table.seats[hand.to_act].player
        replies = await asyncio.gather(
            h.table.submit(h.act(mover, "bring_in")),
            h.table.submit(h.act(mover, "complete")),
        )
        await h.settle()
        assert [r.ok for r in replies] == [True, False]
        assert "not your turn" in replies[1].reason
        assert len(hand.decisions) == 1

    run(body)


def test_leave_between_hands_cashes_out_and_the_next_hand_deals_him_out() -> None:
    async def body(h: Harness) -> None:
        await seat_players(h, 3)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None
        # leaving during a hand: he plays it out (here passively), then goes
        assert (await h.send(Leave(player="cat"))).ok
        assert 3 in h.table.seats
        await play_passively(h)
        assert 3 not in h.table.seats and hand.result is not None
        assert h.books.on_table("t1", "cat") == 0
        assert h.books.balance("cat") == 900 + hand.result.stacks[3]
        # bob leaves between hands: cashed out at once, dealt out of the next one
        bob_chips = h.table.seats[2].chips
        bob_before = h.books.balance("bob")
        assert (await h.send(Leave(player="bob"))).ok
        assert h.books.balance("bob") == bob_before + bob_chips
        left = [e.event for e in h.table.events_since(0) or [] if isinstance(e.event, SeatLeft)]
        assert left == [SeatLeft(3, "cat", hand.result.stacks[3]), SeatLeft(2, "bob", bob_chips)]
        await h.advance(5)
        assert h.table.hand is None  # ann alone: no hand
        assert (await h.send(Sit(player="bob", seat=5, amount=50))).ok
        await h.advance(5)
        assert h.table.hand is not None and h.table.hand.seats == (1, 5)
        assert h.books.audit()

    run(body)


def test_events_are_numbered_without_gaps_and_a_resumer_gets_exactly_the_missed() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 2)
        await h.advance(5)
        await play_passively(h)
        assert [e.seq for e in seen] == list(range(1, h.table.last_seq + 1))
        # a viewer who saw up to some event asks what he missed: exactly the rest
        last_seen = seen[len(seen) // 2].seq
        await h.advance(5)
        await play_passively(h)
        caught = await h.table.catch_up(last_seen)
        assert caught.snapshot is None and caught.seq == h.table.last_seq
        assert caught.events is not None
        assert [e.seq for e in caught.events] == list(range(last_seen + 1, h.table.last_seq + 1))
        assert list(caught.events) == [e for e in seen if e.seq > last_seen]  # the same, whole
        # a resume from the future, or without a last number: a snapshot; from now: nothing
        assert (await h.table.catch_up(10**6)).snapshot is not None
        assert (await h.table.catch_up(None)).snapshot is not None
        now = await h.table.catch_up(h.table.last_seq)
        assert now.events == () and now.snapshot is None

    run(body)


def test_a_resume_from_too_far_back_gets_a_whole_snapshot() -> None:
    async def body(h: Harness) -> None:
        await seat_players(h, 2)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None
        caught = await h.table.catch_up(1)
        snap = caught.snapshot
        assert caught.events is None and snap is not None
        assert snap.seq == caught.seq == h.table.last_seq and snap.hand is not None
        assert snap.hand.hand_id == hand.hand_id and snap.hand_seats == {1: "ann", 2: "bob"}
        # whole: every down card (what a viewer sees of it is the edge's business)
        assert all(c is not None for s in snap.hand.seats for c in s.down_cards)
        assert snap.turn is not None and snap.turn.seat == hand.to_act
        assert [s.player for s in snap.seats] == ["ann", "bob"]

    run(body, history_size=8)


def test_a_turn_s_clock_carries_the_legal_actions() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 2)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None
        [clock] = [e for e in seen if isinstance(e.event, TimerStarted)]
        assert isinstance(clock.event, TimerStarted) and clock.event.seat == hand.to_act
        assert clock.legal == tuple(hand.legal_actions())
        assert all(e.legal is None for e in seen if e is not clock)

    run(body)


def test_rule_7_cancelled_hand_refunds_through_the_books() -> None:
    async def body(h: Harness) -> None:
        await seat_players(h, 2)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None
        mover = h.table.seats[hand.to_act or 0].player
        assert (await h.send(h.act(mover, "bring_in"))).ok
        reply = await h.table.cancel_hand("server restart")
        await h.settle()
        assert reply.ok and hand.cancelled and h.table.hand is None
        assert hand.hand_id in h.books.refunded and hand.hand_id not in h.books.settled
        assert h.table.seats[1].chips == 100 and h.table.seats[2].chips == 100
        assert h.records[-1].hand_id == hand.hand_id
        finished = [e.event for e in h.table.events_since(0) or []]
        assert HandFinished(hand.hand_id, True) in finished
        refused = await h.table.cancel_hand("again")
        assert not refused.ok and "no hand" in refused.reason

    run(body)


async def fill_with_bots(h: Harness, names: tuple[str, ...]) -> None:
    for seat, name in enumerate(names, start=1):
        if seat not in h.table.seats:
            reply = await h.send(SeatBot(player=name, seat=seat, amount=200))
            assert reply.ok, reply


def test_bots_play_many_hands_and_chips_are_conserved_through_the_books() -> None:
    names = ("b1", "b2", "b3", "b4")

    async def body(h: Harness) -> None:
        for name in names:
            h.books.issue(name, 100_000)
        while h.table.hands_played < 60:
            await fill_with_bots(h, names)
            await h.advance(5)
            assert h.books.audit()
            if h.table.hand is None:
                for seat in h.table.seats.values():
                    assert seat.chips == h.books.on_table("t1", seat.player)
        assert len(h.books.settled) == 60 == len(h.records)
        in_play = sum(h.books.on_table("t1", n) for n in names)
        accounts = sum(h.books.balance(n) for n in (*names, *PLAYERS))
        # the bots' chips are issued as they sit (RoomBooks.sit(bot=True))
        assert accounts + in_play + h.books.rake == h.books.issued

    run(body)
