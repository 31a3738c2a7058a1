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
from functools import partial
from pathlib import Path
from typing import Any

from server.cluster.inprocess import SPEC, Node, cluster, eventually, lobby_tables, operator, owner
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
        "/api/v1/tables",
        json={"table_id": "t1", **SPEC, **spec},
        headers={"Authorization": f"Bearer {boss}"},
    )
    assert r.status_code == 201, r.text
    home = await owner(redis_url, "t1")
    here = next(n for n in nodes if n.node.name == home)
    away = next(n for n in nodes if n.node.name != home)
    return here, away


@contextlib.asynccontextmanager
async def playing(*clients: Client, watching: tuple[Client, ...] = ()) -> AsyncIterator[None]:
    """The clients act passively on every turn of theirs (in tasks of their own)
    while the block runs, those ``watching`` only read; what they receive is kept
    in their ``messages``."""

    async def act(client: Client, acts: bool) -> None:
        while True:
            if acts and (turn := client.take_turn()) is not None:
                await client.act(**passive(turn))
            with contextlib.suppress(TimeoutError):
                await client.recv(timeout=0.5)

    tasks = [asyncio.create_task(act(c, True)) for c in clients]
    tasks += [asyncio.create_task(act(c, False)) for c in watching]
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
                    await eventually(
                        "one waiting", partial(lobby_tables, node), lambda ts: ts[0]["waiting"] == 1
                    )
                async with playing(c1, c2):
                    mark = len(c2.messages)
                    await c2.send("leave", id="bob-leaves")
                    reply = await seen(
                        c2,
                        lambda m: m["t"] in ("ack", "reject") and m["d"]["id"] == "bob-leaves",
                        mark,
                    )
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


ACTIONS = {"bring_in", "complete", "bet", "raise", "call", "check", "fold"}


def actions_of(client: Client, seat: int, start: int) -> list[Msg]:
    return [m for m in client.messages[start:] if kind(m) in ACTIONS and m["d"]["seat"] == seat]


def answer_to(command_id: str) -> Any:
    return lambda m: m["t"] in ("ack", "reject") and m["d"].get("id") == command_id


def test_one_account_through_two_nodes_at_once_sees_one_seat_and_acts_once(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> int:
        async with cluster(pg, redis_url, ("a", "b")) as nodes:
            # a long clock and 2 s between hands: nothing is acted for her, and her
            # second fold cannot land in the next hand
            here, away = await open_t1(nodes, redis_url, action_seconds=60, between_hands=2)
            ann, bob = await away.player("ann"), await here.player("bob")
            # ann in two tabs: one on the node that runs the table, one on the other
            async with here.connect(ann) as tab1, here.connect(bob) as c2:
                mark = len(tab1.messages)
                async with away.connect(ann, ids="tab2-") as tab2:
                    await sit(away, tab2, 1)
                    sat = await expect(tab1, lambda m: kind(m) == "sit", mark)
                    assert sat["d"]["seat"] == 1 and sat["d"]["player"] == "ann", sat
                    tab1.seat = 1
                    # one seat for the account: not a second one from the other tab
                    again = await tab1.command("sit", seat=3, amount=100)
                    assert again["t"] == "reject", again
                    await sit(here, c2, 2)
                    async with playing(c2, watching=(tab1, tab2)):
                        # the same command through both nodes at once: applied once,
                        # and both tabs get the table's one answer
                        mark = len(tab1.messages)
                        turn = await seen(tab1, lambda m: m["t"] == "turn", mark)
                        await seen(tab2, lambda m: m["t"] == "turn")
                        act = passive(turn)
                        await asyncio.gather(
                            tab1.send("act", id="same", **act), tab2.send("act", id="same", **act)
                        )
                        for tab in (tab1, tab2):
                            assert (await seen(tab, answer_to("same")))["t"] == "ack"
                        acted = await seen(
                            tab1, lambda m: kind(m) in ACTIONS and m["d"]["seat"] == 1, mark
                        )
                        assert len(actions_of(tab1, 1, mark)) == 1
                        # her next turn: two folds from the two tabs at once (different
                        # ids): one is applied, the other refused (the hand is over for her)
                        mark = tab1.messages.index(acted) + 1
                        await seen(tab1, lambda m: m["t"] == "turn", mark)
                        await asyncio.gather(
                            tab1.send("act", id="one", kind="fold"),
                            tab2.send("act", id="two", kind="fold"),
                        )
                        answers = [
                            (await seen(tab1, answer_to("one")))["t"],
                            (await seen(tab2, answer_to("two")))["t"],
                        ]
                        assert sorted(answers) == ["ack", "reject"], answers
                        folds = [m for m in actions_of(tab1, 1, mark) if kind(m) == "fold"]
                        assert len(folds) == 1, folds
                    # she plays on through the owner's node; the other tab follows
                    marks = [len(tab1.messages), len(tab2.messages)]
                    async with playing(c2, tab1, watching=(tab2,)):
                        for tab, start in zip((tab1, tab2), marks, strict=True):
                            await seen(tab, lambda m: kind(m) == "hand_finish", start)
                        # she leaves through the other node
                        await tab2.send("leave", id="bye")
                        assert (await seen(tab2, answer_to("bye")))["t"] == "ack"
                        left = await seen(tab1, lambda m: kind(m) == "leave", marks[0])
                        await seen(tab2, lambda m: kind(m) == "leave", marks[1])
                    # both tabs saw the same table: every event both got is the same
                    one = {m["v"]: m["d"] for m in tab1.messages if m["t"] == "event"}
                    two = {m["v"]: m["d"] for m in tab2.messages if m["t"] == "event"}
                    common = sorted(set(one) & set(two))
                    assert len(common) > 20, common
                    assert [one[v] for v in common] == [two[v] for v in common]
                    chips: int = left["d"]["chips"]
                    return chips
        raise AssertionError("unreachable")

    chips = asyncio.run(asyncio.wait_for(main(), 120))
    engine = create_engine_for(pg)
    try:
        ledger = Ledger(engine)
        balances = ledger.balances()
        # her one seat's chips, back in her account once
        assert balances["bank:ann"] == 1000 - 200 + chips
        assert balances.get(table_account("t1", "ann"), 0) == 0
        assert ledger.audit().ok
    finally:
        engine.dispose()
