"""Wrong types given to the engine: its own error, naming what was wrong, and no change.

A wrong type raises :class:`~stud8.core.errors.WrongTypeError`, which is both a
``ValueError`` (every error of the engine is: the room refuses them so) and a
``TypeError`` (Python's convention for a wrong type). ``Hand.apply`` raises
:class:`~stud8.core.errors.NotAnActionError` (an ``IllegalActionError`` too), and the
hand is unchanged; ``Hand.start`` raises :class:`~stud8.core.errors.SetupTypeError`.
The same in the compiled build (CI runs tests/core on it).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from enum import Enum
from fractions import Fraction
from typing import Any

import pytest
from scenario import passive

from stud8.core import (
    Action,
    BringIn,
    Call,
    Complete,
    Deck,
    Fold,
    Hand,
    HandSetupError,
    IllegalActionError,
    NotAnActionError,
    Raise,
    RulesError,
    SetupTypeError,
    Stud8Error,
    TableRules,
    WrongTypeError,
)

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
CARDS = "Ah Kh Qh Ad Kd Qd 9c 2c Tc"  # seat 2 shows the 2c and brings in
STACKS = {1: 100, 2: 100, 3: 100}


def new_hand() -> Hand:
    hand = Hand.start(rules=RULES, stacks=STACKS, deck=Deck.from_cards(CARDS), hand_id="t")
    hand.apply(BringIn())  # seat 3 to act: he may fold, call or complete
    return hand


def snapshot(hand: Hand) -> tuple[object, ...]:
    return (
        tuple(hand.events),
        tuple(hand.decisions),
        hand.to_act,
        hand.street,
        hand.legal_actions(),
        tuple(hand.stack(s) for s in hand.seats),
        hand.pot_total,
    )


@pytest.mark.parametrize(
    ("action", "named"),
    [
        ("fold", "'fold' (type str)"),
        (None, "None (type NoneType)"),
        (7, "7 (type int)"),
        (Fold, "the class Fold"),
        (Raise, "the class Raise"),
        (Action(), "Action() (type Action)"),
        (("fold",), "('fold',) (type tuple)"),
    ],
    ids=["str", "None", "int", "Fold-class", "Raise-class", "base-Action", "tuple"],
)
def test_apply_refuses_what_is_not_an_action_and_changes_nothing(action: Any, named: str) -> None:
    hand = new_hand()
    before = snapshot(hand)
    with pytest.raises(NotAnActionError) as caught:
        hand.apply(action)
    error = caught.value
    assert isinstance(error, IllegalActionError)
    assert isinstance(error, WrongTypeError)
    assert isinstance(error, Stud8Error) and isinstance(error, ValueError)
    assert isinstance(error, TypeError)
    message = str(error)
    assert "an action must be Fold()" in message and named in message, message
    assert error.seat == 3 and error.street == 3 and error.hand_id == "t"
    assert snapshot(hand) == before
    hand.apply(Call())  # and the hand goes on
    assert hand.to_act == 1


def test_apply_on_a_finished_hand_names_the_wrong_type_first() -> None:
    hand = new_hand()
    hand.apply(Fold())
    hand.apply(Fold())
    assert hand.is_over
    with pytest.raises(NotAnActionError, match="got 'fold'"):
        hand.apply("fold")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"deck": CARDS}, "deck must be a Deck (or None: a fresh shuffle), got 'Ah Kh"),
        ({"deck": list(CARDS.split())}, "deck must be a Deck"),
        ({"rules": {"ante": 1, "bring_in": 2}}, "rules must be TableRules, got {'ante': 1"),
        ({"rules": "ante 1"}, "rules must be TableRules, got 'ante 1' (type str)"),
        ({"stacks": [100, 100, 100]}, "stacks must map each seat to its chips"),
        ({"stacks": 100}, "stacks must map each seat to its chips ({seat: chips}), got 100"),
    ],
    ids=["deck-str", "deck-list", "rules-dict", "rules-str", "stacks-list", "stacks-int"],
)
def test_start_refuses_wrong_types(change: dict[str, Any], named: str) -> None:
    arguments: dict[str, Any] = {"rules": RULES, "stacks": STACKS, "deck": Deck.from_cards(CARDS)}
    arguments.update(change)
    with pytest.raises(SetupTypeError) as caught:
        Hand.start(**arguments)
    error = caught.value
    assert isinstance(error, HandSetupError) and isinstance(error, WrongTypeError)
    assert isinstance(error, ValueError) and isinstance(error, TypeError)
    assert named in str(error), str(error)


def test_wrong_type_errors_are_both_value_and_type_errors() -> None:
    for cls in (WrongTypeError, NotAnActionError, SetupTypeError):
        assert issubclass(cls, ValueError) and issubclass(cls, TypeError)
        assert issubclass(cls, Stud8Error)


def test_rules_money_is_whole_chips_no_floating_point_touches_a_stack_a_bet_or_a_pot() -> None:
    """RULES.md (before section 1): "Money is always an integer number of chip units
    ... No floating point touches a stack, a bet or a pot." A float amount, even a
    whole one, is refused wherever chips come in (the table's amounts, a stack, a
    bet) with nothing changed, and every amount a raked hand records is an int."""
    for setting in ("ante", "bring_in", "small_bet", "big_bet", "rake_cap"):
        amounts: dict[str, Any] = {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}
        with pytest.raises(RulesError, match=f"{setting} must be an integer"):
            TableRules(**{**amounts, setting: 4.0})
    with pytest.raises(HandSetupError, match=r"whole positive number of chips, got 100\.0"):
        Hand.start(rules=RULES, stacks={1: 100.0, 2: 100}, deck=Deck.from_cards(CARDS))  # type: ignore[dict-item]
    hand = new_hand()
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"a whole number of chips, got 8\.0"):
        hand.apply(Complete(8.0))  # type: ignore[arg-type]
    assert snapshot(hand) == before
    raked = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, rake_percent=Fraction(25, 2))
    hand = Hand.start(rules=raked, stacks=STACKS, deck=Deck.shuffled(random.Random(8)))
    passive(hand)  # calls and checks to the showdown: a pot of 9, raked 1 (rounded down)
    assert hand.result is not None and hand.result.rake == 1
    recorded = [n for event in hand.events for n in _numbers(event)]
    recorded += [hand.result.rake, *_numbers(hand.result.pots)]
    assert recorded and all(type(n) is int for n in recorded), recorded
    assert all(type(hand.stack(s)) is int for s in hand.seats)


def _numbers(value: object) -> Iterator[object]:
    """Every number in a record (its fields, and theirs), for the test above (not an
    int enum's: a hand's category is no amount)."""
    if isinstance(value, (bool, Enum)):
        return
    if isinstance(value, (int, float, Fraction)):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _numbers(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _numbers(getattr(value, field.name))
