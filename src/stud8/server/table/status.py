"""What the lobby shows of a table: its :class:`TableStatus`, published by its owner.

The table's owner task publishes a new status whenever something the lobby shows
changes (a seat taken or freed, the waiting list, a hand finished, the table
stopped or dealing again), so the lobby never reads a table's state: it lists the
last status of each (from the bus's directory, :mod:`stud8.server.bus`). The
table's :class:`StatusBoard` keeps the figures (over the last ``STATS_WINDOW``
seconds) and who is told.

How many watch the table without a seat (``observers``) changes with every window a
viewer opens or closes: the board says it at most once every ``OBSERVERS_PACE``
seconds (a crowd opening a table is one status, not one per viewer, on the bus and
in the directory of every node).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from stud8.server.clock import Clock, TimerHandle
from stud8.server.table.events import (
    AnyEvent,
    HandFinished,
    MixedGame,
    SeatLeft,
    SeatTaken,
    WaitingListChanged,
)
from stud8.server.table.state import ObserversDue

__all__ = ["OBSERVERS_PACE", "STATS_WINDOW", "StatusBoard", "TableStatus"]

log = logging.getLogger("stud8.server")

# The lobby's figures (average pot, hands an hour) are over this many seconds.
STATS_WINDOW = 3600.0
# A change of the observers is published this many seconds after the first one.
OBSERVERS_PACE = 1.0
# Events that change what the lobby shows of a table.
_LISTED = (SeatTaken, SeatLeft, WaitingListChanged, HandFinished, MixedGame)


@dataclass(frozen=True, slots=True)
class TableStatus:
    """``players`` by seat, in seat order; ``waiting``: how many on the waiting
    list; ``average_pot`` and ``hands_per_hour`` over the last hour; ``paused``:
    why the table has stopped dealing (its books cannot be written), or None;
    ``observers``: the connections that watch the table without a seat, and
    ``watchers`` the logged-in players among them (the operator's console's; never
    in the lobby).
    ``game``: the game of the hand in play, or between hands of the next (a mixed
    table's changes; "": its spec's)."""

    table_id: str
    players: tuple[str, ...] = ()
    waiting: int = 0
    hands_played: int = 0
    average_pot: float = 0.0
    hands_per_hour: float = 0.0
    paused: str | None = None
    observers: int = 0
    game: str = ""
    watchers: tuple[str, ...] = ()


class StatusBoard:
    """What the lobby shows of one table: its figures, and who is told when what it
    shows changes (``changed``; the table's owner task publishes it)."""

    def __init__(self, table_id: str, clock: Clock, post: Callable[[ObserversDue], None]) -> None:
        self._table_id = table_id
        self._clock = clock
        self._post = post
        self._observers_due: TimerHandle | None = None
        self._opened = clock.now()
        self._pots: deque[tuple[float, int]] = deque(maxlen=500)  # (when, pot) of each hand
        self._listeners: list[Callable[[TableStatus], None]] = []
        self.changed = True

    def saw(self, event: AnyEvent) -> None:
        """The table told ``event``: what the lobby shows may have changed."""
        if isinstance(event, _LISTED):
            self.changed = True

    def observers_changed(self) -> None:
        """A viewer opened or closed the table: publish in ``OBSERVERS_PACE`` seconds
        (unless a status goes out before)."""
        if self._observers_due is None:
            when = self._clock.now() + OBSERVERS_PACE
            self._observers_due = self._clock.call_at(when, lambda: self._post(ObserversDue()))

    def observers_due(self) -> None:
        """The pace's time came (the table's turn): publish now."""
        self._observers_due = None
        self.changed = True

    def hand_finished(self, pot: int) -> None:
        """A hand (not cancelled) was played for ``pot`` chips."""
        self._pots.append((self._clock.now(), pot))

    def status(
        self,
        *,
        players: tuple[str, ...],
        waiting: int,
        hands_played: int,
        paused: str | None,
        observers: int,
        game: str = "",
        watchers: tuple[str, ...] = (),
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
            observers=observers,
            game=game,
            watchers=watchers,
        )

    def listen(self, listener: Callable[[TableStatus], None], now: TableStatus) -> None:
        """Tell ``listener`` the status ``now`` and at every change."""
        self._listeners.append(listener)
        listener(now)

    def publish(self, status: Callable[[], TableStatus]) -> None:
        """Tell every listener the table's ``status()`` now."""
        self.changed = False
        if self._observers_due is not None:  # this status says them too
            self._observers_due.cancel()
            self._observers_due = None
        if not self._listeners:
            return
        now = status()
        for listener in self._listeners:
            try:
                listener(now)
            except Exception:
                log.exception("table %s: a status listener failed", self._table_id)
