"""The operator's acts and their log on the room's database (SQLite and PostgreSQL):
each act and its log row in one transaction, a reason required, a refusal changing
nothing and logging nothing; a silence for a time ends by itself; ban and unban;
the lobby's message; ``stud8 admin ban/silence/log``."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, func, select

from stud8.server.accounts.accounts import Accounts, LoginRefusedError
from stud8.server.books.chat import ChatSilenced, ChatStore
from stud8.server.books.ledger import Ledger, bank
from stud8.server.books.moderation import (
    Moderation,
    ModerationAct,
    ModerationError,
    NoSuchPlayerError,
)
from stud8.server.moderate import run_ban, run_log, run_silence
from stud8.server.storage.models import ModerationRow
from stud8.server.table.books import ChatLine

GOOD = "Tr1cky-Ostrich-7"


def logged(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(ModerationRow)).scalar_one())


def say(engine: Engine, player: str, at: datetime) -> None:
    line = ChatLine(table_id="t1", hand_id=None, player=player, text="hi", said_at=at)
    with engine.begin() as conn:
        ChatStore.say_in(conn, line)


@pytest.fixture
def room(engine: Engine) -> tuple[Moderation, Accounts]:
    ledger = Ledger(engine)
    accounts = Accounts(engine, ledger)
    accounts.register("Ann", GOOD)
    accounts.register("boss", GOOD, role="operator")
    return Moderation(engine, ledger), accounts


def test_ban_and_unban_are_logged_and_the_ban_ends_the_sessions(
    room: tuple[Moderation, Accounts], engine: Engine
) -> None:
    moderation, accounts = room
    token = accounts.login("ann", GOOD)
    done = moderation.ban("boss", "ANN", "  collusion at t3  ")
    assert (done.act, done.player, done.operator, done.reason) == (
        ModerationAct.BAN,
        "Ann",
        "boss",
        "collusion at t3",
    )
    assert accounts.player_for_token(token) is None
    with pytest.raises(LoginRefusedError):
        accounts.login("ann", GOOD)
    with pytest.raises(ModerationError, match="banned already"):
        moderation.ban("boss", "ann", "again")
    moderation.unban("boss", "ann", "appeal granted")
    assert accounts.login("ann", GOOD)
    assert [(a.act.value, a.reason) for a in moderation.log(player="ann")] == [
        ("unban", "appeal granted"),
        ("ban", "collusion at t3"),
    ]
    with pytest.raises(ModerationError, match="not banned"):
        moderation.unban("boss", "ann", "twice")
    with pytest.raises(ModerationError, match="an operator is not banned"):
        moderation.ban("boss", "boss", "myself")
    assert logged(engine) == 2


def test_every_act_needs_a_reason_and_a_refusal_changes_nothing(
    room: tuple[Moderation, Accounts], engine: Engine
) -> None:
    moderation, accounts = room
    for reason in ("", "   ", "x" * 501):
        with pytest.raises(ModerationError, match="reason"):
            moderation.ban("boss", "ann", reason)
        with pytest.raises(ModerationError, match="reason"):
            moderation.credit("boss", "ann", 5, reason)
    with pytest.raises(NoSuchPlayerError):
        moderation.silence("boss", "nobody", "spam")
    for amount in (0, -5, True, 2.5):
        with pytest.raises(ModerationError, match="amount"):
            moderation.credit("boss", "ann", amount, "bad")  # type: ignore[arg-type]
    for minutes in (0, -1, 10**9, True, 1.5):
        with pytest.raises(ModerationError, match="minutes"):
            moderation.silence("boss", "ann", "spam", minutes=minutes)  # type: ignore[arg-type]
    with pytest.raises(ModerationError, match="not silenced"):
        moderation.unsilence("boss", "ann", "nothing to lift")
    assert logged(engine) == 0
    assert accounts.get("ann") is not None and accounts.get("ann").role == "player"  # type: ignore[union-attr]
    assert ChatStore(engine).silenced() == []


def test_credit_and_debit_go_through_the_ledger_and_into_the_log(
    room: tuple[Moderation, Accounts], engine: Engine
) -> None:
    moderation, _ = room
    ledger = moderation.ledger
    before = ledger.balance(bank("Ann"))
    credit = moderation.credit("boss", "ann", 500, "sold at the desk")
    debit = moderation.debit("boss", "ann", 200, "cashed out")
    assert ledger.balance(bank("Ann")) == before + 300
    assert ledger.entries(credit.transaction_id or 0) == [("issuance", -500), ("bank:Ann", 500)]
    with pytest.raises(ModerationError):  # over the bank: nothing moved, nothing logged
        moderation.debit("boss", "ann", before + 301, "too much")
    assert ledger.balance(bank("Ann")) == before + 300
    assert [(a.act, a.amount, a.transaction_id) for a in moderation.log()] == [
        (ModerationAct.DEBIT, 200, debit.transaction_id),
        (ModerationAct.CREDIT, 500, credit.transaction_id),
    ]
    assert ledger.audit().ok


def test_a_silence_for_a_time_ends_by_itself(
    room: tuple[Moderation, Accounts], engine: Engine
) -> None:
    moderation, _ = room
    chat = ChatStore(engine)
    done = moderation.silence("boss", "ann", "flooding", minutes=10)
    assert done.until is not None
    assert timedelta(minutes=9) < done.until - datetime.now(UTC) <= timedelta(minutes=10)
    assert chat.silence_of("ann") == (True, done.until)
    with pytest.raises(ChatSilenced):
        say(engine, "Ann", done.until - timedelta(seconds=1))
    say(engine, "Ann", done.until + timedelta(seconds=1))  # its time is up: he chats
    # for good: no end
    moderation.silence("boss", "ann", "again", minutes=None)
    with pytest.raises(ChatSilenced):
        say(engine, "Ann", datetime.now(UTC) + timedelta(days=3650))
    assert chat.silence_of("ann") == (True, None)
    moderation.unsilence("boss", "ann", "calmed down")
    say(engine, "Ann", datetime.now(UTC))
    assert chat.silenced() == []
    assert [a.act.value for a in moderation.log()] == ["unsilence", "silence", "silence"]


def test_the_lobby_message_is_shown_until_withdrawn(
    room: tuple[Moderation, Accounts], engine: Engine
) -> None:
    moderation, _ = room
    assert moderation.message() is None
    with pytest.raises(ModerationError, match="no lobby message"):
        moderation.withdraw_message("boss")
    with pytest.raises(ModerationError, match="empty"):
        moderation.post_message("boss", "  ")
    moderation.post_message("boss", "the room restarts at 22:00 UTC")
    second = moderation.post_message("boss", "  the room restarts at 23:00 UTC ")
    shown = moderation.message()
    assert shown == second and shown.text == "the room restarts at 23:00 UTC"
    assert moderation.withdraw_message("boss") == second
    assert moderation.message() is None
    assert [a.act for a in moderation.log()] == [
        ModerationAct.WITHDRAW,
        ModerationAct.MESSAGE,
        ModerationAct.MESSAGE,
    ]


def test_stud8_admin_ban_undo_silence_minutes_and_log(
    migrated_url: str,
    room: tuple[Moderation, Accounts],
    engine: Engine,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from stud8.cli import main

    db = ["--database", migrated_url]
    assert main(["admin", "ban", "ann", *db]) == 2  # the reason is required (usage)
    capsys.readouterr()
    assert run_ban(migrated_url, "ann", "cheating", by="carol") == 0
    assert "Ann is banned" in capsys.readouterr().out
    assert main(["admin", "ban", "ann", "--undo", "--reason", "appeal", *db]) == 0
    assert "Ann is no longer banned" in capsys.readouterr().out
    assert main(["admin", "ban", "ann", "--undo", "--reason", "again", *db]) == 1
    assert "refused, nothing changed: Ann is not banned" in capsys.readouterr().out
    assert main(["admin", "silence", "ann", "--minutes", "15", "--reason", "spam", *db]) == 0
    assert "Ann is silenced until" in capsys.readouterr().out
    assert main(["admin", "silence", "ann", "--minutes", "0", "--reason", "x", *db]) == 2
    assert run_silence(migrated_url, "ann", "ok", undo=True) == 0
    capsys.readouterr()
    assert main(["admin", "log", "--json", "--player", "ANN", *db]) == 0
    log = json.loads(capsys.readouterr().out)["log"]
    assert [(e["act"], e["player"], e["reason"]) for e in log] == [
        ("unsilence", "Ann", "ok"),
        ("silence", "Ann", "spam"),
        ("unban", "Ann", "appeal"),
        ("ban", "Ann", "cheating"),
    ]
    assert log[3]["operator"] == "carol" and log[2]["operator"].endswith("(stud8 admin)")
    assert log[1]["until"] is not None and log[0]["until"] is None
    assert run_log(migrated_url, limit=1) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "unsilence  Ann: ok" in out[0]
