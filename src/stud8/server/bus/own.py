"""This node's own tables as its bus sees them: each one's run, and whether its
events go to Redis at all (:class:`OwnTable`, used by
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

from stud8.server.bus import Following

__all__ = ["OwnTable"]


class OwnTable:
    """One table this node runs: its run's id, its channel, this node's following of
    it (what it forwards to Redis), and whether its events are published now (see
    the module)."""

    __slots__ = ("_since", "channel", "following", "publishing", "run")

    def __init__(self, run: str, channel: bytes) -> None:
        self.run = run  # this run of the table on this node: a new one when it moves
        self.channel = channel
        self.following: Following | None = None
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
