"""Seating under load through two nodes (issue 30, item 6): hundreds of players sit
at once, half of them through the node that does not run their table, on one busy
event loop (the sits wait for the books, hundreds at a time); every one of them
sits (none is told "the table did not answer in time"), and the tables then deal.

Two nodes of one room in this event loop (:mod:`server.cluster.inprocess`), with
their players' clients: one loop, as busy as a loaded machine. Needs the scratch
PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from argon2 import PasswordHasher
from websockets.asyncio.client import ClientConnection

from server.cluster.inprocess import SPEC, Node, cluster, operator, until
from server.roomdb import fresh_database
from stud8.server.accounts.accounts import Accounts
from stud8.server.books.ledger import Ledger
from stud8.server.storage import create_engine_for

PLAYERS = 300
SEATS = 6  # players at each table
BUY_IN = 200


def make_players(pg: str, names: list[str]) -> list[str]:
    """Their accounts, made in the database with a cheap hash (a real one costs tens of
    milliseconds each: the sign-ups are not what this test is about); their tokens."""
    engine = create_engine_for(pg)
    try:
        accounts = Accounts(
            engine,
            Ledger(engine),
            hasher=PasswordHasher(time_cost=1, memory_cost=64),
            opening_chips=1000,
        )
        tokens = []
        for name in names:
            accounts.register(name, "secret-1")
            tokens.append(accounts.login(name, "secret-1"))
        return tokens
    finally:
        engine.dispose()


class Player:
    """A player who connects, sits when told, then calls or checks on his turns."""

    def __init__(self, name: str, token: str, node: Node, table_id: str, seat: int) -> None:
        self.name = name
        self.token = token
        self.node = node
        self.table_id = table_id
        self.seat = seat
        self.ws: ClientConnection | None = None
        self.welcomed = asyncio.Event()
        self.answered = asyncio.Event()
        self.answer: dict[str, Any] | None = None  # the sit's ack or reject
        self.actions = 0
        self._acted_on = -1

    async def run(self) -> None:
        url = f"ws://127.0.0.1:{self.node.port}/ws/v1/tables/{self.table_id}?token={self.token}"
        async with websockets.connect(url, max_queue=None, open_timeout=60) as ws:
            self.ws = ws
            async for text in ws:
                await self._read(json.loads(text))

    async def _read(self, msg: dict[str, Any]) -> None:
        t, d = msg["t"], msg.get("d") or {}
        assert self.ws is not None
        if t == "welcome":
            self.welcomed.set()
        elif t in ("ack", "reject") and d["id"] == "sit":
            self.answer = msg
            self.answered.set()
        elif t == "turn" and msg["v"] > self._acted_on:
            self._acted_on = msg["v"]
            kinds = [a["kind"] for a in d["legal"]]
            kind = next(k for k in ("check", "call", "bring_in") if k in kinds)
            self.actions += 1
            act = {"t": "act", "d": {"kind": kind, "id": f"a{self.actions}"}}
            await self.ws.send(json.dumps(act))

    async def leave(self) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps({"t": "leave", "d": {"id": "leave"}}))

    async def sit(self) -> None:
        assert self.ws is not None
        sit = {"seat": self.seat, "amount": BUY_IN, "id": "sit"}
        await self.ws.send(json.dumps({"t": "sit", "d": sit}))


def test_hundreds_of_players_sit_through_two_nodes_at_once(tmp_path: Path, redis_url: str) -> None:
    pg = fresh_database("postgresql", tmp_path)
    tables = [f"t{n}" for n in range(1, PLAYERS // SEATS + 1)]

    async def main() -> None:
        # every player comes from 127.0.0.1: no limit on one address
        lifted = {"address_sockets": 10_000, "address_rate": 1e6, "address_burst": 1_000_000}
        async with cluster(pg, redis_url, ("a", "b"), **lifted) as nodes:
            set_up = time.monotonic()
            boss = await operator(nodes[0])
            auth = {"Authorization": f"Bearer {boss}"}
            few = asyncio.Semaphore(8)  # tables opened a few at a time

            async def open_table(table_id: str) -> httpx.Response:
                async with few:
                    return await nodes[0].http.post(
                        "/api/v1/tables",
                        json={"table_id": table_id, **SPEC, "seats": SEATS},
                        headers=auth,
                        timeout=60,
                    )

            made = await asyncio.gather(*(open_table(t) for t in tables))
            assert all(r.status_code == 201 for r in made), [r.text for r in made]
            for n in nodes:
                while len(n.node.bus.directory()) < len(tables):
                    await asyncio.sleep(0.05)
            owners = {t: n.node.name for n in nodes for t in n.lobby.tables}
            assert sorted(owners) == sorted(tables) and len(set(owners.values())) == 2
            names = [f"player{i}" for i in range(PLAYERS)]
            tokens = await asyncio.to_thread(make_players, pg, names)
            # seat by seat, every other player through the node that does not run his
            # table: half of them sit through the bus between the nodes
            players = [
                Player(name, token, nodes[i % 2], tables[i // SEATS], i % SEATS + 1)
                for i, (name, token) in enumerate(zip(names, tokens, strict=True))
            ]
            away = sum(1 for p in players if owners[p.table_id] != p.node.node.name)
            assert away == PLAYERS // 2
            tasks = [asyncio.create_task(p.run()) for p in players]
            try:
                for p, task in zip(players, tasks, strict=True):
                    welcomed = asyncio.ensure_future(p.welcomed.wait())
                    await asyncio.wait({welcomed, task}, timeout=60, return_when="FIRST_COMPLETED")
                    assert p.welcomed.is_set(), (p.name, task.done() and task.exception())
                began = time.monotonic()
                await asyncio.gather(*(p.sit() for p in players))
                for p in players:
                    await asyncio.wait_for(p.answered.wait(), 60)
                seated = time.monotonic() - began
                refused = [(p.name, p.answer) for p in players if p.answer["t"] != "ack"]  # type: ignore[index]
                assert refused == [], f"{len(refused)} could not sit: {refused[:5]}"
                # the tables deal to them, and keep the loops busy
                await until("a hand played", lambda: sum(p.actions for p in players) > 0)
                print(f"{PLAYERS} seated in {seated:.2f} s, set up in {began - set_up:.2f} s")
                # everybody leaves, playing his hand out: the nodes stop with no hand
                # in play (a node stopped cleanly plays its hands out first)
                await asyncio.gather(*(p.leave() for p in players))
                while any(t.table.seats for n in nodes for t in n.lobby.tables.values()):
                    await asyncio.sleep(0.1)
            finally:
                for task in tasks:
                    task.cancel()
                for task in tasks:
                    with contextlib.suppress(BaseException):
                        await task

    asyncio.run(asyncio.wait_for(main(), 180))
