"""Tournaments in a room on several nodes (``stud8 serve --redis --node``, processes):
one owner node per tournament (its lease in Redis, its epoch in PostgreSQL), its
tables run there and reached from every node through the bus; the requests that
change it (register, unregister, bots) made through another node and done by the
owner; and when the owner is killed mid-hand (SIGKILL), another node takes the
tournament over within the lease's time, cancels the hand cut short (every stack
as at its deal), and plays it to its end: places 1..N, the prizes paid once, the
tournament chips conserved, ``stud8 admin audit`` balanced.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import redis
from sqlalchemy import func, select

from server.cluster.clusterprocess import Player, drain, is_event, nodes, play_turns, wait_until
from server.roomdb import fresh_database
from server.roomprocess import OPERATOR, Server, audit, bearer, register
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger, bank
from stud8.server.books.recovery import CANCELLED_NOTE
from stud8.server.books.tournaments import fees_account, prizes_account
from stud8.server.storage import create_engine_for
from stud8.server.storage.models import TournamentRow, Transaction
from stud8.tournament.director import Director

BUY_IN, FEE, CHIPS = 100, 10, 200
# the lease (5 s) and a node's grace (3 s), with room for a busy machine (the time it
# took is printed)
TAKEOVER_SECONDS = 30.0


def new_tournament(server: Server, entrants: int) -> tuple[int, str]:
    """An operator makes a fast sit-and-go through ``server``: its id, his token."""
    with httpx.Client(base_url=server.base, timeout=20) as http:
        boss = register(http, OPERATOR)
        body = {
            "name": "Nodes SNG",
            "structure": "hyper",
            "buy_in": BUY_IN,
            "fee": FEE,
            "table_size": entrants,
            "max_entrants": entrants,
            "starting_chips": CHIPS,
            "level_hands": 2,
        }
        r = http.post("/api/v1/tournaments", json=body, headers=bearer(boss))
        assert r.status_code == 201, r.text
        return int(r.json()["tournament"]["summary"]["tournament_id"]), boss


def tournament_owner(redis_url: str, tid: int) -> str | None:
    client = redis.Redis.from_url(redis_url)
    try:
        holder = client.get(f"stud8:tlease:{tid}")
    finally:
        client.close()
    return holder.decode() if isinstance(holder, bytes) else None


def listed_by(redis_url: str, table_id: str) -> str | None:
    """The node that runs a table, as the room's directory says (a tournament's
    table has no lease of its own: it follows its tournament's)."""
    client = redis.Redis.from_url(redis_url)
    try:
        entry = client.hget("stud8:tables", table_id)
    finally:
        client.close()
    return entry.split(b"\n", 1)[0].decode() if isinstance(entry, bytes) else None


def stored(pg: str, tid: int) -> tuple[str, dict[str, Any], int, str | None]:
    """The tournament's phase, director's state, epoch and owner in the database."""
    engine = create_engine_for(pg)
    try:
        with engine.connect() as conn:
            row = conn.execute(
                select(
                    TournamentRow.phase,
                    TournamentRow.state,
                    TournamentRow.epoch,
                    TournamentRow.owner,
                ).where(TournamentRow.id == tid)
            ).one()
        return row.phase, json.loads(row.state)["director"], row.epoch, row.owner
    finally:
        engine.dispose()


def hands_in_play(pg: str, tid: int) -> list[str]:
    engine = create_engine_for(pg)
    try:
        return [
            h.hand_id for h in HandStore(engine).in_progress() if h.table.startswith(f"T{tid}-")
        ]
    finally:
        engine.dispose()


def check_the_end(pg: str, tmp_path: Path, tid: int, entrants: int) -> dict[str, Any]:
    """Over: places 1..N, the pool paid exactly and once, the chips all the
    winner's, the audit balanced. The final state."""
    phase, state, _, _ = stored(pg, tid)
    assert phase == "finished"
    director = Director.from_dict(state)
    assert director.chips_in_play == CHIPS * entrants  # tournament chips conserved
    assert len(director.results) == entrants
    covered = {r.place + k for r in director.results for k in range(r.shared)}
    assert covered == set(range(1, entrants + 1))  # places 1..N, no gap (ties share)
    assert sum(r.prize for r in director.results) == BUY_IN * entrants
    engine = create_engine_for(pg)
    try:
        ledger = Ledger(engine)
        assert ledger.balance(prizes_account(tid)) == 0
        assert ledger.balance(fees_account(tid)) == FEE * entrants
        with engine.connect() as conn:
            paid = conn.execute(
                select(func.count())
                .select_from(Transaction)
                .where(Transaction.kind == "tournament_prizes")
                .where(Transaction.memo == f"tournament {tid}: the prizes")
            ).scalar_one()
        assert paid == 1  # the prizes paid once, whoever owned the tournament
        for r in director.results:
            if r.player.startswith("bot"):  # a bot's buy-in was issued to it: it has its prize
                assert ledger.balance(bank(r.player)) == r.prize
        assert ledger.audit().ok
    finally:
        engine.dispose()
    result = audit(pg, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    return state


def test_a_sit_and_go_owned_by_one_node_played_through_another(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    with nodes(pg, redis_url, tmp_path, ("a", "b"), STUD8_BOT_DELAY="0.01") as servers:
        a, b = servers["a"], servers["b"]
        tid, _ = new_tournament(a, 4)
        assert tournament_owner(redis_url, tid) == "a"  # the node that made it runs it
        assert stored(pg, tid)[2:] == (1, "a")
        with httpx.Client(base_url=b.base, timeout=30) as http:
            boss = bearer(register(http, OPERATOR))
            ann = register(http, "ann")
            before = http.get("/api/v1/me", headers=bearer(ann)).json()
            # register, unregister, register again: through b, done by a
            path = f"/api/v1/tournaments/{tid}"
            r = http.post(f"{path}/register", headers=bearer(ann))
            assert r.status_code == 200 and r.json()["players"] == ["ann"], r.text
            again = http.post(f"{path}/register", headers=bearer(ann))
            assert again.status_code == 409, again.text  # the owner refused: said through b
            assert http.post(f"{path}/unregister", headers=bearer(ann)).status_code == 200
            assert http.post(f"{path}/register", headers=bearer(ann)).status_code == 200
            missing = http.post("/api/v1/tournaments/999/register", headers=bearer(ann))
            assert missing.status_code == 404
            seen = http.get(path).json()  # any node reads it (the database)
            assert [e["player"] for e in seen["entrants"] if not e["out"]] == ["ann"]
            r = http.post(f"{path}/bots", json={"count": 3}, headers=boss)
            assert r.status_code == 200 and len(r.json()["players"]) == 3, r.text
            table_id = f"T{tid}-1"
            wait_until(lambda: listed_by(redis_url, table_id) is not None, "the table listed")
            assert listed_by(redis_url, table_id) == "a"  # the tournament's node runs its table
            assert table_id not in [
                t["table_id"] for t in http.get("/api/v1/tables").json()["tables"]
            ]

            async def play() -> list[dict[str, Any]]:
                player = await Player.connect(b, table_id, "ann", ann)  # at b, played at a
                stop = asyncio.Event()
                acting = asyncio.create_task(play_turns(player, stop))
                try:
                    deadline = time.monotonic() + 120
                    while stored(pg, tid)[0] != "finished":
                        assert time.monotonic() < deadline, player.messages[-5:]
                        await asyncio.sleep(0.2)
                    await player.wait_for("the end", lambda m: "is over" in json.dumps(m))
                finally:
                    stop.set()
                    acted = await acting
                    await player.close()
                assert acted > 0  # ann acted at her table through b
                return player.messages

            messages = asyncio.run(play())
            assert any(is_event("hand_finish")(m) for m in messages)
            assert any(is_event("tournament")(m) for m in messages)
            state = check_the_end(pg, tmp_path, tid, 4)
            detail = http.get(path).json()
            assert detail["summary"]["phase"] == "finished"
            shares = {(e["place"], e["shared"]) for e in detail["results"]}  # ties share
            assert sorted(p + i for p, shared in shares for i in range(shared)) == [1, 2, 3, 4]
            ann_place = next(r for r in detail["results"] if r["player"] == "ann")
            after = http.get("/api/v1/me", headers=bearer(ann)).json()
            assert after["balance"] == before["balance"] - BUY_IN - FEE + ann_place["prize"]
            late = http.post(f"{path}/register", headers=bearer(ann))
            assert late.status_code == 409, late.text  # over: refused
        assert state["hands_dealt"] >= 2


def test_the_owner_killed_mid_hand_another_node_finishes_the_tournament(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    entrants = 5
    with nodes(pg, redis_url, tmp_path, ("a", "b"), STUD8_BOT_DELAY="0.05") as servers:
        a, b = servers["a"], servers["b"]
        tid, _ = new_tournament(a, entrants)
        with httpx.Client(base_url=b.base, timeout=30) as http:
            token = register(http, OPERATOR)
            boss = bearer(token)
            r = http.post(f"/api/v1/tournaments/{tid}/bots", json={"count": entrants}, headers=boss)
            assert r.status_code == 200, r.text
        assert tournament_owner(redis_url, tid) == "a"
        wait_until(lambda: stored(pg, tid)[1]["hands_dealt"] >= 2, "a few hands")

        async def kill_mid_hand() -> tuple[str, float, tuple[Any, ...], dict[str, Any]]:
            """Kill a in a hand, watched through b: the hand cut short, when, the
            tournament as stored then, and what the watcher is sent by the table's new
            owner."""
            watcher = await Player.connect(b, f"T{tid}-1", OPERATOR, token)  # the one table
            try:
                await watcher.wait_for("the table", lambda m: m["t"] == "snapshot")
                deadline = time.monotonic() + 30
                while not hands_in_play(pg, tid):
                    assert time.monotonic() < deadline, "no hand in play"
                    await asyncio.sleep(0.05)
                mark = len(watcher.messages)
                a.process.send_signal(signal.SIGKILL)
                a.process.wait(10)
                killed_at = time.monotonic()
                (cut,) = hands_in_play(pg, tid)  # the hand the kill cut short
                at_kill = stored(pg, tid)  # before the takeover
                found = await watcher.wait_for(
                    "the table from its new owner", lambda m: m["t"] == "snapshot", mark
                )
                return cut, killed_at, at_kill, watcher.messages[found]["d"]
            finally:
                await watcher.close()

        cut, killed_at, at_kill, snapshot = asyncio.run(asyncio.wait_for(kill_mid_hand(), 120))
        # the hand the takeover cancelled, told to who watched it (issue 28)
        assert {"k": "hand_refunded", "hand_id": cut, "number": cut} in snapshot["refunded"]
        assert snapshot["hand"] is None or snapshot["hand"]["hand_id"] != cut
        phase, before, epoch, _ = at_kill
        assert phase == "running" and epoch == 1
        (table,) = [t for t in before["tables"] if t["hand"] is not None]
        dealt = {e: c for _, e, c in table["dealt"]}
        seats = {e: (t["number"], s) for t in before["tables"] for s, e in t["seats"]}

        wait_until(
            lambda: tournament_owner(redis_url, tid) == "b", "b takes it over", TAKEOVER_SECONDS
        )
        took = time.monotonic() - killed_at
        print(f"tournament {tid}: node b holds it {took:.1f} s after node a was killed")
        wait_until(lambda: stored(pg, tid)[0] == "finished", "the end", 180)
        state = check_the_end(pg, tmp_path, tid, entrants)
        assert stored(pg, tid)[2:] == (2, "b")  # its epoch went up once: b's
        engine = create_engine_for(pg)
        try:
            store = HandStore(engine)
            kept = store.fetch(cut)
            assert kept is not None and kept.cancelled and kept.note == CANCELLED_NOTE
            # the next hand at that table: every stack as at the cut hand's deal
            players = {e[0]: e[1] for e in before["entries"]}
            order = list(reversed(store.latest(1000)))
            table_id = f"T{tid}-{table['number']}"
            later = [h for h in order[order.index(cut) + 1 :]]
            first = next(
                kept
                for h in later
                if (kept := store.fetch(h)) is not None and kept.table == table_id
            )
            assert not first.cancelled
            assert {s.player: s.stack for s in first.seats} == {
                players[e]: c for e, c in dealt.items()
            }
            # the same seats after the takeover (those still in)
            first_state = {s.player: s.seat for s in first.seats}
            for entry, (number, seat) in seats.items():
                if players[entry] in first_state and number == table["number"]:
                    assert first_state[players[entry]] == seat
        finally:
            engine.dispose()
        assert state["hands_dealt"] > before["hands_dealt"]


def test_a_drained_owner_hands_the_tournament_over_between_hands(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    entrants = 4
    with nodes(pg, redis_url, tmp_path, ("a", "b"), STUD8_BOT_DELAY="0.05") as servers:
        tid, boss = new_tournament(servers["a"], entrants)
        with httpx.Client(base_url=servers["a"].base, timeout=30) as http:
            r = http.post(
                f"/api/v1/tournaments/{tid}/bots", json={"count": entrants}, headers=bearer(boss)
            )
            assert r.status_code == 200, r.text
        wait_until(lambda: stored(pg, tid)[1]["hands_dealt"] >= 2, "a few hands")
        result = drain(redis_url, "a", tmp_path, wait=30)
        assert result.returncode == 0, result.stdout + result.stderr
        wait_until(lambda: tournament_owner(redis_url, tid) == "b", "b takes it over", 30)
        wait_until(lambda: stored(pg, tid)[0] == "finished", "the end", 180)
        check_the_end(pg, tmp_path, tid, entrants)
        assert stored(pg, tid)[2:] == (2, "b")
        engine = create_engine_for(pg)
        try:
            store = HandStore(engine)
            hands = [store.fetch(h) for h in store.latest(1000)]
            ours = [h for h in hands if h is not None and h.table.startswith(f"T{tid}-")]
            assert ours and not [h.hand_id for h in ours if h.cancelled]  # none cancelled
        finally:
            engine.dispose()
