"""A mixed table across a restart, on the database: the room stops mid-rotation
(its hand in play, if any, cancelled); the next start counts the table's stored
hands (every hand it dealt, finished or cancelled) and the table goes on with the
game that count brings, the spec's rotation kept in ``room_tables``.

Runs on a fresh SQLite file, and on PostgreSQL too when ``STUD8_TEST_POSTGRES_URL``
names a database the tests may wipe.
"""

from __future__ import annotations

import asyncio

from sqlalchemy import Engine

from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger
from stud8.server.books.recovery import recover
from stud8.server.books.room import RoomBooks
from stud8.server.books.seats import TableStore
from stud8.server.books.writer import RoomWriter
from stud8.server.clock import AsyncioClock
from stud8.server.room.lobby import Lobby
from stud8.server.room.restore import RoomKeeper, prepare_restore
from stud8.server.table.events import MixedGame
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableSpec


def start_room(engine: Engine) -> tuple[Lobby, RoomKeeper, RoomWriter]:
    """What ``stud8 serve`` does at startup (runtime.open_room), without the web app:
    recovery, then the plan with the hands stored (close the writer after the lobby)."""
    ledger, hands = Ledger(engine), HandStore(engine)
    recover(engine, ledger, hands)
    store = TableStore(engine)
    keeper = RoomKeeper(store, prepare_restore(store, ledger, hands))
    writer = RoomWriter(engine)
    lobby = Lobby(books=RoomBooks(ledger, writer), clock=AsyncioClock(), keeper=keeper)
    return lobby, keeper, writer


async def _hands(table: Table, at_least: int) -> None:
    while table.hands_played < at_least:
        await asyncio.sleep(0.01)


def test_a_restart_mid_rotation_goes_on_with_the_right_game(engine: Engine) -> None:
    spec = TableSpec(
        rotation="stud_hi_lo+stud_high+razz",
        rotation_hands=2,
        bots=3,
        between_hands=0.0,
        showdown_seconds=0.0,
        bot_delay=0.0,
    )
    rotation = spec.config("mix").rotation
    assert rotation is not None
    hands = HandStore(engine)

    async def first_run() -> None:
        lobby, keeper, writer = start_room(engine)
        await keeper.restore(lobby)
        table = await lobby.create(spec, "mix")
        await _hands(table, 3)  # into the second game, maybe further
        await lobby.close_all()  # the hand in play, if any, is cancelled (and stored)
        writer.close()

    asyncio.run(asyncio.wait_for(first_run(), 60))
    dealt = 0

    async def second_run() -> None:
        nonlocal dealt
        lobby, keeper, writer = start_room(engine)
        # after the recovery (a hand noted and not ended is stored cancelled: dealt)
        dealt = hands.dealt_at("mix")
        assert dealt >= 3
        assert keeper.plan.dealt == {"mix": dealt}
        stored = [hands.record(h) for h in reversed(hands.latest(100, table="mix"))]
        # a cancelled hand keeps no record: the one in play at the kill, at most
        assert sum(record is None for record in stored) <= 1
        for n, record in enumerate(stored):  # each stored hand was its turn's game
            if record is not None:
                assert record.rules.game is rotation.game_of(n), n
                assert record.mixed == "Triple Stud"
        assert await keeper.restore(lobby)
        entry = lobby.get("mix")
        assert entry is not None and entry.spec == spec  # the rotation kept
        table = entry.table
        await _hands(table, 1)
        await lobby.close_all()
        writer.close()
        # the first hand after the restart is the game its number brings, and says so
        told = table.events_since(table.config.first_seq)
        assert told is not None
        first = next(n.event for n in told if isinstance(n.event, MixedGame))
        assert first.game is rotation.game_of(dealt)
        assert first.hands_left == 1 - dealt % 2

    asyncio.run(asyncio.wait_for(second_run(), 60))
    after = hands.record(hands.latest(100, table="mix")[-1 - dealt])
    assert after is not None and after.rules.game is rotation.game_of(dealt)
