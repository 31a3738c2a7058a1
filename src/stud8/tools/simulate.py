"""Bots against bots, hand after hand: the engine of ``stud8 simulate``.

Every hand is a fresh fixed-limit hand of the chosen game (Stud Hi/Lo by default,
Seven Card Stud or Razz) played by the rules engine
(:class:`stud8.core.hand.Hand`), every seat's stack reset to the same starting stack
first, so the hands are independent and each seat's result is a sum of independent
per-hand results (which is what the confidence intervals assume).

Reproducible: the hands are played in blocks of :data:`BLOCK` hands, and block ``k``
draws its shuffles and every bot's random choices from sources seeded by
``(seed, k)`` alone. A run gives the same hands and results whether its blocks are
played in one process or spread over several (``jobs``).

Bots that can (the rule-based and equity bots) decide from a
:class:`~stud8.tools.bots.window.SeatWindow`, which reads the hand on demand; the
others get a full :class:`~stud8.core.views.HandView` at each decision. Either way a
bot sees only its own down cards and what is face up.

>>> result = simulate(SimulationConfig(hands=20, bots=("rules", "calling-station"), seed=1))
>>> [len(r) for r in result.nets], sum(sum(r) for r in result.nets)
([20, 20], 0)
>>> result.nets == simulate(SimulationConfig(hands=20, bots=("rules", "calling-station"),
...                                          seed=1)).nets
True
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from stud8.core import Deck, Game, Hand, TableRules
from stud8.tools.bots import BOTS, Bot, make_bot
from stud8.tools.bots.window import deciders, play_fast

__all__ = [
    "BLOCK",
    "FORMATS",
    "GAMES",
    "BotStats",
    "SimulationConfig",
    "SimulationError",
    "SimulationResult",
    "hands_file",
    "simulate",
    "stats_of",
]

#: Hands per block: the unit of seeding and of work handed to a process.
BLOCK = 500
Format = Literal["json", "pokerstars", "phh"]
#: ``--format`` -> the file written in the ``--out`` directory.
FORMATS: dict[str, str] = {"json": "hands.jsonl", "pokerstars": "hands.txt", "phh": "hands.phhs"}
Progress = Callable[[int, int], None]
"""Called as ``progress(hands_done, hands_total)`` after each block."""
#: The games by their names on the command line (``--game``).
GAMES: dict[str, Game] = {"hilo": Game.STUD_HI_LO, "stud": Game.STUD_HIGH, "razz": Game.RAZZ}


class SimulationError(ValueError):
    """Settings a simulation cannot run with (the message says which and why)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationConfig:
    """What to simulate. ``bots``: one bot name per seat (seats 1, 2, ...).
    ``stack``: every seat's chips at the start of every hand (default 100 big bets).
    ``out``: a directory to write every hand to, in ``fmt``."""

    hands: int
    bots: tuple[str, ...]
    seed: int
    stakes: tuple[int, int, int, int] = (1, 2, 4, 8)  # ante, bring-in, small bet, big bet
    stack: int | None = None
    jobs: int = 1
    equity_trials: int | None = None
    out: Path | None = None
    fmt: Format = "json"
    game: Game = Game.STUD_HI_LO

    def __post_init__(self) -> None:
        if not isinstance(self.hands, int) or self.hands < 1:
            raise SimulationError(f"the number of hands must be at least 1, got {self.hands!r}")
        if not 2 <= len(self.bots) <= 8:
            raise SimulationError(f"a table seats 2 to 8 players, got {len(self.bots)}")
        unknown = sorted({b for b in self.bots if b not in BOTS})
        if unknown:
            raise SimulationError(
                f"unknown bot {', '.join(map(repr, unknown))}: choose from {', '.join(BOTS)}"
            )
        if not isinstance(self.jobs, int) or self.jobs < 1:
            raise SimulationError(f"jobs must be at least 1, got {self.jobs!r}")
        if self.stack is not None and (not isinstance(self.stack, int) or self.stack < 1):
            raise SimulationError(f"the stack must be a whole number of chips, got {self.stack!r}")
        if self.equity_trials is not None and self.equity_trials < 1:
            raise SimulationError(f"equity trials must be at least 1, got {self.equity_trials}")
        if self.fmt not in FORMATS:
            raise SimulationError(f"the format is one of {', '.join(FORMATS)}, got {self.fmt!r}")
        self.rules()  # validates the stakes

    def rules(self) -> TableRules:
        ante, bring_in, small, big = self.stakes
        try:
            return TableRules(
                ante=ante, bring_in=bring_in, small_bet=small, big_bet=big, game=self.game
            )
        except ValueError as e:
            raise SimulationError(f"stakes {'/'.join(map(str, self.stakes))}: {e}") from None

    @property
    def big_bet(self) -> int:
        return self.stakes[3]

    @property
    def starting_stack(self) -> int:
        return self.stack if self.stack is not None else 100 * self.big_bet

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(range(1, len(self.bots) + 1))

    def names(self) -> dict[int, str]:
        """The players' names in written hands: ``rules-1``, ``equity-2``..."""
        return {seat: f"{bot}-{seat}" for seat, bot in zip(self.seats, self.bots, strict=True)}


@dataclass(slots=True)
class SimulationResult:
    """Each seat's net chips hand by hand (``nets[i]`` is seat ``i + 1``'s), and how long
    the run took (``seconds``, wall clock, every process included)."""

    config: SimulationConfig
    nets: list[array[int]]
    decisions: int
    seconds: float
    written: Path | None = None
    hand_ids: tuple[str, str] = field(default=("", ""))  # the first and the last

    @property
    def hands(self) -> int:
        return len(self.nets[0]) if self.nets else 0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else math.inf


@dataclass(frozen=True, slots=True)
class BotStats:
    """A seat's (or a bot's) results: ``bb_per_100`` is big bets won per 100 hands, and
    ``ci`` the half-width of its 95% confidence interval (None with fewer than 2 hands)."""

    label: str
    seats: int
    hands: int
    net: int
    bb_per_100: float
    ci: float | None

    @property
    def low(self) -> float | None:
        return None if self.ci is None else self.bb_per_100 - self.ci

    @property
    def high(self) -> float | None:
        return None if self.ci is None else self.bb_per_100 + self.ci


Z_95 = 1.959963984540054  # the two-sided 95% point of the normal distribution


def stats_of(label: str, per_hand: Sequence[float], big_bet: int, *, seats: int = 1) -> BotStats:
    """bb/100 and its 95% confidence interval from per-hand results in chips
    (for a bot in several seats: its seats' average, hand by hand; ``net`` is then the
    total over its seats). The interval is the normal one, mean ± 1.96 standard errors,
    with the sample standard deviation (n - 1)."""
    n = len(per_hand)
    if n == 0:
        return BotStats(label, seats, 0, 0, 0.0, None)
    mean = math.fsum(per_hand) / n
    net = round(math.fsum(per_hand) * seats)
    ci = None
    if n >= 2:
        var = math.fsum((x - mean) ** 2 for x in per_hand) / (n - 1)
        ci = Z_95 * math.sqrt(var / n) * 100 / big_bet
    return BotStats(label, seats, n, net, mean * 100 / big_bet, ci)


def hands_file(directory: Path, fmt: str) -> Path:
    """The file ``--out DIR --format FMT`` writes."""
    return directory / FORMATS[fmt]


# -------------------------------------------------------------------- playing
@dataclass(frozen=True, slots=True)
class _Block:
    index: int
    start: int  # the first hand's number, from 0
    count: int


@dataclass(slots=True)
class _BlockResult:
    index: int
    nets: list[array[int]]
    decisions: int
    texts: list[str] | None


def _make_bots(config: SimulationConfig, block: int) -> dict[int, Bot]:
    bots: dict[int, Bot] = {}
    for seat, name in zip(config.seats, config.bots, strict=True):
        rng = random.Random(f"stud8-simulate/{config.seed}/{block}/seat-{seat}")
        if name == "equity" and config.equity_trials is not None:
            from stud8.tools.bots.equity_bot import EquityBot

            bots[seat] = EquityBot(rng, trials=config.equity_trials, game=config.game)
        else:
            bots[seat] = make_bot(name, rng, game=config.game)
    return bots


def _render(hand: Hand, fmt: str, names: dict[int, str]) -> str:
    from stud8.formats.record import HandRecord

    if fmt == "phh":
        from stud8.formats.phh import hand_to_phh

        return hand_to_phh(hand, names=names)
    record = HandRecord.from_hand(hand, names=names, table="stud8 simulate")
    if fmt == "json":
        return record.dumps()
    from stud8.formats.pokerstars.write import to_pokerstars

    return to_pokerstars(record, everything=True)


def _play_block(config: SimulationConfig, block: _Block) -> _BlockResult:
    rules = config.rules()
    seats = config.seats
    stack = config.starting_stack
    stacks = dict.fromkeys(seats, stack)
    bots = _make_bots(config, block.index)
    ask = deciders(bots)
    shuffle = random.Random(f"stud8-simulate/{config.seed}/{block.index}/deck")
    nets: list[array[int]] = [array("q") for _ in seats]
    appends = [a.append for a in nets]
    pairs = list(zip(seats, appends, strict=True))
    texts: list[str] | None = [] if config.out is not None else None
    names = config.names()
    decisions = 0
    prefix = f"sim{config.seed}-"
    start = Hand.start
    for number in range(block.start + 1, block.start + block.count + 1):
        hand = start(
            rules=rules, stacks=stacks, deck=Deck.shuffled(shuffle), hand_id=f"{prefix}{number}"
        )
        final = play_fast(hand, bots, ask).stacks
        total = 0
        for seat, add in pairs:
            net = final[seat] - stack
            add(net)
            total += net
        if total:  # no rake at these tables: every chip lost is won
            raise AssertionError(f"hand {hand.hand_id}: chips not conserved ({total:+})")
        decisions += len(hand.decisions)
        if texts is not None:
            texts.append(_render(hand, config.fmt, names))
    return _BlockResult(block.index, nets, decisions, texts)


def _blocks(hands: int) -> list[_Block]:
    return [
        _Block(k, start, min(BLOCK, hands - start))
        for k, start in enumerate(range(0, hands, BLOCK))
    ]


def _run_block(task: tuple[SimulationConfig, _Block]) -> _BlockResult:
    return _play_block(*task)


def _results(config: SimulationConfig, blocks: list[_Block]) -> Iterator[_BlockResult]:
    """The blocks' results, in order; in ``config.jobs`` processes if more than one."""
    jobs = min(config.jobs, len(blocks))
    if jobs <= 1:
        for b in blocks:
            yield _play_block(config, b)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with context.Pool(processes=jobs) as pool:
        yield from pool.imap(_run_block, [(config, b) for b in blocks], chunksize=1)


def check_ready(config: SimulationConfig) -> None:
    """Refuse, before any work, what would fail later: the equity bot without numpy and
    numba, an output directory that cannot be made."""
    if "equity" in config.bots:
        try:
            import stud8.tools.equity  # noqa: F401
        except ImportError as e:
            raise SimulationError(
                f"the equity bot needs numpy and numba ({e.name or e} is not installed): "
                "pip install 'stud8[tools]'"
            ) from None
    out = config.out
    if out is not None:
        if out.exists() and not out.is_dir():
            raise SimulationError(f"--out {out}: exists and is not a directory")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SimulationError(f"--out {out}: cannot make the directory: {e.strerror}") from None


def simulate(config: SimulationConfig, progress: Progress | None = None) -> SimulationResult:
    """Play ``config.hands`` hands; see the module docstring."""
    check_ready(config)
    blocks = _blocks(config.hands)
    nets: list[array[int]] = [array("q") for _ in config.seats]
    decisions = 0
    path = hands_file(config.out, config.fmt) if config.out is not None else None
    written = 0
    begin = time.perf_counter()
    f = open(path, "w", encoding="utf-8", newline="\n") if path is not None else None  # noqa: SIM115
    try:
        for result in _results(config, blocks):
            for mine, theirs in zip(nets, result.nets, strict=True):
                mine.extend(theirs)
            decisions += result.decisions
            if f is not None and result.texts is not None:
                for text in result.texts:
                    written += 1
                    f.write(_framed(text, config.fmt, written))
            if progress is not None:
                progress(len(nets[0]), config.hands)
    finally:
        if f is not None:
            f.close()
    seconds = time.perf_counter() - begin
    prefix = f"sim{config.seed}-"
    return SimulationResult(
        config=config,
        nets=nets,
        decisions=decisions,
        seconds=seconds,
        written=path,
        hand_ids=(f"{prefix}1", f"{prefix}{config.hands}"),
    )


def _framed(text: str, fmt: str, number: int) -> str:
    if fmt == "json":
        return text + "\n"
    if fmt == "pokerstars":
        return ("\n\n\n" if number > 1 else "") + text + "\n"
    return f"[{number}]\n{text}\n\n"  # a .phhs file: one section a hand


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
