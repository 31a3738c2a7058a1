"""RULES.md section 8 (Other games of the family): Seven Card Stud (high only) and
Razz, in the same engine, rule by rule.

Unless a test says otherwise the table is ante 1, bring-in 2, small bet 4, big bet
8, fixed limit, every seat has 100 chips, and the players bring in, call and check
to the showdown: each puts in 3, so two players make a pot of 6, three a pot of 9.
Each seat's cards are listed in the order it gets them: down, down, up | 4th |
5th | 6th | 7th (down). Every expected number is worked out in the comments.

Readings of section 8 these tests pin down:

- Stud (high only): the best high hand takes each pot; there is no low half even
  when a player holds a qualifying 8-or-better low. Odd chips among tied highs go
  by the high rule. Bring-in and first to act are as in Stud Hi/Lo.
- The open pair (option ``open_pair_big_bet``, on by default; Stud high, fixed limit
  only, and only when 4th street is a small-bet street): when any player still in
  shows a pair in his two up cards on 4th street (all-in players included), every
  bet or raise on 4th street may be the small bet or the big bet. Once a big bet or
  big raise is made, later raises on that street are by the big bet. Amounts in
  between are refused. A short all-in is measured against the small bet until a
  big bet is made, then against the big bet (the half-bet rule of section 3).
- Razz: the best ace-to-five low of each player's cards takes each pot, no
  qualifier, straights and flushes do not count, pairs do. The HIGHEST up card
  brings in, the ace low, ties by suit with spades highest (the king of spades is
  the highest card, an ace the lowest). From 4th street the lowest hand showing
  acts first (unpaired beats paired; then the lowest cards from the highest down),
  exact ties by position (lowest seat); with the TDA option, the highest up card by
  suit, the ace low. Odd chips among tied lows go by the low rule of section 5.3:
  to the player holding the lowest card, ace low, clubs first (with the option, the
  highest card by suit within the five-card razz low).
"""

from __future__ import annotations

import random

import pytest
from scenario import (
    act,
    assert_conserved,
    assert_dealt,
    legal,
    of_type,
    passive,
    play,
    seat_cards,
    start,
    table,
)

from stud8.core.actions import Action, ActionKind, Bet, Call, Raise
from stud8.core.cards import Deck
from stud8.core.errors import IllegalActionError, RulesError
from stud8.core.evaluate import (
    HighCategory,
    RazzValue,
    best_high,
    best_razz_low,
    evaluate_hi_lo,
)
from stud8.core.events import (
    ActionOpened,
    BetMade,
    HandMucked,
    HandShown,
    PotAwarded,
    Raised,
    StreetStarted,
)
from stud8.core.hand import Hand
from stud8.core.rules import (
    BettingStructure,
    FirstToActTie,
    Game,
    OddChip,
    TableRules,
)

STUD = table(game=Game.STUD_HIGH)
RAZZ = table(game=Game.RAZZ)


def amounts(hand: Hand, kind: ActionKind) -> tuple[int, ...]:
    """The amounts offered for a fixed-limit complete, bet or raise: one, or two
    (the small and the big bet) with an open pair on 4th street."""
    found: set[int] = set()
    for a in hand.legal_actions():
        if a.kind is kind:
            assert a.min_to == a.max_to and a.min_to is not None, a
            found.add(a.min_to)
    return tuple(sorted(found))


def stacks(hand: Hand) -> dict[int, int]:
    assert hand.result is not None
    return hand.result.stacks


def shown_order(hand: Hand) -> list[tuple[str, int]]:
    return [
        ("show" if isinstance(e, HandShown) else "muck", e.seat)
        for e in hand.events
        if isinstance(e, (HandShown, HandMucked))
    ]


def openers(hand: Hand) -> dict[int, int]:
    """The seat that opened the betting on each street."""
    return {e.street: e.seat for e in of_type(hand.events, ActionOpened)}


def to_showdown(hands: dict[int, str], rules: TableRules) -> Hand:
    """Bring in, call and check to the showdown."""
    hand = start(hands, rules=rules)
    passive(hand)
    assert hand.result is not None and hand.result.showdown
    assert_dealt(hand, hands)
    assert_conserved(hand)
    return hand


# ------------------------------------------------------------------ the table


def test_rule_8_the_games_are_table_options() -> None:
    """RULES.md 8: "Other games of the family (same engine, other rules)": Stud (high
    only) and Razz are chosen with ``game``; the open-pair option must be a bool."""
    razz = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, game="razz")  # type: ignore[arg-type]
    assert razz.game is Game.RAZZ
    assert table(game="stud_high").game is Game.STUD_HIGH
    assert table().open_pair_big_bet is True
    assert "open_pair_big_bet=False" in repr(table(game=Game.STUD_HIGH, open_pair_big_bet=False))
    with pytest.raises(RulesError, match="open_pair_big_bet"):
        table(open_pair_big_bet="yes")
    with pytest.raises(RulesError, match="game must be one of"):
        table(game="omaha")


# ------------------------------------------------------------ stud, high only


def test_rule_8_stud_high_has_no_low_half() -> None:
    """RULES.md 8: "Seven Card Stud (high only): no low half". Seat 2 holds a
    qualifying 6-4-3-2-A low, which would take the low half in Stud Hi/Lo; in Stud
    the best high (seat 1's three kings) takes the whole pot of 9."""
    hands = {
        1: "Kc Kd Ks | 9h | 7d | 5c | Jh",
        2: "As 2s 3d | 4c | 6h | Qd | Jc",
        3: "9c 9d Th | Tc | 8c | 3h | 2h",
    }
    hand = to_showdown(hands, STUD)
    # bring-in: the lowest up card, ace high, as in Stud Hi/Lo: seat 2's 3d
    assert openers(hand)[3] == 2
    # 9 chips: all to seat 1; each put in 3
    assert stacks(hand) == {1: 106, 2: 97, 3: 97}
    assert [(a.seat, a.amount, a.half) for a in of_type(hand.events, PotAwarded)] == [
        (1, 9, "whole")
    ]
    assert all(e.low is None for e in of_type(hand.events, HandShown))
    # The same cards in Stud Hi/Lo: high half ceil(9/2) = 5 to seat 1, low half 4 to seat 2.
    hilo = to_showdown(hands, table())
    assert stacks(hilo) == {1: 102, 2: 101, 3: 97}


def test_rule_8_stud_high_tied_highs_odd_chip_by_the_high_rule() -> None:
    """RULES.md 8: "no low half": tied highs share the whole pot, the odd chip by
    the high rule of 5.3 (the highest card, by rank and then suit). Seats 1 and 2
    both play A-K-Q-J-9 high; seat 3 folds on 3rd street. Pot: 3 antes + bring-in 2
    + call 2 = 7: 3 each and the odd chip to seat 2, who holds the As (seat 1 the Ad)."""
    hands = {
        1: "Ad Kd 3c | Qh | Jd | 9c | 4c",
        2: "As Kc 9d | Qd | Jc | 3d | 2h",
        3: "7h 7s Th",
    }
    hand = start(hands, rules=STUD)
    play(hand, "1 bring-in, 2 call, 3 fold")  # the 3c is the lowest up card
    passive(hand)
    assert_dealt(hand, hands)
    assert_conserved(hand)
    assert best_high(seat_cards(hands)[1]) == best_high(seat_cards(hands)[2])
    # seat 1: 100 - 3 + 3; seat 2: 100 - 3 + 4; seat 3 lost his ante
    assert stacks(hand) == {1: 100, 2: 101, 3: 99}
    assert {a.half for a in of_type(hand.events, PotAwarded)} == {"whole"}


def open_pair_hand(rules: TableRules, *, pair: bool = True) -> Hand:
    """Two players; seat 1 shows Kd Kh on 4th street (or Kd Qh), seat 2 shows 6d 9c.
    On 3rd street one brings in 2 and the other calls. Returns the hand on 4th street,
    seat 1 to act (the highest hand showing; in razz seat 2, the lowest)."""
    hands = {
        1: f"2c 3d Kd | {'Kh' if pair else 'Qh'} | 7s | 8s | Jd",
        2: "4c 5h 6d | 9c | Tc | Qc | 2h",
    }
    hand = start(hands, rules=rules)
    passive(hand, until_street=4)
    assert hand.street == 4 and hand.to_act == (2 if rules.game is Game.RAZZ else 1)
    for seat, given in seat_cards(hands).items():  # the cards so far are the test's
        assert hand.cards(seat) == given[:4]
    return hand


def test_rule_8_stud_high_open_pair_allows_the_big_bet_on_4th_street() -> None:
    """RULES.md 8: "an open pair on 4th street allows the big bet in fixed limit
    (seed 003, PS; an option, on by default for cash tables)". Seat 1 shows a pair of
    kings: he may bet the small bet (4) or the big bet (8), nothing between. He bets 8;
    raises are then by the big bet: seat 2 raises to 16, seat 1 re-raises to 24, seat 2
    calls. Pot: antes 2 + 3rd street 4 + 4th street 48 = 54, to seat 1 (kings)."""
    hand = open_pair_hand(STUD)
    assert amounts(hand, ActionKind.BET) == (4, 8)
    before = list(hand.events)
    with pytest.raises(IllegalActionError, match="exactly 4 or exactly 8"):
        hand.apply(Bet(6))
    assert hand.events == before and hand.to_act == 1
    act(hand, 1, Bet(8))
    raise_ = legal(hand)[ActionKind.RAISE]
    assert (raise_.min_to, raise_.max_to) == (16, 16)  # only by the big bet now
    with pytest.raises(IllegalActionError):
        hand.apply(Raise(12))
    act(hand, 2, Raise(16))
    assert (legal(hand)[ActionKind.RAISE].min_to, legal(hand)[ActionKind.RAISE].max_to) == (
        24,
        24,
    )
    play(hand, "1 raise 24, 2 call")
    assert [(e.seat, e.to) for e in of_type(hand.events, BetMade)] == [(1, 8)]
    assert [(e.seat, e.to) for e in of_type(hand.events, Raised)] == [(2, 16), (1, 24)]
    # 5th street: the big bet as always
    assert hand.street == 5
    bet5 = legal(hand)[ActionKind.BET]
    assert (bet5.min_to, bet5.max_to) == (8, 8)
    passive(hand)
    assert_conserved(hand)
    # each put in 1 + 2 + 24 = 27; seat 1: 100 - 27 + 54
    assert stacks(hand) == {1: 127, 2: 73}


def test_rule_8_stud_high_open_pair_small_bet_then_small_or_big_raise() -> None:
    """RULES.md 8: "an open pair on 4th street allows the big bet". After a small bet
    of 4, a raise may be by the small bet (to 8) or the big bet (to 12); after seat 2's
    small raise to 8 seat 1 may raise to 12 or 16; he makes the big raise to 16, and
    seat 2 may then only raise by the big bet (to 24); he calls. Pot: 2 + 4 + 32 = 38."""
    hand = open_pair_hand(STUD)
    act(hand, 1, Bet(4))
    assert amounts(hand, ActionKind.RAISE) == (8, 12)
    with pytest.raises(IllegalActionError, match="exactly 8 or exactly 12"):
        hand.apply(Raise(10))
    act(hand, 2, Raise(8))
    assert amounts(hand, ActionKind.RAISE) == (12, 16)
    act(hand, 1, Raise(16))
    r = legal(hand)[ActionKind.RAISE]
    assert (r.min_to, r.max_to) == (24, 24)
    act(hand, 2, Call())
    passive(hand)
    assert_conserved(hand)
    # each put in 1 + 2 + 16 = 19; seat 1: 100 - 19 + 38
    assert stacks(hand) == {1: 119, 2: 81}


@pytest.mark.parametrize(
    ("rules", "pair", "size"),
    [
        (STUD, False, 4),  # Stud, no open pair: the small bet only
        (table(game=Game.STUD_HIGH, open_pair_big_bet=False), True, 4),  # option off
        (table(), True, 4),  # Stud Hi/Lo: no double bet for an open pair (RULES.md 3)
        (RAZZ, True, 4),  # Razz: the rule is Stud's
        (table(game=Game.STUD_HIGH, big_bet_street=4), True, 8),  # 4th already big
    ],
    ids=["stud-no-pair", "stud-option-off", "stud-hi-lo", "razz", "big-bets-from-4th"],
)
def test_rule_8_without_the_open_pair_rule_one_bet_size_on_4th_street(
    rules: TableRules, pair: bool, size: int
) -> None:
    """RULES.md 8: "an open pair on 4th street allows the big bet in fixed limit ...
    (an option)": without an open pair, with the option off, or in the other games,
    4th street has one bet size (the small bet, or the big bet from a table that plays
    big bets from 4th street), and another amount is refused."""
    hand = open_pair_hand(rules, pair=pair)
    bet = legal(hand)[ActionKind.BET]
    assert (bet.min_to, bet.max_to) == (size, size)
    with pytest.raises(IllegalActionError, match=f"exactly {size}"):
        hand.apply(Bet(12 - size))  # 8 where 4 is the bet, 4 where 8 is
    hand.apply(Bet(size))
    r = legal(hand)[ActionKind.RAISE]
    assert (r.min_to, r.max_to) == (2 * size, 2 * size)


def test_rule_8_stud_high_open_pair_of_an_all_in_player_counts() -> None:
    """RULES.md 8: "an open pair on 4th street allows the big bet": any player's pair.
    Seat 1 (pair of kings on 4th) is all-in from 3rd street (3 chips: ante 1, call 2),
    so seat 2 acts first on 4th; the pair still lets him bet 4 or 8. He bets 8, seat 3
    calls, and they check it down. Main pot 3 + 6 = 9 to seat 1 (kings); side pot 16
    to seat 3 (sevens) over seat 2 (queen high)."""
    hands = {
        1: "2c 3d Kd | Kh | 7s | 8s | Jd",
        2: "4c 5h 6d | 9c | Tc | Qh | 2h",
        3: "7c 7h Qd | Jc | 3s | 4s | 5s",
    }
    hand = start(hands, rules=STUD, stacks={1: 3})
    play(hand, "2 bring-in, 3 call, 1 call")
    assert hand.is_all_in(1) and hand.street == 4 and hand.to_act == 2
    assert amounts(hand, ActionKind.BET) == (4, 8)
    play(hand, "2 bet 8, 3 call")
    passive(hand)
    assert_dealt(hand, hands)
    assert_conserved(hand)
    # seat 2: 100 - 1 - 2 - 8 = 89; seat 3: 89 + 16
    assert stacks(hand) == {1: 9, 2: 89, 3: 105}


def test_rule_8_stud_high_short_all_in_after_a_big_bet_is_measured_by_the_big_bet() -> None:
    """RULES.md 8 with RULES.md 3 ("an all-in of less than half a bet does not reopen
    the betting for players who have already acted"): small bet 4, big bet 10. Seat 1
    (open pair of kings) bets the big bet, 10; seat 2 is all-in raising to 14, 4 more:
    less than half of the big bet (5), so not a raise for seat 1, who has acted (had
    it been measured by the small bet, 4 would be a full raise). Seat 3, who has not
    acted, may call or raise by the big bet (to 20); he calls; seat 1 may only call or
    fold. Everyone has 17 in: one pot of 51, to seat 1 (kings)."""
    rules = table(game=Game.STUD_HIGH, big_bet=10)
    hands = {
        1: "2c 3d Kd | Kh | 7s | 8s | Jd",
        2: "4c 5h 6d | 9c | Tc | Qh | 2h",
        3: "7c 7h Qd | Jc | 3s | 4s | 5s",
    }
    hand = start(hands, rules=rules, stacks={2: 17})
    play(hand, "2 bring-in, 3 call, 1 call")
    assert hand.to_act == 1
    assert amounts(hand, ActionKind.BET) == (4, 10)
    act(hand, 1, Bet(10))
    r = legal(hand)[ActionKind.RAISE]
    assert (r.min_to, r.max_to, r.all_in) == (14, 14, True)  # 4 or 10 more: all he has
    act(hand, 2, Raise(14))
    r = legal(hand)[ActionKind.RAISE]
    assert (r.min_to, r.max_to) == (20, 20)  # seat 3 has not acted: by the big bet
    act(hand, 3, Call())
    assert hand.to_act == 1
    assert set(legal(hand)) == {ActionKind.FOLD, ActionKind.CALL}
    act(hand, 1, Call())
    passive(hand)
    assert_dealt(hand, hands)
    assert_conserved(hand)
    assert stacks(hand) == {1: 134, 2: 0, 3: 83}


# ------------------------------------------------------------------------ razz


@pytest.mark.parametrize(
    ("doors", "brings_in"),
    [
        ({1: "Kh", 2: "Ks", 3: "Qs"}, 2),  # the king of spades is the highest card
        ({1: "Ks", 2: "Kh", 3: "Qs"}, 1),
        ({1: "Kh", 2: "Qs"}, 1),  # a king over a queen, whatever the suits
        ({1: "As", 2: "Kd"}, 2),  # the ace is low: the king brings in
        ({1: "2c", 2: "As"}, 1),  # an ace never brings in over a 2
        ({1: "8d", 2: "8h", 3: "8c"}, 2),  # equal ranks: hearts over diamonds, clubs
    ],
)
def test_rule_8_razz_highest_up_card_brings_in(doors: dict[int, str], brings_in: int) -> None:
    """RULES.md 8: "Razz: ... the HIGHEST up card brings in (the king of spades is
    highest, the ace is low)"; suits break ties as in section 2, spades highest."""
    fillers = iter(["9c 9d", "Tc Td", "Jc Jd"])
    hands = {seat: f"{next(fillers)} {door}" for seat, door in doors.items()}
    hand = start(hands, rules=RAZZ)
    assert_dealt(hand, hands)
    assert hand.to_act == brings_in and hand.bring_in_seat == brings_in
    assert ActionKind.BRING_IN in legal(hand)


def test_rule_8_razz_all_in_for_the_ante_the_player_on_his_left_brings_in() -> None:
    """RULES.md 8 with RULES.md 2 ("If the low card is all-in for the ante, the player
    on his left brings in instead"): in razz, seat 2's king of spades would bring in,
    but his one chip went in as the ante; seat 3 brings in."""
    hands = {1: "9c 9d 5c", 2: "Tc Td Ks", 3: "Jc Jd 9h"}
    hand = start(hands, rules=RAZZ, stacks={2: 1})
    assert hand.is_all_in(2)
    assert hand.to_act == 3 and hand.bring_in_seat == 3
    play(hand, "3 bring-in, 1 call")
    passive(hand)
    assert_conserved(hand)


def test_rule_8_razz_lowest_hand_showing_acts_first_pairs_are_bad() -> None:
    """RULES.md 8: "Razz: ... the lowest hand showing acts first." On 4th street seat 3
    shows 7-4, seat 1 K-Q, seat 2 a pair of deuces: seat 3 acts first (in Stud Hi/Lo
    the deuces would). On 5th street seat 1 shows K-Q-3, seat 2 2-2-A, seat 3 7-7-4:
    seat 1, the only one without a pair, acts first."""
    hands = {
        1: "9c 9d Kc | Qd | 3c",
        2: "Tc Td 2s | 2h | As",
        3: "Jc Jd 7h | 4c | 7d",
    }
    hand = start(hands, rules=RAZZ)
    passive(hand, until_street=5)
    assert_dealt(hand, hands)
    # 3rd street: the highest up card (Kc) brings in
    assert openers(hand) == {3: 1, 4: 3, 5: 1}
    hilo = start(hands, rules=table())
    passive(hilo, until_street=5)
    assert openers(hilo)[4] == 2  # the highest hand showing: the pair


@pytest.mark.parametrize(
    ("tie", "first"),
    [(FirstToActTie.POSITION, 1), (FirstToActTie.HIGHEST_CARD_BY_SUIT, 2)],
)
def test_rule_8_razz_exact_tie_of_the_lowest_hand_showing(tie: FirstToActTie, first: int) -> None:
    """RULES.md 8 ("the lowest hand showing acts first") with RULES.md 3 ("An exact tie
    goes by position: ... the lowest seat number ... Option: the tie goes to the highest
    up card by suit"): seats 1 and 2 both show 7-4. By position seat 1 acts first; by
    suit seat 2, whose 7d is the highest up card (the ace would count low)."""
    hands = {1: "9c 9d 7c | 4d", 2: "Tc Td 7d | 4c", 3: "Jc Jd Kc | Qc"}
    hand = start(hands, rules=table(game=Game.RAZZ, first_to_act_tie=tie))
    passive(hand, until_street=4)
    assert_dealt(hand, hands)
    assert openers(hand) == {3: 3, 4: first}


def test_rule_8_razz_best_ace_to_five_low_wins_with_no_qualifier() -> None:
    """RULES.md 8: "Razz: low only, ace to five, no qualifier". Seat 1's best is
    T-9-7-4-2 (not an 8-or-better low, so it would not play in Stud Hi/Lo); seat 2 must
    pair (J, 3, 6, Q and pairs): his best is a pair of threes. With no bet on 7th street
    seat 1 shows first; seat 2 cannot win and mucks. The pot of 6 goes whole to
    seat 1."""
    hands = {1: "Tc 9d 7h | 4s | 2c | Kd | Kh", 2: "Jc Jd 3h | 3s | 6c | 6d | Qh"}
    hand = to_showdown(hands, RAZZ)
    assert openers(hand)[3] == 1  # the 7h is higher than the 3h: seat 1 brings in
    cards = seat_cards(hands)
    ten_low = RazzValue.from_ranks((10, 9, 7, 4, 2))
    assert best_razz_low(cards[1]) == ten_low
    assert shown_order(hand) == [("show", 1), ("muck", 2)]
    (shown,) = of_type(hand.events, HandShown)
    assert shown.low == ten_low and shown.high == best_high(cards[1])
    assert [(a.seat, a.amount, a.half) for a in of_type(hand.events, PotAwarded)] == [
        (1, 6, "whole")
    ]
    assert stacks(hand) == {1: 103, 2: 97}
    assert hand.result is not None and hand.result.pots[0].low_value == ten_low
    # Stud Hi/Lo: no qualifying low; seat 2's two pair beats seat 1's kings.
    assert stacks(to_showdown(hands, table())) == {1: 97, 2: 103}


def test_rule_8_razz_straights_and_flushes_do_not_count() -> None:
    """RULES.md 8: "Razz: low only, ace to five, ... no straights or flushes". Seat 1's
    A-2-3-4-5 of hearts (a straight flush for high) is the best razz low, 5-4-3-2-A,
    and beats seat 2's 6-4-3-2-A. Seat 2 (the 3s is higher than the 3h) brings in; with
    no bet on 7th street seat 1 shows first, seat 2 mucks; seat 1 takes 6."""
    hands = {1: "Ah 2h 3h | 4h | 5h | Kc | Kd", 2: "As 2s 3s | 4s | 6d | Qc | Qd"}
    hand = to_showdown(hands, RAZZ)
    assert openers(hand)[3] == 2
    (shown,) = of_type(hand.events, HandShown)
    assert shown.seat == 1
    assert shown.low == RazzValue.from_ranks((5, 4, 3, 2, 1))
    assert shown.high.category == HighCategory.STRAIGHT_FLUSH  # shown, but it does not play
    assert shown_order(hand) == [("show", 1), ("muck", 2)]
    assert stacks(hand) == {1: 103, 2: 97}


def test_rule_8_razz_a_losing_hand_shown_first_then_the_winner() -> None:
    """RULES.md 8 with RULES.md 5 (show order; "A player who cannot win may muck"):
    the show order is the same in razz. Seat 1 shows first (earliest seat, no bet on
    7th street) with 8-7-5-3-2; seat 2's 6-5-4-3-A beats it, so he shows too."""
    hands = {1: "8c 7d 5c | 3d | 2c | Kd | Kh", 2: "6c 5d 4h | 3s | Ac | Qd | Qh"}
    hand = to_showdown(hands, RAZZ)
    assert shown_order(hand) == [("show", 1), ("show", 2)]
    assert stacks(hand) == {1: 97, 2: 103}


@pytest.mark.parametrize(
    ("odd_chip", "gets_it"),
    [(OddChip.ALL_CARDS, 2), (OddChip.FIVE_CARD_HAND, 1)],
)
def test_rule_8_razz_tied_lows_odd_chip_by_the_low_rule(odd_chip: OddChip, gets_it: int) -> None:
    """RULES.md 8 ("Razz: low only") with RULES.md 5.3: tied lows share the pot; the odd
    chip goes "to the player holding the lowest card, the ace counting low, then by suit
    (clubs first ...)". Seats 1 and 2 both make 7-5-4-3-A; seat 3 folds on 3rd street.
    Pot: 3 antes + bring-in 2 + call 2 = 7: 3 each and the odd chip to seat 2, who holds
    the Ac (seat 1 the As). (The high rule would give it to seat 1, who holds the As and
    the Kd.) Option: the highest card by suit within the five-card low: seat 1's 7s
    beats seat 2's 7d, so seat 1 gets it."""
    hands = {
        1: "As 3d Kd | 4d | 5c | 7s | Qs",
        2: "Ac 3h 7d | 4h | 5h | Jc | Tc",
        3: "9s 9h 2c",
    }
    hand = start(hands, rules=table(game=Game.RAZZ, odd_chip=odd_chip))
    # the Kd is the highest up card: seat 1 brings in
    play(hand, "1 bring-in, 2 call, 3 fold")
    passive(hand)
    assert_dealt(hand, hands)
    assert_conserved(hand)
    cards = seat_cards(hands)
    assert (
        best_razz_low(cards[1]) == best_razz_low(cards[2]) == RazzValue.from_ranks((7, 5, 4, 3, 1))
    )
    won = {a.seat: a.amount for a in of_type(hand.events, PotAwarded)}
    assert won == {1: 3, 2: 3} | {gets_it: 4}
    assert {a.half for a in of_type(hand.events, PotAwarded)} == {"whole"}
    # seat 1 and 2 each put in 3; seat 3 lost his ante
    assert stacks(hand) == {1: 100, 2: 100, 3: 99} | {gets_it: 101}


# --------------------------------------------------------------- random hands


def _pick(hand: Hand, rng: random.Random) -> Action:
    """A random legal action; for amounts, the smallest or the largest (fixed limit),
    or any amount allowed (no limit)."""
    choice = rng.choice(hand.legal_actions())
    if choice.min_to is None or choice.kind is ActionKind.CALL:
        return choice.action()
    assert choice.max_to is not None
    if hand.rules.structure is BettingStructure.FIXED_LIMIT:
        return choice.action(rng.choice((choice.min_to, choice.max_to)))
    return choice.action(rng.randint(choice.min_to, choice.max_to))


def _pot_winners_are_best(hand: Hand) -> None:
    """Each contested pot at the showdown goes whole (no low half) to the best value
    of the game among the seats eligible for it, shared as evenly as possible."""
    assert hand.result is not None
    for pot in hand.result.pots:
        assert not pot.low
        if not hand.result.showdown or len(pot.eligible) < 2:
            continue
        community = [hand.community_card] if hand.community_card is not None else []
        cards = {s: [*hand.cards(s), *community] for s in pot.eligible}
        if hand.rules.game is Game.RAZZ:
            razz = {s: best_razz_low(c) for s, c in cards.items()}
            best_low = max(razz.values())
            expected = {s for s in pot.eligible if razz[s] == best_low}
            assert pot.low_value == best_low and pot.high_value is None
        else:
            high = {s: evaluate_hi_lo(c)[0] for s, c in cards.items()}
            best = max(high.values())
            expected = {s for s in pot.eligible if high[s] == best}
            assert pot.high_value == best and pot.low_value is None
        assert {s for s, _ in pot.high} == expected
        shares = sorted(chips for _, chips in pot.high)
        assert sum(shares) == pot.amount and shares[-1] - shares[0] <= 1


@pytest.mark.parametrize("game", [Game.STUD_HIGH, Game.RAZZ])
@pytest.mark.parametrize("structure", [BettingStructure.FIXED_LIMIT, BettingStructure.NO_LIMIT])
def test_rule_8_random_hands_end_and_conserve_chips(
    game: Game, structure: BettingStructure
) -> None:
    """RULES.md 8: "Other games of the family (same engine, other rules)". 150 seeded
    random hands per game and structure, 2 to 8 players with stacks from 3 to 200
    chips (all-ins and side pots), random legal actions and a few timeouts: every hand
    ends, no chip is made or lost, every pot goes whole to the best hand of the game
    among its eligible seats, the shown values are the game's, and replaying the
    decisions gives the same events."""
    rng = random.Random(f"{game.value}-{structure.value}")
    rules = table(game=game, structure=structure)
    showdowns = 0
    for _ in range(150):
        seats = sorted(rng.sample(range(1, 9), rng.randint(2, 8)))
        chips = {s: rng.choice((3, 7, 12, 40, 100, 200)) for s in seats}
        hand = Hand.start(rules=rules, stacks=chips, deck=Deck.seeded(rng.randrange(10**9)))
        for _step in range(400):
            if hand.is_over:
                break
            if rng.random() < 0.03:
                hand.time_out()
            else:
                hand.apply(_pick(hand, rng))
        assert hand.is_over and hand.result is not None
        showdowns += hand.result.showdown
        assert_conserved(hand)
        _pot_winners_are_best(hand)
        assert {a.half for a in of_type(hand.events, PotAwarded)} == {"whole"}
        for shown in of_type(hand.events, HandShown):
            if game is Game.RAZZ:
                assert shown.low == best_razz_low(shown.cards)
            else:
                assert shown.low is None
        assert Hand.replay(hand.setup, hand.decisions).events == hand.events
    assert showdowns > 10


def _fourth_street_bets(hand: Hand) -> list[int]:
    """The *to* amounts of the bets and raises so far on 4th street."""
    out: list[int] = []
    street = 0
    for e in hand.events:
        if isinstance(e, StreetStarted):
            street = e.street
        elif street == 4 and isinstance(e, (BetMade, Raised)):
            out.append(e.to)
    return out


def test_rule_8_stud_high_random_hands_open_pair_offers_small_or_big() -> None:
    """RULES.md 8: "an open pair on 4th street allows the big bet in fixed limit".
    In 300 seeded random Stud hands (stacks 200, bets of 4 and 8), at every 4th-street
    bet or raise: with an open pair dealt and no big bet yet, the small or the big bet
    (4 or 8 over the last bet); after a big bet, by the big bet only; without an open
    pair, by the small bet only (but never more than the player has)."""
    rng = random.Random(8)
    seen = {"pair": 0, "after big": 0, "no pair": 0}
    for _ in range(300):
        seats = range(1, rng.randint(2, 8) + 1)
        deck = Deck.seeded(rng.randrange(10**9))
        hand = Hand.start(rules=STUD, stacks=dict.fromkeys(seats, 200), deck=deck)
        while hand.to_act is not None:
            seat = hand.to_act
            if hand.street == 4:
                ups = [hand.up_cards(s) for s in hand.seats]
                pair = any(len(up) == 2 and up[0].rank == up[1].rank for up in ups)
                tos = _fourth_street_bets(hand)
                big_made = pair and any(b - a >= 8 for a, b in zip([0, *tos], tos, strict=False))
                top = tos[-1] if tos else 0
                all_in_to = hand.stack(seat) + hand.street_bet(seat)
                offered = amounts(hand, ActionKind.BET) or amounts(hand, ActionKind.RAISE)
                if offered:
                    expected: tuple[int, ...]
                    if pair and not big_made:
                        expected, case = (top + 4, top + 8), "pair"
                    elif big_made:
                        expected, case = (top + 8,), "after big"
                    else:
                        expected, case = (top + 4,), "no pair"
                    assert offered == tuple(sorted({min(x, all_in_to) for x in expected}))
                    seen[case] += 1
            hand.apply(_pick(hand, rng))
        assert_conserved(hand)
    assert min(seen.values()) > 20, seen
