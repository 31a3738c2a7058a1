"""The passwords a room refuses (a common one, the name, blank or one character
repeated), at sign-up and at a change of password, in every room."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from server.dbroom import ROOMS
from stud8.server.accounts.accounts import Accounts, WeakPasswordError
from stud8.server.accounts.passwords import common_passwords
from stud8.server.books.ledger import Ledger
from stud8.server.storage import create_engine_for, upgrade

GOOD = "Tr1cky-Ostrich-7"


def test_the_list_is_shipped_and_well_known() -> None:
    common = common_passwords()
    assert len(common) > 19_000
    assert {"password", "12345678", "qwertyuiop", "iloveyou", "password1"} <= common


@pytest.mark.parametrize("kind", ROOMS)
def test_sign_up_refuses_weak_passwords(kind: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with ROOMS[kind](tmp_path) as http:
            for name, password, why in (
                ("ann", "password", "common"),
                ("ann", "PassWord", "common"),  # in any case
                ("ann", "iloveyou", "common"),
                ("ann", "12345678", "common"),
                ("ann", " " * 8, "blank"),
                ("ann", "x" * 12, "repeated"),
                ("ann_smith", "ann_smith", "the name"),
                ("ann_smith", "ANN_SMITH", "the name"),
            ):
                r = await http.post("/api/v1/register", json={"name": name, "password": password})
                assert r.status_code == 400, (password, r.text)
                assert why in r.json()["error"], r.json()
            r = await http.post("/api/v1/register", json={"name": "ann", "password": GOOD})
            assert r.status_code == 201, r.text

    asyncio.run(asyncio.wait_for(body(), 60))


def test_a_new_password_is_checked_too(tmp_path: Path) -> None:
    engine = create_engine_for(f"sqlite:///{tmp_path / 'room.db'}")
    try:
        upgrade(engine)
        accounts = Accounts(
            engine, Ledger(engine), hasher=PasswordHasher(time_cost=1, memory_cost=64)
        )
        accounts.register("bob", GOOD)
        for weak in ("password1", "bob", "BOB_bob"[:3], "        "):
            with pytest.raises(WeakPasswordError):
                accounts.change_password("bob", GOOD, weak)
        accounts.login("bob", GOOD)  # unchanged
    finally:
        engine.dispose()
