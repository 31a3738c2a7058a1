"""Nodes of one room in the test's event loop, on one PostgreSQL and one Redis, each
served on 127.0.0.1 (:func:`cluster`): the shared helpers of the in-process cluster
tests. Every node started is closed when the block ends."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from functools import partial
from typing import Any, TypeVar

from redis.asyncio import Redis

from server.roomclient import Room
from server.roomdb import database_activity, free_port, serving
from stud8.server.admin import run_create_operator
from stud8.server.cluster.node import ClusterNode
from stud8.server.room.lobby import Lobby
from stud8.server.runtime import Room as ServerRoom
from stud8.server.runtime import open_cluster_room
from stud8.server.settings import Settings

T = TypeVar("T")

PACE = {"STUD8_BETWEEN_HANDS": "0.05", "STUD8_BOT_DELAY": "0", "STUD8_SHOWDOWN_SECONDS": "0"}
BOSS_PASSWORD = "Boss-Password-1"
STOP_SECONDS = 30  # a node's clean stop, its last hand played out on the clock
SPEC = {
    "min_buy_in": 40,
    "max_buy_in": 400,
    "bots": 0,
    "between_hands": 0.05,
    "showdown_seconds": 0,
}


class Node(Room):
    """One node, served on 127.0.0.1, as the websocket helpers know a room."""

    def __init__(self, port: int, room: ServerRoom, stack: AsyncExitStack) -> None:
        lobby: Lobby = room.app.state.room.lobby
        super().__init__(port, None, lobby)  # type: ignore[arg-type]
        self.room = room
        self.node: ClusterNode = room.app.state.node
        self._stack = stack

    async def stop(self) -> None:
        """Stop this node now, cleanly (as at the end of the block: once)."""
        await self._stack.aclose()


@asynccontextmanager
async def cluster(
    pg: str, redis_url: str, names: tuple[str, ...], **overrides: Any
) -> AsyncIterator[list[Node]]:
    """One node per name (``overrides``: the settings that differ from the tests' usual;
    ``public=True`` among them: each node given its address as its public URL, so
    players are sent to the node that runs their table)."""
    public = bool(overrides.pop("public", False))
    # the operator is made by the operator, before the nodes start (they find him)
    code = await asyncio.to_thread(run_create_operator, pg, "boss", lambda: BOSS_PASSWORD)
    assert code == 0
    async with AsyncExitStack() as stack:
        nodes: list[Node] = []
        for name in names:
            port = free_port() if public else 0
            if public:
                overrides["public_url"] = f"http://127.0.0.1:{port}"
            settings = Settings(
                database_url=pg,
                redis_url=redis_url,
                node=name,
                default_tables=0,
                operators=("boss",),
                starting_chips=1000,
                signups=1000,
            ).with_overrides(**overrides)
            room = await asyncio.to_thread(open_cluster_room, settings, PACE)
            own = await stack.enter_async_context(AsyncExitStack())
            own.callback(room.close)
            # a node stopped cleanly first plays its hands out: with the players gone,
            # on their clocks (the tests that leave a hand in play give it short ones)
            port = await own.enter_async_context(
                serving(
                    room.app,
                    stop_seconds=STOP_SECONDS,
                    stuck=partial(stuck, name, room, pg),
                    port=port,
                )
            )
            node = Node(port, room, own)
            own.push_async_callback(node.http.aclose)
            nodes.append(node)
        yield nodes


def stuck(name: str, room: ServerRoom, pg: str) -> str:
    """What a node that does not stop may be waiting for: its writer, the database."""
    writer = "no writer" if room.writer is None else room.writer.describe()
    return f"node {name}: its writer: {writer}; the database's connections:\n" + (
        database_activity(pg) if pg.startswith("postgresql") else "(SQLite)"
    )


def socket_origins(node: Node) -> tuple[str, ...] | None:
    """The nodes' websocket origins ``node``'s pages may connect to now, besides their
    own (None: it does not route)."""
    origins = node.room.app.state.room.socket_origins
    return None if origins is None else tuple(origins())


async def lobby_tables(node: Node) -> list[dict[str, Any]]:
    """The tables of ``node``'s lobby (``GET /api/v1/tables``)."""
    r = await node.http.get("/api/v1/tables")
    assert r.status_code == 200, r.text
    tables: list[dict[str, Any]] = r.json()["tables"]
    return tables


async def owner(redis_url: str, table_id: str) -> str:
    async with Redis.from_url(redis_url) as redis:
        value = await redis.hget("stud8:tables", table_id)
    assert isinstance(value, bytes)
    return value.split(b"\n", 1)[0].decode()


async def open_t1(
    nodes: tuple[Node, Node], redis_url: str, headers: dict[str, str]
) -> tuple[Node, Node]:
    """Table t1 (:data:`SPEC`) opened through the first node: (the node that runs it,
    the other)."""
    a, b = nodes
    r = await a.http.post("/api/v1/tables", json={"table_id": "t1", **SPEC}, headers=headers)
    assert r.status_code == 201, r.text
    return (a, b) if await owner(redis_url, "t1") == a.node.name else (b, a)


async def operator(node: Node) -> str:
    r = await node.http.post("/api/v1/login", json={"name": "boss", "password": BOSS_PASSWORD})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


async def until(what: str, condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Wait until ``condition()`` holds; fail saying ``what`` after ``seconds``."""
    began = time.monotonic()
    while not condition():
        assert time.monotonic() - began < seconds, f"not {what} after {seconds:g} s"
        await asyncio.sleep(0.05)


async def eventually(
    what: str, probe: Callable[[], Awaitable[T]], holds: Callable[[T], bool], seconds: float = 30.0
) -> T:
    """``probe()`` again until what it gives ``holds``; that answer (fail saying ``what``,
    and the last answer, after ``seconds``)."""
    began = time.monotonic()
    while not holds(found := await probe()):
        assert time.monotonic() - began < seconds, f"not {what} after {seconds:g} s: {found!r}"
        await asyncio.sleep(0.05)
    return found


async def rounds(node: Node, count: int, seconds: float = 60.0) -> None:
    """Wait until ``node`` has done ``count`` more rounds (what did not happen in them
    did not happen for want of time, however slow the machine)."""
    done = node.node.stats.rounds + count
    await until(
        f"{count} rounds of node {node.node.name}", lambda: node.node.stats.rounds >= done, seconds
    )
