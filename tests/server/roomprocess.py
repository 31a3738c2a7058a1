"""The real server as a process: ``python -m stud8 serve`` on a database, on
127.0.0.1 and a free port, for the tests that stop, kill and restart it
(``tests/server/room``); ``stud8 admin`` commands as processes, the hands it has
settled; accounts and tables
made over its REST API.

Every server :func:`running_server` starts is stopped when its block ends (SIGINT,
a clean shutdown; killed if it does not stop), also when the test fails.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import Engine, func, select

from server.roomdb import free_port
from stud8.server.storage import Transaction

PASSWORD = "secret-pw-1"
OPERATOR = "boss"  # the operator of the servers started here


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, table_id: str, token: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/v1/tables/{table_id}?token={token}"


@contextmanager
def running_server(
    url: str, workdir: Path, *, args: Sequence[str] = (), **env: str
) -> Iterator[Server]:
    """``python -m stud8 serve`` on ``url`` (with ``args``: e.g. ``--redis URL --node
    NAME``), up and answering; stopped at the end.

    No ready tables, 0.05 s between hands, bots without delay, unless ``env`` says
    otherwise; ``boss`` an operator (made with ``stud8 admin create-operator`` first,
    his password :data:`PASSWORD`). Its output goes to
    ``workdir/server-PORT.log``."""
    with running_server_on(free_port(), url, workdir, args=args, env=env) as server:
        yield server


@contextmanager
def running_server_on(
    port: int, url: str, workdir: Path, *, args: Sequence[str] = (), env: Mapping[str, str]
) -> Iterator[Server]:
    """:func:`running_server` on ``port`` (a restart where its clients were)."""
    log = workdir / f"server-{port}.log"
    environ = {
        **os.environ,
        "STUD8_SIGNUPS": "1000",
        "STUD8_DEFAULT_TABLES": "0",
        "STUD8_BETWEEN_HANDS": "0.05",
        "STUD8_SHOWDOWN_SECONDS": "0",
        "STUD8_BOT_DELAY": "0",
        **env,
    }
    # the operator is made by the operator, before the start (registering never makes one)
    made = subprocess.run(
        [sys.executable, "-m", "stud8", "admin", "create-operator", OPERATOR, "--database", url],
        input=PASSWORD + "\n",
        env=environ,
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0 or "exists" in made.stdout, made.stdout + made.stderr
    command = [sys.executable, "-m", "stud8", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--database", url, *args]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=workdir, env=environ, stdout=out, stderr=subprocess.STDOUT
        )
    server = Server(process, port, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, f"the server died:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"the server did not start:\n{log.read_text()}"
            try:
                if httpx.get(f"{server.base}/api/v1/tables", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        yield server
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGINT (a clean shutdown), then SIGKILL if it has not stopped in 20 s."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def admin(*words: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``stud8 admin WORDS...`` as a process: its exit code and output."""
    command = [sys.executable, "-m", "stud8", "admin", *words]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def audit(url: str, workdir: Path) -> subprocess.CompletedProcess[str]:
    """``stud8 admin audit --database url``: its exit code and output."""
    return admin("audit", "--database", url, cwd=workdir, timeout=60)


def settlements(engine: Engine) -> int:
    """How many hands the room on ``engine``'s database has settled (in its ledger)."""
    with engine.connect() as conn:
        count = conn.scalar(select(func.count()).where(Transaction.kind == "hand_settlement"))
    return int(count or 0)


def play_until(engine: Engine, server: Server, settled: int, seconds: float = 30) -> None:
    """Wait until ``server`` has settled ``settled`` hands in all; fails if it dies
    or stops dealing first (with its log)."""
    deadline = time.monotonic() + seconds
    while settlements(engine) < settled:
        assert server.process.poll() is None, server.log.read_text()
        assert time.monotonic() < deadline, "the room stopped dealing\n" + server.log.read_text()
        time.sleep(0.05)


def register(http: httpx.Client, name: str) -> str:
    """Register ``name`` (with :data:`PASSWORD`) and log in: his token. The
    :data:`OPERATOR` exists already: he only logs in."""
    if name != OPERATOR:
        r = http.post("/api/v1/register", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
    r = http.post("/api/v1/login", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def open_table(http: httpx.Client, op_token: str, table_id: str, **spec: Any) -> None:
    """An operator opens a table (``POST /api/v1/tables``)."""
    r = http.post("/api/v1/tables", json={"table_id": table_id, **spec}, headers=bearer(op_token))
    assert r.status_code == 201, r.text


def sit_and_go_of_bots(
    http: httpx.Client, boss: dict[str, str], name: str, *, buy_in: int = 100, fee: int = 10
) -> int:
    """An operator (``boss``: his bearer headers) makes a six-seat sit-and-go of the
    regular structure and fills it with six bots: it starts at once. Its id."""
    body = {"name": name, "structure": "regular", "buy_in": buy_in, "fee": fee}
    body |= {"table_size": 6, "max_entrants": 6}
    r = http.post("/api/v1/tournaments", json=body, headers=boss)
    assert r.status_code == 201, r.text
    tid: int = r.json()["tournament"]["summary"]["tournament_id"]
    r = http.post(f"/api/v1/tournaments/{tid}/bots", json={"count": 6}, headers=boss)
    assert r.status_code == 200, r.text
    return tid
