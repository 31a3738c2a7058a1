"""The room's nodes as the operator's console sees them, and drains them.

Read from Redis as the nodes themselves know each other: each live node's heartbeat
(:class:`~stud8.server.cluster.nodes.Nodes`: its tables, whether it drains), the
table (and tournament) leases it holds (:class:`~stud8.server.cluster.leases.Leases`), and the
players seated at the tables it holds (the bus's directory). A drain and its undo
are ``stud8 admin drain NODE [--undo]``'s (:func:`request_drain`,
:func:`cancel_drain`): the node reads them at its next round.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence

from stud8.server.bus import Listed
from stud8.server.cluster.leases import Leases, tournament_leases
from stud8.server.cluster.nodes import Nodes, cancel_drain, request_drain
from stud8.server.wire.admin import NodeLine

__all__ = ["ClusterConsole"]


class ClusterConsole:
    """What the console's Nodes section reads and does (see the module)."""

    def __init__(self, nodes: Nodes, leases: Leases, directory: Mapping[str, Listed]) -> None:
        self._nodes = nodes
        self._leases = leases
        self._tournament_leases = tournament_leases(leases.redis, leases.node)
        self._directory = directory  # the bus's, kept current by the bus

    async def owners(self, table_ids: Sequence[str]) -> dict[str, str | None]:
        return await self._leases.owners(table_ids) if table_ids else {}

    async def tournament_owners(self, tournament_ids: Sequence[int]) -> dict[int, str | None]:
        if not tournament_ids:
            return {}
        found = await self._tournament_leases.owners([str(t) for t in tournament_ids])
        return {int(t): owner for t, owner in found.items()}

    async def nodes(self) -> list[NodeLine]:
        live = await self._nodes.live()
        owners = await self.owners(sorted(self._directory))
        leases: Counter[str] = Counter()
        players: Counter[str] = Counter()
        for table_id, owner in owners.items():
            if owner is None:
                continue
            leases[owner] += 1
            listed = self._directory.get(table_id)
            if listed is not None:
                players[owner] += len(listed.status.players)
        now = time.time()
        return [
            NodeLine(
                name=node.name,
                url=node.url,
                tables=node.tables,
                players=players[node.name],
                leases=leases[node.name],
                draining=node.draining,
                beat_age=round(max(0.0, now - node.beat_at), 1),
            )
            for node in live
        ]

    async def drain(self, name: str, *, undo: bool = False) -> bool:
        if not any(node.name == name for node in await self._nodes.live()):
            return False
        redis = self._nodes.redis
        if undo:
            await cancel_drain(redis, name)
        else:
            await request_drain(redis, name)
        return True
