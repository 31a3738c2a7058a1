"""A tournament table's snapshot tells the time left in the level as it stands when
the snapshot is taken: the tournament's info is sent when something changes, so a
viewer who connects later must not be shown the time left back then."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from stud8.server.books.memory import MemoryBooks
from stud8.server.clock import ManualClock
from stud8.server.table.events import TournamentInfo
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableSpec
from stud8.server.table.tournament import InfoOrder, tournament_table
from stud8.tournament.director import Phase

INFO = TournamentInfo(
    tournament_id=1,
    name="t",
    table_number=1,
    phase=Phase.RUNNING,
    level=2,
    ante=5,
    bring_in=10,
    small_bet=30,
    big_bet=60,
    next_ante=10,
    next_bring_in=15,
    next_small_bet=50,
    next_big_bet=100,
    seconds_left=180.0,
    on_break=False,
    players_left=4,
    entries=4,
    average_stack=500,
    prize_pool=400,
    places=((1, 1), (2, 3)),
)


def table_with(info: TournamentInfo) -> tuple[Table, ManualClock]:
    clock = ManualClock()
    table = tournament_table(TableSpec().config("T1-1"), books=MemoryBooks(), clock=clock)

    async def told() -> None:
        table.start()
        table.order(InfoOrder(info))
        await table.settled()
        await table.stop()

    asyncio.run(told())
    return table, clock


def test_the_snapshot_counts_the_time_since_the_info_came() -> None:
    table, clock = table_with(INFO)
    snap = table.snapshot().tournament
    assert snap is not None and snap.seconds_left == 180.0
    clock.advance(61.5)  # the clock moves; no new info comes
    snap = table.snapshot().tournament
    assert snap is not None and snap.seconds_left == 118.5
    assert replace(snap, seconds_left=180.0) == INFO  # nothing else changes
    clock.advance(500)
    snap = table.snapshot().tournament
    assert snap is not None and snap.seconds_left == 0.0  # never below zero


def test_no_clock_stays_none() -> None:
    table, clock = table_with(replace(INFO, seconds_left=-1.0))  # levels by hands
    clock.advance(30)
    snap = table.snapshot().tournament
    assert snap is not None and snap.seconds_left == -1.0
