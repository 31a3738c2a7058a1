"""A table's waiting list, and the seat held for the first player on it.

Part of the table's owner task (:class:`stud8.server.table.owner.Table` calls it; it
never runs by itself): it keeps the list in order and, when a seat is free and
the list is not empty, holds the lowest free seat for the first player listed
for ``offer_seconds`` (a ``seat_offered`` event). Only he may sit there
meanwhile. If he does not sit in time he leaves the list and the next player is
offered the seat; if he sits (there or in another free seat) or leaves the list,
the offer ends. Every change of the list is a ``waiting_list`` event.

One seat is held at a time. Joining is refused to a player seated at the table,
to one already listed, and while a seat is free for him to take now (he sits
instead). A listed player who disconnects stays listed (an offer he misses runs
out like any other).

On a room of several nodes the list survives its owner's death or hand-over: the
owner keeps it in Redis (:mod:`stud8.server.cluster.waitlists`) and the next owner
puts it back (:meth:`WaitingList.restore`) before the table starts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from stud8.server.clock import Clock, TimerHandle
from stud8.server.table.commands import Refused
from stud8.server.table.events import AnyEvent, SeatOffered, WaitingListChanged
from stud8.server.table.snapshot import OfferSnapshot
from stud8.server.table.state import OfferTimeout


@dataclass(slots=True)
class Offer:
    seat: int
    player: str
    deadline: float
    token: int
    timer: TimerHandle | None = None


class WaitingList:
    """The waiting list of one table (``post`` queues a message to its owner task)."""

    def __init__(
        self,
        *,
        clock: Clock,
        seconds: float,
        emit: Callable[[AnyEvent], None],
        post: Callable[[OfferTimeout], None],
    ) -> None:
        self._clock = clock
        self._seconds = seconds
        self._emit = emit
        self._post = post
        self.players: list[str] = []
        self.offer: Offer | None = None
        self._token = 0

    # ------------------------------------------------------------ commands
    def join(self, player: str, *, seated: bool, free_seats: Iterable[int]) -> None:
        if seated:
            raise Refused("you are seated at this table")
        if player in self.players:
            raise Refused("you are already on the waiting list")
        free = self._free_for_anyone(free_seats)
        if free:
            raise Refused(f"seat {free[0]} is free: sit there")
        self.players.append(player)
        self._changed()

    def leave(self, player: str, free_seats: Iterable[int]) -> None:
        if player not in self.players:
            raise Refused("you are not on the waiting list")
        self._drop(player)
        self.offer_next(free_seats)

    def check_sit(self, seat: int, player: str) -> None:
        """Refuse to seat ``player`` in a seat held for another."""
        offer = self.offer
        if offer is not None and offer.seat == seat and offer.player != player:
            left = max(0.0, offer.deadline - self._clock.now())
            raise Refused(
                f"seat {seat} is held for {offer.player} (the waiting list) for {left:.0f}s more"
            )

    # ------------------------------------------------------------ what the table tells it
    def sat(self, player: str, free_seats: Iterable[int]) -> None:
        """``player`` took a seat: he is no longer waiting."""
        if player in self.players:
            self._drop(player)
        self.offer_next(free_seats)

    def offer_next(self, free_seats: Iterable[int]) -> None:
        """Hold the lowest free seat for the first player listed, if none is held."""
        if self.offer is not None or not self.players:
            return
        free = sorted(free_seats)
        if not free:
            return
        self._token += 1
        now = self._clock.now()
        offer = Offer(free[0], self.players[0], now + self._seconds, self._token)
        message = OfferTimeout(offer.token)
        offer.timer = self._clock.call_at(offer.deadline, lambda: self._post(message))
        self.offer = offer
        self._emit(SeatOffered(offer.seat, offer.player, self._seconds))

    def expired(self, token: int, free_seats: Iterable[int]) -> None:
        """An offer's time ran out: its player leaves the list; the next is offered."""
        offer = self.offer
        if offer is None or offer.token != token:
            return  # a stale timer
        self._drop(offer.player)
        self.offer_next(free_seats)

    def restore(self, players: Iterable[str], free_seats: Iterable[int]) -> None:
        """Before the table starts (it was taken over from another node): the list
        as its last owner left it, in order, and the lowest free seat held for the
        first player listed (the offer's clock starts again)."""
        if self.players or self.offer is not None:
            raise RuntimeError("a waiting list is restored before anyone joins it")
        for player in players:
            if player not in self.players:
                self.players.append(player)
        if self.players:
            self._changed()
            self.offer_next(free_seats)

    def stop(self) -> None:
        self._end_offer()

    # ------------------------------------------------------------ views
    def snapshot(self) -> tuple[tuple[str, ...], OfferSnapshot | None]:
        offer = self.offer
        shown = None
        if offer is not None:
            left = max(0.0, offer.deadline - self._clock.now())
            shown = OfferSnapshot(offer.seat, offer.player, left)
        return tuple(self.players), shown

    # ------------------------------------------------------------ inside
    def _free_for_anyone(self, free_seats: Iterable[int]) -> list[int]:
        held = self.offer.seat if self.offer is not None else None
        return sorted(s for s in free_seats if s != held)

    def _drop(self, player: str) -> None:
        self.players.remove(player)
        if self.offer is not None and self.offer.player == player:
            self._end_offer()
        self._changed()

    def _end_offer(self) -> None:
        offer, self.offer = self.offer, None
        if offer is not None and offer.timer is not None:
            offer.timer.cancel()

    def _changed(self) -> None:
        self._emit(WaitingListChanged(tuple(self.players)))
