"""A room served in this event loop (127.0.0.1) and websocket clients that check what
they are sent: the shared helpers of the websocket tests.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from server.roomdb import serving
from stud8.core.cards import Deck
from stud8.server.accounts.auth import MemoryAuth
from stud8.server.books.memory import MemoryBooks
from stud8.server.room.lobby import Lobby
from stud8.server.runtime import room_app
from stud8.server.settings import Settings
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableSpec

Msg = dict[str, Any]
OPERATOR = "oper"  # the room's operator (password secret-1), made with the room
SPEC = TableSpec(
    between_hands=0.05,
    showdown_seconds=0,
    bot_delay=0.0,
    action_seconds=30,
    time_bank_seconds=30,
    reconnect_seconds=20,
    min_buy_in=40,
    max_buy_in=400,
)


class Room:
    """A real server on 127.0.0.1 (an ephemeral port), with its books and lobby."""

    def __init__(self, port: int, books: MemoryBooks, lobby: Lobby) -> None:
        self.port = port
        self.books = books
        self.lobby = lobby
        self.http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}")

    def table(self, table_id: str = "t1") -> Table:
        entry = self.lobby.get(table_id)
        assert entry is not None
        return entry.table

    async def player(self, name: str) -> str:
        """Register ``name`` and log in: his token (:data:`OPERATOR` only logs in)."""
        if name != OPERATOR:
            body = {"name": name, "password": "secret-1"}
            r = await self.http.post("/api/v1/register", json=body)
            assert r.status_code == 201, r.text
        r = await self.http.post("/api/v1/login", json={"name": name, "password": "secret-1"})
        assert r.status_code == 200, r.text
        token = r.json()["token"]
        assert isinstance(token, str)
        return token

    @asynccontextmanager
    async def connect(
        self,
        token: str | None = None,
        *,
        last_seen: int | None = None,
        table_id: str = "t1",
        compression: str | None = "deflate",
        ids: str = "c",
    ) -> AsyncIterator[Client]:
        """A websocket on the table; its command ids start with ``ids`` (the table
        takes an id it has seen from the same player, from another tab too, for a
        repeat: two tabs of one player need different ones)."""
        query = []
        if token is not None:
            query.append(f"token={token}")
        if last_seen is not None:
            query.append(f"last_seen={last_seen}")
        url = f"ws://127.0.0.1:{self.port}/ws/v1/tables/{table_id}?{'&'.join(query)}"
        # max_queue=None: a test that stops reading must still see the close frame
        async with websockets.connect(url, max_queue=None, compression=compression) as ws:
            client = Client(ws, ids)
            welcome = await client.recv()
            assert welcome["t"] == "welcome"
            client.seat = welcome["d"]["seat"]
            yield client


@asynccontextmanager
async def serve(
    settings: Settings | None = None, *, spec: TableSpec | None = SPEC
) -> AsyncIterator[Room]:
    """Start a server in this event loop (port 0), with table t1 open; stop it after."""
    books = MemoryBooks()
    auth = MemoryAuth(
        operators={OPERATOR: "secret-1"}, on_register=lambda name: books.issue(name, 1000)
    )
    seeds = itertools.count(1)
    app = room_app(
        (settings or Settings(default_tables=0)).with_overrides(signups=1000),
        auth=auth,
        books=books,
        hands=books.hands,
        deck_source=lambda: Deck.seeded(next(seeds)),
    )
    async with serving(app) as port:
        lobby: Lobby = app.state.room.lobby
        if spec is not None:
            await lobby.create(spec, "t1")
        room = Room(port, books, lobby)
        try:
            yield room
        finally:
            await room.http.aclose()


def run(body: Callable[[], Awaitable[None]], timeout: float = 60) -> None:
    asyncio.run(asyncio.wait_for(body(), timeout))


QUIET = frozenset(
    {
        "timer",
        "reconnected",
        "disconnected",
        "sit_out",
        "come_back",
        "sit",
        "waiting_list",
        "seat_offered",
    }
)


class Client:
    """A websocket client that keeps every message and checks none shows a card this
    viewer may not see."""

    def __init__(self, ws: ClientConnection, ids: str = "c") -> None:
        self.ws = ws
        self._id_prefix = ids
        self.seat: int | None = None
        self.messages: list[Msg] = []
        self.last_seq = 0
        self._ids = itertools.count()
        self.shown: set[int] = set()  # seats shown down in the current hand
        self.turn: Msg | None = None  # the last turn message, while it is current
        # the action sent and not answered yet, and the version its ack reached: a
        # turn told before the action's events (the same turn told again, as after
        # a reconnection) is not acted on a second time
        self.acting: str | None = None
        self.acted_to = 0

    async def recv(self, timeout: float = 10) -> Msg:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = json.loads(text)
        assert isinstance(msg, dict)
        self.messages.append(msg)
        self.check_visible(msg)
        if msg["t"] == "event":
            assert msg["v"] == self.last_seq + 1 or self.last_seq == 0, (msg, self.last_seq)
            self.last_seq = msg["v"]
            if msg["d"]["k"] not in QUIET:
                self.turn = None  # the hand moved on: an earlier turn is stale
        elif msg["t"] == "turn":
            self.turn = msg
        elif msg["t"] == "snapshot":
            self.last_seq = msg["v"]
        elif msg["t"] in ("ack", "reject") and msg["d"]["id"] == self.acting:
            self.acting = None
            if msg["t"] == "ack":
                self.acted_to = msg["v"]
        return msg

    def take_turn(self) -> Msg | None:
        """The turn to act on now, if any (then it is taken: :meth:`act` on it).
        None while an action is unanswered, or its events (up to its ack's ``v``)
        have not all come: a turn told before them is the turn already acted on."""
        if self.turn is None or self.acting is not None or self.last_seq < self.acted_to:
            return None
        turn, self.turn = self.turn, None
        return turn

    async def act(self, **d: Any) -> str:
        """Send an action (answered later: see :meth:`take_turn`); its id."""
        command_id = self.new_id()
        self.acting = command_id
        await self.send("act", id=command_id, **d)
        return command_id

    def check_visible(self, msg: Msg) -> None:
        d = msg.get("d")
        if msg["t"] == "event":
            assert isinstance(d, dict)
            if d["k"] == "hand_start":
                self.shown = set()
            elif d["k"] == "show":
                self.shown.add(d["seat"])
            elif d["k"] == "deal" and not d["face_up"] and d["seat"] != self.seat:
                assert d["card"] is None, f"seat {self.seat} was sent a hidden card: {msg}"
        elif msg["t"] == "snapshot" and d is not None and d["hand"] is not None:
            for s in d["hand"]["seats"]:
                if s["seat"] != self.seat:
                    assert all(c is None for c in s["down_cards"]), msg

    async def until(self, pred: Callable[[Msg], bool], timeout: float = 10) -> Msg:
        while True:
            msg = await self.recv(timeout)
            if pred(msg):
                return msg

    async def send(self, t: str, **d: Any) -> None:
        await self.ws.send(json.dumps({"t": t, "d": d}))

    def new_id(self) -> str:
        return f"{self._id_prefix}{next(self._ids)}"

    async def reply(self, command_id: str | None) -> Msg:
        return await self.until(
            lambda m: m["t"] in ("ack", "reject", "pong") and m["d"]["id"] == command_id
        )

    async def command(self, t: str, **d: Any) -> Msg:
        command_id = self.new_id()
        await self.send(t, id=command_id, **d)
        return await self.reply(command_id)


def passive(turn: Msg) -> dict[str, Any]:
    kinds = [a["kind"] for a in turn["d"]["legal"]]
    kind = next(k for k in ("check", "call", "bring_in") if k in kinds)
    return {"kind": kind}


def aggressive(turn: Msg) -> dict[str, Any]:
    for a in turn["d"]["legal"]:
        if a["kind"] in ("complete", "bet", "raise"):
            return {"kind": a["kind"], "amount": a["min_to"]}
    return passive(turn)


async def play(
    client: Client, hands: int, choose: Callable[[Msg], dict[str, Any]] = passive
) -> int:
    """Act on every turn message until ``hands`` hands have finished; the acks.
    (Replies are taken as they come: a turn may arrive before the previous ack.)"""
    finished = acks = 0
    while finished < hands:
        if (turn := client.take_turn()) is not None:
            await client.act(**choose(turn))
        msg = await client.recv()
        if msg["t"] in ("ack", "reject"):
            assert msg["t"] == "ack", msg
            acks += 1
        elif msg["t"] == "event" and msg["d"]["k"] == "hand_finish":
            finished += 1
    return acks


async def sit(room: Room, client: Client, seat: int, amount: int = 200) -> None:
    reply = await client.command("sit", seat=seat, amount=amount)
    assert reply["t"] == "ack", reply
    client.seat = seat
