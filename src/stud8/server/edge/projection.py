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
table, with or without a hand in play.

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

from stud8.core.events import CardDealt
from stud8.server.table.events import Numbered
from stud8.server.table.snapshot import OfferSnapshot, TableSnapshot
from stud8.server.wire.events import encode_event
from stud8.server.wire.server import SnapshotMessage, event_text

__all__ = ["Encoded", "encode", "snapshot_for"]


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
        if player is not None and player == self.owner:
            return whole
        if everything and (self.hand is None or player not in self.hand.values()):
            return whole
        return self.text


def encode(item: Numbered) -> Encoded:
    """The event's text for each visibility class (see the module)."""
    event = item.event
    data = encode_event(event)
    if type(event) is CardDealt and not event.face_up and event.card is not None:
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
    )
