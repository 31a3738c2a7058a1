"""What each viewer may see: decided here, at the edge, once per visibility class.

A table publishes its events whole (:mod:`stud8.server.table.events`). Almost every
event looks the same to everyone; only a card dealt face down differs: its owner
sees it, and so does an operator watching a hand he is not dealt into; everybody
else gets the card as ``null`` (the event is never left out, so nobody sees a gap
in the numbers). So each event is encoded **once per visibility class**, not once
per viewer (:func:`encode`: at most two texts), and each viewer is handed the text
of his class (:meth:`Encoded.text_for`).

A snapshot (:class:`~stud8.server.table.snapshot.TableSnapshot`) is taken whole too;
:func:`snapshot_for` gives one viewer his: his own down cards (a hand in a snapshot
is in play: nobody's have been shown yet), the legal actions only when it is his
turn (an operator not in the hand: all of it); ``viewer_seat`` is his seat at the
table, with or without a hand in play; the hand's events so far (its ``log``) each
as the same rule gave it to him live (:func:`sees_whole`), so a reload shows him
exactly what he saw, and never a card he could not see.

>>> from stud8.core.cards import Card
>>> from stud8.core.events import CardDealt
>>> from stud8.server.table.events import Numbered
>>> item = Numbered(7, CardDealt(2, Card.parse("As"), False, 3), {1: "ann", 2: "bob"})
>>> seen = encode(item)
>>> seen.text_for("bob", False)
'{"t":"event","v":7,"d":{"k":"deal","seat":2,"card":"As","face_up":false,"street":3}}'
>>> seen.text_for("ann", False)
'{"t":"event","v":7,"d":{"k":"deal","seat":2,"card":null,"face_up":false,"street":3}}'
>>> seen.text_for("op", True) == seen.text_for("bob", False)  # an operator, not dealt in
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TypeGuard

from stud8.core.events import CardDealt
from stud8.server.table.events import AnyEvent, HandStarted, Numbered
from stud8.server.table.snapshot import OfferSnapshot, TableSnapshot
from stud8.server.wire.events import encode_event
from stud8.server.wire.server import LoggedEvent, SnapshotMessage, event_text

__all__ = ["Encoded", "encode", "event_for", "sees_whole", "snapshot_for"]


def sees_whole(
    owner: str | None, hand: Mapping[int, str] | None, player: str | None, everything: bool
) -> bool:
    """Whether a viewer sees an event with a hidden card whole: its ``owner`` (the
    card's), or an operator (``everything``) not dealt into its ``hand``."""
    if player is not None and player == owner:
        return True
    return everything and (hand is None or player not in hand.values())


def _hidden(event: AnyEvent) -> TypeGuard[CardDealt]:
    """A card dealt face down (not every viewer sees it)."""
    return type(event) is CardDealt and not event.face_up and event.card is not None


@dataclass(frozen=True, slots=True)
class Encoded:
    """An event's texts: ``text`` for those who may not see its hidden card (all,
    if it has none), ``whole`` for ``owner`` and for an operator not in the hand."""

    seq: int
    text: str
    whole: str | None = None
    owner: str | None = None
    hand: Mapping[int, str] | None = None  # the hand's players, by seat

    def text_for(self, player: str | None, everything: bool) -> str:
        """The text of the event as this viewer may see it."""
        whole = self.whole
        if whole is None:
            return self.text
        return whole if sees_whole(self.owner, self.hand, player, everything) else self.text


def encode(item: Numbered) -> Encoded:
    """The event's text for each visibility class (see the module)."""
    event = item.event
    data = encode_event(event)
    if _hidden(event):
        hidden = dict(data)
        hidden["card"] = None
        seats = item.seats
        return Encoded(
            item.seq,
            event_text(item.seq, hidden),
            event_text(item.seq, data),
            seats.get(event.seat) if seats is not None else None,
            seats,
        )
    return Encoded(item.seq, event_text(item.seq, data))


def event_for(item: Numbered, player: str | None, everything: bool) -> AnyEvent:
    """The event as this viewer was given it live (:meth:`Encoded.text_for`'s rule):
    a hidden card he may not see is None."""
    event = item.event
    if not _hidden(event):
        return event
    seats = item.seats
    owner = seats.get(event.seat) if seats is not None else None
    return event if sees_whole(owner, seats, player, everything) else replace(event, card=None)


def snapshot_for(snap: TableSnapshot, player: str | None, everything: bool) -> SnapshotMessage:
    """The snapshot as ``player`` (None: an observer) may see it; ``everything``: an
    operator, who sees every card of a hand he is not dealt into.

    ``viewer_seat`` is his seat at the table, whether or not a hand is in play (a
    client that took "no hand seat" for "not seated" lost its buttons); the hand's
    ``viewer`` is his seat in the hand (None if he was not dealt in). Why a seat
    sits out (``out_reason``) is told to its player only: his prompt after a reload
    says why; nobody else's screen needs it."""
    viewer: int | None = None
    table_seat: int | None = None
    if player is not None:
        viewer = next((s for s, who in snap.hand_seats.items() if who == player), None)
        table_seat = snap.seat_of(player)
    hand = snap.hand
    if hand is not None:
        all_cards = everything and viewer is None
        seats = tuple(
            s
            if all_cards or s.seat == viewer
            else replace(s, down_cards=tuple(None for _ in s.down_cards))
            for s in hand.seats
        )
        legal = (
            hand.legal_actions
            if all_cards or (viewer is not None and viewer == hand.to_act)
            else ()
        )
        hand = replace(hand, viewer=viewer, seats=seats, legal_actions=legal)
    offer = snap.offer
    if offer is not None:
        offer = OfferSnapshot(offer.seat, offer.player, round(offer.seconds_left, 3))
    seats_out = tuple(
        s if s.seat == table_seat or not s.out_reason else replace(s, out_reason="")
        for s in snap.seats
    )
    log = tuple(LoggedEvent(i.seq, event_for(i, player, everything)) for i in snap.hand_log)
    start = snap.hand_log[0] if snap.hand_log else None
    log_seats = (
        tuple(sorted(start.seats.items()))
        if start is not None and isinstance(start.event, HandStarted) and start.seats
        else ()
    )
    return SnapshotMessage(
        table_id=snap.table_id,
        viewer_seat=table_seat,
        seats=seats_out,
        hand_id=hand.hand_id if hand is not None else None,
        hand=hand,
        turn=snap.turn,
        waiting_list=snap.waiting_list,
        offer=offer,
        tournament=snap.tournament,
        log=log,
        log_seats=log_seats,
        refunded=snap.refunded,
        mixed=snap.mixed,
    )
