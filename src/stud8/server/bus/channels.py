"""The keys and channels of a room on several nodes in Redis, and the envelope of a
bus message (:mod:`stud8.server.bus.redis`): a line of JSON (what the message is,
for whom, a request id), then the message itself as the codec writes it.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "DIRECTORY",
    "EVENTS_PREFIX",
    "PREFIX",
    "TABLES",
    "WAKE",
    "commands_channel",
    "events_channel",
    "pack",
    "replies_channel",
    "unpack",
]

PREFIX = "stud8:"
TABLES = f"{PREFIX}tables"
DIRECTORY = f"{PREFIX}dir"
WAKE = f"{PREFIX}wake"  # a table wants an owner: every node looks now


def events_channel(table_id: str) -> str:
    return f"{PREFIX}ev:{table_id}"


EVENTS_PREFIX = events_channel("")


def commands_channel(node: str) -> str:
    return f"{PREFIX}cmd:{node}"


def replies_channel(node: str) -> str:
    return f"{PREFIX}rep:{node}"


def pack(header: dict[str, Any], payload: bytes = b"") -> bytes:
    return json.dumps(header, separators=(",", ":")).encode() + b"\n" + payload


def unpack(data: bytes) -> tuple[dict[str, Any], bytes]:
    line, _, payload = data.partition(b"\n")
    header = json.loads(line)
    if not isinstance(header, dict):
        raise ValueError("a message's header is not an object")
    return header, payload
