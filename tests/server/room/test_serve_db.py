"""``stud8 serve`` on the database, as a real process on 127.0.0.1: the bots play
hands that are settled in the ledger and stored whole, the audit balances after
a clean shutdown (and after the next start), and the hand histories come over
HTTP, a player's as he saw them, the operator's with every card.

Runs on a fresh SQLite file, and on PostgreSQL too when
``STUD8_TEST_POSTGRES_URL`` names a database the tests may wipe.
"""

from __future__ import annotations

import asyncio
import re
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from server.handplay import by_hand, fold_twice
from server.roomprocess import PASSWORD, audit, bearer, register, running_server
from stud8.cli import main
from stud8.core.events import CardDealt
from stud8.formats.pokerstars.write import HAND_SEPARATOR
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger
from stud8.server.books.seats import TableStore
from stud8.server.storage import create_engine_for, upgrade
from stud8.server.table.spec import TableSpec


@contextmanager
def serving_http(url: str, workdir: Path, **env: str) -> Iterator[httpx.Client]:
    """``python -m stud8 serve`` on ``url`` (0.02 s between hands); an HTTP client
    on it. Stopped at the end with SIGINT, which must be a clean shutdown (exit
    code 0); killed if it does not stop (:func:`server.roomprocess.running_server`)."""
    with (
        running_server(url, workdir, **{"STUD8_BETWEEN_HANDS": "0.02", **env}) as server,
        httpx.Client(base_url=server.base, timeout=10) as http,
    ):
        yield http
        server.process.send_signal(signal.SIGINT)
        assert server.process.wait(20) == 0, server.log.read_text()


def login(http: httpx.Client, name: str) -> dict[str, str]:
    """Register ``name`` and log in: his authorization header."""
    return bearer(register(http, name))


def test_serve_on_the_database_plays_bot_hands_and_the_audit_balances(
    url: str, tmp_path: Path
) -> None:
    ready = {"STUD8_DEFAULT_TABLES": "1", "STUD8_BOTS_PER_TABLE": "3"}
    with serving_http(url, tmp_path, **ready) as http:
        deadline = time.monotonic() + 60
        while True:
            (table,) = http.get("/api/v1/tables").json()["tables"]
            if table["hands_played"] >= 5:
                break
            assert time.monotonic() < deadline, table
            time.sleep(0.1)
        assert len(table["players"]) == 3
        boss = login(http, "boss")
        r = http.get("/api/v1/hands", params={"limit": 3}, headers=boss)
        assert r.status_code == 200, r.text
        assert r.text.startswith("PokerStars Hand #")
        assert r.text.count("PokerStars Hand #") == len(r.text.split(HAND_SEPARATOR)) == 3
        r = http.get("/api/v1/hands", params={"limit": 3, "player": "bot1"}, headers=boss)
        assert r.status_code == 200 and "bot1" in r.text
        r = http.post("/api/v1/register", json={"name": "bot1", "password": PASSWORD})
        assert r.status_code == 409  # a bot's name (its chips are in that bank)

    result = audit(url, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "OK" in result.stdout
    engine = create_engine_for(url)
    try:
        ledger, store = Ledger(engine), HandStore(engine)
        assert store.count() >= 5
        report = ledger.audit()
        assert report.ok and report.issued == 10_000 + 3 * 400  # boss + 3 bots
        assert report.tables > 0  # the bots were still seated at the shutdown
        seated = {
            name.split(":")[2]: chips for name, chips in ledger.balances("table:").items() if chips
        }
        assert HandStore(engine).in_progress() == []  # a hand at the shutdown was cancelled
    finally:
        engine.dispose()

    # the next start brings the table back with its bots and their chips; the
    # ready table is not made again
    with serving_http(url, tmp_path, **ready) as http:
        (again,) = http.get("/api/v1/tables").json()["tables"]
        assert again["table_id"] == table["table_id"] and again["name"] == table["name"]
        assert set(seated) <= set(again["players"]) and len(again["players"]) == 3
    engine = create_engine_for(url)
    try:
        report = Ledger(engine).audit()
        assert report.ok and report.tables > 0
        assert HandStore(engine).in_progress() == []
    finally:
        engine.dispose()
    result = audit(url, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_hand_histories_over_http_show_a_player_only_what_he_saw(url: str, tmp_path: Path) -> None:
    with serving_http(url, tmp_path) as http:
        tokens, headers = {}, {}
        for name in ("boss", "ann", "bob", "cat"):
            headers[name] = login(http, name)
            tokens[name] = headers[name]["Authorization"].split()[1]
        r = http.post(
            "/api/v1/tables",
            json={"table_id": "hh", "between_hands": 0.02, "showdown_seconds": 0, "min_buy_in": 40},
            headers=headers["boss"],
        )
        assert r.status_code == 201, r.text
        port = http.base_url.port
        assert port is not None
        asyncio.run(asyncio.wait_for(fold_twice(port, "hh", tokens), 60))

        # asked as soon as the second hand has finished at the table: the room's
        # writer may still hold it, and the answer waits for it (read your writes)
        ann = http.get("/api/v1/hands", params={"limit": 10}, headers=headers["ann"])
        assert ann.status_code == 200 and ann.headers["content-type"].startswith("text/plain")
        assert len(ann.text.split(HAND_SEPARATOR)) == 2

        engine = create_engine_for(url)
        try:
            store = HandStore(engine)
            hand_ids = store.hands_of("ann")
            records = [store.record(h) for h in hand_ids]
        finally:
            engine.dispose()
        assert len(hand_ids) == 2
        everything = http.get(
            "/api/v1/hands", params={"player": "ann", "limit": 10}, headers=headers["boss"]
        )
        assert everything.status_code == 200
        seen = by_hand(ann.text, hand_ids)
        every = by_hand(everything.text, hand_ids)
        assert set(seen) == set(every) == set(hand_ids)
        for record in records:
            assert record is not None
            for event in record.events:
                if isinstance(event, CardDealt) and not event.face_up:
                    card = re.compile(rf"\b{event.card}\b")
                    assert card.search(every[record.hand_id])  # the operator sees every card
                    if event.seat == 1:
                        assert card.search(seen[record.hand_id])  # ann's own down cards
                    else:  # bob's were never shown
                        assert not card.search(seen[record.hand_id]), seen[record.hand_id]
        # the room's latest hands, for the operator
        room = http.get("/api/v1/hands", headers=headers["boss"])
        assert room.status_code == 200 and len(room.text.split(HAND_SEPARATOR)) == 2
        # the hands at one table (the browser's hand-history panel)
        at = http.get("/api/v1/hands", params={"table": "hh"}, headers=headers["ann"])
        assert at.status_code == 200 and by_hand(at.text, hand_ids).keys() == seen.keys()
        assert by_hand(at.text, hand_ids) == seen  # still as she saw them
        at = http.get("/api/v1/hands", params={"table": "elsewhere"}, headers=headers["ann"])
        assert at.status_code == 200 and at.text == ""
        at = http.get("/api/v1/hands", params={"table": "hh"}, headers=headers["boss"])
        assert by_hand(at.text, hand_ids) == every
        at = http.get(
            "/api/v1/hands", params={"table": "elsewhere", "player": "ann"}, headers=headers["boss"]
        )
        assert at.status_code == 200 and at.text == ""
        # cat played nothing; ann may not read bob's hands; bad requests
        assert http.get("/api/v1/hands", headers=headers["cat"]).text == ""
        bad = [
            ({"player": "bob"}, headers["ann"], 403),
            ({}, {}, 401),
            ({}, {"Authorization": "Bearer nope"}, 401),
            ({"limit": "0"}, headers["ann"], 400),
            ({"limit": "x"}, headers["ann"], 400),
            ({"color": "red"}, headers["ann"], 400),
        ]
        for params, auth, status in bad:
            r = http.get("/api/v1/hands", params=params, headers=auth)
            assert r.status_code == status and r.json()["error"], (params, r.text)


def test_admin_audit_exits_0_when_the_books_balance_1_when_not_2_without_a_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'books.db'}"
    assert main(["admin", "audit", "--database", url]) == 2
    assert not (tmp_path / "books.db").exists()  # the audit only reads
    engine = create_engine_for(url)
    try:
        upgrade(engine)
        ledger = Ledger(engine)
        ledger.grant("ann", 100)
        ledger.buy_in("ann", "t1", 40)
        capsys.readouterr()
        assert main(["admin", "audit", "--database", url]) == 1  # chips at t1, and no seat
        assert "table:t1:ann holds 40 chips, but ann has no seat at t1" in capsys.readouterr().out
        TableStore(engine).save("t1", "Table 1", TableSpec())
        TableStore(engine).sit("t1", 1, "ann", False)
        assert main(["admin", "audit", "--database", url]) == 0
        out = capsys.readouterr().out
        assert "issued 100 = banks 60 + tables 40" in out and "OK" in out
        with engine.begin() as connection:  # a chip appears from nowhere
            connection.execute(text("UPDATE accounts SET balance = 41 WHERE name = 'table:t1:ann'"))
        assert main(["admin", "audit", "--database", url]) == 1
        assert "PROBLEM" in capsys.readouterr().out
    finally:
        engine.dispose()
