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
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event as MPEvent
from typing import Any

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
        self.ws: ClientConnection | None = None
        self.ledger = Ledger()
        self.chips = 0
        self.seated = asyncio.Event()
        # the server subscribes a connection to its table after looking up its token
        # (a database read); the welcome comes once it has, and not before
        self.welcomed = asyncio.Event()
        self.gone = asyncio.Event()
        self.received = 0  # messages read, and how the reader ended (if it has)
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

    async def send(self, t: str, d: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps({"t": t, "d": d}, separators=(",", ":")))

    async def run(self) -> None:
        """Read messages until the player has left (or the connection ends)."""
        ws = self.ws
        assert ws is not None
        pool = self.pool
        perf = time.monotonic
        loads = json.loads
        try:
            async for raw in ws:
                now = perf()
                self.received += 1
                msg = loads(raw)
                t = msg["t"]
                if t == "event":
                    self._event(msg["v"], msg["d"], now)
                    if self.gone.is_set():
                        break
                elif t == "welcome":
                    self.welcomed.set()
                elif t == "turn":
                    if msg["v"] >= self.last_action_v and not self.acting and not self.leaving_done:
                        self.acting = True
                        self.retries = 0
                        self.turn = (msg["v"], msg["d"]["legal"])
                        pool.spawn(self._act(msg["v"], msg["d"]["legal"]))
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
                            pool.spawn(self._act(*self.turn, retry_after=delay))
                        else:
                            pool.act_rejects += 1
                            self.acting = False
                            self.turn = None
                    elif rid.startswith("s"):
                        pool.errors.append(f"{self.name} could not sit: {msg['d']['reason']}")
                        self.seated.set()
                    elif not rid.startswith("u"):
                        pool.errors.append(f"{self.name}: reject {msg['d']}")
            if self.gone.is_set():
                self.ended = "done: he left the table"
            else:
                self.ended = f"the connection closed ({ws.close_code} {ws.close_reason!r})"
        except asyncio.CancelledError:
            self.ended = "cancelled"
            raise
        except BaseException as exc:
            self.ended = f"{type(exc).__name__}: {exc} (close code {ws.close_code})"
            raise
        finally:
            self.gone.set()

    def state(self) -> str:
        """Where this player's connection is, for an error message."""
        ws = self.ws
        socket = "not connected" if ws is None else f"socket {ws.state.name.lower()}"
        if ws is not None and ws.local_address is not None:
            socket += f" from port {ws.local_address[1]}"
        reader = self.ended or ("reading" if not self.gone.is_set() else "gone")
        return f"{self.name}: {socket}, {self.received} messages read, reader {reader}"

    @property
    def leaving_done(self) -> bool:
        return self.gone.is_set()

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
                pool.spawn(self.send("top_up", {"amount": amount, "id": self._next_id("u")}))
        elif k == "sit" and d["player"] == self.name:
            self.chips = d["chips"]
            self.seated.set()
        elif k == "top_up" and d["seat"] == self.seat:
            self.chips = d["chips"]
        elif k == "leave" and d["player"] == self.name:
            self.gone.set()

    async def _act(
        self, v: int, legal: list[dict[str, Any]], retry_after: float | None = None
    ) -> None:
        """Act on the turn numbered ``v`` (again, ``retry_after`` seconds after the
        server's rate limit refused the action)."""
        config = self.pool.config
        try:
            if retry_after is not None:
                await asyncio.sleep(retry_after)
                if self.turn is None or self.turn[0] != v:
                    return  # the turn is over (or another one's task acts on it)
            elif config.max_delay > 0:
                await asyncio.sleep(self.rng.uniform(config.min_delay, config.max_delay))
            if self.last_action_v > v or self.gone.is_set():
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
            await self.send("act", d)
        except websockets.ConnectionClosed:
            self.acting = False


class Pool:
    def __init__(self, config: PoolConfig) -> None:
        self.config = config
        self.window = (float("inf"), float("inf"))
        self.tasks: set[asyncio.Task[Any]] = set()
        self.actions = 0
        self.rejects = 0
        self.act_rejects = 0
        self.rate_limited = 0  # actions refused by the server's rate limit, sent again
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

    async def connect(p: Player) -> None:
        ports = config.ports or (config.port,)
        port = ports[(p.seat - 1) % len(ports)]
        url = f"ws://127.0.0.1:{port}/ws/v1/tables/{p.stats.table_id}?token={p.token}"
        p.ws = await websockets.connect(
            url,
            compression="deflate" if config.deflate else None,
            proxy=None,  # loopback only, whatever the environment says
            open_timeout=60,
            max_size=2**20,
        )

    await _bounded(50, [functools.partial(connect, p) for p in players])
    readers = [asyncio.ensure_future(p.run()) for p in players]
    stop_probe = asyncio.Event()
    probe = asyncio.ensure_future(_lag_probe(pool, stop_probe))
    try:
        # everyone at a table is connected and subscribed before anyone sits: each sees
        # every sit as an event (not inside a snapshot), so the chip count balances
        await _all_told(players, "welcomed", 300)
        for p in players:
            await p.send("sit", {"seat": p.seat, "amount": config.buy_in, "id": p._next_id("s")})
        await _all_told(players, "seated", 300)
        # the set-up's objects are not the garbage collector's to walk again and again
        gc.collect()
        gc.freeze()
        out.put(("seated", config.worker, len(players), registered))
        while not go.is_set():
            await asyncio.sleep(0.02)
        pool.window = (t0.value, t_end.value)
        pool.lags.clear()
        await asyncio.sleep(max(0.0, t_end.value - time.monotonic()))
        lags = list(pool.lags)
        for p in players:
            p.leaving = True
            with contextlib.suppress(websockets.ConnectionClosed):
                await p.send("leave", {"id": p._next_id("l")})
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                asyncio.gather(*(p.gone.wait() for p in players)), config.leave_seconds
            )
        not_left = sum(1 for p in players if not p.gone.is_set())
    finally:
        stop_probe.set()
        for p in players:
            if p.ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(p.ws.close(), 5)
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
        "time_banks": pool.time_banks,
        "timeouts": pool.timeouts,
        "errors": pool.errors[:20],
        "not_left": not_left,
        "ledgers": ledgers,
        "lags": lags,
        "cpu": time.process_time(),
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
