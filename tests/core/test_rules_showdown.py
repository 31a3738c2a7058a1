"""RULES.md section 5 (Showdown and the pot), rule by rule, against the engine.

Unless a test says otherwise the table is ante 1, bring-in 2, small bet 4, big bet
8, every seat has 100 chips, and the players bring in, call and check to the
showdown: each puts in 3, so two players make a pot of 6, three a pot of 9.
Each seat's cards are listed in the order it gets them: down, down, up | 4th |
5th | 6th | 7th (down). Every expected number is worked out in the comments.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from scenario import (
    assert_conserved,
    assert_dealt,
    of_type,
    passive,
    play,
    seat_cards,
    start,
    table,
)

from stud8.core.cards import parse_cards
from stud8.core.evaluate import HighCategory, HighValue, LowValue, best_low, evaluate_hi_lo
from stud8.core.events import HandMucked, HandShown, PotAwarded, RakeTaken
from stud8.core.hand import Hand
from stud8.core.pots import PotResult
from stud8.core.rules import OddChip, OddChipHalf, ShowOrderNoBet, TableRules


def showdown(
    hands: dict[int, str],
    *,
    script: str = "",
    rules: TableRules | None = None,
    stacks: dict[int, int] | None = None,
) -> Hand:
    """Play ``script`` (if any), then bring in, call and check to the end."""
    hand = start(hands, rules=rules, stacks=stacks)
    if script:
        play(hand, script)
    passive(hand)
    assert hand.result is not None and hand.result.showdown
    assert_dealt(hand, hands)
    assert_conserved(hand)
    return hand


def pots(hand: Hand) -> tuple[PotResult, ...]:
    assert hand.result is not None
    return hand.result.pots


def stacks(hand: Hand) -> dict[int, int]:
    assert hand.result is not None
    return hand.result.stacks


def shown_order(hand: Hand) -> list[tuple[str, int]]:
    return [
        ("show" if isinstance(e, HandShown) else "muck", e.seat)
        for e in hand.events
        if isinstance(e, (HandShown, HandMucked))
    ]


def low(text: str) -> LowValue | None:
    return best_low(parse_cards(text))


# ------------------------------------------------------------ cards speak


def test_rule_5_cards_speak_best_five_of_seven_make_the_high() -> None:
    """RULES.md 5: "Cards speak. Each player's best five of his seven cards make his
    high hand". Seat 1's heart flush uses both first down cards, an up card and the
    7th-street down card; seat 2 has two pair. Nobody has a low: seat 1 takes 6."""
    hands = {1: "Ah 9h | 2h | Kc | 5h | Qd | Th", 2: "Ks Kd | 3c | Qs | 7c | Jd | Js"}
    hand = showdown(hands)
    flush = HighValue.from_ranks(HighCategory.FLUSH, (14, 10, 9, 5, 2))
    assert pots(hand) == (PotResult(0, 6, (1, 2), ((1, 6),), (), flush, None),)
    assert stacks(hand) == {1: 103, 2: 97}
    shown = of_type(hand.events, HandShown)[0]
    assert shown == HandShown(1, seat_cards(hands)[1], flush, None)


def test_rule_5_best_low_is_five_different_ranks_eight_or_lower_ace_low() -> None:
    """RULES.md 5: "His best low is five cards of different ranks, all 8 or lower, the
    ace counting low". Seat 1 holds A-2-3-7-8 with a pair of 3s and a pair of 8s: his
    low is 8-7-3-2-A. Pot 9: high 5 to seat 2's kings and queens, low 4 to seat 1."""
    assert low("Ac 8c 2h 3s 3c 7d 8h") == LowValue.from_ranks((8, 7, 3, 2, 1))
    assert low("2c 3d 4h 5s 9c 9d Kc") is None  # a 9 is not 8 or lower
    assert low("Ac Ad 2c 2d 3c 3d 4c") is None  # only four different ranks
    assert low("As 2d 3h 4c 6s Ks Kd") == LowValue.from_ranks((6, 4, 3, 2, 1))  # ace low
    hands = {
        1: "Ac 8c | 2h | 3s | 3c | 7d | 8h",
        2: "Kh Ks | Qh | Qs | 9d | Tc | Jc",
        3: "Jh Jd | 9h | Ts | 4d | 5d | 6s",
    }
    hand = showdown(hands)
    (pot,) = pots(hand)
    assert (pot.amount, pot.high, pot.low) == (9, ((2, 5),), ((1, 4),))
    assert pot.low_value == LowValue.from_ranks((8, 7, 3, 2, 1))
    assert stacks(hand) == {1: 101, 2: 102, 3: 97}


def test_rule_5_straights_and_flushes_do_not_count_against_the_low_same_cards_both_ways() -> None:
    """RULES.md 5: "straights and flushes do not count against it" and "The same cards
    may serve high and low." Seat 1's A-2-3-4-5 of hearts is a straight flush for
    high and the best low, 5-4-3-2-A, over seat 2's 6-4-3-2-A: he scoops 3 + 3."""
    hands = {1: "Ah Kc | 2h | 3h | 4h | 5h | Kd", 2: "Ac 2c | 3c | 4d | 6d | Ks | Qs"}
    hand = showdown(hands)
    (pot,) = pots(hand)
    assert (pot.high, pot.low) == (((1, 3),), ((1, 3),))
    assert pot.high_value == HighValue.from_ranks(HighCategory.STRAIGHT_FLUSH, (5, 4, 3, 2, 14))
    assert pot.low_value == LowValue.from_ranks((5, 4, 3, 2, 1))
    awards = of_type(hand.events, PotAwarded)
    assert awards == [PotAwarded(0, 1, 3, "high"), PotAwarded(0, 1, 3, "low")]
    assert stacks(hand) == {1: 103, 2: 97}


def test_rule_5_lows_compare_from_the_highest_card_down() -> None:
    """RULES.md 5: "Lows compare from the highest card down: 8-6-4-2-A loses to
    7-6-5-4-2 and beats 8-7-3-2-A; the best is 5-4-3-2-A, the worst qualifier
    8-7-6-5-4". At the table: seat 1 8-6-4-2-A, seat 2 7-6-5-4-2, seat 3 8-7-3-2-A
    with kings. Pot 9: high 5 to seat 3, low 4 to seat 2."""
    l86 = low("8d 6c 4h 2s Ah")
    l76 = low("7s 6d 5c 4c 2h")
    l87 = low("8h 7c 3d 2c Ad")
    wheel = low("5s 4d 3c 2d Ac")
    worst = low("8c 7d 6h 5s 4c")
    assert None not in (l86, l76, l87, wheel, worst)
    assert l86 is not None and l76 is not None and l87 is not None
    assert wheel is not None and worst is not None
    assert l87 < l86 < l76 < wheel
    assert worst < l87
    assert wheel == LowValue.from_strength(56) and worst == LowValue.from_strength(1)
    hands = {
        1: "Ad 2d | 4c | 6c | 8s | Jh | Qh",
        2: "2h 4h | 5s | 6d | 7c | Th | 9s",
        3: "As 2s | 3d | 7d | 8c | Kc | Ks",
    }
    hand = showdown(hands)
    (pot,) = pots(hand)
    assert (pot.high, pot.low) == (((3, 5),), ((2, 4),))
    assert pot.low_value == LowValue.from_ranks((7, 6, 5, 4, 2))
    assert stacks(hand) == {1: 97, 2: 101, 3: 102}


def test_rule_5_worst_qualifying_low_eight_seven_six_five_four_wins_the_low() -> None:
    """RULES.md 5: "the worst qualifier 8-7-6-5-4". Seat 1's 8-high straight is also
    the worst low, and it qualifies; seat 2's A-2-3-4 lacks a fifth card of 8 or
    lower. Pot 9: high 5 to seat 3's full house, low 4 to seat 1."""
    hands = {
        1: "4c 5d | 6h | 7s | 8c | Kd | Qd",
        2: "Ac 2d | 3h | 4d | 9s | 9c | Ts",
        3: "Js Jh | Jd | Qs | Qh | Tc | 9d",
    }
    hand = showdown(hands)
    (pot,) = pots(hand)
    assert (pot.high, pot.low) == (((3, 5),), ((1, 4),))
    assert pot.low_value == LowValue.from_ranks((8, 7, 6, 5, 4))
    assert stacks(hand) == {1: 101, 2: 97, 3: 102}


# -------------------------------------------------------------- show order

# Seat 2 shows a pair of 5s from 4th street on and acts first from then; seat 2
# brings in (5h). Highs: seat 1 ace high, seat 2 queens and fives, seat 3 three 7s.
# Nobody has a low.
SHOW_HANDS = {
    1: "Ac Kd | 9h | Th | 3s | 4d | Js",
    2: "Qc Qd | 5h | 5c | 9c | 2d | Kh",
    3: "7c 7d | 7h | Jd | Td | 9s | Kc",
}


@pytest.mark.parametrize(
    ("seventh", "order", "final"),
    [
        (
            "2 bet 8, 3 call, 1 call",
            [("show", 2), ("show", 3), ("muck", 1)],
            {1: 89, 2: 89, 3: 122},
        ),
        (
            "2 check, 3 bet 8, 1 call, 2 call",
            [("show", 3), ("muck", 1), ("muck", 2)],
            {1: 89, 2: 89, 3: 122},
        ),
        (
            "2 bet 8, 3 call, 1 raise 16, 2 call, 3 call",
            [("show", 1), ("show", 2), ("show", 3)],
            {1: 81, 2: 81, 3: 138},
        ),
    ],
    ids=["bettor-first", "bettor-first-then-clockwise-wrapping", "last-raiser-first"],
)
def test_rule_5_show_order_last_bettor_or_raiser_on_last_round_shows_first(
    seventh: str, order: list[tuple[str, int]], final: dict[int, int]
) -> None:
    """RULES.md 5: "if there was a bet or raise on the last round, the last player who
    bet or raised shows first ... Then the others clockwise. A player who cannot
    win may muck instead of showing." Seat 3's three 7s win every time."""
    hand = start(SHOW_HANDS)
    passive(hand, until_street=7)
    play(hand, seventh)
    assert shown_order(hand) == order
    assert pots(hand)[0].high == ((3, pots(hand)[0].amount),)
    assert stacks(hand) == final
    assert_dealt(hand, SHOW_HANDS)
    assert_conserved(hand)


@pytest.mark.parametrize(
    ("option", "order"),
    [
        (ShowOrderNoBet.EARLIEST_SEAT, [("show", 1), ("show", 2), ("show", 3)]),
        (ShowOrderNoBet.FIRST_TO_ACT_SEVENTH, [("show", 2), ("show", 3), ("muck", 1)]),
    ],
    ids=["default-earliest-seat", "option-first-to-act-on-7th"],
)
def test_rule_5_show_order_without_last_round_bet_earliest_seat_or_first_to_act(
    option: ShowOrderNoBet, order: list[tuple[str, int]]
) -> None:
    """RULES.md 5: "if not, the player in the earliest seat shows first. Then the
    others clockwise. ... Option: with no last-round bet, the first to act on 7th
    street shows first (TDA)." Seat 3 bets on 6th street, but 7th is checked: the
    6th-street bet does not decide. Seat 2 acts first on 7th."""
    hand = start(SHOW_HANDS, rules=table(show_order_no_bet=option))
    passive(hand, until_street=6)
    play(hand, "2 check, 3 bet 8, 1 call, 2 call")
    assert hand.to_act == 2 and hand.street == 7
    play(hand, "2 check, 3 check, 1 check")
    assert shown_order(hand) == order
    # Pot 9 + 24 = 33 to seat 3's three 7s.
    assert stacks(hand) == {1: 89, 2: 89, 3: 122}
    assert_conserved(hand)


def test_rule_5_player_who_cannot_win_mucks_one_who_can_win_the_low_shows() -> None:
    """RULES.md 5: "A player who cannot win may muck instead of showing." Seat 1 shows
    three kings; seat 2 cannot win the high but has the only low so far, so he
    shows; seat 3 loses both ways (jacks, 8-6-4-2-A) and mucks."""
    hands = {
        1: "Kc Kd | Ks | 9c | Th | Jd | 2s",
        2: "Ac 2d | 3h | 5s | 7c | Qd | Qh",
        3: "Ad 2h | 4c | 6d | 8s | Jh | Js",
    }
    hand = showdown(hands)
    assert shown_order(hand) == [("show", 1), ("show", 2), ("muck", 3)]
    (pot,) = pots(hand)
    assert (pot.high, pot.low) == (((1, 5),), ((2, 4),))
    assert stacks(hand) == {1: 102, 2: 101, 3: 97}


# -------------------------------------------------------------------- rake

# Seat 2 brings in (2c); seat 1 completes and shows kings from 4th street.
# 3rd: 2 + 4 + 4 = 10; 4th: bet 4, call: 18; 5th: seat 1 bets 8, seat 2 folds and
# the 8 comes back. Seat 1 wins 18 less the rake; each put in 9.
RAKE_HANDS = {1: "?? ?? Kc Kd 9h", 2: "?? ?? 2c 5d 7s"}
RAKE_SCRIPT = "2 bring-in, 1 complete, 2 call, 1 bet 4, 2 call, 1 bet 8, 2 fold"


@pytest.mark.parametrize(
    ("percent", "cap", "rake"),
    [
        (10, None, 1),  # 1.8 rounded down
        (Fraction(25, 2), None, 2),  # 12.5% of 18 = 2.25
        (50, 3, 3),  # 9 capped at 3
        (50, None, 9),
    ],
    ids=["rounded-down", "fractional-percent", "capped", "uncapped"],
)
def test_rule_5_rake_percentage_rounded_down_with_cap(
    percent: int | Fraction, cap: int | None, rake: int
) -> None:
    """RULES.md 5: "Rake (seed 001): the operator's commission, taken from the pot
    before it is split. Settings: a percentage, a cap per hand ... The rake is
    rounded down to the chip unit." """
    hand = start(RAKE_HANDS, rules=table(rake_percent=percent, rake_cap=cap))
    play(hand, RAKE_SCRIPT)
    assert hand.result is not None
    assert hand.result.rake == rake
    assert of_type(hand.events, RakeTaken) == [RakeTaken(rake)]
    assert stacks(hand) == {1: 100 - 9 + 18 - rake, 2: 91}
    assert_conserved(hand)


def test_rule_5_default_table_takes_no_rake() -> None:
    """RULES.md 5: "Default for a new table: no rake." """
    assert table().rake_percent == 0
    hand = start(RAKE_HANDS)
    play(hand, RAKE_SCRIPT)
    assert hand.result is not None and hand.result.rake == 0
    assert of_type(hand.events, RakeTaken) == []
    assert stacks(hand) == {1: 109, 2: 91}
    assert_conserved(hand)


@pytest.mark.parametrize(
    ("rake_third_street", "rake"), [(False, 0), (True, 3)], ids=["default-not-raked", "raked"]
)
def test_rule_5_rake_on_hand_ending_on_third_street_is_a_setting_off_by_default(
    rake_third_street: bool, rake: int
) -> None:
    """RULES.md 5: "Settings: ... whether a hand that ends on 3rd street is raked."
    Seat 1 completes, the bring-in folds: 2 come back, the pot is 2 antes + 2 + 2 =
    6; at 50% the rake would be 3."""
    hand = start(RAKE_HANDS, rules=table(rake_percent=50, rake_third_street=rake_third_street))
    play(hand, "2 bring-in, 1 complete, 2 fold")
    assert hand.result is not None and hand.street == 3
    assert hand.result.rake == rake
    assert stacks(hand) == {1: 103 - rake, 2: 97}
    assert_conserved(hand)


def test_rule_5_rake_is_taken_from_the_pot_before_it_is_split() -> None:
    """RULES.md 5: the rake is "taken from the pot before it is split". Pot 6, 20%:
    rake 1 (1.2 rounded down); the 5 left split 3 high (seat 1) and 2 low (seat 2)."""
    hands = {1: "Kc Kd | 9c | Qh | Qs | Jd | 9s", 2: "Ac 2d | 3h | 4s | 7c | Th | Jc"}
    hand = showdown(hands, rules=table(rake_percent=20))
    assert hand.result is not None and hand.result.rake == 1
    (pot,) = pots(hand)
    assert (pot.amount, pot.high, pot.low) == (5, ((1, 3),), ((2, 2),))
    assert stacks(hand) == {1: 100, 2: 99}


# ------------------------------------------------------------ the hi/lo split


def test_rule_5_no_qualifying_low_best_high_takes_whole_pot() -> None:
    """RULES.md 5: "If nobody eligible has a qualifying low, the best high takes the
    whole pot." Pot 9, not split 5/4: all of it to seat 1's kings up."""
    hands = {
        1: "Ks Kh | 9d | 9c | 4s | 3s | Qd",
        2: "Js Jh | Td | 5c | 6c | Ac | 8d",
        3: "2c 2d | 7h | 7s | 9h | Th | Qs",
    }
    hand = showdown(hands)
    (pot,) = pots(hand)
    assert (pot.amount, pot.high, pot.low, pot.low_value) == (9, ((1, 9),), (), None)
    assert of_type(hand.events, PotAwarded) == [PotAwarded(0, 1, 9, "whole")]
    assert stacks(hand) == {1: 106, 2: 97, 3: 97}


# Seat 1 8-6-4-2-A, seat 2 7-6-5-4-2 (the best low), seat 3 kings (the best high).
SPLIT_HANDS = {
    1: "Ad 2d | 4c | 6c | 8s | Jh | Qh",
    2: "2h 4h | 5s | 6d | 7c | Th | 9s",
    3: "As 2s | 3d | 7d | 8c | Kc | Ks",
}


def test_rule_5_high_half_is_ceil_low_half_is_floor() -> None:
    """RULES.md 5: "Otherwise the high half is the larger one: ceil(pot / 2) in chip
    units; the low half is floor(pot / 2)." Seat 3 (the king up on 7th) bets 8,
    both call: pot 9 + 24 = 33, high 17, low 16."""
    hand = start(SPLIT_HANDS)
    passive(hand, until_street=7)
    play(hand, "3 bet 8, 1 call, 2 call")
    (pot,) = pots(hand)
    assert (pot.amount, pot.high, pot.low) == (33, ((3, 17),), ((2, 16),))
    assert of_type(hand.events, PotAwarded) == [
        PotAwarded(0, 3, 17, "high"),
        PotAwarded(0, 2, 16, "low"),
    ]
    assert stacks(hand) == {1: 89, 2: 105, 3: 106}
    assert_conserved(hand)


def test_rule_5_option_a_site_gives_the_odd_chip_to_the_low_half() -> None:
    """RULES.md 5 gives the odd chip to the high half; the Winning Poker Network
    gives it to the low half (docs/rules.md, "Other sites' rules": its hand
    693975843). With ``odd_chip_half=LOW`` the same 33 split 16 high, 17 low."""
    hand = start(SPLIT_HANDS, rules=table(odd_chip_half=OddChipHalf.LOW))
    passive(hand, until_street=7)
    play(hand, "3 bet 8, 1 call, 2 call")
    (pot,) = pots(hand)
    assert (pot.amount, pot.high, pot.low) == (33, ((3, 16),), ((2, 17),))
    assert stacks(hand) == {1: 89, 2: 106, 3: 105}
    assert_conserved(hand)


def test_rule_5_same_player_may_win_both_halves_a_scoop() -> None:
    """RULES.md 5: "The same player may win both halves (a scoop)." Seat 1's 6-high
    straight is the best high and 6-5-4-3-2 the best low: 5 + 4 of the 9."""
    hands = {
        1: "2c 3d | 4h | 5s | 6c | Kd | Qd",
        2: "Ah Ad | 9c | Jc | Ts | 7s | Kc",
        3: "As 2h | 3c | 5d | 8h | Jh | Js",
    }
    hand = showdown(hands)
    (pot,) = pots(hand)
    assert (pot.high, pot.low) == (((1, 5),), ((1, 4),))
    assert stacks(hand) == {1: 106, 2: 97, 3: 97}


# ------------------------------------------------------ ties and odd chips

# Seats 1 and 2 both hold a queen-high straight (8-9-T-J-Q), no low. Seat 1 also
# holds the Ac (not in his five); seat 2's five has the Qs, seat 1's the Qh.
# Seat 3 folds on 3rd street: pot 3 antes + 2 + 2 = 7.
HIGH_TIE_HANDS = {
    1: "8c 9d | Tc | Jd | Qh | Ac | 2d",
    2: "8d 9c | Th | Js | Qs | 3c | 4h",
    3: "5c 5d | Kh",
}


@pytest.mark.parametrize(
    ("odd_chip", "split", "final"),
    [
        (OddChip.ALL_CARDS, {1: 4, 2: 3}, {1: 101, 2: 100, 3: 99}),
        (OddChip.FIVE_CARD_HAND, {1: 3, 2: 4}, {1: 100, 2: 101, 3: 99}),
    ],
    ids=["default-all-cards-ace-of-clubs", "option-five-card-hand-queen-of-spades"],
)
def test_rule_5_tied_high_hands_share_odd_chip_to_highest_card_by_rank_then_suit(
    odd_chip: OddChip, split: dict[int, int], final: dict[int, int]
) -> None:
    """RULES.md 5: "Tied hands share their half equally. If chips are left over, each
    odd chip goes ... for tied high hands, to the player holding the highest card,
    by rank and then suit (spades, hearts, diamonds, clubs) ... (seed 001, RRoP: all
    of the player's cards count, not only the five he plays). Option: for both
    halves, the highest card by suit within the player's five-card hand for that
    half (TDA, WSOP)." Suits never break the tie of the hands themselves."""
    hand = showdown(
        HIGH_TIE_HANDS, script="1 bring-in, 2 call, 3 fold", rules=table(odd_chip=odd_chip)
    )
    (pot,) = pots(hand)
    assert (pot.amount, dict(pot.high), pot.low) == (7, split, ())
    assert stacks(hand) == final


# Both have 7-5-4-2-A. Seat 1 (kings) wins the high. Seat 2 holds the Ac, the
# lowest card; seat 1's low five has the 7s, seat 2's the 7h. Pot 6: high 3, low 3.
LOW_TIE_HANDS = {1: "Ad 2c | 4d | 5h | 7s | Kc | Kd", 2: "Ac 2d | 4h | 5c | 7h | Qs | Js"}


@pytest.mark.parametrize(
    ("odd_chip", "low_split", "final"),
    [
        (OddChip.ALL_CARDS, {1: 1, 2: 2}, {1: 101, 2: 99}),
        (OddChip.FIVE_CARD_HAND, {1: 2, 2: 1}, {1: 102, 2: 98}),
    ],
    ids=["default-lowest-card-ace-of-clubs", "option-five-card-hand-seven-of-spades"],
)
def test_rule_5_tied_low_hands_share_odd_chip_to_lowest_card_clubs_first(
    odd_chip: OddChip, low_split: dict[int, int], final: dict[int, int]
) -> None:
    """RULES.md 5: "for tied low hands, to the player holding the lowest card, the
    ace counting low, then by suit (clubs first, then diamonds, hearts, spades)
    ... Option: for both halves, the highest card by suit within the player's
    five-card hand for that half (TDA, WSOP)." """
    hand = showdown(LOW_TIE_HANDS, rules=table(odd_chip=odd_chip))
    (pot,) = pots(hand)
    assert (pot.high, dict(pot.low)) == (((1, 3),), low_split)
    assert stacks(hand) == final


def test_rule_5_three_way_low_tie_odd_chips_one_at_a_time_nobody_gets_two() -> None:
    """RULES.md 5: "each odd chip goes, one at a time, so that nobody gets two: ...
    for tied low hands, to the player holding the lowest card, the ace counting low,
    then by suit (clubs first ...)". Seats 1 to 3 all hold 7-5-4-2-A; seat 3 has
    kings for high; seat 4 folds on 3rd street. Pot 4 + 3 x 2 = 10: high 5 to seat
    3; low 5 = 1 each and 2 odd chips: to the Ac (seat 2), then the Ad (seat 3)."""
    hands = {
        1: "Ah 2h | 4c | 5d | 7c | 9s | Ts",
        2: "Ac 2c | 4d | 5h | 7d | 9h | Js",
        3: "Ad 2d | 4h | 5s | 7h | Kc | Ks",
        4: "Qc Qd | Qh",
    }
    hand = showdown(hands, script="1 bring-in, 2 call, 3 call, 4 fold")
    (pot,) = pots(hand)
    assert (pot.amount, pot.high, dict(pot.low)) == (10, ((3, 5),), {1: 1, 2: 2, 3: 2})
    assert stacks(hand) == {1: 98, 2: 99, 3: 104, 4: 99}


@pytest.mark.parametrize("odd_chip", list(OddChip))
def test_rule_5_same_players_tie_both_ways_split_as_evenly_as_possible(odd_chip: OddChip) -> None:
    """RULES.md 5: "If the very same players tie for both high and low, the pot is
    split among them as evenly as possible, not half by half (RRoP)." Both hold
    A-2-3-4-5 (a 5-high straight and the wheel). Pot 6: half by half would give
    seat 1 (As, the highest card, and Ac, the lowest) both odd chips of 3 + 3, 4
    to 2; as evenly as possible is 3 each."""
    hands = {1: "As Ac | 2c | 3d | 4h | 5c | Kd", 2: "Ad 2d | 3h | 4c | 5d | Qs | Js"}
    hand = showdown(hands, rules=table(odd_chip=odd_chip))
    (pot,) = pots(hand)
    assert pot.won_by() == {1: 3, 2: 3}
    assert stacks(hand) == {1: 100, 2: 100}


def test_rule_5_one_player_ties_for_high_with_one_and_for_low_with_another() -> None:
    """RULES.md 5: "Tied hands share their half equally." Seat 1 ties seat 2 for high
    (kings, A-8-6) and seat 3 for low (8-6-4-2-A). Pot 9: high 5 = 2 each and the
    odd chip to seat 2's Ad (over seat 1's Ac); low 4 = 2 each."""
    hands = {
        1: "Kc Kd | Ac | 2c | 4c | 6h | 8h",
        2: "Kh Ks | Ad | 8d | 6s | 5s | 3s",
        3: "As 2h | 4h | 6c | 8c | Qd | Jd",
    }
    hand = showdown(hands)
    (pot,) = pots(hand)
    assert (dict(pot.high), dict(pot.low)) == ({1: 2, 2: 3}, {1: 2, 3: 2})
    assert stacks(hand) == {1: 101, 2: 100, 3: 99}


# -------------------------------------------------------------- side pots


def test_rule_5_all_in_player_wins_from_each_opponent_no_more_than_he_put_in() -> None:
    """RULES.md 5: "An all-in player can win from each opponent no more than he put
    in: the side pots are built from the contributions in the usual way." and "Each
    pot is settled on its own, side pots before the main pot". Seat 1 (5 chips)
    completes all-in on 3rd and scoops with a 6-high straight and 6-5-4-3-2: the
    main pot of 3 x 5 = 15 (8 high, 7 low). Seats 2 and 3 bet 4 more each on 4th:
    the side pot of 8 has no low and goes whole to seat 2's aces."""
    hands = {
        1: "2c 3d | 4h | 5s | 6c | Kd | Qd",
        2: "Ah Ad | 9c | Jc | Ts | 7s | Kc",
        3: "Js Jh | 2d | 9d | Tc | Kh | 8s",
    }
    hand = showdown(
        hands, script="3 bring-in, 1 complete, 2 call, 3 call, 2 bet 4, 3 call", stacks={1: 5}
    )
    main, side = pots(hand)
    assert (main.index, main.amount, main.eligible) == (0, 15, (1, 2, 3))
    assert (main.high, main.low) == (((1, 8),), ((1, 7),))
    assert (side.index, side.amount, side.eligible, side.high, side.low) == (
        1,
        8,
        (2, 3),
        ((2, 8),),
        (),
    )
    assert of_type(hand.events, PotAwarded) == [
        PotAwarded(1, 2, 8, "whole"),
        PotAwarded(0, 1, 8, "high"),
        PotAwarded(0, 1, 7, "low"),
    ]
    assert stacks(hand) == {1: 15, 2: 99, 3: 91}


def test_rule_5_side_pot_with_no_qualifying_low_goes_whole_to_best_high() -> None:
    """RULES.md 5: "Each pot is settled on its own ... among the players eligible for
    it: If nobody eligible has a qualifying low, the best high takes the whole
    pot." Seat 1 (all-in for 5) has the only low, 8-5-3-2-A: he takes the low of
    the main pot (15: 8 high to seat 2's aces, 7 low) but has no claim on the side
    pot of 8, which has no low among seats 2 and 3 and goes whole to seat 2."""
    hands = {
        1: "Ac 2d | 3h | 5s | 8c | Kd | Qh",
        2: "Ah As | 9c | Jc | Ts | 7s | Kc",
        3: "Js Jh | 2c | 9d | Tc | Kh | 8s",
    }
    hand = showdown(
        hands, script="3 bring-in, 1 complete, 2 call, 3 call, 2 bet 4, 3 call", stacks={1: 5}
    )
    main, side = pots(hand)
    assert (main.amount, main.high, main.low) == (15, ((2, 8),), ((1, 7),))
    assert (side.amount, side.high, side.low) == (8, ((2, 8),), ())
    assert stacks(hand) == {1: 7, 2: 107, 3: 91}


def test_rule_5_side_pots_settled_last_formed_first() -> None:
    """RULES.md 5: "Each pot is settled on its own, side pots before the main pot
    (the last one formed first)". Seat 1 (5 chips) is all-in on 3rd, seat 2 (9
    chips) on 4th; seats 3 and 4 bet 8 more on 5th. Main pot 4 x 5 = 20 (seat 1's
    four aces), side pot 1 3 x 4 = 12 (seat 2's kings full), side pot 2 2 x 8 = 16
    (seat 3's jacks full over seat 4's eights full). Nobody has a low."""
    hands = {
        1: "Ac Ad | Ah | 9c | As | Kd | Qd",
        2: "Kc Ks | Kh | Qs | Qc | Jd | 9d",
        3: "Js Jh | Jc | Td | Tc | 9h | 3s",
        4: "8c 8d | 8h | 7s | 6d | Th | Ts",
    }
    script = (
        "4 bring-in, 1 complete, 2 call, 3 call, 4 call, 2 bet 4, 3 call, 4 call, 3 bet 8, 4 call"
    )
    hand = showdown(hands, script=script, stacks={1: 5, 2: 9})
    assert [(p.index, p.amount, p.eligible) for p in pots(hand)] == [
        (0, 20, (1, 2, 3, 4)),
        (1, 12, (2, 3, 4)),
        (2, 16, (3, 4)),
    ]
    assert of_type(hand.events, PotAwarded) == [
        PotAwarded(2, 3, 16, "whole"),
        PotAwarded(1, 2, 12, "whole"),
        PotAwarded(0, 1, 20, "whole"),
    ]
    assert stacks(hand) == {1: 20, 2: 12, 3: 99, 4: 83}


def test_rule_5_hand_values_used_at_showdown_are_the_evaluators() -> None:
    """RULES.md 5: "Cards speak." The values shown are those of the seven cards."""
    hand = showdown(SPLIT_HANDS)
    for shown in of_type(hand.events, HandShown):
        assert (shown.high, shown.low) == evaluate_hi_lo(shown.cards)
