"""The showdown: who may muck, who gets the odd chips, and the hand's result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from stud8.core.cards import Card
from stud8.core.evaluate import (
    HighValue,
    LowValue,
    RazzValue,
    best_high_cards,
    best_low_cards,
    best_razz_low,
    evaluate_hi_lo,
)
from stud8.core.pots import OddChipKey, Pot, PotResult
from stud8.core.rules import OddChip

_set: Final = object.__setattr__  # frozen: fields are set past the refusing __setattr__


@dataclass(frozen=True, slots=True, init=False)
class HandResult:
    """The outcome: each pot, who won which half, the rake and the final stacks."""

    pots: tuple[PotResult, ...]
    rake: int
    stacks: dict[int, int]
    starting_stacks: dict[int, int]
    showdown: bool

    # Written out (init=False): compiled, a dataclass's own __init__ stays interpreted.
    def __init__(
        self,
        pots: tuple[PotResult, ...],
        rake: int,
        stacks: dict[int, int],
        starting_stacks: dict[int, int],
        showdown: bool,
    ) -> None:
        _set(self, "pots", pots)
        _set(self, "rake", rake)
        _set(self, "stacks", stacks)
        _set(self, "starting_stacks", starting_stacks)
        _set(self, "showdown", showdown)

    def __reduce__(self) -> tuple[type[HandResult], tuple[object, ...]]:
        # by the constructor (compiled, a frozen class's state cannot be set again)
        return HandResult, (
            self.pots,
            self.rake,
            self.stacks,
            self.starting_stacks,
            self.showdown,
        )

    @property
    def winnings(self) -> dict[int, int]:
        """Net chips won (negative: lost) by seat."""
        return {s: self.stacks[s] - self.starting_stacks[s] for s in self.stacks}


def may_win(
    seat: int,
    values: Mapping[int, tuple[HighValue, LowValue | None]],
    shown: Sequence[int],
    pots: Sequence[Pot],
) -> bool:
    """Whether the seat's hand can win or tie a half of a pot he is in,
    against the hands already shown (else he may muck)."""
    hi, lo = values[seat]
    for pot in pots:
        if seat not in pot.eligible:
            continue
        rivals = [values[s] for s in shown if s in pot.eligible]
        if not rivals or hi >= max(r[0] for r in rivals):
            return True
        if lo is not None:
            rival_lows = [r[1] for r in rivals if r[1] is not None]
            if not rival_lows or lo >= max(rival_lows):
                return True
    return False


def high_only(cards: Sequence[Card]) -> tuple[HighValue, LowValue | None]:
    """Stud (high only) and razz: the best high hand, no 8-or-better low half."""
    return evaluate_hi_lo(cards)[0], None


def may_win_razz(
    seat: int,
    values: Mapping[int, RazzValue],
    shown: Sequence[int],
    pots: Sequence[Pot],
) -> bool:
    """Razz: whether the seat's low can win or tie a pot he is in, against the
    lows already shown (else he may muck)."""
    mine = values[seat]
    for pot in pots:
        if seat not in pot.eligible:
            continue
        rivals = [values[s] for s in shown if s in pot.eligible]
        if not rivals or mine >= max(rivals):
            return True
    return False


def _best_razz_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards of the best razz low (of equal lows, the one with the highest suits)."""
    return max(
        combinations(cards, 5),
        key=lambda five: (
            best_razz_low(five).strength,
            sorted((c.low_rank * 4 + c.suit_index for c in five), reverse=True),
        ),
    )


def odd_chip_keys(
    rule: OddChip,
    own_cards: Mapping[int, Sequence[Card]],
    community: Card | None,
    *,
    razz: bool = False,
) -> tuple[OddChipKey, OddChipKey]:
    """Who gets odd chips among tied hands: the smallest key first (RULES.md 5.3).

    ``own_cards`` are each live seat's own cards (the community card apart). In
    razz the low key serves the whole pot; its five-card hand is the razz low.
    """
    if rule is OddChip.ALL_CARDS:
        # All of the player's own cards count: the highest card by rank then
        # suit for high, the lowest (ace low) then clubs first for low.
        def high(seat: int) -> tuple[int, ...]:
            return tuple(sorted(-c.code for c in own_cards[seat]))

        def low(seat: int) -> tuple[int, ...]:
            return tuple(sorted(c.low_rank * 4 + c.suit_index for c in own_cards[seat]))

        return high, low

    def cards_of(seat: int) -> list[Card]:
        return [*own_cards[seat], *([community] if community is not None else [])]

    # Option (TDA): the highest card by suit within the five-card hand for that half.
    def high5(seat: int) -> tuple[int, ...]:
        return tuple(sorted(-c.code for c in best_high_cards(cards_of(seat))))

    def low5(seat: int) -> tuple[int, ...]:
        five = _best_razz_cards(cards_of(seat)) if razz else best_low_cards(cards_of(seat)) or ()
        return tuple(sorted(-(c.low_rank * 4 + c.suit_index) for c in five))

    return high5, low5
