"""The accounts' guard on a real server: wrong passwords per account and per address,
sign-ups per address (429 with Retry-After), the owner not shut out for long, the
operator told in the log. The addresses are a trusted proxy's ``X-Forwarded-For``
(uvicorn trusts 127.0.0.1)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import httpx
import pytest

from server.dbroom import ROOMS
from stud8.server.settings import Settings

GOOD = "Tr1cky-Ostrich-7"


def at(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


async def log_in(http: httpx.AsyncClient, name: str, password: str, address: str) -> httpx.Response:
    return await http.post(
        "/api/v1/login", json={"name": name, "password": password}, headers=at(address)
    )


@pytest.mark.parametrize("kind", ROOMS)
def test_wrong_passwords_are_limited_per_account_not_shutting_out_the_owner(
    kind: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def body() -> None:
        async with ROOMS[kind](tmp_path) as http:
            r = await http.post("/api/v1/register", json={"name": "ann", "password": GOOD})
            assert r.status_code == 201
            assert (await log_in(http, "ann", GOOD, "10.0.0.1")).status_code == 200  # her home
            # an attacker tries passwords for ann from another address, then several
            statuses = [
                (await log_in(http, "ann", f"guess-{i:04}", "10.6.6.6")).status_code
                for i in range(5)
            ]
            assert statuses == [401] * 5
            for address in ("10.6.6.6", "10.6.6.7"):
                r = await log_in(http, "ANN", f"guess-{address}", address)
                assert r.status_code == 429, r.text
                assert 1 <= int(r.headers["Retry-After"]) <= 60  # not shut out for long
                assert "too many" in r.json()["error"]
            # refused before the password is checked: the right one gets the same answer
            assert (await log_in(http, "ann", GOOD, "10.0.0.2")).status_code == 429
            # but ann at home logs in
            assert (await log_in(http, "ann", GOOD, "10.0.0.1")).status_code == 200
            assert (await log_in(http, "ann", GOOD, "10.0.0.2")).status_code == 429  # still
            # another account is not affected
            assert (await log_in(http, "bob", "no-such-pw", "10.0.0.3")).status_code == 401

    with caplog.at_level(logging.WARNING, logger="stud8.server.guard"):
        asyncio.run(asyncio.wait_for(body(), 60))
    (line,) = [r.getMessage() for r in caplog.records if "'ann'" in r.getMessage()]
    assert "5 attempts for 'ann'" in line and "10.6.6.6" in line


def test_wrong_passwords_are_limited_per_address(tmp_path: Path) -> None:
    async def body() -> None:
        async with ROOMS["memory"](tmp_path) as http:
            names = [f"user{i:02}" for i in range(25)]
            statuses = [
                (await log_in(http, name, "guess-1234", "10.7.7.7")).status_code for name in names
            ]
            assert statuses == [401] * 20 + [429] * 5
            r = await log_in(http, "someone", "guess-1234", "10.7.7.7")
            assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 900
            assert (await log_in(http, "someone", "guess-1234", "10.7.7.8")).status_code == 401

    asyncio.run(asyncio.wait_for(body(), 60))


def test_a_burst_of_attempts_at_once_does_not_slip_past_the_limit(tmp_path: Path) -> None:
    async def body() -> None:
        async with ROOMS["database"](tmp_path) as http:
            await http.post("/api/v1/register", json={"name": "ann", "password": GOOD})
            answers = await asyncio.gather(
                *(log_in(http, "ann", f"guess-{i:04}", f"10.8.0.{i}") for i in range(40))
            )
            codes = sorted(r.status_code for r in answers)
            assert codes == [401] * 5 + [429] * 35

    asyncio.run(asyncio.wait_for(body(), 60))


@pytest.mark.parametrize("kind", ROOMS)
def test_sign_ups_are_limited_per_address(
    kind: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def body() -> None:
        async with ROOMS[kind](tmp_path, Settings(default_tables=0, signups=3)) as http:

            async def sign_up(name: str, address: str) -> httpx.Response:
                return await http.post(
                    "/api/v1/register", json={"name": name, "password": GOOD}, headers=at(address)
                )

            # refused sign-ups (a bad name, a name taken) do not count
            assert (await sign_up("x", "10.1.1.1")).status_code == 400
            assert [(await sign_up(f"farm{i}", "10.1.1.1")).status_code for i in range(3)] == [
                201
            ] * 3
            assert (await sign_up("farm0", "10.1.1.2")).status_code == 409
            r = await sign_up("farm9", "10.1.1.1")
            assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 3600
            assert (await sign_up("elsewhere", "10.1.1.2")).status_code == 201

    with caplog.at_level(logging.WARNING, logger="stud8.server.guard"):
        asyncio.run(asyncio.wait_for(body(), 60))
    assert any("3 accounts from 10.1.1.1" in r.getMessage() for r in caplog.records)
