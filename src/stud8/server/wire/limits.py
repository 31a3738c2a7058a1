"""The protocol's limits, each defined once (``docs/protocol.md`` shows them from here)."""

from __future__ import annotations

MAX_MESSAGE_BYTES = 4096  # a client's websocket message
MAX_ID_CHARS = 64  # a command id
MAX_BODY_BYTES = 16 * 1024  # a REST request's body

LIMITS: dict[str, tuple[int, str]] = {
    "MAX_MESSAGE_BYTES": (MAX_MESSAGE_BYTES, "bytes in a client's websocket message"),
    "MAX_ID_CHARS": (MAX_ID_CHARS, "characters in a command id"),
    "MAX_BODY_BYTES": (MAX_BODY_BYTES, "bytes in a REST request's body"),
}
