"""A websocket refused at its start (a bogus token, no such table), its client gone
at once: one short line in the log, rate-limited, never a traceback (1,000 such
drops once wrote 645 tracebacks)."""

from __future__ import annotations

import base64
import os
import socket
import time
from pathlib import Path

from server.roomprocess import running_server
from stud8.server.http.sockets import REFUSALS_LOGGED, RefusalLog

DROPS = 300


def drop(port: int, path: str, count: int) -> None:
    """Open ``count`` websockets at ``path`` and close each as soon as it is asked for."""
    for _ in range(count):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )


def test_dropped_refused_websockets_write_short_lines_and_no_traceback(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'room.db'}", tmp_path) as server:
        drop(server.port, "/ws/v1/tables/t1?token=bogus", DROPS)
        drop(server.port, "/ws/v1/tables/nowhere", DROPS // 3)
        time.sleep(1)  # the last ones answered
    log = server.log.read_text()
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log[-3000:]
    refused = [line for line in log.splitlines() if ": refused " in line]
    assert 0 < len(refused) <= REFUSALS_LOGGED, refused
    assert all(len(line) < 160 for line in refused), refused
    assert any("4401" in line and "unknown or expired token" in line for line in refused)
    assert "bogus" not in log  # the token is never written


def test_the_refusals_log_says_how_many_it_did_not_write() -> None:
    now = [0.0]
    lines: list[str] = []
    refusals = RefusalLog(lines.append, limit=2, period=60.0, now=lambda: now[0])
    for _ in range(5):
        refusals.note("/ws/v1/tables/t1", "10.0.0.1", 4401, "unknown or expired token")
    assert len(lines) == 2
    now[0] = 61.0
    refusals.note("/ws/v1/tables/t1", "10.0.0.2", 4404, "no table t1")
    assert lines[2] == "3 more refused websockets in the last 60 s were not logged"
    assert lines[3] == "WS /ws/v1/tables/t1 from 10.0.0.2: refused 4404 (no table t1)"
