"""What the lobby shows of a table: its :class:`TableStatus`, published by its owner.

The table's owner task publishes a new status whenever something the lobby shows
changes (a seat taken or freed, the waiting list, a hand finished, the table
stopped or dealing again), so the lobby never reads a table's state: it lists the
last status of each (from the bus's directory, :mod:`stud8.server.bus`). The
table's :class:`StatusBoard` keeps the figures (over the last ``STATS_WINDOW``
seconds) and who is told.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from stud8.server.clock import Clock
from stud8.server.table.events import (
    AnyEvent,
    HandFinished,
    SeatLeft,
    SeatTaken,
    WaitingListChanged,
)

__all__ = ["STATS_WINDOW", "StatusBoard", "TableStatus"]

log = logging.getLogger("stud8.server")

# The lobby's figures (average pot, hands an hour) are over this many seconds.
STATS_WINDOW = 3600.0
# Events that change what the lobby shows of a table.
_LISTED = (SeatTaken, SeatLeft, WaitingListChanged, HandFinished)


@dataclass(frozen=True, slots=True)
class TableStatus:
    """``players`` by seat, in seat order; ``waiting``: how many on the waiting
    list; ``average_pot`` and ``hands_per_hour`` over the last hour; ``paused``:
    why the table has stopped dealing (its books cannot be written), or None."""

    table_id: str
    players: tuple[str, ...] = ()
    waiting: int = 0
    hands_played: int = 0
    average_pot: float = 0.0
    hands_per_hour: float = 0.0
    paused: str | None = None


class StatusBoard:
    """What the lobby shows of one table: its figures, and who is told when what it
    shows changes (``changed``; the table's owner task publishes it)."""

    def __init__(self, table_id: str, clock: Clock) -> None:
        self._table_id = table_id
        self._clock = clock
        self._opened = clock.now()
        self._pots: deque[tuple[float, int]] = deque(maxlen=500)  # (when, pot) of each hand
        self._listeners: list[Callable[[TableStatus], None]] = []
        self.changed = True

    def saw(self, event: AnyEvent) -> None:
        """The table told ``event``: what the lobby shows may have changed."""
        if isinstance(event, _LISTED):
            self.changed = True

    def hand_finished(self, pot: int) -> None:
        """A hand (not cancelled) was played for ``pot`` chips."""
        self._pots.append((self._clock.now(), pot))

    def status(
        self, *, players: tuple[str, ...], waiting: int, hands_played: int, paused: str | None
    ) -> TableStatus:
        now = self._clock.now()
        recent = [pot for when, pot in self._pots if now - when <= STATS_WINDOW]
        elapsed = max(1.0, min(STATS_WINDOW, now - self._opened))
        return TableStatus(
            table_id=self._table_id,
            players=players,
            waiting=waiting,
            hands_played=hands_played,
            average_pot=round(sum(recent) / len(recent), 1) if recent else 0.0,
            hands_per_hour=round(len(recent) * 3600 / elapsed, 1),
            paused=paused,
        )

    def listen(self, listener: Callable[[TableStatus], None], now: TableStatus) -> None:
        """Tell ``listener`` the status ``now`` and at every change."""
        self._listeners.append(listener)
        listener(now)

    def publish(self, status: Callable[[], TableStatus]) -> None:
        """Tell every listener the table's ``status()`` now."""
        self.changed = False
        if not self._listeners:
            return
        now = status()
        for listener in self._listeners:
            try:
                listener(now)
            except Exception:
                log.exception("table %s: a status listener failed", self._table_id)
