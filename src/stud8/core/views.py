"""What a seat, an observer or the operator may see of a hand.

A player sees his own down cards; nobody sees another's until they are shown
at the showdown; mucked cards stay hidden. The operator sees everything.

>>> from stud8.core.cards import Deck
>>> from stud8.core.hand import Hand
>>> from stud8.core.rules import TableRules
>>> rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
>>> hand = Hand.start(rules=rules, stacks={1: 50, 2: 50}, deck=Deck.from_cards("As Kd 2c 3c 9h 8h"))
>>> [str(c) for c in hand.view(seat=1).seat(1).down_cards]
['As', '2c']
>>> hand.view(seat=2).seat(1).down_cards
(None, None)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from stud8.core.actions import LegalAction
from stud8.core.cards import Card
from stud8.core.events import CardDealt, Event, HandShown

if TYPE_CHECKING:
    from stud8.core.hand import Hand


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    stack: int
    bet: int
    contributed: int
    folded: bool
    all_in: bool
    up_cards: tuple[Card, ...]
    down_cards: tuple[Card | None, ...]  # None: a card this viewer may not see


@dataclass(frozen=True, slots=True)
class HandView:
    hand_id: str
    viewer: int | None  # the seat looking, None for an observer
    street: int
    to_act: int | None
    bring_in_seat: int | None
    pot: int
    current_bet: int
    community_card: Card | None
    seats: tuple[SeatView, ...]
    legal_actions: tuple[LegalAction, ...]  # only for the viewer, when it is his turn
    is_over: bool

    def seat(self, seat: int) -> SeatView:
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(f"seat {seat} is not in this hand")


def shown_seats(events: Iterable[Event]) -> frozenset[int]:
    """Seats whose cards have been shown face up to everyone."""
    return frozenset(e.seat for e in events if isinstance(e, HandShown))


def view_of(hand: Hand, seat: int | None = None, *, everything: bool = False) -> HandView:
    """The hand as ``seat`` sees it (None: an observer; ``everything``: the operator)."""
    shown = shown_seats(hand.events)
    seats = []
    for s in hand.seats:
        down = hand.down_cards(s)
        visible = everything or s == seat or s in shown
        seats.append(
            SeatView(
                seat=s,
                stack=hand.stack(s),
                bet=hand.street_bet(s),
                contributed=hand.contributed(s),
                folded=hand.is_folded(s),
                all_in=hand.is_all_in(s),
                up_cards=hand.up_cards(s),
                down_cards=down if visible else tuple(None for _ in down),
            )
        )
    return HandView(
        hand_id=hand.hand_id,
        viewer=seat,
        street=hand.street,
        to_act=hand.to_act,
        bring_in_seat=hand.bring_in_seat,
        pot=hand.pot_total,
        current_bet=hand.current_bet,
        community_card=hand.community_card,
        seats=tuple(seats),
        legal_actions=hand.legal_actions()
        if (everything or (seat is not None and seat == hand.to_act))
        else (),
        is_over=hand.is_over,
    )


def visible_event(event: Event, viewer: int | None, *, everything: bool = False) -> Event:
    """The event as ``viewer`` may see it: another player's down card is hidden."""
    if (
        isinstance(event, CardDealt)
        and not event.face_up
        and not everything
        and event.seat != viewer
    ):
        return replace(event, card=None)
    return event


def events_for(
    events: Iterable[Event], viewer: int | None, *, everything: bool = False
) -> Iterator[Event]:
    """A hand's events as ``viewer`` may see them."""
    for e in events:
        yield visible_event(e, viewer, everything=everything)
