"""Heads-up hands dealt as a test means them, for the replayer's equity tests: a
royal flush made on 5th street against nothing, the same with the loser's hidden
cards changed, and a position that is its own mirror under a change of suits."""

from __future__ import annotations

from stud8.core import Hand
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.events import CardDealt
from stud8.core.rules import TableRules
from stud8.formats.record import HandRecord

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
PASSIVE = (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)

# Seat 1 makes a royal flush on 5th street; seat 2 has nothing, no low: seat 2 mucks.
ROYAL = ("As Ks Qs Js Ts 2c 3d", "Qd Qc 9h 9d Kd 8c 7h")
# Seat 2's hidden cards otherwise (his up cards the same): he still cannot win.
ROYAL_OTHER_HOLE = ("As Ks Qs Js Ts 2c 3d", "9c 8d 9h 9d Kd 8c 4c")
# Under the suit swap s<->h, d<->c each hand is the other's: a split at every street.
MIRROR = ("As 2s 3s 4d 5c 9h Kd", "Ah 2h 3h 4c 5d 9s Kc")


def heads_up(
    seat1: str, seat2: str, hand_id: str, rules: TableRules = RULES, folds: bool = False
) -> HandRecord:
    """Ann (seat 1) and bob (seat 2) dealt these seven cards each (two down, four up,
    one down), checking and calling to the showdown (``folds``: bob folds on 4th)."""
    a, b = seat1.split(), seat2.split()
    order = " ".join(c for pair in zip(a, b, strict=True) for c in pair)
    hand = Hand.start(
        rules=rules, stacks={1: 100, 2: 100}, deck=Deck.from_cards(order), hand_id=hand_id
    )
    while not hand.is_over:
        legal = {a.kind for a in hand.legal_actions()}
        if folds and hand.street == 4 and hand.to_act == 2 and ActionKind.FOLD in legal:
            hand.apply(make_action("fold", None))
            continue
        kind = next(k for k in PASSIVE if k in legal)
        hand.apply(make_action(kind.value, None))
    record = HandRecord.from_hand(hand, names={1: "ann", 2: "bob"}, table="t1")
    for seat, cards in ((1, a), (2, b)):  # dealt as meant (as far as the hand went)
        dealt = [str(e.card) for e in record.events if isinstance(e, CardDealt) and e.seat == seat]
        assert dealt == cards[: len(dealt)], (seat, dealt)
    return record
