"""A connection's way out: the texts queued for one client, written in order.

The edge queues a text for a client without waiting (:meth:`Outbox.push`): a table
must never wait for a slow client. What is queued in a turn of the event loop and
the next is written together (:class:`Flusher`), so the several messages an action
makes (its events, the clock, the turn, and the ack to the player who acted) leave
in one write. A client that does not read
(more than ``limit`` texts waiting, or that many bytes not yet taken by the network)
is dropped: :attr:`Outbox.dropped` is set and ``on_drop`` is called (the socket is
closed, which ends the connection).

Two outboxes, one interface:

- :class:`FrameOutbox` writes frames straight to the socket, through the room's own
  websocket protocol (:mod:`stud8.server.http.websocket`), one system call for all
  the frames of a turn of the loop;
- :class:`AsgiOutbox` sends each text through the ASGI server's ``send``, from a
  task of its own: any ASGI server, and the tests' in-process one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from stud8.server.tasks import cancel_and_wait

__all__ = ["AsgiOutbox", "Flusher", "FrameOutbox", "Outbox", "WriteTexts"]

log = logging.getLogger("stud8.server")

# A connection's writer of many texts at once, given the frames already made in this
# call of the flusher (the same text goes to every viewer of a table: framed once);
# the bytes left in its buffer after.
WriteTexts = Callable[[list[str], dict[str, bytes]], int]


class Outbox(Protocol):
    dropped: asyncio.Event

    def push(self, text: str) -> None:
        """Queue ``text`` for the client (never blocks)."""
        ...

    async def close(self) -> None:
        """Stop writing (what is still queued is dropped: the client is gone)."""
        ...


class Flusher:
    """Writes the outboxes that have texts, all of them in one call of the event loop
    (one for the whole node, not one per connection).

    The call comes one turn of the loop late on purpose: a table's events are queued
    while its task runs, and the reply to the command that caused them (an ``ack``)
    in a callback the next turn; writing in the turn after that sends the events and
    the ack in the same write.

    The frames made for one connection are kept for the others of the same call (a
    table's event goes to each of its viewers as the same text: framed once)."""

    def __init__(self) -> None:
        self._due: list[FrameOutbox] = []

    def add(self, outbox: FrameOutbox) -> None:
        if not self._due:
            asyncio.get_running_loop().call_soon(self._next_turn)
        self._due.append(outbox)

    def _next_turn(self) -> None:
        asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        due, self._due = self._due, []
        framed: dict[str, bytes] = {}
        for outbox in due:
            outbox.flush(framed)


class FrameOutbox:
    """Texts written together at the end of each turn of the loop (see the module)."""

    def __init__(
        self,
        write: WriteTexts,
        *,
        flusher: Flusher | None = None,
        on_drop: Callable[[], None] = lambda: None,
        limit: int = 10_000,
        max_buffer: int = 4 << 20,
    ):
        self._flusher = flusher if flusher is not None else Flusher()
        self._write = write
        self._on_drop = on_drop
        self._limit = limit
        self._max_buffer = max_buffer
        self._texts: list[str] = []
        self._scheduled = False
        self._closed = False
        self.dropped = asyncio.Event()

    def push(self, text: str) -> None:
        if self._closed:
            return
        texts = self._texts
        texts.append(text)
        if not self._scheduled:
            self._scheduled = True
            self._flusher.add(self)
        elif len(texts) > self._limit:
            self._drop()

    def flush(self, framed: dict[str, bytes] | None = None) -> None:
        """Write what is queued (the flusher calls it at the end of the loop's turn,
        with the frames it made for other connections)."""
        self._scheduled = False
        texts, self._texts = self._texts, []
        if self._closed or not texts:
            return
        try:
            waiting = self._write(texts, {} if framed is None else framed)
        except Exception as exc:  # the socket is gone
            log.debug("a connection could not be written: %s", exc)
            self._drop()
            return
        if waiting > self._max_buffer:
            self._drop()  # the client does not read

    def _drop(self) -> None:
        self._closed = True
        self._texts = []
        if not self.dropped.is_set():
            self.dropped.set()
            self._on_drop()

    async def close(self) -> None:
        self._closed = True
        self._texts = []


class AsgiOutbox:
    """Texts sent one by one through an ASGI ``send``, from a writer task."""

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        *,
        on_drop: Callable[[], None] = lambda: None,
        limit: int = 10_000,
    ) -> None:
        self._send = send
        self._on_drop = on_drop
        self._limit = limit
        self._texts: list[str] = []
        self._ready = asyncio.Event()
        self.dropped = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._writer())

    def push(self, text: str) -> None:
        if self.dropped.is_set():
            return
        self._texts.append(text)
        if len(self._texts) > self._limit:
            self._drop()  # the client does not read
            return
        self._ready.set()

    def _drop(self) -> None:
        self._texts = []
        if not self.dropped.is_set():
            self.dropped.set()
            self._on_drop()

    async def _writer(self) -> None:
        try:
            while True:
                await self._ready.wait()
                self._ready.clear()
                texts, self._texts = self._texts, []
                for text in texts:
                    await self._send(text)
        except Exception as exc:  # the socket is gone
            log.debug("a connection could not be written: %s", exc)
            self._drop()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await cancel_and_wait(self._task)
