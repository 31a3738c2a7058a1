"""Cards and the deck: reading, writing, ordering, and the deck's validation."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from stud8.core import Card, CardError, Deck, Stud8Error, format_cards, parse_cards
from stud8.core._shuffle import _looped_fisher_yates, _unrolled_fisher_yates
from stud8.core.cards import CARDS

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def test_there_are_52_distinct_cards() -> None:
    assert len(CARDS) == 52
    assert len(set(CARDS)) == 52
    assert {str(c) for c in CARDS} == {r + s for r in RANKS for s in SUITS}


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_card_parse_str_repr_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert eval(repr(card), {"Card": Card}) == card
    assert Card.from_code(card.code) is card


def test_card_parse_reads_both_cases_and_10() -> None:
    assert Card.parse("as") == Card(rank=14, suit="s")
    assert Card.parse("AS") == Card(rank=14, suit="s")
    assert Card.parse("td") == Card.parse("Td") == Card.parse("10d") == Card(rank=10, suit="d")
    assert str(Card.parse("2c")) == "2c"
    assert Card.parse("Qh").name == "queen of hearts"


@pytest.mark.parametrize("text", ["Zz", "1x", "", "AsKdQhJc9s", "A", "Ax", "Zs", "11s"])
def test_bad_card_text_raises_card_error_naming_it(text: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, Stud8Error)
    message = str(info.value)
    assert repr(text) in message  # the message quotes what it could not read
    assert "rank" in message or "like 'Td'" in message  # and says what a card looks like


def test_bad_card_values_raise_card_error() -> None:
    with pytest.raises(CardError, match="rank"):
        Card(rank=15, suit="s")
    with pytest.raises(CardError, match="rank"):
        Card(rank=1, suit="s")
    with pytest.raises(CardError, match="suit"):
        Card(rank=2, suit="x")
    with pytest.raises(CardError, match="suit"):
        Card(rank=2, suit="cd")
    with pytest.raises(CardError, match="code"):
        Card.from_code(52)
    with pytest.raises(CardError, match="code"):
        Card.from_code(-1)


def test_card_is_frozen() -> None:
    card = Card.parse("As")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 13  # type: ignore[misc]


def test_cards_order_by_rank_ace_high_then_suit_clubs_diamonds_hearts_spades() -> None:
    ordered = sorted(CARDS, key=lambda c: c.code)
    assert [str(c) for c in ordered[:5]] == ["2c", "2d", "2h", "2s", "3c"]
    assert str(ordered[-1]) == "As"
    assert Card.parse("2c") < Card.parse("2d") < Card.parse("2h") < Card.parse("2s")
    assert Card.parse("Ks") < Card.parse("Ac")
    assert min(CARDS) == Card.parse("2c")
    assert max(CARDS) == Card.parse("As")


def test_parse_cards_and_format_cards_round_trip() -> None:
    cards = parse_cards("As 2d, 3c  Th")
    assert cards == (Card(14, "s"), Card(2, "d"), Card(3, "c"), Card(10, "h"))
    assert format_cards(cards) == "As 2d 3c Th"
    assert parse_cards(["As", "2d"]) == (Card(14, "s"), Card(2, "d"))
    assert parse_cards("") == ()
    with pytest.raises(CardError):
        parse_cards("As Zz")


def test_deck_from_cards_puts_given_cards_first_and_the_rest_in_order() -> None:
    deck = Deck.from_cards("As Kd Qh")
    assert [str(c) for c in deck.cards[:3]] == ["As", "Kd", "Qh"]
    rest = [c for c in CARDS if str(c) not in ("As", "Kd", "Qh")]
    assert list(deck.cards[3:]) == rest
    assert len(deck.cards) == 52


def test_deck_from_cards_full_order_is_kept() -> None:
    order = list(reversed(CARDS))
    assert list(Deck.from_cards(order).cards) == order
    assert Deck.from_cards(format_cards(order)).cards == tuple(order)


def test_deck_repr_round_trip() -> None:
    deck = Deck.seeded(11)
    assert eval(repr(deck), {"Deck": Deck}) == deck


def test_deck_rejects_a_card_given_twice() -> None:
    with pytest.raises(CardError, match="twice"):
        Deck.from_cards("As Kd As")
    duplicated = (*CARDS[:51], CARDS[0])
    with pytest.raises(CardError, match="repeated: 2c"):
        Deck(duplicated)


@pytest.mark.parametrize("count", [0, 51, 53])
def test_deck_rejects_a_wrong_number_of_cards(count: int) -> None:
    cards = (CARDS * 2)[:count]
    with pytest.raises(CardError, match=f"got {count} cards"):
        Deck(cards)


@pytest.mark.parametrize(
    "items",
    [tuple(range(52)), tuple(str(c) for c in CARDS), (*CARDS[:51], "As")],
    ids=["ints", "strings", "51-cards-and-a-string"],
)
def test_deck_rejects_52_items_that_are_not_the_52_cards(items: tuple[object, ...]) -> None:
    """A deck is the 52 cards, each once (RULES.md 1: "one 52-card deck, no jokers")."""
    with pytest.raises(CardError, match="52 cards"):
        Deck(items)  # type: ignore[arg-type]


def test_deck_rejects_bad_card_text() -> None:
    with pytest.raises(CardError):
        Deck.from_cards("As Kx")
    assert issubclass(CardError, ValueError)


def test_both_forms_of_the_shuffle_make_the_plain_fisher_yates_swaps() -> None:
    """The interpreter's written-out shuffle and the compiled build's loops make the
    swaps of the plain Fisher-Yates over the digits of one draw: a seeded deck is the
    same deck in either build (replays depend on it)."""
    unrolled = _unrolled_fisher_yates()
    rng = random.Random("both forms")
    draws = [0, math.factorial(52) - 1] + [rng.randrange(math.factorial(52)) for _ in range(2000)]
    for x in draws:
        plain = list(range(52))
        rest = x
        for i in range(51, 0, -1):
            rest, j = divmod(rest, i + 1)
            plain[i], plain[j] = plain[j], plain[i]
        a, b = list(range(52)), list(range(52))
        unrolled(x, a)
        _looped_fisher_yates(x, b)
        assert a == b == plain, x
