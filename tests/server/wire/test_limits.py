"""The name and password limits: defined once (``wire/limits.py``), enforced as
documented by every room (in memory and on a database), given in the REST schema."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from server.dbroom import ROOMS
from stud8.server.wire.limits import NAME_CHARS, PASSWORD_CHARS
from stud8.server.wire.schemas import json_schemas

PASSWORD = "Tr1cky-Ostrich-7"


def test_the_schema_gives_the_limits_the_accounts_enforce() -> None:
    body = json_schemas()["rest"]["POST /api/v1/register"]["body"]["properties"]
    assert (body["name"]["minLength"], body["name"]["maxLength"]) == NAME_CHARS
    assert (body["password"]["minLength"], body["password"]["maxLength"]) == PASSWORD_CHARS


@pytest.mark.parametrize("kind", ROOMS)
def test_every_room_enforces_the_documented_limits(kind: str, tmp_path: Path) -> None:
    low, high = NAME_CHARS
    short_pw, long_pw = PASSWORD_CHARS

    async def body() -> None:
        async with ROOMS[kind](tmp_path) as http:

            async def status(name: str, password: str = PASSWORD) -> int:
                r = await http.post("/api/v1/register", json={"name": name, "password": password})
                assert r.status_code in (201, 400), r.text
                return r.status_code

            assert await status("n" * (low - 1)) == 400
            assert await status("m" * low) == 201
            assert await status("k" * high) == 201
            assert await status("j" * (high + 1)) == 400
            assert await status("bad name") == 400
            assert await status("pw_short", PASSWORD[: short_pw - 1]) == 400
            assert await status("pw_least", PASSWORD[:short_pw]) == 201
            longest = (PASSWORD * (long_pw // len(PASSWORD) + 1))[:long_pw]
            assert await status("pw_most", longest) == 201
            assert await status("pw_over", longest + "x") == 400

    asyncio.run(asyncio.wait_for(body(), 60))
