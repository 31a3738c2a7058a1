"""What a player does at a table of another node (issue 15, "any node serves any
player"): the waiting list and its seat offer, and one account connected through two
nodes at once.

Two nodes of one room in this event loop (:mod:`server.cluster.inprocess`). Needs
the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from server.cluster.inprocess import SPEC, Node, cluster, operator, owner
from server.roomclient import Client, Msg, passive, play, sit
from server.roomdb import fresh_database
from stud8.server.books.ledger import Ledger, table_account
from stud8.server.storage import create_engine_for


def kind(message: Msg) -> str | None:
    return message["d"]["k"] if message["t"] == "event" else None


async def open_t1(nodes: list[Node], redis_url: str, **spec: Any) -> tuple[Node, Node]:
    """t1 opened through the first node: (the node that runs it, another)."""
    boss = await operator(nodes[0])
    r = await nodes[0].http.post(
        "/api/v1/tables", json={"table_id": "t1", **SPEC, **spec},
        headers={"Authorization": f"Bearer {boss}"},
    )  # fmt: skip
    assert r.status_code == 201, r.text
    home = await owner(redis_url, "t1")
    here = next(n for n in nodes if n.node.name == home)
    away = next(n for n in nodes if n.node.name != home)
    return here, away


@contextlib.asynccontextmanager
async def playing(*clients: Client) -> AsyncIterator[None]:
    """The clients act passively on every turn of theirs (in tasks of their own)
    while the block runs; what they receive is kept in their ``messages``."""

    async def act(client: Client) -> None:
        while True:
            if client.turn is not None:
                turn, client.turn = client.turn, None
                await client.send("act", id=client.new_id(), **passive(turn))
            with contextlib.suppress(TimeoutError):
                await client.recv(timeout=0.5)

    tasks = [asyncio.create_task(act(c)) for c in clients]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def expect(client: Client, match: Any, start: int, timeout: float = 30) -> Msg:
    """The first message from ``start`` on that matches, among those read already
    (an event that came before a command's answer) or still to come."""
    for message in client.messages[start:]:
        if match(message):
            return message
    return await client.until(match, timeout)


async def seen(client: Client, match: Any, start: int = 0, timeout: float = 30) -> Msg:
    """The first message from ``start`` on that matches (read by :func:`playing`)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        for message in client.messages[start:]:
            if match(message):
                return message
        assert asyncio.get_running_loop().time() < deadline, client.messages[-5:]
        await asyncio.sleep(0.02)


def test_a_player_waiting_through_one_node_is_offered_a_seat_at_a_table_of_another(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as nodes:
            here, away = await open_t1(nodes, redis_url, seats=2)
            ann, bob = await here.player("ann"), await away.player("bob")
            cat, dan = await away.player("cat"), await here.player("dan")
            async with (
                here.connect(ann) as c1,
                away.connect(bob) as c2,
                away.connect(cat) as c3,
                here.connect(dan) as c4,
            ):
                await sit(here, c1, 1)
                await sit(away, c2, 2)
                # the table is full: cat, on the other node, waits
                full = await c3.command("sit", seat=2, amount=200)
                assert full["t"] == "reject", full
                mark = len(c3.messages)
                assert (await c3.command("join_waitlist"))["t"] == "ack"
                listed = await expect(c3, lambda m: kind(m) == "waiting_list", mark)
                assert listed["d"]["players"] == ["cat"]
                assert (await c3.command("join_waitlist"))["t"] == "reject"  # listed once
                # every node's lobby counts him
                for node in nodes:
                    tables = (await node.http.get("/api/v1/tables")).json()["tables"]
                    for _ in range(100):
                        if tables[0]["waiting"] == 1:
                            break
                        await asyncio.sleep(0.05)
                        tables = (await node.http.get("/api/v1/tables")).json()["tables"]
                    assert tables[0]["waiting"] == 1, tables
                async with playing(c1, c2):
                    mark = len(c2.messages)
                    await c2.send("leave", id="bob-leaves")
                    reply = await seen(
                        c2, lambda m: m["t"] in ("ack", "reject") and m["d"]["id"] == "bob-leaves",
                        mark,
                    )  # fmt: skip
                    assert reply["t"] == "ack", reply
                    # the seat frees (at the end of a hand in play): held for cat
                    offer = await c3.until(lambda m: kind(m) == "seat_offered", timeout=30)
                    assert (offer["d"]["seat"], offer["d"]["player"]) == (2, "cat")
                    # dan, on the owner's node, may not take the seat held for cat
                    held = await c4.command("sit", seat=2, amount=200)
                    assert held["t"] == "reject" and "held for cat" in held["d"]["reason"], held
                    mark = len(c3.messages)
                    assert (await c3.command("sit", seat=2, amount=150))["t"] == "ack"
                    c3.seat = 2
                    emptied = await expect(c3, lambda m: kind(m) == "waiting_list", mark)
                    assert emptied["d"]["players"] == []
                # cat plays at the table he waited for, through his node
                await asyncio.gather(play(c1, 1), play(c3, 1))
                assert c3.seat == 2
            assert "t1" in here.lobby.tables

    asyncio.run(asyncio.wait_for(main(), 120))
    engine = create_engine_for(pg)
    try:
        ledger = Ledger(engine)
        assert ledger.audit().ok
        balances = ledger.balances()
        assert balances.get(table_account("t1", "bob"), 0) == 0  # stood up, paid out
    finally:
        engine.dispose()
