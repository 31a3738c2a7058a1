"""A table's event feed: its numbering, its recent history and its subscribers.

Every event the table emits gets the next number (:class:`~stud8.server.table.events.Numbered`),
is kept in a bounded :class:`~stud8.server.table.events.History` and is handed to
each subscriber projected for him (:func:`~stud8.server.table.events.project`): a
player sees his own down cards, an observer none, an operator watching
(``everything``) all of them except in a hand he is dealt into.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from stud8.server.table.commands import TableSnapshot
from stud8.server.table.events import AnyEvent, History, Numbered, project


@dataclass(slots=True)
class Subscription:
    feed: Feed
    player: str | None  # None: an observer
    deliver: Callable[[Numbered], None]
    everything: bool = False  # an operator: every card, but in a hand he plays
    snapshot: TableSnapshot | None = None  # given instead of the missed events
    replayed: int = 0  # how many missed events were delivered at once
    active: bool = field(default=True)

    def close(self) -> None:
        self.active = False
        self.feed.remove(self)


class Feed:
    """Numbers the events of one table and hands them to its subscribers."""

    def __init__(self, history_size: int, start: int = 0) -> None:
        self._seq = start
        self._history = History(history_size, start)
        self._subs: list[Subscription] = []

    @property
    def last_seq(self) -> int:
        return self._seq

    def emit(self, event: AnyEvent, seats: Mapping[int, str] | None = None) -> None:
        self._seq += 1
        item = Numbered(self._seq, event, seats)
        self._history.append(item)
        for sub in list(self._subs):
            if not sub.active:
                continue
            try:
                sub.deliver(project(item, sub.player, sub.everything))
            except Exception:
                sub.close()  # a broken subscriber does not stop the table

    def subscribe(
        self,
        player: str | None,
        deliver: Callable[[Numbered], None],
        last_seen: int | None,
        snapshot: Callable[[], TableSnapshot],
        *,
        everything: bool = False,
    ) -> Subscription:
        """See :meth:`stud8.server.table.owner.Table.subscribe`."""
        sub = Subscription(self, player, deliver, everything)
        missed = self._history.since(last_seen) if last_seen is not None else None
        if missed is None:
            sub.snapshot = snapshot()
        else:
            for item in missed:
                deliver(project(item, player, everything))
            sub.replayed = len(missed)
        self._subs.append(sub)
        return sub

    def since(
        self, last_seen: int, player: str | None = None, everything: bool = False
    ) -> list[Numbered] | None:
        missed = self._history.since(last_seen)
        return None if missed is None else [project(i, player, everything) for i in missed]

    def remove(self, sub: Subscription) -> None:
        if sub in self._subs:
            self._subs.remove(sub)
