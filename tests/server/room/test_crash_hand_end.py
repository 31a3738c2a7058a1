"""The crash test at the end of a hand: the real server (``python -m stud8 serve``)
is killed with SIGKILL 0, 5 or 20 ms after the last action of a hand, or as soon as
a player reads the pot awarded (also with the database slow: another transaction
holding its write lock), restarted on the same database, and

- a hand whose result a player was shown (an ``award``, the ``end`` of that hand
  or its ``hand_finish``) is not cancelled by the restart: it is stored as played,
  not ``cancelled``, and the ledger's transaction for it is its
  ``hand_settlement``, not a ``refund``, the table accounts holding the stacks the
  players were shown;
- whatever the kill cut, every chip is accounted for: a refunded hand leaves the
  stacks of its start, a settled one moves chips only between the players; the
  banks and the table accounts of the players add up to what they were given,
  ``stud8 admin audit`` exits 0, the table comes back and the players reconnect
  and finish a hand, starting from the stacks the ledger holds.

The rules checked: RULES.md section 7 (a hand cut short by a server failure is
cancelled and every bet goes back) and the room's promise that goes with it: a
hand announced as finished (its pots shown awarded, ``hand_finish`` sent) is never
cancelled afterwards; it was not cut short.

Each round the two players (ann in seat 1, bob in seat 2) reconnect to the
server the last kill restarted, play one whole hand (whoever must bring in
brings in, the other folds), then a second one to its last action, the fold,
and the server is killed that many milliseconds after the fold is sent (or as
soon as the folder reads the award: :data:`KILLS`), while
both clients read whatever still arrives until their sockets die. The restart is
the next round's server; the chips are checked from one round to the next. A
round per moment of the kill (:data:`KILLS`), ``STUD8_CRASH_ROUNDS`` times (default
2) per database; 20 is the "many times" run. Every kill is checked (and printed);
the hands shown finished and then cancelled are all listed in the one failure at
the end. Servers listen on 127.0.0.1 only and every one started is stopped, also
when the test fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.roomprocess import Server, audit, open_table, register, running_server
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger, bank, rake_account, table_account
from stud8.server.storage import create_engine_for

Msg = dict[str, Any]

# When the server is killed: so many ms after the fold is sent; "award": as soon as
# the folder reads the pot awarded; "stalled": the same while another transaction
# holds the database's write lock (a slow disk, a busy database), so the hand's
# settlement cannot be written until after the kill, or after STALL seconds if no
# award comes (a server that waits for its settlement before announcing the result
# shows none). Whether 0, 5 or 20 ms falls between the result sent and the
# settlement written depends on the machine's load; "stalled" always does.
KILLS: tuple[int | str, ...] = (0, 5, 20, "award", "stalled")
STALL = 2.0
ROUNDS = int(os.environ.get("STUD8_CRASH_ROUNDS", "2"))
TABLE = "finale"
SEATS = {"ann": 1, "bob": 2}
NAMES = {seat: name for name, seat in SEATS.items()}
OPENING_CHIPS = 10_000
BUY_IN = 200
# the next hand is dealt 0.2 s after the last ends, well after the latest kill; a
# turn lasts long enough that no wait of a loaded machine times it out
ENV = {
    "STUD8_STARTING_CHIPS": str(OPENING_CHIPS),
    "STUD8_BETWEEN_HANDS": "0.2",
    "STUD8_SHOWDOWN_SECONDS": "0",
}
SPEC = {"between_hands": 0.2, "showdown_seconds": 0, "action_seconds": 120, "time_bank_seconds": 0}
WAIT = 60.0  # seconds for any one message
# the events that tell a hand's result
RESULT_KINDS = ("award", "end", "hand_finish")


class Client:
    """A player's websocket, read by a task of its own until it dies: every message
    is kept, in order, whether or not the test is waiting for it."""

    def __init__(self, name: str, ws: ClientConnection) -> None:
        self.name = name
        self.ws = ws
        self.messages: list[Msg] = []
        self.ended = ""  # how the socket ended
        self.ids = 0
        self._arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                self.messages.append(json.loads(await self.ws.recv()))
                self._arrived.set()
        except ConnectionClosed as exc:
            self.ended = f"closed ({exc})"
        finally:
            self._arrived.set()

    async def wait_for(self, what: str, match: Callable[[Msg], bool], start: int) -> int:
        """The index of the first message from ``start`` on that matches; fails on a
        ``reject`` (no command of this test may be refused)."""
        found = await self.arrives(what, match, start, WAIT)
        tail = self.messages[-8:]
        assert found is not None, f"{self.name}: no {what} in {WAIT:.0f} s; the last: {tail}"
        return found

    async def arrives(
        self, what: str, match: Callable[[Msg], bool], start: int, timeout: float
    ) -> int | None:
        """:meth:`wait_for`, or None after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        index = start
        while True:
            while index < len(self.messages):
                msg = self.messages[index]
                assert msg["t"] != "reject", f"{self.name}: refused: {msg}"
                if match(msg):
                    return index
                index += 1
            assert not self.reader.done(), f"{self.name}: socket {self.ended} awaiting {what}"
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def send(self, t: str, **d: Any) -> str:
        """Send a command; its id."""
        self.ids += 1
        command_id = f"{self.name}-{self.ids}"
        await self.ws.send(json.dumps({"t": t, "d": {"id": command_id, **d}}))
        return command_id

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.gather(self.reader, return_exceptions=True)


def event(kind: str, **fields: Any) -> Callable[[Msg], bool]:
    def match(msg: Msg) -> bool:
        d = msg["d"]
        return (
            msg["t"] == "event" and d["k"] == kind and all(d.get(k) == v for k, v in fields.items())
        )

    return match


def turn(kind: str) -> Callable[[Msg], bool]:
    """A turn where ``kind`` is legal."""
    return lambda msg: msg["t"] == "turn" and any(a["kind"] == kind for a in msg["d"]["legal"])


def reply(command_id: str) -> Callable[[Msg], bool]:
    return lambda msg: msg["t"] in ("ack", "reject") and msg["d"].get("id") == command_id


def by_name(stacks: list[list[int]]) -> dict[str, int]:
    """An event's ``[[seat, chips], ...]`` by player."""
    return {NAMES[seat]: chips for seat, chips in stacks}


def describe(msg: Msg) -> str:
    """A message, short: ``award(pot=0, seat=1, amount=5, half=whole)``, ``ack``."""
    if msg["t"] != "event":
        return f"{msg['t']}({msg['d'].get('id', '')})"
    d = dict(msg["d"])
    kind = d.pop("k")
    d.pop("card", None)
    return f"{kind}(" + ", ".join(f"{k}={v}" for k, v in d.items()) + ")"


@dataclass
class Hand:
    """A hand as the clients saw it."""

    hand_id: str
    start: dict[str, int]  # the stacks at its start, by player
    starts: dict[str, int]  # each client's index of its hand_start
    end: dict[str, int] | None = None  # the stacks its ``end`` event showed
    folder: str = ""
    fold_id: str = ""


@dataclass
class Kill:
    """A hand killed after its last action, and what the clients saw of it."""

    hand: Hand
    trigger: int | str  # see KILLS
    after_ms: float = 0.0  # the time from the fold's send to the SIGKILL, measured
    seen: dict[str, list[Msg]] = field(default_factory=dict)  # after the fold was sent
    result: dict[str, list[str]] = field(default_factory=dict)  # the result each saw

    @property
    def shown(self) -> bool:
        return any(self.result.values())

    def when(self) -> str:
        sent = f"{self.hand.folder}'s fold was sent"
        if self.trigger == "award":
            return (
                f"as soon as {self.hand.folder} read the award, {self.after_ms:.1f} ms after {sent}"
            )
        if self.trigger == "stalled":
            return (
                f"with the database's write lock held by another transaction, as soon as "
                f"{self.hand.folder} read the award (or after {STALL} s), "
                f"{self.after_ms:.1f} ms after {sent}"
            )
        return f"{self.trigger} ms after {sent}, measured {self.after_ms:.1f} ms"

    def saw(self) -> str:
        return "; ".join(
            f"{name} saw [{', '.join(describe(m) for m in self.seen[name])}]"
            for name in sorted(self.seen)
        )


async def join(
    server: Server, tokens: dict[str, str], first: bool, clients: dict[str, Client]
) -> None:
    """ann and bob connect (into ``clients``): the first time they sit with BUY_IN;
    after a restart they are in their seats already and are dealt in again
    (``come_back``)."""
    for name, seat in SEATS.items():
        client = Client(name, await connect(server.ws(TABLE, tokens[name])))
        clients[name] = client
        welcome = await client.wait_for("welcome", lambda m: m["t"] == "welcome", 0)
        if first:
            sit = await client.send("sit", seat=seat, amount=BUY_IN)
            await client.wait_for("the ack of sit", reply(sit), welcome)
        else:
            assert client.messages[welcome]["d"]["seat"] == seat, client.messages[welcome]
            await client.wait_for("come_back", event("come_back", seat=seat), welcome)


async def to_the_last_action(clients: dict[str, Client], after: dict[str, int]) -> Hand:
    """A hand dealt after each client's message ``after``, played to its last action:
    the bring-in is posted, and the other player's turn has come (he may fold)."""
    starts = {
        name: await c.wait_for("hand_start", event("hand_start"), after[name])
        for name, c in clients.items()
    }
    found = {name: clients[name].messages[i]["d"] for name, i in starts.items()}
    assert found["ann"] == found["bob"], found
    hand = Hand(found["ann"]["hand_id"], by_name(found["ann"]["stacks"]), starts)
    ann = clients["ann"]
    first = await ann.wait_for("first_to_act", event("first_to_act"), starts["ann"])
    opener = NAMES[ann.messages[first]["d"]["seat"]]
    hand.folder = next(name for name in SEATS if name != opener)
    bringer, folder = clients[opener], clients[hand.folder]
    await bringer.wait_for("the bring-in turn", turn("bring_in"), starts[opener])
    await bringer.send("act", kind="bring_in")
    posted = await folder.wait_for("the bring-in", event("bring_in"), starts[hand.folder])
    await folder.wait_for("the turn after the bring-in", turn("fold"), posted)
    return hand


async def whole_hand(
    clients: dict[str, Client], after: dict[str, int]
) -> tuple[Hand, dict[str, int]]:
    """A hand played to its end (the bring-in, a fold): the hand and each client's
    index of its ``hand_finish``, which must not say cancelled."""
    hand = await to_the_last_action(clients, after)
    folder = clients[hand.folder]
    hand.fold_id = await folder.send("act", kind="fold")
    await folder.wait_for("the ack of the fold", reply(hand.fold_id), hand.starts[hand.folder])
    finishes = {}
    for name, c in clients.items():
        finished = event("hand_finish", hand_id=hand.hand_id)
        finishes[name] = await c.wait_for("hand_finish", finished, hand.starts[name])
        finish = c.messages[finishes[name]]
        assert finish["d"].get("cancelled") is not True, finish
        ends = [m for m in c.messages[hand.starts[name] : finishes[name]] if event("end")(m)]
        assert len(ends) == 1, ends
        hand.end = by_name(ends[0]["d"]["stacks"])
    assert hand.end is not None and sum(hand.end.values()) == sum(hand.start.values()), hand
    return hand, finishes


async def killed_at_the_end(
    url: str,
    server: Server,
    tokens: dict[str, str],
    first: bool,
    stacks: dict[str, int],
    trigger: int | str,
) -> Kill:
    """One round: join, a whole hand (from ``stacks``), then a hand to its last
    action; the fold is sent and the server killed at the ``trigger`` (see
    :data:`KILLS`); the clients read until their sockets die. What they saw of the
    killed hand."""
    clients: dict[str, Client] = {}
    try:
        await join(server, tokens, first, clients)
        played, finishes = await whole_hand(clients, {name: 0 for name in clients})
        assert played.start == stacks, (
            f"hand {played.hand_id} started with {played.start}, the ledger held {stacks}"
        )
        hand = await to_the_last_action(clients, finishes)
        # every chip the first hand moved is where the second starts
        assert hand.start == played.end, (played, hand)
        folder = clients[hand.folder]
        before = {name: len(c.messages) for name, c in clients.items()}
        with contextlib.ExitStack() as stall:
            if trigger == "stalled":
                stall.enter_context(write_lock_held(url))
            hand.fold_id = await folder.send("act", kind="fold")
            sent = time.perf_counter()
            if trigger == "award":
                await folder.wait_for("the award", event("award"), before[hand.folder])
            elif trigger == "stalled":
                await folder.arrives("the award", event("award"), before[hand.folder], STALL)
            elif trigger:
                assert isinstance(trigger, int), trigger
                await asyncio.sleep(trigger / 1000)
            os.kill(server.process.pid, signal.SIGKILL)
            kill = Kill(hand, trigger, (time.perf_counter() - sent) * 1000)
        code = await asyncio.to_thread(server.process.wait, WAIT)
        assert code == -signal.SIGKILL, code
        for c in clients.values():  # the socket dies with the process
            await asyncio.wait_for(c.reader, WAIT)
    finally:
        for c in clients.values():
            await c.close()
    for name, c in clients.items():
        start = hand.starts[name]
        later = [i for i in range(start + 1, len(c.messages)) if event("hand_start")(c.messages[i])]
        window = c.messages[start : later[0] if later else len(c.messages)]  # this hand's
        kill.seen[name] = c.messages[before[name] : len(window) + start]
        kill.result[name] = [
            describe(m)
            for m in window
            if m["t"] == "event"
            and m["d"]["k"] in RESULT_KINDS
            and not (m["d"]["k"] == "hand_finish" and m["d"].get("cancelled"))
        ]
        ends = [m for m in window if event("end")(m)]
        if ends:
            hand.end = by_name(ends[0]["d"]["stacks"])
    return kill


@contextlib.contextmanager
def write_lock_held(url: str) -> Iterator[None]:
    """Another transaction holds the database's write lock until the block ends
    (rolled back): the server's writes wait for it, its reads do not. On SQLite a
    ``BEGIN IMMEDIATE``; on PostgreSQL ``LOCK TABLE transactions`` (every
    settlement or refund is a row there)."""
    engine = create_engine_for(url)
    try:
        with engine.connect() as conn:
            conn.begin()  # on SQLite: BEGIN IMMEDIATE, the write lock
            if conn.dialect.name != "sqlite":
                conn.exec_driver_sql("LOCK TABLE transactions IN EXCLUSIVE MODE")
            yield
            conn.rollback()
    finally:
        engine.dispose()


@dataclass
class Books:
    """The players' chips in the ledger, and the killed hand's fate."""

    banks: dict[str, int]
    tables: dict[str, int]
    rake: int
    stored: str  # how the hand is stored
    cancelled: bool | None
    transaction: tuple[int, str] | None
    in_progress: list[str]
    audit: str  # the ledger's own audit, "" when it balances


def read_books(url: str, hand_id: str) -> Books:
    engine = create_engine_for(url)
    try:
        ledger, store = Ledger(engine), HandStore(engine)
        found = store.fetch(hand_id)
        report = ledger.audit()
        return Books(
            banks={name: ledger.balance(bank(name)) for name in SEATS},
            tables={name: ledger.balance(table_account(TABLE, name)) for name in SEATS},
            rake=ledger.balances(rake_account(TABLE)).get(rake_account(TABLE), 0),
            stored="not stored"
            if found is None
            else f"stored cancelled={found.cancelled} note={found.note!r}",
            cancelled=None if found is None else found.cancelled,
            transaction=ledger.hand_transaction(hand_id),
            in_progress=[h.hand_id for h in store.in_progress()],
            audit="" if report.ok else str(report),
        )
    finally:
        engine.dispose()


def restarted(books: Books, hand: Hand) -> str:
    """What the restart did with the killed hand, in words."""
    if books.transaction is None:
        return f"left it without a ledger transaction ({books.stored})"
    number, kind = books.transaction
    did = "CANCELLED it (refunded)" if kind == "refund" else "kept it settled"
    return (
        f"{did}: {books.stored}, ledger transaction #{number} {kind!r}, table accounts "
        f"{books.tables} (the hand's start {hand.start}, its end as shown {hand.end})"
    )


def restart_log(server: Server, hand_id: str) -> str:
    lines = [line for line in server.log.read_text().splitlines() if hand_id in line]
    return " / ".join(lines) or "(nothing logged about it)"


def test_sigkill_right_after_the_last_action_never_cancels_a_hand_shown_finished(
    url: str, tmp_path: Path
) -> None:
    """RULES.md section 7: a hand cut short by a server failure is cancelled and every
    bet goes back; and the room's promise: a hand announced as finished (its pots
    awarded, ``hand_finish``) is never cancelled afterwards. Every chip accounted
    for across the kills, the audit balanced, the table back and playing."""
    broken: list[str] = []  # the hands shown finished and then cancelled
    tally: dict[int | str, list[int]] = {t: [0, 0, 0] for t in KILLS}  # kills, shown, broken
    stacks = {name: BUY_IN for name in SEATS}  # at the table, from one round to the next
    rake = 0
    with contextlib.ExitStack() as servers:
        server = servers.enter_context(running_server(url, tmp_path, **ENV))
        with httpx.Client(base_url=server.base, timeout=30) as http:
            tokens = {name: register(http, name) for name in ("boss", *SEATS)}
            open_table(http, tokens["boss"], TABLE, **SPEC)
        first = True
        for round_ in range(ROUNDS):
            for trigger in KILLS:
                kill = asyncio.run(
                    asyncio.wait_for(
                        killed_at_the_end(url, server, tokens, first, stacks, trigger), 5 * WAIT
                    )
                )
                first = False
                hand = kill.hand
                # the restart: recovery runs before it answers
                server = servers.enter_context(running_server(url, tmp_path, **ENV))
                books = read_books(url, hand.hand_id)
                what = (
                    f"hand {hand.hand_id} (round {round_ + 1}, SIGKILL {kill.when()}): after "
                    f"the fold {kill.saw()}; result shown: {kill.shown}; "
                    f"the restart {restarted(books, hand)}; server log: "
                    f"{restart_log(server, hand.hand_id)}"
                )
                print(what)
                tally[trigger][0] += 1
                # recovery closed every hand; the killed one is settled or refunded,
                # and stored so
                assert books.in_progress == [], what
                assert not books.audit, f"{what}\n{books.audit}"
                assert books.transaction is not None and books.cancelled is not None, what
                refunded = books.transaction[1] == "refund"
                assert books.transaction[1] in ("refund", "hand_settlement"), what
                assert books.cancelled == refunded, what
                if kill.shown:
                    tally[trigger][1] += 1
                    if refunded or (hand.end is not None and books.tables != hand.end):
                        tally[trigger][2] += 1
                        broken.append(what)
                # every chip accounted for: a refund leaves the stacks of the start; a
                # settlement moves chips between the players (and the rake); the banks
                # hold what the buy-ins left, and nothing else moved
                if refunded:
                    assert books.tables == hand.start and books.rake == rake, what
                else:
                    assert sum(books.tables.values()) + books.rake - rake == sum(
                        hand.start.values()
                    ), what
                assert books.banks == {name: OPENING_CHIPS - BUY_IN for name in SEATS}, what
                total = sum(books.banks.values()) + sum(books.tables.values()) + books.rake
                assert total == OPENING_CHIPS * len(SEATS), what
                stacks, rake = books.tables, books.rake
                result = audit(url, tmp_path)
                assert result.returncode == 0, f"{what}\n{result.stdout}{result.stderr}"
                with httpx.Client(base_url=server.base, timeout=30) as http:
                    tables = http.get("/api/v1/tables").json()["tables"]
                assert [(t["table_id"], sorted(t["players"])) for t in tables] == [
                    (TABLE, sorted(SEATS))
                ], (what, tables)

        # the last restart: the players come back and finish a hand from the stacks
        # the ledger holds
        async def come_back() -> None:
            clients: dict[str, Client] = {}
            try:
                await join(server, tokens, False, clients)
                played, _ = await whole_hand(clients, {name: 0 for name in clients})
                assert played.start == stacks, (played, stacks)
            finally:
                for c in clients.values():
                    await c.close()

        asyncio.run(asyncio.wait_for(come_back(), 5 * WAIT))
        servers.close()  # SIGINT: a clean shutdown
        assert server.process.returncode == 0, server.log.read_text()
    result = audit(url, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr

    summary = "; ".join(
        f"{t if isinstance(t, str) else f'{t} ms'}: {kills} kills, the result shown "
        f"in {shown}, then cancelled in {bad}"
        for t, (kills, shown, bad) in tally.items()
    )
    assert not broken, (
        f"{len(broken)} hand(s) shown finished to the players (the pot awarded, hand_finish) "
        f"and then cancelled (or not paid as shown) by the restart after a SIGKILL "
        f"({summary}):\n" + "\n".join(broken)
    )
