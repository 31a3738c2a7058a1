"""The websocket player pool of ``bench_room.py``: runs in its own process.

Each player registers, logs in, opens the websocket of his table, sits, and then
acts on his ``turn`` messages (after ``delay`` seconds, drawn uniformly, or at once)
with a random legal action weighted towards check and call; he tops up between
hands when he is short. When the window ends he leaves (playing his hand out) and
closes. An action the server refuses by its rate limit (a connection's messages a
second: instant players at a fast table reach it) is sent again after a short pause
while the turn is still his; without that the table would wait for his time bank.

Latency of an action: the acting player notes when he sends it; when his own
action event (numbered ``v``) comes back, ``v`` is that action's number. Every
player of the table notes when he receives event ``v``; the action's latency is
the latest of those receptions minus the send time (all players of a table are in
one process, so one clock).

Every player also keeps the chips ledger of his table as he saw it (buy-ins,
top-ups, cash-outs, rake; and each hand's stacks before and after), so the
conservation of chips can be checked from what the clients saw.

The websocket client is ``picows`` (``_picows_link.py``: frames parsed in C, each
message handed to the player from the loop's read callback) when it is installed,
else the ``websockets`` library (a reader task per player, its frames parsed in
Python); ``PoolConfig.client`` chooses. Either way a player handles a message in
one plain call (``Player.receive``), acts on his turn in the same call (or a timer's
callback, with a delay), and writes without awaiting: the clients' CPU per action
is what decides whether two cores' worth of clients can saturate the server. Only
the messages the player uses are decoded: events he ignores (cards dealt, streets,
antes, shows, awards...) and acks are recognised by their first bytes, which the
server writes in a fixed order (``{"t":"event","v":N,"d":{"k":"deal"...``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import importlib.util
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event as MPEvent
from typing import Any, Protocol

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

ACTIONS = frozenset({"bring_in", "complete", "bet", "raise", "call", "check", "fold"})
WEIGHTS = {
    "check": 6.0,
    "call": 6.0,
    "bring_in": 6.0,
    "fold": 1.0,
    "complete": 1.5,
    "bet": 1.5,
    "raise": 1.0,
}
PASSWORD = "bench-pass-1"
RATE_LIMITED = "rate limit"  # the start of the server's reason for such a reject
RETRY_DELAYS = (0.05, 0.1, 0.2, 0.4, 0.5)  # seconds before each retry, the last on
CLIENTS = ("picows", "websockets")
# events a player reads nothing from (he needs the actions for the latency; sit,
# top_up, leave, hand_start, rake and end for his ledger; timeout and hand_finish
# for his turn; a timer only when it is a time bank's): not decoded
IGNORED_EVENTS = frozenset(
    {
        "ante",
        "street",
        "deal",
        "first_to_act",
        "community",
        "uncalled",
        "show",
        "muck",
        "award",
        "sit_out",
        "come_back",
        "disconnected",
        "reconnected",
        "waiting_list",
        "seat_offered",
    }
)
EVENT_HEAD = '{"t":"event","v":'
KIND_HEAD = '"d":{"k":"'
ACK_HEAD = '{"t":"ack",'
TIME_BANK = '"time_bank"'  # the one phase of a timer a player counts


def default_client() -> str:
    """picows when it is installed, else websockets."""
    return "picows" if importlib.util.find_spec("picows") is not None else "websockets"


def ignored(raw: str) -> bool:
    """Whether ``raw`` is an ack, an event of a kind in IGNORED_EVENTS or a turn
    clock's ``timer`` other than a time bank's, told by its first bytes (the server
    writes ``t``, ``v``, ``d`` and ``d``'s ``k`` first; a message written otherwise
    is decoded, never skipped).

    >>> ignored('{"t":"event","v":12,"d":{"k":"deal","seat":1}}')
    True
    >>> ignored('{"t":"event","v":12,"d":{"k":"call","seat":1}}')
    False
    >>> ignored('{"t":"event","v":9,"d":{"k":"timer","seat":2,"phase":"action"}}')
    True
    >>> ignored('{"t":"event","v":9,"d":{"k":"timer","seat":2,"phase":"time_bank"}}')
    False
    >>> ignored('{"t":"ack","d":{"id":"a1"}}'), ignored('{"d":{"k":"deal"},"t":"event"}')
    (True, False)
    """
    if raw.startswith(EVENT_HEAD):
        comma = raw.find(",", len(EVENT_HEAD))
        if comma > 0 and raw.startswith(KIND_HEAD, comma + 1):
            start = comma + 1 + len(KIND_HEAD)
            kind = raw[start : raw.find('"', start)]
            return kind in IGNORED_EVENTS or (kind == "timer" and TIME_BANK not in raw)
        return False
    return raw.startswith(ACK_HEAD)


@dataclass(frozen=True, slots=True)
class PoolConfig:
    port: int  # where the players register
    tables: tuple[str, ...]
    seats: int
    worker: int
    min_delay: float
    max_delay: float
    buy_in: int
    leave_seconds: float
    deflate: bool
    seed: int
    # the nodes of a room on several nodes: the players of a table connect to them in
    # turn (seat 1 to the first, ...), as a load balancer would spread them
    ports: tuple[int, ...] = ()
    client: str = "websockets"  # one of CLIENTS


@dataclass(slots=True)
class TableStats:
    """What the players of one table measure together."""

    table_id: str
    size: int
    sends: dict[int, float] = field(default_factory=dict)  # v -> send time of the action
    recv: dict[int, list[float]] = field(default_factory=dict)  # v -> [latest, count]
    latencies: list[float] = field(default_factory=list)  # ms, actions sent in the window
    incomplete: int = 0
    hands: int = 0  # hand_finish events in the window (counted once per table)

    def received(self, v: int, when: float, window: tuple[float, float]) -> None:
        entry = self.recv.get(v)
        if entry is None:
            entry = self.recv[v] = [when, 0.0]
        elif when > entry[0]:
            entry[0] = when
        entry[1] += 1
        if entry[1] >= self.size:
            sent = self.sends.pop(v, None)
            del self.recv[v]
            if sent is not None and window[0] <= sent < window[1]:
                self.latencies.append((entry[0] - sent) * 1000.0)


@dataclass(slots=True)
class Ledger:
    """The chips of a table as one player saw them."""

    chips_in: int = 0  # buy-ins and top-ups
    chips_out: int = 0  # cash-outs when leaving
    rake: int = 0
    hands: int = 0
    hand_errors: int = 0
    last_v: int = -1
    _start: int | None = None
    _hand_rake: int = 0

    def take(self, d: dict[str, Any]) -> None:
        k = d["k"]
        if k == "sit":
            self.chips_in += d["chips"]
        elif k == "top_up":
            self.chips_in += d["amount"]
        elif k == "leave":
            self.chips_out += d["chips"]
        elif k == "hand_start":
            self._start = sum(c for _, c in d["stacks"])
            self._hand_rake = 0
        elif k == "rake":
            self.rake += d["amount"]
            self._hand_rake += d["amount"]
        elif k == "end" and self._start is not None:
            self.hands += 1
            if sum(c for _, c in d["stacks"]) + self._hand_rake != self._start:
                self.hand_errors += 1
            self._start = None


class Link(Protocol):
    """A player's websocket, whichever library runs it: ``send`` writes at once
    (or queues the write) and never waits."""

    def send(self, text: str) -> None: ...

    async def close(self) -> None: ...

    def describe(self) -> str: ...


class WebsocketsLink:
    """A connection of the ``websockets`` library, read by a task of its own."""

    def __init__(self, ws: ClientConnection, pool: Pool) -> None:
        self.ws = ws
        self.pool = pool

    def send(self, text: str) -> None:
        self.pool.spawn(self._send(text))

    async def _send(self, text: str) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(text)

    async def close(self) -> None:
        await asyncio.wait_for(self.ws.close(), 5)

    def describe(self) -> str:
        ws = self.ws
        socket = f"socket {ws.state.name.lower()}"
        if ws.local_address is not None:
            socket += f" from port {ws.local_address[1]}"
        return socket

    async def read(self, player: Player) -> None:
        """Hand the messages to ``player`` until he has left (or the connection ends)."""
        ws = self.ws
        receive = player.receive
        perf = time.monotonic
        try:
            async for raw in ws:
                receive(raw if isinstance(raw, str) else raw.decode(), perf())
                if player.left:
                    break
            if not player.left:
                player.closed(f"the connection closed ({ws.close_code} {ws.close_reason!r})")
        except asyncio.CancelledError:
            player.closed("cancelled")
            raise
        except BaseException as exc:
            player.closed(f"{type(exc).__name__}: {exc} (close code {ws.close_code})")
            raise


class Player:
    def __init__(
        self,
        name: str,
        token: str,
        seat: int,
        stats: TableStats,
        pool: Pool,
        rng: random.Random,
        counts_hands: bool,
    ) -> None:
        self.name = name
        self.token = token
        self.seat = seat
        self.stats = stats
        self.pool = pool
        self.rng = rng
        self.counts_hands = counts_hands
        self.link: Link | None = None
        self.ledger = Ledger()
        self.chips = 0
        self.seated = asyncio.Event()
        # the server subscribes a connection to its table after looking up its token
        # (a database read); the welcome comes once it has, and not before
        self.welcomed = asyncio.Event()
        # a node that does not run his table may send him to the one that does
        # (routing, ``bench_room.py --route``): answered is set by welcome or redirect
        self.answered = asyncio.Event()
        self.redirect: str | None = None
        self.gone = asyncio.Event()
        self.left = False  # gone is set: he has left, or his connection has ended
        self.received = 0  # messages read, and how the reader ended (if it has)
        self.decoded = 0  # messages read that were not ignored()
        self.ended: str | None = None
        self.last_action_v = -1
        self.acting = False
        self.sent_at: float | None = None
        self.retries = 0  # rate-limited sends of the current action
        self.ids = 0
        self.leaving = False
        self.in_hand = False
        self.turn: tuple[int, list[dict[str, Any]]] | None = None  # (v, legal) now his

    def _next_id(self, prefix: str) -> str:
        self.ids += 1
        return f"{prefix}{self.ids}"

    def send(self, t: str, d: dict[str, Any]) -> None:
        assert self.link is not None
        self.link.send(json.dumps({"t": t, "d": d}, separators=(",", ":")))

    def _gone(self) -> None:
        self.left = True
        self.gone.set()

    def closed(self, how: str) -> None:
        """His connection has ended (``how``), or his reader has stopped."""
        if self.redirect is not None and not self.welcomed.is_set():
            return  # the node that sent him elsewhere hung up, as it says it does
        if self.ended is None:
            self.ended = "done: he left the table" if self.left else how
        self._gone()

    def receive(self, raw: str, now: float) -> None:
        """Handle one message read at ``now`` (nothing once he has left)."""
        if self.left:
            return
        self.received += 1
        if ignored(raw):
            return
        self.decoded += 1
        try:
            self._message(json.loads(raw), now)
        except Exception as exc:
            # a message the player cannot handle: the run is wrong, and says so
            self.pool.errors.append(f"{self.name}: {type(exc).__name__}: {exc} in {raw[:200]}")
            self.closed(f"{type(exc).__name__}: {exc}")

    def _message(self, msg: dict[str, Any], now: float) -> None:
        pool = self.pool
        t = msg["t"]
        if t == "event":
            self._event(msg["v"], msg["d"], now)
        elif t == "welcome":
            self.welcomed.set()
            self.answered.set()
        elif t == "redirect":
            self.redirect = str(msg["d"]["url"])
            self.answered.set()
        elif t == "turn":
            if msg["v"] >= self.last_action_v and not self.acting:
                legal = msg["d"]["legal"]
                self.acting = True
                self.retries = 0
                self.turn = (msg["v"], legal)
                config = pool.config
                if config.max_delay > 0:
                    delay = self.rng.uniform(config.min_delay, config.max_delay)
                    pool.loop.call_later(delay, self._act, msg["v"], legal, False)
                else:
                    self._act(msg["v"], legal, False)
        elif t == "reject":
            pool.rejects += 1
            rid = msg["d"].get("id") or ""
            if rid.startswith("a"):
                self.sent_at = None
                reason = str(msg["d"].get("reason") or "")
                if reason.startswith(RATE_LIMITED) and self.turn is not None:
                    pool.rate_limited += 1
                    delay = RETRY_DELAYS[min(self.retries, len(RETRY_DELAYS) - 1)]
                    self.retries += 1
                    pool.loop.call_later(delay, self._act, *self.turn, True)
                else:
                    pool.act_rejects += 1
                    self.acting = False
                    self.turn = None
            elif rid.startswith("l") and str(msg["d"].get("reason") or "").startswith(RATE_LIMITED):
                # his leave came right after his action: ask again in a moment
                pool.rate_limited += 1
                delay = RETRY_DELAYS[min(self.retries, len(RETRY_DELAYS) - 1)]
                self.retries += 1
                pool.loop.call_later(delay, self._leave)
            elif rid.startswith("s"):
                pool.errors.append(f"{self.name} could not sit: {msg['d']['reason']}")
                pool.not_seated += 1
                self.seated.set()
            elif not rid.startswith("u"):
                pool.errors.append(f"{self.name}: reject {msg['d']}")

    def state(self) -> str:
        """Where this player's connection is, for an error message."""
        socket = "not connected" if self.link is None else self.link.describe()
        reader = self.ended or ("reading" if not self.left else "gone")
        return f"{self.name}: {socket}, {self.received} messages read, reader {reader}"

    def _event(self, v: int, d: dict[str, Any], now: float) -> None:
        pool, stats = self.pool, self.stats
        self.ledger.take(d)
        self.ledger.last_v = v
        k = d["k"]
        if k in ACTIONS:
            self.last_action_v = v
            if d["seat"] == self.seat:
                self.turn = None
                if self.sent_at is not None:
                    stats.sends[v] = self.sent_at
                    self.sent_at = None
                    self.acting = False
            stats.received(v, now, pool.window)
        elif k == "timer":
            if d["seat"] == self.seat and d.get("phase") == "time_bank":
                pool.time_banks += 1  # his action clock ran out: the table waited for him
        elif k == "timeout":
            if d["seat"] == self.seat:
                pool.timeouts += 1
                self.sent_at = None
                self.acting = False
                self.turn = None
        elif k == "hand_start":
            self.in_hand = any(s == self.seat for s, _ in d["stacks"])
        elif k == "end":
            for s, c in d["stacks"]:
                if s == self.seat:
                    self.chips = c
        elif k == "hand_finish":
            self.in_hand = False
            self.acting = False
            self.sent_at = None
            self.turn = None
            if self.counts_hands and pool.window[0] <= now < pool.window[1]:
                stats.hands += 1
            if not self.leaving and self.chips < self.pool.config.buy_in // 2:
                amount = self.pool.config.buy_in - self.chips
                self.send("top_up", {"amount": amount, "id": self._next_id("u")})
        elif k == "sit" and d["player"] == self.name:
            self.chips = d["chips"]
            self.seated.set()
        elif k == "top_up" and d["seat"] == self.seat:
            self.chips = d["chips"]
        elif k == "leave" and d["player"] == self.name:
            self._gone()

    def _leave(self) -> None:
        """Stand up and leave the table (once the window is over)."""
        self.leaving = True
        if not self.left and not self.pool.closing:
            self.send("leave", {"id": self._next_id("l")})

    def _act(self, v: int, legal: list[dict[str, Any]], retry: bool) -> None:
        """Act on the turn numbered ``v`` (again, when ``retry``: the server's rate
        limit refused the action a moment ago)."""
        if self.pool.closing:
            return
        if retry and (self.turn is None or self.turn[0] != v):
            return  # the turn is over (or another call acts on it)
        if self.last_action_v > v or self.left:
            self.acting = False  # stale: something happened meanwhile
            self.turn = None
            return
        kinds = [a for a in legal if a["kind"] in WEIGHTS]
        if any(a["kind"] == "check" for a in kinds):
            kinds = [a for a in kinds if a["kind"] != "fold"]
        choice = self.rng.choices(kinds, [WEIGHTS[a["kind"]] for a in kinds])[0]
        d: dict[str, Any] = {"kind": choice["kind"], "id": self._next_id("a")}
        if choice["kind"] in ("complete", "bet", "raise"):
            d["amount"] = choice["min_to"]
        self.sent_at = time.monotonic()
        self.pool.actions += 1
        self.send("act", d)


class Pool:
    def __init__(self, config: PoolConfig) -> None:
        self.config = config
        self.loop = asyncio.get_running_loop()
        self.window = (float("inf"), float("inf"))
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False  # the run is over: timers' actions do nothing
        self.actions = 0
        self.rejects = 0
        self.act_rejects = 0
        self.rate_limited = 0  # actions refused by the server's rate limit, sent again
        self.redirected = 0  # players sent to their table's owner (routing)
        self.not_seated = 0  # players whose sit was refused
        self.time_banks = 0  # turns whose action clock ran out (into the time bank)
        self.timeouts = 0
        self.errors: list[str] = []
        self.lags: list[float] = []

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


async def _register(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/api/v1/register", json={"name": name, "password": PASSWORD})
    if r.status_code not in (201, 409):
        raise RuntimeError(f"register {name}: {r.status_code} {r.text}")
    r = await http.post("/api/v1/login", json={"name": name, "password": PASSWORD})
    if r.status_code != 200:
        raise RuntimeError(f"login {name}: {r.status_code} {r.text}")
    token = r.json()["token"]
    assert isinstance(token, str)
    return token


async def _bounded(limit: int, jobs: list[Callable[[], Awaitable[Any]]]) -> list[Any]:
    sem = asyncio.Semaphore(limit)

    async def one(job: Callable[[], Awaitable[Any]]) -> Any:
        async with sem:
            return await job()

    return list(await asyncio.gather(*(one(j) for j in jobs)))


async def _all_told(players: list[Player], what: str, seconds: float) -> None:
    """Wait until every player is ``what`` (his event of that name is set); a
    RuntimeError naming those who are not, and how their connections stand, if one's
    reader ends first or ``seconds`` pass."""

    async def one(p: Player) -> None:
        told = asyncio.ensure_future(getattr(p, what).wait())
        gone = asyncio.ensure_future(p.gone.wait())
        try:
            await asyncio.wait((told, gone), return_when=asyncio.FIRST_COMPLETED)
        finally:
            told.cancel()
            gone.cancel()

    started = time.monotonic()
    waits = [asyncio.ensure_future(one(p)) for p in players]
    try:
        await asyncio.wait_for(asyncio.gather(*waits), seconds)
    except TimeoutError:
        pass
    finally:
        for w in waits:
            w.cancel()
    missing = [p for p in players if not getattr(p, what).is_set()]
    if missing:
        listed = "; ".join(p.state() for p in missing[:20])
        more = f" (and {len(missing) - 20} more)" if len(missing) > 20 else ""
        raise RuntimeError(
            f"{len(missing)} of {len(players)} players were not {what} "
            f"(after {time.monotonic() - started:.1f} s of at most {seconds:.0f}): {listed}{more}"
        )


async def _lag_probe(pool: Pool, stop: asyncio.Event) -> None:
    """How late this process's event loop wakes up (the clients' own delay)."""
    while not stop.is_set():
        t = time.monotonic()
        await asyncio.sleep(0.05)
        pool.lags.append((time.monotonic() - t - 0.05) * 1000.0)


async def run_pool(
    config: PoolConfig,
    out: Queue[Any],
    go: MPEvent,
    t0: Synchronized[float],
    t_end: Synchronized[float],
) -> dict[str, Any]:
    pool = Pool(config)
    rng = random.Random(config.seed)
    base = f"http://127.0.0.1:{config.port}"
    players: list[Player] = []
    all_stats: list[TableStats] = []
    specs: list[tuple[str, int, TableStats]] = []
    for table_id in config.tables:
        stats = TableStats(table_id, config.seats)
        all_stats.append(stats)
        for seat in range(1, config.seats + 1):
            specs.append((f"p{config.worker}_{table_id}_{seat}", seat, stats))
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=base, timeout=120, trust_env=False) as http:
        jobs: list[Callable[[], Awaitable[Any]]] = [
            functools.partial(_register, http, name) for name, _, _ in specs
        ]
        tokens = await _bounded(8, jobs)
    registered = time.monotonic() - started
    for (name, seat, stats), token in zip(specs, tokens, strict=True):
        players.append(
            Player(
                name,
                token,
                seat,
                stats,
                pool,
                random.Random(rng.getrandbits(64)),
                counts_hands=seat == 1,
            )
        )

    readers: list[asyncio.Task[None]] = []

    async def connect(p: Player) -> None:
        ports = config.ports or (config.port,)
        port = ports[(p.seat - 1) % len(ports)]
        url = f"ws://127.0.0.1:{port}/ws/v1/tables/{p.stats.table_id}"
        await open_link(p, f"{url}?token={p.token}")
        await asyncio.wait_for(p.answered.wait(), 300)
        if p.redirect is not None:  # as the browser does: once, same token
            pool.redirected += 1
            old = p.link
            p.link = None
            if old is not None:
                await old.close()
            await open_link(p, f"{p.redirect}?token={p.token}")

    async def open_link(p: Player, url: str) -> None:
        if config.client == "picows":
            from _picows_link import connect as picows_connect

            p.link = await picows_connect(url, p.receive, p.closed)
            return
        ws = await websockets.connect(
            url,
            compression="deflate" if config.deflate else None,
            proxy=None,  # loopback only, whatever the environment says
            open_timeout=60,
            max_size=2**20,
        )
        link = WebsocketsLink(ws, pool)
        p.link = link
        readers.append(asyncio.ensure_future(link.read(p)))

    if config.client not in CLIENTS:
        raise ValueError(f"client {config.client!r}: not one of {', '.join(CLIENTS)}")
    if config.deflate and config.client != "websockets":
        raise ValueError("compression (deflate) needs the websockets client")
    await _bounded(50, [functools.partial(connect, p) for p in players])
    stop_probe = asyncio.Event()
    probe = asyncio.ensure_future(_lag_probe(pool, stop_probe))
    try:
        # everyone at a table is connected and subscribed before anyone sits: each sees
        # every sit as an event (not inside a snapshot), so the chip count balances
        await _all_told(players, "welcomed", 300)
        for p in players:
            p.send("sit", {"seat": p.seat, "amount": config.buy_in, "id": p._next_id("s")})
        await _all_told(players, "seated", 300)
        # the set-up's objects are not the garbage collector's to walk again and again
        gc.collect()
        gc.freeze()
        out.put(("seated", config.worker, len(players), registered))
        while not go.is_set():
            await asyncio.sleep(0.02)
        pool.window = (t0.value, t_end.value)
        await asyncio.sleep(max(0.0, t0.value - time.monotonic()))
        pool.lags.clear()
        read0 = sum(p.received for p in players)
        decoded0 = sum(p.decoded for p in players)
        await asyncio.sleep(max(0.0, t_end.value - time.monotonic()))
        lags = list(pool.lags)
        read_in_window = sum(p.received for p in players) - read0
        decoded_in_window = sum(p.decoded for p in players) - decoded0
        for p in players:
            p._leave()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                asyncio.gather(*(p.gone.wait() for p in players)), config.leave_seconds
            )
        not_left = sum(1 for p in players if not p.gone.is_set())
    finally:
        stop_probe.set()
        pool.closing = True
        for p in players:
            if p.link is not None:
                with contextlib.suppress(Exception):
                    await p.link.close()
        for task in [*readers, probe, *pool.tasks]:
            task.cancel()
        await asyncio.gather(*readers, probe, *pool.tasks, return_exceptions=True)
    ledgers: dict[str, dict[str, int]] = {}
    for p in players:
        best = ledgers.get(p.stats.table_id)
        if best is None or p.ledger.last_v > best["last_v"]:
            lg = p.ledger
            ledgers[p.stats.table_id] = {
                "chips_in": lg.chips_in,
                "chips_out": lg.chips_out,
                "rake": lg.rake,
                "hands": lg.hands,
                "hand_errors": lg.hand_errors,
                "last_v": lg.last_v,
            }
    return {
        "latencies": [x for s in all_stats for x in s.latencies],
        "incomplete": sum(
            1 for s in all_stats for v in s.sends if pool.window[0] <= s.sends[v] < pool.window[1]
        ),
        "hands": sum(s.hands for s in all_stats),
        "actions": pool.actions,
        "rejects": pool.rejects,
        "act_rejects": pool.act_rejects,
        "rate_limited": pool.rate_limited,
        "redirected": pool.redirected,  # players a node sent to the table's owner
        "not_seated": pool.not_seated,
        "time_banks": pool.time_banks,
        "timeouts": pool.timeouts,
        "errors": pool.errors[:20],
        "not_left": not_left,
        "ledgers": ledgers,
        "lags": lags,
        "cpu": time.process_time(),
        "client": config.client,
        "messages": read_in_window,  # websocket messages read in the window
        "decoded": decoded_in_window,  # of which decoded (JSON), not ignored()
    }


def pool_main(
    config: PoolConfig,
    out: Queue[Any],
    go: MPEvent,
    t0: Synchronized[float],
    t_end: Synchronized[float],
) -> None:
    """The worker process: play, and put ("result", worker, figures) or ("error", ...)."""
    try:
        import uvloop

        runner: Callable[[Any], Any] = uvloop.run
    except ImportError:  # pragma: no cover
        runner = asyncio.run
    try:
        result = runner(run_pool(config, out, go, t0, t_end))
        out.put(("result", config.worker, result))
    except BaseException as exc:
        out.put(("error", config.worker, f"{type(exc).__name__}: {exc}"))
        raise
