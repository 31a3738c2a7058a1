"""``stud8 tournament simulate`` speed: a 180-player, 8-handed turbo with the rule-based
bots, on one core, and where the time goes.

    python benchmarks/bench_tournament.py [--players 180] [--table-size 8] [--repeat 3]

Prints, for ``--repeat`` tournaments (seeds 1, 2, ...) after a warm-up, each one's
wall-clock seconds, hands, hands per second and the director's share of the time;
then, measured in the same run as the figure to compare with, the cash simulator
(``stud8 simulate``, :func:`stud8.tools.simulate.simulate`) playing as many hands
8-handed with the same bots: the tournament's own cost is the difference (short-handed
tables, the director, the log of levels and tables).
"""

from __future__ import annotations

import argparse
import statistics
import sys

from stud8.tools.simulate import SimulationConfig, simulate
from stud8.tools.tournament_sim import TournamentSimConfig, simulate_tournament


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=180)
    parser.add_argument("--table-size", type=int, default=8)
    parser.add_argument("--structure", default="turbo")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(
        f"python {sys.version.split()[0]}; {args.players} players, {args.table_size}-handed, "
        f"{args.structure}, rule-based bots, one core"
    )
    simulate_tournament(TournamentSimConfig(players=18, table_size=6, seed=99))  # warm-up
    runs = []
    for seed in range(1, args.repeat + 1):
        config = TournamentSimConfig(
            players=args.players, table_size=args.table_size, structure=args.structure, seed=seed
        )
        r = simulate_tournament(config)
        runs.append(r)
        print(
            f"tournament seed {seed}: {r.seconds:6.2f} s  {r.hands:6,} hands  "
            f"{r.hands_per_second:7,.0f} hands/s  director {r.director_seconds:5.3f} s "
            f"({100 * r.director_seconds / r.seconds:.1f}%)"
        )
    median = statistics.median(r.seconds for r in runs)
    hands = round(statistics.mean(r.hands for r in runs))
    print(f"tournament, median of {len(runs)}: {median:.2f} s")
    cash = simulate(SimulationConfig(hands=hands, bots=("rules",) * 8, seed=1))
    print(
        f"cash simulator, {hands:,} hands 8-handed, same bots: {cash.seconds:.2f} s  "
        f"({cash.hands_per_second:,.0f} hands/s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
