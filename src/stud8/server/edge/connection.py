"""One client's websocket at one table: a :class:`Connection`.

It reads each client message once (:func:`stud8.server.wire.client.parse_command`:
the message becomes the table's command, an action the engine's own), rate-limits
them (a token bucket per connection, and one shared by all the connections of its
player and one by all those of its address), answers a ``ping`` itself, refuses what an
observer or a closed table cannot do, and hands every command to the table through
the bus; the table's reply comes back as ``ack`` or ``reject`` (a repeated command
id is recognised by the table, which answers it as the first time).

What the table tells comes through the table's :class:`~stud8.server.edge.channel.TableChannel`,
already as this viewer may see it (a player his own down cards, an observer none,
an operator every card but in a hand he is dealt into). On connect: ``welcome``, then
what was missed since ``last_seen`` (or a snapshot), then the live events. A player's
connection (a viewer not logged in too, as ``ANONYMOUS``) tells the table ``Connect``
when it opens and ``Disconnect`` when it closes: the table counts them (a player with
two windows open is disconnected only when the last one closes; RULES.md section 6
does the rest; those without a seat are the lobby's observers). ``Connect`` carries
his account's auto top-up setting as this node knows it now (read when his socket
opened, changed by his settings' ``PUT`` here).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from stud8.server.bus import TableBus
from stud8.server.edge.channel import TableChannel, Viewer
from stud8.server.edge.outbox import Outbox
from stud8.server.edge.ratelimit import Throttle, TokenBucket
from stud8.server.table.commands import ANONYMOUS, Act, Connect, Disconnect, Reply
from stud8.server.wire.client import ChatMessage, PingMessage, parse_command
from stud8.server.wire.codec import ProtocolError
from stud8.server.wire.limits import MAX_MESSAGE_BYTES
from stud8.server.wire.rest import table_info
from stud8.server.wire.server import AckMessage, PongMessage, RejectMessage, WelcomeMessage

__all__ = ["Connection", "Inlet", "Receive"]

Receive = Callable[[], Coroutine[Any, Any, str | bytes | None]]  # None: the client is gone

RATE_LIMITED = "rate limit: too many messages, slow down"
FLOOD_REJECTS = 200  # messages over the rate limit in FLOOD_SECONDS: the socket is closed
FLOOD_SECONDS = 10.0


class Inlet:
    """Texts a client sends, handed over as they are read (by the room's websocket
    protocol, :mod:`stud8.server.http.websocket`): kept in order until the
    connection is ready to take them (:meth:`attach`), then passed on at once."""

    def __init__(self) -> None:
        self._kept: list[str] = []
        self._take: Callable[[str], None] | None = None

    def deliver(self, text: str) -> None:
        if self._take is None:
            self._kept.append(text)
        else:
            self._take(text)

    def attach(self, take: Callable[[str], None]) -> None:
        kept, self._kept = self._kept, []
        for text in kept:
            take(text)
        self._take = take


class Connection:
    """One client connected to one table, as ``player`` (None: an observer);
    ``everything``: an operator, who is shown every card (see the module)."""

    def __init__(
        self,
        channel: TableChannel,
        bus: TableBus,
        player: str | None,
        outbox: Outbox,
        *,
        everything: bool = False,
        rate: float = 20.0,
        burst: int = 40,
        shared: Sequence[TokenBucket] = (),
        close: Callable[[int, str], None] | None = None,
        now: Callable[[], float] = time.monotonic,
        meter: Callable[[float], None] | None = None,
        notices: Sequence[str] = (),
        auto_top_up: Callable[[], bool] = lambda: False,
    ) -> None:
        self.channel = channel
        self.table_id = channel.table_id
        self._bus = bus
        self.player = player
        self.everything = everything
        self.outbox = outbox
        self._bucket = TokenBucket(rate, burst, now)
        self._shared = tuple(shared)  # the account's and the address's buckets
        # a client that keeps sending over the limit is closed (1008), not answered
        # forever: ``close`` closes its socket
        self._close = close
        self._floods = Throttle(FLOOD_REJECTS, FLOOD_SECONDS, now=now)
        self.viewer = Viewer(player, everything, outbox.push, renewed=self._renewed)
        self._connected = False
        # told each action's seconds from its message to the table's answer (the metrics)
        self._meter = meter
        self._now = now
        self._notices = notices  # the room's word to everyone, said after the welcome
        self._auto_top_up = auto_top_up  # the account's setting now (told with Connect)

    # ------------------------------------------------------------ the connection
    async def run(
        self, receive: Receive, last_seen: int | None = None, inlet: Inlet | None = None
    ) -> None:
        """Serve the connection until the client goes (or must go). With an ``inlet``,
        the client's texts come through it; ``receive`` then gives only the end
        (and a binary message, if any)."""
        channel, player = self.channel, self.player
        welcome = WelcomeMessage(
            table_id=self.table_id,
            player=player,
            seat=channel.seat_of(player) if player is not None else None,
            table=table_info(channel.listed.table_id, channel.listed.name, channel.listed.spec),
        )
        self.outbox.push(welcome.encode(None))
        for notice in self._notices:
            self.outbox.push(notice)
        connected = False
        try:
            await channel.join(self.viewer, last_seen)
            if not channel.closed:
                await self._bus.send(self.table_id, self._connect(player or ANONYMOUS))
                connected = self._connected = True
            # until the client goes; a client that does not read is dropped by its
            # outbox, which closes the socket (and so ends this)
            if inlet is not None:
                inlet.attach(self.handle)
            while not self.outbox.dropped.is_set():
                text = await receive()
                if text is None:
                    break
                self.handle(text)
        finally:
            channel.leave(self.viewer)
            self._connected = False
            await self.outbox.close()  # the client is gone: what is still queued is dropped
            if connected:
                with contextlib.suppress(Exception):
                    await self._bus.send(self.table_id, Disconnect(player=player or ANONYMOUS))

    def _renewed(self) -> None:
        """The table starts again from a snapshot (it moved to another node): say
        again that this player is here, so he is dealt in."""
        if self._connected:
            self._bus.send(self.table_id, self._connect(self.player or ANONYMOUS))

    def _connect(self, player: str) -> Connect:
        return Connect(player=player, auto_top_up=self._auto_top_up())

    # ------------------------------------------------------------ incoming
    def handle(self, text: str | bytes) -> None:
        """Take one client message: answer it now or when the table has."""
        push = self.outbox.push
        size = len(text.encode() if isinstance(text, str) else text)
        if size > MAX_MESSAGE_BYTES:
            reason = f"message too large: {size} bytes (the limit is {MAX_MESSAGE_BYTES})"
            push(RejectMessage(None, reason).encode(None))
            return
        allowed = self._bucket.take() and all(bucket.take() for bucket in self._shared)
        if not allowed:
            self._floods.note("")
            if self._floods.wait("") and self._close is not None:
                self._close(1008, "flooding: too many messages over the rate limit")
                return
        try:
            message = parse_command(text)
        except ProtocolError as exc:
            reason = exc.reason if allowed else RATE_LIMITED
            push(RejectMessage(exc.command_id, reason).encode(None))
            return
        command_id = getattr(message, "id", None)
        assert isinstance(command_id, str)
        if not allowed:
            push(RejectMessage(command_id, RATE_LIMITED).encode(None))
            return
        if isinstance(message, PingMessage):
            push(PongMessage(command_id).encode(self.channel.last_seq))
            return
        if self.player is None:
            what = "chat" if isinstance(message, ChatMessage) else "play"
            reason = f"observers cannot {what}: log in to {'chat' if what == 'chat' else 'sit'}"
            push(RejectMessage(command_id, reason).encode(None))
            return
        if self.channel.closed:
            push(RejectMessage(command_id, "the table is closed").encode(None))
            return
        try:
            command = message.command(self.player)
        except ProtocolError as exc:
            push(RejectMessage(command_id, exc.reason).encode(None))
            return
        # handed over now, so commands reach the table in the order they came
        sent = self._bus.send(self.table_id, command)
        sent.add_done_callback(lambda done: self._answer(command_id, done))
        if self._meter is not None and isinstance(command, Act):
            sent.add_done_callback(self._timer(self._meter, self._now()))

    def _timer(
        self, meter: Callable[[float], None], started: float
    ) -> Callable[[asyncio.Future[Reply]], None]:
        def done(reply: asyncio.Future[Reply]) -> None:
            if not reply.cancelled() and reply.exception() is None and reply.result().ok:
                meter(self._now() - started)

        return done

    def _answer(self, command_id: str, done: asyncio.Future[Reply]) -> None:
        if done.cancelled() or done.exception() is not None:
            error = "stopped" if done.cancelled() else str(done.exception() or "stopped")
            reason = f"the table could not take it: {error}"
            self.outbox.push(RejectMessage(command_id, reason).encode(None))
            return
        reply = done.result()
        if reply.ok:
            self.outbox.push(AckMessage(command_id).encode(reply.seq))
        else:
            self.outbox.push(RejectMessage(command_id, reply.reason).encode(reply.seq))
