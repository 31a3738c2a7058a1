"""Tests of the rule-based bot's hand reading (stud8.tools.bots.reading): the quick,
bit-set reading of a hand agrees with the engine's evaluator."""

from __future__ import annotations

import random

import pytest

from stud8.core.cards import CARDS, parse_cards
from stud8.core.evaluate import HighCategory, evaluate_hi_lo
from stud8.tools.bots.reading import (
    Holding,
    hand_points,
    read_own,
    starting_tier,
    third_street_tier,
)

NO_DEAD = [0] * 15


def no_counts() -> list[int]:
    return NO_DEAD


@pytest.mark.parametrize("n", [5, 6, 7])
def test_the_reading_agrees_with_the_evaluator(n: int) -> None:
    """Category, the pair's rank, the made low, the lock: as the evaluator has them, on
    random hands and on hands made to hold pairs, trips, quads and flushes."""
    rng = random.Random(n)
    seen = set()
    for _ in range(4000):
        deck = list(CARDS)
        rng.shuffle(deck)
        if rng.random() < 0.5:  # crowd the ranks and suits
            ranks = rng.sample(range(2, 15), rng.randint(2, 4))
            pool = [c for c in deck if c.rank in ranks or c.suit == "h"]
            deck = pool + [c for c in deck if c not in pool]
        cards = deck[:n]
        own = read_own(cards, 7 - n, NO_DEAD, n)
        high, low = evaluate_hi_lo(cards)
        assert own.category == high.category, cards
        if high.category == HighCategory.ONE_PAIR:
            assert own.pair_rank == high.ranks[0]
        assert own.low_top == (low.ranks[0] if low is not None else 0)
        wheel = low is not None and low.ranks[0] == 5
        assert own.lock == (wheel or high.category >= HighCategory.FOUR_OF_A_KIND)
        seen.add(high.category)
    assert len(seen) >= 8  # every category but perhaps the straight flush


def test_reading_card_by_card_is_reading_at_once() -> None:
    """A holding read street by street (the community card last) reads as the same
    cards read at once."""
    rng = random.Random(3)
    for _ in range(500):
        deck = list(CARDS)
        rng.shuffle(deck)
        cards, community = deck[:6], deck[6] if rng.random() < 0.3 else None
        holding = Holding()
        for k in range(3, 7):
            holding.update(cards[:k])
        holding.update(cards, community)
        every = cards + ([community] if community is not None else [])
        if len(every) < 7:
            every.append(deck[7])
            holding.update(every)
        left = 0
        assert holding.read(left, lambda: (NO_DEAD, 7)) == read_own(every, left, NO_DEAD, 7)


def test_points_of_a_few_hands() -> None:
    # A made 8-7 low with a pair of eights, a card to come: both halves count.
    assert hand_points(parse_cards("As 2d 4c 7h 8s 8d"), 1, NO_DEAD, 6, []) == pytest.approx(
        (0.6 + 6 * 0.8 / 12, 1.6 - 0.4 + 0.2, False)
    )
    # Four to a 6-low on 5th street, no low card seen elsewhere: 16 outs in 47 cards,
    # two to come, and a bonus for drawing to a 6-low.
    hi, lo, draw = hand_points(parse_cards("As 2d 4c 6h Kd"), 2, NO_DEAD, 5, [])
    assert draw and hi == 0.0
    assert lo == pytest.approx(2.5 * (1 - (31 / 47) * (30 / 46)) + 0.3)
    # The same with the four threes and two fives out: 10 outs.
    dead = [0] * 15
    dead[3], dead[5] = 4, 2
    lo_dead = hand_points(parse_cards("As 2d 4c 6h Kd"), 2, dead, 11, [])[1]
    assert lo_dead == pytest.approx(2.5 * (1 - (31 / 41) * (30 / 40)) + 0.3)
    # Three to a flush and a pair: a pair only.
    assert hand_points(parse_cards("Ks Kd 4s 9s"), 3, NO_DEAD, 4, [])[2] is False


@pytest.mark.parametrize(
    ("cards", "counts"),
    [
        ("Kd 9c 4s", {}),
        ("7c 7d 7s", {}),
        ("As 2d 3c", {}),
        ("As 2d 3c", {2: 2, 4: 1, 5: 1, 8: 1}),  # five low cards out
        ("Jc Jd 5s", {}),
        ("Jc Jd 5s", {11: 1}),  # a jack out
        ("5c 5d As", {}),
        ("3h 6h 9h", {}),
        ("Ah 7c Kd", {}),
    ],
)
def test_the_tier_looked_up_is_the_tier_worked_out(cards: str, counts: dict[int, int]) -> None:
    """third_street_tier: the tier from the counts of every up card, the player's own
    included (his up card is the last), as starting_tier has it from the others'."""
    hand = parse_cards(cards)
    every = [0] * 15
    for rank, k in counts.items():
        every[rank] += k
    every[hand[2].rank] += 1
    dead = list(every)
    dead[hand[2].rank] -= 1
    pair = max((c.rank for c in hand if sum(d.rank == c.rank for d in hand) >= 2), default=0)
    for _ in range(2):  # looked up the second time
        assert third_street_tier(hand, lambda: every) == (starting_tier(hand, dead), pair)
