"""The size of a tournament table's ``tournament`` event (the websocket frame sent to
every seat and watcher of every table when the tournament changes: at every hand's
end), for a 180-player, 8-handed tournament just started (23 tables).

    python benchmarks/bench_tournament_frame.py [--players 180] [--table-size 8]

Prints, measured in the same run, the frame as it is sent now (each seat's place at
its table: ``places``) beside the frame of the previous format (bus format 4: the
whole ``standings``, every player still in, and the ``prizes`` of every paid place),
built from the same info with those fields put back; and what one round of them
costs (one frame to each table, times the players watching it).
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from stud8.server.tournaments.info import place_prizes, tournament_info
from stud8.server.wire.codec import dumps
from stud8.server.wire.events import encode_event
from stud8.server.wire.server import event_text
from stud8.tournament import STRUCTURES, TournamentDefinition
from stud8.tournament.director import Director, Phase
from stud8.tournament.events import Register


def started(players: int, table_size: int) -> Director:
    definition = TournamentDefinition(
        name="Frame 180",
        structure=STRUCTURES["turbo"],
        buy_in=100,
        fee=10,
        table_size=table_size,
        min_entrants=2,
        max_entrants=players,
    )
    director = Director(definition, rng=random.Random(1))
    for n in range(players):
        director.handle(Register(now=1000.0 + n, player=f"player{n:03d}"))
    return director


def previous_format(data: dict[str, Any], director: Director) -> dict[str, Any]:
    """The same event as format 4 sent it: ``standings`` and ``prizes`` where
    ``places`` is now."""
    alive = sorted(director.alive, key=lambda e: (-e.chips, e.entry))
    old: dict[str, Any] = {}
    for key, value in data.items():
        if key == "places":
            old["standings"] = [e.player for e in alive]
            old["prizes"] = [list(p) for p in place_prizes(director)]
        else:
            old[key] = value
    return old


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=180)
    parser.add_argument("--table-size", type=int, default=8)
    args = parser.parse_args(argv)
    director = started(args.players, args.table_size)
    tables = len(director.tables)
    now_sizes, before_sizes = [], []
    for number in sorted(director.tables):
        info = tournament_info(
            director, tournament_id=1, table_number=number, phase=Phase.RUNNING, now=1300.0
        )
        data = encode_event(info)
        now_sizes.append(len(event_text(1234, data).encode()))
        before = previous_format(data, director)
        before_sizes.append(len(f'{{"t":"event","v":1234,"d":{dumps(before)}}}'.encode()))
    seated = sum(len(t.seats) for t in director.tables.values())
    print(f"{args.players} players, {args.table_size}-handed: {tables} tables, {seated} seated")
    print(f"{'':28}{'before (format 4)':>18}{'now':>10}")
    print(f"{'one frame, bytes (largest)':28}{max(before_sizes):>18,}{max(now_sizes):>10,}")
    counts = [len(t.seats) for _, t in sorted(director.tables.items())]
    before_round = sum(b * c for b, c in zip(before_sizes, counts, strict=True))
    now_round = sum(b * c for b, c in zip(now_sizes, counts, strict=True))
    print(f"{'one round to every seat':28}{before_round:>18,}{now_round:>10,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
