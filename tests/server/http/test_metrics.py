"""GET /metrics: the room measured in the Prometheus text format, to operators on
the room's port, and to anybody on the separate metrics address."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

from server.dbroom import OPERATOR, OPERATOR_PASSWORD, db_room
from server.roomclient import Client, play
from server.roomdb import free_port
from stud8.server.settings import Settings


def samples(text: str) -> dict[str, float]:
    """Each sample by name and labels (``stud8_tables{state="paused"}``)."""
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(s.labels.items()))
            out[f"{s.name}{{{labels}}}" if labels else s.name] = s.value
    return out


async def login(http: httpx.AsyncClient, name: str, password: str) -> str:
    r = await http.post("/api/v1/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def test_the_metrics_count_the_room_s_tables_players_hands_and_actions(tmp_path: Path) -> None:
    metrics_port = free_port()
    settings = Settings(default_tables=0, signups=100, metrics_port=metrics_port)

    async def body() -> None:
        async with db_room(tmp_path, settings) as (http, room, port):
            op = await login(http, OPERATOR, OPERATOR_PASSWORD)
            auth = {"Authorization": f"Bearer {op}"}
            spec = {"table_id": "t1", "bots": 2, "between_hands": 0.05, "showdown_seconds": 0}
            assert (await http.post("/api/v1/tables", json=spec, headers=auth)).status_code == 201
            r = await http.post("/api/v1/register", json={"name": "ann", "password": "pw-ann-123"})
            assert r.status_code == 201
            ann = await login(http, "ann", "pw-ann-123")
            # not an operator: no metrics on the room's port
            assert (await http.get("/metrics")).status_code == 401
            bearer = {"Authorization": f"Bearer {ann}"}
            assert (await http.get("/metrics", headers=bearer)).status_code == 403
            uri = f"ws://127.0.0.1:{port}/ws/v1/tables/t1?token={ann}"
            async with connect(uri) as ws:
                client = Client(ws, "ann")
                await client.recv()  # the welcome
                reply = await client.command("sit", seat=4, amount=200)
                assert reply["t"] == "ack", reply
                client.seat = 4
                # the first hand to finish may be one dealt before she sat
                acks = await play(client, 3)
                while client.acting is not None:  # her last action's ack may follow the end
                    if (await client.recv())["t"] == "ack":
                        acks += 1
                r = await http.get("/metrics", headers=auth)
                assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
                seen = samples(r.text)
                assert seen['stud8_tables{state="dealing"}'] == 1
                assert seen['stud8_tables{state="paused"}'] == 0
                assert seen["stud8_seated_players"] == 3  # ann and two bots
                assert seen["stud8_connections"] == 1
                assert seen["stud8_hands_total"] >= 2
                # every action she sent is counted once it is answered; under load
                # (load 12) one more than the acks she had read was seen once, not
                # traced: the count may lead her reading by one answer
                assert acks >= 2
                assert acks <= seen["stud8_actions_total"] <= acks + 1
                assert seen["stud8_action_seconds_count"] == seen["stud8_actions_total"]
                assert 0 < seen["stud8_action_seconds_sum"] < acks * 5
                assert seen["stud8_writer_jobs_total"] > 0
                assert 0 < seen["stud8_writer_lag_seconds"] < 5
                assert seen["stud8_writer_queue"] >= 0
                assert seen["stud8_database_errors_total"] == 0
                assert seen["stud8_database_retries_total"] == 0
                assert seen["stud8_books_alarms_total"] == 0
                room.alarms.raise_alarm("t1", "a test's alarm")  # the books' self-check
                again = samples((await http.get("/metrics", headers=auth)).text)
                assert again["stud8_books_alarms_total"] == 1
            # the separate address: no session needed
            async with httpx.AsyncClient() as plain:
                r = await plain.get(f"http://127.0.0.1:{metrics_port}/metrics")
                assert r.status_code == 200
                assert samples(r.text)["stud8_connections"] == 0
                r = await plain.get(f"http://127.0.0.1:{metrics_port}/api/v1/tables")
                assert r.status_code == 404

    asyncio.run(asyncio.wait_for(body(), 90))


def test_without_a_metrics_port_nothing_else_listens(tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path) as (_http, room, _port):
            assert room.app.state.metrics_listener is None

    asyncio.run(asyncio.wait_for(body(), 60))
