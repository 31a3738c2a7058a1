"""A graceful stop of a real ``stud8 serve`` process (SQLite and PostgreSQL): SIGTERM
with hands in play lets them finish, deals no new hand, tells the players the room
is closing after this hand, and exits 0; past ``--stop-seconds`` the hand left is
cancelled and refunded, as a plain stop does. The books balance after both."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.roomprocess import (
    OPERATOR,
    Server,
    audit,
    bearer,
    open_table,
    register,
    running_server,
    sit_and_go_of_bots,
)
from stud8.server.books.hands import HandStore
from stud8.server.http.stopping import CLOSING
from stud8.server.storage import create_engine_for

TABLES = ("t1", "t2")


async def watch_until_stopped(server: Server, tables: tuple[str, ...]) -> dict[str, list[Any]]:
    """Watch the tables; once each has a hand in play, SIGTERM the server; every
    message each watcher got until its socket closed, and when the signal went."""
    seen: dict[str, list[Any]] = {t: [] for t in tables}
    in_play = {t: asyncio.Event() for t in tables}
    playing = dict.fromkeys(tables, False)  # a hand started and not finished, as seen

    async def watch(table_id: str) -> None:
        uri = f"ws://127.0.0.1:{server.port}/ws/v1/tables/{table_id}"
        async with connect(uri) as ws:
            try:
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    seen[table_id].append((time.monotonic(), msg))
                    if msg["t"] == "event" and msg["d"]["k"] in ("hand_start", "hand_finish"):
                        playing[table_id] = msg["d"]["k"] == "hand_start"
                        if playing[table_id]:
                            in_play[table_id].set()
            except ConnectionClosed:
                return

    watchers = [asyncio.create_task(watch(t)) for t in tables]
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in in_play.values())), 30)
    await asyncio.sleep(0.3)  # into the hands: a few actions in
    # a quick hand (all fold to the bring-in) may have ended meanwhile: the signal
    # goes when every table is in a hand, not between two (or a hand_start of the
    # next would be seen after it)
    deadline = time.monotonic() + 30
    while not all(playing.values()):
        assert time.monotonic() < deadline, "the tables were never all in a hand at once"
        await asyncio.sleep(0.005)
    seen["sigterm"] = [time.monotonic()]
    server.process.send_signal(signal.SIGTERM)
    await asyncio.wait_for(asyncio.gather(*watchers), 60)
    return seen


def _kinds(messages: list[Any], after: float) -> list[str]:
    return [m["d"]["k"] if m["t"] == "event" else m["t"] for when, m in messages if when > after]


def test_sigterm_finishes_the_hands_in_play_and_deals_no_new_one(url: str, tmp_path: Path) -> None:
    # bots that think a little: a hand lasts a few seconds
    with running_server(url, tmp_path, STUD8_BOT_DELAY="0.1") as server:
        with httpx.Client(base_url=server.base, timeout=10) as http:
            op = register(http, OPERATOR)
            for table_id in TABLES:
                open_table(http, op, table_id, bots=4, between_hands=0.05, showdown_seconds=0)
        started = time.monotonic()
        seen = asyncio.run(watch_until_stopped(server, TABLES))
        assert server.process.wait(30) == 0
        stopped = time.monotonic()
    sigterm = seen["sigterm"][0]
    log = server.log.read_text()
    for table_id in TABLES:
        after = _kinds(seen[table_id], sigterm)
        # the hand in play went on to its end, the players were told, and no hand followed
        assert "notice" in after and "hand_finish" in after, (table_id, after)
        assert "hand_start" not in after, (table_id, after)
        notice = next(m for _, m in seen[table_id] if m["t"] == "notice")
        assert notice["d"] == {"text": CLOSING}
    assert "2 hand(s) in play finish" in log and "2 hand(s) finished in" in log, log
    assert "cancelled" not in log.split("SIGTERM", 1)[1], log
    assert "Traceback" not in log, log
    finished = log.split("2 hand(s) finished in ", 1)[1].split(" s", 1)[0]
    kind = url.split(":")[0]
    took = f"SIGTERM to exit {stopped - sigterm:.1f} s; run {stopped - started:.1f} s"
    print(f"graceful stop on {kind}: 2 hands finished in {finished} s ({took})")
    done = audit(url, tmp_path)
    assert done.returncode == 0 and "OK" in done.stdout, done.stdout + done.stderr


def test_past_the_limit_the_hand_left_is_cancelled_and_refunded(url: str, tmp_path: Path) -> None:
    with running_server(
        url, tmp_path, args=["--stop-seconds", "0.5"], STUD8_BOT_DELAY="1"
    ) as server:
        with httpx.Client(base_url=server.base, timeout=10) as http:
            op = register(http, OPERATOR)
            open_table(http, op, "t1", bots=4, between_hands=0.05, showdown_seconds=0)
        seen = asyncio.run(watch_until_stopped(server, ("t1",)))
        assert server.process.wait(30) == 0
    after = _kinds(seen["t1"], seen["sigterm"][0])
    assert "notice" in after and "hand_finish" not in after and "hand_start" not in after, after
    log = server.log.read_text()
    assert "0 hand(s) finished in" in log and "1 still in play are cancelled and refunded" in log
    done = audit(url, tmp_path)
    assert done.returncode == 0 and "OK" in done.stdout, done.stdout + done.stderr


def test_a_tournament_hand_in_play_finishes_too(url: str, tmp_path: Path) -> None:
    """A sit-and-go of bots: SIGTERM mid-hand; the hand ends (not cancelled), the room
    exits 0 with nothing left noted, and the tournament is still running, to go on at
    the next start."""
    with running_server(url, tmp_path, STUD8_BOT_DELAY="0.15") as server:
        with httpx.Client(base_url=server.base, timeout=20) as http:
            sit_and_go_of_bots(http, bearer(register(http, OPERATOR)), "Stop SNG")
        deadline = time.monotonic() + 60
        while not _noted(url):
            assert time.monotonic() < deadline, "no tournament hand was dealt"
            time.sleep(0.05)
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(60) == 0
    log = server.log.read_text()
    assert "1 hand(s) in play finish" in log and "1 hand(s) finished in" in log, log
    assert _noted(url) == []  # nothing left to cancel at the next start
    engine = create_engine_for(url)
    try:
        store = HandStore(engine)
        assert not any(h.cancelled for h in map(store.fetch, store.latest(1000)) if h), log
    finally:
        engine.dispose()
    done = audit(url, tmp_path)
    assert done.returncode == 0 and "OK" in done.stdout, done.stdout + done.stderr


def _noted(url: str) -> list[str]:
    """The hands noted as in play (dealt, not ended)."""
    engine = create_engine_for(url)
    try:
        return [h.hand_id for h in HandStore(engine).in_progress()]
    finally:
        engine.dispose()
