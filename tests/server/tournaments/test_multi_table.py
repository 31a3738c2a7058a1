"""A scheduled multi-table tournament in the room, end to end, on SQLite and
PostgreSQL: it starts at its time on several tables, takes late registrations and a
re-entry until the end of its late level, keeps its tables balanced and breaks them as
players bust (TDA 10 and 11: tables broken while balancing), its tables' stakes rise
with the levels, and it ends on a final table with every place 1..N and the prize
pool paid; after every event the tournament chips are conserved and the tables are
balanced; the tables tell the tournament as it stands (the ``tournament`` event, in
the snapshot too) and a moved player where he goes (``moved``), and those events
cross the bus intact.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from server.tournaments.checks import check_invariants
from server.tournaments.tourroom import tournament_room, until
from stud8.server.books.tournaments import fees_account, prizes_account
from stud8.server.bus.codec import decode_numbered, encode_numbered
from stud8.server.table.events import Numbered, PlayerMoved, SeatLeft, TournamentInfo
from stud8.server.tournaments.manager import definition_of
from stud8.server.tournaments.runner import TournamentRefused
from stud8.server.wire.tournaments import NewTournament
from stud8.tournament.director import Director, Phase
from stud8.tournament.events import (
    Busted,
    DealHand,
    Decision,
    LevelStarted,
    Moved,
    MoveReason,
    Registered,
    Started,
    TableBroken,
    TableOpened,
)


def test_a_scheduled_multi_table_tournament_balances_breaks_and_ends(url: str) -> None:
    asyncio.run(asyncio.wait_for(_multi_table(url), 400))


async def _multi_table(url: str) -> None:
    async with tournament_room(url) as (_, room, ts):
        # time enough to register 17 before the start on a busy machine
        starts = datetime.now(UTC) + timedelta(seconds=8)
        definition = definition_of(
            NewTournament(
                name="Stud/8 MTT",
                structure="turbo",
                starting_chips=400,
                level_hands=8,
                buy_in=50,
                fee=5,
                table_size=5,
                min_entrants=9,
                max_entrants=40,
                start="at_time",
                starts_at=starts.isoformat(),
                late_registration=6,  # long enough for a bust before it closes
                reentries=1,
            )
        )
        tid = await ts.create(definition)
        runner = ts.runners[tid]
        seen: list[Decision] = []
        numbered: list[Numbered] = []
        snapshots: list[TournamentInfo | None] = []

        def observe(td: Director, decisions: tuple[Decision, ...]) -> None:
            check_invariants(td, decisions)
            seen.extend(decisions)
            for d in decisions:
                if isinstance(d, TableOpened):
                    runner.running[runner.room_table(d.table)].listen(numbered.append)

        def td_now() -> Director:  # the director now (it changes as the tournament goes)
            return runner.director

        runner.observers.append(observe)
        made = await ts.add_bots(tid, 17, "rules")
        assert len(made) == 17
        await until(lambda: runner.director.phase is not Phase.REGISTERING, 30, "the start")
        assert td_now().phase is Phase.RUNNING
        assert [d.entries for d in seen if isinstance(d, Started)] == [17]  # all before it
        assert len([d for d in seen if isinstance(d, TableOpened)]) == 4  # 17 at 5 a table

        # late registration, and a re-entry of the first busted while it is open
        late = await ts.add_bots(tid, 1, "rules")
        assert late and runner.director.entries[late[0][0]].table is not None

        def busted_or_closed() -> bool:
            return any(isinstance(d, Busted) for d in seen) or not td_now().registration_open

        await until(busted_or_closed, 60, "a bust")
        busted = next((d for d in seen if isinstance(d, Busted)), None)
        reentered = False
        if busted is not None and runner.director.registration_open:
            try:
                await runner.register(busted.player, bot="rules")
                reentered = True
            except TournamentRefused as exc:  # late registration closed meanwhile
                assert "closed" in str(exc)
        snap = await ts.bus.catch_up(runner.room_table(1), None)
        if snap.snapshot is not None:
            snapshots.append(snap.snapshot.tournament)

        await until(lambda: runner.over, 300, "the end")
        # the tables tell the end, then close
        await until(lambda: not runner.running, 20, "the tables closed")
        td = runner.director
        assert td.phase is Phase.FINISHED
        entries = len(td.entries)
        assert reentered, "a busted player re-entered while late registration was open"
        assert entries == 19
        assert len([d for d in seen if isinstance(d, Registered)]) == entries
        # the tables: broken as players bust, their players moved. Whether a bust also
        # calls for a balancing move depends on where the busts fall (a table may break
        # first); check_invariants held every table within one after every event, and
        # tests/tournament/test_director.py pins the balancing move itself.
        assert any(isinstance(d, TableBroken) for d in seen)
        moves = [d for d in seen if isinstance(d, Moved)]
        assert MoveReason.BREAK in {m.reason for m in moves}, moves
        # a move from a broken table is from one the director broke, to another
        broken = {d.table for d in seen if isinstance(d, TableBroken)}
        for m in moves:
            if m.reason is MoveReason.BREAK:
                assert m.from_table in broken and m.to_table != m.from_table, m
        # levels rose, and the stakes dealt rose with them
        levels = [d.level for d in seen if isinstance(d, LevelStarted)]
        assert levels == sorted(levels) and levels[-1] >= 3
        assert max(d.level for d in seen if isinstance(d, DealHand)) >= 3
        # places 1..N with no gaps (shared places cover theirs), the pool paid
        places = sorted((r.place, r.shared) for r in td.results)
        covered = sorted(p + i for p, shared in set(places) for i in range(shared))
        assert covered == list(range(1, entries + 1))
        assert sum(r.prize for r in td.results) == td.prize_pool == 50 * entries
        assert room.ledger.balance(prizes_account(tid)) == 0
        assert room.ledger.balance(fees_account(tid)) == 5 * entries
        assert room.ledger.audit().ok

        # what the tables told: the tournament, the moves; both cross the bus intact
        infos = [n for n in numbered if isinstance(n.event, TournamentInfo)]
        moved = [n for n in numbered if isinstance(n.event, PlayerMoved)]
        assert infos and moved
        final = infos[-1].event
        assert isinstance(final, TournamentInfo)
        assert final.phase == "finished" and final.results[0] == td.results[0].player
        assert final.result_prizes[0] == (1, td.results[0].prize)
        first = infos[0].event
        assert isinstance(first, TournamentInfo) and first.tournament_id == tid
        assert first.players_left + 0 <= entries and first.prize_pool > 0
        for item in (infos[0], infos[-1], moved[0]):
            assert decode_numbered(encode_numbered(item)) == item
        told_move = moved[0]
        assert isinstance(told_move.event, PlayerMoved)
        assert told_move.event.to_table.startswith(f"T{tid}-")
        after = numbered[numbered.index(told_move) + 1].event
        assert isinstance(after, SeatLeft) and after.reason == "moved"
        assert snapshots and snapshots[0] is not None and snapshots[0].tournament_id == tid
        assert not any(t.startswith(f"T{tid}-") for t in ts.bus.directory())
