"""The crash test: the real server (``python -m stud8 serve``) is killed with
SIGKILL in the middle of a hand with bets in the pot, restarted on the same
database, and the hand is cancelled, every ante, bring-in and bet is back, the
cancellation is recorded, the table comes back with the same id and each player
in his seat with his stack from before the hand, they reconnect and play on, and
``stud8 admin audit`` balances. A clean stop and start keeps the tables and the
chips the same way.

Servers listen on 127.0.0.1 only and every one started is stopped, also when a
test fails.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import signal
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from server.roomprocess import (
    PASSWORD,
    Server,
    audit,
    bearer,
    open_table,
    register,
    running_server,
)
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger, bank, table_account
from stud8.server.books.recovery import CANCELLED_NOTE
from stud8.server.storage import create_engine_for

Msg = dict[str, Any]


class Player:
    def __init__(self, name: str, ws: ClientConnection) -> None:
        self.name = name
        self.ws = ws
        self.messages: list[Msg] = []
        self.ids = 0
        # what arrived while a command waited for its reply: the table may send the
        # events an action caused (the next turn, too) before the ack of that action
        self.backlog: collections.deque[Msg] = collections.deque()

    async def recv(self, timeout: float = 20) -> Msg:
        if self.backlog:
            return self.backlog.popleft()
        msg: Msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(msg)
        return msg

    async def until(self, t: str, k: str | None = None, timeout: float = 20) -> Msg:
        while True:
            msg = await self.recv(timeout)
            if msg["t"] == t and (k is None or msg["d"].get("k") == k):
                return msg

    async def command(self, t: str, **d: Any) -> Msg:
        self.ids += 1
        command_id = f"{self.name}-{self.ids}"
        await self.ws.send(json.dumps({"t": t, "d": {"id": command_id, **d}}))
        passed: list[Msg] = []
        while True:
            msg = await self.recv()
            if msg["t"] in ("ack", "reject") and msg["d"]["id"] == command_id:
                self.backlog.extendleft(reversed(passed))
                return msg
            passed.append(msg)


async def bets_in_the_pot(server: Server, tokens: dict[str, str], table_id: str) -> str:
    """Seat ann (seat 1) and bob (seat 2) with 200 each and play the start of a
    hand: the bring-in, a completion and a call. Returns the hand id."""
    async with (
        connect(server.ws(table_id, tokens["ann"])) as ann_ws,
        connect(server.ws(table_id, tokens["bob"])) as bob_ws,
    ):
        ann, bob = Player("ann", ann_ws), Player("bob", bob_ws)
        assert (await ann.command("sit", seat=1, amount=200))["t"] == "ack"
        assert (await bob.command("sit", seat=2, amount=200))["t"] == "ack"
        start = await ann.until("event", "hand_start")
        hand_id: str = start["d"]["hand_id"]
        played: list[str] = []  # in the order the turns came
        by: dict[str, Player] = {}

        async def act(player: Player) -> None:
            turn = await player.until("turn")
            kinds = {a["kind"]: a for a in turn["d"]["legal"]}
            if "bring_in" in kinds:
                choice: dict[str, Any] = {"kind": "bring_in"}
            elif "complete" in kinds:
                choice = {"kind": "complete", "amount": kinds["complete"]["min_to"]}
            else:
                choice = {"kind": "call"}
            played.append(choice["kind"])
            by[choice["kind"]] = player
            reply = await player.command("act", **choice)
            assert reply["t"] == "ack", reply

        # whoever is to act first gets a turn message; the other waits for his
        await asyncio.gather(act(ann), act(bob))
        await act(by["bring_in"])  # calls the completion
        assert played == ["bring_in", "complete", "call"], played
        return hand_id


async def come_back_and_play(
    server: Server, tokens: dict[str, str], table_id: str, stacks: dict[str, int]
) -> list[Msg]:
    """ann and bob connect again (a snapshot each): each finds his seat and his
    stack, sitting out as a disconnected player until he connects, then dealt in;
    they play one hand (bring in, then fold or check). The snapshots."""
    seats = {"ann": 1, "bob": 2}

    async def back(name: str, query: str = "") -> tuple[Player, Msg]:
        """Connect; the welcome, the snapshot, and the come_back of his own seat."""
        player = Player(name, await connect(server.ws(table_id, tokens[name]) + query))
        welcome = await player.until("welcome")
        assert welcome["d"]["seat"] == seats[name]
        snapshot = await player.until("snapshot")
        await player.until("event", "come_back")  # dealt in again
        return player, snapshot

    async with contextlib.AsyncExitStack() as stack:
        # ann first, with a last_seen of the old process: she gets a snapshot
        ann, ann_snap = await back("ann", "&last_seen=5")
        stack.push_async_callback(ann.ws.close)
        bob, bob_snap = await back("bob")
        stack.push_async_callback(bob.ws.close)
        snapshots = [ann_snap, bob_snap]
        for snap in snapshots:
            mine = {s["player"]: s for s in snap["d"]["seats"]}
            assert {p: (s["seat"], s["chips"]) for p, s in mine.items()} == {
                p: (seats[p], stacks[p]) for p in stacks
            }
            assert not any(s["bot"] for s in mine.values())

        async def one_hand(player: Player) -> None:
            while True:
                msg = await player.recv()
                if msg["t"] == "event" and msg["d"]["k"] == "hand_finish":
                    assert not msg["d"]["cancelled"]
                    return
                if msg["t"] == "turn":
                    kinds = {a["kind"] for a in msg["d"]["legal"]}
                    kind = next(k for k in ("bring_in", "check", "fold") if k in kinds)
                    player.ids += 1
                    command = {"id": f"{player.name}-{player.ids}", "kind": kind}
                    await player.ws.send(json.dumps({"t": "act", "d": command}))

        await asyncio.gather(one_hand(ann), one_hand(bob))
        return snapshots


def test_sigkill_mid_hand_cancels_it_refunds_every_bet_and_the_audit_balances(
    url: str, tmp_path: Path
) -> None:
    with running_server(url, tmp_path) as server:
        with httpx.Client(base_url=server.base, timeout=10) as http:
            tokens = {name: register(http, name) for name in ("boss", "ann", "bob")}
            open_table(
                http,
                tokens["boss"],
                "crash",
                between_hands=0.05,
                showdown_seconds=0,
                action_seconds=30,
            )
        hand_id = asyncio.run(asyncio.wait_for(bets_in_the_pot(server, tokens, "crash"), 60))
        server.process.send_signal(signal.SIGKILL)
        assert server.process.wait(10) == -signal.SIGKILL

    # after the crash, before the restart: the hand is noted as in progress and the
    # ledger never saw its bets (chips move when a hand ends)
    engine = create_engine_for(url)
    try:
        unfinished = HandStore(engine).in_progress()
        assert [h.hand_id for h in unfinished] == [hand_id]
        assert unfinished[0].players == {"ann": 200, "bob": 200}
        ledger = Ledger(engine)
        assert ledger.balance(table_account("crash", "ann")) == 200
        assert ledger.balance(bank("ann")) == 10_000 - 200
    finally:
        engine.dispose()

    with running_server(url, tmp_path) as server:
        engine = create_engine_for(url)
        try:
            ledger, store = Ledger(engine), HandStore(engine)
            # the hand was cancelled through the ledger and recorded as cancelled
            assert store.in_progress() == []
            assert ledger.hand_transaction(hand_id) is not None
            assert ledger.hand_transaction(hand_id)[1] == "refund"  # type: ignore[index]
            found = store.fetch(hand_id)
            assert found is not None and found.cancelled and found.note == CANCELLED_NOTE
            assert {(s.player, s.stack) for s in found.seats} == {("ann", 200), ("bob", 200)}
            # every ante, bring-in and bet is back: each still has at the table the
            # 200 he sat down with, and his 9,800 in his bank
            for name in ("ann", "bob"):
                assert ledger.balance(table_account("crash", name)) == 200
                assert ledger.balance(bank(name)) == 9_800
            assert ledger.audit().ok
        finally:
            engine.dispose()
        # the accounts and the sessions survived the crash, and so did the table
        with httpx.Client(base_url=server.base, timeout=10) as http:
            r = http.get("/api/v1/hands", headers=bearer(tokens["ann"]))
            assert r.status_code == 200, r.text
            assert r.text == ""  # a hand cancelled by a crash has no history
            r = http.post("/api/v1/login", json={"name": "bob", "password": PASSWORD})
            assert r.status_code == 200
            (table,) = http.get("/api/v1/tables").json()["tables"]
            assert table["table_id"] == "crash" and table["players"] == ["ann", "bob"]
            assert table["stakes"] == {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}
        # they come back to their seats with their stacks, and play on
        snapshots = asyncio.run(
            asyncio.wait_for(
                come_back_and_play(server, tokens, "crash", {"ann": 200, "bob": 200}), 60
            )
        )
        seat_2 = next(s for s in snapshots[0]["d"]["seats"] if s["seat"] == 2)
        assert seat_2["sitting_out"] and not seat_2["connected"]  # bob was not back yet
        # her history, asked as soon as the hand finished, has it (the room's writer
        # is drained first); so has the database after that
        with httpx.Client(base_url=server.base, timeout=10) as http:
            r = http.get("/api/v1/hands", headers=bearer(tokens["ann"]))
            assert r.status_code == 200 and r.text.count("PokerStars Hand #") == 1, r.text
        engine = create_engine_for(url)
        try:
            ledger, store = Ledger(engine), HandStore(engine)
            assert ledger.audit().ok
            played = [h for h in store.hands_of("ann") if h != hand_id]
            assert len(played) >= 1
            record = store.record(played[-1])
            assert record is not None and record.table == "crash" and not record.cancelled
            stacks = {n: ledger.balance(table_account("crash", n)) for n in ("ann", "bob")}
            assert sum(stacks.values()) == 400 and stacks != {"ann": 200, "bob": 200}
        finally:
            engine.dispose()
        result = audit(url, tmp_path)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "OK" in result.stdout

    result = audit(url, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_clean_stop_and_start_keeps_the_tables_seats_and_chips(url: str, tmp_path: Path) -> None:
    with running_server(url, tmp_path) as server:
        with httpx.Client(base_url=server.base, timeout=10) as http:
            tokens = {name: register(http, name) for name in ("boss", "ann", "bob")}
            open_table(
                http,
                tokens["boss"],
                "calm",
                between_hands=0.05,
                showdown_seconds=0,
                action_seconds=30,
            )
            open_table(http, tokens["boss"], "gone", between_hands=0.05, showdown_seconds=0)
            r = http.delete("/api/v1/tables/gone", headers=bearer(tokens["boss"]))
            assert r.status_code == 200
        hand_id = asyncio.run(asyncio.wait_for(bets_in_the_pot(server, tokens, "calm"), 60))
    assert server.process.returncode == 0, server.log.read_text()

    # the hand in play at the shutdown was cancelled then, its history kept
    engine = create_engine_for(url)
    try:
        ledger, store = Ledger(engine), HandStore(engine)
        assert store.in_progress() == []
        found = store.fetch(hand_id)
        assert found is not None and found.cancelled and found.record is not None
        assert ledger.hand_transaction(hand_id)[1] == "refund"  # type: ignore[index]
        for name in ("ann", "bob"):
            assert ledger.balance(table_account("calm", name)) == 200
        assert ledger.audit().ok
    finally:
        engine.dispose()

    with running_server(url, tmp_path, STUD8_DEFAULT_TABLES="2") as server:
        with httpx.Client(base_url=server.base, timeout=10) as http:
            # the open table is back, the closed one is not, no ready tables are made
            tables = http.get("/api/v1/tables").json()["tables"]
            assert [(t["table_id"], t["players"]) for t in tables] == [("calm", ["ann", "bob"])]
            r = http.post(
                "/api/v1/tables", json={"table_id": "gone"}, headers=bearer(tokens["boss"])
            )
            assert r.status_code == 400 and "used before" in r.json()["error"]
        asyncio.run(
            asyncio.wait_for(
                come_back_and_play(server, tokens, "calm", {"ann": 200, "bob": 200}), 60
            )
        )
    result = audit(url, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
