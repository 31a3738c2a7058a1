"""Cards for a hand that conceded unseen, when a history is replayed.

A player who mucks at the showdown concedes (RULES.md section 5): his down cards
are often never shown. To replay the hand, the engine needs cards in their place,
and the engine plays every hand it is dealt: a filler that happened to make a
winning hand would take a pot the site paid to another. :func:`weakest_fill`
gives him the weakest cards the deck has left for the game: in Stud Hi/Lo no
8-or-better low if it can be helped, and the lowest high hand; in Seven Card
Stud the lowest high hand; in Razz the worst ace-to-five low (high cards, pairs).

>>> from stud8.core.cards import parse_cards
>>> known = [None, None, *parse_cards("Kd Qs 7h 2c"), None]
>>> spare = parse_cards("As 2d 3h 9c Jd Th 4c 5s")
>>> " ".join(map(str, weakest_fill(known, spare)))  # not 9c Jd Th: a straight
'9c 4c 3h'
>>> " ".join(map(str, weakest_fill(known, spare, game=Game.RAZZ)))  # a pair, king high
'Jd Th 2d'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from stud8.core.cards import Card
from stud8.core.evaluate import best_razz_low, evaluate_hi_lo
from stud8.core.rules import Game

__all__ = ["weakest_fill"]

#: How many of the deck's cards are tried for the unknown places (at most 364
#: hands are valued for three places).
_POOL = 14


def weakest_fill(
    known: Sequence[Card | None],
    spare: Sequence[Card],
    community: Card | None = None,
    *,
    game: Game = Game.STUD_HI_LO,
) -> tuple[Card, ...]:
    """Cards from ``spare`` for the ``None`` places of ``known`` (in order), the
    weakest hand of ``game`` they can make with the known cards and the community card."""
    slots = sum(1 for c in known if c is None)
    if slots == 0:
        return ()
    if slots > len(spare):
        raise ValueError(f"{slots} cards wanted, {len(spare)} left in the deck")
    if game is Game.RAZZ:  # high cards and pairs make the worst razz lows (the ace is low)
        pool = sorted(spare, key=lambda c: (c.rank == 14, -c.rank))[: max(_POOL, slots)]
    else:  # nines to kings make no low and few straights: try them first
        pool = sorted(spare, key=lambda c: (not 9 <= c.rank <= 13, -c.rank))[: max(_POOL, slots)]
    held = [c for c in known if c is not None]
    if community is not None:
        held.append(community)
    if slots > 3 or len(held) + slots < 5:
        return tuple(pool[:slots])
    best: tuple[Card, ...] = tuple(pool[:slots])
    best_key: object = None
    for combo in combinations(pool, slots):
        key: tuple[object, ...]
        if game is Game.RAZZ:
            key = (best_razz_low((*held, *combo)),)
        else:
            high, low = evaluate_hi_lo((*held, *combo))
            key = (game is Game.STUD_HI_LO and low is not None, high)
        if best_key is None or key < best_key:  # type: ignore[operator]
            best, best_key = combo, key
    return best
