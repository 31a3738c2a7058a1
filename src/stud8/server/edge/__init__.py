"""The edge: the players' connections, between the clients and the bus.

:class:`Edge` keeps one :class:`~stud8.server.edge.channel.TableChannel` per table
that has viewers on this node (made when the first connects, dropped when the last
leaves) and serves each websocket as a :class:`~stud8.server.edge.connection.Connection`.
The edge reaches the tables only through the bus (:mod:`stud8.server.bus`), and what
a viewer may see is decided here (:mod:`stud8.server.edge.projection`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from stud8.server.bus import NoSuchTable, TableBus
from stud8.server.edge.channel import TableChannel
from stud8.server.edge.connection import Connection, Inlet, Receive
from stud8.server.edge.outbox import Flusher, Outbox
from stud8.server.edge.ratelimit import TokenBucket

__all__ = ["Edge", "Inlet", "NoSuchTable"]


@dataclass(eq=False, slots=True)
class _Shared:
    """A rate limit shared by connections (an account's, an address's), and how many;
    an account's auto top-up setting as this node knows it last (each Connect of his
    connections tells it, a table that moves to another node too)."""

    bucket: TokenBucket
    users: int = 0
    auto_top_up: bool = False


@dataclass(eq=False, slots=True)
class _Held:
    """A channel, its start, and how many connections use it."""

    channel: TableChannel
    started: asyncio.Future[None]
    users: int = 0


class Edge:
    """This node's connections to the room's tables (see the module)."""

    def __init__(
        self,
        bus: TableBus,
        *,
        rate: float = 20.0,
        burst: int = 40,
        account_rate: tuple[float, int] = (30.0, 60),
        address_rate: tuple[float, int] = (60.0, 120),
    ) -> None:
        self.bus = bus
        self.flusher = Flusher()  # the connections' writes, once per turn of the loop
        self.rate = rate
        self.burst = burst
        self.account_rate = account_rate
        self.address_rate = address_rate
        self._channels: dict[str, _Held] = {}
        # told each action's seconds, from its message to the table's answer (metrics)
        self.actions: Callable[[float], None] | None = None
        self.notices: list[str] = []  # the room's word to everyone (it is closing), encoded
        # the operator's message to everyone now (encoded), said after each welcome
        self.lobby_message: str | None = None
        # the buckets shared by the connections of one account, and of one address
        self._shared: dict[str, _Shared] = {}

    def _share(self, key: str, rate: tuple[float, int]) -> _Shared:
        shared = self._shared.get(key)
        if shared is None:
            shared = self._shared[key] = _Shared(TokenBucket(*rate))
        shared.users += 1
        return shared

    def _unshare(self, key: str) -> None:
        shared = self._shared.get(key)
        if shared is not None:
            shared.users -= 1
            if shared.users <= 0:
                del self._shared[key]

    async def _acquire(self, table_id: str) -> _Held:
        held = self._channels.get(table_id)
        if held is None or held.channel.closed:
            listed = self.bus.directory().get(table_id)
            if listed is None:
                raise NoSuchTable(table_id)
            channel = TableChannel(self.bus, table_id, listed)
            held = _Held(channel, asyncio.ensure_future(channel.start()))
            self._channels[table_id] = held
        held.users += 1
        try:
            await asyncio.shield(held.started)
        except BaseException:
            self._release(table_id, held)
            raise
        return held

    def _release(self, table_id: str, held: _Held) -> None:
        held.users -= 1
        if held.users <= 0 and self._channels.get(table_id) is held:
            del self._channels[table_id]
            held.channel.stop()
            held.started.cancel()  # if it is still starting

    def has_table(self, table_id: str) -> bool:
        return table_id in self.bus.directory()

    async def serve(
        self,
        table_id: str,
        player: str | None,
        outbox: Outbox,
        receive: Receive,
        *,
        last_seen: int | None = None,
        everything: bool = False,
        inlet: Inlet | None = None,
        address: str | None = None,
        close: Callable[[int, str], None] | None = None,
        auto_top_up: bool = False,
    ) -> None:
        """Serve one websocket at ``table_id`` until the client goes;
        :class:`NoSuchTable` if there is none. Its messages are limited by its own
        rate, and together with the other connections of its player and of its
        ``address`` by theirs; ``close`` closes the socket of a client that floods;
        ``auto_top_up``: the player's account setting, told the table on connecting."""
        keys = []
        if player is not None:
            keys.append((f"account:{player.casefold()}", self.account_rate))
        if address is not None:
            keys.append((f"address:{address}", self.address_rate))
        held = await self._acquire(table_id)
        shares = [self._share(key, rate) for key, rate in keys]
        shared = [share.bucket for share in shares]
        account = shares[0] if player is not None else None
        if account is not None:  # the latest read of his setting is his connections'
            account.auto_top_up = auto_top_up
        try:
            connection = Connection(
                held.channel,
                self.bus,
                player,
                outbox,
                everything=everything,
                rate=self.rate,
                burst=self.burst,
                shared=shared,
                close=close,
                meter=self.actions,
                notices=self._said_on_connect(),
                auto_top_up=lambda: account is not None and account.auto_top_up,
            )
            await connection.run(receive, last_seen, inlet)
        finally:
            for key, _ in keys:
                self._unshare(key)
            self._release(table_id, held)

    def auto_top_up_changed(self, player: str, on: bool) -> None:
        """``player`` changed his auto top-up setting: his connections here tell it
        with their next ``Connect`` (the table they play moved to another node)."""
        shared = self._shared.get(f"account:{player.casefold()}")
        if shared is not None:
            shared.auto_top_up = on

    def notice(self, text: str) -> int:
        """Send ``text`` (a message already encoded) to every connection of this node,
        and to each one that connects from now on; how many had it now."""
        self.notices.append(text)
        sent = 0
        for held in self._channels.values():
            for viewer in held.channel.viewers:
                viewer.push(text)
                sent += 1
        return sent

    def _said_on_connect(self) -> list[str]:
        shown = [] if self.lobby_message is None else [self.lobby_message]
        return [*self.notices, *shown]

    def show_lobby_message(self, text: str, *, shown: bool) -> int:
        """The operator's message changed: ``text`` (encoded) to every connection of
        this node, and, while ``shown`` (not withdrawn), to each that connects from
        now on; how many had it now."""
        self.lobby_message = text if shown else None
        sent = 0
        for held in self._channels.values():
            for viewer in held.channel.viewers:
                viewer.push(text)
                sent += 1
        return sent

    def close(self) -> None:
        """Stop following every table (the room is stopping)."""
        for held in self._channels.values():
            held.channel.stop()
            held.started.cancel()
        self._channels.clear()
