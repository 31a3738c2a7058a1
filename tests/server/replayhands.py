"""Hands for the replayer's tests, played through the engine: a multiway hand with
side pots that reaches the showdown, and a quiet one."""

from __future__ import annotations

from stud8.core import Hand
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.rules import TableRules
from stud8.formats.record import HandRecord

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
NAMES = {1: "ann", 2: "bob", 3: "cat", 4: "dan"}
# Short stacks at three levels: two players all in at different amounts, two who
# bet on: a main pot and two side pots.
STACKS = {1: 13, 2: 35, 3: 150, 4: 150}
AGGRESSIVE = (ActionKind.RAISE, ActionKind.BET, ActionKind.COMPLETE, ActionKind.CALL)
PASSIVE = (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)


def side_pot_hand(seed: int = 7, hand_id: str = "sidepots1", table: str = "t1") -> HandRecord:
    """Everyone raises while he may (then calls): the short stacks go all in, and the
    hand reaches the showdown with side pots."""
    hand = Hand.start(rules=RULES, stacks=STACKS, deck=Deck.seeded(seed), hand_id=hand_id)
    while not hand.is_over:
        legal = {a.kind: a for a in hand.legal_actions()}
        kind = next(k for k in (*AGGRESSIVE, *PASSIVE) if k in legal)
        sized = kind in (ActionKind.RAISE, ActionKind.BET, ActionKind.COMPLETE)
        hand.apply(make_action(kind.value, legal[kind].min_to if sized else None))
    record = HandRecord.from_hand(hand, names=NAMES, table=table)
    assert len(record.pots) >= 3, record.pots  # a main pot and two side pots
    return record


def quiet_hand(seed: int = 3, hand_id: str = "quiet1", table: str = "t1") -> HandRecord:
    """Everyone checks or calls to the showdown."""
    hand = Hand.start(
        rules=RULES, stacks=dict.fromkeys(NAMES, 100), deck=Deck.seeded(seed), hand_id=hand_id
    )
    while not hand.is_over:
        legal = {a.kind for a in hand.legal_actions()}
        kind = next(k for k in PASSIVE if k in legal)
        hand.apply(make_action(kind.value, None))
    return HandRecord.from_hand(hand, names=NAMES, table=table)
