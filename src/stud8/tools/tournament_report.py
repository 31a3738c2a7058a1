"""``stud8 tournament simulate``: check the settings, play, report.

>>> import io
>>> out = io.StringIO()
>>> run_tournament_simulate(players=4, table_size=2, structure="hyper", bots="rules",
...                         seed=1, stdout=out)
0
>>> print(out.getvalue().splitlines()[0])
Stud Hi/Lo tournament (simulated): 4 players, 2-handed tables, hyper structure, seed 1
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import TextIO

from stud8.core import Game
from stud8.tools.tournament_sim import (
    TournamentSimConfig,
    TournamentSimError,
    TournamentSimResult,
    simulate_tournament,
)

__all__ = ["GAMES", "report", "run_tournament_simulate"]

#: ``--game`` -> the game.
GAMES: dict[str, Game] = {"stud-hi-lo": Game.STUD_HI_LO, "stud": Game.STUD_HIGH, "razz": Game.RAZZ}
_GAME_NAMES = {Game.STUD_HI_LO: "Stud Hi/Lo", Game.STUD_HIGH: "Seven Card Stud", Game.RAZZ: "Razz"}


def _clock(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{minutes // 60}:{minutes % 60:02d}"


def report(result: TournamentSimResult, out: TextIO) -> None:
    """Places and prizes, each bot's tally, and the figures."""
    c = result.config
    out.write(
        f"{_GAME_NAMES[c.game]} tournament (simulated): {c.players} players, "
        f"{c.table_size}-handed tables, {c.structure} structure, seed {c.seed}\n"
        f"Buy-in {c.buy_in} + fee {c.fee}; prize pool {result.prize_pool:,}\n\n"
    )
    width = max(len(r.player) for r in result.results)
    out.write(f"{'place':>7}  {'player':<{width}}  {'prize':>9}\n")
    for r in result.results:
        place = str(r.place) if r.shared == 1 else f"{r.place}-{r.place + r.shared - 1}"
        out.write(f"{place:>7}  {r.player:<{width}}  {r.prize:>9,}\n")
    out.write("\n")
    kinds: dict[str, list[int]] = {}
    places: dict[str, list[int]] = {}
    for r in result.results:
        kind = r.player.rsplit("-", 1)[0]
        kinds.setdefault(kind, []).append(r.prize)
        places.setdefault(kind, []).append(r.place)
    for kind, won in kinds.items():
        n = len(won)
        paid = sum(1 for p in won if p > 0)
        net = sum(won) - n * (c.buy_in + c.fee)
        avg = sum(places[kind]) / n
        out.write(
            f"{kind}: {n} player{'s' if n != 1 else ''}, {paid} in the money, "
            f"average place {avg:.1f}, net {net:+,}\n"
        )
    last = result.levels[-1].level if result.levels else 1
    out.write(
        f"\n{result.hands:,} hands, {result.decisions:,} decisions, up to level {last}, "
        f"{_clock(result.simulated_seconds)} of simulated play; "
        f"{result.seconds:.2f} s ({result.hands_per_second:,.0f} hands/s)\n"
    )


def run_tournament_simulate(
    *,
    players: int,
    table_size: int = 8,
    structure: str = "turbo",
    bots: str = "rules",
    seed: int | None = None,
    game: str = "stud-hi-lo",
    buy_in: int = 100,
    fee: int = 0,
    equity_trials: int | None = None,
    out: Path | None = None,
    hands_format: str = "json",
    as_json: bool = False,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """0 on success, 2 on bad settings (the reason on stderr, no traceback)."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    names = tuple(b.strip() for b in bots.split(","))
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    try:
        if game not in GAMES:
            raise TournamentSimError(f"unknown game {game!r}: choose from {', '.join(GAMES)}")
        config = TournamentSimConfig(
            players=players,
            table_size=table_size,
            structure=structure,
            bots=names,
            seed=seed,
            game=GAMES[game],
            buy_in=buy_in,
            fee=fee,
            equity_trials=equity_trials,
            out=out,
            hands_format=hands_format,
        )
        if hands_format != "json" and out is None:
            raise TournamentSimError("--format says how to write the hands: give --out DIR too")
        result = simulate_tournament(config)
    except TournamentSimError as e:
        stderr.write(f"stud8 tournament simulate: error: {e}\n")
        return 2
    if as_json:
        stdout.write(json.dumps(result.to_dict(), indent=1) + "\n")
    else:
        report(result, stdout)
        if out is not None:
            hands = f", {out / 'hands.txt'}" if hands_format == "pokerstars" else ""
            stdout.write(f"Wrote {out / 'tournament.jsonl'}{hands} and {out / 'result.json'}\n")
    return 0
