"""The room's tables in its database: what they are and who sits where.

The database keeps every table the room opened (``room_tables``: its id, name,
:class:`~stud8.server.table.spec.TableSpec` as JSON, and when an operator closed it)
and who sits in which seat of it (``table_seats``: the player, a bot or not, and
the stack his auto top-up tops up to: the buy-in he sat with, raised by each top-up
of his own; null for a seat stored before revision 0012).
The chips are not kept here: a player's chips at a table are his ledger account
``table:<table>:<player>``, which a hand moves only when it ends. A seat row is
written in the same transaction as the buy-in that took the seat and deleted in
the same transaction as the cash-out that freed it
(:class:`~stud8.server.books.room.RoomBooks`), so a seat and its chips never
disagree. :mod:`stud8.server.room.restore` reads them back at startup.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime

from sqlalchemy import Connection, Engine, delete, insert, or_, select, update

from stud8.server.storage.db import session_factory
from stud8.server.storage.models import RoomTable, TableSeat
from stud8.server.table.spec import TableSpec


def spec_json(spec: TableSpec) -> str:
    return json.dumps(asdict(spec), sort_keys=True, separators=(",", ":"))


def spec_from_json(text: str) -> TableSpec:
    """A stored spec (fields this version does not know are ignored)."""
    data = json.loads(text)
    known = {f.name for f in fields(TableSpec)}
    return TableSpec(**{k: v for k, v in data.items() if k in known})


@dataclass(frozen=True, slots=True)
class StoredTable:
    table_id: str
    name: str
    spec: TableSpec
    closed: bool


@dataclass(frozen=True, slots=True)
class StoredSeat:
    seat: int
    player: str
    bot: bool
    top_up_to: int | None = None  # the stack he chose (None: stored before r0012)


class TableStore:
    """The ``room_tables`` and ``table_seats`` of a migrated database (blocking calls)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = session_factory(engine)

    # ------------------------------------------------------------ tables
    def save(self, table_id: str, name: str, spec: TableSpec) -> None:
        """Store a new table (its id must be new)."""
        with self._sessions.begin() as session:
            session.add(RoomTable(table_id=table_id, name=name, spec=spec_json(spec)))

    def close(self, table_id: str) -> None:
        """Mark a table closed: it does not come back."""
        with self._sessions.begin() as session:
            session.execute(
                update(RoomTable)
                .where(RoomTable.table_id == table_id, RoomTable.closed_at.is_(None))
                .values(closed_at=datetime.now(UTC))
            )

    def tables(self) -> list[StoredTable]:
        """Every table stored, open or closed, oldest first."""
        with self._sessions() as session:
            rows = session.scalars(select(RoomTable).order_by(RoomTable.id))
            return [
                StoredTable(r.table_id, r.name, spec_from_json(r.spec), r.closed_at is not None)
                for r in rows
            ]

    def table(self, table_id: str) -> StoredTable:
        """One stored table; LookupError if there is none."""
        with self._sessions() as session:
            row = session.scalars(select(RoomTable).where(RoomTable.table_id == table_id)).first()
            if row is None:
                raise LookupError(f"the room has no table {table_id}")
            return StoredTable(
                row.table_id, row.name, spec_from_json(row.spec), row.closed_at is not None
            )

    def open_ids(self) -> list[str]:
        """The ids of the tables not closed, oldest first."""
        with self._sessions() as session:
            query = select(RoomTable.table_id).where(RoomTable.closed_at.is_(None))
            return list(session.scalars(query.order_by(RoomTable.id)))

    def open_among(self, table_ids: Sequence[str]) -> set[str]:
        """Those of ``table_ids`` that are stored and not closed."""
        if not table_ids:
            return set()
        with self._sessions() as session:
            query = select(RoomTable.table_id).where(
                RoomTable.table_id.in_(list(table_ids)), RoomTable.closed_at.is_(None)
            )
            return set(session.scalars(query))

    # ------------------------------------------------------------ seats
    def seats(self, table_id: str) -> list[StoredSeat]:
        with self._sessions() as session:
            rows = session.scalars(
                select(TableSeat).where(TableSeat.table_id == table_id).order_by(TableSeat.seat)
            )
            return [StoredSeat(r.seat, r.player, r.bot, r.top_up_to) for r in rows]

    def sit(
        self, table_id: str, seat: int, player: str, bot: bool, top_up_to: int | None = None
    ) -> None:
        """``player`` sits in ``seat`` (replacing any row left for that seat), his
        auto top-up to ``top_up_to`` (his buy-in)."""
        with self.engine.begin() as conn:
            self.sit_in(conn, table_id, seat, player, bot, top_up_to)

    def stand(self, table_id: str, seat: int) -> None:
        """Nobody sits in ``seat`` any more."""
        with self.engine.begin() as conn:
            self.stand_in(conn, table_id, seat)

    @staticmethod
    def sit_in(
        conn: Connection,
        table_id: str,
        seat: int,
        player: str,
        bot: bool,
        top_up_to: int | None = None,
    ) -> None:
        TableStore.stand_in(conn, table_id, seat)
        conn.execute(
            insert(TableSeat).values(
                table_id=table_id, seat=seat, player=player, bot=bot, top_up_to=top_up_to
            )
        )

    @staticmethod
    def topped_up_in(conn: Connection, table_id: str, seat: int, player: str, stack: int) -> None:
        """``player`` topped his seat up to ``stack`` himself: his auto top-up tops up
        to that from now on, if it is more than it did (the table's own rule:
        :meth:`Seating.top_up <stud8.server.table.seating.Seating.top_up>`)."""
        conn.execute(
            update(TableSeat)
            .where(
                TableSeat.table_id == table_id,
                TableSeat.seat == seat,
                TableSeat.player == player,
                or_(TableSeat.top_up_to.is_(None), TableSeat.top_up_to < stack),
            )
            .values(top_up_to=stack)
        )

    @staticmethod
    def stand_in(conn: Connection, table_id: str, seat: int) -> None:
        conn.execute(
            delete(TableSeat).where(TableSeat.table_id == table_id, TableSeat.seat == seat)
        )
