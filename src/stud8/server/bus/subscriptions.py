"""The followers of one table on a node of a room on several nodes, and where they
are fed from (:class:`Subscription`, used by :class:`~stud8.server.bus.redis.RedisBus`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stud8.server.table.events import Numbered

__all__ = ["Follower", "Subscription"]

log = logging.getLogger("stud8.server")


@dataclass(eq=False, slots=True)
class Follower:
    subscription: Subscription
    deliver: Callable[[Numbered], None]
    closed: Callable[[], None]
    lost: Callable[[], None] | None
    active: bool = True

    def close(self) -> None:
        if self.active:
            self.active = False
            self.subscription.drop(self)


@dataclass(eq=False, slots=True)
class Subscription:
    """This node's subscription to one table's events, shared by its followers."""

    table_id: str
    empty: Callable[[Subscription], None]  # its last follower left
    ready: asyncio.Future[None]
    followers: list[Follower] = field(default_factory=list)
    # where its events come from: this node's own table, followed directly, or
    # (another node runs it) its Redis channel
    local: Any = None
    remote: bool = False

    def drop(self, follower: Follower) -> None:
        if follower in self.followers:
            self.followers.remove(follower)
        if not self.followers:
            self.empty(self)

    def deliver(self, item: Numbered) -> None:
        for follower in tuple(self.followers):
            try:
                follower.deliver(item)
            except Exception:
                log.exception("a follower of table %s failed", self.table_id)
                follower.close()

    def tell(self, what: str) -> None:
        """Tell every follower the table closed (``closed``) or that events may
        have been lost (``lost``)."""
        for follower in tuple(self.followers):
            call = follower.closed if what == "closed" else follower.lost
            if call is None:
                continue
            try:
                call()
            except Exception:
                log.exception("a follower of table %s failed", self.table_id)
            if what == "closed":
                follower.close()
