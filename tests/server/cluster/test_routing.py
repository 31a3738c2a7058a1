"""A table's players sent to the node that runs it (issue 30, item 6: routing,
:mod:`stud8.server.cluster.routing`): with public addresses, a node that does not
run a table answers its websocket with ``redirect`` to the node that does, where the
player plays; without them, when the client asks to be relayed, or while the table
moves (its owner draining or gone), the node relays as before. A routing node's
pages may connect to the nodes' public websocket origins (their heartbeats'), so a
browser can follow the redirect; a node without a public address names none.

Two nodes of one room in this event loop (:mod:`server.cluster.inprocess`). Needs
the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import websockets
from redis.asyncio import Redis

from server.cluster.inprocess import (
    SPEC,
    Node,
    cluster,
    operator,
    owner,
    socket_origins,
    until,
)
from server.roomclient import Client, passive, play
from server.roomdb import free_port, fresh_database
from stud8.server.cluster.nodes import NodeInfo, Nodes, node_key
from stud8.server.cluster.routing import PublicOrigins, Routing, socket_origin, socket_url


async def open_t1(nodes: list[Node], redis_url: str) -> tuple[Node, Node]:
    """t1, opened through the first node: (the node that runs it, the other)."""
    boss = await operator(nodes[0])
    r = await nodes[0].http.post(
        "/api/v1/tables",
        json={"table_id": "t1", **SPEC},
        headers={"Authorization": f"Bearer {boss}"},
    )
    assert r.status_code == 201, r.text
    home = await owner(redis_url, "t1")
    here = next(n for n in nodes if n.node.name == home)
    return here, next(n for n in nodes if n is not here)


def connect_src(policy: str) -> list[str]:
    (directive,) = [d.strip() for d in policy.split(";") if d.strip().startswith("connect-src ")]
    return directive.split()[1:]


async def page_connects_to(node: Node) -> list[str]:
    """Where the node's page may open websockets (its policy's ``connect-src``)."""
    r = await node.http.get("/")
    assert r.status_code == 200
    return connect_src(r.headers["content-security-policy"])


async def first_message(node: Node, token: str, query: str = "") -> dict[str, object]:
    url = f"ws://127.0.0.1:{node.port}/ws/v1/tables/t1?token={token}{query}"
    async with websockets.connect(url) as ws:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert isinstance(message, dict)
    return message


def test_a_player_connecting_through_the_other_node_is_sent_to_the_owner_and_plays(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b"), public=True) as nodes:
            here, away = await open_t1(nodes, redis_url)
            # both nodes' pages may connect to both nodes (once a round noted them)
            both = sorted(f"ws://127.0.0.1:{n.port}" for n in nodes)
            await until(
                "both nodes' origins noted",
                lambda: all(socket_origins(n) == tuple(both) for n in nodes),
            )
            for node in nodes:
                assert await page_connects_to(node) == ["'self'", *both]
            ann, bob = await away.player("ann"), await here.player("bob")
            told = await first_message(away, ann)
            where = f"ws://127.0.0.1:{here.port}/ws/v1/tables/t1"
            assert told == {"t": "redirect", "d": {"url": where}}
            # she follows it: served by the node that runs the table, not relayed
            async with (
                websockets.connect(f"{where}?token={ann}") as ws1,
                here.connect(bob) as c2,
            ):
                c1 = Client(ws1)
                assert (await c1.recv())["t"] == "welcome"
                for client, seat in ((c1, 1), (c2, 2)):
                    reply = await client.command("sit", seat=seat, amount=200)
                    assert reply["t"] == "ack", reply
                    client.seat = seat
                played = await asyncio.gather(play(c1, 2, passive), play(c2, 2, passive))
                assert all(acks > 0 for acks in played)
            assert away.node.bus.counts.answered == 0  # nothing went over the bus for her
            # asked to be relayed (the owner's address did not answer her): served here
            assert (await first_message(away, ann, "&relay=1"))["t"] == "welcome"
            # the node that runs the table welcomes her itself
            assert (await first_message(here, ann))["t"] == "welcome"

    asyncio.run(asyncio.wait_for(main(), 90))


def test_without_public_addresses_the_other_node_relays(tmp_path: Path, redis_url: str) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as nodes:
            here, away = await open_t1(nodes, redis_url)
            for node in nodes:  # nothing routes: the pages connect home only
                assert socket_origins(node) is None
                assert await page_connects_to(node) == ["'self'"]
            ann, bob = await away.player("ann"), await here.player("bob")
            async with away.connect(ann) as c1, here.connect(bob) as c2:
                for client, seat in ((c1, 1), (c2, 2)):
                    reply = await client.command("sit", seat=seat, amount=200)
                    assert reply["t"] == "ack", reply
                    client.seat = seat
                played = await asyncio.gather(play(c1, 1, passive), play(c2, 1, passive))
                assert all(acks > 0 for acks in played)
            assert away.node.bus.counts.answered > 0  # her commands went over the bus

    asyncio.run(asyncio.wait_for(main(), 90))


class Directory:
    """A bus's directory as the routing reads it: who runs each table."""

    def __init__(self, owners: dict[str, str]) -> None:
        self.owners = owners

    def owner(self, table_id: str) -> str | None:
        return self.owners.get(table_id)


def test_a_table_moving_or_its_owner_without_an_address_is_relayed(redis_url: str) -> None:
    async def main() -> None:
        async with Redis.from_url(redis_url) as redis:
            me = Nodes(redis, "a", url="http://a.example", public=True)
            routing = Routing(Directory({"t1": "b", "t2": "a"}), me)

            async def beat(*, public: bool, draining: bool = False) -> None:
                heartbeat = NodeInfo("b", "https://b.example", 1, draining, time.time(), public)
                await redis.set(node_key("b"), heartbeat.to_json())

            assert await routing.elsewhere("t1") is None  # its owner is gone: moving
            await beat(public=True)
            assert await routing.elsewhere("t1") == "wss://b.example/ws/v1/tables/t1"
            assert await routing.elsewhere("t2") is None  # this node runs it
            assert await routing.elsewhere("t3") is None  # no such table
            await beat(public=True, draining=True)  # handing its tables over
            assert await routing.elsewhere("t1") is None
            await beat(public=False)  # reached only through the others
            assert await routing.elsewhere("t1") is None
        # Redis cannot be asked where the owner is: relayed, no error at the socket
        port = free_port()
        async with Redis.from_url(f"redis://127.0.0.1:{port}/0") as away:
            cut_off = Routing(Directory({"t1": "b"}), Nodes(away, "a", url="", public=True))
            assert await cut_off.elsewhere("t1") is None

    asyncio.run(asyncio.wait_for(main(), 30))
    assert socket_url("http://10.0.0.2:8001/", "t9") == "ws://10.0.0.2:8001/ws/v1/tables/t9"


def test_the_pages_may_connect_to_the_live_nodes_with_public_addresses() -> None:
    origins = PublicOrigins()
    assert origins() == ()
    beats = [
        NodeInfo("a", "http://10.0.0.1:8001/", 2, False, 0.0, True),
        NodeInfo("b", "https://b.example/room/", 1, True, 0.0, True),  # draining: still one
        NodeInfo("c", "http://10.0.0.3:8003", 0, False, 0.0, False),  # reached through others
        NodeInfo("d", "https://b.example", 0, False, 0.0, True),  # the same origin, once
    ]
    origins.note(beats)
    assert origins() == ("ws://10.0.0.1:8001", "wss://b.example")
    origins.note(beats[2:3])  # a and b gone
    assert origins() == ()
    assert socket_origin("https://b.example:8443/x/") == "wss://b.example:8443"
