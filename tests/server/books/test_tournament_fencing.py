"""Fencing a tournament (a room on several nodes): once another node has taken a
tournament over, the node that lost it writes nothing of it through its fenced
writer (no state, no buy-in, no hand note), and the new owner writes on.

Each test runs on a fresh SQLite file and on PostgreSQL.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import Connection, Engine

from stud8.server.books.fencing import FencedWriter, TournamentEpochs
from stud8.server.books.ledger import Ledger, bank
from stud8.server.books.tournaments import TournamentStore, prizes_account
from stud8.server.books.writer import RoomWriter
from stud8.server.table.books import BooksFenced
from stud8.tournament.director import Phase


def _tournament(engine: Engine, ledger: Ledger) -> tuple[TournamentStore, int]:
    store = TournamentStore(engine, ledger)
    with engine.begin() as conn:
        tid = store.create_in(conn, "SNG", {}, Phase.REGISTERING)
    ledger.grant("ann", 500)
    return store, tid


def test_each_takeover_raises_the_tournaments_epoch(engine: Engine, ledger: Ledger) -> None:
    store, tid = _tournament(engine, ledger)
    first, second = TournamentEpochs(engine, "n1"), TournamentEpochs(engine, "n2")
    assert (first.take_over(tid), second.take_over(tid), first.take_over(tid)) == (1, 2, 3)
    assert (first.held(tid), second.held(tid)) == (3, 2)
    with pytest.raises(LookupError, match="no tournament 999"):
        first.take_over(999)
    assert store.tournament(999) is None
    assert store.open_ids() == [tid]


def test_the_node_that_lost_a_tournament_writes_nothing_of_it(
    engine: Engine, ledger: Ledger
) -> None:
    store, tid = _tournament(engine, ledger)
    old, new = TournamentEpochs(engine, "n1"), TournamentEpochs(engine, "n2")
    old.take_over(tid)

    def buy_in(conn: Connection) -> None:
        store.register_in(conn, tid, entry=1, player="ann", buy_in=100, fee=10)
        store.save_in(conn, tid, Phase.REGISTERING, {"entries": 1})

    async def main() -> None:
        writer = RoomWriter(engine)
        try:
            await FencedWriter(writer, old, tid).call(buy_in, what="ann's buy-in")  # n1's
            new.take_over(tid)  # n2 takes it over (n1 paused past its lease)
            with pytest.raises(BooksFenced, match=f"tournament {tid} belongs to another node"):
                await FencedWriter(writer, old, tid).call(
                    lambda conn: store.save_in(conn, tid, Phase.RUNNING, {"old": True}), what="old"
                )
            # the new owner writes on; a node that let it go writes nothing either
            await FencedWriter(writer, new, tid).call(
                lambda conn: store.save_in(conn, tid, Phase.RUNNING, {"new": True}), what="new"
            )
            new.let_go(tid)
            with pytest.raises(BooksFenced, match="holds none"):
                await FencedWriter(writer, new, tid).call(lambda conn: None, what="let go")
        finally:
            writer.close()

    asyncio.run(main())
    found = store.tournament(tid)
    assert found is not None and found.state == {"new": True} and found.phase == Phase.RUNNING
    assert ledger.balance(bank("ann")) == 390 and ledger.balance(prizes_account(tid)) == 100
    assert ledger.audit().ok
