"""The room behind Debian's nginx (deploy/nginx/stud8.conf): TLS with a throwaway
certificate, the websockets proxied, ``X-Forwarded-For`` set. A whole hand is played
through it; players from two addresses (127.0.0.2 and 127.0.0.3, their source
addresses towards nginx) are limited apart when the room trusts nginx
(``--forwarded-allow-ips``) and together when it does not; a client that forges
``X-Forwarded-For`` straight to the room is counted by its own address.

Each test starts its own nginx (its prefix and configuration in a temporary
directory, on a free 127.0.0.1 port) and stops it."""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.roomdb import free_port
from server.roomprocess import OPERATOR, PASSWORD, open_table, register, running_server

DEPLOY = Path(__file__).resolve().parents[3] / "deploy"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
pytestmark = pytest.mark.skipif(
    NGINX is None or shutil.which("openssl") is None,
    reason="needs Debian's nginx and openssl (apt-get install nginx; .ci/run installs it)",
)
ALICE, BEN = "127.0.0.2", "127.0.0.3"  # two players' machines


def certificate(directory: Path) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for 127.0.0.1, and its key."""
    cert, key = directory / "room.crt", directory / "room.key"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


def site(room_port: int, port: int, cert: Path, key: Path) -> str:
    """deploy/nginx/stud8.conf, with this test's ports and certificate."""
    text = (DEPLOY / "nginx" / "stud8.conf").read_text(encoding="utf-8")
    for old, new in (
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{room_port};"),
        ("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;"),
        ("listen [::]:443 ssl;", ""),
        ("listen 80;", f"listen 127.0.0.1:{free_port()};"),
        ("listen [::]:80;", ""),
        ("/etc/letsencrypt/live/stud8.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/stud8.example.org/privkey.pem", str(key)),
    ):
        assert old in text, f"deploy/nginx/stud8.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


@contextmanager
def running_nginx(directory: Path, room_port: int) -> Iterator[tuple[int, ssl.SSLContext]]:
    """nginx in front of the room on ``room_port``: its TLS port and a client's context."""
    assert NGINX is not None
    prefix = directory / "nginx"
    (prefix / "logs").mkdir(parents=True)
    cert, key = certificate(prefix)
    port = free_port()
    (prefix / "stud8.conf").write_text(site(room_port, port, cert, key))
    conf = prefix / "nginx.conf"
    conf.write_text(
        f"daemon off;\nworker_processes 1;\npid {prefix}/nginx.pid;\n"
        f"error_log {prefix}/logs/error.log;\nevents {{ worker_connections 256; }}\n"
        f"http {{\n access_log {prefix}/logs/access.log;\n"
        f" client_body_temp_path {prefix}/body;\n proxy_temp_path {prefix}/proxy;\n"
        f" fastcgi_temp_path {prefix}/fastcgi;\n uwsgi_temp_path {prefix}/uwsgi;\n"
        f" scgi_temp_path {prefix}/scgi;\n include {prefix}/stud8.conf;\n}}\n"
    )
    process = subprocess.Popen(
        [NGINX, "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "logs" / "error.log")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    context = ssl.create_default_context(cafile=str(cert))
    try:
        deadline = time.monotonic() + 30
        while True:
            log = prefix / "logs" / "error.log"
            errors = log.read_text() if log.exists() else ""
            assert process.poll() is None, f"nginx died:\n{errors}"
            assert time.monotonic() < deadline, f"nginx did not start:\n{errors}"
            try:
                with httpx.Client(verify=context, timeout=2) as http:
                    if http.get(f"https://127.0.0.1:{port}/api/v1/tables").status_code == 200:
                        break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        yield port, context
    finally:
        process.send_signal(signal.SIGQUIT)  # a graceful stop
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def client(base: str, source: str, context: ssl.SSLContext | bool) -> httpx.Client:
    """A client whose connections leave from ``source``."""
    transport = httpx.HTTPTransport(local_address=source, verify=context)
    return httpx.Client(base_url=base, transport=transport, verify=context, timeout=10)


def signups(http: httpx.Client, prefix: str, count: int, **headers: str) -> list[int]:
    return [
        http.post(
            "/api/v1/register",
            json={"name": f"{prefix}{i}", "password": PASSWORD},
            headers=headers,
        ).status_code
        for i in range(count)
    ]


async def socket_opens(uri: str, source: str, context: ssl.SSLContext) -> ClientConnection | int:
    """A websocket from ``source``: open, or the code it was closed with at once."""
    ws = await connect(uri, ssl=context, local_addr=(source, 0), open_timeout=10)
    try:
        await asyncio.wait_for(ws.recv(), 10)  # the welcome
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else 1006
    return ws


async def play_a_hand(uri: str, context: ssl.SSLContext) -> dict[str, Any]:
    """Sit at the table through nginx and act on every turn until a hand has finished."""
    async with connect(uri, ssl=context, local_addr=(ALICE, 0)) as ws:
        await ws.send(json.dumps({"t": "sit", "d": {"id": "s1", "seat": 4, "amount": 200}}))
        sent = 1
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert msg["t"] != "reject", msg
            if msg["t"] == "event" and msg["d"]["k"] == "hand_finish":
                finish: dict[str, Any] = msg["d"]
                return finish
            if msg["t"] == "turn":
                kinds = [a["kind"] for a in msg["d"]["legal"]]
                kind = next(k for k in ("check", "call", "bring_in") if k in kinds)
                sent += 1
                await ws.send(json.dumps({"t": "act", "d": {"id": f"a{sent}", "kind": kind}}))


def _room(tmp_path: Path, trusted: str) -> Any:
    return running_server(
        f"sqlite:///{tmp_path / 'room.db'}",
        tmp_path,
        args=["--forwarded-allow-ips", trusted],
        STUD8_SIGNUPS="2",
        STUD8_ADDRESS_SOCKETS="1",
    )


def test_a_hand_through_nginx_and_each_player_limited_by_his_own_address(
    tmp_path: Path,
) -> None:
    with (
        _room(tmp_path, "127.0.0.1") as room,
        running_nginx(tmp_path, room.port) as (
            port,
            context,
        ),
    ):
        base = f"https://127.0.0.1:{port}"
        with client(base, ALICE, context) as alice, client(base, BEN, context) as ben:
            # the operator's sign-up is his own; alice's machine may make 2 accounts
            op = register(alice, OPERATOR)
            assert signups(alice, "ann", 3) == [201, 201, 429]
            # ben's machine is another address: nginx says so and the room believes it
            assert signups(ben, "bob", 2) == [201, 201]
            # a forged X-Forwarded-For is appended to by nginx: the room reads ben's
            assert signups(ben, "bob", 1, **{"X-Forwarded-For": "192.0.2.50"}) == [429]
            ann = alice.post("/api/v1/login", json={"name": "ann0", "password": PASSWORD})
            token = ann.json()["token"]
            open_table(alice, op, "t1", bots=2, between_hands=0.05, showdown_seconds=0)
        uri = f"wss://127.0.0.1:{port}/ws/v1/tables/t1?token={token}"
        finish = asyncio.run(asyncio.wait_for(play_a_hand(uri, context), 60))
        assert finish["hand_id"]

        async def sockets() -> tuple[object, object]:
            watch = f"wss://127.0.0.1:{port}/ws/v1/tables/t1"
            first = await socket_opens(watch, ALICE, context)
            second = await socket_opens(watch, ALICE, context)  # one an address
            other = await socket_opens(watch, BEN, context)
            for ws in (first, second, other):
                if isinstance(ws, ClientConnection):
                    await ws.close()
            return (second, other)

        second, other = asyncio.run(sockets())
        assert second == 4429 and isinstance(other, ClientConnection)
    access = (tmp_path / "nginx" / "logs" / "access.log").read_text()
    assert "GET /ws/v1/tables/t1" in access and " 101 " in access  # the websockets went through


def test_an_untrusted_proxy_s_players_share_its_address_and_forged_headers_are_ignored(
    tmp_path: Path,
) -> None:
    with _room(tmp_path, "192.0.2.1") as room:  # some other proxy: not this nginx
        with running_nginx(tmp_path, room.port) as (port, context):
            base = f"https://127.0.0.1:{port}"
            with client(base, ALICE, context) as alice, client(base, BEN, context) as ben:
                assert signups(alice, "ann", 2) == [201, 201]
                assert signups(ben, "bob", 1) == [429]  # all count as nginx's address
        # straight to the room from 127.0.0.2, an untrusted peer: its header is ignored
        with client(room.base, ALICE, False) as direct:
            assert signups(direct, "cat", 2) == [201, 201]
            forged = {"X-Forwarded-For": "198.51.100.7"}
            assert signups(direct, "cat", 1, **forged) == [429]


def test_the_room_s_address_is_read_in_one_place() -> None:
    """Every per-address limit counts stud8.server.http.addresses.client_address:
    nothing else in the web app reads a connection's peer."""
    http = Path(__file__).resolve().parents[3] / "src" / "stud8" / "server" / "http"
    readers = [
        p.name
        for p in sorted(http.glob("*.py"))
        if ".client.host" in p.read_text() or '["client"]' in p.read_text()
    ]
    assert readers == ["addresses.py"]


def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed (Debian: the systemd package)")
    stud8 = str(Path(sys.executable).parent / "stud8")  # this venv's
    text = (DEPLOY / "systemd" / "stud8.service").read_text()
    assert "ExecStart=/opt/stud8/bin/stud8 serve" in text
    unit = tmp_path / "stud8.service"
    unit.write_text(text.replace("/opt/stud8/bin/stud8", stud8))  # a stud8 that exists here
    done = subprocess.run([tool, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr
