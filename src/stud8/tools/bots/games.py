"""Reading a hand by the table's game for the bots: Seven Card Stud (high only) and
Razz (ace-to-five low), beside the Stud Hi/Lo reading of :mod:`stud8.tools.bots.reading`.

The scores are on the rule-based bot's scale, 0 (nothing) to about 4 (a monster):
:func:`starting_tier` for three 3rd-street cards, :func:`later_value` from 4th street
on (its own cards against what the live opponents show), and :func:`game_equity`, a
Monte Carlo share of the pot for the equity bot.

>>> from stud8.core.cards import parse_cards
>>> no_dead = [0] * 15
>>> starting_tier(Game.STUD_HIGH, parse_cards("Kd Ks 4c"), no_dead)   # big pair: good
3.0
>>> starting_tier(Game.RAZZ, parse_cards("Kd Ks 4c"), no_dead)        # in razz: junk
0.0
>>> starting_tier(Game.RAZZ, parse_cards("As 2d 4c"), no_dead)        # three to a wheel
3.5
>>> starting_tier(Game.STUD_HIGH, parse_cards("As 2d 4c"), no_dead)   # in stud: weak
0.5
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from stud8.core.cards import CARDS, Card
from stud8.core.evaluate import HighCategory, best_high, best_razz_low, hi_lo_codes
from stud8.core.rules import Game

__all__ = ["game_equity", "later_value", "starting_tier"]


def _low(rank: int) -> int:
    """The rank with the ace low (1)."""
    return 1 if rank == 14 else rank


# ---------------------------------------------------------------- 3rd street
def starting_tier(game: Game, cards: Sequence[Card], dead: Sequence[int]) -> float:
    """The worth of three 3rd-street cards in ``game`` (Seven Card Stud or Razz):
    0 (junk) to 4. ``dead`` counts the other seats' up cards by rank (ace 14)."""
    if game is Game.RAZZ:
        return _razz_tier(cards, dead)
    return _high_tier(cards, dead)


def _high_tier(cards: Sequence[Card], dead: Sequence[int]) -> float:
    ranks = sorted((c.rank for c in cards), reverse=True)
    a, b, c = ranks
    if a == b == c:
        return 4.0  # rolled-up trips
    pair = a if a == b else (b if b == c else 0)
    if pair:
        kicker = c if a == b else a
        live = dead[pair] == 0
        if pair >= 13:
            return 3.5 if pair == 14 and live else (3.0 if live else 2.0)
        if pair >= 10:
            return 2.5 if live else 1.5
        if pair >= 6 or kicker >= 13:
            return 1.5 if live else 0.5
        return 1.0 if live else 0.0
    suited = cards[0].suit == cards[1].suit == cards[2].suit
    connected = a - c <= 4 or (a == 14 and b <= 5)
    if suited:
        return 2.0 if a >= 11 or connected else 1.5
    if connected and c >= 5:
        return 1.5  # three to a straight, not too low
    if b >= 11:
        return 1.0  # two big cards
    if connected:
        return 0.5
    return 0.5 if a == 14 else 0.0


def _razz_tier(cards: Sequence[Card], dead: Sequence[int]) -> float:
    lows = sorted({_low(c.rank) for c in cards})
    if len(lows) < 3:  # a pair: two cards to a low at best
        return 0.5 if lows[-1] <= 8 else 0.0
    top = lows[-1]
    if top <= 5:
        tier = 3.5
    elif top <= 6:
        tier = 3.0
    elif top <= 7:
        tier = 2.5
    elif top <= 8:
        tier = 2.0
    elif lows[1] <= 6:
        tier = 1.0  # two good low cards and a ten or so
    else:
        return 0.0
    # our ranks on the others' boards are cards we do not have to fear pairing with
    if sum(dead[14 if r == 1 else r] for r in lows) >= 3:
        tier += 0.5
    return tier


# ------------------------------------------------------- 4th to 7th street
def later_value(
    game: Game,
    cards: Sequence[Card],
    left: int,
    boards: Sequence[Sequence[Card]],
) -> tuple[float, bool, bool]:
    """The worth of four to seven cards (the community card among them) with ``left``
    still to come, against the live opponents' up cards (``boards``): ``(value, draw,
    lock)``, ``draw`` whether it draws to a better hand and ``lock`` whether it holds the
    nuts or near them."""
    if game is Game.RAZZ:
        return _razz_value(cards, left, boards)
    return _high_value(cards, left, boards)


_STRENGTH_POINTS = {
    HighCategory.HIGH_CARD: 0.0,
    HighCategory.TWO_PAIR: 2.2,
    HighCategory.THREE_OF_A_KIND: 3.0,
    HighCategory.STRAIGHT: 3.3,
    HighCategory.FLUSH: 3.5,
    HighCategory.FULL_HOUSE: 4.0,
    HighCategory.FOUR_OF_A_KIND: 4.5,
    HighCategory.STRAIGHT_FLUSH: 5.0,
}


def _high_value(
    cards: Sequence[Card], left: int, boards: Sequence[Sequence[Card]]
) -> tuple[float, bool, bool]:
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    most = max(counts.values())
    pairs = sorted((r for r, n in counts.items() if n >= 2), reverse=True)
    if len(cards) >= 5:
        category = best_high(cards).category
    elif most == 4:
        category = HighCategory.FOUR_OF_A_KIND
    elif most == 3:
        category = HighCategory.THREE_OF_A_KIND
    elif len(pairs) >= 2:
        category = HighCategory.TWO_PAIR
    elif pairs:
        category = HighCategory.ONE_PAIR
    else:
        category = HighCategory.HIGH_CARD
    if category is HighCategory.ONE_PAIR:
        value = 0.6 + (pairs[0] - 2) * (0.8 / 12)
    else:
        value = _STRENGTH_POINTS[category]
        if category is HighCategory.HIGH_CARD and max(counts) == 14:
            value = 0.3
    # draws: four to a flush, or four in a row
    suits: dict[str, int] = {}
    for c in cards:
        suits[c.suit] = suits.get(c.suit, 0) + 1
    draw = False
    if left and category < HighCategory.STRAIGHT:
        ranks = set(counts) | ({1} if 14 in counts else set())
        four_row = any(sum(r + k in ranks for k in range(5)) >= 4 for r in range(1, 11))
        if max(suits.values()) >= 4 or four_row:
            draw = True
            value = max(value, 1.3 if left >= 2 else 0.9)
    # scare cards: an opponent showing a higher pair, or two pair or trips
    mine = pairs[0] if pairs else 0
    for up in boards:
        shown: dict[int, int] = {}
        for c in up:
            shown[c.rank] = shown.get(c.rank, 0) + 1
        their = [r for r, n in shown.items() if n >= 2]
        if category is HighCategory.ONE_PAIR and their and max(their) > mine:
            value *= 0.5
        elif category is HighCategory.TWO_PAIR and (len(their) >= 2 or max(shown.values()) >= 3):
            value *= 0.6
    if len(boards) == 1:
        value += 0.2  # heads-up, hands go down in value less
    lock = category >= HighCategory.FOUR_OF_A_KIND
    return value, draw, lock


#: Razz points of a made low, by its top card (ace 1).
_RAZZ_POINTS = {5: 3.6, 6: 3.0, 7: 2.4, 8: 1.9, 9: 1.3, 10: 0.9, 11: 0.6, 12: 0.4, 13: 0.3}


def _razz_value(
    cards: Sequence[Card], left: int, boards: Sequence[Sequence[Card]]
) -> tuple[float, bool, bool]:
    lows = sorted({_low(c.rank) for c in cards})
    draw = False
    if len(lows) >= 5:
        low = best_razz_low(cards) if len(cards) >= 5 else None
        top = low.ranks[0] if low is not None else lows[4]
        value = _RAZZ_POINTS.get(top, 0.2)
        if left and top >= 8:
            value += 0.2  # may still improve
        mine = lows[:5]
    else:
        # drawing: the low cards held and how many are missing
        good = [r for r in lows if r <= 8]
        need = 5 - len(good)
        mine = good
        if need <= left:
            draw = True
            value = {0: 2.0, 1: 2.0, 2: 1.2 if left >= 3 else 0.5}.get(need, 0.3)
            if good and good[-1] <= 6:
                value += 0.3
        else:
            value = 0.2
    # what the others show: a better-looking board (lower cards, no pair) marks us down
    target = mine[4] if len(mine) >= 5 else (mine[-1] if mine else 14)
    for up in boards:
        theirs = sorted({_low(c.rank) for c in up})
        paired = len(theirs) < len(up)
        if theirs and not paired and theirs[-1] < target and len(theirs) >= min(len(up), 3):
            value *= 0.7
    if len(boards) == 1:
        value += 0.2
    lock = len(mine) >= 5 and mine[4] <= 5
    return value, draw, lock


# ------------------------------------------------------------------ equity
def game_equity(
    game: Game,
    players: Sequence[Sequence[Card | None]],
    dead: Sequence[Card | None],
    community: Card | None,
    trials: int,
    rng: random.Random,
) -> float:
    """The first player's expected share of the pot in ``game`` (Seven Card Stud or
    Razz), from ``trials`` random deals of the unknown cards (``None``) and the cards
    still to come: each player ends with seven cards (six and the community card when
    it was dealt)."""
    known = {c for hand in players for c in hand if c is not None}
    known.update(c for c in dead if c is not None)
    if community is not None:
        known.add(community)
    unknown_dead = sum(1 for c in dead if c is None)
    deck = [c for c in CARDS if c not in known]
    total = 7 if community is None else 6
    slots = [total - sum(1 for c in hand if c is not None) for hand in players]
    # too few cards for everyone's 7th: one community card shared by all (RULES.md 4)
    shared = community is None and sum(slots) + unknown_dead > len(deck)
    if shared:
        slots = [max(0, n - 1) for n in slots]
    unknown_dead = min(unknown_dead, len(deck) - sum(slots) - shared)
    share = 0.0
    for _ in range(trials):
        drawn = rng.sample(deck, sum(slots) + unknown_dead + shared)
        k = unknown_dead  # the unknown dead cards are out of the deck
        board = [drawn[-1]] if shared else [] if community is None else [community]
        scores = []
        for hand, slot in zip(players, slots, strict=True):
            mine = [c for c in hand if c is not None] + drawn[k : k + slot] + board
            k += slot
            if game is Game.RAZZ:
                scores.append(best_razz_low(mine).strength)
            else:
                scores.append(hi_lo_codes([c.code for c in mine])[0])
        best = max(scores)
        if scores[0] == best:
            share += 1.0 / scores.count(best)
    return share / trials
