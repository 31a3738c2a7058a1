"""A table's event feed: its numbering, its recent history, and who listens.

Every event the table emits gets the next number
(:class:`~stud8.server.table.events.Numbered`), is kept in a bounded
:class:`~stud8.server.table.events.History` (for viewers who come back:
:meth:`Feed.since`) and is handed, whole, to each listener (the bus that carries
it to the edge; tests). Nothing here decides what a viewer may see: the edge does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Protocol

from stud8.core.actions import LegalAction
from stud8.server.table.events import AnyEvent, History, Numbered
from stud8.server.table.snapshot import CatchUp, TableSnapshot

log = logging.getLogger("stud8.server")

Listener = Callable[[Numbered], None]


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
        for listener in self._listeners:
            try:
                listener(item)
            except Exception:  # a broken listener does not stop the table
                log.exception("a listener of a table failed on event %d", item.seq)
        return item

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
