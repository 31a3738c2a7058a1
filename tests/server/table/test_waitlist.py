"""The waiting list over real websockets: joining and leaving it, the seat held for
the first player listed, an offer running out, the snapshot and the lobby."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.roomclient import Client, Room, run, serve, sit
from server.tableharness import Harness, play_passively
from stud8.core.cards import Deck
from stud8.core.rules import TableRules
from stud8.server.table.commands import (
    JoinWaitlist,
    Leave,
    SeatBot,
    Sit,
)
from stud8.server.table.events import Numbered, SeatOffered, WaitingListChanged
from stud8.server.table.owner import Table
from stud8.server.table.snapshot import OfferSnapshot
from stud8.server.table.spec import TableConfig, TableSpec

Msg = dict[str, Any]


def spec(offer_seconds: float) -> TableSpec:
    """Two seats, and no hand for a minute: the seats change only when told to."""
    return TableSpec(
        seats=2, between_hands=60.0, bot_delay=0.0, min_buy_in=40, offer_seconds=offer_seconds
    )


def event(kind: str) -> Any:
    return lambda m: m["t"] == "event" and m["d"]["k"] == kind


async def rejected(client: Client, t: str, why: str, **d: Any) -> None:
    reply = await client.command(t, **d)
    assert reply["t"] == "reject" and why in reply["d"]["reason"], reply


async def acked(client: Client, t: str, **d: Any) -> None:
    reply = await client.command(t, **d)
    assert reply["t"] == "ack", reply


async def waiting(room: Room) -> int:
    (table,) = (await room.http.get("/api/v1/tables")).json()["tables"]
    count = table["waiting"]
    assert isinstance(count, int)
    return count


def test_join_the_list_get_the_seat_offered_and_an_offer_runs_out() -> None:
    async def body() -> None:
        async with serve(spec=spec(offer_seconds=0.5)) as room:
            ann_t, bob_t, cat_t, dan_t = [
                await room.player(n) for n in ("ann", "bob", "cat", "dan")
            ]
            async with (
                room.connect(ann_t) as ann,
                room.connect(bob_t) as bob,
                room.connect(cat_t) as cat,
                room.connect(dan_t) as dan,
                room.connect() as watcher,
            ):
                await sit(room, ann, 1)
                await rejected(cat, "join_waitlist", "seat 2 is free")
                await rejected(watcher, "join_waitlist", "observers")
                await sit(room, bob, 2)
                await acked(cat, "join_waitlist")
                listed = await watcher.until(event("waiting_list"))
                assert listed["d"] == {"k": "waiting_list", "players": ["cat"]}
                await rejected(cat, "join_waitlist", "already on the waiting list")
                await rejected(ann, "join_waitlist", "seated")
                await acked(dan, "join_waitlist")
                listed = await watcher.until(event("waiting_list"))
                assert listed["d"]["players"] == ["cat", "dan"]
                assert await waiting(room) == 2
                async with room.connect() as late:
                    snap = await late.until(lambda m: m["t"] == "snapshot")
                    assert snap["d"]["waiting_list"] == ["cat", "dan"]
                    assert snap["d"]["offer"] is None

                # ann leaves: her seat is held for cat, the first listed
                await acked(ann, "leave")
                offered = await watcher.until(event("seat_offered"))
                assert offered["d"] == {
                    "k": "seat_offered",
                    "seat": 1,
                    "player": "cat",
                    "seconds": 0.5,
                }
                await rejected(dan, "sit", "held for cat", seat=1, amount=100)
                async with room.connect() as late:
                    snap = await late.until(lambda m: m["t"] == "snapshot")
                    offer = snap["d"]["offer"]
                    assert (offer["seat"], offer["player"]) == (1, "cat")
                    assert 0 < offer["seconds_left"] <= 0.5

                # cat lets the time run out: he leaves the list, dan is offered the seat
                listed = await watcher.until(event("waiting_list"), timeout=5)
                assert listed["d"]["players"] == ["dan"]
                offered = await watcher.until(event("seat_offered"))
                assert (offered["d"]["seat"], offered["d"]["player"]) == (1, "dan")
                await rejected(cat, "sit", "held for dan", seat=1, amount=100)
                # dan takes it: the offer ends, the list is empty
                await sit(room, dan, 1)
                listed = await watcher.until(event("waiting_list"))
                assert listed["d"]["players"] == []
                assert await waiting(room) == 0
                table = room.table()
                assert table.waiting.offer is None
                assert [s.player for _, s in sorted(table.seats.items())] == ["dan", "bob"]
                # the events came in order: sit, then the list without dan
                kinds = [m["d"]["k"] for m in watcher.messages if m["t"] == "event"]
                assert kinds[-2:] == ["sit", "waiting_list"]
            assert room.books.audit()

    run(body)


def test_leaving_the_list_and_an_offer_passed_on() -> None:
    async def body() -> None:
        async with serve(spec=spec(offer_seconds=30.0)) as room:
            names = ("ann", "bob", "cat", "dan", "eve")
            ann_t, bob_t, cat_t, dan_t, eve_t = [await room.player(n) for n in names]
            async with (
                room.connect(ann_t) as ann,
                room.connect(bob_t) as bob,
                room.connect(cat_t) as cat,
                room.connect(dan_t) as dan,
                room.connect(eve_t) as eve,
            ):
                await sit(room, ann, 1)
                await sit(room, bob, 2)
                for client in (cat, dan, eve):
                    await acked(client, "join_waitlist")
                await acked(eve, "leave_waitlist")
                await ann.until(lambda m: event("waiting_list")(m) and "eve" in m["d"]["players"])
                listed = await ann.until(event("waiting_list"))
                assert listed["d"]["players"] == ["cat", "dan"]
                await rejected(eve, "leave_waitlist", "not on the waiting list")

                # bob leaves: his seat is held for cat; cat leaves the list instead,
                # so it is offered to dan at once
                await acked(bob, "leave")
                offered = await ann.until(event("seat_offered"))
                assert (offered["d"]["seat"], offered["d"]["player"]) == (2, "cat")
                await rejected(eve, "sit", "held for cat", seat=2, amount=100)
                await acked(cat, "leave_waitlist")
                listed = await ann.until(event("waiting_list"))
                assert listed["d"]["players"] == ["dan"]
                offered = await ann.until(event("seat_offered"))
                assert (offered["d"]["seat"], offered["d"]["player"]) == (2, "dan")
                await rejected(cat, "sit", "held for dan", seat=2, amount=100)
                await sit(room, dan, 2)
                assert room.table().waiting.offer is None
                assert room.table().waiting.players == []
                # with nobody waiting, a seat that frees is free for anyone
                await acked(ann, "leave")
                await sit(room, eve, 1)
            assert room.books.audit()

    run(body)


# ---------------------------------------------------------------- on a manual clock


def test_a_seat_freed_at_the_end_of_a_hand_is_held_exactly_offer_seconds() -> None:
    """On the table runtime with a manual clock: cat leaves during a hand, so his
    seat frees when it ends; ann (listed) is offered it for exactly 10 seconds,
    a bot may not take it meanwhile, and after 10 seconds it passes to dan."""

    async def body() -> None:
        h = Harness(accounts={p: 1000 for p in ("ann", "bob", "cat", "dan", "bot1")})
        rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, max_seats=2)
        config = TableConfig(
            table_id="t1", rules=rules, min_buy_in=20, max_buy_in=200, offer_seconds=10.0
        )
        h.table = Table(config, books=h.books, clock=h.clock, deck_source=lambda: Deck.seeded(3))
        events: list[Numbered] = []
        h.table.listen(events.append)
        h.table.start()
        try:
            assert (await h.send(Sit(player="bob", seat=1, amount=100))).ok
            assert (await h.send(Sit(player="cat", seat=2, amount=100))).ok
            for name in ("ann", "dan"):
                assert (await h.send(JoinWaitlist(player=name))).ok
            await h.advance(2)  # the hand starts
            assert h.table.hand is not None
            assert (await h.send(Leave(player="cat"))).ok  # at the end of the hand
            assert h.table.waiting.offer is None
            await play_passively(h)
            offer = h.table.waiting.offer
            assert offer is not None and (offer.seat, offer.player) == (2, "ann")
            reply = await h.send(SeatBot(player="bot1", seat=2, amount=100))
            assert not reply.ok and "held for ann" in reply.reason
            await h.advance(9.9)
            assert h.table.waiting.players == ["ann", "dan"]
            await h.advance(0.1)
            offer = h.table.waiting.offer
            assert offer is not None and (offer.seat, offer.player) == (2, "dan")
            assert h.table.waiting.players == ["dan"]
            kinds = [
                (e.event.kind, getattr(e.event, "player", None))
                for e in events
                if isinstance(e.event, (SeatOffered, WaitingListChanged))
            ]
            assert kinds == [
                ("waiting_list", None),
                ("waiting_list", None),
                ("seat_offered", "ann"),
                ("waiting_list", None),
                ("seat_offered", "dan"),
            ]
            snap = h.table.snapshot()
            assert snap.waiting_list == ("dan",)
            assert snap.offer == OfferSnapshot(2, "dan", 10.0)
            assert (await h.send(Sit(player="dan", seat=2, amount=100))).ok
            assert h.table.waiting.offer is None and h.table.snapshot().offer is None
            assert h.books.audit()
        finally:
            await h.table.stop()

    asyncio.run(asyncio.wait_for(body(), 30))


def test_a_waiting_list_restored_holds_the_lowest_free_seat_for_its_first_player() -> None:
    """A table taken over from another node (a room on several nodes) comes back
    with the list its last owner left: in order, without a player seated here now,
    the lowest free seat held for the first (his clock starts again); a bot may not
    take that seat, and the next free seat goes to the next on the list."""

    async def body() -> None:
        h = Harness(accounts={p: 1000 for p in ("ann", "bob", "cat", "dan", "bot1")})
        rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, max_seats=3)
        config = TableConfig(
            table_id="t1",
            rules=rules,
            min_buy_in=20,
            max_buy_in=200,
            offer_seconds=10.0,
            between_hands=60.0,
        )
        h.table = Table(config, books=h.books, clock=h.clock, deck_source=lambda: Deck.seeded(3))
        events: list[Numbered] = []
        h.table.listen(events.append)
        h.table.restore_seat(2, "bob", 100)
        h.table.restore_waiting(["cat", "bob", "ann", "cat", "dan"])  # bob sits here now
        h.table.start()
        try:
            assert h.table.waiting.players == ["cat", "ann", "dan"]
            offer = h.table.waiting.offer
            assert offer is not None and (offer.seat, offer.player) == (1, "cat")
            assert h.table.snapshot().waiting_list == ("cat", "ann", "dan")
            reply = await h.send(SeatBot(player="bot1", seat=1, amount=100))
            assert not reply.ok and "held for cat" in reply.reason
            await h.advance(9.9)
            assert (await h.send(Sit(player="cat", seat=1, amount=100))).ok
            offer = h.table.waiting.offer
            assert offer is not None and (offer.seat, offer.player) == (3, "ann")
            assert h.table.waiting.players == ["ann", "dan"]
            told = [
                e.event for e in events if isinstance(e.event, (SeatOffered, WaitingListChanged))
            ]
            assert told[:2] == [
                WaitingListChanged(("cat", "ann", "dan")),
                SeatOffered(1, "cat", 10.0),
            ]
            with pytest.raises(RuntimeError, match="before the table starts"):
                h.table.restore_waiting(["eve"])
        finally:
            await h.table.stop()

    asyncio.run(asyncio.wait_for(body(), 30))
