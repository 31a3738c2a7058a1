"""Table rules: one validated, keyword-only settings object.

Every option of RULES.md is here, with its default. Money is in integer chip
units.

>>> rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
>>> rules.bet_size(3), rules.bet_size(5)
(4, 8)
>>> TableRules(ante=-1, bring_in=2, small_bet=4, big_bet=8)
Traceback (most recent call last):
...
stud8.core.errors.RulesError: ante must be an integer of 0 or more, got -1
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import Decimal
from enum import Enum
from fractions import Fraction

from stud8.core.errors import RulesError

MAX_SEATS = 8


class Game(Enum):
    """The game of the family (RULES.md section 8)."""

    STUD_HI_LO = "stud_hi_lo"  # Seven Card Stud Hi/Lo, 8 or better (default)
    STUD_HIGH = "stud_high"  # Seven Card Stud, high only
    RAZZ = "razz"  # Seven Card Stud, ace-to-five low only


class BettingStructure(Enum):
    FIXED_LIMIT = "fixed_limit"
    POT_LIMIT = "pot_limit"
    NO_LIMIT = "no_limit"


class HeadsUpCap(Enum):
    """When the raise cap is lifted heads-up (RULES.md section 3)."""

    LIFTED_WHEN_HEADS_UP = "lifted_when_heads_up"  # RRoP (default)
    LIFTED_IF_ROUND_STARTS_HEADS_UP = "lifted_if_round_starts_heads_up"  # WSOP cash
    NEVER_LIFTED = "never_lifted"  # TDA, WSOP tournaments


class AllInLowCard(Enum):
    """What the player on the left of a low card all-in for the ante must do."""

    NEXT_MUST_BRING_IN = "next_must_bring_in"  # PS (default)
    NEXT_MAY_FOLD = "next_may_fold"  # RRoP, TDA


class FirstToActTie(Enum):
    """How an exact tie of the highest hand showing is broken."""

    POSITION = "position"  # lowest seat number (RRoP, WSOP; default)
    HIGHEST_CARD_BY_SUIT = "highest_card_by_suit"  # TDA


class CommunityCardFirstToAct(Enum):
    SAME_AS_SIXTH_STREET = "same_as_sixth_street"  # TDA (default)
    HIGH_HAND_WITH_COMMUNITY = "high_hand_with_community"  # RRoP


class ShowOrderNoBet(Enum):
    """Who shows first when nobody bet on the last round."""

    EARLIEST_SEAT = "earliest_seat"  # seed 002, PS (default)
    FIRST_TO_ACT_SEVENTH = "first_to_act_seventh"  # TDA


class OddChip(Enum):
    """Who gets an odd chip among tied hands (RULES.md section 5.3)."""

    ALL_CARDS = "all_cards"  # seed 001, RRoP (default)
    FIVE_CARD_HAND = "five_card_hand"  # TDA, WSOP


class OddChipHalf(Enum):
    """Which half of a split pot takes its odd chip (RULES.md section 5.2)."""

    HIGH = "high"  # RULES.md (default)
    LOW = "low"  # Winning Poker Network (docs/rules.md)


class TimeoutPolicy(Enum):
    """What a timed-out player's hand does (RULES.md section 6)."""

    ALL_IN_PROTECTION = "all_in_protection"  # seeds 001, 003 (default)
    CHECK_OR_FOLD = "check_or_fold"  # most sites today


def _coerce_rate(value: object) -> Fraction:
    if isinstance(value, bool):
        raise RulesError(f"rake_percent must be a number, got {value!r}")
    if isinstance(value, float):
        value = str(value)  # 2.5 -> Fraction('2.5'), not its binary approximation
    if not isinstance(value, (int, str, Fraction, Decimal)):
        raise RulesError(f"rake_percent must be a number from 0 to 100, got {value!r}")
    try:
        rate = Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        raise RulesError(f"rake_percent must be a number from 0 to 100, got {value!r}") from None
    if not 0 <= rate <= 100:
        raise RulesError(f"rake_percent must be from 0 to 100, got {value!r}")
    return rate


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRules:
    """The rules of one table. All money in chip units (integers)."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    game: Game = Game.STUD_HI_LO
    structure: BettingStructure = BettingStructure.FIXED_LIMIT
    big_bet_street: int = 5
    # Stud high, fixed limit: an open pair on 4th street allows the big bet (RULES.md 8;
    # no effect in the other games, nor when 4th street is already a big-bet street)
    open_pair_big_bet: bool = True
    raise_cap: int | None = 3
    heads_up_cap: HeadsUpCap = HeadsUpCap.LIFTED_WHEN_HEADS_UP
    all_in_low_card: AllInLowCard = AllInLowCard.NEXT_MUST_BRING_IN
    first_to_act_tie: FirstToActTie = FirstToActTie.POSITION
    community_card_first_to_act: CommunityCardFirstToAct = (
        CommunityCardFirstToAct.SAME_AS_SIXTH_STREET
    )
    show_order_no_bet: ShowOrderNoBet = ShowOrderNoBet.EARLIEST_SEAT
    odd_chip: OddChip = OddChip.ALL_CARDS
    odd_chip_half: OddChipHalf = OddChipHalf.HIGH
    rake_percent: Fraction = Fraction(0)
    rake_cap: int | None = None
    rake_third_street: bool = False
    timeout_policy: TimeoutPolicy = TimeoutPolicy.ALL_IN_PROTECTION
    action_seconds: int = 10
    time_bank_seconds: int = 20
    reconnect_seconds: int = 20
    max_seats: int = MAX_SEATS

    def __post_init__(self) -> None:
        for name in ("ante", "bring_in", "small_bet", "big_bet"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise RulesError(f"{name} must be an integer of 0 or more, got {v!r}")
        if self.bring_in < 1:
            raise RulesError(f"bring_in must be at least 1 chip, got {self.bring_in}")
        if self.small_bet < 1:
            raise RulesError(f"small_bet must be at least 1 chip, got {self.small_bet}")
        if self.bring_in > self.small_bet:
            raise RulesError(
                f"bring_in ({self.bring_in}) must not be above the small bet ({self.small_bet})"
            )
        if self.big_bet < self.small_bet:
            raise RulesError(
                f"big_bet ({self.big_bet}) must not be below the small bet ({self.small_bet})"
            )
        enums = {
            "game": Game,
            "structure": BettingStructure,
            "heads_up_cap": HeadsUpCap,
            "all_in_low_card": AllInLowCard,
            "first_to_act_tie": FirstToActTie,
            "community_card_first_to_act": CommunityCardFirstToAct,
            "show_order_no_bet": ShowOrderNoBet,
            "odd_chip": OddChip,
            "odd_chip_half": OddChipHalf,
            "timeout_policy": TimeoutPolicy,
        }
        for name, enum in enums.items():
            v = getattr(self, name)
            if not isinstance(v, enum):
                try:
                    object.__setattr__(self, name, enum(v))
                except ValueError:
                    choices = ", ".join(repr(m.value) for m in enum)
                    raise RulesError(f"{name} must be one of {choices}, got {v!r}") from None
        if (
            not isinstance(self.big_bet_street, int)
            or isinstance(self.big_bet_street, bool)
            or self.big_bet_street not in (4, 5, 6, 7)
        ):
            raise RulesError(f"big_bet_street must be 4, 5, 6 or 7, got {self.big_bet_street!r}")
        if not isinstance(self.open_pair_big_bet, bool):
            raise RulesError(
                f"open_pair_big_bet must be True or False, got {self.open_pair_big_bet!r}"
            )
        if self.raise_cap is not None and (
            not isinstance(self.raise_cap, int)
            or isinstance(self.raise_cap, bool)
            or self.raise_cap < 1
        ):
            raise RulesError(
                f"raise_cap must be a whole number of raises (1 or more) or None, "
                f"got {self.raise_cap!r}"
            )
        object.__setattr__(self, "rake_percent", _coerce_rate(self.rake_percent))
        if self.rake_cap is not None and (
            not isinstance(self.rake_cap, int)
            or isinstance(self.rake_cap, bool)
            or self.rake_cap < 0
        ):
            raise RulesError(
                f"rake_cap must be an integer of 0 or more or None, got {self.rake_cap!r}"
            )
        for name in ("action_seconds", "time_bank_seconds", "reconnect_seconds"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise RulesError(f"{name} must be a whole number of seconds, got {v!r}")
        if not isinstance(self.max_seats, int) or not 2 <= self.max_seats <= MAX_SEATS:
            raise RulesError(
                f"a Stud table seats 2 to {MAX_SEATS} players; max_seats {self.max_seats!r} "
                "is not possible with one 52-card deck"
            )

    @property
    def is_fixed_limit(self) -> bool:
        return self.structure is BettingStructure.FIXED_LIMIT

    @property
    def open_pair_in_force(self) -> bool:
        """Whether an open pair on 4th street allows the big bet (RULES.md 8): Stud
        (high only), fixed limit, the option on, and 4th street a small-bet street."""
        return (
            self.game is Game.STUD_HIGH
            and self.is_fixed_limit
            and self.open_pair_big_bet
            and self.big_bet_street > 4
        )

    def bet_size(self, street: int) -> int:
        """The fixed-limit bet (or the minimum bet in pot and no limit) on this street."""
        return self.big_bet if street >= self.big_bet_street else self.small_bet

    def rake_for(self, pot: int, *, ended_on_third_street: bool) -> int:
        """The rake on a pot: a percentage rounded down to the chip, capped."""
        if ended_on_third_street and not self.rake_third_street:
            return 0
        rake = int(pot * self.rake_percent / 100)  # floor: both are non-negative
        if self.rake_cap is not None:
            rake = min(rake, self.rake_cap)
        return rake

    def __repr__(self) -> str:
        defaults = TableRules(ante=0, bring_in=1, small_bet=1, big_bet=1)
        parts = []
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in ("ante", "bring_in", "small_bet", "big_bet") or v != getattr(
                defaults, f.name
            ):
                text = f"{type(v).__name__}.{v.name}" if isinstance(v, Enum) else repr(v)
                parts.append(f"{f.name}={text}")
        return f"TableRules({', '.join(parts)})"
