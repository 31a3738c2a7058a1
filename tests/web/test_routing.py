"""The browser's table socket told to go to the node that runs the table (issue 30,
item 6, ``web/socket.js``), in Debian's Chromium at 1366x768, on two nodes on
127.0.0.1 with public addresses (two ports: two origins). A player whose lobby the
node that does not run t1 served is sent ``redirect`` by it:

* her page's Content-Security-Policy names both nodes' websocket origins
  (``connect-src``, from their heartbeats), so she follows it: the node that runs
  the table serves her socket (nothing of hers crosses the bus) and she plays there;
* a page whose policy does not name the owner's address (served before the owner
  came back at another one: here its node's address as ``localhost``, another
  origin) cannot follow it, so the socket comes back to its own node asking to be
  relayed (``relay=1``), and she plays there.

The nodes run in a thread of their own (as in ``test_admin_nodes``). Needs the
scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, WebSocket

from server.cluster.inprocess import (
    SPEC,
    Node,
    cluster,
    operator,
    owner,
    socket_origins,
    until,
)
from server.conftest import redis_server_url, redis_url  # noqa: F401 (the fixtures)
from server.roomdb import fresh_database
from stud8.server.cluster.routing import socket_origin

from .roomkit import HAND_OVER, LAPTOP, play, screenshot, sit, wait_state

# her turns, once her page is closed, run out well within a node's clean stop (its
# hand played out), and long enough for a browser on a busy machine to act in
CLOCK = {"action_seconds": 10, "time_bank_seconds": 0, "reconnect_seconds": 0}


@contextmanager
def two_public_nodes(pg: str, redis: str) -> Iterator[tuple[Node, Node]]:
    """Nodes a and b with public addresses and table t1: (its owner, the other), once
    each knows both nodes' addresses (its pages' policy names both)."""
    started: queue.Queue[tuple[Node, Node] | BaseException] = queue.Queue()
    stop = threading.Event()

    async def run() -> None:
        try:
            async with cluster(pg, redis, ("a", "b"), public=True) as nodes:
                boss = {"Authorization": f"Bearer {await operator(nodes[0])}"}
                r = await nodes[0].http.post(
                    "/api/v1/tables",
                    json={"table_id": "t1", **SPEC, **CLOCK, "bots": 1},
                    headers=boss,
                )
                assert r.status_code == 201, r.text
                home = await owner(redis, "t1")
                here = next(n for n in nodes if n.node.name == home)
                away = next(n for n in nodes if n is not here)
                # noted at a round of each node
                await until(
                    "both nodes' addresses noted",
                    lambda: all(len(socket_origins(n) or ()) == 2 for n in nodes),
                )
                started.put((here, away))
                await asyncio.to_thread(stop.wait)
        except BaseException as exc:
            started.put(exc)
            raise

    thread = threading.Thread(target=lambda: asyncio.run(run()), name="two-nodes", daemon=True)
    thread.start()
    got = started.get(timeout=90)
    try:
        if isinstance(got, BaseException):
            raise got
        yield got
    finally:
        stop.set()
        thread.join(60)
        assert not thread.is_alive(), "the nodes did not stop"


def sockets_of(page: Page) -> list[str]:
    """The websocket addresses the page opens, in order."""
    opened: list[str] = []
    page.on("websocket", lambda ws: opened.append(ws.url) if isinstance(ws, WebSocket) else None)
    return opened


def sit_and_play_a_hand(page: Page) -> None:
    """Register ann, sit at t1 and play one hand against its bot to its end."""
    page.fill("#name", "ann")
    page.fill("#password", "secret-ann")
    page.click("#register")
    page.wait_for_selector('tr[data-table="t1"]')
    seat = sit(page)
    wait_state(page, f"s.seats && s.mySeat === {seat}")
    # a hand she is dealt in, played through (she acts in it: the bring-in or after it)
    wait_state(page, "s.hand && !s.hand.over && !!s.hand.seats[s.mySeat]", timeout=30_000)
    acted: list[str] = []
    play([page], HAND_OVER, acted)
    assert acted, "she never acted"


def noted(node: Node, origin: str, seconds: float = 30) -> None:
    """Wait until ``node`` knows ``origin`` among the nodes' (the owner's heartbeat
    read at one of its rounds)."""
    deadline = time.monotonic() + seconds
    while origin not in (socket_origins(node) or ()):
        assert time.monotonic() < deadline, f"{origin} not noted after {seconds:g} s"
        time.sleep(0.05)


def players_of(node: Node, name: str) -> int:
    """``name``'s table websockets open at ``node``."""
    count: int = node.room.app.state.room.sockets.of_account(name)
    return count


def test_a_player_follows_the_redirect_and_is_served_by_the_node_that_runs_the_table(
    browser: Browser,
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    with two_public_nodes(pg, redis_url) as (here, away):
        context = browser.new_context(viewport=LAPTOP)
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            opened = sockets_of(page)
            page.goto(f"http://127.0.0.1:{away.port}/")
            sit_and_play_a_hand(page)
            table = "/ws/v1/tables/t1"
            assert opened[0].startswith(f"ws://127.0.0.1:{away.port}{table}"), opened
            assert opened[1].startswith(f"ws://127.0.0.1:{here.port}{table}"), opened
            assert not [u for u in opened if "relay=1" in u], opened  # never relayed
            # her socket is at the table's node; nothing of hers crossed the bus
            assert (players_of(here, "ann"), players_of(away, "ann")) == (1, 0)
            assert away.node.bus.counts.answered == 0
            screenshot(page, "routing-redirected-desktop")
        finally:
            context.close()


def test_a_redirect_the_page_cannot_follow_falls_back_to_relaying(
    browser: Browser,
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    with two_public_nodes(pg, redis_url) as (here, away):
        context = browser.new_context(viewport=LAPTOP)
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto(f"http://127.0.0.1:{away.port}/")
            policy = page.evaluate(
                "fetch('/').then((r) => r.headers.get('content-security-policy'))"
            )
            assert f"ws://127.0.0.1:{here.port}" in policy, policy
            # the owner is now at an address this page's policy does not name
            moved = f"http://localhost:{here.port}"
            here.node.nodes.url = moved
            noted(away, socket_origin(moved))
            opened = sockets_of(page)
            sit_and_play_a_hand(page)
            first = opened[0]
            assert f"127.0.0.1:{away.port}/ws/v1/tables/t1" in first and "relay" not in first
            relayed = [u for u in opened if f"127.0.0.1:{away.port}/" in u and "relay=1" in u]
            assert relayed, opened  # told to go, could not, and came back to be relayed
            # she is served by the node she reached, her commands over the bus
            assert (players_of(here, "ann"), players_of(away, "ann")) == (0, 1)
            assert away.node.bus.counts.answered > 0
            screenshot(page, "routing-relayed-desktop")
        finally:
            context.close()
