"""Test helpers: decks built from each seat's cards, and a passive player.

The engine deals (no burn cards): on 3rd street the first down card to every
seat in ascending seat order, then the second down card to each, then the up
card to each; on 4th, 5th and 6th street one up card to each live seat in seat
order; on 7th street one down card to each live seat, or one community card when
the deck cannot cover every live player.

:func:`deck_for` takes each seat's cards in the order the seat receives them
(down, down, up, 4th, 5th, 6th, 7th) and lays them out in that dealing order. A
seat given fewer cards than another is taken to have folded after its last card.

>>> deck = deck_for({1: "As Kd 2c", 4: "3c 9h 8h"})
>>> [str(c) for c in deck.cards[:6]]
['As', '3c', 'Kd', '9h', '2c', '8h']
"""

from __future__ import annotations

from collections.abc import Mapping

from stud8.core import ActionKind, BringIn, Call, Check, Hand
from stud8.core.cards import Card, Deck, parse_cards


def deck_for(hands: Mapping[int, str], *, then: str = "") -> Deck:
    """A deck that deals each seat the given cards; ``then`` follows (a community
    card, say); the rest of the deck follows in the canonical order."""
    per_seat = {seat: parse_cards(text) for seat, text in sorted(hands.items())}
    for seat, cards in per_seat.items():
        if not 3 <= len(cards) <= 7:
            raise ValueError(f"seat {seat}: give 3 to 7 cards, got {len(cards)}")
    order: list[Card] = []
    for k in range(7):
        order.extend(cards[k] for cards in per_seat.values() if k < len(cards))
    order.extend(parse_cards(then))
    return Deck.from_cards(order)


def passive_action(hand: Hand) -> BringIn | Call | Check:
    """The passive choice of the player to act: bring in, call, or check."""
    kinds = {legal.kind for legal in hand.legal_actions()}
    if ActionKind.BRING_IN in kinds:
        return BringIn()
    if ActionKind.CALL in kinds:
        return Call()
    return Check()


def play_passively(hand: Hand) -> None:
    """Everyone brings in, calls or checks until the hand is over."""
    while not hand.is_over:
        hand.apply(passive_action(hand))
