"""Property: random tournaments played in the room (random entrants, table sizes, level
lengths, buy-ins and fees, sit-and-gos and late registrations) always end; after
every hand the tournament chips are conserved (the director refuses a hand that makes
or loses one, and every hand dealt starts with the chips the director holds); the
tables stay balanced; the places run 1..N with no gaps; the prize pool is paid
exactly; and the ledger balances, the room chips all accounted for.
"""

from __future__ import annotations

import asyncio
import tempfile

import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.tournaments.checks import check_invariants
from server.tournaments.tourroom import tournament_room, until
from stud8.server.books.ledger import bank
from stud8.server.books.tournaments import fees_account, prizes_account
from stud8.server.table.events import HandStarted, Numbered
from stud8.server.tournaments.manager import definition_of
from stud8.server.wire.tournaments import NewTournament
from stud8.tournament.director import Director
from stud8.tournament.events import DealHand, Decision, TableOpened


# each example is a whole tournament in a room: a few, and no shrinking (too slow)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[hypothesis.Phase.explicit, hypothesis.Phase.reuse, hypothesis.Phase.generate],
)
@given(
    players=st.integers(2, 14),
    table_size=st.integers(2, 8),
    level_hands=st.integers(1, 6),
    buy_in=st.integers(0, 50),
    fee=st.integers(0, 5),
    chips=st.integers(20, 400),
)
def test_random_tournaments_in_the_room_conserve_chips_and_end(
    players: int, table_size: int, level_hands: int, buy_in: int, fee: int, chips: int
) -> None:
    asked = NewTournament(
        structure="hyper",
        starting_chips=chips,
        level_hands=level_hands,
        buy_in=buy_in,
        fee=fee,
        table_size=table_size,
        min_entrants=players,
        max_entrants=players,
    )
    asyncio.run(asyncio.wait_for(_play(asked, players), 240))


async def _play(asked: NewTournament, players: int) -> None:
    with tempfile.TemporaryDirectory() as where:
        async with tournament_room(f"sqlite:///{where}/room.db") as (_, room, ts):
            tid = await ts.create(definition_of(asked))
            runner = ts.runners[tid]
            deals: dict[str, dict[int, int]] = {}  # room table -> seat -> chips dealt
            starts: list[tuple[str, HandStarted]] = []
            wrong: list[str] = []

            def listen(table_id: str) -> None:
                def got(item: Numbered) -> None:
                    if isinstance(item.event, HandStarted):
                        starts.append((table_id, item.event))
                        if dict(item.event.stacks) != deals.get(table_id):
                            wrong.append(f"{table_id}: {item.event.stacks} != {deals}")

                runner.running[table_id].listen(got)

            def observe(td: Director, decisions: tuple[Decision, ...]) -> None:
                check_invariants(td, decisions)
                for d in decisions:
                    if isinstance(d, TableOpened):
                        listen(runner.room_table(d.table))
                    elif isinstance(d, DealHand):
                        deals[runner.room_table(d.table)] = {s: c for s, _, c in d.seats}

            runner.observers.append(observe)
            made = await ts.add_bots(tid, players, "rules")
            assert len(made) == players
            await until(lambda: runner.over, 200, "the end")
            td = runner.director
            # every hand dealt in the room started with the chips the director dealt
            assert starts and not wrong, wrong
            covered = sorted(r.place + i for r in td.results for i in range(r.shared))
            assert sorted(set(covered)) == list(range(1, players + 1))
            assert sum(r.prize for r in td.results) == asked.buy_in * players
            banks = room.ledger.balances("bank:")
            for r in td.results:  # a bot had its buy-in only: it has its prize now
                assert banks.get(bank(r.player), 0) == r.prize
            pool = room.ledger.balances(prizes_account(tid))
            assert sum(pool.values()) == 0
            fees = room.ledger.balances(fees_account(tid))
            assert sum(fees.values()) == asked.fee * players
            assert room.ledger.audit().ok
