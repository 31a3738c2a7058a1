"""Fencing: a table's books accept writes only from the node that owns the table now.

In a room on several nodes each table is owned by one node at a time (a lease in
Redis, :mod:`stud8.server.cluster.leases`). A lease can be lost without its holder
knowing at once: the node paused (SIGSTOP, a long GC, a swapped VM) or cut off from
Redis while another node took the table over. What keeps that node from moving a
chip afterwards is not Redis but the database: ``room_tables.epoch`` goes up by one
at each takeover (:func:`take_over`), the new owner writes with the new epoch, and
every write of a table's books first checks, **in its own transaction**, that the
epoch is still the one its node took (:meth:`TableEpochs.refusals`, through the
writer's :class:`~stud8.server.books.writer.Fenced` jobs: one read for every table
of a batch). On PostgreSQL the check locks the tables' rows (``SELECT ... FOR
UPDATE``), so a takeover and a write of the old owner are ordered: either the write
commits before the takeover (and the new owner sees it), or it sees the new epoch
and is refused with :class:`~stud8.server.table.books.BooksFenced` (nothing
written). On SQLite, one writer at a time gives the same order.

>>> import tempfile
>>> from stud8.server.storage import create_engine_for, upgrade
>>> from stud8.server.books.seats import TableStore
>>> from stud8.server.table.spec import TableSpec
>>> engine = create_engine_for(f"sqlite:///{tempfile.mkdtemp()}/room.db")
>>> upgrade(engine)
>>> TableStore(engine).save("t1", "Table 1", TableSpec())
>>> first, second = TableEpochs(engine, "n1"), TableEpochs(engine, "n2")
>>> first.take_over("t1"), second.take_over("t1")
(1, 2)
>>> with engine.begin() as conn:
...     second.check(conn, "t1")
...     first.check(conn, "t1")
Traceback (most recent call last):
...
stud8.server.table.books.BooksFenced: table t1 belongs to another node now (epoch 2; n1 holds 1)
>>> engine.dispose()
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from sqlalchemy import Connection, Engine, bindparam, select, update

from stud8.server.books.writer import Fenced, RoomWriter
from stud8.server.storage.models import RoomTable, TournamentRow
from stud8.server.table.books import BooksFenced

__all__ = ["FencedWriter", "TableEpochs", "TournamentEpochs"]

T = TypeVar("T")
K = TypeVar("K", str, int)  # a table's id, a tournament's

# the rows of the tables (tournaments) asked, locked, in one order on every node (by
# key: two writers locking some of the same rows cannot deadlock)
_TABLE_EPOCHS = (
    select(RoomTable.table_id, RoomTable.epoch)
    .where(RoomTable.table_id.in_(bindparam("keys", expanding=True)))
    .order_by(RoomTable.table_id)
    .with_for_update()
)
_TOURNAMENT_EPOCHS = (
    select(TournamentRow.id, TournamentRow.epoch)
    .where(TournamentRow.id.in_(bindparam("keys", expanding=True)))
    .order_by(TournamentRow.id)
    .with_for_update()
)


def _not_ours(
    what: str, node: str, keys: Sequence[K], held: Mapping[K, int], current: Mapping[K, int]
) -> dict[K, BooksFenced]:
    """The ``keys`` whose epoch now (``current``, read locked) is not the one this
    node took (``held``), each with its refusal."""
    refused: dict[K, BooksFenced] = {}
    for key in keys:
        ours, now = held.get(key), current.get(key)
        if ours is None or now != ours:
            refused[key] = BooksFenced(
                f"{what} {key} belongs to another node now (epoch {now}; "
                f"{node} holds {ours if ours is not None else 'none'})"
            )
    return refused


class TableEpochs:
    """The epochs of the tables this node (``node``) has taken over."""

    def __init__(self, engine: Engine, node: str) -> None:
        self.engine = engine
        self.node = node
        self._held: dict[str, int] = {}

    def take_over(self, table_id: str) -> int:
        """Take the table (its lease is ours): its epoch one higher, ours (blocking).
        LookupError if the room has no such table."""
        with self.engine.begin() as conn:
            epoch = conn.execute(
                update(RoomTable)
                .where(RoomTable.table_id == table_id)
                .values(epoch=RoomTable.epoch + 1, owner=self.node)
                .returning(RoomTable.epoch)
            ).scalar_one_or_none()
        if epoch is None:
            raise LookupError(f"the room has no table {table_id}")
        self._held[table_id] = epoch
        return epoch

    def held(self, table_id: str) -> int | None:
        return self._held.get(table_id)

    def let_go(self, table_id: str) -> None:
        """The table is no longer ours (closed, handed over): no write of it passes."""
        self._held.pop(table_id, None)

    def check(self, conn: Connection, table_id: str) -> None:
        """In a write's transaction: the table is still ours, or
        :class:`~stud8.server.table.books.BooksFenced` (and the write is undone)."""
        refused = self.refusals(conn, [table_id])
        if refused:
            raise refused[table_id]

    def refusals(self, conn: Connection, keys: Sequence[str]) -> dict[str, BooksFenced]:
        """In a write's transaction, one read for all of them: the tables of ``keys``
        no longer ours, each with its refusal; every one's row locked until the
        transaction ends."""
        rows = conn.execute(_TABLE_EPOCHS, {"keys": sorted(set(keys))})
        current = {str(row[0]): int(row[1]) for row in rows}
        return _not_ours("table", self.node, keys, self._held, current)

    def fence(self, table_id: str) -> Fenced:
        """A write of ``table_id``'s books: made only while the table is ours."""
        return Fenced(self, table_id)


class TournamentEpochs:
    """The epochs of the tournaments this node (``node``) has taken over: the same
    fencing as a table's, on ``tournaments.epoch`` (a tournament's owner writes its
    state, its money and its tables' hands; a node that lost it writes none)."""

    def __init__(self, engine: Engine, node: str) -> None:
        self.engine = engine
        self.node = node
        self._held: dict[int, int] = {}

    def take_over(self, tournament: int) -> int:
        """Take the tournament (its lease is ours): its epoch one higher, ours
        (blocking). LookupError if the room has no such tournament."""
        with self.engine.begin() as conn:
            epoch = conn.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament)
                .values(epoch=TournamentRow.epoch + 1, owner=self.node)
                .returning(TournamentRow.epoch)
            ).scalar_one_or_none()
        if epoch is None:
            raise LookupError(f"the room has no tournament {tournament}")
        self._held[tournament] = epoch
        return epoch

    def held(self, tournament: int) -> int | None:
        return self._held.get(tournament)

    def let_go(self, tournament: int) -> None:
        """The tournament is no longer ours: no write of it passes."""
        self._held.pop(tournament, None)

    def check(self, conn: Connection, tournament: int) -> None:
        """In a write's transaction: the tournament is still ours, or
        :class:`~stud8.server.table.books.BooksFenced` (and the write is undone)."""
        refused = self.refusals(conn, [tournament])
        if refused:
            raise refused[tournament]

    def refusals(self, conn: Connection, keys: Sequence[int]) -> dict[int, BooksFenced]:
        """The tournaments of ``keys`` no longer ours (one locked read; see
        :meth:`TableEpochs.refusals`)."""
        rows = conn.execute(_TOURNAMENT_EPOCHS, {"keys": sorted(set(keys))})
        current = {int(row[0]): int(row[1]) for row in rows}
        return _not_ours("tournament", self.node, keys, self._held, current)


class FencedWriter:
    """The room's writer for one tournament's owner task: every job first checks,
    in its own transaction, that this node still holds the tournament
    (:meth:`TournamentEpochs.check`), so a node that lost it writes nothing of it."""

    def __init__(self, writer: RoomWriter, epochs: TournamentEpochs, tournament: int) -> None:
        self.writer = writer
        self.epochs = epochs
        self.tournament = tournament

    async def call(self, work: Callable[[Connection], T], *, what: str) -> T:
        return await self.writer.call(work, what=what, fence=Fenced(self.epochs, self.tournament))

    async def drain(self) -> None:
        await self.writer.drain()
