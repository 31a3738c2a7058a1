"""Hypothesis strategies for the rules engine: table rules, stacks, decks and moves.

Everything is drawn so that a failure shrinks to a small, readable hand: rules
shrink toward the default options and small stakes, stacks toward one chip (so
all-ins for the ante are common), and a move shrinks toward the passive choice
(check, call or bring in) rather than a fold or a timeout.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from stud8.core.actions import Action, ActionKind, LegalAction
from stud8.core.cards import Deck
from stud8.core.rules import (
    MAX_SEATS,
    AllInLowCard,
    BettingStructure,
    CommunityCardFirstToAct,
    FirstToActTie,
    Game,
    HeadsUpCap,
    OddChip,
    OddChipHalf,
    ShowOrderNoBet,
    TableRules,
    TimeoutPolicy,
)

SIZED_KINDS = frozenset({ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE})


@st.composite
def table_rules(draw: st.DrawFn) -> TableRules:
    """Any valid table: every structure, stakes with bring-in <= small bet <= big
    bet, every option, and sometimes a rake (with or without a cap)."""
    small_bet = draw(st.integers(1, 12), label="small_bet")
    bring_in = draw(st.integers(1, small_bet), label="bring_in")
    big_bet = draw(st.integers(small_bet, 3 * small_bet), label="big_bet")
    ante = draw(st.integers(0, 5), label="ante")
    rake_percent = Fraction(draw(st.integers(0, 20)), 2)  # 0% to 10% by halves
    return TableRules(
        ante=ante,
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
        game=draw(st.sampled_from(Game)),
        structure=draw(st.sampled_from(BettingStructure)),
        open_pair_big_bet=draw(st.booleans()),
        big_bet_street=draw(st.sampled_from((5, 6, 4, 7))),
        raise_cap=draw(st.one_of(st.just(3), st.none(), st.integers(1, 5))),
        heads_up_cap=draw(st.sampled_from(HeadsUpCap)),
        all_in_low_card=draw(st.sampled_from(AllInLowCard)),
        first_to_act_tie=draw(st.sampled_from(FirstToActTie)),
        community_card_first_to_act=draw(st.sampled_from(CommunityCardFirstToAct)),
        show_order_no_bet=draw(st.sampled_from(ShowOrderNoBet)),
        odd_chip=draw(st.sampled_from(OddChip)),
        odd_chip_half=draw(st.sampled_from(OddChipHalf)),
        rake_percent=rake_percent,
        rake_cap=draw(st.one_of(st.none(), st.integers(0, 20))),
        rake_third_street=draw(st.booleans()),
        timeout_policy=draw(st.sampled_from(TimeoutPolicy)),
    )


def stack_sizes(rules: TableRules) -> st.SearchStrategy[int]:
    """One player's chips: often tiny (all-in for the ante, a short bring-in, a
    short all-in), sometimes a few bets, sometimes deep."""
    forced = rules.ante + rules.bring_in
    return st.one_of(
        st.integers(1, forced + 1),
        st.integers(1, rules.ante + 2 * rules.small_bet + 1),
        st.integers(1, rules.ante + 6 * rules.big_bet),
        st.integers(1, 2000),
    )


@st.composite
def seat_stacks(draw: st.DrawFn, rules: TableRules) -> dict[int, int]:
    """2 to 8 players in distinct seats (not necessarily adjacent), with their chips."""
    seats = draw(
        st.lists(st.integers(1, MAX_SEATS), min_size=2, max_size=MAX_SEATS, unique=True),
        label="seats",
    )
    return {seat: draw(stack_sizes(rules), label=f"stack of seat {seat}") for seat in sorted(seats)}


def deck_seeds() -> st.SearchStrategy[int]:
    """A seed for ``Deck.shuffled(random.Random(seed))``."""
    return st.integers(0, 2**32 - 1)


def deck_from_seed(seed: int) -> Deck:
    return Deck.shuffled(random.Random(seed))


@dataclass(frozen=True, slots=True)
class HandSpec:
    """What a random hand starts from; printed as is when a test fails."""

    rules: TableRules
    stacks: dict[int, int]
    seed: int
    fold_percent: int = 0  # how often a player folds when he may
    timeout_percent: int = 0  # how often a player runs out of time

    @property
    def deck(self) -> Deck:
        return deck_from_seed(self.seed)

    def __repr__(self) -> str:
        return (
            f"HandSpec(rules={self.rules!r}, stacks={self.stacks!r}, seed={self.seed!r}, "
            f"fold_percent={self.fold_percent}, timeout_percent={self.timeout_percent})"
        )

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """How Hypothesis prints a falsifying example: the short repr of the rules."""
        p.text(repr(self))


@st.composite
def hand_specs(draw: st.DrawFn) -> HandSpec:
    rules = draw(table_rules())
    return HandSpec(
        rules=rules,
        stacks=draw(seat_stacks(rules)),
        seed=draw(deck_seeds()),
        # Some hands nobody folds (8 players then run out of cards on 7th street).
        fold_percent=draw(st.sampled_from((0, 5, 15, 30))),
        timeout_percent=draw(st.sampled_from((0, 3, 10))),
    )


def amounts(legal: LegalAction) -> st.SearchStrategy[int]:
    """A *to* amount of a complete, bet or raise: either end or anything between."""
    assert legal.min_to is not None and legal.max_to is not None
    return st.one_of(
        st.just(legal.min_to),
        st.just(legal.max_to),
        st.integers(legal.min_to, legal.max_to),
    )


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The move "the player to act ran out of time"."""

    def __repr__(self) -> str:
        return "TimeOut()"


Move = Action | TimeOut


@st.composite
def moves(
    draw: st.DrawFn,
    legal: tuple[LegalAction, ...],
    *,
    fold_percent: int = 15,
    timeout_percent: int = 5,
) -> Move:
    """A legal action (a random amount for a sized one), a fold now and then, or
    sometimes a timeout. Shrinks toward the first non-fold choice offered."""
    roll = draw(st.integers(0, 99))
    if roll >= 100 - timeout_percent:
        return TimeOut()
    folds = [a for a in legal if a.kind is ActionKind.FOLD]
    others = [a for a in legal if a.kind is not ActionKind.FOLD]
    if folds and (roll >= 100 - timeout_percent - fold_percent or not others):
        return folds[0].action()
    choice = draw(st.sampled_from(others))
    if choice.kind in SIZED_KINDS:
        return choice.action(draw(amounts(choice)))
    return choice.action()
