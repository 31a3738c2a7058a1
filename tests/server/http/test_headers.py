"""Security headers on every answer (pages, files, the API, errors, the middleware's
own 413), a Content-Security-Policy without ``unsafe-inline`` that the browser
client keeps (no inline script, style or handler in it: tests/web run it under the
policy), and the session token out of the URL: a websocket logs in by a subprotocol
(the older ``?token=`` still works). A room that routes (issue 30, item 6) lets its
pages connect to its nodes' public websocket origins too, and only those."""

from __future__ import annotations

import asyncio
import json
import re

import httpx
import websockets
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from websockets.typing import Subprotocol

from server.roomdb import serving
from stud8.server.http.app import WEB
from stud8.server.http.headers import (
    CONTENT_SECURITY_POLICY,
    SecurityHeaders,
    content_security_policy,
)
from stud8.server.runtime import memory_app
from stud8.server.settings import Settings
from stud8.server.table.spec import TableSpec

GOOD = "Tr1cky-Ostrich-7"


def check(response: httpx.Response) -> None:
    headers = response.headers
    csp = headers["content-security-policy"]
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp, csp
    for directive in (
        "connect-src 'self';",  # a room in one process: its pages connect home only
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
    ):
        assert directive in csp, (directive, csp)
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"


def test_every_answer_carries_the_security_headers() -> None:
    async def body() -> None:
        app = memory_app(Settings(default_tables=1, bots_per_table=0), spec=TableSpec())
        async with (
            serving(app) as port,
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
        ):
            answers = [
                await http.get("/"),
                await http.get("/app.js"),
                await http.get("/style.css"),
                await http.get("/api/v1/tables"),
                await http.get("/api/v1/schemas"),
                await http.get("/no/such/page"),
                await http.post("/api/v1/logout"),  # 401
                await http.post("/api/v1/login", content=b"x" * 100_000),  # 413, the middleware's
                await http.get("/health"),
            ]
            assert [r.status_code for r in answers] == [200, 200, 200, 200, 200, 404, 401, 413, 200]
            for r in answers:
                check(r)
                if r.request.url.path.startswith("/api/"):
                    assert r.headers["cache-control"] == "no-store"

    asyncio.run(asyncio.wait_for(body(), 60))


def test_the_client_has_nothing_inline_for_the_policy_to_refuse() -> None:
    for path in [*WEB.glob("*.html"), *WEB.glob("*.js")]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path  # inline script
        assert not re.search(r"""\sstyle\s*=\s*["'`$]""", text), path  # inline style attribute
        assert not re.search(r"""\son[a-z]+\s*=\s*["']""", text), path  # inline handler
        assert "<style" not in text, path


def test_a_websocket_logs_in_by_a_subprotocol_not_the_url() -> None:
    async def body() -> None:
        app = memory_app(Settings(default_tables=1, bots_per_table=0), spec=TableSpec())
        async with (
            serving(app) as port,
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
        ):
            creds = {"name": "ann", "password": GOOD}
            assert (await http.post("/api/v1/register", json=creds)).status_code == 201
            token = (await http.post("/api/v1/login", json=creds)).json()["token"]
            url = f"ws://127.0.0.1:{port}/ws/v1/tables/t1"
            offered = [Subprotocol("stud8.v1"), Subprotocol(f"stud8.token.{token}")]
            async with websockets.connect(url, subprotocols=offered) as ws:
                assert ws.subprotocol == "stud8.v1"
                welcome = json.loads(await ws.recv())
                assert welcome["d"]["player"] == "ann"
            async with websockets.connect(f"{url}?token={token}") as ws:  # the older way
                assert json.loads(await ws.recv())["d"]["player"] == "ann"
            bad = [Subprotocol("stud8.v1"), Subprotocol("stud8.token.not-a-token")]
            async with websockets.connect(url, subprotocols=bad) as ws:
                await asyncio.wait_for(ws.wait_closed(), 5)
                assert ws.close_code == 4401
            async with websockets.connect(url, subprotocols=[Subprotocol("stud8.v1")]) as ws:
                assert json.loads(await ws.recv())["d"]["player"] is None  # an observer

    asyncio.run(asyncio.wait_for(body(), 60))


def connect_src(policy: str) -> list[str]:
    (directive,) = [d.strip() for d in policy.split(";") if d.strip().startswith("connect-src ")]
    return directive.split()[1:]


def test_the_policy_names_the_nodes_websocket_origins_and_nothing_else() -> None:
    assert connect_src(CONTENT_SECURITY_POLICY) == ["'self'"]
    assert content_security_policy() == CONTENT_SECURITY_POLICY
    nodes = ("ws://127.0.0.1:8001", "wss://b.example", "wss://c.example:8443")
    policy = content_security_policy(nodes)
    assert connect_src(policy) == ["'self'", *nodes]
    # every other directive as in one process
    others = [d for d in policy.split("; ") if not d.startswith("connect-src")]
    assert others == [d for d in CONTENT_SECURITY_POLICY.split("; ") if "connect-src" not in d]
    # a heartbeat is not trusted to be well formed: nothing that is not a websocket
    # origin reaches the policy (no directive added, no source widened)
    bad = (
        "ws://x.example; script-src *",
        "ws://a b",
        "http://c.example",
        "*",
        "ws://d.example/path",
        "wss://e.example,f",
    )
    assert content_security_policy(bad) == CONTENT_SECURITY_POLICY
    assert connect_src(content_security_policy((*bad, nodes[0]))) == ["'self'", nodes[0]]
    assert content_security_policy(nodes) is policy  # made once per set of origins


def test_every_answer_carries_the_origins_the_room_knows_now() -> None:
    origins: list[tuple[str, ...]] = [()]
    asked: list[int] = []

    def now() -> tuple[str, ...]:
        asked.append(1)
        return origins[0]

    async def hello(_request: object) -> PlainTextResponse:
        return PlainTextResponse("hi")

    app = SecurityHeaders(Starlette(routes=[Route("/", hello)]), origins=now)

    async def body() -> None:
        async with (
            serving(app, room_protocol=False) as port,
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
        ):
            r = await http.get("/")
            check(r)  # no node known yet: its own origin only
            origins[0] = ("ws://127.0.0.1:8001", "ws://127.0.0.1:8002")
            r = await http.get("/")
            assert connect_src(r.headers["content-security-policy"]) == [
                "'self'",
                "ws://127.0.0.1:8001",
                "ws://127.0.0.1:8002",
            ]
            assert r.headers["x-frame-options"] == "DENY"
            assert len(asked) == 2  # read at each answer (from memory: the node keeps it)

    asyncio.run(asyncio.wait_for(body(), 30))
