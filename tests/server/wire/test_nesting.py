"""Deeply nested JSON (about 990 levels in 2 KB) is refused with a reason, over each
way in (the room's websocket protocol, uvicorn's plain ASGI one, a REST body), and
the socket stays open; a refusal never echoes a client's value whole."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from server.roomdb import serving
from stud8.server.runtime import memory_app
from stud8.server.settings import Settings
from stud8.server.table.spec import TableSpec
from stud8.server.wire.client import parse_command
from stud8.server.wire.codec import ProtocolError
from stud8.server.wire.limits import MAX_JSON_DEPTH

DEEP = {
    "arrays": "[" * 990 + "]" * 990,
    "in d": '{"t":"ping","d":' + "[" * 985 + "]" * 985 + "}",
    "a field's value": '{"t":"act","d":{"id":"x","kind":' + "[" * 900 + "]" * 900 + "}}",
    "objects": '{"t":"act","d":{"id":"x","kind":"bet","amount":'
    + '{"a":' * 450
    + "1"
    + "}" * 450
    + "}}",
    "just over": '{"t":"act","d":{"id":"x","kind":' + "[" * 15 + "]" * 15 + "}}",
}


@pytest.mark.parametrize("name", DEEP)
def test_parse_refuses_deep_nesting_by_its_depth(name: str) -> None:
    with pytest.raises(ProtocolError, match="nested too deeply") as refused:
        parse_command(DEEP[name])
    assert len(refused.value.reason) < 100
    # brackets in strings do not count
    parse_command(json.dumps({"t": "ping", "d": {"id": "[" * 60 + "{" * 3}}))
    assert MAX_JSON_DEPTH == 16


@pytest.mark.parametrize("room_protocol", [True, False], ids=["room protocol", "asgi"])
def test_deep_messages_are_refused_and_the_socket_stays_open(room_protocol: bool) -> None:
    async def body() -> None:
        app = memory_app(Settings(default_tables=1, bots_per_table=0), spec=TableSpec())
        async with serving(app, room_protocol=room_protocol) as port:
            url = f"ws://127.0.0.1:{port}/ws/v1/tables/t1"
            async with websockets.connect(url) as ws:
                assert json.loads(await ws.recv())["t"] == "welcome"
                for name, text in DEEP.items():
                    assert len(text) < 4096, name
                    await ws.send(text)
                    while (msg := json.loads(await asyncio.wait_for(ws.recv(), 5)))["t"] != (
                        "reject"
                    ):
                        pass
                    assert "nested too deeply" in msg["d"]["reason"], (name, msg)
                    await ws.send(json.dumps({"t": "ping", "d": {"id": name}}))
                    while (msg := json.loads(await asyncio.wait_for(ws.recv(), 5)))["t"] != "pong":
                        pass
                    assert msg["d"]["id"] == name
                # a wrong value is named, not echoed whole
                await ws.send('{"t":"act","d":{"id":"y","kind":' + '"' + "z" * 3000 + '"}}')
                while (msg := json.loads(await asyncio.wait_for(ws.recv(), 5)))["t"] != "reject":
                    pass
                assert len(json.dumps(msg)) < 300, msg
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
                r = await http.post(
                    "/api/v1/login",
                    content="[" * 990 + "]" * 990,
                    headers={"content-type": "application/json"},
                )
                assert r.status_code == 400 and "nested too deeply" in r.json()["error"]

    asyncio.run(asyncio.wait_for(body(), 60))
