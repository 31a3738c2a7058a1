"""The bus between nodes: the same four messages over Redis (:class:`RedisBus`).

In a room on several nodes every node runs some of the tables (those whose lease it
holds, :mod:`stud8.server.cluster`) and serves any player at any table. Its tables
run on a :class:`~stud8.server.bus.local.LocalBus` as in a single process; the
RedisBus joins the nodes' LocalBuses through Redis (lila-ws and lila's way):

============================  ==========================================================
``stud8:ev:<table>``          pub/sub: the table's numbered events, published once by its
                              owner while another node follows it (:mod:`.own`),
                              received by every node with a viewer of it
``stud8:cmd:<node>``          pub/sub: commands and catch-ups for the tables ``node`` runs
``stud8:rep:<node>``          pub/sub: the answers to ``node``'s commands and catch-ups
``stud8:dir``                 pub/sub: a table's directory entry changed (or is gone)
``stud8:wake``                pub/sub: a table wants an owner (the nodes look at once)
``stud8:tables``              hash: every open table's entry (its owner, the id of this
                              run of it, what it is, its last status), for a node that
                              starts or lost a message
``stud8:dirver``              counter: the directory's version, one up at each change
``stud8:dirlog``              sorted set: each table's id scored with the version of its
                              last change (so a node reads only what changed), the last
                              :data:`MAX_CHANGES` changes only
============================  ==========================================================

An event is the codec's bytes (:mod:`stud8.server.bus.codec`), encoded once however
many nodes receive it; a request to another node and its answer are typed messages
(:mod:`stud8.server.bus.requests`): a header's line, then the codec's bytes. What a
node does for the others (close a table, look for tables that want an owner, answer
for a tournament) it is given when it starts (:class:`RemoteHandlers`).

Pub/sub may lose messages (a node's connection to Redis drops). Nothing is lost
for good: the events are numbered, so a follower that sees a gap, or is told it
may have missed some (``lost``, after a reconnection), catches up from the table;
a command that gets no answer in :data:`REPLY_SECONDS` is answered "try again" (a
command carries its id, and the table answers a repeated id with its first answer,
so trying again is safe); and every :data:`DIRECTORY_SECONDS` a node reads what
changed in the directory since its last read: each change (one Lua script: the
entry, the version one up, the entry's version in the log, the message) is
numbered, so one small read says whether anything changed, and the entries that
did are read alone. The whole directory is read at the start, after Redis came
back, and every :data:`FULL_DIRECTORY_SECONDS` (the safety net).

A node follows its own tables directly (their LocalBus) and the others' through
``stud8:ev:<table>``; a table that moves to or from this node (its owner died, or
was drained) is followed from its new place by the same followers, who start
again from a snapshot (each run of a table numbers its events above the last).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from stud8.server.bus import Listed, NoSuchTable
from stud8.server.bus.asking import Asking, TableMoving, serve_telling
from stud8.server.bus.channels import (
    CHANGE_SCRIPT,
    CHANGES_SCRIPT,
    DIRECTORY_LOG,
    DIRECTORY_VERSION,
    TABLES,
    Channels,
)
from stud8.server.bus.codec import (
    BusCodecError,
    decode_catch_up,
    decode_command,
    decode_listed,
    decode_numbered,
    decode_reply,
    encode_catch_up,
    encode_command,
    encode_listed,
    encode_reply,
)
from stud8.server.bus.local import LocalBus
from stud8.server.bus.own import OwnTables
from stud8.server.bus.requests import (
    Answer,
    BusCounts,
    CatchUpRequest,
    CloseRequest,
    Refusal,
    RemoteHandlers,
    Request,
    SendRequest,
    TournamentRequest,
    read_request,
)
from stud8.server.bus.resp import Publisher, RedisAddress, Subscriber, command
from stud8.server.bus.subscriptions import Follower, Subscription
from stud8.server.bus.viewers import RemoteViewers
from stud8.server.table.commands import Command, Connect, Disconnect, Reply
from stud8.server.table.events import Numbered
from stud8.server.table.snapshot import CatchUp
from stud8.server.tasks import cancel_and_wait

__all__ = ["RedisBus", "RemoteHandlers", "TableMoving"]

log = logging.getLogger("stud8.server")

TABLES_KEY = TABLES.encode()
_DIRECTORY_KEYS = (TABLES_KEY, DIRECTORY_LOG.encode(), DIRECTORY_VERSION.encode())

REPLY_SECONDS = 5.0  # a command or catch-up not answered by then: "try again"
DIRECTORY_SECONDS = 5.0  # what changed in the directory read this often
FULL_DIRECTORY_SECONDS = 300.0  # the whole directory read again this often
MAX_CHANGES = 2000  # more changes than this since the last read: the whole read instead


@dataclass(frozen=True, slots=True)
class _Entry:
    node: str
    run: str  # this run of the table on its node: a new one when the table moves
    listed: Listed


class RedisBus:
    """The :class:`~stud8.server.bus.TableBus` of a room on several nodes (see the
    module). ``local`` carries this node's own tables."""

    def __init__(
        self,
        redis: Redis,
        node: str,
        local: LocalBus,
        *,
        url: str,
        reply_seconds: float = REPLY_SECONDS,
        directory_seconds: float = DIRECTORY_SECONDS,
        max_changes: int = MAX_CHANGES,
    ) -> None:
        self.redis = redis  # the hash of the directory (redis-py)
        self.address = RedisAddress.parse(url)  # pub/sub (the lean connections)
        self.channels = Channels(self.address.db)
        self.node = node
        self.local = local
        self.reply_seconds = reply_seconds
        self.directory_seconds = directory_seconds
        self.max_changes = max_changes
        self._entries: dict[str, _Entry] = {}
        self._listed: dict[str, Listed] = {}
        self._subscriptions: dict[str, Subscription] = {}
        # commands for Redis at the end of this turn of the loop, in order
        self._outgoing: list[bytes] = []
        # (the directory's entries of this node's tables are written again when
        # either link comes back: Redis may have restarted empty, and what was
        # handed to a link while it was down is lost)
        self._publisher = Publisher(self.address, f"node {node}'s bus (out)", self._relist)
        self._subscriber = Subscriber(
            self.address,
            f"node {node}'s bus (in)",
            deliver=self._received,
            subscribed=self._subscribed,
            reconnected=self._back,
        )
        self._heard: list[tuple[int, Callable[[object], None]]] = []  # (in _outgoing)
        self._viewers = RemoteViewers()  # the other nodes' connections to them
        self._missing: dict[str, int] = {}  # tables not in the hash at the last reads
        self._version = -1  # the directory's version at the last read (-1: read it whole)
        self._full_read_at = 0.0  # (the event loop's clock)
        self._changes = redis.register_script(CHANGES_SCRIPT)
        self._tasks: list[asyncio.Task[None]] = []
        self._serving: set[asyncio.Task[None]] = set()
        self._handlers: RemoteHandlers | None = None  # given at the start
        self.lost_messages = 0  # undecodable or failed (for the operator and tests)
        self.counts = BusCounts()  # what it carried (the metrics)
        self._own = OwnTables(self._queue, self.counts)  # this node's tables
        self._asking = Asking(  # this node's requests to the others, and their answers
            send=lambda node, data: self._send(self.channels.commands(node), data),
            caught_up=self._subscriber.caught_up,
            reply_seconds=reply_seconds,
            counts=self.counts,
        )

    # ------------------------------------------------------------ lifecycle
    async def start(self, handlers: RemoteHandlers) -> None:
        """Subscribe, read the directory, and publish this node's tables from now on;
        ``handlers`` do what the other nodes ask of this one."""
        self._handlers = handlers
        channels = self.channels
        self._commands = channels.commands(self.node)
        self._replies = channels.replies(self.node)
        await self._publisher.start()
        await self._subscriber.start()
        self._subscriber.subscribe(self._commands, self._replies, channels.directory, channels.wake)
        await self._read_directory()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._refresh(), name=f"bus-directory-{self.node}"),
        ]
        self.local.watch(self._local_changed)
        self._relist()

    async def close(self) -> None:
        """Stop (after this node's tables have closed or moved)."""
        await self.flush()
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            with contextlib.suppress(Exception):
                await cancel_and_wait(task)
        await asyncio.gather(*self._serving, return_exceptions=True)  # requests being answered
        self._asking.cancel_all()
        await self._subscriber.close()
        await self._publisher.close()

    async def flush(self) -> None:
        """Wait until every message handed over so far has gone to Redis."""
        self._publish_now()
        await asyncio.wait_for(self._publisher.sent(), 10)

    # ------------------------------------------------------------ this node's tables
    def _local_changed(self, table_id: str, listed: Listed | None, for_good: bool) -> None:
        subscription = self._subscriptions.get(table_id)
        if listed is None:
            self._own.end(table_id)
            self._viewers.table_ended(table_id)
            if for_good:
                self.unlist(table_id)
            elif subscription is not None:  # moving: its viewers here follow it elsewhere
                self._source(subscription)
            return  # moving: its entry is the next owner's
        channel = self.channels.events(table_id)
        own = self._own.start(
            table_id, channel, lambda forward: self.local.follow(table_id, forward, lambda: None)
        )
        if subscription is not None and subscription.local is None:
            self._source(subscription)  # it runs here now: followed directly
        run = own.run
        self._set_entry(table_id, _Entry(self.node, run, listed))
        value = f"{self.node}\n{run}\n".encode() + encode_listed(listed)
        self._change(table_id, value)

    def unlist(self, table_id: str) -> None:
        """The table is closed for good (not moving): off the room's directory."""
        self._drop_entry(table_id)
        self._change(table_id, b"")

    def _change(self, table_id: str, value: bytes) -> None:
        """The table's entry in the room's directory is ``value`` now (b"": gone),
        and every node is told (see :data:`~stud8.server.bus.channels.CHANGE_SCRIPT`)."""
        key = table_id.encode()
        news = (self.channels.directory, key + b"\n" + value)  # the channel, the message
        limit = b"%d" % self.max_changes
        self._queue(
            command(b"EVAL", CHANGE_SCRIPT, b"3", *_DIRECTORY_KEYS, key, value, *news, limit)
        )

    # ------------------------------------------------------------ the edge's side
    def send(self, table_id: str, command: Command) -> asyncio.Future[Reply]:
        entry = self._entries.get(table_id)
        if entry is None or self.local.hosts(table_id):
            return self.local.send(table_id, command)  # ours (or none: "closed")
        future: asyncio.Future[Reply] = self._asking.ask(
            entry.node,
            lambda n: SendRequest(n, self.node, table_id),
            encode_command(command),
            decode_reply,
        )
        return future

    async def catch_up(self, table_id: str, last_seen: int | None) -> CatchUp:
        entry = self._entries.get(table_id)
        subscription = self._subscriptions.get(table_id)
        if subscription is not None:  # events from now on are not missed
            await asyncio.wait_for(asyncio.shield(subscription.ready), self.reply_seconds)
        if self.local.hosts(table_id):
            return await self.local.catch_up(table_id, last_seen)
        if entry is None:
            raise NoSuchTable(table_id)
        future: asyncio.Future[CatchUp] = self._asking.ask(
            entry.node,
            lambda n: CatchUpRequest(n, self.node, table_id, last_seen),
            b"",
            decode_catch_up,
        )
        try:
            return await future
        except TimeoutError:
            raise TableMoving(table_id) from None

    def follow(
        self,
        table_id: str,
        deliver: Callable[[Numbered], None],
        closed: Callable[[], None],
        lost: Callable[[], None] | None = None,
    ) -> Follower:
        if table_id not in self._entries and not self.local.hosts(table_id):
            raise NoSuchTable(table_id)
        subscription = self._subscriptions.get(table_id)
        if subscription is None:
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            subscription = Subscription(table_id, self._unsubscribe, ready)
            self._subscriptions[table_id] = subscription
            self._source(subscription)
        follower = Follower(subscription, deliver, closed, lost)
        subscription.followers.append(follower)
        return follower

    def wake_all(self) -> None:
        """Tell every node that a table wants an owner (so the least loaded takes it
        now rather than at its next round)."""
        self._send(self.channels.wake, b"")

    async def close_remote(self, table_id: str) -> None:
        """Ask the node that runs the table to close it (for good);
        :class:`NoSuchTable` if none does."""
        entry = self._entries.get(table_id)
        if entry is None:
            raise NoSuchTable(table_id)
        future: asyncio.Future[None] = self._asking.ask(
            entry.node, lambda n: CloseRequest(n, self.node, table_id), b"", lambda _body: None
        )
        try:
            await future
        except TimeoutError:
            raise TableMoving(table_id) from None

    async def ask(self, node: str, payload: bytes, seconds: float) -> bytes:
        """``node``'s answer to a request for its tournament (TableMoving: none)."""
        future = self._asking.ask(
            node, lambda n: TournamentRequest(n, self.node), payload, bytes, seconds=seconds
        )
        try:
            return bytes(await future)
        except TimeoutError:
            raise TableMoving(f"the node {node} did not answer") from None

    def owner(self, table_id: str) -> str | None:
        """The node that runs the table, as the directory says (None: no such table)."""
        if self.local.hosts(table_id):
            return self.node
        entry = self._entries.get(table_id)
        return None if entry is None else entry.node

    def directory(self) -> Mapping[str, Listed]:
        return MappingProxyType(self._listed)

    async def _serve(self, data: bytes) -> None:
        """Answer another node's request about a table (or tournament) of this node;
        while it is worked on, tell the asker so every half of its wait."""
        request, payload = read_request(data)
        replies = self.channels.replies(request.sender)
        await serve_telling(
            request,
            self._answer(request, payload),
            lambda data: self._send(replies, data),
            self.reply_seconds / 2,
        )

    async def _answer(self, request: Request, payload: bytes) -> tuple[Answer, bytes]:
        handlers = self._handlers
        assert handlers is not None, "the bus serves once started"
        table_id = request.table
        error: Refusal | None = None
        body = b""
        if isinstance(request, TournamentRequest):
            if handlers.tournament is None:
                error = Refusal.MOVED
            else:
                body = await handlers.tournament(payload)  # its answer says what happened
        elif not self.local.hosts(table_id):
            error = Refusal.MOVED
        elif isinstance(request, SendRequest):
            sent = decode_command(payload)
            own = self._own.get(table_id)
            reply = await self.local.send(table_id, sent)
            if isinstance(sent, (Connect, Disconnect)) and reply.ok and own is not None:
                change = 1 if isinstance(sent, Connect) else -1
                self._viewers.note(request.sender, table_id, own.run, sent.player, change)
            body = encode_reply(reply)
        elif isinstance(request, CatchUpRequest):
            self._own.caught_up(table_id)  # it follows from now on (see bus/own.py)
            try:
                caught = await self.local.catch_up(table_id, request.last_seen)
            except NoSuchTable:
                error = Refusal.CLOSED
            else:
                body = encode_catch_up(caught)
        else:
            await handlers.close(table_id)
        return Answer(request.id, table_id, error), body

    def viewers_from(self) -> list[str]:
        """The other nodes with viewers connected to this node's tables."""
        return self._viewers.nodes()

    async def node_gone(self, node: str) -> int:
        """``node`` is dead: its viewers of this node's tables are disconnected (it
        cannot say so); how many connections."""
        sent = [
            self.local.send(table_id, Disconnect(player=player))
            for table_id, run, player, n in self._viewers.gone(node)
            if self._own.run_of(table_id) == run  # else that run and its counts are over
            for _ in range(n)
        ]
        if sent:
            await asyncio.gather(*sent, return_exceptions=True)
        return len(sent)

    # ------------------------------------------------------------ the directory
    def _set_entry(self, table_id: str, entry: _Entry) -> None:
        before = self._entries.get(table_id)
        self._entries[table_id] = entry
        self._listed[table_id] = entry.listed
        if before is not None and before.run != entry.run:
            # the table runs anew (on another node, or again on this one): its
            # followers start from a snapshot, even if it has nothing to say yet
            subscription = self._subscriptions.get(table_id)
            if subscription is not None:
                subscription.tell("lost")

    def _drop_entry(self, table_id: str) -> None:
        self._entries.pop(table_id, None)
        self._listed.pop(table_id, None)
        subscription = self._subscriptions.get(table_id)
        if subscription is not None:
            subscription.tell("closed")

    def _directory_message(self, data: bytes) -> None:
        table, _, value = data.partition(b"\n")
        table_id = table.decode()
        if not value:
            self._drop_entry(table_id)
            return
        self._take_entry(table_id, value)

    def _take_entry(self, table_id: str, value: bytes) -> None:
        node, run, listed = value.split(b"\n", 2)
        self._set_entry(table_id, _Entry(node.decode(), run.decode(), decode_listed(listed)))

    async def _read_changes(self) -> None:
        """Read what changed in the directory since the last read (the whole
        directory if this node cannot tell)."""
        now = asyncio.get_running_loop().time()
        if self._version < 0 or now >= self._full_read_at:
            await self._read_directory()
            return
        found = await self._changes(
            keys=[TABLES, DIRECTORY_LOG, DIRECTORY_VERSION], args=[self._version, self.max_changes]
        )
        version = int(found[0])
        if version < self._version or (len(found) == 2 and not found[1]):
            await self._read_directory()  # Redis restarted, or too much changed
            return
        if len(found) == 3:
            for key, value in zip(found[1], found[2], strict=True):
                table_id = key.decode() if isinstance(key, bytes) else str(key)
                if self.local.hosts(table_id):
                    continue  # ours: what we know is newer
                if value is None:
                    self._drop_entry(table_id)  # closed for good
                    continue
                try:
                    self._take_entry(table_id, value)
                except (BusCodecError, ValueError) as exc:
                    log.error(
                        "the directory's entry for table %s cannot be read: %s", table_id, exc
                    )
        self._version = version

    async def _read_directory(self) -> None:
        self._full_read_at = asyncio.get_running_loop().time() + FULL_DIRECTORY_SECONDS
        version = int(await self.redis.get(DIRECTORY_VERSION) or 0)  # before the entries
        entries = await self.redis.hgetall(TABLES)
        seen: set[str] = set()
        for key, value in entries.items():
            table_id = key.decode() if isinstance(key, bytes) else str(key)
            seen.add(table_id)
            if self.local.hosts(table_id):
                continue  # ours: what we know is newer
            try:
                self._take_entry(table_id, value if isinstance(value, bytes) else value.encode())
            except (BusCodecError, ValueError) as exc:
                log.error("the directory's entry for table %s cannot be read: %s", table_id, exc)
        for table_id in list(self._entries):
            if table_id in seen or self.local.hosts(table_id):
                self._missing.pop(table_id, None)
                continue
            # gone from the hash: closed (and its removal lost), or Redis restarted
            # empty and its owner has not listed it again yet: only the second miss
            # in a row drops it
            self._missing[table_id] = self._missing.get(table_id, 0) + 1
            if self._missing[table_id] >= 2:
                del self._missing[table_id]
                self._drop_entry(table_id)
        # (a missing entry is read whole again next time, until it is back or dropped)
        self._version = -1 if self._missing else version

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(self.directory_seconds)
            try:
                await self._read_changes()
            except (RedisError, OSError) as exc:
                log.warning("node %s cannot read the room's directory: %s", self.node, exc)

    # ------------------------------------------------------------ subscriptions
    def _source(self, subscription: Subscription) -> None:
        """Follow the table where it runs: this node's own table directly (no trip
        through Redis), else its Redis channel. Called again when it moves."""
        table_id = subscription.table_id
        if self.local.hosts(table_id):
            if subscription.local is None:
                subscription.local = self.local.follow(
                    table_id, subscription.deliver, lambda: self._moved(subscription)
                )
            if subscription.remote:
                subscription.remote = False
                self._unlisten(table_id)
            if not subscription.ready.done():
                subscription.ready.set_result(None)
            return
        if subscription.local is not None:
            subscription.local.close()
            subscription.local = None
        if not subscription.remote:
            subscription.remote = True
            self._subscribe(subscription)

    def _moved(self, subscription: Subscription) -> None:
        """This node's table left it while followed directly: follow it through Redis."""
        subscription.local = None
        if self._subscriptions.get(subscription.table_id) is subscription:
            self._source(subscription)

    def _unlisten(self, table_id: str) -> None:
        self._subscriber.unsubscribe(self.channels.events(table_id))

    def _subscribe(self, subscription: Subscription) -> None:
        # confirmed by Redis in order with what it publishes after: _subscribed; if
        # the connection is down, the reconnection subscribes it and says "lost"
        self._subscriber.subscribe(self.channels.events(subscription.table_id))

    def _unsubscribe(self, subscription: Subscription) -> None:
        if self._subscriptions.get(subscription.table_id) is subscription:
            del self._subscriptions[subscription.table_id]
            if subscription.local is not None:
                subscription.local.close()
                subscription.local = None
            if subscription.remote:
                subscription.remote = False
                self._unlisten(subscription.table_id)

    # ------------------------------------------------------------ reading and writing
    def _back(self) -> None:
        """Redis is back: what was published meanwhile is lost."""
        log.warning("node %s has Redis again", self.node)
        for subscription in tuple(self._subscriptions.values()):
            subscription.tell("lost")
        self._relist()  # Redis may have restarted empty
        self._version = -1  # the next read is whole
        self._spawn(self._read_directory())

    def _relist(self) -> None:
        """This node's tables listed again in the room's directory."""
        for table_id, listed in self.local.directory().items():
            self._local_changed(table_id, listed, False)

    def _subscribed(self, channel: bytes) -> None:
        prefix = self.channels.events_prefix
        if channel.startswith(prefix):
            found = self._subscriptions.get(channel[len(prefix) :].decode())
            if found is not None and not found.ready.done():
                found.ready.set_result(None)

    def _received(self, channel: bytes, data: bytes) -> None:
        """A message from Redis (in the event loop's reading of the socket)."""
        self.counts.received += 1
        prefix = self.channels.events_prefix
        try:
            if channel.startswith(prefix):
                found = self._subscriptions.get(channel[len(prefix) :].decode())
                if found is not None and found.remote:
                    found.deliver(decode_numbered(data))
            elif channel == self._replies:
                self._asking.answered(data)
            elif channel == self._commands:
                self._spawn(self._serve_logged(data))
            elif channel == self.channels.directory:
                self._directory_message(data)
            elif channel == self.channels.wake and self._handlers is not None:
                self._handlers.wake()
        except (BusCodecError, ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            self.lost_messages += 1
            log.error("node %s: a message on %r cannot be read: %s", self.node, channel, exc)

    async def _serve_logged(self, data: bytes) -> None:
        try:
            await self._serve(data)
        except (BusCodecError, ValueError, KeyError, TypeError) as exc:
            self.lost_messages += 1
            log.error("node %s: a request cannot be read: %s", self.node, exc)

    def _send(self, channel: bytes, data: bytes) -> None:
        """Publish at the end of this turn of the loop, with everything else handed
        over in it (the events of every table, the replies): one write to Redis."""
        self._queue(command(b"PUBLISH", channel, data))

    def _queue(self, request: bytes, heard: Callable[[object], None] | None = None) -> None:
        """``request`` to Redis at the end of this turn; its answer to ``heard``."""
        if not self._outgoing:
            asyncio.get_running_loop().call_soon(self._publish_now)
        if heard is not None:
            self._heard.append((len(self._outgoing), heard))
        self._outgoing.append(request)

    def _publish_now(self) -> None:
        requests, self._outgoing = self._outgoing, []
        heard, self._heard = self._heard, []
        if requests and not self._publisher.send(requests, heard):
            self.lost_messages += len(requests)  # Redis is away: the numbers tell
        else:
            self.counts.published += len(requests)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)
