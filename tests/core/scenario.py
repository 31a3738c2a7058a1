"""Build hands from per-seat cards and play them by script, for the rule tests.

Cards are given per seat in the order that seat receives them: down, down, up
(3rd street), up (4th), up (5th), up (6th), down (7th). ``|`` may separate
streets for reading; ``??`` is "any card" (the lowest card named nowhere else).
A seat given only 3 cards is expected to fold on 3rd street, 4 on 4th, and so
on: the deck is laid out in the engine's dealing order (first down card to every
seat in seat order, then the second, then the up card; from 4th street one card
to each seat still in), so seats that stay in longer than their cards say would
be dealt the filler cards; :func:`assert_dealt` catches such a slip.

>>> hands = {1: "As Kd | 3c | 4h", 2: "2s 2d | 9c | 9h"}
>>> [str(c) for c in deck_for(hands).cards[:8]]
['As', '2s', 'Kd', '2d', '3c', '9c', '4h', '9h']
>>> hand = start({1: "As Kd 3c", 2: "2s 2d 9c"})
>>> hand.to_act
1
>>> _ = play(hand, "1 bring-in, 2 fold")
>>> hand.result is not None and hand.result.stacks
{1: 101, 2: 99}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from stud8.core.actions import (
    Action,
    ActionKind,
    BringIn,
    Call,
    Check,
    LegalAction,
)
from stud8.core.cards import CARDS, Card, Deck
from stud8.core.events import Event
from stud8.core.hand import Hand
from stud8.core.rules import TableRules

#: The table of every rule test unless it says otherwise.
STANDARD: dict[str, int] = {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}

E = TypeVar("E", bound=Event)


def table(**options: Any) -> TableRules:
    """The standard table (ante 1, bring-in 2, small bet 4, big bet 8) with ``options``."""
    return TableRules(**{**STANDARD, **options})


def _tokens(text: str) -> list[str]:
    return [t for t in text.replace(",", " ").split() if t != "|"]


def seat_cards(hands: Mapping[int, str]) -> dict[int, tuple[Card, ...]]:
    """Each seat's cards, with every ``??`` replaced by a card named nowhere else."""
    named = {Card.parse(t) for text in hands.values() for t in _tokens(text) if t != "??"}
    spare = iter(c for c in CARDS if c not in named)
    out: dict[int, tuple[Card, ...]] = {}
    for seat in sorted(hands):
        out[seat] = tuple(next(spare) if t == "??" else Card.parse(t) for t in _tokens(hands[seat]))
    return out


def deck_for(hands: Mapping[int, str]) -> Deck:
    """The deck that deals each seat its cards (see the module docstring)."""
    cards = seat_cards(hands)
    for seat, given in cards.items():
        if not 3 <= len(given) <= 7:
            raise ValueError(f"seat {seat}: give 3 to 7 cards, got {len(given)}")
    order: list[Card] = []
    for k in range(7):
        order.extend(cards[s][k] for s in sorted(cards) if len(cards[s]) > k)
    return Deck.from_cards(order)


def start(
    hands: Mapping[int, str],
    *,
    stacks: Mapping[int, int] | None = None,
    rules: TableRules | None = None,
) -> Hand:
    """A hand with these cards; every seat has 100 chips unless ``stacks`` says otherwise."""
    chips = {seat: 100 for seat in hands}
    chips.update(stacks or {})
    return Hand.start(rules=rules or table(), stacks=chips, deck=deck_for(hands))


def act(hand: Hand, seat: int, action: Action) -> list[Event]:
    """Apply ``action`` for ``seat``, which must be the seat to act."""
    assert hand.to_act == seat, f"expected seat {seat} to act, seat {hand.to_act} is to act"
    return hand.apply(action)


def play(hand: Hand, script: str) -> list[Event]:
    """Play ``"2 bring-in, 3 complete, 1 raise 8, 2 fold"``: seat and action, in turn."""
    events: list[Event] = []
    for step in script.split(","):
        seat, _, text = step.strip().partition(" ")
        events += act(hand, int(seat), Action.parse(text))
    return events


def legal(hand: Hand) -> dict[ActionKind, LegalAction]:
    """The legal actions of the seat to act, by kind."""
    return {a.kind: a for a in hand.legal_actions()}


def passive(hand: Hand, *, until_street: int = 8) -> None:
    """Bring in, call and check (never bet) until ``until_street`` or the end of the hand."""
    while not hand.is_over and hand.street < until_street:
        kinds = legal(hand)
        if ActionKind.BRING_IN in kinds:
            hand.apply(BringIn())
        elif ActionKind.CHECK in kinds:
            hand.apply(Check())
        else:
            hand.apply(Call())


def of_type(events: Iterable[Event], kind: type[E]) -> list[E]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]


def assert_dealt(hand: Hand, hands: Mapping[int, str]) -> None:
    """Each seat got the cards the test gave it (a check on the test's own deck)."""
    for seat, given in seat_cards(hands).items():
        got = hand.cards(seat)[: len(given)]
        assert got == given, f"seat {seat} was dealt {got}, the test meant {given}"


def assert_conserved(hand: Hand) -> None:
    """No chip is made or lost: stacks, pots and rake add up to the starting stacks."""
    starting = sum(chips for _, chips in hand.setup.stacks)
    if hand.result is None:
        assert sum(hand.stack(s) for s in hand.seats) + hand.pot_total == starting
        return
    result = hand.result
    assert sum(result.stacks.values()) + result.rake == starting
    awarded = sum(sum(r.won_by().values()) for r in result.pots)
    assert awarded == sum(r.amount for r in result.pots)
    assert awarded + result.rake == sum(hand.contributed(s) for s in hand.seats)
