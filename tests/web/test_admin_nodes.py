"""The console's Nodes section on a room of two nodes (issue 27 item 1: "on two
nodes"), in Debian's Chromium at 1366x768 and 390x844: the operator, logged in on
node a, sees both nodes with their tables and leases, drains b and calls the drain
off; his lobby message, posted through a, is shown in the lobby served by b.

The nodes run in a thread of their own (the in-process cluster harness,
``tests/server/cluster/inprocess.py``: its event loop cannot be the sync
Playwright's). Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and
redis-server.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from server.cluster.inprocess import BOSS_PASSWORD, SPEC, cluster, operator
from server.conftest import redis_server_url, redis_url  # noqa: F401 (the fixtures)
from server.roomdb import fresh_database

from .roomkit import LAPTOP, PHONE, screenshot


@contextmanager
def two_nodes(pg: str, redis: str) -> Iterator[tuple[int, int]]:
    """Nodes a and b, with table t1 opened through b; their ports."""
    ports: queue.Queue[tuple[int, int] | BaseException] = queue.Queue()
    stop = threading.Event()

    async def run() -> None:
        try:
            async with cluster(pg, redis, ("a", "b")) as (a, b):
                boss = {"Authorization": f"Bearer {await operator(b)}"}
                r = await b.http.post(
                    "/api/v1/tables", json={"table_id": "t1", **SPEC}, headers=boss
                )
                assert r.status_code == 201, r.text
                ports.put((a.port, b.port))
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


def log_in(browser: Browser, port: int, name: str, password: str, size: ViewportSize) -> Page:
    page = browser.new_context(viewport=size).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"http://127.0.0.1:{port}/")
    page.fill("#name", name)
    page.fill("#password", password)
    page.click("#login")
    page.wait_for_selector('tr[data-table="t1"]')
    return page


def node_row(page: Page, name: str) -> Locator:
    return page.locator('table[aria-label="nodes"] tbody tr').filter(
        has=page.locator(f'td:text-is("{name}")')
    )


def test_the_nodes_section_on_two_nodes_drains_and_undoes(
    browser: Browser,
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    with two_nodes(pg, redis_url) as (port_a, port_b):
        boss = log_in(browser, port_a, "boss", BOSS_PASSWORD, LAPTOP)
        try:
            boss.goto(f"http://127.0.0.1:{port_a}/#/admin/nodes")
            expect(boss.get_by_role("heading", name="Nodes", level=2)).to_be_visible()
            expect(boss.locator('table[aria-label="nodes"] tbody tr')).to_have_count(2)
            # one node runs t1 and holds its lease (the tables' leases: 1 between them)
            leased = boss.locator('table[aria-label="nodes"] tbody tr').filter(has_text="serving")
            expect(leased).to_have_count(2)
            screenshot(boss, "admin-nodes-two-desktop")
            boss.get_by_role("button", name="drain node b").click()
            expect(node_row(boss, "b")).to_contain_text("draining", timeout=15_000)
            screenshot(boss, "admin-nodes-draining-desktop")
            boss.get_by_role("button", name="undo the drain of node b").click()
            expect(node_row(boss, "b")).to_contain_text("serving", timeout=15_000)
            expect(boss.get_by_role("button", name="drain node b")).to_be_visible()
            boss.goto(f"http://127.0.0.1:{port_a}/#/admin/tables")
            expect(boss.locator('table[aria-label="tables now"] tbody tr')).to_contain_text(
                "t1", timeout=15_000
            )
            # the message posted through a, read by a player's lobby on b
            boss.goto(f"http://127.0.0.1:{port_a}/#/admin/moderation")
            boss.fill("#message-text", "Node a says hello")
            boss.click("#message-post")
            expect(boss.locator("#message-now")).to_contain_text("Node a says hello")
            phone = log_in(browser, port_b, "boss", BOSS_PASSWORD, PHONE)  # lobby served by b
            expect(phone.locator("#room-message")).to_contain_text("Node a says hello")
            phone.goto(f"http://127.0.0.1:{port_b}/#/admin/nodes")
            expect(phone.locator('table[aria-label="nodes"] tbody tr')).to_have_count(2)
            screenshot(phone, "admin-nodes-two-phone")
            phone.context.close()
        finally:
            boss.context.close()
