"""The table as it is now, for a viewer who joins or comes back: :class:`TableSnapshot`.

A snapshot is taken by the table's owner task between two of its messages, so it
shows exactly what its events up to ``seq`` told (never an event held back), and
it is taken **whole**: every card, the legal actions of the seat to act. Its hand,
if any, is one in play: a hand is over only once it has been shown down, and the
table takes no snapshot between a hand's last action and its ``hand_finish``, so no
down card in a snapshot's hand has been shown to everyone yet. Its ``hand_log`` is
the hand's events as the table published them (whole too: the edge blanks each
hidden card for whoever could not see it live). What one viewer may see of
it is decided at the edge (:func:`stud8.server.edge.projection.snapshot_for`), like
the events.

:class:`CatchUp` is the table's answer to a viewer who asks what he missed: the
events after his last one, if the table still has them, or a snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from stud8.core.views import HandView
from stud8.server.table.events import (
    HandRefunded,
    MixedGame,
    Numbered,
    TimerStarted,
    TournamentInfo,
)
from stud8.server.table.state import Seat

__all__ = ["CatchUp", "OfferSnapshot", "SeatSnapshot", "TableSnapshot", "seat_snapshot"]


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    seat: int
    player: str
    chips: int
    bot: bool
    sitting_out: bool
    connected: bool
    in_hand: bool
    # why he sits out (a SatOut's reason: timed_out, asked, disconnected, ...; "" when
    # he plays); the edge gives it to the player himself only (his prompt after a reload)
    out_reason: str = ""


def seat_snapshot(number: int, seat: Seat, *, in_hand: bool) -> SeatSnapshot:
    """Seat ``number`` as it is now (``in_hand``: dealt into the hand in play)."""
    return SeatSnapshot(
        seat=number,
        player=seat.player,
        chips=seat.chips,
        bot=seat.bot is not None,
        sitting_out=seat.sitting_out,
        connected=seat.connected,
        in_hand=in_hand,
        out_reason=seat.out_reason.value if seat.sitting_out and seat.out_reason else "",
    )


@dataclass(frozen=True, slots=True)
class OfferSnapshot:
    """A seat held for the first player on the waiting list."""

    seat: int
    player: str
    seconds_left: float


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The whole table after event ``seq``.

    ``hand`` is the hand in play seen whole (every card, the legal actions of the
    seat to act), ``hand_seats`` who plays in which of its seats; ``turn`` the clock
    of the seat to act. ``hand_log``: the events of the hand on the table (in play,
    or the last one until the next is dealt: its showdown stays on the screen) from
    its ``hand_start`` on, whole, and the table's events since, so that a viewer who
    reloads is shown the same table and the same lines as live; the edge gives each
    viewer only what he could see of them live. ``refunded``: the hands of this table
    a restart or a failover cancelled, oldest first. ``mixed``: at a mixed table, the
    game of the hand in play (or the last dealt; before any, the first to come), the
    next and when it comes (the last ``mixed_game`` event told), else None.
    """

    table_id: str
    seq: int
    seats: tuple[SeatSnapshot, ...]
    hand: HandView | None
    hand_seats: Mapping[int, str] = field(default_factory=dict)
    turn: TimerStarted | None = None
    waiting_list: tuple[str, ...] = ()
    offer: OfferSnapshot | None = None
    tournament: TournamentInfo | None = None
    hand_log: tuple[Numbered, ...] = ()
    refunded: tuple[HandRefunded, ...] = ()
    mixed: MixedGame | None = None

    def seat_of(self, player: str | None) -> int | None:
        """The seat ``player`` sits in at the table (not only in the hand)."""
        for seat in self.seats:
            if seat.player == player:
                return seat.seat
        return None


@dataclass(frozen=True, slots=True)
class CatchUp:
    """What a viewer missed: the ``events`` after his last, or (when the table no
    longer has them all, or he saw none) a ``snapshot``; the table's last number."""

    seq: int
    events: tuple[Numbered, ...] | None = None
    snapshot: TableSnapshot | None = None
