"""A player's websocket through picows (``bench_room.py --client picows``).

picows parses and masks frames in C and hands each frame to a listener's callback
from the event loop's ``data_received``: no task, no queue, no ``async for`` per
message. The ``websockets`` library does all that in Python, which made the load
generator, not the server, the limit of ``bench_room.py --instant`` on two cores.
Install it with ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from picows import WSCloseCode, WSFrame, WSListener, WSMsgType, WSTransport, ws_connect

TEXT = WSMsgType.TEXT
CONTINUATION = WSMsgType.CONTINUATION
CLOSE = WSMsgType.CLOSE


class PicowsLink(WSListener):
    """One connection: hands each text message to ``receive(text, when)`` with the
    time it was read, answers the server's close, and calls ``closed(how)`` when the
    connection ends."""

    def __init__(self, receive: Callable[[str, float], None], closed: Callable[[str], None]):
        self.receive = receive
        self.closed = closed
        self.transport: WSTransport | None = None
        self.parts: list[bytes] = []  # a fragmented message's frames so far

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        kind = frame.msg_type
        if kind is TEXT:
            if frame.fin:
                self.receive(frame.get_payload_as_utf8_text(), time.monotonic())
            else:
                self.parts = [frame.get_payload_as_bytes()]
        elif kind is CONTINUATION:
            self.parts.append(frame.get_payload_as_bytes())
            if frame.fin:
                text = b"".join(self.parts).decode()
                self.parts = []
                self.receive(text, time.monotonic())
        elif kind is CLOSE:
            # the closing handshake: answer with the server's code, then hang up
            transport.send_close(frame.get_close_code(), frame.get_close_message())
            transport.disconnect()

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        handshake = transport.close_handshake
        received = handshake.recv if handshake is not None else None
        if received is None:
            self.closed("the connection closed (no close frame)")
        else:
            self.closed(f"the connection closed ({received.code.value} {received.reason!r})")

    # the player's side

    def send(self, text: str) -> None:
        """Send a text message now (picows writes to the socket at once; after the
        connection has closed, nothing)."""
        transport = self.transport
        if transport is not None:
            transport.send(TEXT, text.encode())

    async def close(self) -> None:
        transport = self.transport
        if transport is None or transport.is_disconnected:
            return
        if not transport.is_close_frame_sent:
            transport.send_close(WSCloseCode.OK)
        try:
            await asyncio.wait_for(transport.wait_disconnected(), 5)
        except TimeoutError:
            transport.disconnect(graceful=False)

    def describe(self) -> str:
        transport = self.transport
        if transport is None:
            return "not connected"
        if transport.is_disconnected:
            state = "closed"
        elif transport.is_close_frame_sent:
            state = "closing"
        else:
            state = "open"
        name = transport.underlying_transport.get_extra_info("sockname")
        port = f" from port {name[1]}" if isinstance(name, tuple) else ""
        return f"socket {state}{port}"


async def connect(
    url: str, receive: Callable[[str, float], None], closed: Callable[[str], None]
) -> PicowsLink:
    """Open the websocket at ``url`` (the handshake may take up to 60 s under load)."""
    _, link = await ws_connect(
        lambda: PicowsLink(receive, closed),
        url,
        websocket_handshake_timeout=60,
        max_frame_size=2**20,
    )
    assert isinstance(link, PicowsLink)
    return link
