"""The hand records: every hand stored whole (RULES.md section 7).

:class:`HandStore` keeps

- ``hands``: one row per finished or cancelled hand, with its table, start and
  end times and the whole :class:`~stud8.formats.record.HandRecord` as JSON
  (``record.dumps()``: the deck order, every event with its time, every decision,
  the pots, the rake, who won what). A hand cancelled by a server restart has no
  record (the events were in memory only): it is stored as a *cancelled entry*
  with its players, their starting stacks and a note (see
  :mod:`stud8.server.books.recovery`);
- ``hand_players``: (hand, player, seat), so the hands of a player are found by
  an index;
- ``hands_in_progress``: a row written when a hand is dealt, before its cards
  (:meth:`HandStore.begin`) and deleted in the same database transaction that
  stores the hand's record (:meth:`HandStore.store`). A row still there at startup
  is a hand the server did not finish: recovery cancels it.

A player reads the hands he played in PokerStars text as he saw them at the
table (his own down cards, the others' only where shown:
:meth:`HandStore.pokerstars_for`); the operator sees every card
(:meth:`HandStore.pokerstars_for_operator`).

Writes are blocking calls (a few milliseconds on SQLite); each has a ``*_in``
form that writes in a connection's open transaction. The running room writes
through its :class:`~stud8.server.books.writer.RoomWriter`, from
:class:`~stud8.server.books.room.RoomBooks`: a hand's record lands in the
transaction of its settlement, which also removes its note.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, CursorResult, Engine, bindparam, delete, func, insert, select
from sqlalchemy.orm import Session

from stud8.formats.pokerstars.write import HAND_SEPARATOR, to_pokerstars
from stud8.formats.record import HandRecord
from stud8.server.storage.db import reads_of, session_factory
from stud8.server.storage.models import HandInProgress, HandPlayer, StoredHand, as_utc

# The statements every hand runs, built once.
_NOTED = select(HandInProgress.id).where(HandInProgress.hand_id == bindparam("hand_id"))
_NOTE = insert(HandInProgress)
_UNNOTE = delete(HandInProgress).where(HandInProgress.hand_id == bindparam("hand_id"))
_STORED = select(StoredHand.id).where(StoredHand.hand_id == bindparam("hand_id"))
_NEW_HAND = insert(StoredHand)
_NEW_PLAYER = insert(HandPlayer)

DEFAULT_LIMIT = 50
MAX_LIMIT = 1000


class HandNotFoundError(LookupError):
    """No such hand (or not one of the player's: the same message)."""


@dataclass(frozen=True, slots=True)
class SeatEntry:
    seat: int
    player: str
    stack: int  # at the start of the hand


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A stored hand: its record, or none for a hand cancelled by a restart."""

    hand_id: str
    table: str
    started_at: datetime | None
    ended_at: datetime
    cancelled: bool
    note: str
    seats: tuple[SeatEntry, ...]
    record: HandRecord | None

    def seat_of(self, player: str) -> int | None:
        for entry in self.seats:
            if entry.player == player:
                return entry.seat
        return None


@dataclass(frozen=True, slots=True)
class InProgress:
    """A hand dealt and not yet recorded."""

    hand_id: str
    table: str
    started_at: datetime
    seats: tuple[SeatEntry, ...]

    @property
    def players(self) -> dict[str, int]:
        """Each player's starting stack."""
        return {s.player: s.stack for s in self.seats}


def _now() -> datetime:
    return datetime.now(UTC)


def _seats_json(seats: Iterable[SeatEntry]) -> str:
    return json.dumps([[s.seat, s.player, s.stack] for s in seats], separators=(",", ":"))


def _seats_from_json(text: str) -> tuple[SeatEntry, ...]:
    return tuple(SeatEntry(int(s), str(p), int(c)) for s, p, c in json.loads(text))


class HandStore:
    """The hands of a room, on a migrated database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # its reads take no lock (hands are read while the room's writer writes)
        self._reads = session_factory(reads_of(engine))

    # ------------------------------------------------------------ in progress
    def begin(
        self,
        hand_id: str,
        table: str,
        seats: Mapping[int, tuple[str, int]],
        started_at: datetime | None = None,
    ) -> None:
        """Note a hand just dealt: ``seats`` maps each seat dealt in to (player,
        starting stack). Writing it twice changes nothing."""
        with self.engine.begin() as conn:
            self.begin_in(conn, hand_id, table, seats, started_at)

    @staticmethod
    def begin_in(
        conn: Connection,
        hand_id: str,
        table: str,
        seats: Mapping[int, tuple[str, int]],
        started_at: datetime | None = None,
    ) -> None:
        """:meth:`begin` in the connection's open transaction."""
        if conn.execute(_NOTED, {"hand_id": hand_id}).first() is not None:
            return
        entries = [SeatEntry(n, p, c) for n, (p, c) in sorted(seats.items())]
        values = {
            "hand_id": hand_id,
            "table_id": table,
            "started_at": started_at or _now(),
            "seats": _seats_json(entries),
        }
        conn.execute(_NOTE, values)

    def in_progress(self) -> list[InProgress]:
        """The hands dealt and not recorded, oldest first."""
        with self._reads() as session:
            rows = session.scalars(select(HandInProgress).order_by(HandInProgress.id))
            return [
                InProgress(r.hand_id, r.table_id, as_utc(r.started_at), _seats_from_json(r.seats))
                for r in rows
            ]

    # ------------------------------------------------------------ storing
    def store(self, record: HandRecord, ended_at: datetime | None = None) -> bool:
        """Store a finished (or cancelled) hand and close its in-progress row, in
        one transaction. False if the hand was already stored (nothing changes)."""
        with self.engine.begin() as conn:
            return self.store_in(conn, record, ended_at)

    @staticmethod
    def store_in(
        conn: Connection,
        record: HandRecord,
        ended_at: datetime | None = None,
        *,
        known_new: bool = False,
    ) -> bool:
        """:meth:`store` in the connection's open transaction; ``known_new``: the
        caller read in this transaction that the hand is not stored."""
        if not known_new and conn.execute(_STORED, {"hand_id": record.hand_id}).first():
            return False
        HandStore._add(
            conn,
            hand_id=record.hand_id,
            table=record.table,
            started_at=record.started_at,
            ended_at=ended_at or _now(),
            cancelled=record.cancelled,
            note="",
            record=record.dumps(),
            seats=[SeatEntry(s.seat, s.name, s.stack) for s in record.seats],
        )
        conn.execute(_UNNOTE, {"hand_id": record.hand_id})
        return True

    def close_unfinished(self, hand: InProgress, *, cancelled: bool, note: str) -> bool:
        """Store a hand the server did not finish (no record) and close its
        in-progress row, in one transaction. False if it was already stored."""
        with self.engine.begin() as conn:
            found = select(StoredHand.id).where(StoredHand.hand_id == hand.hand_id)
            stored = conn.execute(found).first()
            if stored is None:
                self._add(
                    conn,
                    hand_id=hand.hand_id,
                    table=hand.table,
                    started_at=hand.started_at,
                    ended_at=_now(),
                    cancelled=cancelled,
                    note=note[:500],
                    record=None,
                    seats=hand.seats,
                )
            conn.execute(delete(HandInProgress).where(HandInProgress.hand_id == hand.hand_id))
        return stored is None

    @staticmethod
    def _add(
        conn: Connection,
        *,
        hand_id: str,
        table: str,
        started_at: datetime | None,
        ended_at: datetime,
        cancelled: bool,
        note: str,
        record: str | None,
        seats: Sequence[SeatEntry],
    ) -> None:
        values = {
            "hand_id": hand_id,
            "table_id": table,
            "started_at": started_at,
            "ended_at": ended_at,
            "cancelled": cancelled,
            "note": note,
            "record": record,
        }
        ref = _new_id(conn.execute(_NEW_HAND, values))
        if seats:
            conn.execute(
                _NEW_PLAYER,
                [
                    {"hand_ref": ref, "player": s.player, "seat": s.seat, "stack": s.stack}
                    for s in seats
                ],
            )

    # ------------------------------------------------------------ reading
    def fetch(self, hand_id: str) -> HandSummary | None:
        """A stored hand, or None."""
        with self._reads() as session:
            row = session.scalar(select(StoredHand).where(StoredHand.hand_id == hand_id))
            return None if row is None else self._summary(session, row)

    def record(self, hand_id: str) -> HandRecord | None:
        """A stored hand's record (None if unknown, or cancelled by a restart)."""
        found = self.fetch(hand_id)
        return None if found is None else found.record

    def cut_short(self, table: str, limit: int = 3) -> list[str]:
        """The ids of the latest ``limit`` hands of ``table`` a restart or a failover
        cancelled (stored by :meth:`close_unfinished`, cancelled and without a
        record), the oldest first."""
        query = (
            select(StoredHand.hand_id)
            .where(StoredHand.table_id == table)
            .where(StoredHand.cancelled.is_(True))
            .where(StoredHand.record.is_(None))
            .order_by(StoredHand.id.desc())
            .limit(max(0, limit))
        )
        with self._reads() as session:
            return list(reversed(list(session.scalars(query))))

    def hands_of(
        self, player: str, limit: int = DEFAULT_LIMIT, *, table: str | None = None
    ) -> list[str]:
        """The ids of the hands the player played (at ``table``, if given), the
        latest first."""
        limit = max(0, min(limit, MAX_LIMIT))
        query = (
            select(StoredHand.hand_id)
            .join(HandPlayer, HandPlayer.hand_ref == StoredHand.id)
            .where(HandPlayer.player == player)
        )
        if table is not None:
            query = query.where(StoredHand.table_id == table)
        with self._reads() as session:
            return list(session.scalars(query.order_by(StoredHand.id.desc()).limit(limit)))

    def latest(self, limit: int = DEFAULT_LIMIT, *, table: str | None = None) -> list[str]:
        """The ids of the room's (or ``table``'s) latest hands, the latest first."""
        query = select(StoredHand.hand_id)
        if table is not None:
            query = query.where(StoredHand.table_id == table)
        with self._reads() as session:
            return list(
                session.scalars(
                    query.order_by(StoredHand.id.desc()).limit(max(0, min(limit, MAX_LIMIT)))
                )
            )

    def ids_for(
        self, player: str | None, limit: int = DEFAULT_LIMIT, *, table: str | None = None
    ) -> list[tuple[str, str, bool]]:
        """(hand id, table, has a record) of the latest ``limit`` hands of ``player``
        (of the room: None), at ``table`` if given, latest first."""
        limit = max(0, min(limit, MAX_LIMIT))
        query = select(StoredHand.hand_id, StoredHand.table_id, StoredHand.record.is_not(None))
        if player is not None:
            query = query.join(HandPlayer, HandPlayer.hand_ref == StoredHand.id).where(
                HandPlayer.player == player
            )
        if table is not None:
            query = query.where(StoredHand.table_id == table)
        with self._reads() as session:
            rows = session.execute(query.order_by(StoredHand.id.desc()).limit(limit))
            return [(str(h), str(t), bool(r)) for h, t, r in rows]

    def summaries_of(self, player: str, limit: int = DEFAULT_LIMIT) -> list[HandSummary]:
        """The hands the player played, the latest first."""
        ids = self.hands_of(player, limit)
        with self._reads() as session:
            rows = session.scalars(
                select(StoredHand).where(StoredHand.hand_id.in_(ids)).order_by(StoredHand.id.desc())
            )
            return [self._summary(session, row) for row in rows]

    def count(self) -> int:
        """How many hands are stored."""
        with self._reads() as session:
            return session.scalar(select(func.count()).select_from(StoredHand)) or 0

    def dealt_at(self, table: str) -> int:
        """How many hands ``table`` dealt: every one is stored once it ends, finished
        or cancelled (a mixed table's rotation goes on from it after a restart)."""
        query = select(func.count()).select_from(StoredHand).where(StoredHand.table_id == table)
        with self._reads() as session:
            return session.scalar(query) or 0

    def _summary(self, session: Session, row: StoredHand) -> HandSummary:
        links = session.scalars(
            select(HandPlayer).where(HandPlayer.hand_ref == row.id).order_by(HandPlayer.seat)
        )
        return HandSummary(
            hand_id=row.hand_id,
            table=row.table_id,
            started_at=as_utc(row.started_at) if row.started_at is not None else None,
            ended_at=as_utc(row.ended_at),
            cancelled=row.cancelled,
            note=row.note,
            seats=tuple(SeatEntry(p.seat, p.player, p.stack) for p in links),
            record=HandRecord.loads(row.record) if row.record is not None else None,
        )

    # ------------------------------------------------------------ PokerStars
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
        that is not one of his raises :class:`HandNotFoundError`. Hands cancelled
        by a restart have no history and are left out."""
        if hand_ids is None:
            hand_ids = self.hands_of(player, limit, table=table)
        return HAND_SEPARATOR.join(
            to_pokerstars(record, seat=seat) for record, seat in self._his(player, hand_ids, limit)
        )

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
        if hand_ids is None and player is not None:
            hand_ids = self.hands_of(player, limit, table=table)
        elif hand_ids is None:
            hand_ids = self.latest(limit, table=table)
        texts = []
        for hand_id in hand_ids:
            found = self.fetch(hand_id)
            if found is None:
                raise HandNotFoundError(f"no hand {hand_id!r}")
            if found.record is not None:
                texts.append(to_pokerstars(found.record, everything=True))
        return HAND_SEPARATOR.join(texts)

    def _his(
        self, player: str, hand_ids: Sequence[str] | None, limit: int
    ) -> list[tuple[HandRecord, int]]:
        ids = list(hand_ids) if hand_ids is not None else self.hands_of(player, limit)
        out: list[tuple[HandRecord, int]] = []
        for hand_id in ids:
            found = self.fetch(hand_id)
            seat = found.seat_of(player) if found is not None else None
            if found is None or seat is None:
                raise HandNotFoundError(f"no hand {hand_id!r} of yours")
            if found.record is not None:
                out.append((found.record, seat))
        return out


def _new_id(inserted: CursorResult[Any]) -> int:
    """The primary key of the row a Core insert just made."""
    key = inserted.inserted_primary_key
    assert key is not None
    return int(key[0])
