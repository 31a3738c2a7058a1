"""The room's websocket protocol for uvicorn: many frames in one write, texts handed over at once.

uvicorn's websocket protocol (``websockets-sansio``) writes each message the app
sends with a system call of its own, after the ASGI layers; at a busy table an
action makes a handful of messages for each of its viewers. :class:`RoomWebSocketProtocol`
is that same protocol with one more way out, offered to the app in the scope's
extensions (:data:`SEND_TEXTS`): ``send_texts(texts, framed)`` writes all the given texts
as text frames in ONE write to the socket (a text framed for another connection in the
same call of the edge's flusher is taken from ``framed``, not framed again), and
returns how many bytes the socket still holds (a client that does not read is dropped
by the edge). Everything else (the handshake, reading, pings, closing) is uvicorn's.
The edge uses it when it is there (:class:`~stud8.server.edge.outbox.FrameOutbox`)
and the plain ASGI ``send`` when it is not (any other server, or uvicorn's default
protocol).

The way in is shortened the same way (:data:`RECEIVE_TEXTS`): once the app has given
a callback, each text message the client sends is handed to it as soon as its frame
is read, instead of going through the ASGI receive queue (which pauses the socket's
reading for every message and wakes the app's task to fetch it). The app still
``receive``s the disconnection (and any binary message) the ASGI way.

Frames are built here when no extension was negotiated (no compression): a frame
from server to client is its 2 to 10 byte header and the text's bytes. With
permessage-deflate (browsers ask for it) each text goes through the protocol's own
compressor, as uvicorn would send it.
"""

from __future__ import annotations

import logging
import struct
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from stud8.server.wire.limits import MAX_FRAME_BYTES

__all__ = [
    "RECEIVE_TEXTS",
    "SEND_TEXTS",
    "RoomWebSocketProtocol",
    "frame",
    "frames",
    "uvicorn_options",
]

SEND_TEXTS = "stud8.send_texts"
RECEIVE_TEXTS = "stud8.receive_texts"

log = logging.getLogger("stud8.server")


def frame(text: str) -> bytes:
    """One unmasked, uncompressed text frame (RFC 6455 section 5.2).

    >>> frame("hi")
    b'\\x81\\x02hi'
    >>> frame("x" * 200)[:4]
    b'\\x81~\\x00\\xc8'
    """
    data = text.encode()
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return struct.pack("!BBH", 0x81, 126, n) + data
    return struct.pack("!BBQ", 0x81, 127, n) + data


def frames(texts: list[str], framed: dict[str, bytes] | None = None) -> bytes:
    """The texts' frames, one after the other; ``framed`` keeps the frames made, by
    text, for the next connections of the same write (the flusher's).

    >>> kept: dict[str, bytes] = {}
    >>> frames(["hi", "x" * 200], kept)[:4], sorted(map(len, kept.values()))
    (b'\\x81\\x02hi', [4, 204])
    """
    if framed is None:
        framed = {}
    out: list[bytes] = []
    for text in texts:
        data = framed.get(text)
        if data is None:
            data = framed[text] = frame(text)
        out.append(data)
    return b"".join(out)


class RoomWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol with ``send_texts`` (see the module)."""

    _on_text: Callable[[str], None] | None = None

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the handshake goes on: the app runs with this scope
            scope["extensions"][SEND_TEXTS] = self.send_texts
            scope["extensions"][RECEIVE_TEXTS] = self.receive_texts

    def receive_texts(self, on_text: Callable[[str], None]) -> None:
        """From now on hand each text message to ``on_text`` as soon as it is read."""
        self._on_text = on_text

    def send_receive_event_to_app(self) -> None:
        on_text = self._on_text
        if on_text is None or self.curr_msg_data_type != "text" or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        try:
            text = data.decode()
        except UnicodeDecodeError:  # as uvicorn does: close with 1007
            self.logger.exception("Invalid UTF-8 sequence received from client.")
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return
        try:
            on_text(text)
        except Exception:  # the app's handler must not break the connection's reading
            log.exception("a websocket's text handler failed")

    def send_texts(self, texts: list[str], framed: dict[str, bytes] | None = None) -> int:
        """Write ``texts`` as text frames in one write; the bytes still to be sent.
        ``framed``: the frames made for other connections, by text (and kept there)."""
        transport = self.transport
        if self.close_sent or self.disconnected or transport.is_closing():
            raise ConnectionError("the websocket is closed")
        conn = self.conn
        if conn.extensions:
            for text in texts:
                conn.send_text(text.encode())
            transport.write(b"".join(conn.data_to_send()))
        else:
            transport.write(frames(texts, framed))
        return transport.get_write_buffer_size()


def uvicorn_options(*, room_protocol: bool = True) -> dict[str, Any]:
    """How uvicorn serves the room (``stud8 serve``, and the tests' servers): the
    websockets by :class:`RoomWebSocketProtocol` (``room_protocol=False``: uvicorn's
    own), and a message over ``MAX_FRAME_BYTES`` closes its socket (1009) before it
    is read, as its frame's header gives its length. uvicorn's own reading of
    ``X-Forwarded-For`` is off: the room reads it (:mod:`stud8.server.http.addresses`)."""
    return {
        "ws": RoomWebSocketProtocol if room_protocol else "auto",
        "ws_max_size": MAX_FRAME_BYTES,
        "proxy_headers": False,
    }
