"""fpdb imports the room's hands as ``GET /api/v1/hands`` gives them, to a player
(his view) and to the operator (every card), with the pot, rake and collected
amounts of the room's own records: a raked table where two players call down
against the room's bots (showdowns, folds, uncalled bets)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from server.roomdb import serving
from stud8.formats.pokerstars.write import HAND_SEPARATOR, hand_number
from stud8.server.runtime import memory_app
from stud8.server.settings import Settings
from trackercheck import fpdb_check, totals_are_ours, trackable

HANDS = 6  # hands each player is dealt: enough for a raked showdown (pots of 20 and up)


async def _call_down(port: int, table_id: str, token: str, seat: int) -> None:
    """A player who sits and checks or calls (bringing in when he must) for HANDS hands."""
    uri = f"ws://127.0.0.1:{port}/ws/v1/tables/{table_id}?token={token}"
    async with connect(uri) as ws:
        ids = 0

        async def send(t: str, **d: Any) -> None:
            nonlocal ids
            ids += 1
            await ws.send(json.dumps({"t": t, "d": {"id": f"s{seat}-{ids}", **d}}))

        await send("sit", seat=seat, amount=200)
        finished = 0
        dealt = False  # the hand in play is one of his (he may sit during the bots' first)
        while finished < HANDS:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert msg["t"] != "reject", msg
            if msg["t"] == "event" and msg["d"]["k"] == "hand_start":
                dealt = any(s == seat for s, _ in msg["d"]["stacks"])
            elif msg["t"] == "event" and msg["d"]["k"] == "hand_finish":
                finished += dealt
            elif msg["t"] == "turn":
                legal = {a["kind"] for a in msg["d"]["legal"]}
                kind = next(k for k in ("bring_in", "check", "call", "fold") if k in legal)
                await send("act", kind=kind)


def test_fpdb_imports_the_rooms_hands(tmp_path: Path) -> None:
    settings = Settings(default_tables=0, starting_chips=1000)
    env = {"STUD8_BETWEEN_HANDS": "0.02", "STUD8_BOT_DELAY": "0"}
    app = memory_app(settings, env, operators={"boss": "pw-12345"})

    async def body() -> tuple[str, str]:
        async with (
            serving(app) as port,
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
        ):
            tokens, headers = {}, {}
            for name in ("boss", "ann", "bob"):
                login = {"name": name, "password": "pw-12345"}
                if name != "boss":  # the operator was made with the room
                    r = await http.post("/api/v1/register", json=login)
                    assert r.status_code == 201
                r = await http.post("/api/v1/login", json=login)
                tokens[name] = r.json()["token"]
                headers[name] = {"Authorization": f"Bearer {tokens[name]}"}
            r = await http.post(
                "/api/v1/tables",
                json={
                    "table_id": "fpdb",
                    "between_hands": 0.02,
                    "bots": 2,
                    "bot_delay": 0,
                    "rake_percent": "5",
                    "rake_cap": 3,
                },
                headers=headers["boss"],
            )
            assert r.status_code == 201, r.text
            await asyncio.gather(
                _call_down(port, "fpdb", tokens["ann"], 7),
                _call_down(port, "fpdb", tokens["bob"], 8),
            )
            ann = await http.get("/api/v1/hands", params={"limit": 50}, headers=headers["ann"])
            boss = await http.get("/api/v1/hands", params={"limit": 50}, headers=headers["boss"])
            assert ann.status_code == boss.status_code == 200
            return ann.text, boss.text

    ann, boss = asyncio.run(asyncio.wait_for(body(), 120))
    assert ann.count("PokerStars Hand #") >= HANDS
    assert "*** SHOW DOWN ***" in boss and re.search(r"\| Rake \d*[1-9]", boss)
    # the room's records behind the texts: the same numbers, the same totals
    records = list(reversed(app.state.books.hands._latest(50)))
    assert all(trackable(r) for r in records)
    by_number = {str(hand_number(r.hand_id)): r for r in records}
    for text in (ann, boss):
        hands = text.split(HAND_SEPARATOR)
        numbers = [re.match(r"PokerStars Hand #(\d+):  ", h.strip()) for h in hands]
        assert all(numbers), text
        totals_are_ours(text, [by_number[m.group(1)] for m in numbers if m])
    files = [tmp_path / "player.txt", tmp_path / "operator.txt"]
    files[0].write_text(ann, encoding="utf-8")
    files[1].write_text(boss, encoding="utf-8")
    fpdb_check(files)
