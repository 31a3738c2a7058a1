"""Cards for a hand that conceded unseen, when a history is replayed.

A player who mucks at the showdown concedes (RULES.md section 5): his down cards
are often never shown. To replay the hand, the engine needs cards in their place,
and the engine plays every hand it is dealt: a filler that happened to make a
winning hand would take a pot the site paid to another. :func:`weakest_fill`
gives him the weakest cards the deck has left: no 8-or-better low if it can be
helped, and the lowest high hand.

>>> from stud8.core.cards import parse_cards
>>> known = [None, None, *parse_cards("Kd Qs 7h 2c"), None]
>>> spare = parse_cards("As 2d 3h 9c Jd Th 4c 5s")
>>> " ".join(map(str, weakest_fill(known, spare)))  # not 9c Jd Th: a straight
'9c 4c 3h'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from stud8.core.cards import Card
from stud8.core.evaluate import evaluate_hi_lo

__all__ = ["weakest_fill"]

#: How many of the deck's cards are tried for the unknown places (at most 364
#: hands are valued for three places).
_POOL = 14


def weakest_fill(
    known: Sequence[Card | None], spare: Sequence[Card], community: Card | None = None
) -> tuple[Card, ...]:
    """Cards from ``spare`` for the ``None`` places of ``known`` (in order), the
    weakest hand they can make with the known cards and the community card."""
    slots = sum(1 for c in known if c is None)
    if slots == 0:
        return ()
    if slots > len(spare):
        raise ValueError(f"{slots} cards wanted, {len(spare)} left in the deck")
    # Nines to kings make no low and few straights: try them first.
    pool = sorted(spare, key=lambda c: (not 9 <= c.rank <= 13, -c.rank))[: max(_POOL, slots)]
    held = [c for c in known if c is not None]
    if community is not None:
        held.append(community)
    if slots > 3 or len(held) + slots < 5:
        return tuple(pool[:slots])
    best: tuple[Card, ...] = tuple(pool[:slots])
    best_key = None
    for combo in combinations(pool, slots):
        high, low = evaluate_hi_lo((*held, *combo))
        key = (low is not None, high)
        if best_key is None or key < best_key:
            best, best_key = combo, key
    return best
