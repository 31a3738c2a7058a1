"""The browser's table socket told to go to the node that runs the table (issue 30,
item 6, ``web/socket.js``), in Debian's Chromium at 1366x768: on two nodes with
public addresses, a player whose lobby a node that does not run t1 served is sent
``redirect`` by it; the owner's address is another origin, which the page's
Content-Security-Policy (``connect-src 'self'``) does not let it reach, so the
socket comes back to its own node asking to be relayed (``relay=1``) and the player
sits and plays there.

The nodes run in a thread of their own (as in ``test_admin_nodes``). Needs the
scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, WebSocket

from server.cluster.inprocess import SPEC, cluster, operator, owner
from server.conftest import redis_server_url, redis_url  # noqa: F401 (the fixtures)
from server.roomdb import fresh_database

from .roomkit import LAPTOP, screenshot, sit, wait_state


@contextmanager
def two_public_nodes(pg: str, redis: str) -> Iterator[tuple[int, int]]:
    """Nodes a and b with public addresses and table t1: (its owner's port, the other's)."""
    ports: queue.Queue[tuple[int, int] | BaseException] = queue.Queue()
    stop = threading.Event()

    async def run() -> None:
        try:
            async with cluster(pg, redis, ("a", "b"), public=True) as nodes:
                boss = {"Authorization": f"Bearer {await operator(nodes[0])}"}
                r = await nodes[0].http.post(
                    "/api/v1/tables",
                    json={"table_id": "t1", **SPEC, "bots": 1},
                    headers=boss,
                )
                assert r.status_code == 201, r.text
                home = await owner(redis, "t1")
                here = next(n for n in nodes if n.node.name == home)
                away = next(n for n in nodes if n is not here)
                ports.put((here.port, away.port))
                await asyncio.to_thread(stop.wait)
        except BaseException as exc:
            ports.put(exc)
            raise

    thread = threading.Thread(target=lambda: asyncio.run(run()), name="two-nodes", daemon=True)
    thread.start()
    got = ports.get(timeout=90)
    try:
        if isinstance(got, BaseException):
            raise got
        yield got
    finally:
        stop.set()
        thread.join(60)
        assert not thread.is_alive(), "the nodes did not stop"


def test_a_redirect_the_page_cannot_follow_falls_back_to_relaying(
    browser: Browser,
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    with two_public_nodes(pg, redis_url) as (_owner, away):
        context = browser.new_context(viewport=LAPTOP)
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            sockets: list[str] = []
            page.on(
                "websocket",
                lambda ws: sockets.append(ws.url) if isinstance(ws, WebSocket) else None,
            )
            page.goto(f"http://127.0.0.1:{away}/")
            page.fill("#name", "ann")
            page.fill("#password", "secret-ann")
            page.click("#register")
            page.wait_for_selector('tr[data-table="t1"]')
            seat = sit(page)
            wait_state(page, f"s.seats && s.mySeat === {seat}")
            relayed = [u for u in sockets if f"127.0.0.1:{away}/" in u and "relay=1" in u]
            first = sockets[0]
            assert f"127.0.0.1:{away}/ws/v1/tables/t1" in first and "relay" not in first
            assert relayed, sockets  # told to go, could not, and came back to be relayed
            # she plays there: the table deals her in with its bot
            wait_state(page, "s.hand !== null", timeout=20_000)
            screenshot(page, "routing-relayed-desktop")
        finally:
            context.close()
