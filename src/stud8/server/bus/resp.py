"""The bus's own two connections to Redis: lean, because every event of every table
goes through them (:class:`Publisher`, :class:`Subscriber`).

redis-py is used for everything else (leases, heartbeats, the directory's hash); for
the messages of the bus it cost more CPU than the rest of a node's work per action
(a pipeline object per batch, a parsed reply and a dict per message). Here a batch
of PUBLISH commands is one ``write`` of bytes packed by hiredis, their replies are
counted and dropped, and each message received is handed over as ``(channel,
data)`` straight from hiredis's parser, in the event loop's own ``data_received``.

A connection that drops is made again (with a pause that grows to a second); the
subscriber subscribes again to what it had and calls ``reconnected``, since what
was published meanwhile is lost (the bus then catches its tables up).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import ssl
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast
from urllib.parse import unquote, urlparse

import hiredis

from stud8.server.tasks import cancel_and_wait

__all__ = ["Publisher", "RedisAddress", "Subscriber", "command"]

log = logging.getLogger("stud8.server")

RETRY_FIRST = 0.05
RETRY_LAST = 1.0


@dataclass(frozen=True, slots=True)
class RedisAddress:
    """Where Redis is, from a ``redis://[[user]:password@]host[:port][/db]`` (or
    ``rediss://``) URL."""

    host: str
    port: int
    db: int
    username: str | None
    password: str | None
    tls: bool

    @classmethod
    def parse(cls, url: str) -> RedisAddress:
        parts = urlparse(url)
        if parts.scheme not in ("redis", "rediss"):
            raise ValueError(f"a Redis URL starts with redis:// or rediss://: {url!r}")
        path = parts.path.strip("/")
        try:
            db = int(path) if path else 0
        except ValueError:
            raise ValueError(f"the database of a Redis URL is a number, not {path!r}") from None
        return cls(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or 6379,
            db=db,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            tls=parts.scheme == "rediss",
        )


# hiredis's stub types its argument as a tuple of one item, and gives no result type
_pack = cast(Callable[[tuple[bytes, ...]], bytes], hiredis.pack_command)


def command(*args: bytes) -> bytes:
    """One command in Redis's protocol (RESP2), packed by hiredis (in C).

    >>> command(b"PUBLISH", b"t1", b"[5]")
    b'*3\\r\\n$7\\r\\nPUBLISH\\r\\n$2\\r\\nt1\\r\\n$3\\r\\n[5]\\r\\n'
    """
    return _pack(args)


class _Connection(asyncio.Protocol):
    """One connection: bytes out, replies to ``take``; ``lost`` when it ends."""

    def __init__(self, take: Callable[[object], None], lost: Callable[[], None]) -> None:
        self.take = take
        self.lost = lost
        self.reader = hiredis.Reader()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses: no isinstance
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        reader = self.reader
        reader.feed(data)
        take = self.take
        while True:
            reply = reader.gets()
            if reply is False:
                return
            take(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        self.lost()


class _Link:
    """A connection that is made again when it drops."""

    def __init__(self, address: RedisAddress, name: str) -> None:
        self.address = address
        self.name = name
        self.connection: _Connection | None = None
        self.closing = False
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._lost = asyncio.Event()

    async def _open(self) -> _Connection:
        loop = asyncio.get_running_loop()
        context = ssl.create_default_context() if self.address.tls else None
        _, protocol = await loop.create_connection(
            lambda: _Connection(self._reply, self._dropped),
            self.address.host,
            self.address.port,
            ssl=context,
        )
        hello: list[bytes] = []
        if self.address.password is not None:
            auth = [b"AUTH"]
            if self.address.username is not None:
                auth.append(self.address.username.encode())
            auth.append(self.address.password.encode())
            hello.append(command(*auth))
        if self.address.db:
            hello.append(command(b"SELECT", str(self.address.db).encode()))
        assert protocol.transport is not None
        if hello:
            self._expect_hello = len(hello)
            protocol.transport.write(b"".join(hello))
        return protocol

    _expect_hello = 0

    def _reply(self, reply: object) -> None:
        if self._expect_hello:
            self._expect_hello -= 1
            if isinstance(reply, hiredis.ReplyError):
                log.error("Redis refused %s's log-in: %s", self.name, reply)
            return
        self.received(reply)

    def received(self, reply: object) -> None:
        raise NotImplementedError

    def _dropped(self) -> None:
        self.connection = None
        self._ready.clear()
        self._lost.set()

    async def start(self) -> None:
        self.connection = await self._open()
        self._ready.set()
        await self.opened(first=True)
        self._task = asyncio.get_running_loop().create_task(self._keep(), name=self.name)

    async def opened(self, *, first: bool) -> None:
        """The connection is (again) made."""

    async def _keep(self) -> None:
        while not self.closing:
            await self._lost.wait()
            self._lost.clear()
            if self.closing:
                return
            log.warning("%s lost Redis", self.name)
            delay = RETRY_FIRST
            while not self.closing:
                try:
                    self.connection = await self._open()
                except OSError as exc:
                    log.debug("%s cannot reach Redis yet: %s", self.name, exc)
                    await asyncio.sleep(delay)
                    delay = min(2 * delay, RETRY_LAST)
                    continue
                self._ready.set()
                log.warning("%s has Redis again", self.name)
                await self.opened(first=False)
                break

    def write(self, data: bytes) -> bool:
        """Send bytes now; False if the connection is down (they are dropped)."""
        connection = self.connection
        if connection is None or connection.transport is None:
            return False
        connection.transport.write(data)
        return True

    async def close(self) -> None:
        self.closing = True
        self._lost.set()
        if self._task is not None:
            await cancel_and_wait(self._task)
        connection = self.connection
        if connection is not None and connection.transport is not None:
            connection.transport.close()


class Publisher(_Link):
    """Commands whose answers nobody waits for (PUBLISH, and the directory's HSET and
    HDEL), in batches, one write each, in order; :meth:`sent` waits for Redis to have
    taken everything written before it. A command may come with a callback that is
    given its answer (a PUBLISH's: how many subscribers received it).
    ``reconnected()`` is called once the connection is made again: what was handed
    over while it was down is lost (the bus writes its tables' entries again)."""

    def __init__(
        self,
        address: RedisAddress,
        name: str,
        reconnected: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(address, name)
        self.reconnected = reconnected
        self._written = 0  # commands written on this connection
        self._answered = 0
        self._waiting: list[tuple[int, asyncio.Future[None]]] = []
        self._heard: collections.deque[tuple[int, Callable[[object], None]]] = collections.deque()

    def received(self, reply: object) -> None:
        self._answered += 1
        heard = self._heard
        if heard and heard[0][0] == self._answered:
            heard.popleft()[1](reply)
        while self._waiting and self._waiting[0][0] <= self._answered:
            _, future = self._waiting.pop(0)
            if not future.done():
                future.set_result(None)

    async def opened(self, *, first: bool) -> None:
        # a new connection: what the old one had not answered is lost or done
        self._written = self._answered = 0
        self._heard.clear()  # those answers are lost with the old connection
        waiting, self._waiting = self._waiting, []
        for _, future in waiting:
            if not future.done():
                future.set_result(None)
        if not first and self.reconnected is not None:
            self.reconnected()

    def publish(self, messages: Iterable[tuple[bytes, bytes]]) -> int:
        """Publish ``(channel, data)`` pairs in one write; how many were sent (0 if
        Redis is away: they are lost, and the numbers of the events tell it)."""
        return self.send([command(b"PUBLISH", channel, data) for channel, data in messages])

    def send(
        self,
        commands: list[bytes],
        heard: Iterable[tuple[int, Callable[[object], None]]] = (),
    ) -> int:
        """Send commands (made by :func:`command`) in one write; how many were sent
        (0 if Redis is away: they are lost). Their answers are dropped but for
        ``heard``'s: ``(i, call)`` gives ``commands[i]``'s answer to ``call``, in
        order (``i`` ascending)."""
        if not commands or not self.write(b"".join(commands)):
            return 0
        written = self._written
        self._heard.extend((written + i + 1, call) for i, call in heard)
        self._written = written + len(commands)
        return len(commands)

    async def sent(self) -> None:
        """Once Redis has answered everything written so far (or the link dropped)."""
        if self._answered >= self._written or self.connection is None:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((self._written, future))
        await future


_BARRIER = command(b"PING", b"caught-up")


class Subscriber(_Link):
    """SUBSCRIBE and UNSUBSCRIBE; every message to ``deliver(channel, data)``, the
    confirmation of a subscription to ``subscribed(channel)``, and ``reconnected()``
    after the connection was made again (what was published meanwhile is lost)."""

    def __init__(
        self,
        address: RedisAddress,
        name: str,
        *,
        deliver: Callable[[bytes, bytes], None],
        subscribed: Callable[[bytes], None],
        reconnected: Callable[[], None],
    ) -> None:
        super().__init__(address, name)
        self.deliver = deliver
        self.subscribed = subscribed
        self.reconnected = reconnected
        self.channels: set[bytes] = set()
        self._barriers: collections.deque[Callable[[], None]] = collections.deque()

    def caught_up(self, done: Callable[[], None]) -> bool:
        """Call ``done`` once every message Redis sent this subscriber before now has
        been read (a PING's answer comes after them); False if the link is down. A
        busy loop reads a backlog a socket's read at a time: this is "read up to now"."""
        if not self.write(_BARRIER):
            return False
        self._barriers.append(done)
        return True

    def received(self, reply: object) -> None:
        if not isinstance(reply, list) or len(reply) < 2:
            return
        kind = reply[0]
        if kind == b"pong" and self._barriers:
            self._barriers.popleft()()
        elif len(reply) < 3:
            return
        elif kind == b"message":
            self.deliver(reply[1], reply[2])
        elif kind == b"subscribe":
            self.subscribed(reply[1])

    async def opened(self, *, first: bool) -> None:
        if self.channels:
            self.write(command(b"SUBSCRIBE", *sorted(self.channels)))
        if not first:
            barriers, self._barriers = self._barriers, collections.deque()
            for done in barriers:  # their answers were lost with the connection
                done()
            self.reconnected()

    def subscribe(self, *channels: bytes) -> None:
        new = [c for c in channels if c not in self.channels]
        self.channels.update(new)
        if new:
            self.write(command(b"SUBSCRIBE", *new))

    def unsubscribe(self, *channels: bytes) -> None:
        gone = [c for c in channels if c in self.channels]
        self.channels.difference_update(gone)
        if gone:
            self.write(command(b"UNSUBSCRIBE", *gone))
