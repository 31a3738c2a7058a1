"""``stud8 admin`` on a room's database, while it serves: ``credit`` and ``debit``
move chips through the ledger with their reason, the audit balances, a refusal
changes nothing; a room whose new accounts get no chips (``starting_chips=0``);
operators are made by ``create-operator`` or at the start, never by registering."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import select

from server.dbroom import db_room
from stud8.cli import main
from stud8.server.books.ledger import Ledger, UnknownAccountError, bank
from stud8.server.settings import Settings
from stud8.server.storage import create_engine_for
from stud8.server.storage.models import Transaction

GOOD = "Tr1cky-Ostrich-7"


def admin(*args: str) -> int:
    return main(["admin", *args])


def test_an_operator_credits_and_debits_a_bank_through_the_ledger(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def body() -> None:
        settings = Settings(default_tables=0, starting_chips=0)
        async with db_room(tmp_path, settings, url=url) as (http, room, _):
            r = await http.post("/api/v1/register", json={"name": "Ann", "password": GOOD})
            assert r.status_code == 201
            with pytest.raises(UnknownAccountError):  # no chips given: not even a bank
                room.ledger.balance(bank("Ann"))
            db = ["--database", url]
            assert admin("credit", "ann", "500", "--reason", "sold at the desk", *db) == 0
            assert "+500 chips, Ann's bank now 500" in capsys.readouterr().out
            assert admin("debit", "ANN", "200", "--reason", "cashed out", *db) == 0
            assert room.ledger.balance(bank("Ann")) == 300
            capsys.readouterr()
            # refused, nothing changed
            assert admin("debit", "ann", "301", "--reason", "too much", *db) == 1
            assert "refused, nothing changed" in capsys.readouterr().out
            assert admin("credit", "nobody", "5", "--reason", "who?", *db) == 1
            assert "no account 'nobody'" in capsys.readouterr().out
            assert admin("credit", "ann", "5", "--reason", "  ", *db) == 1
            assert admin("credit", "ann", "0", "--reason", "zero", *db) == 2  # usage
            assert admin("credit", "ann", "-5", "--reason", "minus", *db) == 2
            assert admin("credit", "ann", "5", *db) == 2  # the reason is required
            assert room.ledger.balance(bank("Ann")) == 300
            assert admin("audit", *db) == 0

    asyncio.run(asyncio.wait_for(body(), 60))
    engine = create_engine_for(url)
    try:
        assert Ledger(engine).audit().ok
        with engine.connect() as conn:
            rows = conn.execute(
                select(Transaction.kind, Transaction.memo).order_by(Transaction.id)
            ).all()
        assert [tuple(row) for row in rows] == [
            ("credit", "sold at the desk"),
            ("debit", "cashed out"),
        ]
    finally:
        engine.dispose()


def test_a_memory_room_may_give_no_chips(tmp_path: Path) -> None:
    from server.dbroom import memory_room

    async def body() -> None:
        async with memory_room(tmp_path, Settings(default_tables=0, starting_chips=0)) as http:
            r = await http.post("/api/v1/register", json={"name": "bob", "password": GOOD})
            assert r.status_code == 201, r.text

    asyncio.run(asyncio.wait_for(body(), 60))


def test_admin_on_a_database_without_the_schema(tmp_path: Path) -> None:
    missing = f"sqlite:///{tmp_path / 'none.db'}"
    assert admin("credit", "ann", "5", "--reason", "x", "--database", missing) == 2
    assert not (tmp_path / "none.db").exists()


def test_operators_are_made_by_the_operator_never_by_registering(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    db = ["--database", url]
    # before the first start: the database is made, the password read from stdin
    monkeypatch.setattr("sys.stdin", io.StringIO(GOOD + "\n"))
    assert admin("create-operator", "Root", *db) == 0
    assert "operator Root created" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("password\n"))  # a weak one is refused
    assert admin("create-operator", "other", *db) == 1
    assert "common" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # none given: one is made up
    assert admin("create-operator", "deputy", *db) == 0
    deputy_password = capsys.readouterr().out.rsplit("password: ", 1)[1].strip()

    async def body() -> None:
        settings = Settings(default_tables=0, operators=("alice",))
        async with db_room(tmp_path, settings, url=url) as (http, _, _):
            # alice (STUD8_OPERATORS) was made at the start: nobody can take her name
            for name in ("alice", "ALICE", "root", "deputy"):
                r = await http.post("/api/v1/register", json={"name": name, "password": GOOD})
                assert r.status_code == 409, r.text
            r = await http.post("/api/v1/register", json={"name": "mallory", "password": GOOD})
            assert r.json() == {"name": "mallory", "operator": False}
            for name, password in (("root", GOOD), ("deputy", deputy_password)):
                r = await http.post("/api/v1/login", json={"name": name, "password": password})
                assert r.status_code == 200 and r.json()["operator"] is True, r.text
            r = await http.post("/api/v1/login", json={"name": "mallory", "password": GOOD})
            assert r.json()["operator"] is False
            # an existing player is promoted only knowingly
            assert admin("create-operator", "mallory", *db) == 1
            assert admin("create-operator", "mallory", "--promote", *db) == 0
            r = await http.post("/api/v1/login", json={"name": "mallory", "password": GOOD})
            assert r.json()["operator"] is True

    with caplog_of("stud8.server") as records:
        asyncio.run(asyncio.wait_for(body(), 60))
    (line,) = [r.getMessage() for r in records if "'alice'" in r.getMessage()]
    assert "one-time password" in line


def test_a_player_named_in_the_operators_setting_is_not_promoted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def body(settings: Settings) -> None:
        async with db_room(tmp_path, settings) as (http, _, _):
            r = await http.post("/api/v1/login", json={"name": "eve", "password": GOOD})
            assert r.json()["operator"] is False

    async def first() -> None:
        async with db_room(tmp_path) as (http, _, _):
            r = await http.post("/api/v1/register", json={"name": "eve", "password": GOOD})
            assert r.status_code == 201

    asyncio.run(asyncio.wait_for(first(), 60))
    with caplog_of("stud8.server") as records:
        asyncio.run(asyncio.wait_for(body(Settings(default_tables=0, operators=("eve",))), 60))
    assert any("NOT made an operator" in r.getMessage() for r in records)


@contextmanager
def caplog_of(logger: str) -> Iterator[list[logging.LogRecord]]:
    """The records of ``logger`` (and below) while the block runs."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler, log = Keep(), logging.getLogger(logger)
    log.addHandler(handler)
    try:
        yield records
    finally:
        log.removeHandler(handler)
