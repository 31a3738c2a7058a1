"""The chat on the room's database (SQLite and PostgreSQL): each line kept through the
room's writer with its hand and time, read back by table and by hand; a silenced
player's line refused in the same job (nothing kept); ``stud8 admin silence``."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, func, select

from stud8.server.accounts.accounts import Accounts
from stud8.server.books.chat import ChatStore
from stud8.server.books.ledger import Ledger
from stud8.server.books.room import RoomBooks
from stud8.server.books.writer import RoomWriter
from stud8.server.moderate import run_silence
from stud8.server.storage.models import ChatLineRow
from stud8.server.table.books import BooksRefused, ChatLine

AT = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def line(
    text: str, *, player: str = "ann", hand: str | None = "h1", table: str = "t1", seconds: int = 0
) -> ChatLine:
    return ChatLine(
        table_id=table,
        hand_id=hand,
        player=player,
        text=text,
        said_at=AT + timedelta(seconds=seconds),
    )


def count(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(ChatLineRow)).scalar_one())


def test_lines_are_kept_with_their_hand_and_read_back_in_order(engine: Engine) -> None:
    store = ChatStore(engine)
    hostile = "<img src=x onerror=alert(1)> '; DROP TABLE chat_lines; -- 玩家 \U0001f0a1"

    async def main() -> None:
        writer = RoomWriter(engine)
        books = RoomBooks(Ledger(engine), writer)
        try:
            await books.chat_said(line("before the deal", hand=None))
            await books.chat_said(line("gl", hand="h1", seconds=1))
            await books.chat_said(line(hostile, player="bob", hand="h1", seconds=2))
            await books.chat_said(line("other table", table="t2", hand="h9", seconds=3))
            await books.chat_said(line("nh", hand="h2", seconds=4))
        finally:
            writer.close()

    asyncio.run(main())
    every = store.lines("t1")
    assert [(x.player, x.text, x.hand_id) for x in every] == [
        ("ann", "before the deal", None),
        ("ann", "gl", "h1"),
        ("bob", hostile, "h1"),
        ("ann", "nh", "h2"),
    ]
    assert every[1].said_at == AT + timedelta(seconds=1)
    assert [x.text for x in store.lines("t1", hand_id="h1")] == ["gl", hostile]
    assert [x.text for x in store.lines("t1", limit=2)] == [hostile, "nh"]  # the latest two
    assert store.lines("t3") == [] and store.lines("t1", limit=0) == []
    assert [x.text for x in store.lines("t2")] == ["other table"]


def test_a_silenced_player_s_line_is_refused_and_not_kept(engine: Engine) -> None:
    store = ChatStore(engine)
    assert "is silenced" in store.silence("Ann")
    assert store.silenced() == ["Ann"]

    async def main() -> None:
        writer = RoomWriter(engine)
        books = RoomBooks(Ledger(engine), writer)
        try:
            with pytest.raises(BooksRefused, match="silenced by an operator"):
                await books.chat_said(line("let me speak", player="ann"))
            await books.chat_said(line("fine", player="bob"))  # the batch goes on
            store.silence("ann", undo=True)
            await books.chat_said(line("thanks", player="ann"))
        finally:
            writer.close()

    asyncio.run(main())
    assert store.silenced() == []
    assert [x.text for x in store.lines("t1")] == ["fine", "thanks"]
    assert count(engine) == 2
    store.silence("bob")
    store.silence("BOB")  # twice is once
    assert store.silenced() == ["BOB"]


def test_stud8_admin_silence(
    migrated_url: str, engine: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = Ledger(engine)
    Accounts(engine, ledger).register("carol", "a-long-password-1")
    assert run_silence(migrated_url, "CAROL", "spam") == 0
    assert "carol is silenced" in capsys.readouterr().out
    assert ChatStore(engine).silenced() == ["carol"]
    assert run_silence(migrated_url, "carol", "served his time", undo=True) == 0
    assert "carol may chat again" in capsys.readouterr().out
    assert ChatStore(engine).silenced() == []
    assert run_silence(migrated_url, "nobody", "who?") == 1
    assert "no account 'nobody'" in capsys.readouterr().out
