"""A player dealt out for the table's ``sit_out_seconds`` is stood up, as real rooms
do: he leaves the table (a ``leave`` event, reason ``sat_out``) once he is in no
hand, his chips back to his account, and the seat goes to the waiting list.

On a manual clock (exactly when, and not during his hand), then on real servers on
127.0.0.1 with real websockets: the room in memory (sat out on request,
disconnected), and the room on a database (SQLite, and PostgreSQL when
``STUD8_TEST_POSTGRES_URL`` is set) where a player reseated after a restart who
does not come back is stood up through the ledger, and the audit balances.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable

from server.manualtable import ClockedTable
from server.roomclient import Room, serve
from server.roomdb import serving
from stud8.core.actions import make_action
from stud8.core.cards import Deck
from stud8.core.events import TimedOut
from stud8.core.rules import BettingStructure, TableRules
from stud8.server.books.ledger import bank, table_account
from stud8.server.books.memory import MemoryBooks
from stud8.server.books.seats import TableStore
from stud8.server.clock import ManualClock
from stud8.server.room.lobby import Lobby
from stud8.server.runtime import open_room
from stud8.server.settings import Settings
from stud8.server.table.commands import (
    Act,
    ComeBack,
    Command,
    Disconnect,
    JoinWaitlist,
    Reply,
    SeatBot,
    Sit,
    SitOut,
)
from stud8.server.table.events import HandFinished, LeaveReason, Numbered, SeatLeft, SeatOffered
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableConfig, TableSpec

RULES = TableRules(
    ante=1, bring_in=2, small_bet=4, big_bet=8, action_seconds=10, time_bank_seconds=20
)


class Harness(ClockedTable):
    """A table on a manual clock: ``sit_out_seconds`` 60."""

    def __init__(
        self,
        *,
        seats: int,
        between_hands: float,
        deck: str | None = None,
        structure: BettingStructure = BettingStructure.FIXED_LIMIT,
    ) -> None:
        self.clock = ManualClock()
        self.books = MemoryBooks({p: 1000 for p in ("ann", "bob", "cat", "dan", "bot1")})
        rules = dataclasses.replace(RULES, max_seats=seats, structure=structure)
        self.table = Table(
            TableConfig(
                table_id="t1",
                rules=rules,
                min_buy_in=20,
                max_buy_in=200,
                between_hands=between_hands,
                bot_delay=0.0,
                sit_out_seconds=60.0,
            ),
            books=self.books,
            clock=self.clock,
            deck_source=(lambda: Deck.from_cards(deck)) if deck else Deck.shuffled,
        )
        self.events: list[Numbered] = []
        self.table.listen(self.events.append)

    async def send(self, command: Command) -> Reply:
        reply = await super().send(command)
        assert reply.ok, reply
        return reply

    def left(self) -> list[SeatLeft]:
        return [e.event for e in self.events if isinstance(e.event, SeatLeft)]


def run(harness: Harness, body: Callable[[Harness], Awaitable[None]]) -> None:
    async def main() -> None:
        harness.table.start()
        try:
            await asyncio.wait_for(body(harness), timeout=30)
        finally:
            await harness.table.stop()

    asyncio.run(main())


def test_sat_out_for_sit_out_seconds_he_is_stood_up_and_the_seat_offered() -> None:
    """No hand is dealt (a long pause between hands): only the clock of the away."""

    async def body(h: Harness) -> None:
        await h.send(Sit(player="ann", seat=1, amount=100))
        await h.send(Sit(player="bob", seat=2, amount=150))
        await h.send(SeatBot(player="bot1", seat=3, amount=200, policy="rules"))
        await h.send(JoinWaitlist(player="cat"))  # the table is full
        await h.send(SitOut(player="bob"))
        await h.advance(59.99)
        assert 2 in h.table.seats and h.left() == []
        await h.advance(0.01)
        assert h.left() == [SeatLeft(2, "bob", 150, LeaveReason.SAT_OUT)]
        assert h.books.balance("bob") == 1000 and h.books.on_table("t1", "bob") == 0
        offered = [e.event for e in h.events if isinstance(e.event, SeatOffered)]
        assert [(o.seat, o.player) for o in offered] == [(2, "cat")]
        # coming back stops the count; sitting out again starts it afresh
        await h.send(SitOut(player="ann"))
        await h.advance(50)
        await h.send(ComeBack(player="ann"))
        await h.advance(50)
        await h.send(Disconnect(player="ann"))  # away again, from now
        await h.advance(59.5)
        assert 1 in h.table.seats
        await h.advance(0.5)
        assert h.left()[1:] == [SeatLeft(1, "ann", 100, LeaveReason.SAT_OUT)]
        assert h.books.balance("ann") == 1000
        # a bot is never away; an hour on, it is still seated
        await h.advance(3600)
        assert [s.player for s in h.table.seats.values()] == ["bot1"]
        assert h.books.audit()

    run(Harness(seats=3, between_hands=10_000), body)


# Seat 1 shows the 2c and brings in; seats 2 and 3 show kings.
DECK3 = "As Ah Ad Ks Kh Kc 2c Kd 3s"


def test_away_too_long_during_his_hand_he_is_stood_up_when_it_ends() -> None:
    """cat sits out as the hand starts; nobody acts, so the hand lasts 90 seconds (three
    turns of 10 + 20): at 60 he is still in it, and he goes when it ends."""

    async def body(h: Harness) -> None:
        for seat, name in enumerate(("ann", "bob", "cat"), start=1):
            await h.send(Sit(player=name, seat=seat, amount=100))
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None and hand.to_act == 1
        await h.send(SitOut(player="cat"))
        await h.advance(60)
        assert h.table.hand is hand and 3 in h.table.seats and h.left() == []
        await h.advance(30)
        # the bring-in posted for ann, then bob and cat folded by their clocks
        timed_out = [e for e in hand.events if isinstance(e, TimedOut)]
        assert [(t.seat, t.outcome) for t in timed_out] == [
            (1, "bring_in"),
            (2, "fold"),
            (3, "fold"),
        ]
        assert hand.is_over
        kinds = [type(e.event) for e in h.events]
        assert kinds.index(SeatLeft) > kinds.index(HandFinished)
        assert h.left() == [SeatLeft(3, "cat", 99, LeaveReason.SAT_OUT)]  # his ante is in the pot
        assert h.books.balance("cat") == 999 and h.books.audit()

    run(Harness(seats=3, between_hands=5, deck=DECK3), body)


# ann (seat 1): As Ks / Qs / Jd Jc 9d / 8s: jacks, no low. bob (seat 2): Ah Kh / 2c /
# 2d 2h 3c / 4c: three deuces, no low. bob's deuce brings in.
BROKE_DECK = "As Ah Ks Kh Qs 2c Jd 2d Jc 2h 9d 3c 8s 4c"


def test_a_player_left_without_chips_is_stood_up_too() -> None:
    """No limit: ann goes all-in for her 20 and loses them; with no chips she is not
    dealt in, and sit_out_seconds later she is stood up."""

    async def body(h: Harness) -> None:
        await h.send(Sit(player="ann", seat=1, amount=20))
        await h.send(Sit(player="bob", seat=2, amount=200))
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None and hand.to_act == 2
        await h.send(Act(player="bob", action=make_action("bring_in")))
        (complete,) = [a for a in hand.legal_actions() if a.kind.value == "complete"]
        await h.send(Act(player="ann", action=make_action("complete", complete.max_to)))
        assert complete.max_to == 19  # all she has after her ante
        await h.send(Act(player="bob", action=make_action("call")))
        assert hand.is_over and h.table.seats[1].chips == 0 and h.table.hand is None
        await h.advance(59.9)
        assert h.table.hand is None and 1 in h.table.seats
        await h.advance(0.1)
        assert h.left() == [SeatLeft(1, "ann", 0, LeaveReason.SAT_OUT)]
        assert h.books.balance("ann") == 980 and h.books.audit()

    run(
        Harness(seats=2, between_hands=5, deck=BROKE_DECK, structure=BettingStructure.NO_LIMIT),
        body,
    )


# ------------------------------------------------------------------ real servers
FAST = TableSpec(between_hands=60.0, bot_delay=0.0, seats=2, sit_out_seconds=0.4)


def test_the_room_in_memory_stands_up_the_sat_out_and_the_disconnected() -> None:
    async def body() -> None:
        async with serve(spec=FAST) as room:
            ann, bob, cat = [await room.player(n) for n in ("ann", "bob", "cat")]
            async with room.connect(cat) as c:
                async with room.connect(ann) as a:
                    assert (await a.command("sit", seat=1, amount=100))["t"] == "ack"
                    async with room.connect(bob) as b:
                        assert (await b.command("sit", seat=2, amount=200))["t"] == "ack"
                        assert (await c.command("join_waitlist"))["t"] == "ack"
                        assert (await b.command("sit_out"))["t"] == "ack"
                        left = await a.until(_leave("bob"), timeout=5)
                        assert left["d"] == {
                            "k": "leave",
                            "seat": 2,
                            "player": "bob",
                            "chips": 200,
                            "reason": "sat_out",
                        }
                        offer = await c.until(lambda m: _kind(m) == "seat_offered")
                        assert (offer["d"]["seat"], offer["d"]["player"]) == (2, "cat")
                        assert room.books.balance("bob") == 1000
                # ann's last connection closed: she is dealt out, then stood up
                left = await c.until(_leave("ann"), timeout=5)
                assert (left["d"]["chips"], left["d"]["reason"]) == (100, "sat_out")
            assert room.books.balance("ann") == 1000
            assert room.table().seats == {}
            assert room.books.audit()

    asyncio.run(asyncio.wait_for(body(), 30))


def _kind(msg: dict[str, object]) -> object:
    d = msg.get("d")
    return d.get("k") if msg["t"] == "event" and isinstance(d, dict) else None


def _leave(player: str) -> Callable[[dict[str, object]], bool]:
    def match(msg: dict[str, object]) -> bool:
        d = msg.get("d")
        return _kind(msg) == "leave" and isinstance(d, dict) and d["player"] == player

    return match


def test_the_room_on_a_database_stands_up_through_the_ledger(url: str) -> None:
    """First run: ann and bob sit at the ready table t1; bob sits out and is stood
    up. The room stops with ann seated; at the next start she is reseated, does not
    come back, and is stood up too: every chip is back in the banks."""
    settings = Settings(database_url=url, default_tables=1, bots_per_table=0, starting_chips=1000)
    env = {"STUD8_BETWEEN_HANDS": "60", "STUD8_BOT_DELAY": "0", "STUD8_SIT_OUT_SECONDS": "0.5"}

    async def first_run() -> None:
        opened = open_room(settings, env)
        try:
            async with serving(opened.app) as port:
                room = Room(port, MemoryBooks(), opened.app.state.room.lobby)
                try:
                    ann, bob = await room.player("ann"), await room.player("bob")
                    async with room.connect(ann) as a, room.connect(bob) as b:
                        assert (await a.command("sit", seat=1, amount=300))["t"] == "ack"
                        assert (await b.command("sit", seat=2, amount=200))["t"] == "ack"
                        assert (await b.command("sit_out"))["t"] == "ack"
                        await a.until(_leave("bob"), timeout=5)
                        assert opened.ledger.balance(bank("bob")) == 1000
                        assert opened.ledger.balance(table_account("t1", "bob")) == 0
                        # the seats are written by the room's writer, in its next batch
                        assert opened.writer is not None
                        await opened.writer.drain()
                        assert [s.player for s in TableStore(opened.engine).seats("t1")] == ["ann"]
                finally:
                    await room.http.aclose()
            assert opened.ledger.balance(table_account("t1", "ann")) == 300
        finally:
            opened.close()

    async def second_run() -> None:
        opened = open_room(settings, env)
        try:
            async with serving(opened.app) as port:
                lobby: Lobby = opened.app.state.room.lobby
                table = lobby.tables["t1"].table
                assert port and table.seats[1].player == "ann" and not table.seats[1].connected

                def left() -> list[SeatLeft]:
                    history = table.events_since(table.config.first_seq) or []
                    return [e.event for e in history if isinstance(e.event, SeatLeft)]

                for _ in range(300):
                    if left():
                        break
                    await asyncio.sleep(0.01)
                assert (
                    left() == [SeatLeft(1, "ann", 300, LeaveReason.SAT_OUT)] and table.seats == {}
                )
            assert opened.ledger.balance(bank("ann")) == 1000
            assert TableStore(opened.engine).seats("t1") == []
            assert opened.ledger.audit().ok
        finally:
            opened.close()

    asyncio.run(asyncio.wait_for(first_run(), 30))
    asyncio.run(asyncio.wait_for(second_run(), 30))
