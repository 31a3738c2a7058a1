"""A private table on a database (SQLite, PostgreSQL) after a restart: it comes back
private, with its code, and those it admitted keep their access while an outsider still
sees nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from server.dbroom import OPERATOR, OPERATOR_PASSWORD, db_room
from server.roomdb import fresh_database
from stud8.server.settings import Settings

SETTINGS = Settings(default_tables=0, players_create_private=True, signups=1000)


async def token(http: httpx.AsyncClient, name: str, *, register: bool) -> str:
    password = OPERATOR_PASSWORD if name == OPERATOR else "secret-pass-1"
    if register:
        r = await http.post("/api/v1/register", json={"name": name, "password": password})
        assert r.status_code == 201, r.text
    r = await http.post("/api/v1/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    value: str = r.json()["token"]
    return value


async def ids(http: httpx.AsyncClient, bearer: str | None) -> list[str]:
    headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
    r = await http.get("/api/v1/tables", headers=headers)
    assert r.status_code == 200, r.text
    return [t["table_id"] for t in r.json()["tables"]]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_private_table_stays_private_across_a_restart(tmp_path: Path, kind: str) -> None:
    url = fresh_database(kind, tmp_path)

    async def main() -> None:
        async with db_room(tmp_path, SETTINGS, url=url) as (http, _, _):
            ann = await token(http, "ann", register=True)
            bob = await token(http, "bob", register=True)
            await token(http, "eve", register=True)
            r = await http.post(
                "/api/v1/tables", json={"private": True}, headers={"Authorization": f"Bearer {ann}"}
            )
            assert r.status_code == 201, r.text
            club, code = r.json()["table"]["table_id"], r.json()["invitation"]["code"]
            r = await http.post(
                "/api/v1/invitations",
                json={"code": code},
                headers={"Authorization": f"Bearer {bob}"},
            )
            assert r.status_code == 200, r.text
            boss = await token(http, OPERATOR, register=False)
            r = await http.post(
                "/api/v1/tables",
                json={"table_id": "pub"},
                headers={"Authorization": f"Bearer {boss}"},
            )
            assert r.status_code == 201, r.text
        async with db_room(tmp_path, SETTINGS, url=url) as (http, _, _):
            assert await ids(http, None) == ["pub"]
            assert await ids(http, await token(http, "eve", register=False)) == ["pub"]
            assert await ids(http, await token(http, "bob", register=False)) == [club, "pub"]
            ann = await token(http, "ann", register=False)
            assert await ids(http, ann) == [club, "pub"]
            r = await http.get(
                f"/api/v1/tables/{club}/invitation", headers={"Authorization": f"Bearer {ann}"}
            )
            assert r.status_code == 200 and r.json()["code"] == code

    asyncio.run(asyncio.wait_for(main(), 60))
