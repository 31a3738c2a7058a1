"""The tables of a room on several nodes, kept in its database: :class:`ClusterKeeper`.

As in one process (:class:`~stud8.server.room.restore.RoomKeeper`), a new table's
definition is stored and a table closed by an operator is marked closed; but no
node brings the room's tables back at its start: the nodes take the tables that
have no owner, one by one, as they run (:mod:`stud8.server.cluster.node`). The
database's unique table id is what keeps two nodes from opening the same new id.
"""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError

from stud8.server.books.seats import TableStore
from stud8.server.room.lobby import Lobby, TableIdTaken
from stud8.server.table.spec import TableSpec

__all__ = ["ClusterKeeper"]


class ClusterKeeper:
    """The :class:`~stud8.server.room.lobby.TableKeeper` of a room on several nodes."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    def opened(self, table_id: str, name: str, spec: TableSpec) -> None:
        try:
            self.store.save(table_id, name, spec)
        except IntegrityError:
            raise TableIdTaken(f"the table id {table_id} was used before") from None

    def closed(self, table_id: str) -> None:
        self.store.close(table_id)

    async def restore(self, lobby: Lobby) -> bool:
        """Nothing to reopen here (the nodes take the tables as they run); whether
        the room has ever had a table."""
        return bool(self.store.tables())
