"""The table runtime: commands, replies, hands through the engine, the books, events."""

from __future__ import annotations

import asyncio

from server.tableharness import PLAYERS, Harness, play_passively, run, seat_players
from stud8.core.events import CardDealt, HandEnded, HandMucked, HandShown
from stud8.server.table.commands import (
    Act,
    Leave,
    SeatBot,
    Sit,
    TopUp,
)
from stud8.server.table.events import (
    HandFinished,
    HandStarted,
    Numbered,
    SeatLeft,
    SeatTaken,
    visible_to,
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


def test_three_players_play_hands_to_showdown_and_hand_ids_are_unique() -> None:
    async def body(h: Harness) -> None:
        await seat_players(h, 3)
        ids = []
        for _ in range(3):
            await h.advance(5)
            assert h.table.hand is not None and h.table.hand.seats == (1, 2, 3)
            ids.append(h.table.hand.hand_id)
            await play_passively(h)
        assert len(set(ids)) == 3 and all(len(i) == 32 for i in ids)
        assert [r.hand_id for r in h.records] == ids
        assert all(
            sum(isinstance(e, (HandShown, HandMucked)) for e in r.events) == 3 for r in h.records
        )
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
        act = Act(player=player, kind="bring_in", command_id="a1")
        reply = await h.send(act)
        n_events, to_act = len(hand.events), hand.to_act
        assert reply.ok and to_act != seat
        assert await h.send(act) == reply  # not his turn any more, yet the same answer
        assert len(hand.events) == n_events and hand.to_act == to_act
        # a refusal is remembered too
        bad = Act(player=player, kind="call", command_id="a2")
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
            (h.act(mover, "call", 3), "takes no amount"),
            (h.act(mover, "dance"), "not an action"),
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
        seen: list[Numbered] = []
        h.table.subscribe("ann", seen.append)
        await seat_players(h, 2)
        await h.advance(5)
        await play_passively(h)
        assert [e.seq for e in seen] == list(range(1, h.table.last_seq + 1))
        # bob follows, drops after some events, comes back saying the last he saw
        bob: list[Numbered] = []
        sub = h.table.subscribe("bob", bob.append, last_seen=0)
        assert sub.snapshot is None and sub.replayed == h.table.last_seq
        sub.close()
        last_seen = bob[-1].seq
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None
        await play_passively(h)
        missed: list[Numbered] = []
        sub2 = h.table.subscribe("bob", missed.append, last_seen=last_seen)
        assert [e.seq for e in missed] == list(range(last_seen + 1, h.table.last_seq + 1))
        assert sub2.replayed == len(missed) and sub2.snapshot is None
        # the missed events are as bob may see them: his own down cards, not ann's
        bob_seat = next(s for s, p in h.table.seats.items() if p.player == "bob")
        downs = [e.event for e in missed if isinstance(e.event, CardDealt) and not e.event.face_up]
        assert downs and all((d.card is not None) == (d.seat == bob_seat) for d in downs)
        # and what ann got live is the same list, projected for her
        assert [e.seq for e in seen[-len(missed) :]] == [e.seq for e in missed]
        # a resume from the future, or nothing to resume: snapshot or nothing
        assert h.table.subscribe("bob", missed.append, last_seen=10**6).snapshot is not None
        assert h.table.subscribe(None, missed.append, last_seen=h.table.last_seq).replayed == 0

    run(body)


def test_a_resume_from_too_far_back_gets_a_snapshot() -> None:
    async def body(h: Harness) -> None:
        await seat_players(h, 2)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None
        got: list[Numbered] = []
        sub = h.table.subscribe("ann", got.append, last_seen=1)
        assert got == [] and sub.snapshot is not None
        snap = sub.snapshot
        assert snap.seq == h.table.last_seq and snap.hand is not None
        assert snap.viewer_seat == 1 and snap.hand_id == hand.hand_id
        assert all(c is not None for c in snap.hand.seat(1).down_cards)
        assert all(c is None for c in snap.hand.seat(2).down_cards)
        observer = h.table.subscribe(None, got.append).snapshot
        assert observer is not None and observer.hand is not None
        assert all(c is None for s in observer.hand.seats for c in s.down_cards)
        assert [s.player for s in observer.seats] == ["ann", "bob"]

    run(body, history_size=8)


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


def test_no_projected_event_carries_a_card_its_viewer_may_not_see() -> None:
    names = ("b1", "b2", "b3")

    async def body(h: Harness) -> None:
        for name in names:
            h.books.issue(name, 1_000_000)
        got: dict[str | None, list[Numbered]] = {n: [] for n in (*names, None)}
        for viewer, sink in got.items():
            h.table.subscribe(viewer, sink.append)
        while h.table.hands_played < 200:
            await fill_with_bots(h, names)
            await h.advance(5)
        last = h.table.last_seq
        own_seen = 0
        for viewer, items in got.items():
            assert [e.seq for e in items] == list(range(1, last + 1))
            seat_at_hand: int | None = None
            for item in items:
                event = item.event
                if isinstance(event, HandStarted):
                    seat_at_hand = item.seat_of(viewer)
                if isinstance(event, CardDealt) and not event.face_up and event.card is not None:
                    assert viewer is not None and event.seat == seat_at_hand, (viewer, item)
                    own_seen += 1
                if isinstance(event, HandShown):
                    pass  # shown to everyone at the showdown
        assert own_seen >= 3 * 200 * 2  # each bot saw at least his first two down cards
        # the projection leaves public events alone
        ended = next(e for e in got[None] if isinstance(e.event, HandEnded))
        assert visible_to(ended.event, None) is ended.event
        taken = next(e for e in got[None] if isinstance(e.event, SeatTaken))
        assert visible_to(taken.event, None) is taken.event

    run(body)
