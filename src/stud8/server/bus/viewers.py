"""The viewers other nodes connected to this node's tables, counted by node.

A table counts its connections from the ``Connect`` and ``Disconnect`` of each one
(:mod:`stud8.server.table.seating`: the lobby's observers, and a seated player
connected or not). A node that dies sends no ``Disconnect`` for the viewers it
served, so the table's owner keeps here, for each node that asked, what it
connected to each run of each table and did not disconnect; once that node is no
longer live (its heartbeat expired: :mod:`stud8.server.cluster.node` asks), its
viewers are disconnected for it (:meth:`RemoteViewers.gone`).

Counts are kept by the table's run on this node: a table that moves away and comes
back is a new run, whose viewers connect again, so an old count is never taken
twice from a table.

>>> viewers = RemoteViewers()
>>> viewers.note("n2", "t1", "run1", "ann", +1); viewers.note("n2", "t1", "run1", "ann", +1)
>>> viewers.note("n2", "t1", "run1", "ann", -1); viewers.nodes()
['n2']
>>> viewers.gone("n2")
[('t1', 'run1', 'ann', 1)]
>>> viewers.nodes()
[]
"""

from __future__ import annotations

from collections import Counter

__all__ = ["RemoteViewers"]


class RemoteViewers:
    """Each node's open connections to this node's tables (see the module)."""

    def __init__(self) -> None:
        # node -> (table, run) -> player -> connections
        self._by_node: dict[str, dict[tuple[str, str], Counter[str]]] = {}

    def note(self, node: str, table_id: str, run: str, player: str, change: int) -> None:
        """``node`` connected (``+1``) or disconnected (``-1``) ``player`` at the
        table's run ``run``."""
        tables = self._by_node.setdefault(node, {})
        players = tables.setdefault((table_id, run), Counter())
        players[player] += change
        if players[player] <= 0:
            del players[player]
            if not players:
                del tables[(table_id, run)]
                if not tables:
                    del self._by_node[node]

    def nodes(self) -> list[str]:
        """The nodes with a viewer connected here, by name."""
        return sorted(self._by_node)

    def gone(self, node: str) -> list[tuple[str, str, str, int]]:
        """``node`` is dead: its viewers, forgotten, as (table, run, player,
        connections)."""
        tables = self._by_node.pop(node, {})
        return [
            (table_id, run, player, n)
            for (table_id, run), players in sorted(tables.items())
            for player, n in sorted(players.items())
        ]

    def table_ended(self, table_id: str) -> None:
        """The table stopped running here (closed, or moved): its counts go with it."""
        for node in list(self._by_node):
            tables = self._by_node[node]
            for key in [k for k in tables if k[0] == table_id]:
                del tables[key]
            if not tables:
                del self._by_node[node]
