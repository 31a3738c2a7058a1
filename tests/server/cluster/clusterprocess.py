"""Nodes of a room as processes (``python -m stud8 serve --redis URL --node NAME``) on
one PostgreSQL and one Redis, and players whose websockets read on their own: the
helpers of the tests that kill, pause and drain nodes.

Every node started is stopped when its block ends (SIGINT, or SIGKILL if it does not
stop), also when the test fails; a paused one is continued first.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.roomprocess import Server, running_server

Msg = dict[str, Any]
ENV = {
    "STUD8_STARTING_CHIPS": "10000",
    "STUD8_BETWEEN_HANDS": "0.2",
    "STUD8_SHOWDOWN_SECONDS": "0",
}
WAIT = 60.0
BUY_IN = 200


@contextmanager
def nodes(
    pg: str, redis_url: str, workdir: Path, names: tuple[str, ...], **env: str
) -> Iterator[dict[str, Server]]:
    """One node per name, up and answering (``env``: more of the environment);
    all stopped at the end."""
    with ExitStack() as stack:
        started: dict[str, Server] = {}
        for name in names:
            args = ("--redis", redis_url, "--node", name)
            server = stack.enter_context(running_server(pg, workdir, args=args, **{**ENV, **env}))
            stack.callback(_continue, server)  # a paused node must be able to stop
            started[name] = server
        yield started


def _continue(server: Server) -> None:
    if server.process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(server.process.pid, signal.SIGCONT)


def owner(redis_url: str, table_id: str) -> str | None:
    """The node that runs the table: the holder of its lease, if the room's directory
    names it too (None while the table is moving)."""
    client = redis.Redis.from_url(redis_url)
    try:
        entry = client.hget("stud8:tables", table_id)
        lease = client.get(f"stud8:lease:{table_id}")
    finally:
        client.close()
    if not isinstance(entry, bytes) or not isinstance(lease, bytes):
        return None
    listed_by = entry.split(b"\n", 1)[0]
    return lease.decode() if lease == listed_by else None


def wait_until(condition: Callable[[], bool], what: str, timeout: float = WAIT) -> float:
    """Poll ``condition`` until true; the seconds it took."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < timeout, f"never: {what}"
        time.sleep(0.05)
    return time.monotonic() - start


def drain(
    redis_url: str, node: str, workdir: Path, wait: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "stud8",
            "admin",
            "drain",
            node,
            "--redis",
            redis_url,
            "--wait",
            str(wait),
        ],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=wait + 30,
    )


class Player:
    """A player's websocket, read by a task of its own: every message is kept."""

    def __init__(self, name: str, ws: ClientConnection) -> None:
        self.name = name
        self.ws = ws
        self.messages: list[Msg] = []
        self.ended = ""
        self.ids = 0
        self._arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, server: Server, table_id: str, name: str, token: str) -> Player:
        ws = await connect(server.ws(table_id, token), max_queue=None)
        return cls(name, ws)

    async def _read(self) -> None:
        try:
            while True:
                self.messages.append(json.loads(await self.ws.recv()))
                self._arrived.set()
        except ConnectionClosed as exc:
            self.ended = f"closed ({exc})"
        finally:
            self._arrived.set()

    async def wait_for(
        self, what: str, match: Callable[[Msg], bool], start: int = 0, timeout: float = WAIT
    ) -> int:
        """The index of the first message from ``start`` on that matches."""
        deadline = time.monotonic() + timeout
        index = start
        while True:
            while index < len(self.messages):
                if match(self.messages[index]):
                    return index
                index += 1
            left = deadline - time.monotonic()
            assert left > 0 and not self.ended, (
                f"{self.name}: no {what} in {timeout:.0f} s ({self.ended}); "
                f"the last: {self.messages[-6:]}"
            )
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), min(left, 1.0))

    async def command(self, t: str, **d: Any) -> Msg:
        self.ids += 1
        command_id = f"{self.name}-{self.ids}"
        start = len(self.messages)
        await self.ws.send(json.dumps({"t": t, "d": {"id": command_id, **d}}))
        found = await self.wait_for(
            f"the answer to {t}",
            lambda m: m["t"] in ("ack", "reject") and m["d"].get("id") == command_id,
            start,
        )
        return self.messages[found]

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.reader


async def play_turns(player: Player, stop: asyncio.Event) -> int:
    """Act passively on every turn told to this player until ``stop``; the actions
    acknowledged. Only the last turn told is acted on: a turn followed by another
    is past (a player who starts playing late, as :func:`leave_between_hands`
    does, would otherwise send an action for every turn of his history, be
    rate-limited, and miss the turn that counts). A refused action is not
    counted; one refused for a while (the table did not answer: it is moving,
    Redis is back) is sent again."""
    acted = 0
    index = 0
    while not stop.is_set():
        try:
            found = await player.wait_for(
                "a turn", lambda m: m["t"] in ("turn", "snapshot"), index, timeout=1.0
            )
        except AssertionError:
            if player.ended:
                return acted
            continue
        index = found + 1
        message = player.messages[found]
        if message["t"] != "turn" or _is_past(player.messages, index):
            continue
        kinds = [a["kind"] for a in message["d"]["legal"]]
        kind = next((k for k in ("check", "call", "bring_in") if k in kinds), None)
        if kind is None:
            continue
        reply = await player.command("act", kind=kind)
        acted += reply["t"] == "ack"
        if reply["t"] == "reject" and "try again" in reply["d"]["reason"]:
            index = found  # the table was away (moving, Redis back): this turn again
            await asyncio.sleep(0.5)
    return acted


def _is_past(messages: list[Msg], after: int) -> bool:
    """Has the table told this player a turn after the one before ``after``?"""
    return any(m["t"] == "turn" for m in messages[after:])


def hand_finishes(player: Player, start: int = 0) -> int:
    return sum(
        1 for m in player.messages[start:] if m["t"] == "event" and m["d"]["k"] == "hand_finish"
    )


def is_event(kind: str) -> Callable[[Msg], bool]:
    return lambda m: m["t"] == "event" and m["d"]["k"] == kind


async def seat_both(
    server: Server, tokens: dict[str, str], through: Server | None = None
) -> tuple[Player, Player]:
    """ann and bob sit at t1 (seats 1 and 2), connected through ``server`` (bob
    through ``through`` if given)."""
    ann = await Player.connect(server, "t1", "ann", tokens["ann"])
    bob = await Player.connect(through or server, "t1", "bob", tokens["bob"])
    for seat, player in enumerate((ann, bob), start=1):
        reply = await player.command("sit", seat=seat, amount=BUY_IN)
        assert reply["t"] == "ack", reply
    return ann, bob


async def bring_in(ann: Player, bob: Player, start: int) -> str:
    """Wait for a hand; whoever must bring in does: the hand is in play. Its id."""
    found = await ann.wait_for("a hand", is_event("hand_start"), start)
    hand_id = str(ann.messages[found]["d"]["hand_id"])

    def bringing_in(m: dict[str, Any]) -> bool:
        return m["t"] == "turn" and "bring_in" in [a["kind"] for a in m["d"]["legal"]]

    deadline = time.monotonic() + 30
    while True:
        for player in (ann, bob):
            if any(bringing_in(m) for m in player.messages[found:]):
                reply = await player.command("act", kind="bring_in")
                assert reply["t"] == "ack", reply
                return hand_id
        assert time.monotonic() < deadline, "nobody was asked to bring in"
        await asyncio.sleep(0.05)


async def play_hands(players: tuple[Player, ...], hands: int, timeout: float = 60) -> None:
    """Both play passively until each has seen ``hands`` more hands finish."""
    starts = [len(p.messages) for p in players]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(play_turns(p, stop)) for p in players]
    deadline = time.monotonic() + timeout
    try:
        while not all(hand_finishes(p, s) >= hands for p, s in zip(players, starts, strict=True)):
            assert time.monotonic() < deadline, [p.messages[-5:] for p in players]
            assert not any(p.ended for p in players), [p.ended for p in players]
            await asyncio.sleep(0.1)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)


def _hand_in_play(player: Player) -> int | None:
    """The index of the message that told the hand in play, as this player last
    heard (None: no hand in play)."""
    for index in range(len(player.messages) - 1, -1, -1):
        m = player.messages[index]
        if m["t"] == "snapshot":
            return index if m["d"]["hand"] is not None else None
        if m["t"] == "event" and m["d"]["k"] in ("hand_start", "hand_finish"):
            return index if m["d"]["k"] == "hand_start" else None
    return None


def _at_least(seq: int) -> Callable[[Msg], bool]:
    return lambda m: m["t"] in ("event", "snapshot") and m["v"] >= seq


async def leave_between_hands(players: tuple[Player, ...]) -> None:
    """The players sit out (no next hand deals them) and play the hand in play, if
    any, to its end: the table is left between hands, so the nodes stop at once.
    (A clean stop plays a hand out; with its players gone, on their clocks.)"""
    stop = asyncio.Event()
    tasks = [asyncio.create_task(play_turns(p, stop)) for p in players]
    try:
        for player in players:
            if player.ended:
                continue
            reply = await player.command("sit_out")  # refused if sitting out already
            # what the table did before it answered (the answer may cross the bus first)
            await player.wait_for("the events before the answer", _at_least(reply["v"]))
        for player in players:
            told = _hand_in_play(player)
            if told is not None and not player.ended:
                await player.wait_for("the hand's end", is_event("hand_finish"), told)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
