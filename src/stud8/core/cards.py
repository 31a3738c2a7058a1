"""Cards and the deck.

A :class:`Card` is a small immutable value: a rank from 2 to 14 (the ace is 14)
and a suit, one of ``c d h s`` (clubs, diamonds, hearts, spades: the suit order
used to break ties, lowest first).

>>> Card.parse("Td")
Card(rank=10, suit='d')
>>> str(Card.parse("as"))
'As'
>>> Card.parse("2c") < Card.parse("2d") < Card.parse("As")
True
>>> parse_cards("As 2d 3c")
(Card(rank=14, suit='s'), Card(rank=2, suit='d'), Card(rank=3, suit='c'))

A :class:`Deck` is an ordered list of the 52 cards. A live table shuffles one
from the operating system's cryptographic source, fresh every hand; tests and
replays pass a seed or an explicit order.

>>> Deck.seeded(7).cards == Deck.seeded(7).cards
True
>>> len(Deck.shuffled().cards)
52
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from stud8.core._shuffle import fisher_yates as _fisher_yates
from stud8.core.errors import CardError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"  # low to high: clubs, diamonds, hearts, spades
RANK_NAMES = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """One playing card. ``code`` is ``(rank - 2) * 4 + suit index``, 0 (2c) to 51 (As)."""

    rank: int
    suit: str
    code: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 2 <= self.rank <= 14:
            raise CardError(f"card rank must be an integer from 2 to 14 (ace), got {self.rank!r}")
        if self.suit not in SUIT_CHARS or len(self.suit) != 1:
            raise CardError(f"card suit must be one of 'c', 'd', 'h', 's', got {self.suit!r}")
        object.__setattr__(self, "code", (self.rank - 2) * 4 + SUIT_CHARS.index(self.suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card written as rank and suit: ``"Td"``, ``"as"``, ``"10h"``."""
        if not isinstance(text, str):
            raise CardError(f"a card is written as a string like 'Td', got {text!r}")
        t = text.strip()
        if len(t) == 3 and t[:2] == "10":
            t = "T" + t[2]
        if len(t) != 2:
            raise CardError(f"cannot read card {text!r}: write rank then suit, like 'Td' or 'As'")
        r = RANK_CHARS.find(t[0].upper())
        s = t[1].lower()
        if r < 0 or s not in SUIT_CHARS:
            raise CardError(
                f"cannot read card {text!r}: rank must be one of {RANK_CHARS}, suit one of c d h s"
            )
        return CARDS[r * 4 + SUIT_CHARS.index(s)]

    @classmethod
    def from_code(cls, code: int) -> Card:
        """The card with this code (0 = 2c ... 51 = As)."""
        if not isinstance(code, int) or not 0 <= code < 52:
            raise CardError(f"card code must be an integer from 0 to 51, got {code!r}")
        return CARDS[code]

    @property
    def suit_index(self) -> int:
        return self.code & 3

    @property
    def low_rank(self) -> int:
        """The rank with the ace counted low (1), as in an 8-or-better low."""
        return 1 if self.rank == 14 else self.rank

    @property
    def name(self) -> str:
        """``'ten of diamonds'``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 2] + self.suit

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and self.code == other.code)

    def __hash__(self) -> int:
        return self.code

    # Cards order by rank (ace high) and then suit, clubs lowest: the bring-in order.
    def __lt__(self, other: Card) -> bool:
        return self.code < other.code

    def __le__(self, other: Card) -> bool:
        return self.code <= other.code

    def __gt__(self, other: Card) -> bool:
        return self.code > other.code

    def __ge__(self, other: Card) -> bool:
        return self.code >= other.code


CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in SUIT_CHARS)
_ALL_CARDS = frozenset(CARDS)
_ORDERS = math.factorial(52)  # the number of orders of a deck, just under 2**226


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas: ``"As 2d 3c"``."""
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
    else:
        parts = list(text)
    return tuple(Card.parse(p) for p in parts)


def format_cards(cards: Iterable[Card]) -> str:
    """``'As 2d 3c'``."""
    return " ".join(str(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck in dealing order: ``cards[0]`` is dealt first."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        cards = tuple(self.cards)
        object.__setattr__(self, "cards", cards)
        if len(cards) != 52 or set(cards) != _ALL_CARDS:
            strange = [repr(c) for c in cards if not isinstance(c, Card)]
            seen: set[object] = set()
            repeated = []
            for c in cards:
                if c in seen:
                    repeated.append(str(c))
                seen.add(c)
            detail = (
                f", not cards: {', '.join(strange[:5])}"
                if strange
                else f", repeated: {' '.join(repeated)}"
                if repeated
                else ""
            )
            raise CardError(
                f"a deck holds each of the 52 cards once; got {len(cards)} cards{detail}"
            )

    @classmethod
    def shuffled(cls, rng: random.Random | None = None) -> Deck:
        """A fresh shuffle: unbiased Fisher-Yates over ``rng``.

        Without ``rng`` the operating system's cryptographic source is used
        (:class:`random.SystemRandom`), as a live table must.
        """
        source = rng if rng is not None else random.SystemRandom()
        # Fisher-Yates whose swap indices are the mixed-radix digits of one integer
        # drawn uniformly from [0, 52!) (by rejection from 226 random bits): every
        # order is exactly equally likely, and it costs one or two draws from the
        # source instead of 51 (each a system call for SystemRandom).
        while True:
            x = source.getrandbits(226)
            if x < _ORDERS:
                break
        order = list(CARDS)
        _fisher_yates(x, order)
        deck = object.__new__(cls)
        object.__setattr__(deck, "cards", tuple(order))  # a permutation: no check needed
        return deck

    @classmethod
    def seeded(cls, seed: int | str | bytes) -> Deck:
        """A reproducible shuffle for tests and replays; never for a live table."""
        return cls.shuffled(random.Random(seed))

    @classmethod
    def from_cards(cls, cards: str | Sequence[Card]) -> Deck:
        """A deck in the given order; a partial order is completed with the rest in order.

        >>> str(Deck.from_cards("As Kd").cards[2])
        '2c'
        """
        given = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        chosen = set(given)
        if len(chosen) != len(given):
            raise CardError(f"a card is given twice in the deck order {format_cards(given)!r}")
        return cls(given + tuple(c for c in CARDS if c not in chosen))

    def __repr__(self) -> str:
        return f"Deck.from_cards({format_cards(self.cards)!r})"
