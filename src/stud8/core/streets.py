"""Who acts first on a street, and who shows first at the showdown (RULES.md 3-5)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from stud8.core import _tables
from stud8.core.cards import Card
from stud8.core.rules import CommunityCardFirstToAct, FirstToActTie, Game, TableRules


def clockwise_from(seats: Sequence[int], start: int) -> list[int]:
    """``seats`` in clockwise order starting at ``start`` (seats ascend clockwise).

    >>> clockwise_from([1, 3, 6], 3)
    [3, 6, 1]
    """
    i = seats.index(start)
    return [*seats[i:], *seats[:i]]


def first_to_act(
    *,
    street: int,
    up_cards: Mapping[int, Sequence[Card]],
    can_act: Mapping[int, bool],
    live: Sequence[int],
    rules: TableRules,
    community_card: Card | None,
) -> int:
    """The seat that opens the betting on 4th to 7th street.

    The highest hand showing acts first (in razz the lowest, RULES.md 8); an
    exact tie goes to the lowest seat (or, as an option, to the highest up card
    by suit; in razz the ace counts low for this). If that player is
    all-in, the next player clockwise who can act starts. With a community
    card, the player who acted first on 6th street acts first again (option:
    the high hand including the community card).
    """
    seats = list(live)
    if street == 7 and community_card is not None:
        if rules.community_card_first_to_act is CommunityCardFirstToAct.SAME_AS_SIXTH_STREET:
            # As if 7th street had come face down: the highest board of one's own up
            # cards, which is the 6th-street opener unless he has folded since.
            best = _highest_showing(seats, up_cards, rules, None)
        else:
            best = _highest_showing(seats, up_cards, rules, community_card)
    else:
        best = _highest_showing(seats, up_cards, rules, None)
    return _next_who_can_act(seats, best, can_act)


def _highest_showing(
    seats: Sequence[int],
    up_cards: Mapping[int, Sequence[Card]],
    rules: TableRules,
    community_card: Card | None,
) -> int:
    razz = rules.game is Game.RAZZ
    shown_key = up_key_for(rules.game)

    def key(seat: int) -> tuple[tuple[int, ...], int]:
        cards = list(up_cards[seat])
        if community_card is not None:
            cards.append(community_card)
        shown = shown_key(cards)
        if rules.first_to_act_tie is FirstToActTie.HIGHEST_CARD_BY_SUIT:
            if razz:
                return shown, max(c.low_rank * 4 + c.suit_index for c in up_cards[seat])
            return shown, max(c.code for c in up_cards[seat])
        return shown, -seat  # position: the lowest seat wins the tie

    return max(seats, key=key)


_UP_KEYS: dict[tuple[int, ...], tuple[int, ...]] = {}


def up_cards_key(cards: Sequence[Card]) -> tuple[int, ...]:
    """The ranking of up cards for acting first (higher is better), memoized:
    there are few distinct sets of ranks."""
    ranks = tuple(sorted([c.rank for c in cards]))
    key = _UP_KEYS.get(ranks)
    if key is None:
        key = _UP_KEYS[ranks] = _tables.up_cards_key(ranks)
    return key


_RAZZ_UP_KEYS: dict[tuple[int, ...], tuple[int, ...]] = {}


def razz_up_cards_key(cards: Sequence[Card]) -> tuple[int, ...]:
    """The ranking of up cards for acting first in razz (higher acts first: the
    lowest hand showing; pairs are bad, the ace is low), memoized.

    >>> from stud8.core.cards import parse_cards
    >>> razz_up_cards_key(parse_cards("7c 4d")) > razz_up_cards_key(parse_cards("As 8h"))
    True
    >>> razz_up_cards_key(parse_cards("Kc Qd")) > razz_up_cards_key(parse_cards("2s 2h"))
    True
    """
    ranks = tuple(sorted([c.low_rank for c in cards]))
    key = _RAZZ_UP_KEYS.get(ranks)
    if key is None:
        key = _RAZZ_UP_KEYS[ranks] = tuple(-x for x in _tables.up_cards_key(ranks))
    return key


def up_key_for(game: Game) -> Callable[[Sequence[Card]], tuple[int, ...]]:
    """The ranking of up cards for acting first in this game (higher acts first)."""
    return razz_up_cards_key if game is Game.RAZZ else up_cards_key


def shows_open_pair(up_cards: Iterable[Sequence[Card]]) -> bool:
    """Whether any of these up cards (one sequence a player) hold a pair.

    >>> from stud8.core.cards import parse_cards
    >>> shows_open_pair([parse_cards("Kd 9c"), parse_cards("4h 4s")])
    True
    """
    return any(len({c.rank for c in cards}) < len(cards) for cards in up_cards)


def _next_who_can_act(seats: Sequence[int], start: int, can_act: Mapping[int, bool]) -> int:
    ordered = sorted(set(seats) | {start})
    for seat in clockwise_from(ordered, start):
        if can_act.get(seat, False):
            return seat
    raise AssertionError("a betting round was opened with nobody able to act")


def show_order(
    *,
    live: Sequence[int],
    aggressor: int | None,
    first_on_seventh: int | None,
    earliest_first: bool,
) -> list[int]:
    """The order hands are shown: the last bettor or raiser on the last round
    first; with no bet, the earliest seat (option: the first to act on 7th
    street); then the others clockwise.

    >>> show_order(live=[2, 4, 7], aggressor=4, first_on_seventh=7, earliest_first=True)
    [4, 7, 2]
    >>> show_order(live=[2, 4, 7], aggressor=None, first_on_seventh=7, earliest_first=True)
    [2, 4, 7]
    >>> show_order(live=[2, 4, 7], aggressor=None, first_on_seventh=7, earliest_first=False)
    [7, 2, 4]
    """
    seats = sorted(live)
    if aggressor is not None and aggressor in seats:
        return clockwise_from(seats, aggressor)
    if not earliest_first and first_on_seventh is not None:
        if first_on_seventh in seats:
            return clockwise_from(seats, first_on_seventh)
        return _from_next(seats, first_on_seventh)
    return seats


def _from_next(seats: list[int], start: int) -> list[int]:
    """Clockwise from the first live seat at or after ``start``."""
    later = [s for s in seats if s > start]
    return [*later, *[s for s in seats if s <= start]]
