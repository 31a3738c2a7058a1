"""A tournament's definition: what is played, for what, how fast, and who is paid.

One validated, keyword-only, frozen record (:class:`TournamentDefinition`), with its
level structure (:class:`Structure`: the starting chips, then :class:`Level` and
:class:`Break` steps) and its payouts (:mod:`stud8.tournament.payouts`). Money (buy-in,
fee) is in room chips, stakes and stacks in tournament chips: integers both.

>>> from stud8.tournament.structures import STRUCTURES
>>> d = TournamentDefinition(structure=STRUCTURES["turbo"], buy_in=100, fee=10,
...                          max_entrants=6)
>>> d.starting_chips, d.level(1).stakes, d.is_sit_and_go
(1500, (5, 10, 20, 40), True)
>>> TournamentDefinition.from_dict(d.to_dict()) == d
True
>>> TournamentDefinition(structure=STRUCTURES["turbo"], table_size=9)
Traceback (most recent call last):
...
stud8.tournament.definition.DefinitionError: table_size: a Stud table seats 2 to 8 players, got 9
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from itertools import pairwise
from typing import Any

from stud8.core.errors import Stud8Error
from stud8.core.rules import MAX_SEATS, Game, HeadsUpCap, TableRules
from stud8.tournament.payouts import PayoutError, check_payouts

__all__ = [
    "MAX_ENTRANTS",
    "Break",
    "DefinitionError",
    "Level",
    "Start",
    "Step",
    "Structure",
    "TournamentDefinition",
    "TournamentError",
]

#: The most entrants a tournament may take (a limit, defined once).
MAX_ENTRANTS = 10_000
#: The longest a level or a break may last, in minutes, and a level in hands.
MAX_MINUTES = 24 * 60
MAX_HANDS = 10_000


class TournamentError(Stud8Error):
    """Base of the tournament errors: bad input, said what and where."""


class DefinitionError(TournamentError):
    """A tournament definition (or a structure, a level) that is not valid."""


def _whole(name: str, value: object, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise DefinitionError(f"{name} must be a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise DefinitionError(f"{name} must be {span}, got {value}")
    return value


class Start(Enum):
    """When a tournament starts."""

    WHEN_FULL = "when_full"  # a sit-and-go: as soon as max_entrants have registered
    AT_TIME = "at_time"  # scheduled: at starts_at, if min_entrants have registered


@dataclass(frozen=True, slots=True, kw_only=True)
class Level:
    """One level: the stakes (ante, bring-in, small bet, big bet; the engine's
    :class:`~stud8.core.rules.TableRules` checks them) and how long it lasts, in
    minutes or in hands (exactly one of the two)."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    minutes: int | None = None
    hands: int | None = None

    def __post_init__(self) -> None:
        try:
            TableRules(
                ante=self.ante,
                bring_in=self.bring_in,
                small_bet=self.small_bet,
                big_bet=self.big_bet,
            )
        except ValueError as e:
            raise DefinitionError(f"level stakes: {e}") from None
        if (self.minutes is None) == (self.hands is None):
            raise DefinitionError(
                f"a level lasts a number of minutes or of hands (one of the two), got "
                f"minutes={self.minutes!r}, hands={self.hands!r}"
            )
        if self.minutes is not None:
            _whole("a level's minutes", self.minutes, 1, MAX_MINUTES)
        if self.hands is not None:
            _whole("a level's hands", self.hands, 1, MAX_HANDS)

    @property
    def stakes(self) -> tuple[int, int, int, int]:
        return (self.ante, self.bring_in, self.small_bet, self.big_bet)

    @property
    def seconds(self) -> float | None:
        return None if self.minutes is None else 60.0 * self.minutes

    def __str__(self) -> str:
        length = f"{self.minutes} min" if self.minutes is not None else f"{self.hands} hands"
        return (
            f"ante {self.ante}, bring-in {self.bring_in}, {self.small_bet}/{self.big_bet}, {length}"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Break:
    """A pause between two levels: no hand is dealt until it ends."""

    minutes: int

    def __post_init__(self) -> None:
        _whole("a break's minutes", self.minutes, 1, MAX_MINUTES)

    @property
    def seconds(self) -> float:
        return 60.0 * self.minutes

    def __str__(self) -> str:
        return f"break, {self.minutes} min"


Step = Level | Break


@dataclass(frozen=True, slots=True, kw_only=True)
class Structure:
    """The starting chips and the steps, levels and breaks, in order. Levels are
    numbered from 1, breaks not counted. The last level lasts until the end."""

    name: str
    starting_chips: int
    steps: tuple[Step, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not 1 <= len(self.name) <= 40:
            raise DefinitionError(f"a structure's name is 1 to 40 characters, got {self.name!r}")
        _whole("starting_chips", self.starting_chips, 1, 10**12)
        if not isinstance(self.steps, tuple):
            raise DefinitionError(
                f"a structure's steps are a tuple, got {type(self.steps).__name__}"
            )
        for i, step in enumerate(self.steps, 1):
            if not isinstance(step, (Level, Break)):
                raise DefinitionError(f"step {i} is not a Level nor a Break: {step!r}")
        levels = self.levels
        if not levels:
            raise DefinitionError("a structure needs at least one level")
        if isinstance(self.steps[0], Break) or isinstance(self.steps[-1], Break):
            raise DefinitionError("a structure starts and ends with a level, not a break")
        if any(isinstance(a, Break) and isinstance(b, Break) for a, b in pairwise(self.steps)):
            raise DefinitionError("two breaks in a row: make it one")
        if len({lv.minutes is None for lv in levels}) > 1:
            raise DefinitionError("the levels last all in minutes or all in hands, not a mix")
        for n, (a, b) in enumerate(pairwise(levels), 2):
            if b.big_bet < a.big_bet:
                raise DefinitionError(
                    f"level {n}: the big bet ({b.big_bet}) is below level {n - 1}'s ({a.big_bet})"
                )

    @property
    def levels(self) -> tuple[Level, ...]:
        return tuple(s for s in self.steps if isinstance(s, Level))

    @property
    def by_hands(self) -> bool:
        return self.levels[0].hands is not None

    def level_number(self, index: int) -> int:
        """The number (from 1) of the level at ``steps[index]``, or of the last level
        before it if it is a break."""
        return sum(isinstance(s, Level) for s in self.steps[: index + 1])

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "starting_chips": self.starting_chips,
            "steps": [_step_dict(s) for s in self.steps],
        }

    @classmethod
    def from_dict(cls, data: Any) -> Structure:
        try:
            steps = tuple(_step_from(s) for s in data["steps"])
            return cls(name=data["name"], starting_chips=data["starting_chips"], steps=steps)
        except (KeyError, TypeError) as e:
            raise DefinitionError(f"a structure's record is malformed: {e!r}") from None


def _step_dict(step: Step) -> dict[str, Any]:
    if isinstance(step, Break):
        return {"break": step.minutes}
    d: dict[str, Any] = {"stakes": list(step.stakes)}
    if step.minutes is not None:
        d["minutes"] = step.minutes
    else:
        d["hands"] = step.hands
    return d


def _step_from(d: Any) -> Step:
    if "break" in d:
        return Break(minutes=d["break"])
    ante, bring_in, small, big = d["stakes"]
    return Level(
        ante=ante,
        bring_in=bring_in,
        small_bet=small,
        big_bet=big,
        minutes=d.get("minutes"),
        hands=d.get("hands"),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentDefinition:
    """Everything a tournament is, before anyone registers.

    ``late_registration``: registration (and re-entry) stays open until the end of
    level N (0: closes at the start). ``reentries``: how many times a busted player
    may buy in again while it is open. ``payouts``: each paid place's share in basis
    points (1/100 of a percent; summing to 10000, never rising), or None for the
    default by number of entries (:func:`stud8.tournament.payouts.default_payouts`).
    """

    structure: Structure
    name: str = "Tournament"
    game: Game = Game.STUD_HI_LO
    buy_in: int = 0
    fee: int = 0
    table_size: int = MAX_SEATS
    min_entrants: int = 2
    max_entrants: int = MAX_SEATS
    start: Start = Start.WHEN_FULL
    starts_at: datetime | None = None
    late_registration: int = 0
    reentries: int = 0
    payouts: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.structure, Structure):
            raise DefinitionError(f"structure must be a Structure, got {self.structure!r}")
        if not isinstance(self.name, str) or not 1 <= len(self.name) <= 100:
            raise DefinitionError(f"name is 1 to 100 characters, got {self.name!r}")
        for name, enum in (("game", Game), ("start", Start)):
            v = getattr(self, name)
            if not isinstance(v, enum):
                try:
                    object.__setattr__(self, name, enum(v))
                except ValueError:
                    choices = ", ".join(repr(m.value) for m in enum)
                    raise DefinitionError(f"{name} must be one of {choices}, got {v!r}") from None
        _whole("buy_in", self.buy_in, 0, 10**12)
        _whole("fee", self.fee, 0, 10**12)
        if not isinstance(self.table_size, int) or not 2 <= self.table_size <= MAX_SEATS:
            raise DefinitionError(
                f"table_size: a Stud table seats 2 to {MAX_SEATS} players, got {self.table_size!r}"
            )
        _whole("min_entrants", self.min_entrants, 2, MAX_ENTRANTS)
        _whole("max_entrants", self.max_entrants, 2, MAX_ENTRANTS)
        if self.max_entrants < self.min_entrants:
            raise DefinitionError(
                f"max_entrants ({self.max_entrants}) is below min_entrants ({self.min_entrants})"
            )
        levels = len(self.structure.levels)
        _whole("late_registration", self.late_registration, 0, levels)
        _whole("reentries", self.reentries, 0, 100)
        if self.start is Start.AT_TIME:
            at = self.starts_at
            if not isinstance(at, datetime) or at.tzinfo is None:
                raise DefinitionError(
                    f"a scheduled tournament needs starts_at, a datetime with its time zone, "
                    f"got {at!r}"
                )
        else:
            if self.starts_at is not None:
                raise DefinitionError("a sit-and-go starts when full: starts_at must be None")
            if self.late_registration:
                raise DefinitionError(
                    "a sit-and-go starts when full: there is no late registration"
                )
        if self.reentries and not self.late_registration:
            raise DefinitionError("re-entries need late registration (a time to re-enter in)")
        if self.payouts is not None:
            if not isinstance(self.payouts, tuple):
                raise DefinitionError(f"payouts is a tuple of basis points, got {self.payouts!r}")
            try:
                check_payouts(self.payouts)
            except PayoutError as e:
                raise DefinitionError(str(e)) from None

    # ---------------------------------------------------------------- reading
    @property
    def starting_chips(self) -> int:
        return self.structure.starting_chips

    @property
    def is_sit_and_go(self) -> bool:
        return self.start is Start.WHEN_FULL

    @property
    def entry_cost(self) -> int:
        """What an entry costs a player in room chips: the buy-in and the fee."""
        return self.buy_in + self.fee

    def level(self, number: int) -> Level:
        """Level ``number`` (from 1); past the last, the last."""
        levels = self.structure.levels
        if not isinstance(number, int) or number < 1:
            raise DefinitionError(f"levels are numbered from 1, got {number!r}")
        return levels[min(number, len(levels)) - 1]

    def table_rules(self, number: int, *, players_left: int) -> TableRules:
        """The rules of a hand dealt at level ``number``: its stakes, the game, and
        the raise cap kept when a table is heads-up until the tournament itself is
        (TDA "Number of Allowable Raises": in limit events the cap holds heads-up
        until the tournament is down to two players)."""
        lv = self.level(number)
        cap = HeadsUpCap.LIFTED_WHEN_HEADS_UP if players_left <= 2 else HeadsUpCap.NEVER_LIFTED
        return TableRules(
            ante=lv.ante,
            bring_in=lv.bring_in,
            small_bet=lv.small_bet,
            big_bet=lv.big_bet,
            game=self.game,
            heads_up_cap=cap,
            max_seats=self.table_size,
        )

    # ------------------------------------------------------------ (de)serialising
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record; :meth:`from_dict` reads it back equal."""
        return {
            "name": self.name,
            "game": self.game.value,
            "structure": self.structure.to_dict(),
            "buy_in": self.buy_in,
            "fee": self.fee,
            "table_size": self.table_size,
            "min_entrants": self.min_entrants,
            "max_entrants": self.max_entrants,
            "start": self.start.value,
            "starts_at": None if self.starts_at is None else self.starts_at.isoformat(),
            "late_registration": self.late_registration,
            "reentries": self.reentries,
            "payouts": None if self.payouts is None else list(self.payouts),
        }

    @classmethod
    def from_dict(cls, data: Any) -> TournamentDefinition:
        if not isinstance(data, dict):
            raise DefinitionError(f"a definition's record is an object, got {type(data).__name__}")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise DefinitionError(f"a definition's record has unknown fields: {unknown}")
        fields = dict(data)
        try:
            fields["structure"] = Structure.from_dict(data["structure"])
            at = data.get("starts_at")
            fields["starts_at"] = None if at is None else datetime.fromisoformat(at)
            payouts = data.get("payouts")
            fields["payouts"] = None if payouts is None else tuple(payouts)
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, DefinitionError):
                raise
            raise DefinitionError(f"a definition's record is malformed: {e}") from None
        return cls(**fields)
