"""RULES.md section 1 (the game) and section 2 (forced bets).

Every expected number here is worked out by hand from RULES.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from statistics import NormalDist

import pytest
from deal import deck_for, play_passively

from stud8.core import (
    ActionKind,
    AllInLowCard,
    BettingStructure,
    BringIn,
    Call,
    Card,
    Check,
    Complete,
    Deck,
    Fold,
    Hand,
    HandSetupError,
    IllegalActionError,
    Raise,
    TableRules,
    parse_cards,
)
from stud8.core.cards import CARDS
from stud8.core.events import (
    ActionOpened,
    AntePosted,
    BetMade,
    BringInPosted,
    Called,
    CardDealt,
    CommunityCardDealt,
    Completed,
    Folded,
    StreetStarted,
)

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)


def kinds(hand: Hand) -> set[ActionKind]:
    return {legal.kind for legal in hand.legal_actions()}


def legal(hand: Hand, kind: ActionKind) -> tuple[int | None, int | None, int, bool]:
    """(min_to, max_to, adds, all_in) of the legal action of this kind."""
    for action in hand.legal_actions():
        if action.kind is kind:
            return action.min_to, action.max_to, action.adds, action.all_in
    raise AssertionError(f"{kind} is not legal now: {hand.legal_actions()}")


def dealt(hand: Hand) -> list[CardDealt]:
    return [e for e in hand.events if isinstance(e, CardDealt)]


# --------------------------------------------------------------------------- 1. The game


@pytest.mark.parametrize("players", [2, 3, 8])
def test_rule_1_two_to_eight_players_may_play(players: int) -> None:
    """RULES.md 1: "2 to 8 players, one 52-card deck, no jokers, no burn cards."."""
    stacks = {seat: 100 for seat in range(1, players + 1)}
    hand = Hand.start(rules=RULES, stacks=stacks, deck=Deck.seeded(players))
    assert hand.seats == tuple(range(1, players + 1))
    assert hand.to_act in stacks


@pytest.mark.parametrize("players", [0, 1, 9])
def test_rule_1_fewer_than_two_or_more_than_eight_players_are_refused(players: int) -> None:
    """RULES.md 1: "2 to 8 players"."""
    stacks = {seat: 100 for seat in range(1, players + 1)}
    with pytest.raises(HandSetupError, match="2 to 8 players"):
        Hand.start(rules=RULES, stacks=stacks, deck=Deck.seeded(1))


@pytest.mark.parametrize("seats", [(0, 1), (8, 9), (1, 9), (-1, 3)])
def test_rule_1_seat_numbers_run_from_1_to_8(seats: tuple[int, int]) -> None:
    """RULES.md 1: "2 to 8 players" -- seats of an eight-seat table are numbered 1 to 8."""
    with pytest.raises(HandSetupError, match="seat"):
        Hand.start(rules=RULES, stacks=dict.fromkeys(seats, 100), deck=Deck.seeded(1))
    hand = Hand.start(rules=RULES, stacks={1: 100, 8: 100}, deck=Deck.seeded(1))
    assert hand.seats == (1, 8)


@pytest.mark.parametrize("stack", [0, -5])
def test_rule_1_a_player_needs_chips_to_be_dealt_in(stack: int) -> None:
    """RULES.md 1: "Table stakes: only the chips a player has at the start of a hand play
    in it." -- a seat with no chips cannot play."""
    with pytest.raises(HandSetupError, match="chips"):
        Hand.start(rules=RULES, stacks={1: 100, 2: stack}, deck=Deck.seeded(1))


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (5, 2), (7, 3), (8, 4), (8, 5)])
def test_rule_1_one_deck_and_no_card_is_dealt_twice(players: int, seed: int) -> None:
    """RULES.md 1: "2 to 8 players, one 52-card deck, no jokers, no burn cards."."""
    deck = Deck.seeded(seed)
    hand = Hand.start(rules=RULES, stacks=dict.fromkeys(range(1, players + 1), 1000), deck=deck)
    play_passively(hand)
    cards = [e.card for e in dealt(hand)]
    cards += [e.card for e in hand.events if isinstance(e, CommunityCardDealt)]
    assert len(cards) == len(set(cards))
    # seven cards each; with eight players the 7th street card is one shared card
    assert len(cards) == (7 * players if players < 8 else 6 * 8 + 1)
    assert set(cards) <= set(deck.cards)


@pytest.mark.parametrize("players", [2, 3, 7])
def test_rule_1_no_burn_cards_the_deal_takes_the_deck_in_order(players: int) -> None:
    """RULES.md 1: "no burn cards" -- every card comes off the top of the deck, round by
    round, to each seat in seat order."""
    deck = Deck.seeded(100 + players)
    seats = list(range(1, players + 1))
    hand = Hand.start(rules=RULES, stacks=dict.fromkeys(seats, 1000), deck=deck)
    play_passively(hand)
    expected = [(seats[i % players], deck.cards[i]) for i in range(7 * players)]
    assert [(e.seat, e.card) for e in dealt(hand)] == expected
    assert hand.deck_position == 7 * players


def test_rule_1_eight_players_no_burn_cards_community_card_is_the_49th() -> None:
    """RULES.md 1: "no burn cards"; 4: "one card is dealt face up in the middle"."""
    deck = Deck.seeded(8)
    hand = Hand.start(rules=RULES, stacks=dict.fromkeys(range(1, 9), 1000), deck=deck)
    play_passively(hand)
    assert [e.card for e in dealt(hand)] == list(deck.cards[:48])
    (community,) = [e for e in hand.events if isinstance(e, CommunityCardDealt)]
    assert community.card == deck.cards[48]
    assert hand.deck_position == 49


def test_rule_1_two_down_one_up_then_up_up_up_then_down() -> None:
    """RULES.md 1: "Each player gets two cards down and one up (3rd street), then one up
    card on 4th, 5th and 6th street, then one down card on 7th street; a betting round
    follows each."."""
    hands = {
        1: "Ah Kh 9c 8c 7c 6c 5h",
        3: "Ad Kd 3c Js Ts 9s 2h",
        6: "As Ks Qd Jd Td 9d 4s",
    }
    deck = deck_for(hands)
    hand = Hand.start(rules=RULES, stacks=dict.fromkeys(hands, 100), deck=deck)
    play_passively(hand)
    # 3rd street: first down card to each seat, then the second, then the up card.
    third = [(e.seat, str(e.card), e.face_up) for e in dealt(hand)[:9]]
    assert third == [
        (1, "Ah", False),
        (3, "Ad", False),
        (6, "As", False),
        (1, "Kh", False),
        (3, "Kd", False),
        (6, "Ks", False),
        (1, "9c", True),
        (3, "3c", True),
        (6, "Qd", True),
    ]
    for seat, text in hands.items():
        mine = [e for e in dealt(hand) if e.seat == seat]
        assert [(e.street, e.face_up) for e in mine] == [
            (3, False),
            (3, False),
            (3, True),
            (4, True),
            (5, True),
            (6, True),
            (7, False),
        ]
        assert hand.cards(seat) == parse_cards(text)
        cards = parse_cards(text)
        assert hand.down_cards(seat) == (cards[0], cards[1], cards[6])
        assert hand.up_cards(seat) == cards[2:6]
    # a betting round follows each street: it opens after the street's cards
    for street in (3, 4, 5, 6, 7):
        i = hand.events.index(StreetStarted(street))
        opened = next(
            k
            for k, e in enumerate(hand.events)
            if isinstance(e, ActionOpened) and e.street == street
        )
        between = hand.events[i + 1 : opened]
        assert between and all(isinstance(e, CardDealt) for e in between)


class _SpyRandom(random.Random):
    """Stands in for random.SystemRandom: counts the instances, shuffles from seed 12345."""

    made = 0

    def __init__(self, x: object = None) -> None:
        type(self).made += 1
        super().__init__(12345)


def test_rule_1_a_live_shuffle_comes_from_the_os_cryptographic_source(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RULES.md 1: "A fresh deck is shuffled for every hand from the operating system's
    cryptographic random source (an unbiased Fisher-Yates shuffle, e.g.
    `random.SystemRandom`)"."""
    monkeypatch.setattr(_SpyRandom, "made", 0)
    monkeypatch.setattr(random, "SystemRandom", _SpyRandom)
    deck = Deck.shuffled()
    assert _SpyRandom.made == 1
    assert deck == Deck.shuffled(random.Random(12345))
    # Hand.start without a deck shuffles a fresh one from it, once per hand
    Hand.start(rules=RULES, stacks={1: 100, 2: 100})
    Hand.start(rules=RULES, stacks={1: 100, 2: 100})
    assert _SpyRandom.made == 3  # Deck.shuffled(random.Random(...)) made none


def test_rule_1_a_live_shuffle_does_not_use_the_global_random_state() -> None:
    """RULES.md 1: "a live table never uses a seeded generator"."""
    random.seed(1)
    state = random.getstate()
    first = Deck.shuffled()
    assert random.getstate() == state  # the module's generator was not drawn from
    random.seed(1)
    second = Deck.shuffled()
    assert first != second  # equal with probability 1/52!
    random.seed(1)
    a = Hand.start(rules=RULES, stacks={1: 100, 2: 100})
    random.seed(1)
    b = Hand.start(rules=RULES, stacks={1: 100, 2: 100})
    assert a.setup.deck != b.setup.deck


def test_rule_1_nothing_of_the_previous_shuffle_is_reused() -> None:
    """RULES.md 1: "A fresh deck is shuffled for every hand [...] and nothing of the
    previous shuffle is reused."."""
    decks = [Hand.start(rules=RULES, stacks={1: 100, 2: 100}).setup.deck for _ in range(5)]
    assert len(set(decks)) == 5


def test_rule_1_a_seeded_shuffle_is_reproducible() -> None:
    """RULES.md 1: "For tests and replays a shuffle may be made from an explicit seed or
    given as a fixed deck order"."""
    assert Deck.seeded(7) == Deck.seeded(7)
    assert Deck.seeded("hand-42") == Deck.seeded("hand-42")
    assert Deck.seeded(7) != Deck.seeded(8)
    assert Deck.shuffled(random.Random(99)) == Deck.shuffled(random.Random(99))
    assert Deck.seeded(99) == Deck.shuffled(random.Random(99))
    assert sorted(Deck.seeded(7).cards, key=lambda c: c.code) == list(CARDS)


def _chi2_critical(df: int, p: float) -> float:
    """The chi-square value exceeded with probability ``p`` (Wilson-Hilferty)."""
    z = NormalDist().inv_cdf(1 - p)
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def _position_counts(shuffle: Callable[[], Sequence[Card]], n: int) -> list[list[int]]:
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(n):
        for position, card in enumerate(shuffle()):
            counts[position][card.code] += 1
    return counts


def _chi2_rows(counts: list[list[int]], n: int) -> list[float]:
    expected = n / 52
    return [sum((o - expected) ** 2 / expected for o in row) for row in counts]


def test_rule_1_the_shuffle_is_unbiased_chi_square() -> None:
    """RULES.md 1: "an unbiased Fisher-Yates shuffle": every card is equally likely in
    every position. 20,000 shuffles from a seeded generator (so the test is
    deterministic); chi-square per position (51 degrees of freedom, p = 0.001 with a
    Bonferroni correction for the 52 positions) and over the 52 x 52 table
    (51 * 51 = 2601 degrees of freedom, p = 0.001)."""
    n = 20_000
    rng = random.Random(20240601)
    counts = _position_counts(lambda: Deck.shuffled(rng).cards, n)
    rows = _chi2_rows(counts, n)
    per_position = _chi2_critical(51, 0.001 / 52)
    overall = _chi2_critical(51 * 51, 0.001)
    assert 100 < per_position < 108  # sanity of the approximation (about 104)
    assert 2800 < overall < 2860  # (about 2827)
    assert max(rows) < per_position
    assert sum(rows) < overall
    # The same statistic does catch a biased shuffle: the naive "swap each card with
    # any card" shuffle.
    biased_rng = random.Random(5)

    def naive() -> list[Card]:
        order = list(CARDS)
        for i in range(52):
            j = biased_rng.randrange(52)
            order[i], order[j] = order[j], order[i]
        return order

    biased = _chi2_rows(_position_counts(naive, 10_000), 10_000)
    assert sum(biased) > overall


def test_rule_1_table_stakes_a_player_cannot_bet_more_than_his_stack() -> None:
    """RULES.md 1: "Table stakes: only the chips a player has at the start of a hand play
    in it."."""
    # seat 2 has the lowest up card (2c) and brings in; seat 3 completes to 4; seat 1
    # started with 3 chips: 1 went in as the ante, 2 are left.
    deck = deck_for({1: "Ah Kh 9c", 2: "Ad Kd 2c", 3: "As Ks Qd"})
    hand = Hand.start(rules=RULES, stacks={1: 3, 2: 100, 3: 100}, deck=deck)
    hand.apply(BringIn())
    hand.apply(Complete(to=4))
    assert hand.to_act == 1
    assert kinds(hand) == {ActionKind.FOLD, ActionKind.CALL}  # no raise: no chips for it
    assert legal(hand, ActionKind.CALL) == (2, 2, 2, True)
    with pytest.raises(IllegalActionError):
        hand.apply(Raise(to=8))
    assert hand.apply(Call()) == [Called(1, 2, 2, True)]
    assert hand.contributed(1) == 3
    assert hand.stack(1) == 0
    assert hand.is_all_in(1)


def test_rule_1_table_stakes_in_no_limit_the_most_a_player_can_bet_is_his_stack() -> None:
    """RULES.md 1: "Table stakes: only the chips a player has at the start of a hand play
    in it." (3: "in no limit, the player's stack")."""
    rules = TableRules(
        ante=1, bring_in=2, small_bet=4, big_bet=8, structure=BettingStructure.NO_LIMIT
    )
    deck = deck_for({1: "Ah Kh 2c", 2: "Ad Kd 9c"})
    hand = Hand.start(rules=rules, stacks={1: 30, 2: 100}, deck=deck)
    assert hand.to_act == 1
    assert legal(hand, ActionKind.COMPLETE)[:2] == (4, 29)
    with pytest.raises(IllegalActionError):
        hand.apply(Complete(to=30))
    assert hand.apply(Complete(to=29)) == [Completed(1, 29, 29, True)]
    assert hand.stack(1) == 0
    assert hand.contributed(1) == 30


# ----------------------------------------------------------------------- 2. Forced bets


def test_rule_2_the_four_parameters_are_used_as_given() -> None:
    """RULES.md 2: "Four independent table parameters: **ante**, **bring-in**, **small
    bet**, **big bet** [...]. None is derived."."""
    rules = TableRules(ante=3, bring_in=1, small_bet=10, big_bet=25)
    # seat 1 shows 2c (lowest): the bring-in. Seat 2 shows the higher cards on 4th.
    deck = deck_for({1: "Kc Kd 2c 3d 4h 5s 6c", 2: "Qc Qd 9h Th Js 8c 7d"})
    hand = Hand.start(rules=rules, stacks={1: 200, 2: 200}, deck=deck)
    assert hand.events[:2] == [AntePosted(1, 3), AntePosted(2, 3)]
    assert hand.to_act == 1
    assert legal(hand, ActionKind.BRING_IN)[2] == 1
    assert legal(hand, ActionKind.COMPLETE)[:2] == (10, 10)
    assert hand.apply(BringIn()) == [BringInPosted(1, 1)]
    assert legal(hand, ActionKind.CALL)[:3] == (1, 1, 1)
    assert legal(hand, ActionKind.COMPLETE)[:2] == (10, 10)
    assert hand.apply(Complete(to=10)) == [Completed(2, 10, 10)]
    assert hand.apply(Call())[0] == Called(1, 10, 9)
    assert hand.street == 4
    assert hand.to_act == 2  # 9h Th against 2c 3d
    assert legal(hand, ActionKind.BET)[:2] == (10, 10)  # small bet on 4th street
    hand.apply(hand.legal_actions()[-1].action())
    hand.apply(Call())
    assert hand.street == 5
    assert hand.to_act == 2
    assert legal(hand, ActionKind.BET)[:2] == (25, 25)  # big bet from 5th street
    assert hand.apply(hand.legal_actions()[-1].action()) == [BetMade(2, 25, 25)]


def test_rule_2_every_player_posts_the_ante_before_the_deal() -> None:
    """RULES.md 2: "Every player posts the ante before the deal."."""
    rules = TableRules(ante=3, bring_in=2, small_bet=4, big_bet=8)
    seats = (2, 4, 5, 7, 8)
    hand = Hand.start(rules=rules, stacks=dict.fromkeys(seats, 50), deck=Deck.seeded(3))
    assert hand.events[:6] == [*(AntePosted(s, 3) for s in seats), StreetStarted(3)]
    assert isinstance(hand.events[6], CardDealt)
    assert [hand.contributed(s) for s in seats] == [3] * 5  # the bring-in is still to come
    assert [hand.stack(s) for s in seats] == [47] * 5


def test_rule_2_a_player_short_of_the_ante_posts_what_he_has_and_is_all_in() -> None:
    """RULES.md 2: "A player who cannot cover it posts what he has and is all-in."."""
    rules = TableRules(ante=3, bring_in=2, small_bet=4, big_bet=8)
    hands = {
        1: "As Ad Ac Ah Kc Kd Ks",  # quad aces, no low
        2: "Qc Qd 2c 3d 9h Th Js",  # 2c: the bring-in; a pair of queens
        3: "Jc Jd 5h 6h 9s Tc 8s",  # a pair of jacks
    }
    hand = Hand.start(rules=rules, stacks={1: 2, 2: 100, 3: 100}, deck=deck_for(hands))
    assert hand.events[:3] == [AntePosted(1, 2, True), AntePosted(2, 3), AntePosted(3, 3)]
    assert hand.is_all_in(1)
    assert hand.to_act == 2
    seen: set[int] = set()
    while not hand.is_over:
        assert hand.to_act is not None
        seen.add(hand.to_act)
        if hand.street == 3:
            hand.apply(BringIn() if hand.to_act == 2 else Call())
        else:
            hand.apply(Check())
    assert 1 not in seen  # all-in: he takes no action
    assert len(hand.cards(1)) == 7  # but is dealt every card
    result = hand.result
    assert result is not None
    # contributions: seat 1: 2; seats 2 and 3: ante 3 + bring-in 2 = 5
    # main pot: 2 from each = 6, for seats 1, 2, 3; side pot: 3 from 2 and 3 = 6
    main, side = result.pots
    assert (main.amount, main.eligible, main.high, main.low) == (6, (1, 2, 3), ((1, 6),), ())
    assert (side.amount, side.eligible, side.high, side.low) == (6, (2, 3), ((2, 6),), ())
    assert result.stacks == {1: 6, 2: 101, 3: 95}


def _bring_in_deck(ups: dict[int, str]) -> Deck:
    """A deck whose up cards on 3rd street are ``ups`` (down cards: kings and queens)."""
    up_cards = {seat: Card.parse(text) for seat, text in ups.items()}
    filler = [c for c in reversed(CARDS) if c not in up_cards.values()]
    hands = {}
    for i, (seat, card) in enumerate(sorted(up_cards.items())):
        hands[seat] = f"{filler[2 * i]} {filler[2 * i + 1]} {card}"
    return deck_for(hands)


@pytest.mark.parametrize(
    ("ups", "bring_in"),
    [
        ({1: "As", 2: "2s", 3: "Kc"}, 2),  # the ace counts high
        ({1: "Ac", 2: "Ad", 3: "Kh"}, 3),  # an ace is never low for the bring-in
        ({1: "2d", 2: "2c"}, 2),  # 2c: the lowest possible card
        ({1: "5s", 2: "5h", 3: "5d", 4: "5c"}, 4),  # clubs lowest
        ({1: "5s", 2: "5h", 3: "5d"}, 3),  # then diamonds
        ({1: "5s", 2: "5h"}, 2),  # then hearts, spades highest
        ({3: "9h", 5: "3s", 8: "4c"}, 5),  # rank before suit
        ({1: "Kh", 2: "Ks", 3: "Ad"}, 1),
        ({2: "7d", 4: "8c", 6: "7c", 7: "Tc"}, 6),
    ],
)
def test_rule_2_the_lowest_up_card_brings_in_ace_high_suits_clubs_diamonds_hearts_spades(
    ups: dict[int, str], bring_in: int
) -> None:
    """RULES.md 2: "**Bring-in:** the player with the lowest up card. For this the ace
    counts HIGH (the lowest possible card is the 2 of clubs). Equal ranks are broken by
    suit, from low to high: clubs, diamonds, hearts, spades"."""
    hand = Hand.start(rules=RULES, stacks=dict.fromkeys(ups, 100), deck=_bring_in_deck(ups))
    assert [str(hand.up_cards(s)[0]) for s in sorted(ups)] == [ups[s] for s in sorted(ups)]
    assert hand.bring_in_seat == bring_in
    assert hand.to_act == bring_in
    assert ActionOpened(3, bring_in) in hand.events


def test_rule_2_the_bring_in_player_may_bring_in() -> None:
    """RULES.md 2: "The bring-in player may post the bring-in or **complete** to the small
    bet."."""
    hand = Hand.start(rules=RULES, stacks={1: 100, 2: 100, 3: 100}, deck=_low_on_2())
    assert hand.to_act == 2
    assert kinds(hand) == {ActionKind.BRING_IN, ActionKind.COMPLETE}
    assert legal(hand, ActionKind.BRING_IN)[2:] == (2, False)
    assert legal(hand, ActionKind.COMPLETE)[:3] == (4, 4, 4)
    with pytest.raises(IllegalActionError):
        hand.apply(Fold())  # the bring-in is forced
    assert hand.apply(BringIn()) == [BringInPosted(2, 2)]
    assert hand.stack(2) == 97
    assert hand.to_act == 3
    assert legal(hand, ActionKind.CALL)[:3] == (2, 2, 2)
    assert legal(hand, ActionKind.COMPLETE)[:3] == (4, 4, 4)


def test_rule_2_the_bring_in_player_may_complete_to_the_small_bet() -> None:
    """RULES.md 2: "The bring-in player may post the bring-in or **complete** to the small
    bet."."""
    hand = Hand.start(rules=RULES, stacks={1: 100, 2: 100, 3: 100}, deck=_low_on_2())
    assert hand.apply(Complete(to=4)) == [Completed(2, 4, 4)]
    assert hand.stack(2) == 95
    assert hand.to_act == 3
    assert legal(hand, ActionKind.CALL)[:3] == (4, 4, 4)
    assert legal(hand, ActionKind.RAISE)[:2] == (8, 8)  # a completion is the round's bet


def _low_on_2() -> Deck:
    return deck_for({1: "Ah Kh 9c", 2: "Ad Kd 2c", 3: "As Ks Qd"})


def test_rule_2_a_player_short_of_the_bring_in_posts_what_he_has_others_enter_for_it_all() -> None:
    """RULES.md 2: "A player short of the bring-in posts what he has, all-in; everyone
    else must still enter for the full bring-in (WSOP)."."""
    # seat 2 has the lowest up card and 2 chips: 1 for the ante, 1 for the bring-in.
    hand = Hand.start(rules=RULES, stacks={1: 100, 2: 2, 3: 100}, deck=_low_on_2())
    assert hand.to_act == 2
    assert kinds(hand) == {ActionKind.BRING_IN}
    assert legal(hand, ActionKind.BRING_IN)[2:] == (1, True)
    assert hand.apply(BringIn()) == [BringInPosted(2, 1, True)]
    assert hand.to_act == 3
    assert legal(hand, ActionKind.CALL)[:3] == (2, 2, 2)  # the full bring-in of 2
    assert hand.apply(Call()) == [Called(3, 2, 2)]
    assert hand.to_act == 1
    assert legal(hand, ActionKind.CALL)[:3] == (2, 2, 2)
    hand.apply(Call())
    assert hand.street == 4
    assert hand.pot_total == 3 + 1 + 2 + 2
    assert [hand.contributed(s) for s in (1, 2, 3)] == [3, 2, 3]


def _low_all_in(seats: Sequence[int], low: int, second: int) -> Deck:
    """Up cards: 2c for ``low``, 3c for ``second``, kings and queens for the others."""
    others = iter(["Kd", "Qd", "Kh", "Qh", "Ks", "Qs", "Jd", "Jh"])
    ups = {s: ("2c" if s == low else "3c" if s == second else next(others)) for s in seats}
    return _bring_in_deck(ups)


@pytest.mark.parametrize(
    ("seats", "low", "second", "left"),
    [
        ((1, 2, 3, 4), 2, 4, 3),  # the player on his left, not the next lowest card
        ((2, 5, 7), 7, 5, 2),  # the left of the last seat is the first seat
        ((1, 3, 4, 6), 3, 1, 4),
    ],
)
def test_rule_2_low_card_all_in_for_the_ante_the_player_on_his_left_must_bring_in(
    seats: tuple[int, ...], low: int, second: int, left: int
) -> None:
    """RULES.md 2: "If the low card is all-in for the ante, the player on his left brings
    in instead (all authorities). Default: that player must post the bring-in (PS)."."""
    stacks = {s: (1 if s == low else 100) for s in seats}
    hand = Hand.start(rules=RULES, stacks=stacks, deck=_low_all_in(seats, low, second))
    assert hand.is_all_in(low)
    assert hand.to_act == left
    assert hand.bring_in_seat == left
    assert kinds(hand) == {ActionKind.BRING_IN, ActionKind.COMPLETE}
    with pytest.raises(IllegalActionError):
        hand.apply(Fold())
    assert hand.apply(BringIn()) == [BringInPosted(left, 2)]
    assert hand.stack(left) == 97


def test_rule_2_low_card_all_in_and_his_left_all_in_too_the_next_player_with_chips_brings_in() -> (
    None
):
    """RULES.md 2: "If the low card is all-in for the ante, the player on his left brings
    in instead" -- read: the first player on his left who has chips left to bring in."""
    seats = (1, 2, 3, 4)
    stacks = {1: 100, 2: 1, 3: 1, 4: 100}
    hand = Hand.start(rules=RULES, stacks=stacks, deck=_low_all_in(seats, 2, 1))
    assert hand.is_all_in(2) and hand.is_all_in(3)
    assert hand.to_act == 4
    assert hand.bring_in_seat == 4


def test_rule_2_low_card_all_in_option_the_player_on_his_left_may_fold_without_paying() -> None:
    """RULES.md 2: "If the low card is all-in for the ante, the player on his left brings
    in instead (all authorities). [...] Option: he may fold without paying (RRoP, TDA)."."""
    rules = TableRules(
        ante=1, bring_in=2, small_bet=4, big_bet=8, all_in_low_card=AllInLowCard.NEXT_MAY_FOLD
    )
    seats = (1, 2, 3, 4)
    stacks = {1: 100, 2: 1, 3: 100, 4: 100}
    hand = Hand.start(rules=rules, stacks=stacks, deck=_low_all_in(seats, 2, 4))
    assert hand.to_act == 3
    assert kinds(hand) == {ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.FOLD}
    assert hand.apply(Fold()) == [Folded(3)]
    assert hand.stack(3) == 99  # only his ante went in
    assert hand.contributed(3) == 1
    assert hand.is_folded(3)
    # docs/rules.md: the choice then passes to the next player on the left
    assert hand.to_act == 4
    assert kinds(hand) == {ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.FOLD}
    assert hand.apply(BringIn()) == [BringInPosted(4, 2)]
    assert hand.bring_in_seat == 4
    assert hand.to_act == 1
    assert legal(hand, ActionKind.CALL)[:3] == (2, 2, 2)
