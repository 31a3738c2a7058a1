"""The player pool of ``benchmarks/bench_room.py`` (``benchmarks/_room_clients.py``)
against a real room on SQLite in this event loop, with each websocket client it can
run on (picows, websockets): eight instant players at two tables for a few seconds,
then they leave. What the benchmark reports must be true of what happened: actions
measured, every seat's ledger of its table balanced, nobody left seated, no client
error, the room's own books balanced; and the messages it skips undecoded (told by
their first bytes) are skipped, so the server still writes them as the pool expects.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing as mp
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from server.dbroom import OPERATOR, OPERATOR_PASSWORD, db_room
from stud8.server.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from _room_clients import CLIENTS, PoolConfig, run_pool

SEATS = 4
TABLES = ("b1", "b2")
WINDOW = 3.0  # seconds of play measured
SETTINGS = Settings(
    default_tables=0,
    # every player comes from 127.0.0.1: lift the limits on one address, as the bench does
    signups=100,
    address_sockets=100,
    address_rate=10_000.0,
    address_burst=10_000,
    address_failures=100,
)


def play(client: str, tmp_path: Path) -> tuple[dict[str, Any], bool]:
    """The pool's figures, and whether the room's ledger audits as balanced after."""

    async def body() -> tuple[dict[str, Any], bool]:
        async with db_room(tmp_path, SETTINGS) as (http, room, port):
            r = await http.post(
                "/api/v1/login", json={"name": OPERATOR, "password": OPERATOR_PASSWORD}
            )
            headers = {"Authorization": f"Bearer {r.json()['token']}"}
            for table_id in TABLES:
                spec = {"table_id": table_id, "seats": SEATS, "max_buy_in": 400}
                spec |= {"showdown_seconds": 0, "between_hands": 0}
                r = await http.post("/api/v1/tables", json=spec, headers=headers)
                assert r.status_code == 201, r.text
            ctx = mp.get_context("spawn")
            out = ctx.Queue()
            go = ctx.Event()
            t0 = ctx.Value("d", 0.0)
            t_end = ctx.Value("d", 0.0)
            config = PoolConfig(
                port=port,
                tables=TABLES,
                seats=SEATS,
                worker=0,
                min_delay=0.0,
                max_delay=0.0,
                buy_in=400,
                leave_seconds=30.0,
                deflate=False,
                seed=7,
                client=client,
            )

            async def start_when_seated() -> None:
                seated = await asyncio.to_thread(out.get, True, 60)
                assert seated[0] == "seated" and seated[2] == SEATS * len(TABLES), seated
                t0.value = time.monotonic() + 0.2
                t_end.value = t0.value + WINDOW
                go.set()

            starter = asyncio.ensure_future(start_when_seated())
            try:
                result = await asyncio.wait_for(run_pool(config, out, go, t0, t_end), 90)
            finally:
                gc.unfreeze()  # run_pool froze this test process's objects
            await starter
            return result, room.ledger.audit().ok

    return asyncio.run(body())


@pytest.mark.parametrize("client", CLIENTS)
def test_the_pool_plays_and_balances_its_chips(client: str, tmp_path: Path) -> None:
    result, audited = play(client, tmp_path)
    assert result["client"] == client
    assert result["errors"] == []
    assert result["actions"] > 0 and len(result["latencies"]) > 0  # measured in the window
    assert all(latency >= 0 for latency in result["latencies"])
    assert result["hands"] > 0
    assert result["not_left"] == 0
    assert result["timeouts"] == 0  # instant players: no turn ran out
    ledgers = result["ledgers"]
    assert sorted(ledgers) == list(TABLES)
    for table_id, ledger in ledgers.items():
        assert ledger["chips_in"] >= SEATS * 400, table_id  # every buy-in seen
        assert ledger["chips_in"] == ledger["chips_out"] + ledger["rake"], (table_id, ledger)
        assert ledger["hands"] > 0 and ledger["hand_errors"] == 0, (table_id, ledger)
    # the cards dealt, the streets... are told by their first bytes and not decoded:
    # if the server wrote its messages in another order, every one would be decoded
    assert 0 < result["decoded"] < result["messages"]
    assert audited
