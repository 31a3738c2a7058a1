"""The tables across a restart, on the database: the lobby with its keeper opens
tables, players sit, the room stops; the next lobby brings back every open table
with the same id, name and settings, each player in his seat with the chips the
ledger holds for him there (sitting out until he connects), the bots in theirs
and new bots in the free bot seats; chips with no seat go back to the banks.

Runs on a fresh SQLite file, and on PostgreSQL too when
``STUD8_TEST_POSTGRES_URL`` names a database the tests may wipe.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from sqlalchemy import Engine

from server.manualtable import ClockedTable
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger, bank, table_account
from stud8.server.books.memory import MemoryBooks
from stud8.server.books.recovery import recover
from stud8.server.books.room import RoomBooks
from stud8.server.books.seats import TableStore, spec_from_json, spec_json
from stud8.server.books.writer import RoomWriter
from stud8.server.clock import AsyncioClock, ManualClock
from stud8.server.room.lobby import Lobby, LobbyError
from stud8.server.room.restore import RoomKeeper, prepare_restore
from stud8.server.table.commands import Connect, Leave, Sit
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableConfig, TableSpec

SPEC = TableSpec(bots=2, between_hands=60.0, bot_delay=0.0, seats=6, ante=2, offer_seconds=5.0)


def start_room(engine: Engine) -> tuple[Lobby, RoomKeeper, RoomWriter]:
    """What ``stud8 serve`` does at startup, without the web app (close the writer
    after the lobby)."""
    ledger, hands = Ledger(engine), HandStore(engine)
    recover(engine, ledger, hands)
    store = TableStore(engine)
    keeper = RoomKeeper(store, prepare_restore(store, ledger))
    writer = RoomWriter(engine)
    lobby = Lobby(books=RoomBooks(ledger, writer), clock=AsyncioClock(), keeper=keeper)
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
