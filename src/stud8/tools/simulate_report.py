"""``stud8 simulate``: the report, the progress bar and the chart.

>>> from stud8.tools.simulate import SimulationConfig, simulate
>>> result = simulate(SimulationConfig(hands=10, bots=("rules", "rules"), seed=4))
>>> [s.label for s in seat_stats(result)]
['seat 1 rules', 'seat 2 rules']
>>> [(s.label, s.seats) for s in bot_stats(result)]
[('rules', 2)]
"""

from __future__ import annotations

import importlib.util
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from stud8.formats.pokerstars.write import GAME_NAMES
from stud8.tools.simulate import (
    GAMES,
    BotStats,
    SimulationConfig,
    SimulationError,
    SimulationResult,
    check_ready,
    simulate,
    stats_of,
)

__all__ = ["bot_stats", "report", "run_simulate", "seat_stats", "write_chart"]


def seat_stats(result: SimulationResult) -> list[BotStats]:
    """Each seat's results."""
    config = result.config
    return [
        stats_of(f"seat {seat} {bot}", nets, config.big_bet)
        for seat, bot, nets in zip(config.seats, config.bots, result.nets, strict=True)
    ]


def bot_stats(result: SimulationResult) -> list[BotStats]:
    """Each kind of bot's results, over all the seats it plays: per hand, the average of
    its seats' results (hands are independent; seats of one hand are not)."""
    config = result.config
    out = []
    for bot in dict.fromkeys(config.bots):
        rows = [n for b, n in zip(config.bots, result.nets, strict=True) if b == bot]
        k = len(rows)
        per_hand = [sum(col) / k for col in zip(*rows, strict=True)]
        out.append(stats_of(bot, per_hand, config.big_bet, seats=k))
    return out


def _hands(n: int) -> str:
    return f"{n:,} hand{'s' if n != 1 else ''}"


def _signed(x: float, digits: int = 2) -> str:
    return f"{x:+,.{digits}f}"


def _interval(s: BotStats) -> str:
    if s.low is None or s.high is None:
        return "n/a (one hand)"
    return f"{_signed(s.low)} to {_signed(s.high)}"


def report(result: SimulationResult, out: TextIO) -> None:
    """The text report: a line per seat, a line per bot, and the speed."""
    config = result.config
    stakes = "/".join(map(str, config.stakes))
    jobs = f"{config.jobs} job{'s' if config.jobs != 1 else ''}"
    out.write(
        f"{_hands(result.hands)} of {GAME_NAMES[config.game]}, {len(config.bots)} players, "
        f"stakes {stakes} "
        f"(ante/bring-in/small/big), seed {config.seed}\n"
        f"Every stack is reset to {config.starting_stack:,} chips "
        f"({config.starting_stack / config.big_bet:g} big bets) before each hand, "
        "so the hands are independent.\n"
        f"bb/100: big bets ({config.big_bet} chips) won per 100 hands; "
        "95% confidence interval from the per-hand results.\n\n"
    )
    head = f"{'':<24}{'hands':>10}{'net chips':>13}{'bb/100':>10}   95% CI (bb/100)\n"
    out.write(head)
    for s in seat_stats(result):
        out.write(
            f"{s.label:<24}{s.hands:>10,}{s.net:>+13,}{_signed(s.bb_per_100):>10}   "
            f"{_interval(s)}\n"
        )
    kinds = bot_stats(result)
    if len(kinds) < len(config.bots):
        out.write("\nby bot (bb/100 per seat it plays):\n")
        for s in kinds:
            label = f"{s.label} ({s.seats} seat{'s' if s.seats != 1 else ''})"
            out.write(
                f"{label:<24}{s.hands:>10,}{s.net:>+13,}{_signed(s.bb_per_100):>10}   "
                f"{_interval(s)}\n"
            )
    out.write(
        f"\n{_hands(result.hands)} in {result.seconds:.2f} s: "
        f"{result.hands_per_second:,.0f} hands/s ({jobs}), "
        f"{result.decisions / max(result.hands, 1):.1f} decisions a hand\n"
    )
    if result.written is not None:
        out.write(f"hands written to {result.written}\n")


def to_json(result: SimulationResult) -> dict[str, Any]:
    """The report as one JSON object (``stud8 simulate --json``)."""
    config = result.config

    def row(s: BotStats) -> dict[str, Any]:
        return {
            "label": s.label,
            "seats": s.seats,
            "hands": s.hands,
            "net": s.net,
            "bb_per_100": s.bb_per_100,
            "ci95": None if s.ci is None else [s.low, s.high],
        }

    return {
        "hands": result.hands,
        "players": len(config.bots),
        "bots": list(config.bots),
        "seed": config.seed,
        "stakes": list(config.stakes),
        "game": config.game.value,
        "stack": config.starting_stack,
        "jobs": config.jobs,
        "seats": [row(s) for s in seat_stats(result)],
        "by_bot": [row(s) for s in bot_stats(result)],
        "seconds": result.seconds,
        "hands_per_second": result.hands_per_second,
        "decisions": result.decisions,
        "written": None if result.written is None else str(result.written),
    }


# ---------------------------------------------------------------- progress
class _Bar:
    """A progress bar on a terminal (redrawn at most ten times a second)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.start = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        width = 30
        filled = width * done // total
        eta = f"  {(total - done) / rate:.0f} s left" if rate and done < total else ""
        self.out.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} hands  "
            f"{rate:,.0f}/s{eta}   "
        )
        self.out.flush()

    def close(self) -> None:
        self.out.write("\r" + " " * 79 + "\r")
        self.out.flush()


# -------------------------------------------------------------------- chart
def chart_available() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


def write_chart(result: SimulationResult, path: Path) -> None:
    """A PNG of each seat's cumulative winnings, in big bets, over the hands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    config = result.config
    n = result.hands
    step = max(1, math.ceil(n / 4000))  # at most about 4,000 points a line
    xs = list(range(step, n + 1, step))
    if not xs or xs[-1] != n:
        xs.append(n)
    fig, ax = plt.subplots(figsize=(10, 6), dpi=100)
    for s, nets in zip(seat_stats(result), result.nets, strict=True):
        total = 0
        cumulative = []
        for x in nets:
            total += x
            cumulative.append(total / config.big_bet)
        ax.plot(
            xs, [cumulative[x - 1] for x in xs], label=f"{s.label} ({s.bb_per_100:+.1f} bb/100)"
        )
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("hands")
    ax.set_ylabel("winnings (big bets)")
    stakes = "/".join(map(str, config.stakes))
    ax.set_title(f"stud8 simulate: {n:,} hands, stakes {stakes}, seed {config.seed}")
    ax.legend(loc="best", fontsize="small")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


# ---------------------------------------------------------------------- run
def run_simulate(
    *,
    hands: int,
    players: int | None,
    bots: str,
    seed: int | None,
    stakes: tuple[int, int, int, int],
    stack: int | None,
    jobs: int,
    out: Path | None,
    fmt: str | None,
    chart: Path | None,
    equity_trials: int | None,
    as_json: bool,
    game: str = "hilo",
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``stud8 simulate``: check the settings, play, report. 0 on success, 2 on bad
    settings (with the reason on stderr)."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr

    def refuse(message: str) -> int:
        stderr.write(f"stud8 simulate: error: {message}\n")
        return 2

    names = [b.strip() for b in bots.split(",")]
    if any(not b for b in names):
        return refuse(f"--bots {bots!r}: an empty name; give names separated by commas")
    if players is None:
        players = len(names) if len(names) > 1 else 6
    if len(names) == 1:
        names *= players
    elif len(names) != players:
        return refuse(
            f"--bots gives {len(names)} bots for {players} players: "
            "give one name for every seat, or one name for all"
        )
    if fmt is not None and out is None:
        return refuse("--format says how to write the hands: give --out DIR as well")
    if chart is not None:
        if not chart_available():
            return refuse(
                "--chart needs matplotlib, which is not installed: pip install 'stud8[tools]'"
            )
        if chart.suffix.lower() != ".png":
            return refuse(f"--chart {chart}: the chart is a PNG file (name it .png)")
        if not chart.parent.is_dir():
            return refuse(f"--chart {chart}: the directory {chart.parent} does not exist")
    if game not in GAMES:
        return refuse(f"--game {game!r}: choose from {', '.join(GAMES)}")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    try:
        config = SimulationConfig(
            hands=hands,
            bots=tuple(names),
            seed=seed,
            stakes=stakes,
            stack=stack,
            jobs=jobs,
            equity_trials=equity_trials,
            out=out,
            fmt=fmt or "json",  # type: ignore[arg-type]
            game=GAMES[game],
        )
        check_ready(config)
    except SimulationError as e:
        return refuse(str(e))
    bar = _Bar(stderr) if stderr.isatty() else None
    try:
        result = simulate(config, progress=bar)
    finally:
        if bar is not None:
            bar.close()
    stderr.write(
        f"simulated {_hands(result.hands)} in {result.seconds:.2f} s "
        f"({result.hands_per_second:,.0f} hands/s, seed {seed})\n"
    )
    if as_json:
        json.dump(to_json(result), stdout, indent=2)
        stdout.write("\n")
    else:
        report(result, stdout)
    if chart is not None:
        write_chart(result, chart)
        if not as_json:
            stdout.write(f"chart written to {chart}\n")
    return 0
