"""A whole tournament played by bots, offline: the engine of ``stud8 tournament simulate``.

The :class:`~stud8.tournament.director.Director` runs it exactly as it will in the
room: it seats, deals, moves, breaks tables and places; this module only plays the
hands it deals, with the engine and the bots, and tells it when each is over. The
tables play at once: a discrete-event simulation on a simulated clock, where a hand
takes :data:`HAND_SECONDS` plus :data:`DECISION_SECONDS` per decision (about a minute
at a full table, as online Stud plays), so time-based levels rise as they would.

Reproducible: the seed fixes the director's draws, every deck and every bot's choices.

>>> r = simulate_tournament(TournamentSimConfig(players=6, table_size=3, seed=2))
>>> [x.place for x in r.results], sum(x.prize for x in r.results) == r.prize_pool
([1, 2, 3, 4, 5, 6], True)
"""

from __future__ import annotations

import heapq
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

from stud8.core import Deck, Game, Hand, TableRules
from stud8.formats.pokerstars.tournament import buy_in_text, roman
from stud8.formats.pokerstars.write import HAND_SEPARATOR, to_pokerstars
from stud8.formats.record import HandRecord, Tournament
from stud8.tools.bots import BOTS, Bot, make_bot
from stud8.tools.bots.window import deciders, play_fast
from stud8.tournament import STRUCTURES, TournamentDefinition
from stud8.tournament.director import Director, Phase
from stud8.tournament.events import (
    Busted,
    DealHand,
    Decision,
    Event,
    FinalTable,
    Finished,
    HandFinished,
    LevelStarted,
    Moved,
    Register,
    Result,
    Seated,
    TableBroken,
    TableOpened,
    Tick,
    as_dict,
)

__all__ = [
    "DECISION_SECONDS",
    "HAND_SECONDS",
    "TournamentSimConfig",
    "TournamentSimError",
    "TournamentSimResult",
    "simulate_tournament",
]

#: The simulated time a hand takes: this, plus DECISION_SECONDS for each decision.
HAND_SECONDS = 12.0
DECISION_SECONDS = 3.0
Observer = Callable[[Director, tuple[Decision, ...]], None]

#: The most players a simulated tournament takes.
MAX_PLAYERS = 10_000


HAND_FORMATS = ("json", "pokerstars")
#: The simulated clock's zero, as the hands' dates give it (a fixed day: a run is
#: reproducible from its seed, dates too).
EPOCH = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class TournamentSimError(ValueError):
    """Settings a simulated tournament cannot run with (the message says why)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentSimConfig:
    """What to play. ``bots``: the bots' names, dealt out to the players in turn
    (``rules,equity`` for 18 players: nine of each, alternating)."""

    players: int
    seed: int
    table_size: int = 8
    structure: str = "turbo"
    bots: tuple[str, ...] = ("rules",)
    game: Game = Game.STUD_HI_LO
    buy_in: int = 100
    fee: int = 0
    equity_trials: int | None = None
    out: Path | None = None
    #: How ``out`` holds the hands: ``json`` (every event and decision, in
    #: tournament.jsonl) or ``pokerstars`` (every hand as PokerStars tournament text,
    #: in hands.txt, as the room writes them, besides the JSON).
    hands_format: str = "json"

    def __post_init__(self) -> None:
        if self.hands_format not in HAND_FORMATS:
            raise TournamentSimError(
                f"unknown format {self.hands_format!r}: choose from {', '.join(HAND_FORMATS)}"
            )
        if (
            not isinstance(self.players, int)
            or isinstance(self.players, bool)
            or not 2 <= self.players <= MAX_PLAYERS
        ):
            raise TournamentSimError(
                f"a tournament takes 2 to {MAX_PLAYERS} players, got {self.players!r}"
            )
        if self.structure not in STRUCTURES:
            raise TournamentSimError(
                f"unknown structure {self.structure!r}: choose from {', '.join(STRUCTURES)}"
            )
        if not self.bots or any(not b for b in self.bots):
            raise TournamentSimError("name at least one bot, none empty")
        unknown = sorted({b for b in self.bots if b not in BOTS})
        if unknown:
            raise TournamentSimError(
                f"unknown bot {', '.join(map(repr, unknown))}: choose from {', '.join(BOTS)}"
            )
        if self.equity_trials is not None and self.equity_trials < 1:
            raise TournamentSimError(f"equity trials must be at least 1, got {self.equity_trials}")
        self.definition()  # validates the rest

    def definition(self) -> TournamentDefinition:
        try:
            return TournamentDefinition(
                name=f"simulated {self.structure}",
                game=self.game,
                structure=STRUCTURES[self.structure],
                buy_in=self.buy_in,
                fee=self.fee,
                table_size=self.table_size,
                min_entrants=self.players,
                max_entrants=self.players,
            )
        except ValueError as e:
            raise TournamentSimError(str(e)) from None

    def player_bots(self) -> list[str]:
        return [self.bots[i % len(self.bots)] for i in range(self.players)]

    def names(self) -> list[str]:
        """``rules-1``, ``equity-2``, ...: the bot and the player's number."""
        return [f"{bot}-{i}" for i, bot in enumerate(self.player_bots(), 1)]


@dataclass(slots=True)
class LevelHistory:
    level: int
    stakes: tuple[int, int, int, int]
    started_at: float
    break_minutes: int
    players_left: int
    hands: int = 0


@dataclass(slots=True)
class TableHistory:
    table: int
    opened_at: float
    broken_at: float | None = None
    hands: int = 0
    busted: int = 0
    moved_in: int = 0
    moved_out: int = 0
    final: bool = False


@dataclass(slots=True)
class TournamentSimResult:
    """The results (best first), the prize pool, the history, and the figures
    (``seconds``: the whole run, wall clock; ``director_seconds``: in the director)."""

    config: TournamentSimConfig
    results: tuple[Result, ...]
    prize_pool: int
    hands: int
    decisions: int
    simulated_seconds: float
    seconds: float
    director_seconds: float = 0.0
    levels: list[LevelHistory] = field(default_factory=list)
    tables: list[TableHistory] = field(default_factory=list)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        c = self.config
        return {
            "players": c.players,
            "table_size": c.table_size,
            "structure": c.structure,
            "game": c.game.value,
            "bots": list(c.bots),
            "seed": c.seed,
            "buy_in": c.buy_in,
            "fee": c.fee,
            "prize_pool": self.prize_pool,
            "results": [as_dict(r) for r in self.results],
            "hands": self.hands,
            "decisions": self.decisions,
            "simulated_seconds": round(self.simulated_seconds, 1),
            "seconds": round(self.seconds, 3),
            "levels": [{**vars_of(lv), "stakes": list(lv.stakes)} for lv in self.levels],
            "tables": [vars_of(t) for t in self.tables],
        }


def vars_of(record: LevelHistory | TableHistory) -> dict[str, Any]:
    return {name: getattr(record, name) for name in record.__slots__}


class _Run:
    """One simulated tournament in progress."""

    def __init__(
        self,
        config: TournamentSimConfig,
        log: TextIO | None,
        observe: Observer | None = None,
        hands: TextIO | None = None,
    ) -> None:
        self.config = config
        self.hands_out = hands
        self.written = 0
        self.observe = observe
        self.director_seconds = 0.0
        self.definition = config.definition()
        seed = config.seed
        self.director = Director(
            self.definition, rng=random.Random(f"stud8-tournament/{seed}/director")
        )
        self.names = config.names()
        self.bots: dict[str, Bot] = {}
        for i, (name, kind) in enumerate(zip(self.names, config.player_bots(), strict=True), 1):
            rng = random.Random(f"stud8-tournament/{seed}/player-{i}")
            if kind == "equity" and config.equity_trials is not None:
                from stud8.tools.bots.equity_bot import EquityBot

                self.bots[name] = EquityBot(rng, trials=config.equity_trials, game=config.game)
            else:
                self.bots[name] = make_bot(kind, rng, game=config.game)
        # how each player's bot is asked, worked out once (a protocol check is slow)
        self.ask = {name: deciders({0: bot})[0] for name, bot in self.bots.items()}
        self.player_of: dict[int, str] = {}
        self.decks = random.Random(f"stud8-tournament/{seed}/decks")
        self.rules: dict[tuple[int, bool], TableRules] = {}
        self.pending: list[tuple[float, int, int, int, tuple[tuple[int, int], ...]]] = []
        self.now = 0.0
        self.hands = 0
        self.decisions = 0
        self.levels: list[LevelHistory] = []
        self.tables: dict[int, TableHistory] = {}
        self.log = log
        self.finished: Finished | None = None

    def handle(self, event: Event) -> None:
        self.write(event)
        clock = time.perf_counter()
        decisions = self.director.handle(event)
        self.director_seconds += time.perf_counter() - clock
        if self.observe is not None:
            self.observe(self.director, decisions)
        self.take(decisions)

    def run(self) -> None:
        for name in self.names:
            self.handle(Register(now=0.0, player=name))
        td = self.director
        while td.phase is Phase.RUNNING:
            deadline = td.next_deadline()
            if self.pending and (deadline is None or self.pending[0][0] <= deadline):
                at, _, table, hand, stacks = heapq.heappop(self.pending)
                self.now = at
                self.handle(HandFinished(now=at, table=table, hand=hand, stacks=stacks))
            elif deadline is not None:
                self.now = max(self.now, deadline)
                self.handle(Tick(now=self.now))
            else:  # pragma: no cover - the director always deals or waits for time
                raise AssertionError("the tournament is stuck: no hand in play, nothing due")

    def write(self, record: Any) -> None:
        if self.log is not None:
            self.log.write(json.dumps({"t": round(self.now, 1), **as_dict(record)}) + "\n")

    def take(self, decisions: tuple[Decision, ...]) -> None:
        for d in decisions:
            self.write(d)
            if isinstance(d, DealHand):
                self.play(d)
            elif isinstance(d, Seated):
                self.player_of[d.entry] = d.player
            elif isinstance(d, LevelStarted):
                self.levels.append(
                    LevelHistory(
                        d.level, d.stakes, self.now, d.break_minutes, self.director.players_left
                    )
                )
            elif isinstance(d, TableOpened):
                self.tables[d.table] = TableHistory(d.table, self.now)
            elif isinstance(d, TableBroken):
                self.tables[d.table].broken_at = self.now
            elif isinstance(d, Moved):
                self.tables[d.from_table].moved_out += 1
                self.tables[d.to_table].moved_in += 1
            elif isinstance(d, FinalTable):
                self.tables[d.table].final = True
            elif isinstance(d, Finished):
                self.finished = d
            elif isinstance(d, Busted):
                self.tables[d.table].busted += 1

    def play(self, deal: DealHand) -> None:
        heads_up = self.director.players_left <= 2
        key = (deal.level, heads_up)
        rules = self.rules.get(key)
        if rules is None:
            rules = self.definition.table_rules(deal.level, players_left=2 if heads_up else 3)
            self.rules[key] = rules
        stacks = {seat: chips for seat, _, chips in deal.seats}
        players = {seat: self.player_of[e] for seat, e, _ in deal.seats}
        bots = {seat: self.bots[p] for seat, p in players.items()}
        ask = {seat: self.ask[p] for seat, p in players.items()}
        hand = Hand.start(
            rules=rules,
            stacks=stacks,
            deck=Deck.shuffled(self.decks),
            hand_id=f"{self.config.seed}-{deal.hand}",
        )
        final = play_fast(hand, bots, ask).stacks
        if self.hands_out is not None:
            self.write_hand(hand, deal, players)
        decisions = len(hand.decisions)
        self.hands += 1
        self.decisions += decisions
        if self.levels:
            self.levels[-1].hands += 1
        self.tables[deal.table].hands += 1
        end = self.now + HAND_SECONDS + DECISION_SECONDS * decisions
        result = tuple(sorted(final.items()))
        heapq.heappush(self.pending, (end, deal.hand, deal.table, deal.hand, result))

    def write_hand(self, hand: Hand, deal: DealHand, players: dict[int, str]) -> None:
        """The hand as the room writes a tournament's hand: PokerStars text with the
        tournament's number, buy-in and level, the table ``NUMBER TABLE``."""
        d = self.definition
        number = str(self.config.seed % 10**9)
        record = HandRecord.from_hand(
            hand,
            names=players,
            table=f"{number} {deal.table}",
            started_at=EPOCH + timedelta(seconds=self.now),
        )
        record = replace(
            record, tournament=Tournament(number, buy_in_text(d.buy_in, d.fee), roman(deal.level))
        )
        out = self.hands_out
        assert out is not None
        if self.written:
            out.write(HAND_SEPARATOR)
        out.write(to_pokerstars(record, everything=True))
        self.written += 1


def check_ready(config: TournamentSimConfig) -> None:
    """Refuse, before any work, the equity bot without numpy and numba, and an output
    directory that cannot be made."""
    if "equity" in config.bots:
        try:
            import stud8.tools.equity  # noqa: F401
        except ImportError as e:
            raise TournamentSimError(
                f"the equity bot needs numpy and numba ({e.name or e} is not installed): "
                "pip install 'stud8[tools]'"
            ) from None
    out = config.out
    if out is not None:
        if out.exists() and not out.is_dir():
            raise TournamentSimError(f"--out {out}: exists and is not a directory")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise TournamentSimError(
                f"--out {out}: cannot make the directory: {e.strerror}"
            ) from None


def simulate_tournament(
    config: TournamentSimConfig, observe: Observer | None = None
) -> TournamentSimResult:
    """Play the tournament to its end; see the module docstring. With ``config.out``,
    every event and decision goes to ``tournament.jsonl`` there, one a line, with its
    simulated time ``t``, and the result to ``result.json``. ``observe`` is called with
    the director and its decisions after every event (the tests check invariants)."""
    check_ready(config)
    begin = time.perf_counter()
    log = hands = None
    if config.out is not None:
        log = open(config.out / "tournament.jsonl", "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        if config.hands_format == "pokerstars":
            hands = open(config.out / "hands.txt", "w", encoding="utf-8", newline="\n")  # noqa: SIM115
    try:
        run = _Run(config, log, observe, hands)
        run.run()
    finally:
        for out in (log, hands):
            if out is not None:
                out.close()
    seconds = time.perf_counter() - begin
    assert run.finished is not None
    result = TournamentSimResult(
        config=config,
        results=run.finished.results,
        prize_pool=run.finished.prize_pool,
        hands=run.hands,
        decisions=run.decisions,
        simulated_seconds=run.now,
        seconds=seconds,
        director_seconds=run.director_seconds,
        levels=run.levels,
        tables=[run.tables[n] for n in sorted(run.tables)],
    )
    if config.out is not None:
        (config.out / "result.json").write_text(
            json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8"
        )
    return result
