"""Hand.replay checks what it is given: malformed decisions get a clear error.

Decisions are ``(seat, action)`` pairs (``None`` for a timeout) or the hand's own
events. A list, a string, a tuple among events, a seat given as ``"1"``, something
that is not an action: each is refused with :class:`NotAnActionError` (an
``IllegalActionError``, a ``ValueError`` and a ``TypeError``) naming the item,
never skipped in silence nor unpacked into a bare ``ValueError``.
"""

from __future__ import annotations

from typing import Any

import pytest

from stud8.core import (
    BringIn,
    Call,
    Deck,
    Fold,
    Hand,
    IllegalActionError,
    NotAnActionError,
    TableRules,
)

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
CARDS = "Ah Kh Qh Ad Kd Qd 9c 2c Tc"  # seat 2 shows the 2c and brings in


def played() -> Hand:
    hand = Hand.start(
        rules=RULES, stacks={1: 100, 2: 100, 3: 100}, deck=Deck.from_cards(CARDS), hand_id="r1"
    )
    for action in (BringIn(), Call(), Fold(), Fold()):
        hand.apply(action)
    assert hand.is_over
    return hand


def test_replay_of_decisions_and_of_events_gives_the_same_hand() -> None:
    hand = played()
    assert Hand.replay(hand.setup, hand.decisions).events == hand.events
    assert Hand.replay(hand.setup, hand.events).events == hand.events
    assert Hand.replay(hand.setup, iter(hand.decisions)).events == hand.events


@pytest.mark.parametrize(
    ("decisions", "named"),
    [
        ([[2, BringIn()], [3, Call()]], "decision 0 must be a (seat, action) pair, got [2, "),
        ([(2, BringIn()), [3, Call()]], "decision 1 must be a (seat, action) pair, got [3, "),
        (["2 bring-in"], "decision 0 must be a (seat, action) pair, got '2 bring-in'"),
        ("2 bring-in", "decisions must be (seat, action) pairs or the hand's events, got '2 b"),
        (b"x", "decisions must be (seat, action) pairs"),
        (7, "decisions must be (seat, action) pairs or the hand's events, got 7 (type int)"),
        ([(2, BringIn(), 0)], "decision 0 must be a (seat, action) pair, got (2, BringIn(), 0)"),
        ([(2,)], "decision 0 must be a (seat, action) pair, got (2,)"),
        ([("2", BringIn())], "decision 0: the seat must be a whole number, got '2' (type str)"),
        ([(True, BringIn())], "decision 0: the seat must be a whole number, got True"),
        ([(2, "bring-in")], "decision 0: the action must be Fold(), Check()"),
        ([(2, BringIn)], "decision 0: the action must be Fold(), Check(), Call(), BringIn(), "),
    ],
    ids=[
        "lists",
        "a-list-later",
        "strings",
        "a-string",
        "bytes",
        "an-int",
        "a-triple",
        "a-single",
        "seat-as-string",
        "seat-as-bool",
        "action-as-string",
        "action-class",
    ],
)
def test_replay_refuses_malformed_decisions(decisions: Any, named: str) -> None:
    hand = played()
    with pytest.raises(NotAnActionError) as caught:
        Hand.replay(hand.setup, decisions)
    message = str(caught.value)
    assert named in message, message
    assert isinstance(caught.value, IllegalActionError)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, TypeError)


def test_replay_refuses_a_pair_among_events() -> None:
    hand = played()
    items: list[Any] = [*hand.events[:12], (3, Call()), *hand.events[12:]]
    with pytest.raises(NotAnActionError, match=r"item 12 is \(3, Call\(\)\) \(type tuple\) among"):
        Hand.replay(hand.setup, items)


def test_replay_names_the_seat_to_act_when_another_is_given() -> None:
    hand = played()
    with pytest.raises(IllegalActionError) as caught:
        Hand.replay(hand.setup, [(1, BringIn())])
    assert "replay expected seat 1 to act, but seat 2 is to act" in str(caught.value)
    with pytest.raises(IllegalActionError, match="but the hand is over"):
        Hand.replay(hand.setup, [*hand.decisions, (1, Fold())])


def test_replay_refuses_a_setup_that_is_not_one() -> None:
    # A TypeError naming HandSetup: the engine's SetupTypeError in the pure build;
    # compiled, HandSetup is a native class and mypyc's own check of the argument
    # refuses it first (also a TypeError that names it).
    hand = played()
    with pytest.raises(TypeError, match="HandSetup"):
        Hand.replay({"rules": RULES}, hand.decisions)  # type: ignore[arg-type]
