"""A sit-and-go in the room, end to end through the REST API, on SQLite and PostgreSQL:
a player registers, unregisters (his money back) and registers again, an operator
registers bots to fill it, it starts when full, plays to the end with the same
director as the simulator, pays the prizes into the banks in one ledger transaction,
the audit balances, and the hands are PokerStars tournament hands that ``stud8 hh
verify`` reproduces and fpdb accepts; the summary is PokerStars'.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from pathlib import Path

from sqlalchemy import select

from server.tournaments.tourroom import login, operator, tournament_room, until
from stud8.formats.verify import Verdict, verify_file
from stud8.server.books.ledger import bank
from stud8.server.books.tournaments import fees_account, prizes_account
from stud8.server.storage.models import Transaction
from trackercheck import fpdb_check

SNG = {
    "name": "Stud/8 SNG",
    "structure": "hyper",
    "starting_chips": 200,
    "level_hands": 3,
    "buy_in": 100,
    "fee": 10,
    "table_size": 6,
    "max_entrants": 6,
}


def test_a_sit_and_go_with_bots_plays_to_the_end_and_pays(url: str, tmp_path: Path) -> None:
    asyncio.run(asyncio.wait_for(_sit_and_go(url, tmp_path), 400))


async def _sit_and_go(url: str, tmp_path: Path) -> None:
    async with tournament_room(url, players={"ann": 1000, "bob": 50}) as (http, room, ts):
        # the human's turns time out fast (he is not connected: dealt in, his clock runs)
        ts.spec = replace(ts.spec, action_seconds=1, time_bank_seconds=0)
        boss = await operator(http)
        ann = await login(http, "ann", "ann-Password-9")
        bob = await login(http, "bob", "bob-Password-9")

        r = await http.post("/api/v1/tournaments", json=SNG, headers=ann)
        assert r.status_code == 403, r.text
        r = await http.post("/api/v1/tournaments", json={**SNG, "max_entrants": 1}, headers=boss)
        assert r.status_code == 400 and "max_entrants" in r.json()["error"], r.text
        r = await http.post("/api/v1/tournaments", json={**SNG, "nonsense": 1}, headers=boss)
        assert r.status_code == 400, r.text
        r = await http.post("/api/v1/tournaments", json=SNG, headers=boss)
        assert r.status_code == 201, r.text
        tid = r.json()["tournament"]["summary"]["tournament_id"]
        path = f"/api/v1/tournaments/{tid}"

        # register, unregister (everything back), register again
        r = await http.post(f"{path}/register", headers=ann)
        assert r.status_code == 200 and r.json()["players"] == ["ann"], r.text
        assert room.ledger.balance(bank("ann")) == 890
        assert room.ledger.balance(prizes_account(tid)) == 100
        r = await http.post(f"{path}/register", headers=ann)
        assert r.status_code == 409 and "already registered" in r.json()["error"], r.text
        r = await http.post(f"{path}/register", headers=bob)  # 50 chips: cannot pay 110
        assert r.status_code == 409, r.text
        assert room.ledger.balance(bank("bob")) == 50
        r = await http.post(f"{path}/unregister", headers=ann)
        assert r.status_code == 200, r.text
        assert room.ledger.balance(bank("ann")) == 1000
        assert room.ledger.balance(prizes_account(tid)) == 0
        assert room.ledger.balance(fees_account(tid)) == 0
        r = await http.post(f"{path}/register", headers=ann)
        assert r.status_code == 200, r.text

        listed = (await http.get("/api/v1/tournaments")).json()["tournaments"]
        assert [(t["tournament_id"], t["phase"], t["entries"]) for t in listed] == [
            (tid, "registering", 1)
        ]
        r = await http.post(f"{path}/bots", json={"count": 5, "policy": "nobody"}, headers=boss)
        assert r.status_code == 409 and "policy" in r.json()["error"], r.text
        r = await http.post(f"{path}/bots", json={"count": 5}, headers=ann)
        assert r.status_code == 403, r.text
        r = await http.post(f"{path}/bots", json={"count": 5}, headers=boss)
        assert r.status_code == 200, r.text
        bots = r.json()["players"]
        assert len(bots) == 5

        # full: it started, one table of six, the cash lobby does not list it
        detail = (await http.get(path)).json()
        assert detail["summary"]["phase"] in ("running", "finished")
        assert detail["summary"]["prize_pool"] == 600
        assert [p["prize"] for p in detail["payouts"]] == [390, 210]
        assert (await http.get("/api/v1/tables")).json()["tables"] == []
        runner = ts.runners[tid]
        await until(lambda: runner.over, 240, "the end of the sit-and-go")

        detail = (await http.get(path)).json()
        assert detail["summary"]["phase"] == "finished"
        results = detail["results"]
        places = sorted(e["place"] for e in results)
        # six places; two busted in one hand with equal stacks share theirs (TDA), as
        # 5, 5 for 5th and 6th: each place is its rank or the one before it
        assert len(places) == 6 and places[0] == 1, places
        for rank, (before, place) in enumerate(itertools.pairwise(places), start=2):
            assert place in (rank, before), places
        assert sum(e["prize"] for e in results) == 600
        prizes = {e["player"]: e["prize"] for e in results}
        # the prizes are in the banks, paid in ONE transaction from the prize pool
        assert room.ledger.balance(bank("ann")) == 1000 - 110 + prizes["ann"]
        for name in bots:
            assert room.ledger.balance(bank(name)) == prizes[name]
        assert room.ledger.balance(prizes_account(tid)) == 0
        assert room.ledger.balance(fees_account(tid)) == 60
        with room.engine.connect() as conn:
            kinds = list(conn.execute(select(Transaction.kind)).scalars())
        assert kinds.count("tournament_prizes") == 1
        report = room.ledger.audit()
        assert report.ok, str(report)
        assert report.fees == 60 and report.prizes == 0

        # over: no more registering; its tables are gone
        r = await http.post(f"{path}/register", headers=bob)
        assert r.status_code == 409, r.text
        await until(lambda: not runner.running, 20, "the tables closed")

        # the hands: PokerStars' tournament form, reproduced and accepted by fpdb
        text = (await http.get("/api/v1/hands", params={"limit": 1000}, headers=boss)).text
        first = text.splitlines()[0]
        assert f": Tournament #{tid}, $100+$10 USD 7 Card Stud Hi/Lo Limit - Level " in first
        hands_file = tmp_path / "tournament.txt"
        hands_file.write_text(text, encoding="utf-8")
        verdicts = verify_file(hands_file)
        assert verdicts and all(isinstance(v, Verdict) and v.reproduced for v in verdicts)
        fpdb_check([hands_file])
        mine = (await http.get("/api/v1/hands", params={"limit": 1000}, headers=ann)).text
        assert mine.count("PokerStars Hand #") >= 1 and "Dealt to ann" in mine

        summary = (await http.get(f"{path}/summary")).text
        lines = summary.splitlines()
        assert lines[0] == f"PokerStars Tournament #{tid}, 7 Card Stud Hi/Lo Limit"
        assert lines[1:4] == ["Buy-In: $100/$10 USD", "6 players", "Total Prize Pool: $600 USD"]
        winner = results[0]["player"]
        assert f"  1: {winner}, $390 (65%)" in lines
        assert lines[-1] == "Tournament finished"


def test_bad_requests_change_nothing(url: str) -> None:
    asyncio.run(asyncio.wait_for(_bad_requests(url), 60))


async def _bad_requests(url: str) -> None:
    async with tournament_room(url, players={"ann": 1000}) as (http, room, _):
        boss = await operator(http)
        ann = await login(http, "ann", "ann-Password-9")
        assert (await http.get("/api/v1/tournaments/99")).status_code == 404
        assert (await http.get("/api/v1/tournaments/x%27")).status_code == 404
        r = await http.post("/api/v1/tournaments/99/register", headers=ann)
        assert r.status_code == 404, r.text
        r = await http.post("/api/v1/tournaments/1/register")
        assert r.status_code == 401, r.text
        for bad in (
            {"structure": "slow"},
            {"game": "holdem"},
            {"start": "soon"},
            {"start": "at_time"},  # no starts_at
            {"starts_at": "tomorrow"},
            {"buy_in": -1},
            {"buy_in": "100"},
            {"level_hands": 0},
            {"payouts": [6000, 5000]},
            {"name": ""},
            {"table_size": 9},
        ):
            r = await http.post("/api/v1/tournaments", json=bad, headers=boss)
            assert r.status_code == 400, (bad, r.text)
        r = await http.post(
            "/api/v1/tournaments",
            content=b"[1]",
            headers={**boss, "content-type": "application/json"},
        )
        assert r.status_code == 400
        assert (await http.get("/api/v1/tournaments")).json() == {"tournaments": []}
        assert room.ledger.audit().ok
