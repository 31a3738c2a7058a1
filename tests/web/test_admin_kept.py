"""The console's parts that hold for the whole room, on two nodes, in Debian's
Chromium at 1366x768 and 390x844: the tournaments now in the Tables tab (a
sit-and-go made through node a, running: players left, level and stakes, its
table, prize pool, the node that runs it) seen from node b too; the fairness report
run from node a's console shown by node b's as the last one (who, when, every
test); an account's addresses on node b's console from a log-in through node a.

The two nodes: ``test_admin_nodes.two_nodes`` (the in-process cluster harness in a
thread of its own). Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and
redis-server.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from server.cluster.inprocess import BOSS_PASSWORD
from server.conftest import redis_server_url, redis_url  # noqa: F401 (the fixtures)
from server.roomdb import fresh_database

from .roomkit import LAPTOP, PHONE, screenshot
from .test_admin_console import fits
from .test_admin_nodes import log_in, two_nodes

GOOD = "Tr1cky-Ostrich-7"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def login(http: httpx.Client, name: str, password: str = GOOD, **headers: str) -> str:
    r = http.post("/api/v1/login", json={"name": name, "password": password}, headers=headers)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def heads_up(port_a: int, port_b: int) -> int:
    """A heads-up sit-and-go made through a, ann and bob registered through b: it runs
    (they never act: level 1 for the test's time, its levels lasting 50 hands)."""
    with (
        httpx.Client(base_url=f"http://127.0.0.1:{port_a}", timeout=30) as a,
        httpx.Client(base_url=f"http://127.0.0.1:{port_b}", timeout=30) as b,
    ):
        boss = bearer(login(a, "boss", BOSS_PASSWORD))
        body = {"name": "Night HU", "structure": "hyper", "buy_in": 50, "level_hands": 50}
        r = a.post(
            "/api/v1/tournaments", json={**body, "max_entrants": 2, "table_size": 2}, headers=boss
        )
        assert r.status_code == 201, r.text
        tid = int(r.json()["tournament"]["summary"]["tournament_id"])
        for name in ("ann", "bob"):
            assert (
                b.post("/api/v1/register", json={"name": name, "password": GOOD}).status_code == 201
            )
            r = b.post(f"/api/v1/tournaments/{tid}/register", headers=bearer(login(b, name)))
            assert r.status_code == 200, r.text
        # carl logs in through a only, from an address of his own
        assert (
            a.post("/api/v1/register", json={"name": "carl", "password": GOOD}).status_code == 201
        )
        login(a, "carl", **{"X-Forwarded-For": "198.51.100.7"})
        for _ in range(200):
            phase = b.get(f"/api/v1/tournaments/{tid}").json()["summary"]["phase"]
            if phase == "running":
                return tid
            time.sleep(0.05)
        raise AssertionError(f"the sit-and-go is {phase}")


def console(page: Page, port: int, section: str, heading: str) -> None:
    page.goto(f"http://127.0.0.1:{port}/#/admin/{section}")
    expect(page.get_by_role("heading", name=heading, level=2)).to_be_visible()


def test_tournaments_report_and_addresses_on_two_nodes(
    browser: Browser,
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    with two_nodes(pg, redis_url) as (port_a, port_b):
        tid = heads_up(port_a, port_b)
        desk = log_in(browser, port_a, "boss", BOSS_PASSWORD, LAPTOP)
        phone = log_in(browser, port_b, "boss", BOSS_PASSWORD, PHONE)
        try:
            # the tournaments, on node a's console and on node b's (the phone)
            for page in (desk, phone):
                console(page, port_a if page is desk else port_b, "tables", "Tables")
                row = page.locator('table[aria-label="tournaments"] tbody tr', has_text="Night HU")
                expect(row).to_contain_text("running", timeout=15_000)
                expect(row).to_contain_text("2/2")  # left / entries
                expect(row).to_contain_text(f"T{tid}-1")
                expect(row).to_contain_text("2 seated")
                expect(row).to_contain_text("100")  # the prize pool
                expect(row.locator("td").last).to_have_text(re.compile(r"^[ab]$"))  # its node
            screenshot(desk, "admin-tournaments-desktop")
            fits(phone)
            screenshot(phone, "admin-tournaments-phone")

            # a short report run from a's console is b's last report
            console(desk, port_a, "fairness", "Fairness")
            expect(desk.locator("#fairness-out")).to_contain_text("No report has been run yet")
            desk.fill("#fairness-deals", "2000")
            desk.click("#fairness-run")
            verdict = desk.locator("#fairness-verdict")
            expect(verdict).to_contain_text(re.compile(r"(PASS|FAIL): 2,000 deals"), timeout=90_000)
            expect(desk.locator("#fairness-made")).to_contain_text("by boss")
            desk.locator("#fairness-out summary").click()  # every test, opened
            screenshot(desk, "admin-fairness-kept-desktop")
            console(phone, port_b, "fairness", "Fairness")
            expect(phone.locator("#fairness-verdict")).to_have_text(verdict.inner_text())
            expect(phone.locator("#fairness-made")).to_have_text(
                desk.locator("#fairness-made").inner_text()
            )
            rows = phone.locator('table[aria-label="fairness tests"] tbody tr')
            desk_rows = desk.locator('table[aria-label="fairness tests"] tbody tr')
            expect(desk_rows).not_to_have_count(0)
            expect(rows).to_have_count(desk_rows.count())
            fits(phone)
            screenshot(phone, "admin-fairness-kept-phone")

            # carl logged in through a: b's console shows where from
            console(phone, port_b, "accounts", "Accounts")
            phone.fill("#find-name", "carl")
            phone.click("#find")
            expect(phone.locator("#account-addresses")).to_have_text("198.51.100.7")
            expect(phone.locator(".account-card ul.sessions li")).to_contain_text("198.51.100.7")
            fits(phone)
            screenshot(phone, "admin-account-addresses-phone")
            console(desk, port_a, "accounts", "Accounts")
            desk.fill("#find-name", "carl")
            desk.click("#find")
            expect(desk.locator("#account-addresses")).to_have_text("198.51.100.7")
            screenshot(desk, "admin-account-addresses-desktop")
        finally:
            desk.context.close()
            phone.context.close()
