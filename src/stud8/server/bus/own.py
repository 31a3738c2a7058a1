"""This node's own tables as its bus sees them: each one's run, and whether its
events go to Redis at all (:class:`OwnTables`, held by
:class:`~stud8.server.bus.redis.RedisBus`).

An event published on a channel no node listens to is work for nothing: the
codec's bytes, the write, Redis's own fan-out. With routing
(:mod:`stud8.server.cluster.routing`) most tables have no viewer on another node,
and the table's owner still paid for every event. So the owner publishes a table's
events only while another node may follow it, and learns which from two things
the bus does anyway:

- a node that follows another's table subscribes to its channel, waits for Redis to
  confirm it, and only then asks the owner to catch it up (the edge's channel does
  so when it starts, and after anything may have been lost: a gap, a reconnection,
  a new run of the table). The owner turns publishing on *before* it answers, so
  every event after the answer is published on a channel the follower already
  hears, and the answer covers the rest;
- Redis answers each PUBLISH with how many subscribers received it. An answer of 0
  to an event published *after* the last catch-up turns publishing off; an answer
  to one published before it says nothing about the follower who asked since.

A new run starts publishing (its first event's answer tells whether anyone
listens), so a follower from the previous run loses nothing while it catches up.

>>> table = OwnTable("run1", b"stud8:ev:t1")
>>> table.heard(1, 0); table.publishing      # nobody heard event 1: off
False
>>> table.caught_up(queued=3); table.publishing  # a node asked: on
True
>>> table.heard(2, 0); table.publishing      # sent before the catch-up: no news
True
>>> table.heard(4, 0); table.publishing      # sent after it, and nobody heard it
False
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import partial

from stud8.server.bus import Following
from stud8.server.bus.codec import encode_numbered
from stud8.server.bus.requests import BusCounts
from stud8.server.bus.resp import command
from stud8.server.table.events import Numbered

__all__ = ["OwnTable", "OwnTables"]

# the bus's queue of commands for Redis: a command, and who is given its answer
QueueCommand = Callable[[bytes, Callable[[object], None] | None], None]


class OwnTable:
    """One table this node runs: its run's id, its channel, and whether its events
    are published now (see the module)."""

    __slots__ = ("_since", "channel", "publishing", "run")

    def __init__(self, run: str, channel: bytes) -> None:
        self.run = run  # this run of the table on this node: a new one when it moves
        self.channel = channel
        self.publishing = True
        self._since = 0  # the bus's count of queued events at the last catch-up

    def caught_up(self, queued: int) -> None:
        """A node asked to be caught up, ``queued`` events after the bus's first:
        publish from now on."""
        self.publishing = True
        self._since = queued

    def heard(self, number: int, listeners: object) -> None:
        """Redis's answer to the bus's ``number``-th published event: how many
        subscribers received it."""
        if listeners == 0 and number > self._since:
            self.publishing = False


class OwnTables:
    """The tables this node runs, by id, each an :class:`OwnTable`; their events
    go to ``queue`` (the bus's commands for Redis) while another node may hear
    them."""

    def __init__(self, queue: QueueCommand, counts: BusCounts) -> None:
        self._queue = queue
        self._counts = counts
        self._tables: dict[str, OwnTable] = {}
        self._following: dict[str, Following] = {}  # each one's events, forwarded
        self._queued = 0  # events queued for Redis so far, every table's

    def get(self, table_id: str) -> OwnTable | None:
        return self._tables.get(table_id)

    def run_of(self, table_id: str) -> str | None:
        """The id of the table's run here (None: it does not run here)."""
        table = self._tables.get(table_id)
        return None if table is None else table.run

    def start(
        self,
        table_id: str,
        channel: bytes,
        follow: Callable[[Callable[[Numbered], None]], Following],
    ) -> OwnTable:
        """The table runs here: a new run, its events followed (``follow``) and
        forwarded to ``channel``; the same if it runs here already."""
        table = self._tables.get(table_id)
        if table is None:
            table = self._tables[table_id] = OwnTable(uuid.uuid4().hex[:16], channel)
            self._following[table_id] = follow(partial(self._forward, table))
        return table

    def end(self, table_id: str) -> None:
        """The table stopped running here (closed, or moved)."""
        self._tables.pop(table_id, None)
        following = self._following.pop(table_id, None)
        if following is not None:
            following.close()

    def caught_up(self, table_id: str) -> None:
        """Another node asks to be caught up on the table (see the module)."""
        table = self._tables.get(table_id)
        if table is not None:
            table.caught_up(self._queued)

    def _forward(self, table: OwnTable, item: Numbered) -> None:
        if not table.publishing:
            self._counts.unpublished += 1
            return
        self._queued += 1
        request = command(b"PUBLISH", table.channel, encode_numbered(item))
        self._queue(request, partial(table.heard, self._queued))
