"""The keys and channels of a room on several nodes in Redis, and the envelope of a
bus message (:mod:`stud8.server.bus.redis`): a line of JSON (what the message is,
for whom, a request id), then the message itself as the codec writes it.

Keys live in the Redis database of the room's URL (``redis://host:6379/N``), but
pub/sub channels are shared by every database of a Redis: so a channel's name
carries the database's number too (:class:`Channels`), and two rooms on one Redis
never hear each other.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["DIRECTORY_LOG", "DIRECTORY_VERSION", "PREFIX", "TABLES", "Channels", "pack", "unpack"]

PREFIX = "stud8:"
TABLES = f"{PREFIX}tables"  # hash: the directory, an entry per open table
DIRECTORY_VERSION = f"{PREFIX}dirver"  # counter: one up at each change of the directory
DIRECTORY_LOG = f"{PREFIX}dirlog"  # sorted set: each table's id, scored with its last change


class Channels:
    """The pub/sub channels of a room whose keys are in Redis database ``db``, as
    bytes (what the connections send)."""

    def __init__(self, db: int = 0) -> None:
        self.prefix = f"{PREFIX}{db}:"
        self.directory = f"{self.prefix}dir".encode()
        self.wake = f"{self.prefix}wake".encode()
        self.events_prefix = f"{self.prefix}ev:".encode()
        self._events: dict[str, bytes] = {}

    def events(self, table_id: str) -> bytes:
        found = self._events.get(table_id)
        if found is None:
            found = self._events[table_id] = self.events_prefix + table_id.encode()
        return found

    def commands(self, node: str) -> bytes:
        return f"{self.prefix}cmd:{node}".encode()

    def replies(self, node: str) -> bytes:
        return f"{self.prefix}rep:{node}".encode()


def pack(header: dict[str, Any], payload: bytes = b"") -> bytes:
    return json.dumps(header, separators=(",", ":")).encode() + b"\n" + payload


def unpack(data: bytes) -> tuple[dict[str, Any], bytes]:
    line, _, payload = data.partition(b"\n")
    header = json.loads(line)
    if not isinstance(header, dict):
        raise ValueError("a message's header is not an object")
    return header, payload
