"""The hand records of a room in memory (:func:`~stud8.server.runtime.memory_app`).

:class:`MemoryHandStore` keeps the hands :class:`~stud8.server.books.memory.MemoryBooks`
ends and answers
``GET /api/v1/hands`` as :class:`~stud8.server.books.hands.HandStore` does on a
database: the same filters (a player's hands, a table's, the latest ``limit``,
latest first) and the same per-viewer text (a player sees his own down cards and
the others' only where shown; the operator every card). The hands live as long
as the process, the latest ``kept`` of them (the oldest are dropped first, so a
long-running room does not grow without end).

The tables append from the event loop's thread while ``GET /api/v1/hands``
reads in a worker thread: a lock guards the list, and the text is written
outside it.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence

from stud8.formats.pokerstars.write import HAND_SEPARATOR, to_pokerstars
from stud8.formats.record import HandRecord
from stud8.server.books.hands import DEFAULT_LIMIT, MAX_LIMIT, HandNotFoundError

KEPT_HANDS = 20_000


class MemoryHandStore:
    """The latest ``kept`` hands of the room, in memory."""

    def __init__(self, kept: int = KEPT_HANDS) -> None:
        if kept < 1:
            raise ValueError(f"kept must be 1 or more, got {kept}")
        self._hands: deque[HandRecord] = deque(maxlen=kept)
        self._lock = threading.Lock()

    def add(self, record: HandRecord) -> None:
        """Keep a hand that has ended (:class:`~stud8.server.books.memory.MemoryBooks` does)."""
        with self._lock:
            self._hands.append(record)

    def __len__(self) -> int:
        with self._lock:
            return len(self._hands)

    def _latest(
        self, limit: int, *, player: str | None = None, table: str | None = None
    ) -> list[HandRecord]:
        """The latest ``limit`` hands (of ``player``, at ``table``), latest first."""
        limit = max(0, min(limit, MAX_LIMIT))
        with self._lock:
            hands = list(self._hands)
        out: list[HandRecord] = []
        for record in reversed(hands):
            if len(out) >= limit:
                break
            if table is not None and record.table != table:
                continue
            if player is not None and _seat_of(record, player) is None:
                continue
            out.append(record)
        return out

    def record(self, hand_id: str) -> HandRecord | None:
        """A hand's record, or None if it is not kept."""
        return self._by_id([hand_id])[0]

    def ids_for(
        self, player: str | None, limit: int = DEFAULT_LIMIT, *, table: str | None = None
    ) -> list[tuple[str, str, bool]]:
        """(hand id, table, has a record) of the latest ``limit`` hands of ``player``
        (of the room: None), at ``table`` if given, latest first."""
        return [(r.hand_id, r.table, True) for r in self._latest(limit, player=player, table=table)]

    def _by_id(self, hand_ids: Sequence[str]) -> list[HandRecord | None]:
        with self._lock:
            known = {r.hand_id: r for r in self._hands}
        return [known.get(hand_id) for hand_id in hand_ids]

    def pokerstars_for(
        self,
        player: str,
        hand_ids: Sequence[str] | None = None,
        limit: int = DEFAULT_LIMIT,
        *,
        table: str | None = None,
    ) -> str:
        """The player's hands (``hand_ids``, or his latest ``limit``, at ``table``
        if given) in PokerStars text, each as he saw it at the table. A hand id
        that is not one of his raises :class:`HandNotFoundError`."""
        if hand_ids is None:
            records = self._latest(limit, player=player, table=table)
        else:
            records = []
            for hand_id, found in zip(hand_ids, self._by_id(hand_ids), strict=True):
                if found is None or _seat_of(found, player) is None:
                    raise HandNotFoundError(f"no hand {hand_id!r} of yours")
                records.append(found)
        texts = []
        for record in records:
            seat = _seat_of(record, player)
            assert seat is not None
            texts.append(to_pokerstars(record, seat=seat))
        return HAND_SEPARATOR.join(texts)

    def pokerstars_for_operator(
        self,
        hand_ids: Sequence[str] | None = None,
        *,
        player: str | None = None,
        table: str | None = None,
        limit: int = DEFAULT_LIMIT,
    ) -> str:
        """Hands in PokerStars text with every card: ``hand_ids``, or the latest
        ``limit`` hands of ``player`` (or of the room), at ``table`` if given."""
        if hand_ids is None:
            records = self._latest(limit, player=player, table=table)
        else:
            records = []
            for hand_id, found in zip(hand_ids, self._by_id(hand_ids), strict=True):
                if found is None:
                    raise HandNotFoundError(f"no hand {hand_id!r}")
                records.append(found)
        return HAND_SEPARATOR.join(to_pokerstars(r, everything=True) for r in records)


def _seat_of(record: HandRecord, player: str) -> int | None:
    for seat in record.seats:
        if seat.name == player:
            return seat.seat
    return None
