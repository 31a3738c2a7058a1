"""RULES.md section 6 (the engine's part: ``Hand.time_out()``), section 7 (the engine's
part: the event log, replay, ``Hand.cancel()``), and illegal actions.

Every expected number is worked out by hand from RULES.md.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from deal import deck_for, passive_action, play_passively

from stud8.core import (
    Action,
    ActionKind,
    AllInLowCard,
    Bet,
    BringIn,
    Call,
    Check,
    Complete,
    Deck,
    Fold,
    Hand,
    IllegalActionError,
    Raise,
    TableRules,
    TimeoutPolicy,
    parse_cards,
)
from stud8.core.events import (
    ActionOpened,
    AntePosted,
    BringInPosted,
    CardDealt,
    Checked,
    Folded,
    HandCancelled,
    HandEnded,
    PotAwarded,
    StreetStarted,
    TimedOut,
    TimeoutOutcome,
    UncalledBetReturned,
)

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
CHECK_OR_FOLD = TableRules(
    ante=1, bring_in=2, small_bet=4, big_bet=8, timeout_policy=TimeoutPolicy.CHECK_OR_FOLD
)
MAY_FOLD = TableRules(
    ante=1, bring_in=2, small_bet=4, big_bet=8, all_in_low_card=AllInLowCard.NEXT_MAY_FOLD
)

# Three players; each seat's cards in the order he gets them.
#   seat 1: A-2-3-4-5 (a wheel: the best high here and the best low, 5-4-3-2-A)
#   seat 2: tens and nines, king kicker; no low
#   seat 3: a pair of queens; no low (2, 6, 3 only)
#   3rd street: 2c (seat 3) brings in. 4th to 7th: seat 2 shows a pair of nines and
#   is the highest hand showing.
THREE = {
    1: "Ac 2d 7d 3s 4h 5d Kh",
    2: "Kc Td 9d 9h Ts 8c Jh",
    3: "Qc Qd 2c 9c Jd 6h 3h",
}


def three_player_hand(rules: TableRules = RULES, hand_id: str = "") -> Hand:
    return Hand.start(
        rules=rules, stacks={1: 100, 2: 100, 3: 100}, deck=deck_for(THREE), hand_id=hand_id
    )


def kinds(hand: Hand) -> set[ActionKind]:
    return {legal.kind for legal in hand.legal_actions()}


# ------------------------------------------------------------------ 6. Time (engine part)


def test_rule_6_timeout_with_nothing_in_beyond_the_ante_folds() -> None:
    """RULES.md 6: "If the time runs out: the player's hand is folded if he has put
    nothing in the pot this hand beyond his ante (the ante is forced on everyone, so it
    does not count; a bring-in does)"."""
    hand = three_player_hand()
    hand.apply(BringIn())  # seat 3
    assert hand.to_act == 1
    assert hand.time_out() == [TimedOut(1, TimeoutOutcome.FOLD), Folded(1)]
    assert hand.is_folded(1)
    assert hand.stack(1) == 99
    assert hand.to_act == 2
    assert hand.decisions[-1] == (1, None)


def test_rule_6_timeout_after_putting_chips_in_is_all_in_protection() -> None:
    """RULES.md 6: "otherwise he is treated as **all-in** for what he has put in so far
    (all-in protection: he stays in for the pot as it stands and takes no further
    action; later bets go to a side pot)"."""
    hand = three_player_hand()
    hand.apply(BringIn())  # seat 3
    hand.apply(Call())  # seat 1: 2 more than his ante
    hand.apply(Call())  # seat 2
    assert (hand.street, hand.to_act) == (4, 2)
    hand.apply(Bet(to=4))
    hand.apply(Call())  # seat 3
    assert hand.to_act == 1
    out = hand.time_out()
    assert out[0] == TimedOut(1, TimeoutOutcome.ALL_IN_PROTECTION)
    # An enum of strings: the member equals the outcome's name, as before (and as the
    # records and the wire write it).
    timed_out = out[0]
    assert isinstance(timed_out, TimedOut)
    assert timed_out.outcome is TimeoutOutcome.ALL_IN_PROTECTION
    as_text: str = timed_out.outcome  # (a str, for code that reads it as one)
    assert as_text == "all_in_protection" and f"{as_text}" == "all_in_protection"
    assert not any(isinstance(e, Folded) for e in hand.events)
    assert hand.is_all_in(1)
    assert not hand.is_folded(1)
    assert hand.stack(1) == 97  # his chips stay his; none go in for him
    assert hand.street == 5  # seat 1's timeout closed the round
    acted: list[int] = []
    while not hand.is_over:
        assert hand.to_act is not None
        acted.append(hand.to_act)
        legal = hand.legal_actions()
        # seat 2 bets the big bet on 5th, 6th and 7th; seat 3 calls
        hand.apply(Bet(to=8) if hand.to_act == 2 else Call())
        assert len(legal) >= 2
    assert acted == [2, 3, 2, 3, 2, 3]  # he takes no further action
    assert hand.contributed(1) == 3
    assert hand.contributed(2) == hand.contributed(3) == 3 + 4 + 8 + 8 + 8
    result = hand.result
    assert result is not None
    main, side = result.pots
    # main pot: 3 from each = 9, seat 1's wheel scoops it: 5 high, 4 low
    assert (main.amount, main.eligible, main.high, main.low) == (9, (1, 2, 3), ((1, 5),), ((1, 4),))
    # side pot: 28 from seats 2 and 3 = 56, which seat 1 cannot win
    assert (side.amount, side.eligible, side.high, side.low) == (56, (2, 3), ((2, 56),), ())
    assert result.stacks == {1: 106, 2: 125, 3: 69}


def test_rule_6_a_bring_in_counts_as_putting_something_in() -> None:
    """RULES.md 6: "the ante is forced on everyone, so it does not count; a bring-in
    does"."""
    # seat 2 folds on 3rd street, so he gets only three cards
    deck = deck_for({1: THREE[1], 2: "Kc Td 9d", 3: THREE[3]})
    hand = Hand.start(rules=RULES, stacks={1: 100, 2: 100, 3: 100}, deck=deck)
    hand.apply(BringIn())  # seat 3
    hand.apply(Complete(to=4))  # seat 1
    assert hand.time_out() == [TimedOut(2, TimeoutOutcome.FOLD), Folded(2)]  # only his ante was in
    assert hand.to_act == 3
    out = hand.time_out()  # the bring-in is in: all-in protection, not a fold
    assert out[0] == TimedOut(3, TimeoutOutcome.ALL_IN_PROTECTION)
    assert not hand.is_folded(3)
    # Nobody can call seat 1's last 2 chips: they go back to him. Nobody is left to bet
    # against him, so the cards are dealt out.
    assert out[1] == UncalledBetReturned(1, 2)
    assert hand.is_over
    assert hand.cards(1) == parse_cards(THREE[1])
    assert hand.cards(3) == parse_cards(THREE[3])
    result = hand.result
    assert result is not None
    # pot: antes 3 + seat 1's 2 + seat 3's bring-in 2 = 7; seat 1's wheel scoops it:
    # 4 high, 3 low
    assert [(p.amount, p.eligible, p.high, p.low) for p in result.pots] == [
        (7, (1, 3), ((1, 4),), ((1, 3),))
    ]
    assert result.stacks == {1: 104, 2: 99, 3: 97}


def test_rule_6_option_check_or_fold_checks_when_he_can() -> None:
    """RULES.md 6: "Option: check if he can, else fold (the policy most sites use
    today)."."""
    hand = three_player_hand(CHECK_OR_FOLD)
    hand.apply(BringIn())
    hand.apply(Call())
    hand.apply(Call())
    assert hand.to_act == 2
    assert hand.time_out() == [TimedOut(2, TimeoutOutcome.CHECK), Checked(2)]
    hand.apply(Bet(to=4))  # seat 3
    assert hand.to_act == 1
    # seat 1 has chips in beyond his ante, but the option folds him all the same
    assert hand.time_out() == [TimedOut(1, TimeoutOutcome.FOLD), Folded(1)]
    assert hand.to_act == 2
    assert not hand.is_all_in(1)


def test_rule_6_option_check_or_fold_folds_when_facing_the_bring_in() -> None:
    """RULES.md 6: "Option: check if he can, else fold"."""
    hand = three_player_hand(CHECK_OR_FOLD)
    hand.apply(BringIn())
    assert hand.time_out() == [TimedOut(1, TimeoutOutcome.FOLD), Folded(1)]


def test_rule_6_the_bring_in_timing_out_has_the_bring_in_posted_for_him() -> None:
    """RULES.md 6 with 2: the bring-in is forced ("the player with the lowest up card"
    brings in), so a bring-in player who times out has it posted for him."""
    hand = three_player_hand()
    assert hand.to_act == 3
    assert hand.time_out() == [TimedOut(3, TimeoutOutcome.BRING_IN), BringInPosted(3, 2)]
    assert hand.stack(3) == 97
    assert hand.to_act == 1


def _low_card_all_in(rules: TableRules) -> Hand:
    """Seat 2 shows 2c with 1 chip (all-in for the ante); seat 3 on his left; seat 4
    shows the next lowest card, 3c."""
    deck = deck_for({1: "Ah Kh 9c", 2: "Ad Kd 2c", 3: "As Ks Qd", 4: "Ac Kc 3c"})
    return Hand.start(rules=rules, stacks={1: 100, 2: 1, 3: 100, 4: 100}, deck=deck)


def test_rule_6_the_forced_substitute_bring_in_timing_out_has_it_posted() -> None:
    """RULES.md 2: "Default: that player must post the bring-in (PS)." -- also when his
    time runs out."""
    hand = _low_card_all_in(RULES)
    assert hand.to_act == 3
    assert hand.time_out() == [TimedOut(3, TimeoutOutcome.BRING_IN), BringInPosted(3, 2)]
    assert hand.stack(3) == 97


def test_rule_6_the_optional_substitute_bring_in_timing_out_folds() -> None:
    """RULES.md 2: "Option: he may fold without paying (RRoP, TDA)." with 6: "the
    player's hand is folded if he has put nothing in the pot this hand beyond his
    ante"."""
    hand = _low_card_all_in(MAY_FOLD)
    assert hand.to_act == 3
    assert hand.time_out() == [TimedOut(3, TimeoutOutcome.FOLD), Folded(3)]
    assert hand.stack(3) == 99
    assert hand.to_act == 4


def test_rule_6_no_timeout_when_nobody_is_to_act() -> None:
    """RULES.md 6: "A player to act has 10 seconds" -- only the player to act times out."""
    hand = three_player_hand()
    play_passively(hand)
    before = list(hand.events)
    with pytest.raises(IllegalActionError):
        hand.time_out()
    assert hand.events == before


# ---------------------------------------------------------------------- 7. The records


def test_rule_7_every_event_is_recorded_in_order() -> None:
    """RULES.md 7: "Every hand has a unique id and a complete history: the deck order,
    every event, every decision [...], the pots, the rake and who won what."."""
    deck = deck_for({1: "Ah Kh 9c", 2: "Ad Kd 3c"})
    hand = Hand.start(rules=RULES, stacks={1: 100, 2: 100}, deck=deck, hand_id="H-7")
    hand.apply(BringIn())
    hand.apply(Fold())
    c = {str(card): card for card in deck.cards[:6]}
    assert hand.events == [
        AntePosted(1, 1),
        AntePosted(2, 1),
        StreetStarted(3),
        CardDealt(1, c["Ah"], False, 3),
        CardDealt(2, c["Ad"], False, 3),
        CardDealt(1, c["Kh"], False, 3),
        CardDealt(2, c["Kd"], False, 3),
        CardDealt(1, c["9c"], True, 3),
        CardDealt(2, c["3c"], True, 3),
        ActionOpened(3, 2),
        BringInPosted(2, 2),
        Folded(1),
        UncalledBetReturned(2, 2),  # 3: "Uncalled chips go back to the player who bet them."
        PotAwarded(0, 2, 2, "whole"),  # the two antes
        HandEnded(((1, 99), (2, 101))),
    ]
    assert hand.decisions == [(2, BringIn()), (1, Fold())]
    assert hand.setup.deck == deck
    assert hand.setup.hand_id == "H-7"


def _busy_hand(rules: TableRules) -> Hand:
    """A hand with every kind of decision, timeouts included."""
    hand = three_player_hand(rules, hand_id="busy")
    hand.time_out()  # seat 3: the bring-in is posted for him
    hand.apply(Complete(to=4))  # seat 1
    hand.apply(Raise(to=8))  # seat 2
    hand.apply(Call())  # seat 3
    hand.apply(Call())  # seat 1
    assert (hand.street, hand.to_act) == (4, 2)
    hand.time_out()  # seat 2: all-in protection (default) or a check (option)
    if rules.timeout_policy is TimeoutPolicy.CHECK_OR_FOLD:
        hand.apply(Bet(to=4))  # seat 3
        hand.time_out()  # seat 1 folds
        hand.apply(Call())  # seat 2
    else:
        hand.apply(Bet(to=4))  # seat 3
        hand.apply(Raise(to=8))  # seat 1
        hand.apply(Call())  # seat 3
    play_passively(hand)
    return hand


@pytest.mark.parametrize("rules", [RULES, CHECK_OR_FOLD], ids=["protection", "check-or-fold"])
def test_rule_7_replay_from_decisions_or_events_gives_the_same_hand(rules: TableRules) -> None:
    """RULES.md 7: "a complete history: the deck order, every event, every decision";
    DESIGN: "Replaying a hand's actions over the same setup gives the same events"."""
    hand = _busy_hand(rules)
    assert any(isinstance(e, TimedOut) for e in hand.events)
    from_decisions = Hand.replay(hand.setup, hand.decisions)
    assert from_decisions.events == hand.events
    assert from_decisions.decisions == hand.decisions
    assert from_decisions.result == hand.result
    from_events = Hand.replay(hand.setup, hand.events)
    assert from_events.events == hand.events
    assert from_events.decisions == hand.decisions
    assert from_events.result == hand.result


def test_rule_7_events_are_frozen_records() -> None:
    """RULES.md 7: "a complete history [...] Kept for the operator's audits" -- a recorded
    event cannot be changed."""
    hand = _busy_hand(RULES)
    kinds_seen = set()
    for event in hand.events:
        kinds_seen.add(type(event))
        name = dataclasses.fields(event)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(event, name, getattr(event, name))
        assert hash(event) == hash(dataclasses.replace(event))
    assert {AntePosted, CardDealt, TimedOut, HandEnded} <= kinds_seen


def test_rule_7_cancel_returns_every_ante_bring_in_and_bet() -> None:
    """RULES.md 7: "If the server fails during a hand, the hand is cancelled: every ante,
    bring-in and bet goes back to the player who made it, and the history records the
    cancellation"."""
    hand = three_player_hand()
    hand.apply(BringIn())  # seat 3: 2
    hand.apply(Complete(to=4))  # seat 1: 4
    hand.apply(Call())  # seat 2: 4
    hand.apply(Call())  # seat 3: 2 more
    hand.apply(Bet(to=4))  # seat 2 on 4th
    hand.apply(Call())  # seat 3
    hand.apply(Raise(to=8))  # seat 1
    hand.apply(Call())  # seat 2
    hand.apply(Call())  # seat 3
    assert (hand.street, hand.to_act) == (5, 2)
    hand.apply(Bet(to=8))  # seat 2 on 5th
    # in: antes 1; 3rd street 4 each; 4th street 8 each; seat 2 8 more on 5th
    assert [hand.contributed(s) for s in (1, 2, 3)] == [13, 21, 13]
    before = list(hand.events)
    out = hand.cancel("server failure")
    assert out == [HandCancelled(((1, 13), (2, 21), (3, 13)), "server failure")]
    assert hand.events == [*before, *out]
    assert [hand.stack(s) for s in (1, 2, 3)] == [100, 100, 100]
    assert hand.pot_total == 0
    assert hand.is_over
    assert hand.to_act is None
    assert hand.result is None
    with pytest.raises(IllegalActionError):
        hand.apply(Call())
    with pytest.raises(IllegalActionError):
        hand.time_out()
    with pytest.raises(IllegalActionError):
        hand.cancel()
    assert hand.events == [*before, *out]


def test_rule_7_cancel_returns_the_chips_of_all_in_and_protected_players() -> None:
    """RULES.md 7: "every ante, bring-in and bet goes back to the player who made it"."""
    deck = deck_for({**THREE, 4: "Ah Kd 8h 7c 6s 5c 4c"})
    hand = Hand.start(rules=RULES, stacks={1: 3, 2: 100, 3: 100, 4: 100}, deck=deck)
    hand.apply(BringIn())  # seat 3
    hand.apply(Call())  # seat 4
    hand.apply(Call())  # seat 1: all-in for his last 2
    hand.apply(Call())  # seat 2
    assert (hand.street, hand.to_act) == (4, 2)
    hand.apply(Bet(to=4))  # seat 2
    hand.time_out()  # seat 3: all-in protection
    hand.apply(Call())  # seat 4
    assert (hand.street, hand.to_act) == (5, 2)
    hand.apply(Bet(to=8))
    assert hand.is_all_in(1) and hand.is_all_in(3)
    out = hand.cancel()
    # seat 1: 1 + 2; seat 2: 1 + 2 + 4 + 8; seat 3: 1 + 2; seat 4: 1 + 2 + 4
    assert out == [HandCancelled(((1, 3), (2, 15), (3, 3), (4, 7)), "")]
    assert [hand.stack(s) for s in (1, 2, 3, 4)] == [3, 100, 100, 100]


def test_rule_7_replaying_the_history_of_a_cancelled_hand_cancels_it_again() -> None:
    """RULES.md 7: "the hand is cancelled: every ante, bring-in and bet goes back to the
    player who made it, and the history records the cancellation" -- replaying that
    history gives the same history, the cancellation included."""
    hand = three_player_hand()
    hand.apply(BringIn())  # seat 3
    hand.apply(Call())  # seat 1
    hand.cancel("server failure")
    replayed = Hand.replay(hand.setup, hand.events)
    assert replayed.events == hand.events
    assert replayed.events[-1] == HandCancelled(((1, 3), (2, 1), (3, 3)), "server failure")
    assert replayed.is_over
    assert [replayed.stack(s) for s in (1, 2, 3)] == [100, 100, 100]


def test_rule_7_cancel_right_after_the_deal_returns_the_antes() -> None:
    """RULES.md 7: "every ante, bring-in and bet goes back to the player who made it"."""
    hand = three_player_hand()
    assert hand.cancel() == [HandCancelled(((1, 1), (2, 1), (3, 1)), "")]
    assert [hand.stack(s) for s in (1, 2, 3)] == [100, 100, 100]


# --------------------------------------------------------------------- Illegal actions


def snapshot(hand: Hand) -> tuple[Any, ...]:
    """Everything observable about a hand."""
    seats = {
        s: (
            hand.stack(s),
            hand.street_bet(s),
            hand.contributed(s),
            hand.is_folded(s),
            hand.is_all_in(s),
            hand.cards(s),
        )
        for s in hand.seats
    }
    return (
        list(hand.events),
        list(hand.decisions),
        hand.to_act,
        hand.street,
        hand.legal_actions(),
        seats,
        hand.pot_total,
        hand.current_bet,
        hand.bets_this_round,
        hand.deck_position,
        hand.bring_in_seat,
        hand.is_over,
        hand.result,
    )


def assert_refused(hand: Hand, action: Action) -> IllegalActionError:
    """The action raises IllegalActionError and leaves the hand exactly as it was."""
    before = snapshot(hand)
    with pytest.raises(IllegalActionError) as info:
        hand.apply(action)
    assert isinstance(info.value, ValueError)
    assert snapshot(hand) == before
    return info.value


def assert_still_consistent(hand: Hand) -> None:
    """Playing on after refusals gives the same hand as replaying the accepted decisions."""
    if not hand.is_over:
        play_passively(hand)
    assert Hand.replay(hand.setup, hand.decisions).events == hand.events


def test_rule_7_no_action_is_taken_after_the_hand_is_over() -> None:
    """RULES.md 7: "a complete history: the deck order, every event, every decision with
    its time, the pots, the rake and who won what" -- nothing is added to a finished
    hand."""
    hand = three_player_hand()
    play_passively(hand)
    assert hand.is_over
    for action in (Fold(), Check(), Call(), BringIn(), Complete(), Bet(), Raise()):
        error = assert_refused(hand, action)
        assert "over" in str(error)


def test_rule_3_check_when_facing_a_bet_is_refused() -> None:
    """RULES.md 3: "Each player may fold, call the bring-in, or complete." -- not check."""
    hand = three_player_hand(hand_id="H-3")
    hand.apply(BringIn())
    error = assert_refused(hand, Check())
    message = str(error)
    assert "H-3" in message and "street 3" in message and "seat 1" in message
    assert_refused(hand, Bet(to=4))  # on 3rd street the bet is a completion
    hand.apply(Complete(to=4))
    assert_refused(hand, Check())
    assert_refused(hand, Complete(to=4))  # already completed: now a raise
    assert_still_consistent(hand)


def test_rule_3_fixed_limit_amounts_other_than_the_bet_are_refused() -> None:
    """RULES.md 3: "**Fixed limit** (default structure): small bet on 3rd and 4th street,
    big bet from 5th street"."""
    hand = three_player_hand()
    assert_refused(hand, Complete(to=5))  # the bring-in player completes to 4 only
    assert_refused(hand, Complete(to=3))
    hand.apply(BringIn())
    assert_refused(hand, Complete(to=8))
    hand.apply(Complete(to=4))  # seat 1
    assert_refused(hand, Raise(to=10))  # seat 2: a raise is to 8
    assert_refused(hand, Raise(to=12))
    hand.apply(Call())
    hand.apply(Call())
    assert (hand.street, hand.to_act) == (4, 2)
    assert_refused(hand, Bet(to=8))  # 4th street: the small bet, 4
    assert_refused(hand, Bet(to=3))
    hand.apply(Bet(to=4))
    hand.apply(Call())
    hand.apply(Call())
    assert (hand.street, hand.to_act) == (5, 2)
    assert_refused(hand, Bet(to=4))  # 5th street: the big bet, 8
    assert_refused(hand, Bet(to=16))
    hand.apply(Bet(to=8))
    assert_still_consistent(hand)


def test_rule_3_a_raise_past_the_cap_is_refused() -> None:
    """RULES.md 3: "**Raise cap:** one bet (or completion) and three raises per round"."""
    deck = deck_for({1: "Ah Kh 9c", 2: "Ad Kd 2c", 3: "As Ks Qd", 4: "Ac Kc Jd"})
    hand = Hand.start(rules=RULES, stacks=dict.fromkeys((1, 2, 3, 4), 100), deck=deck)
    hand.apply(BringIn())  # seat 2
    hand.apply(Complete(to=4))  # seat 3: the bet
    hand.apply(Raise(to=8))  # seat 4: raise 1
    hand.apply(Raise(to=12))  # seat 1: raise 2
    hand.apply(Raise(to=16))  # seat 2: raise 3, the cap
    assert hand.to_act == 3
    assert kinds(hand) == {ActionKind.FOLD, ActionKind.CALL}
    assert_refused(hand, Raise(to=20))
    assert_refused(hand, Raise())
    hand.apply(Call())
    assert_refused(hand, Raise(to=20))  # seat 4
    assert_still_consistent(hand)


def test_rule_7_a_replayed_decision_out_of_turn_is_refused() -> None:
    """RULES.md 7: "a complete history: the deck order, every event, every decision" --
    the decisions replay only in the order they were made."""
    hand = three_player_hand()
    assert hand.to_act == 3
    with pytest.raises(IllegalActionError, match="seat 3 is to act"):
        Hand.replay(hand.setup, [(1, Call())])
    with pytest.raises(IllegalActionError):
        Hand.replay(hand.setup, [(3, BringIn()), (2, Call())])


def test_unknown_seat_is_refused() -> None:
    hand = three_player_hand()
    with pytest.raises(IllegalActionError, match="seat 5"):
        hand.stack(5)


def test_rule_1_a_seeded_hand_replays_identically() -> None:
    """RULES.md 1: "For tests and replays a shuffle may be made from an explicit seed or
    given as a fixed deck order"."""
    for seed in range(3):
        hand = Hand.start(
            rules=RULES, stacks=dict.fromkeys(range(1, 6), 50), deck=Deck.seeded(seed)
        )
        while not hand.is_over:
            hand.apply(passive_action(hand))
        assert Hand.replay(hand.setup, hand.decisions).events == hand.events
