"""The server's logs never show a session token: ``stud8 serve`` (a real process on
127.0.0.1) logs the requests and the websockets with the token blanked."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from server.roomdb import free_port
from stud8.server.logs import REDACTED, RedactTokens, redact, uvicorn_log_config


def test_redact_blanks_every_token_and_nothing_else() -> None:
    assert redact("/ws/v1/tables/t1?token=abc.DEF-123_x") == f"/ws/v1/tables/t1?token={REDACTED}"
    assert redact("/ws?last_seen=3&token=abc&x=1") == f"/ws?last_seen=3&token={REDACTED}&x=1"
    assert redact("/ws?TOKEN=abc") == f"/ws?TOKEN={REDACTED}"
    assert redact("/api/v1/tables?limit=3") == "/api/v1/tables?limit=3"
    assert redact("/api/v1/hands?mytoken=1") == "/api/v1/hands?mytoken=1"


def test_the_filter_rewrites_the_record_uvicorn_formats() -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/ws/v1/tables/t1?token=sekrit", "1.1", 101),
        None,
    )
    assert RedactTokens().filter(record)
    assert "sekrit" not in record.getMessage() and REDACTED in record.getMessage()
    assert isinstance(record.args, tuple) and record.args[-1] == 101
    config = uvicorn_log_config()
    assert all("redact_tokens" in h["filters"] for h in config["handlers"].values())


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_stud8_serve_logs_no_session_token(tmp_path: Path, log_format: str) -> None:
    """As text, or one JSON object a line (uvicorn's lines too)."""
    port = free_port()
    log = tmp_path / "server.log"
    environ = {**os.environ, "STUD8_DEFAULT_TABLES": "1", "STUD8_BOTS_PER_TABLE": "0"}
    command = [sys.executable, "-m", "stud8", "serve", "--memory", "--host", "127.0.0.1"]
    command += ["--log-format", log_format]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, "--port", str(port)],
            cwd=tmp_path,
            env=environ,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=10) as http:
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                try:
                    if http.get("/api/v1/tables").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.1)
            credentials = {"name": "ann", "password": "secret-pw-1"}
            assert http.post("/api/v1/register", json=credentials).status_code == 201
            token = http.post("/api/v1/login", json=credentials).json()["token"]
            assert http.get("/api/v1/tables", params={"token": token}).status_code == 200

        async def websocket() -> None:
            uri = f"ws://127.0.0.1:{port}/ws/v1/tables/t1?token={token}&last_seen=0"
            async with connect(uri) as ws:
                await asyncio.wait_for(ws.recv(), 10)  # the welcome: the socket is open

        asyncio.run(websocket())
        process.send_signal(signal.SIGINT)
        assert process.wait(20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    text = log.read_text()
    assert token not in text
    if log_format == "json":
        lines = [json.loads(line) for line in text.splitlines()]  # each line, JSON
        assert {"uvicorn.access", "uvicorn.error", "stud8.server"} <= {j["logger"] for j in lines}
        assert all(set(j) >= {"time", "level", "logger", "message"} for j in lines)
        text = "\n".join(j["message"] for j in lines)
    # the lines are there, with the token blanked
    assert f"GET /api/v1/tables?token={REDACTED}" in text
    assert f"/ws/v1/tables/t1?token={REDACTED}&last_seen=0" in text
