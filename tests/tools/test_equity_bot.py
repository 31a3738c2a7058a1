"""Tests of the Monte Carlo equity bot, stud8.tools.bots.equity_bot."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from stud8.core import BettingStructure, Deck, Hand, TableRules
from stud8.core.actions import (
    Action,
    ActionKind,
    BringIn,
    Call,
    Check,
    Complete,
    Fold,
    LegalAction,
    Raise,
)
from stud8.core.cards import parse_cards
from stud8.tools.bots import BOTS, Bot, CallingStation, EquityBot
from stud8.tools.bots.base import is_legal
from stud8.tools.bots.window import HandWindows, play_fast

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)


def deal(*hands: str) -> Deck:
    """A deck that gives each seat (1, 2, ...) its cards, written in dealing order: two
    down, four up, one down (the same number for every seat)."""
    cards = [parse_cards(h) for h in hands]
    order = [c[i] for i in range(len(cards[0])) for c in cards]
    return Deck.from_cards(order)


def passive(hand: Hand) -> None:
    legal = {a.kind: a for a in hand.legal_actions()}
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN):
        if kind in legal:
            hand.apply(legal[kind].action())
            return
    raise AssertionError(legal)


def seventh_street_facing_a_bet(deck: Deck, hero: int = 1) -> Hand:
    """Heads-up, everyone checks and calls to 7th street, where the other seat bets."""
    hand = Hand.start(rules=RULES, stacks={1: 500, 2: 500}, deck=deck)
    while hand.street < 7:
        passive(hand)
    while hand.to_act != hero or hand.current_bet == 0:
        legal = {a.kind: a for a in hand.legal_actions()}
        if hand.to_act == hero:
            hand.apply(legal[ActionKind.CHECK].action())
        else:
            hand.apply(legal[ActionKind.BET].action())
    assert hand.street == 7 and hand.current_bet == 8
    return hand


def both_ways(hand: Hand, seat: int, seed: int) -> Action:
    """The bot's choice from the full view and from a window: they must agree."""
    by_view = EquityBot(random.Random(seed)).act(hand.view(seat))
    by_window = EquityBot(random.Random(seed)).decide(HandWindows(hand).seat(seat))
    assert by_view == by_window
    return by_view


# --------------------------------------------------------------- spots
@pytest.mark.parametrize("seed", range(5))
def test_folds_a_hopeless_hand_facing_a_bet(seed: int) -> None:
    # Seat 1: king high, three low cards, no draw left; seat 2 shows three aces.
    hand = seventh_street_facing_a_bet(deal("Kc Qd 9h Jc 7s 5h 2d", "2c 3d As Ad Ac Kh 4h"))
    assert both_ways(hand, 1, seed) == Fold()


@pytest.mark.parametrize("seed", range(5))
def test_raises_with_near_nut_equity(seed: int) -> None:
    # Seat 1: a wheel (a straight and the best low); seat 2 shows K Q 9 2, no draw to either.
    hand = seventh_street_facing_a_bet(deal("As 2d 3c 4h 5s Kh 9c", "Jh Ts Kd Qc 9h 2s 7s"))
    bot = EquityBot(random.Random(seed))
    assert bot.act(hand.view(1)) == Raise(16)
    assert bot.last_equity > 0.9


def test_calls_a_good_but_not_great_hand() -> None:
    # The wheel again, but seat 2 shows J T 9 8: its straights beat ours half the time.
    hand = seventh_street_facing_a_bet(deal("As 2d 3c 4h 5s Kd 9c", "Qh Qs Jd Tc 9h 8d 7s"))
    assert both_ways(hand, 1, 3) == Call()


def test_never_folds_when_it_can_check() -> None:
    hand = Hand.start(
        rules=RULES,
        stacks={1: 500, 2: 500},
        deck=deal("Kc Qd 9h Jc 7s 5h 2d", "2c 3d As Ad Ac Kh 4h"),
    )
    while hand.street < 7:
        passive(hand)
    if hand.to_act != 1:
        passive(hand)  # seat 2 checks
    assert hand.to_act == 1 and hand.current_bet == 0
    for seed in range(5):
        assert both_ways(hand, 1, seed) == Check()


def test_third_street_brings_in_with_junk_and_completes_with_trips() -> None:
    # Seat 2 shows the 2c: the bring-in.
    hand = Hand.start(rules=RULES, stacks={1: 100, 2: 100}, deck=deal("As Ah Ad", "9d 8c 2c"))
    assert hand.to_act == 2
    assert both_ways(hand, 2, 0) == BringIn()
    hand.apply(BringIn())
    assert both_ways(hand, 1, 0) == Complete(4)


def test_works_out_its_equity_once_a_street() -> None:
    """A raise war on one street costs one estimate, not one a raise."""
    hand = seventh_street_facing_a_bet(deal("As 2d 3c 4h 5s Kh 9c", "Jh Ts Kd Qc 9h 2s 7s"))
    bot = EquityBot(random.Random(1))
    other = CallingStation(random.Random(0))
    windows = HandWindows(hand)
    for _ in range(6):
        if hand.to_act is None:
            break
        if hand.to_act == 1:
            hand.apply(bot.decide(windows.seat(1)))
        else:
            legal = {a.kind: a for a in hand.legal_actions()}
            hand.apply((legal.get(ActionKind.RAISE) or legal[ActionKind.CALL]).action())
    assert bot.estimates == 1
    assert other.name == "calling-station"


def test_trials_must_be_positive() -> None:
    with pytest.raises(ValueError, match="trials"):
        EquityBot(random.Random(0), trials=0)
    assert EquityBot(random.Random(0), trials=50).trials == 50


# ------------------------------------------------------- legal, honest
def random_table(rng: random.Random) -> tuple[TableRules, dict[int, int]]:
    n = rng.randint(2, 8)
    seats = sorted(rng.sample(range(1, 9), n))
    rules = TableRules(
        ante=rng.choice((0, 1, 2)),
        bring_in=2,
        small_bet=4,
        big_bet=8,
        structure=rng.choice(list(BettingStructure)),
    )
    stacks = {s: rng.choice((3, 9, 20, 60, 300, 800)) for s in seats}
    return rules, stacks


def check_legal(action: Action, legal: Sequence[LegalAction]) -> None:
    assert any(
        a.kind is action.kind
        and (action.amount is None or (a.min_to or 0) <= action.amount <= (a.max_to or 0))
        for a in legal
    ), (action, legal)
    if any(a.kind is ActionKind.CHECK for a in legal):
        assert action.kind is not ActionKind.FOLD


def test_only_legal_actions_and_the_same_from_view_and_window() -> None:
    rng = random.Random("equity-legal")
    decisions = 0
    for _ in range(40):
        rules, stacks = random_table(rng)
        seats = sorted(stacks)
        deck = Deck.shuffled(rng)
        hand = Hand.start(rules=rules, stacks=stacks, deck=deck)
        windows = HandWindows(hand)
        seed = rng.random()
        by_view = {s: EquityBot(random.Random(f"{seed}/{s}"), trials=60) for s in seats}
        by_window = {s: EquityBot(random.Random(f"{seed}/{s}"), trials=60) for s in seats}
        while hand.to_act is not None:
            seat = hand.to_act
            view = hand.view(seat)
            action = by_view[seat].act(view)
            assert is_legal(action, view)
            check_legal(action, hand.legal_actions())
            assert by_window[seat].decide(windows.seat(seat)) == action
            hand.apply(action)
            decisions += 1
        assert hand.result is not None
        assert sum(hand.result.stacks.values()) == sum(stacks.values())
    assert decisions > 150


def test_eight_players_reach_the_community_card() -> None:
    """Eight players who all call to the end: 7th street is a community card, and the
    bot still estimates (with its six cards and the shared one)."""
    rng = random.Random(8)
    bots: dict[int, Bot] = {s: EquityBot(random.Random(s), trials=40) for s in range(1, 9)}
    seen_community = False
    for _ in range(3):
        hand = Hand.start(rules=RULES, stacks=dict.fromkeys(bots, 800), deck=Deck.shuffled(rng))
        while hand.to_act is not None:
            if hand.street == 7 and hand.community_card is not None:
                seen_community = True
                seat = hand.to_act
                action = bots[seat].act(hand.view(seat))
                check_legal(action, hand.legal_actions())
                hand.apply(action)
            else:
                passive(hand)
        assert hand.result is not None
    assert seen_community


def test_decisions_do_not_depend_on_hidden_cards() -> None:
    """Seat 1's decisions stay the same when the other seats' hidden cards change."""
    base = list(Deck.seeded(11).cards)
    other = base.copy()
    # Three players: seats 2 and 3 get deck positions 1, 2 (first down), 4, 5 (second
    # down) and 19, 20 (7th street); swap those with cards never dealt.
    for pos, unused in zip((1, 2, 4, 5, 19, 20), range(40, 46), strict=True):
        other[pos], other[unused] = other[unused], other[pos]

    def decisions(deck: Deck) -> list[Action]:
        hand = Hand.start(rules=RULES, stacks={1: 500, 2: 500, 3: 500}, deck=deck)
        bots: dict[int, Bot] = {
            1: EquityBot(random.Random(5)),
            2: CallingStation(random.Random(0)),
            3: CallingStation(random.Random(0)),
        }
        mine: list[Action] = []
        while hand.to_act is not None:
            seat = hand.to_act
            action = bots[seat].act(hand.view(seat))
            if seat == 1:
                mine.append(action)
            hand.apply(action)
        return mine

    first = decisions(Deck(tuple(base)))
    assert len(first) >= 2
    assert decisions(Deck(tuple(other))) == first


def test_beats_calling_stations() -> None:
    rng = random.Random(77)
    kinds = ("equity", "calling-station", "equity", "calling-station")
    bots: dict[int, Bot] = {s: BOTS[k](random.Random(s)) for s, k in enumerate(kinds, start=1)}
    won = dict.fromkeys(bots, 0)
    for _ in range(300):
        hand = Hand.start(rules=RULES, stacks=dict.fromkeys(bots, 800), deck=Deck.shuffled(rng))
        for seat, chips in play_fast(hand, bots).winnings.items():
            won[seat] += chips
    assert sum(won.values()) == 0
    assert won[1] + won[3] > 0.10 * 8 * 300 * 2, won  # over 10 big bets per 100 hands a seat
