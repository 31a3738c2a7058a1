"""Sizes refused at the server's limit before they are read: a REST body over
``MAX_BODY_BYTES`` (declared, or sent without a length) on any endpoint is a 413, a
websocket message over ``MAX_FRAME_BYTES`` closes its socket (1009); one between
the two limits is answered with a reject and the socket stays open."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import httpx
import pytest
import websockets
from starlette.applications import Starlette

from server.roomdb import serving
from stud8.server.runtime import memory_app
from stud8.server.settings import Settings
from stud8.server.table.spec import TableSpec
from stud8.server.wire.limits import MAX_BODY_BYTES, MAX_FRAME_BYTES, MAX_MESSAGE_BYTES


def room() -> Starlette:
    return memory_app(Settings(default_tables=1, bots_per_table=0), spec=TableSpec())


def test_a_body_over_the_limit_is_refused_before_it_is_read() -> None:
    async def body() -> None:
        async with serving(room()) as port:
            # a declared length over the limit: answered at once, nothing sent
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            started = time.monotonic()
            writer.write(
                b"POST /api/v1/logout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100000000\r\n\r\n"
            )
            await writer.drain()
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            assert head.startswith(b"HTTP/1.1 413"), head
            assert time.monotonic() - started < 2
            writer.close()
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
                for path in ("/api/v1/register", "/api/v1/logout", "/api/v1/tables"):
                    r = await http.post(path, content=b"x" * (MAX_BODY_BYTES + 1))
                    assert r.status_code == 413, (path, r.text)
                    assert f"over {MAX_BODY_BYTES} bytes" in r.json()["error"]

                # without a length (chunked): counted as it is read
                async def chunks() -> AsyncIterator[bytes]:
                    for _ in range(64):
                        yield b" " * 4096

                r = await http.post(
                    "/api/v1/register",
                    content=chunks(),
                    headers={"content-type": "application/json"},
                )
                assert r.status_code == 413, r.text
                r = await http.post(
                    "/api/v1/login",
                    content=b"x" * MAX_BODY_BYTES,
                    headers={"content-type": "application/json"},
                )
                assert r.status_code == 400  # at the limit: read, and malformed

    asyncio.run(asyncio.wait_for(body(), 60))


@pytest.mark.parametrize("room_protocol", [True, False], ids=["room protocol", "asgi"])
def test_a_websocket_message_over_the_frame_limit_closes_the_socket(room_protocol: bool) -> None:
    async def body() -> None:
        async with serving(room(), room_protocol=room_protocol) as port:
            url = f"ws://127.0.0.1:{port}/ws/v1/tables/t1"
            async with websockets.connect(url, max_size=None) as ws:
                await ws.recv()
                # over the message limit, under the frame limit: a reject, still open
                await ws.send(json.dumps({"t": "ping", "d": {"id": "x" * MAX_MESSAGE_BYTES}}))
                while (msg := json.loads(await asyncio.wait_for(ws.recv(), 5)))["t"] != "reject":
                    pass
                assert "too large" in msg["d"]["reason"]
                await ws.send(json.dumps({"t": "ping", "d": {"id": "ok"}}))
                while json.loads(await asyncio.wait_for(ws.recv(), 5))["t"] != "pong":
                    pass
                await ws.send("x" * (MAX_FRAME_BYTES + 1))
                await asyncio.wait_for(ws.wait_closed(), 5)
                assert ws.close_code == 1009

    asyncio.run(asyncio.wait_for(body(), 60))
