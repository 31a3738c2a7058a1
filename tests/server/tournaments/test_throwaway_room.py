"""``stud8 serve --memory``, the throwaway room, as a user runs it (the real command,
a process on 127.0.0.1): the room on a temporary SQLite database deleted at exit, so
everything a room on a database does works there, tournaments included: an operator
(made from ``STUD8_OPERATORS`` with the one-time password the log gives) creates a
sit-and-go, fills it with bots, and it plays to the end with its prizes paid; at exit
the database is gone."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from server.roomdb import free_port


def _wait(check: Any, seconds: float, what: str, log: Path) -> Any:
    end = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < end, f"timed out waiting for {what}:\n{log.read_text()}"
        time.sleep(0.1)


def test_stud8_serve_memory_runs_a_tournament_and_leaves_nothing(tmp_path: Path) -> None:
    port, log, scratch = free_port(), tmp_path / "server.log", tmp_path / "tmp"
    scratch.mkdir()
    environ = {
        **os.environ,
        "TMPDIR": str(scratch),  # where the throwaway database goes
        "STUD8_OPERATORS": "boss",
        "STUD8_DEFAULT_TABLES": "0",
        "STUD8_BETWEEN_HANDS": "0.05",
        "STUD8_SHOWDOWN_SECONDS": "0",
        "STUD8_BOT_DELAY": "0",
    }
    command = [sys.executable, "-m", "stud8", "serve", "--memory", "--host", "127.0.0.1"]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, "--port", str(port)],
            cwd=tmp_path,
            env=environ,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20) as http:

            def up() -> bool:
                assert process.poll() is None, log.read_text()
                try:
                    return http.get("/api/v1/tournaments").status_code == 200
                except httpx.TransportError:
                    return False

            _wait(up, 60, "the server", log)
            databases = list(scratch.glob("stud8-room-*/room.db"))
            assert len(databases) == 1, databases  # the throwaway database, while it runs
            found = re.search(r"'boss' made, with the one-time password (\S+)", log.read_text())
            assert found, log.read_text()
            r = http.post("/api/v1/login", json={"name": "boss", "password": found.group(1)})
            assert r.status_code == 200, r.text
            boss = {"Authorization": f"Bearer {r.json()['token']}"}
            body = {
                "name": "Throwaway SNG",
                "structure": "hyper",
                "buy_in": 10,
                "fee": 1,
                "table_size": 4,
                "max_entrants": 4,
                "starting_chips": 300,
                "level_hands": 2,
            }
            r = http.post("/api/v1/tournaments", json=body, headers=boss)
            assert r.status_code == 201, r.text  # was 503: "this room keeps no tournaments"
            tid = r.json()["tournament"]["summary"]["tournament_id"]
            listed = http.get("/api/v1/tournaments").json()["tournaments"]
            assert [t["tournament_id"] for t in listed] == [tid]
            r = http.post(f"/api/v1/tournaments/{tid}/bots", json={"count": 4}, headers=boss)
            assert r.status_code == 200, r.text

            def finished() -> dict[str, Any] | None:
                detail: dict[str, Any] = http.get(f"/api/v1/tournaments/{tid}").json()
                return detail if detail["summary"]["phase"] == "finished" else None

            detail = _wait(finished, 180, "the end of the tournament", log)
            # places 1..4 with no gap: two busted in one hand with the same stack share
            # a place (the first of those they share), as the director ranks them
            places = {(e["place"], e["shared"]) for e in detail["entrants"]}
            assert sorted(p + i for p, shared in places for i in range(shared)) == [1, 2, 3, 4]
            assert sum(e["prize"] for e in detail["entrants"]) == 4 * 10
            summary = http.get(f"/api/v1/tournaments/{tid}/summary")
            assert summary.status_code == 200, summary.text
            assert f"Tournament #{tid}," in summary.text and "Total Prize Pool: $40" in summary.text
            hands = http.get("/api/v1/hands", headers=boss)
            assert hands.status_code == 200, hands.text
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 0, log.read_text()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    assert list(scratch.iterdir()) == [], "the throwaway database is left behind"
