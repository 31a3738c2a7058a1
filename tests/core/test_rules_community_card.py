"""RULES.md section 4: running out of cards, the community card.

With no burn cards, 3rd to 6th street take 3 + 1 + 1 + 1 cards from each player
still in; on 7th street the deck must hold a card for every live player, or one
community card is dealt instead. Every count below is worked out by hand.
"""

from __future__ import annotations

import pytest
from deal import deck_for, passive_action, play_passively

from stud8.core import (
    ActionKind,
    Bet,
    Call,
    CommunityCardFirstToAct,
    Deck,
    Fold,
    Hand,
    Raise,
    TableRules,
    parse_cards,
)
from stud8.core.evaluate import best_high, best_low
from stud8.core.events import (
    ActionOpened,
    CardDealt,
    CommunityCardDealt,
    HandShown,
    StreetStarted,
)

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)

# Eight players. Each seat's cards in the order he gets them: down, down, up, 4th, 5th,
# 6th; the community card As comes next (deck position 48), Jh Js Ks stay in the deck.
#   3rd street: 2c is the lowest up card: seat 1 brings in.
#   4th: seat 1 shows 2c 2d (the only pair): seat 1 first.
#   5th: seat 3 shows Ac 9c Ah (aces): seat 3 first.
#   6th: seat 7 shows Qh 7h Qs 7s (two pair; all others one pair): seat 7 first.
#   With the community As: seat 3 shows A A A (trips) and is the high hand showing;
#   seat 7 shows Q Q 7 7 A.
#   Showdown: seat 3 makes four aces only with the community card (without it, seat 5's
#   kings full of queens would win). Nobody has a low: with the ace, every player holds
#   at most four distinct ranks of 8 or lower.
EIGHT = {
    1: "3c 4c 2c 2d 3d 4d",
    2: "5c 6c 7c 5d 6d 7d",
    3: "Ad Tc Ac 9c Ah Jd",
    4: "2h 8c 3h 2s 3s 8d",
    5: "Kc Qc Kd Qd Kh 9d",
    6: "4h 8h 5h 4s 5s 8s",
    7: "6h 6s Qh 7h Qs 7s",
    8: "9h Th Td Jc Ts 9s",
}
COMMUNITY = parse_cards("As")[0]


def eight_player_hand(rules: TableRules = RULES) -> Hand:
    deck = deck_for(EIGHT, then="As")
    return Hand.start(rules=rules, stacks=dict.fromkeys(range(1, 9), 100), deck=deck)


def opened(hand: Hand, street: int) -> int:
    (seat,) = [e.seat for e in hand.events if isinstance(e, ActionOpened) and e.street == street]
    return seat


def test_rule_4_eight_players_at_seventh_street_get_one_community_card() -> None:
    """RULES.md 4: "the deck runs out only when more players reach 7th street than there
    are cards left (eight players, nobody folded). Then one card is dealt face up in the
    middle as a **community card**, and it is every remaining player's 7th card"."""
    hand = eight_player_hand()
    play_passively(hand)
    communities = [e for e in hand.events if isinstance(e, CommunityCardDealt)]
    assert communities == [CommunityCardDealt(COMMUNITY)]
    assert not [e for e in hand.events if isinstance(e, CardDealt) and e.street == 7]
    assert hand.community_card == COMMUNITY
    assert hand.deck_position == 6 * 8 + 1
    # the community card comes right after StreetStarted(7), face up for everyone
    i = hand.events.index(StreetStarted(7))
    assert hand.events[i + 1] == CommunityCardDealt(COMMUNITY)
    # it is every player's 7th card at the showdown
    shows = [e for e in hand.events if isinstance(e, HandShown)]
    assert shows
    for show in shows:
        assert show.cards == (*parse_cards(EIGHT[show.seat]), COMMUNITY)
        assert show.high == best_high(show.cards)
        assert show.low is None and best_low(show.cards) is None
    (three,) = [e for e in shows if e.seat == 3]
    assert three.high == best_high(parse_cards("Ac Ad Ah As Jd"))  # four aces
    result = hand.result
    assert result is not None
    # pot: 8 antes of 1 + 8 bring-in/calls of 2 = 24; four aces take it all (no low)
    assert [(p.amount, p.high, p.low) for p in result.pots] == [(24, ((3, 24),), ())]
    assert result.stacks == {s: (121 if s == 3 else 97) for s in range(1, 9)}


def test_rule_4_the_player_first_on_sixth_street_acts_first_on_seventh() -> None:
    """RULES.md 4: "The player who acted first on 6th street acts first on 7th (TDA)"."""
    hand = eight_player_hand()
    play_passively(hand)
    assert [opened(hand, s) for s in (3, 4, 5, 6, 7)] == [1, 1, 3, 7, 7]


def test_rule_4_option_the_high_hand_with_the_community_card_acts_first() -> None:
    """RULES.md 4: "option: the high hand including the common card (RRoP)"."""
    rules = TableRules(
        ante=1,
        bring_in=2,
        small_bet=4,
        big_bet=8,
        community_card_first_to_act=CommunityCardFirstToAct.HIGH_HAND_WITH_COMMUNITY,
    )
    hand = eight_player_hand(rules)
    play_passively(hand)
    assert opened(hand, 6) == 7
    assert opened(hand, 7) == 3  # A A A showing with the community ace


def test_rule_4_one_folds_on_sixth_street_seven_players_four_cards_community_card() -> None:
    """RULES.md 4: "the deck runs out only when more players reach 7th street than there
    are cards left" -- eight start, one folds on 6th: 48 cards are dealt, 4 are left for
    7 players."""
    hand = eight_player_hand()
    while hand.street < 6:
        hand.apply(passive_action(hand))
    assert hand.to_act == 7
    hand.apply(Bet(to=8))
    hand.apply(Fold())  # seat 8, after his 6th-street card
    for _ in range(6):
        hand.apply(Call())
    assert hand.street == 7
    assert hand.live_seats() == (1, 2, 3, 4, 5, 6, 7)
    assert hand.deck_position == 49
    assert hand.community_card == COMMUNITY
    assert opened(hand, 7) == 7
    play_passively(hand)
    result = hand.result
    assert result is not None
    # 8 antes + 8 x 2 on 3rd + 7 x 8 on 6th = 80, all to seat 3's four aces
    assert result.stacks[3] == 100 - 1 - 2 - 8 + 80


def test_rule_4_if_the_sixth_street_opener_folded_the_highest_board_left_starts() -> None:
    """RULES.md 4: "The player who acted first on 6th street acts first on 7th (TDA)" --
    the shared card must not change who acts first, so 7th street goes as if it had
    been dealt face down (RULES.md 3: "the highest hand showing acts first"): when the
    6th-street opener has folded, the highest board left starts (docs/rules.md)."""
    hand = eight_player_hand()
    while hand.street < 6:
        hand.apply(passive_action(hand))
    assert hand.to_act == 7
    hand.apply(Bet(to=8))
    hand.apply(Raise(to=16))  # seat 8
    for _ in range(6):
        hand.apply(Call())  # seats 1 to 6
    assert hand.to_act == 7
    hand.apply(Fold())
    assert hand.street == 7
    assert hand.community_card == COMMUNITY
    # seat 7 (two pair showing) folded; seat 3 shows a pair of aces, the best board left
    assert opened(hand, 7) == 3


def _play_folding(hand: Hand, street: int, folders: int) -> int:
    """Play passively, except that on ``street`` the first to act bets and the first
    ``folders`` players facing a bet fold. Returns the cards dealt before 7th street."""
    folded = 0
    before_seventh = -1
    while not hand.is_over:
        if hand.street == 7 and before_seventh < 0:
            i = hand.events.index(StreetStarted(7))
            before_seventh = sum(1 for e in hand.events[:i] if isinstance(e, CardDealt))
        kinds = {legal.kind for legal in hand.legal_actions()}
        if hand.street == street and folded < folders and ActionKind.CALL in kinds:
            hand.apply(Fold())
            folded += 1
        elif hand.street == street and ActionKind.BET in kinds:
            hand.apply(Bet())
        else:
            hand.apply(passive_action(hand))
    assert folded == folders
    return before_seventh


@pytest.mark.parametrize(
    ("street", "folders", "dealt_before_seventh", "community", "dealt_in_all"),
    [
        (3, 0, 48, True, 49),  # 8 live, 4 left
        (3, 1, 45, False, 52),  # 24 + 7 * 3 = 45: 7 live, 7 left: exactly enough
        (3, 2, 42, False, 48),  # 24 + 6 * 3 = 42: 6 live, 10 left
        (4, 1, 46, True, 47),  # 32 + 7 + 7 = 46: 7 live, 6 left
        (4, 2, 44, False, 50),  # 32 + 6 + 6 = 44: 6 live, 8 left
        (5, 1, 47, True, 48),  # 40 + 7 = 47: 7 live, 5 left
        (5, 2, 46, False, 52),  # 40 + 6 = 46: 6 live, 6 left: exactly enough
        (6, 1, 48, True, 49),  # 48: 7 live, 4 left
        (6, 2, 48, True, 49),  # 48: 6 live, 4 left
    ],
)
def test_rule_4_a_community_card_only_when_live_players_outnumber_the_cards_left(
    street: int, folders: int, dealt_before_seventh: int, community: bool, dealt_in_all: int
) -> None:
    """RULES.md 4: "the deck runs out only when more players reach 7th street than there
    are cards left [...]. Then one card is dealt face up in the middle as a **community
    card**"."""
    deck = Deck.seeded(40 + 10 * street + folders)
    hand = Hand.start(rules=RULES, stacks=dict.fromkeys(range(1, 9), 1000), deck=deck)
    assert _play_folding(hand, street, folders) == dealt_before_seventh
    live = 8 - folders
    assert len(hand.live_seats()) == live
    communities = [e for e in hand.events if isinstance(e, CommunityCardDealt)]
    seventh = [e for e in hand.events if isinstance(e, CardDealt) and e.street == 7]
    if community:
        assert communities == [CommunityCardDealt(deck.cards[dealt_before_seventh])]
        assert seventh == []
    else:
        assert communities == []
        assert [e.seat for e in seventh] == list(hand.live_seats())
        assert [e.card for e in seventh] == list(
            deck.cards[dealt_before_seventh : dealt_before_seventh + live]
        )
        assert all(not e.face_up for e in seventh)
    assert hand.deck_position == dealt_in_all


def test_rule_4_option_a_full_house_showing_with_the_community_card_beats_trips() -> None:
    """RULES.md 4: "option: the high hand including the common card (RRoP)"; 3: "Up
    cards rank as poker hands [...]; straights and flushes do not count." -- with the
    community card five cards show, and a full house is a poker hand that counts."""
    rules = TableRules(
        ante=1,
        bring_in=2,
        small_bet=4,
        big_bet=8,
        community_card_first_to_act=CommunityCardFirstToAct.HIGH_HAND_WITH_COMMUNITY,
    )
    hands = {
        1: "2c 3c Qh Qd Qs 7d",  # shows Q Q Q 7: the highest hand on 6th street
        2: "2d 3d 5h 5d Kc Kd",  # shows 5 5 K K; with the community 5s: 5 5 5 K K
        3: "4c 4d 2h 3h 4h 6h",  # 2h: the bring-in
        4: "6c 6d 7h 8h 9h Th",
        5: "7c 8d Jh Kh Ah 2s",
        6: "8c 9d 3s 4s 6s 7s",
        7: "9c Td 8s 9s Ts Js",
        8: "Tc Jd Ks As Jc Qc",
    }
    deck = deck_for(hands, then="5s")
    hand = Hand.start(rules=rules, stacks=dict.fromkeys(range(1, 9), 100), deck=deck)
    play_passively(hand)
    assert hand.community_card == parse_cards("5s")[0]
    assert [opened(hand, s) for s in (3, 6)] == [3, 1]
    # with the community card: seat 1 shows Q Q Q 7 5 (trips), seat 2 5 5 5 K K (a full
    # house); nobody else shows more than a pair
    assert opened(hand, 7) == 2
