"""Tests of the hand evaluator, stud8.core.evaluate (RULES.md sections 3, 5 and 8)."""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, pairwise
from math import comb

import pytest

from stud8.core.cards import CARDS, Card, parse_cards
from stud8.core.errors import CardError
from stud8.core.evaluate import (
    HighCategory,
    HighValue,
    LowValue,
    RazzValue,
    best_high,
    best_high_cards,
    best_low,
    best_low_cards,
    best_razz_low,
    describe_up_cards,
    evaluate_hi_lo,
    hi_lo_codes,
    rank_up_cards,
    rank_up_cards_razz,
)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def high(text: str) -> HighValue:
    return best_high(cards(text))


def low(text: str) -> LowValue | None:
    return best_low(cards(text))


# ---------------------------------------------------------------------------------------
# A slow, obviously correct reference: best of all five-card subsets.

RefHigh = tuple[int, tuple[int, ...]]  # (category, ranks by significance; wheel 5-4-3-2-1)


def ref_high5(five: Sequence[Card]) -> RefHigh:
    ranks = sorted((c.rank for c in five), reverse=True)
    counts = Counter(ranks)
    flush = len({c.suit for c in five}) == 1
    straight_top = 0
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            straight_top = 5
    if straight_top:
        order = tuple(range(straight_top, straight_top - 5, -1))
        return (8 if flush else 4), order
    if flush:
        return 5, tuple(ranks)
    by_group = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    order = tuple(r for r in by_group for _ in range(counts[r]))
    shape = sorted(counts.values(), reverse=True)
    category = {
        (4, 1): 7,
        (3, 2): 6,
        (3, 1, 1): 3,
        (2, 2, 1): 2,
        (2, 1, 1, 1): 1,
        (1, 1, 1, 1, 1): 0,
    }[tuple(shape)]
    return category, order


def ref_best_high(hand: Sequence[Card]) -> RefHigh:
    return max(ref_high5(five) for five in combinations(hand, 5))


def ref_best_low(hand: Sequence[Card]) -> tuple[int, ...] | None:
    """The lowest (compared from the highest card down) five distinct ranks <= 8, ace 1."""
    lows = []
    for five in combinations(hand, 5):
        ranks = {1 if c.rank == 14 else c.rank for c in five}
        if len(ranks) == 5 and max(ranks) <= 8:
            lows.append(tuple(sorted(ranks, reverse=True)))
    return min(lows) if lows else None


def ref_razz(hand: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """Razz badness (lower is better): (number-of-pairs shape, ranks by group, ace 1)."""
    best: tuple[int, tuple[int, ...]] | None = None
    for five in combinations(hand, 5):
        counts = Counter(1 if c.rank == 14 else c.rank for c in five)
        shape = sorted(counts.values(), reverse=True)
        badness = [[1, 1, 1, 1, 1], [2, 1, 1, 1], [2, 2, 1], [3, 1, 1], [3, 2], [4, 1]]
        by_group = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
        value = (badness.index(shape), tuple(r for r in by_group for _ in range(counts[r])))
        if best is None or value < best:
            best = value
    assert best is not None
    return best


def engine_ranks(category: int, ranks: tuple[int, ...]) -> tuple[int, ...]:
    """The reference's wheel (5, 4, 3, 2, 1) as the engine writes it, (5, 4, 3, 2, 14)."""
    if category in (4, 8) and ranks[0] == 5:
        return (5, 4, 3, 2, 14)
    return ranks


def random_hands(n: int, size: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(CARDS, size)) for _ in range(n)]


# ---------------------------------------------------------------------------------------
# Exhaustive five-card counts.

FIVE_CARD_CATEGORY_COUNTS = {
    HighCategory.STRAIGHT_FLUSH: 40,
    HighCategory.FOUR_OF_A_KIND: 624,
    HighCategory.FULL_HOUSE: 3_744,
    HighCategory.FLUSH: 5_108,
    HighCategory.STRAIGHT: 10_200,
    HighCategory.THREE_OF_A_KIND: 54_912,
    HighCategory.TWO_PAIR: 123_552,
    HighCategory.ONE_PAIR: 1_098_240,
    HighCategory.HIGH_CARD: 1_302_540,
}
DISTINCT_VALUES_PER_CATEGORY = {
    HighCategory.STRAIGHT_FLUSH: 10,
    HighCategory.FOUR_OF_A_KIND: 156,
    HighCategory.FULL_HOUSE: 156,
    HighCategory.FLUSH: 1_277,
    HighCategory.STRAIGHT: 10,
    HighCategory.THREE_OF_A_KIND: 858,
    HighCategory.TWO_PAIR: 858,
    HighCategory.ONE_PAIR: 2_860,
    HighCategory.HIGH_CARD: 1_277,
}


def test_all_2598960_five_card_hands() -> None:
    by_result = Counter(map(hi_lo_codes, combinations(range(52), 5)))
    assert sum(by_result.values()) == comb(52, 5) == 2_598_960

    by_strength: Counter[int] = Counter()
    with_low = 0
    for (h, lo), n in by_result.items():
        by_strength[h] += n
        if lo:
            with_low += n
    assert sorted(by_strength) == list(range(1, 7463))  # 7,462 distinct high values

    per_category: Counter[HighCategory] = Counter()
    distinct: Counter[HighCategory] = Counter()
    royal = 0
    for strength, n in by_strength.items():
        value = HighValue.from_strength(strength)
        per_category[value.category] += n
        distinct[value.category] += 1
        if str(value) == "Royal flush":
            royal += n
    assert per_category == FIVE_CARD_CATEGORY_COUNTS
    assert distinct == DISTINCT_VALUES_PER_CATEGORY
    assert royal == 4

    # Independently: five cards of five different ranks among A, 2..8.
    low_cards = [c for c in CARDS if c.rank <= 8 or c.rank == 14]
    expected_lows = sum(
        1 for five in combinations(low_cards, 5) if len({c.rank for c in five}) == 5
    )
    assert expected_lows == 4**5 * comb(8, 5) == 57_344
    assert with_low == expected_lows
    assert {lo for _, lo in by_result} == set(range(57))  # 56 lows and "none"


def test_high_strength_is_rank_among_the_7462_values() -> None:
    assert HighValue.from_strength(1) == HighValue.from_ranks(
        HighCategory.HIGH_CARD, (7, 5, 4, 3, 2)
    )
    assert str(HighValue.from_strength(7462)) == "Royal flush"
    values = [HighValue.from_strength(s) for s in range(1, 7463)]
    # Sorted by category, then ranks in order of significance (the wheel lowest).
    keys = [(v.category, v.ranks if v.ranks != (5, 4, 3, 2, 14) else (5,)) for v in values]
    assert keys == sorted(keys)
    assert LowValue.from_strength(1).ranks == (8, 7, 6, 5, 4)
    assert LowValue.from_strength(56).ranks == (5, 4, 3, 2, 1)


# ---------------------------------------------------------------------------------------
# Against the reference.


@pytest.mark.parametrize("size", [5, 6, 7])
def test_matches_reference_on_random_hands(size: int) -> None:
    hands = random_hands(1500 if size > 5 else 500, size, seed=size)
    results = []
    for hand in hands:
        ref_cat, ref_ranks = ref_best_high(hand)
        hv, lv = evaluate_hi_lo(hand)
        assert (hv.category, hv.ranks) == (ref_cat, engine_ranks(ref_cat, ref_ranks)), hand
        assert best_high(hand) is hv
        ref_low = ref_best_low(hand)
        assert (lv.ranks if lv else None) == ref_low, hand
        assert best_low(hand) is lv
        h, lo = hi_lo_codes([c.code for c in hand])
        assert (h, lo) == (hv.strength, lv.strength if lv else 0)
        results.append(((ref_cat, ref_ranks), ref_low, hv, lv))
    # The order of strengths is the reference's order, for the high and for the low.
    for a, b in pairwise(results):
        assert (a[0] < b[0]) == (a[2] < b[2]) and (a[0] == b[0]) == (a[2] == b[2])
        if a[1] and b[1]:
            assert a[3] is not None and b[3] is not None
            assert (a[1] > b[1]) == (a[3] < b[3]) and (a[1] == b[1]) == (a[3] == b[3])


def test_flush_hands_match_reference() -> None:
    """Hands with five or more cards of one suit (rare among random hands)."""
    rng = random.Random(5)
    for _ in range(1000):
        suit = rng.choice("cdhs")
        suited = rng.sample([c for c in CARDS if c.suit == suit], rng.choice([5, 6, 7]))
        rest = rng.sample([c for c in CARDS if c not in suited], 7 - len(suited))
        hand = tuple(suited + rest)
        ref_cat, ref_ranks = ref_best_high(hand)
        hv, lv = evaluate_hi_lo(hand)
        assert (hv.category, hv.ranks) == (ref_cat, engine_ranks(ref_cat, ref_ranks)), hand
        assert (lv.ranks if lv else None) == ref_best_low(hand)


def test_razz_matches_reference() -> None:
    for size in (5, 6, 7):
        for hand in random_hands(300, size, seed=100 + size):
            value = best_razz_low(hand)
            ref_shape, ref_ranks = ref_razz(hand)
            assert value.ranks == ref_ranks, hand
            assert value.category == [0, 1, 2, 3, 6, 7][ref_shape]


def test_against_pokerkit_sample() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    for a, b in zip(random_hands(150, 7, 11), random_hands(150, 7, 12), strict=True):
        text_a, text_b = "".join(map(str, a)), "".join(map(str, b))
        pk_high = (
            pokerkit.StandardHighHand.from_game(text_a),
            pokerkit.StandardHighHand.from_game(text_b),
        )
        assert (pk_high[0] < pk_high[1]) == (best_high(a) < best_high(b))
        assert (pk_high[0] == pk_high[1]) == (best_high(a) == best_high(b))
        pk_low = [pokerkit.EightOrBetterLowHand.from_game_or_none(t) for t in (text_a, text_b)]
        ours = best_low(a), best_low(b)
        assert [x is None for x in pk_low] == [x is None for x in ours]
        if pk_low[0] is not None and pk_low[1] is not None:
            assert ours[0] is not None and ours[1] is not None
            assert (pk_low[0] < pk_low[1]) == (ours[0] < ours[1])


# ---------------------------------------------------------------------------------------
# RULES.md section 5: showdown.


def test_rule_5_low_compares_from_highest_card_down() -> None:
    """8-6-4-2-A loses to 7-6-5-4-2 and beats 8-7-3-2-A; best 5-4-3-2-A, worst 8-7-6-5-4."""
    a = low("8c 6d 4h 2s Ad")
    b = low("7c 6h 5d 4s 2c")
    c = low("8d 7s 3c 2h Ac")
    assert a is not None and b is not None and c is not None
    assert a < b and b > a and not b < a
    assert a > c and c < a
    best = low("5c 4c 3c 2c Ac")
    worst = low("8h 7c 6d 5s 4c")
    assert best is not None and worst is not None
    every = [LowValue.from_strength(s) for s in range(1, 57)]
    assert max(every) == best and best.ranks == (5, 4, 3, 2, 1)
    assert min(every) == worst and worst.ranks == (8, 7, 6, 5, 4)
    # 6-5-4-3-2 beats 7-4-3-2-A: the highest card decides first.
    assert LowValue.from_ranks((6, 5, 4, 3, 2)) > LowValue.from_ranks((7, 4, 3, 2, 1))


def test_rule_5_best_low_and_high_of_seven_cards() -> None:
    """Cards speak: the best five of seven, separately for high and for low."""
    hv, lv = evaluate_hi_lo(cards("Ah 2d 3c 4s 8h 8d Kc"))
    assert str(hv) == "A pair of eights"
    assert str(lv) == "8-4-3-2-A low"
    hv, lv = evaluate_hi_lo(cards("Ah 2d 3c 4s 7h 6d 5c"))
    assert str(hv) == "Straight, seven high"
    assert str(lv) == "5-4-3-2-A low"


def test_rule_5_suits_never_break_a_high_tie() -> None:
    assert high("As Ks Qs Js Ts") == high("Ac Kc Qc Jc Tc")
    assert high("Ah Kd 9c 7s 3h 2c 2d") == high("As Kc 9d 7h 3c 2h 2s")
    a, b = high("Kc Kd 8h 8s 4c"), high("Kh Ks 8c 8d 4d")
    assert a == b and not a < b and not a > b and a <= b and a >= b
    assert hash(a) == hash(b) and a is b  # one shared value object
    # Only ranks count: the unused cards do not play.
    assert high("Ac Ad Ah Kc Kd 2s 3s") == high("As Ad Ah Ks Kh 9c 7d")


def test_rule_5_straights_and_flushes_do_not_count_against_a_low() -> None:
    """A-2-3-4-5 of one suit is a straight flush for high AND the best low."""
    hv, lv = evaluate_hi_lo(cards("As 2s 3s 4s 5s"))
    assert hv.category == HighCategory.STRAIGHT_FLUSH and str(hv) == "Straight flush, five high"
    assert lv == LowValue.from_ranks((5, 4, 3, 2, 1))
    hv, lv = evaluate_hi_lo(cards("2h 4h 6h 7h 8h Kc Qd"))
    assert hv.category == HighCategory.FLUSH
    assert str(lv) == "8-7-6-4-2 low"


def test_rule_5_same_cards_serve_high_and_low() -> None:
    hand = cards("Ac 2d 3h 4s 5c Kd Qd")
    assert str(best_high(hand)) == "Straight, five high"
    assert str(best_low(hand)) == "5-4-3-2-A low"
    assert set(best_high_cards(hand)) == set(best_low_cards(hand) or ())


def test_rule_5_no_low_when_fewer_than_five_low_ranks() -> None:
    assert low("Ac 2c 3d 4h 9s Tc Kd") is None  # four low ranks
    assert low("Ac Ad 2c 2d 3h 4s 4d") is None  # seven low cards, four ranks
    assert low("Ac 2c 3d 4h 9s") is None
    assert low("Ac 2c 3d 4h 8s") is not None
    assert low("2c 3c 4d 5h 6s 7c 8d") == LowValue.from_ranks((6, 5, 4, 3, 2))
    assert evaluate_hi_lo(cards("9c Tc Jd Qh Ks Ac 2d"))[1] is None
    assert hi_lo_codes([c.code for c in cards("Ac 2c 3d 4h 9s Tc Kd")])[1] == 0


def test_rule_5_ace_counts_low_for_low_and_high_for_high() -> None:
    hv, lv = evaluate_hi_lo(cards("Ac Kd Qh Js Tc 3d 2h"))
    assert str(hv) == "Straight, ace high"
    assert lv is None
    hv, lv = evaluate_hi_lo(cards("Ac 3d 5h 7s 8c Kh Qd"))
    assert str(hv) == "High card, ace"
    assert str(lv) == "8-7-5-3-A low"


# ---------------------------------------------------------------------------------------
# Descriptions, repr and comparisons.


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("As Ks Qs Js Ts 2c 3d", "Royal flush"),
        ("9h 8h 7h 6h 5h Ac Ad", "Straight flush, nine high"),
        ("Ac Ad Ah As Kc", "Four of a kind, aces"),
        ("Kd Ks 4c Kh 4s 2d 7c", "Full house, kings full of fours"),
        ("2h 8h Ah Jh 5h 5c", "Flush, ace high"),
        ("Ac 2d 3h 4s 5c Kd Kh", "Straight, five high"),
        ("7c 7d 7h Kc 2d", "Three of a kind, sevens"),
        ("Kc Kd 4h 4s 9c", "Two pair, kings and fours"),
        ("8c 8d Ah Kc 2d", "A pair of eights"),
        ("6c 6d 2h 3s 9d", "A pair of sixes"),
        ("Ac Jd 9h 4s 2c", "High card, ace"),
    ],
)
def test_high_descriptions(text: str, said: str) -> None:
    assert str(high(text)) == said


def test_low_descriptions() -> None:
    assert str(low("8c 6d 4h 2s Ad")) == "8-6-4-2-A low"
    assert str(low("5c 4c 3c 2c Ac")) == "5-4-3-2-A low"
    assert str(LowValue.from_ranks((7, 6, 5, 4, 2))) == "7-6-5-4-2 low"


def test_repr_round_trips() -> None:
    names = {"HighValue": HighValue, "HighCategory": HighCategory, "LowValue": LowValue}
    names["RazzValue"] = RazzValue
    for strength in range(1, 7463):
        value = HighValue.from_strength(strength)
        again = eval(repr(value), names)
        assert again == value and again is value
    for strength in range(1, 57):
        lo = LowValue.from_strength(strength)
        assert eval(repr(lo), names) is lo
    assert repr(high("Kd Ks 4c Kh 4s")) == (
        "HighValue.from_ranks(HighCategory.FULL_HOUSE, (13, 13, 13, 4, 4))"
    )
    assert repr(high("Ac 2d 3h 4s 5c")) == (
        "HighValue.from_ranks(HighCategory.STRAIGHT, (5, 4, 3, 2, 14))"
    )
    assert repr(low("8c 6d 4h 2s Ad")) == "LowValue.from_ranks((8, 6, 4, 2, 1))"
    for hand in random_hands(200, 7, seed=3):
        razz = best_razz_low(hand)
        assert eval(repr(razz), names) is razz


def test_copies_and_pickles_are_the_shared_values() -> None:
    hv, lv = evaluate_hi_lo(cards("Ac 2d 3h 4s 5c Kd Kh"))
    assert lv is not None
    razz = best_razz_low(cards("Ac 2d 3h 4s 5c Kd Kh"))
    for value in (hv, lv, razz):
        assert pickle.loads(pickle.dumps(value)) is value
        assert copy.deepcopy(value) is value and copy.copy(value) is value
    with pytest.raises(AttributeError):
        hv.strength = 1  # type: ignore[misc]


def test_less_than_means_loses_to() -> None:
    pair, two_pair = high("8c 8d Ah Kc 2d"), high("Kc Kd 4h 4s 9c")
    assert pair < two_pair and pair <= two_pair and two_pair > pair and two_pair >= pair
    assert pair != two_pair
    assert sorted([two_pair, pair]) == [pair, two_pair]
    wheel, six_high = high("Ac 2d 3h 4s 5c"), high("6c 2d 3h 4s 5c")
    assert wheel < six_high  # the wheel is the lowest straight
    assert high("Ac Ad Kc Kd 2h") > high("Ac Ad Qc Qd Jh")
    worse, better = low("8c 7d 3h 2s Ad"), low("8c 6d 4h 2s Ad")
    assert worse is not None and better is not None
    assert worse < better and max(worse, better) is better
    with pytest.raises(TypeError):
        _ = pair < better
    assert pair != better


def test_from_ranks_rejects_impossible_values() -> None:
    with pytest.raises(CardError):
        HighValue.from_ranks(HighCategory.STRAIGHT, (9, 8, 7, 6, 4))
    with pytest.raises(CardError):
        HighValue.from_ranks(HighCategory.HIGH_CARD, (6, 5, 4, 3, 2))  # that is a straight
    with pytest.raises(CardError):
        LowValue.from_ranks((9, 5, 4, 3, 2))
    with pytest.raises(CardError):
        LowValue.from_ranks((5, 5, 4, 3, 2))
    with pytest.raises(CardError):
        HighValue.from_strength(0)
    with pytest.raises(CardError):
        RazzValue.from_ranks((1, 1, 1, 1, 1))


# ---------------------------------------------------------------------------------------
# The five cards used.


def test_best_high_cards() -> None:
    used = best_high_cards(cards("4c Kd 4s Kc 9h Kh 4d"))
    assert used == cards("Kh Kd Kc 4s 4d")  # the highest suits among the fours
    assert best_high_cards(cards("Ac 2d 3h 4s 5c Kd Kh")) == cards("5c 4s 3h 2d Ac")
    assert best_high_cards(cards("As Ks Qs Js Ts 9s 8s")) == cards("As Ks Qs Js Ts")
    assert best_high_cards(cards("2h 8h Ah Jh 5h 5c 3h")) == cards("Ah Jh 8h 5h 3h")
    for hand in random_hands(300, 7, seed=9):
        used = best_high_cards(hand)
        assert len(set(used)) == 5 and set(used) <= set(hand)
        assert best_high(used) is best_high(hand)
        assert tuple(c.rank for c in used) == best_high(hand).ranks


def test_best_low_cards() -> None:
    assert best_low_cards(cards("Ac Ad 2c 3c 4c 5c 5d")) == cards("5d 4c 3c 2c Ad")
    assert best_low_cards(cards("Ac 2c 4d 6h 8s Kd 8c")) == cards("8s 6h 4d 2c Ac")
    assert best_low_cards(cards("Ac 2c 3d 4h 9s Tc Kd")) is None
    for hand in random_hands(300, 7, seed=10):
        used = best_low_cards(hand)
        lv = best_low(hand)
        if lv is None:
            assert used is None
        else:
            assert used is not None and set(used) <= set(hand)
            assert best_low(used) is lv
            assert tuple(c.low_rank for c in used) == lv.ranks


# ---------------------------------------------------------------------------------------
# RULES.md section 3: who acts first from 4th street.


def up(text: str) -> tuple[int, ...]:
    return rank_up_cards(cards(text))


def test_rule_3_up_cards_rank_without_straights_or_flushes() -> None:
    """Quads > trips > two pair > one pair > high card; kickers; no straights/flushes."""
    assert up("5h 6h 7h 8h") < up("2c 2d")  # a suited run is only eight high
    assert up("5h 6h 7h 8h") < up("9c 2d 3h 4s")
    assert up("3c 3d 3h") > up("Ac Ad Kc Kd")  # trips beat two pair
    assert up("3c 3d 3h 3s") > up("Ac Ad Ah Kc")
    assert up("Ac Ad Kc Kd") > up("Ac Ad Qc")
    assert up("2c 2d 3h") > up("Ac Kd Qh Js")
    assert up("Kc Kd 9h") > up("Kh Ks 8c")  # kicker
    assert up("Ac 9d 7h 3s") > up("Ah 9s 7d 2c")  # last kicker
    assert up("Kc Kd") == up("Kh Ks")  # suits ignored: the tie is the caller's
    assert up("Ac") > up("Kc")  # the ace is high
    assert up("Kc Kd 9h") == (1, 13, 9)


def test_describe_up_cards() -> None:
    assert describe_up_cards(cards("Kd 9c Ks")) == "Pair of kings"
    assert describe_up_cards(cards("Ad 9c 4s")) == "Ace high"
    assert describe_up_cards(cards("Kd Kc 4s 4h")) == "Two pair, kings and fours"
    assert describe_up_cards(cards("7d 7c 7s 2h")) == "Three sevens"
    assert describe_up_cards(cards("Qd Qc Qs Qh")) == "Four queens"
    assert describe_up_cards(cards("6d")) == "Six high"


# ---------------------------------------------------------------------------------------
# RULES.md section 8: razz.


def test_rule_8_razz_low_ignores_straights_and_flushes_and_has_no_qualifier() -> None:
    assert str(best_razz_low(cards("As 2s 3s 4s 5s Kd Kc"))) == "5-4-3-2-A low"
    best = best_razz_low(cards("As 2s 3s 4s 5s"))
    assert best.strength == 6175 and best.category == HighCategory.HIGH_CARD
    assert str(best_razz_low(cards("Kc Qd Jh Ts 9c"))) == "K-Q-J-T-9 low"
    # No pair beats any pair; a pair of aces is the lowest pair.
    assert best_razz_low(cards("Kc Qd Jh Ts 9c")) > best_razz_low(cards("Ac Ad 2h 3s 4c"))
    assert best_razz_low(cards("Ac Ad 2h 3s 4c")) > best_razz_low(cards("2c 2d Ah 3s 4c"))
    # Pairs only when forced.
    forced = best_razz_low(cards("Ac Ad 2c 2d 3c 3d Kh"))
    assert str(forced) == "A pair of aces, K-3-2-A-A"
    assert forced.category == HighCategory.ONE_PAIR and forced.ranks == (1, 1, 13, 3, 2)
    assert best_razz_low(cards("7c 5d 4h 2s Ad")) > best_razz_low(cards("8c 5d 4h 2s Ad"))
    assert best_razz_low(cards("7c 6d 5h 4s 3d")) > best_razz_low(cards("8c 4d 3h 2s Ad"))
    assert min(best_razz_low(cards(t)) for t in ("Kc Kd Kh Ks Qc", "Kc Kd Kh Ks Jc")).strength == 1


def test_rule_8_razz_up_cards_lowest_hand_acts_first() -> None:
    def razz(text: str) -> tuple[int, ...]:
        return rank_up_cards_razz(cards(text))

    assert razz("7c 4d") > razz("7s 5h")
    assert razz("Ac 2d") > razz("2c 3d")  # the ace is low
    assert razz("Kc Qd") > razz("2s 2h")  # a pair is bad
    assert razz("2s 2h 5c") > razz("3s 3h 2c")
    assert razz("As Ah Kc Kd") < razz("As Ah Kc Qd")
    assert razz("5c 5d") == razz("5h 5s")


# ---------------------------------------------------------------------------------------
# Errors and speed.


def test_bad_input_is_a_card_error() -> None:
    for bad in ("Ac 2c 3c 4c", "Ac 2c 3c 4c 5c 6c 7c 8c", "Ac Ac 2c 3d 4h", "Ac Ac Ac Ac Ac Ad Ah"):
        hand = cards(bad)
        with pytest.raises(CardError):
            evaluate_hi_lo(hand)
        with pytest.raises(CardError):
            hi_lo_codes([c.code for c in hand])
        with pytest.raises(CardError):
            best_high(hand)
        with pytest.raises(CardError):
            best_low_cards(hand)
        with pytest.raises(CardError):
            best_razz_low(hand)
    with pytest.raises(CardError):
        evaluate_hi_lo(["Ac", "2c", "3c", "4c", "5c"])  # type: ignore[list-item]
    with pytest.raises(CardError):
        hi_lo_codes([0, 1, 2, 3, 52])
    with pytest.raises(CardError):
        rank_up_cards(())
    with pytest.raises(CardError):
        rank_up_cards(cards("Ac Kc Qc Jc Tc"))


def test_shared_instances_no_allocation_per_call() -> None:
    a = evaluate_hi_lo(cards("Kd Ks 4c Kh 4s 2d 7c"))
    b = evaluate_hi_lo(cards("Kc Kh 4d Ks 4h 2c 7d"))
    assert a is b  # the very same result tuple
    f1 = evaluate_hi_lo(cards("2h 8h Ah Jh 5h 5c 3d"))
    f2 = evaluate_hi_lo(cards("2s 8s As Js 5s 5d 3c"))
    assert f1[0] is f2[0] and f1[1] is f2[1]


def test_build_tables_builds_them_before_the_first_evaluation() -> None:
    # In a fresh interpreter: in this one, earlier tests have built them already.
    script = (
        "from stud8.core import evaluate\n"
        "assert not evaluate._KEYS, 'built at import'\n"
        "evaluate.build_tables()\n"
        "assert len(evaluate._KEYS) == 52\n"
        "evaluate.build_tables()\n"
        "print(len(evaluate._KEYS))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "52"


def _evaluate_all(hands: Iterable[Sequence[Card]]) -> None:
    for hand in hands:
        evaluate_hi_lo(hand)
