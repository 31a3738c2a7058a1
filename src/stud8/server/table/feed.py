"""A table's event feed: its numbering, its recent history, and who listens.

Every event the table emits gets the next number
(:class:`~stud8.server.table.events.Numbered`), is kept in a bounded
:class:`~stud8.server.table.events.History` (for viewers who come back:
:meth:`Feed.since`) and is handed, whole, to each listener (the bus that carries
it to the edge; tests). The events of the hand on the table (from its
``hand_start``, until the next hand's) are kept too (:meth:`Feed.on_table`): a
snapshot carries them, so a reload shows the hand and its log as they were seen
live. Nothing here decides what a viewer may see: the edge does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Protocol

from stud8.core.actions import LegalAction
from stud8.server.table.events import AnyEvent, HandFinished, HandStarted, History, Numbered
from stud8.server.table.snapshot import CatchUp, TableSnapshot

log = logging.getLogger("stud8.server")

Listener = Callable[[Numbered], None]

# The table's events after a hand's end kept with it (the seating's, the chat's) until
# the next hand: a table waiting long for players keeps no more than these.
AFTER_HAND = 100


class Emit(Protocol):
    """How a table's part tells an event: numbered and published by the table
    (``seats``: the hand's players, for its events; ``legal``: with a turn's clock)."""

    def __call__(
        self,
        event: AnyEvent,
        seats: Mapping[int, str] | None = None,
        legal: tuple[LegalAction, ...] | None = None,
    ) -> None: ...


class Feed:
    """Numbers the events of one table, keeps the recent ones, and publishes them."""

    def __init__(self, history_size: int, start: int = 0) -> None:
        self._seq = start
        self._history = History(history_size, start)
        self._listeners: list[Listener] = []
        self._on_table: list[Numbered] = []  # the hand on the table's events, and since
        self._after_end = -1  # how many came after its hand_finish (-1: not ended)

    @property
    def last_seq(self) -> int:
        return self._seq

    def emit(
        self,
        event: AnyEvent,
        seats: Mapping[int, str] | None = None,
        legal: tuple[LegalAction, ...] | None = None,
    ) -> Numbered:
        self._seq += 1
        item = Numbered(self._seq, event, seats, legal)
        self._history.append(item)
        self._keep_on_table(item)
        for listener in self._listeners:
            try:
                listener(item)
            except Exception:  # a broken listener does not stop the table
                log.exception("a listener of a table failed on event %d", item.seq)
        return item

    def _keep_on_table(self, item: Numbered) -> None:
        event = item.event
        if isinstance(event, HandStarted):
            self._on_table = [item]
            self._after_end = -1
        elif self._on_table and self._after_end < AFTER_HAND:
            self._on_table.append(item)
            if self._after_end >= 0:
                self._after_end += 1
            elif isinstance(event, HandFinished):
                self._after_end = 0

    def on_table(self) -> tuple[Numbered, ...]:
        """The events of the hand on the table (the one in play, or the last one until
        the next is dealt) from its ``hand_start``, and the table's since (at most
        :data:`AFTER_HAND` after its end); empty before the first hand."""
        return tuple(self._on_table)

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Hand every event from now on to ``listener``; returns the way to stop."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    def since(self, last_seen: int) -> list[Numbered] | None:
        """The events after ``last_seen``; None if the history no longer has them all."""
        return self._history.since(last_seen)

    def catch_up(self, last_seen: int | None, snapshot: Callable[[], TableSnapshot]) -> CatchUp:
        """What a viewer missed after ``last_seen``: the events, if the history still
        has them all, else (or without ``last_seen``) the table's ``snapshot()``."""
        if last_seen is not None:
            missed = self._history.since(last_seen)
            if missed is not None:
                return CatchUp(self._seq, events=tuple(missed))
        return CatchUp(self._seq, snapshot=snapshot())
