"""The tables across a restart, on the database: the lobby with its keeper opens
tables, players sit, the room stops; the next lobby brings back every open table
with the same id, name and settings, each player in his seat with the chips the
ledger holds for him there (sitting out until he connects), the bots in theirs
and new bots in the free bot seats; chips with no seat go back to the banks. A
player's auto top-up tops up to the stack he chose (his buy-in, raised by his
top-ups), after the restart too, not to the stack he came back with.

Runs on a fresh SQLite file, and on PostgreSQL too when
``STUD8_TEST_POSTGRES_URL`` names a database the tests may wipe.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Iterator

import pytest
from sqlalchemy import Engine, text

from server.manualtable import ClockedTable
from stud8.core.actions import ActionKind, make_action
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger, bank, table_account
from stud8.server.books.memory import MemoryBooks
from stud8.server.books.recovery import recover
from stud8.server.books.room import RoomBooks
from stud8.server.books.seats import StoredSeat, TableStore, spec_from_json, spec_json
from stud8.server.books.writer import RoomWriter
from stud8.server.clock import AsyncioClock, ManualClock
from stud8.server.room.lobby import Lobby, LobbyError
from stud8.server.room.restore import RoomKeeper, prepare_restore
from stud8.server.storage import create_engine_for, upgrade
from stud8.server.table.commands import Act, Connect, Leave, Sit, TopUp
from stud8.server.table.events import Numbered, ToppedUp
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableConfig, TableSpec

SPEC = TableSpec(bots=2, between_hands=60.0, bot_delay=0.0, seats=6, ante=2, offer_seconds=5.0)


def start_room(
    engine: Engine, clock: AsyncioClock | ManualClock | None = None
) -> tuple[Lobby, RoomKeeper, RoomWriter]:
    """What ``stud8 serve`` does at startup, without the web app (close the writer
    after the lobby)."""
    ledger, hands = Ledger(engine), HandStore(engine)
    recover(engine, ledger, hands)
    store = TableStore(engine)
    keeper = RoomKeeper(store, prepare_restore(store, ledger))
    writer = RoomWriter(engine)
    lobby = Lobby(books=RoomBooks(ledger, writer), clock=clock or AsyncioClock(), keeper=keeper)
    return lobby, keeper, writer


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 60))


def test_a_spec_survives_its_json() -> None:
    spec = TableSpec(rake_percent="5/2", rake_cap=3, offer_seconds=0.5, structure="no_limit")
    assert spec_from_json(spec_json(spec)) == spec
    assert spec_from_json('{"ante": 3, "colour": "red"}') == TableSpec(ante=3)


def test_the_tables_come_back_with_their_players_and_chips(engine: Engine) -> None:
    ledger = Ledger(engine)
    for name in ("ann", "bob", "cat"):
        ledger.grant(name, 1000)

    async def first_run() -> None:
        lobby, keeper, writer = start_room(engine)
        assert not await keeper.restore(lobby)  # a first start
        main = await lobby.create(SPEC, "main", name="Main room")
        assert [s.player for _, s in sorted(main.seats.items())] == ["bot1", "bot2"]
        assert (await main.submit(Sit(player="ann", seat=3, amount=200))).ok
        assert (await main.submit(Sit(player="bob", seat=5, amount=150))).ok
        assert (await main.submit(Leave(player="bot2"))).ok  # a bot seat to fill again
        old = await lobby.create(TableSpec(between_hands=60.0), "old")
        assert (await old.submit(Sit(player="ann", seat=4, amount=100))).ok
        await lobby.close("old")
        await lobby.close_all()
        writer.close()

    run(first_run)
    # chips at "main" that no seat holds, and more chips in bob's table account
    # than his seat showed (a seat and its chips are written together, so only
    # a hand on the database makes this; the restart copes all the same)
    ledger.buy_in("cat", "main", 70)
    ledger.buy_in("bob", "main", 50)

    async def second_run() -> None:
        lobby, keeper, writer = start_room(engine)
        plan = keeper.plan
        assert not plan.first_start and sorted(plan.used) == ["main", "old"]
        assert plan.returned == {"main": {"cat": 70}}
        assert plan.next_bot == 3
        assert await keeper.restore(lobby)
        assert list(lobby.tables) == ["main"]
        entry = lobby.tables["main"]
        main = entry.table
        assert entry.spec == SPEC and entry.name == "Main room"
        seats = {n: (s.player, s.chips, s.bot is not None) for n, s in main.seats.items()}
        assert seats == {
            1: ("bot1", 400, True),
            2: ("bot3", 400, True),  # a new bot, never a reused name
            3: ("ann", 200, False),
            5: ("bob", 200, False),
        }
        # numbered far above the last run, so an old last_seen gets a snapshot
        assert 10**15 < main.last_seq < 2**53 and main.events_since(7) is None
        for number in (3, 5):  # not connected: dealt out until he is
            seat = main.seats[number]
            assert seat.sitting_out and not seat.connected and seat.out_reason == "disconnected"
        assert (await main.submit(Connect(player="ann"))).ok
        assert not main.seats[3].sitting_out and main.seats[3].connected
        with pytest.raises(LobbyError, match="used before"):
            await lobby.create(SPEC, "old")
        fresh = await lobby.create(TableSpec(between_hands=60.0))
        assert fresh.table_id == "t1"
        await lobby.close_all()
        writer.close()

    run(second_run)
    assert ledger.balance(bank("cat")) == 1000
    assert ledger.balance(table_account("main", "bob")) == 200
    assert ledger.balance(table_account("old", "ann")) == 0
    report = ledger.audit()
    assert report.ok and report.issued == 3000 + 3 * 400  # three bots in all

    async def third_run() -> None:  # nothing changed: the same again
        lobby, keeper, writer = start_room(engine)
        assert keeper.plan.returned == {}
        await keeper.restore(lobby)
        main = lobby.tables["main"].table
        assert {n: s.player for n, s in main.seats.items()} == {
            1: "bot1",
            2: "bot3",
            3: "ann",
            5: "bob",
        }
        await lobby.close_all()
        writer.close()

    run(third_run)


def test_restore_seat_puts_chips_back_without_a_buy_in() -> None:
    async def body() -> None:
        books = MemoryBooks()
        table = Table(
            TableConfig(table_id="t1", rules=SPEC.rules(), min_buy_in=40, max_buy_in=400),
            books=books,
            clock=ManualClock(),
        )
        table.restore_seat(2, "ann", 999)  # over the buy-in maximum: his chips all the same
        table.restore_seat(4, "bot7", 300, bot="rules")
        for bad in ((2, "cat", 10), (9, "cat", 10), (3, "ann", 10), (3, "cat", 0)):
            with pytest.raises(ValueError):
                table.restore_seat(*bad)
        assert books.journal == []
        snap = table.snapshot()
        assert [(s.seat, s.player, s.chips, s.sitting_out, s.connected) for s in snap.seats] == [
            (2, "ann", 999, True, False),
            (4, "bot7", 300, False, True),
        ]
        table.start()
        try:
            with pytest.raises(RuntimeError):
                table.restore_seat(5, "dan", 10)
        finally:
            await table.stop()

    asyncio.run(asyncio.wait_for(body(), 60))


def test_a_table_of_bots_deals_again_after_a_restart() -> None:
    """Bots restored at a table with no human play on at once: nobody has to sit
    for the next hand to be dealt."""

    class Restored(ClockedTable):
        def __init__(self) -> None:
            self.clock = ManualClock()
            self.books = MemoryBooks()
            config = TableConfig(
                table_id="t1", rules=SPEC.rules(), min_buy_in=40, max_buy_in=400, bot_delay=0
            )
            self.table = Table(config, books=self.books, clock=self.clock)

    async def body() -> None:
        h = Restored()
        for seat, bot, policy in ((1, "bot1", "rules"), (3, "bot2", "calling-station")):
            await h.books.sit("t1", seat, bot, 300, bot=True)  # their chips, kept at t1
            h.table.restore_seat(seat, bot, 300, bot=policy)
        h.table.start()
        try:
            await h.advance(h.table.config.between_hands)
            # dealt (bots without a delay may have played it out already)
            assert any(entry[0] == "dealt" for entry in h.books.journal)
            while h.table.hands_played < 3:
                await h.advance(1.0)
            assert h.books.settled
        finally:
            await h.table.stop()

    asyncio.run(asyncio.wait_for(body(), 60))


# ------------------------------------------------------------------ the auto top-up
class LobbyTable(ClockedTable):
    """A table of a lobby on a manual clock."""

    def __init__(self, table: Table, clock: ManualClock) -> None:
        self.table = table
        self.clock = clock


async def losing(h: LobbyTable, losers: set[str], ids: Iterator[int]) -> None:
    """Deal the next hand and play it: each of ``losers`` folds as soon as he may
    (his ante lost at least), the others check or call."""
    await h.advance(h.table.config.between_hands)
    assert h.table.hand is not None, "no hand was dealt"
    while (hand := h.table.hand) is not None:
        seat = hand.to_act
        assert seat is not None
        player = h.table.seats[seat].player
        legal = {a.kind for a in hand.legal_actions()}
        if player in losers and ActionKind.FOLD in legal:
            kind = ActionKind.FOLD
        else:
            kind = next(
                k for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN) if k in legal
            )
        action = make_action(kind.value, None)
        reply = await h.send(Act(player=player, action=action, command_id=f"a{next(ids)}"))
        assert reply.ok, reply


def test_the_auto_top_up_tops_up_to_the_buy_in_he_chose_after_a_restart(engine: Engine) -> None:
    spec = TableSpec(bots=0, min_buy_in=200, max_buy_in=800, between_hands=5.0, bot_delay=0.0)
    ledger = Ledger(engine)
    ledger.grant("ann", 800)  # all of it to the table: nothing to top up from before the restart
    ledger.grant("bob", 700)  # likewise
    ledger.grant("cat", 800)
    came_back: dict[str, int] = {}

    async def first_run() -> None:
        clock = ManualClock()
        lobby, keeper, writer = start_room(engine, clock)
        await keeper.restore(lobby)
        h = LobbyTable(await lobby.create(spec, "main"), clock)
        for name, on in (("ann", True), ("bob", False), ("cat", False)):
            assert (await h.send(Connect(player=name, auto_top_up=on))).ok
        assert (await h.send(Sit(player="ann", seat=1, amount=800))).ok
        assert (await h.send(Sit(player="bob", seat=2, amount=500))).ok
        assert (await h.send(TopUp(player="bob", amount=200))).ok  # he wants 700 now
        assert (await h.send(Sit(player="cat", seat=3, amount=800))).ok
        await losing(h, {"ann", "bob"}, itertools.count())
        for number in (1, 2):
            came_back[h.table.seats[number].player] = h.table.seats[number].chips
        assert came_back["ann"] < 800 and came_back["bob"] < 700
        # what the room keeps of each seat: the stack he chose
        assert TableStore(engine).seats("main") == [
            StoredSeat(1, "ann", False, 800),
            StoredSeat(2, "bob", False, 700),
            StoredSeat(3, "cat", False, 800),
        ]
        await lobby.close_all()  # between hands: every seat kept for the next start
        writer.close()

    run(first_run)
    ledger.grant("ann", 1000)  # the banks have chips again (an operator's credit)
    ledger.grant("bob", 1000)

    async def second_run() -> None:
        clock = ManualClock()
        lobby, keeper, writer = start_room(engine, clock)
        assert await keeper.restore(lobby)
        h = LobbyTable(lobby.tables["main"].table, clock)
        seen: list[Numbered] = []
        h.table.listen(seen.append)
        assert {s.player: s.chips for s in h.table.seats.values()}["ann"] == came_back["ann"]
        for name in ("ann", "bob", "cat"):  # back, his account's setting on
            assert (await h.send(Connect(player=name, auto_top_up=True))).ok
        await losing(h, {"ann", "bob"}, itertools.count(100))
        ups = {n.event.seat: n.event for n in seen if isinstance(n.event, ToppedUp)}
        # topped up to what each chose, not to what he came back with
        assert ups[1].chips == 800 == h.table.seats[1].chips and ups[1].short == 0
        assert ups[2].chips == 700 == h.table.seats[2].chips and ups[2].short == 0
        assert ledger.balance(table_account("main", "ann")) == 800
        assert ledger.balance(table_account("main", "bob")) == 700
        await lobby.close_all()
        writer.close()

    run(second_run)
    assert ledger.audit().ok


def test_a_seat_kept_before_revision_0012_tops_up_to_what_it_came_back_with(url: str) -> None:
    """A seat row of before the stack chosen was kept (revision 0012 adds it, null
    for the rows it finds): the rule of before, the stack he comes back with (at
    least the table's minimum buy-in)."""
    upgrade(url, "0011")
    engine = create_engine_for(url)
    try:
        ledger = Ledger(engine)
        ledger.grant("ann", 1000)
        ledger.buy_in("ann", "main", 300)
        spec = TableSpec(bots=0, min_buy_in=200, max_buy_in=800)
        with engine.begin() as conn:  # as the room of before wrote them
            conn.execute(
                text(
                    "INSERT INTO room_tables (table_id, name, spec, created_at)"
                    " VALUES ('main', 'main', :s, CURRENT_TIMESTAMP)"
                ),
                {"s": spec_json(spec)},
            )
            conn.execute(
                text(
                    "INSERT INTO table_seats (table_id, seat, player, bot, seated_at)"
                    " VALUES ('main', 1, 'ann', false, CURRENT_TIMESTAMP)"
                )
            )
        upgrade(url)
        assert TableStore(engine).seats("main") == [StoredSeat(1, "ann", False, None)]

        async def body() -> None:
            lobby, keeper, writer = start_room(engine, ManualClock())
            await keeper.restore(lobby)
            seat = lobby.tables["main"].table.seats[1]
            assert (seat.player, seat.chips, seat.top_up_to) == ("ann", 300, 300)
            await lobby.close_all()
            writer.close()

        run(body)
    finally:
        engine.dispose()
