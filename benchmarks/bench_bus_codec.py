"""The bus codec (``stud8.server.bus.codec``): microseconds to encode and to decode a
table's numbered events and its snapshots, beside what the edge already spends on
each (its text for a viewer) and what an action costs the table in process, all
measured in the same run.

A real table (8 players, its books in memory, a manual clock) plays hands in this
process; each action is timed in CPU (``table.submit`` to its reply: the engine, the
numbering, the turn's clock, and at a hand's end its record and settlement; no edge,
no socket), and every event it numbers and a snapshot taken at each turn are kept.
Then each is encoded and decoded again and again (the best round of each 50 items;
the machine is shared), and the edge's own work on each is timed beside
(``edge.projection``: an event's texts for its visibility classes; a snapshot
projected for one player and written):

- ``numbered, the mix``: every event of those hands, in their real proportions;
- ``numbered, a call``: a hand's event with its seats; ``a turn's clock``: a timer
  with the legal actions; ``a snapshot``: a catch-up mid-hand, 8 seats, whole.

Over Redis each event is encoded once (at the table's owner) and decoded once per
node with a viewer of the table: the codec's cost per action is then (events per
action) x (encode + nodes x decode), printed beside the action's own.

    python benchmarks/bench_bus_codec.py [--seconds 2] [--hands 30]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.events import Called
from stud8.core.rules import TableRules
from stud8.server.books.memory import MemoryBooks
from stud8.server.bus.codec import (
    decode_catch_up,
    decode_numbered,
    encode_catch_up,
    encode_numbered,
)
from stud8.server.clock import ManualClock
from stud8.server.edge.projection import encode, snapshot_for
from stud8.server.table.commands import Act, Sit
from stud8.server.table.events import Numbered, TimerStarted
from stud8.server.table.owner import Table
from stud8.server.table.snapshot import CatchUp
from stud8.server.table.spec import TableConfig

PLAYERS = [f"p{i}" for i in range(1, 9)]


async def play(hands: int) -> tuple[list[float], list[Numbered], list[CatchUp]]:
    """The seconds each player's action took, the events, the snapshots."""
    clock = ManualClock()
    seeds = itertools.count(1)
    table = Table(
        TableConfig(
            table_id="t1",
            rules=TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8),
            min_buy_in=20,
            max_buy_in=1000,
            between_hands=1.0,
            history_size=10_000,
        ),
        books=MemoryBooks(dict.fromkeys(PLAYERS, 10**6)),
        clock=clock,
        deck_source=lambda: Deck.seeded(next(seeds)),
    )
    events: list[Numbered] = []
    table.listen(events.append)
    snapshots: list[CatchUp] = []
    rng = random.Random(15)
    spent: list[float] = []
    table.start()
    try:
        for number, player in enumerate(PLAYERS, 1):
            assert (await table.submit(Sit(player=player, seat=number, amount=1000))).ok
        for _ in range(hands):
            clock.advance(1.0)
            await table.settled()
            while (hand := table.hand) is not None:
                snapshots.append(await table.catch_up())
                seat = hand.to_act
                assert seat is not None
                kinds = {a.kind for a in hand.legal_actions()}
                # mostly calls and checks: hands go on to the showdown, as at a real table
                wanted = [ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL]
                if rng.random() < 0.15:
                    wanted = [ActionKind.FOLD, *wanted]
                if rng.random() < 0.15:
                    wanted = [ActionKind.RAISE, ActionKind.BET, ActionKind.COMPLETE, *wanted]
                kind = next(k for k in wanted if k in kinds)
                command = Act(player=table.seats[seat].player, action=make_action(kind))
                t = time.process_time()  # this process's CPU: the machine may be busy
                reply = await table.submit(command)
                spent.append(time.process_time() - t)
                assert reply.ok, reply
                await table.settled()
    finally:
        await table.stop()
    return spent, events, snapshots


def best_us(work: Callable[[Sequence[Any]], None], items: Sequence[Any], seconds: float) -> float:
    """Microseconds per item of ``work`` over ``items``: the best round of each 50 items
    (short rounds: some of them run while the machine's other work does not)."""
    chunks = [items[i : i + 50] for i in range(0, len(items), 50)]
    total = 0.0
    for chunk in chunks:
        work(chunk)
        best = float("inf")
        deadline = time.perf_counter() + seconds / len(chunks)
        rounds = 0
        while rounds < 3 or time.perf_counter() < deadline:
            t = time.perf_counter()
            work(chunk)
            best = min(best, time.perf_counter() - t)
            rounds += 1
        total += best
    return total / len(items) * 1e6


def measure(
    items: Sequence[Any],
    encode: Callable[[Any], bytes],
    decode: Callable[[bytes], Any],
    seconds: float,
) -> tuple[float, float, float]:
    """Encode and decode microseconds per item, and the mean size in bytes."""
    blobs = [encode(x) for x in items]
    assert [decode(b) for b in blobs] == list(items)
    by_blob = dict(zip(map(id, items), blobs, strict=True))

    def enc(chunk: Sequence[Any]) -> None:
        for x in chunk:
            encode(x)

    def dec(chunk: Sequence[Any]) -> None:
        for x in chunk:
            decode(by_blob[id(x)])

    size = sum(map(len, blobs)) / len(blobs)
    return best_us(enc, items, seconds), best_us(dec, items, seconds), size


def edge_texts(items: Sequence[Any], seconds: float) -> float:
    """Microseconds per item of the edge's own work on it, for one viewer."""

    def numbered(chunk: Sequence[Any]) -> None:
        for item in chunk:
            encode(item).text_for("p1", False)

    def snapshots(chunk: Sequence[Any]) -> None:
        for c in chunk:
            snapshot_for(c.snapshot, "p1", False).encode(c.seq)

    return best_us(numbered if isinstance(items[0], Numbered) else snapshots, items, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--hands", type=int, default=30)
    args = parser.parse_args()

    asyncio.run(play(3))  # warm up: the first showdown builds the evaluator's tables
    spent, events, snapshots = asyncio.run(play(args.hands))
    actions = len(spent)
    per_action = sum(spent) / actions * 1e6
    median = statistics.median(spent) * 1e6
    events_per_action = len(events) / actions
    calls = [n for n in events if isinstance(n.event, Called)][:50]
    clocks = [n for n in events if isinstance(n.event, TimerStarted) and n.legal][:50]
    cases: list[tuple[str, Sequence[Any], Callable[[Any], bytes], Callable[[bytes], Any]]] = [
        ("numbered, the mix", events, encode_numbered, decode_numbered),
        ("numbered, a call", calls, encode_numbered, decode_numbered),
        ("numbered, a turn's clock", clocks, encode_numbered, decode_numbered),
        ("a snapshot mid-hand", snapshots[::5], encode_catch_up, decode_catch_up),
    ]
    print(
        f"{args.hands} hands at 8 seats: {actions} actions, {len(events)} events "
        f"({events_per_action:.2f} an action), {len(snapshots)} snapshots"
    )
    print(f"{'bus codec:':>37}{'encode':>9}{'decode':>9}{'bytes':>7}   the edge's text")
    mix = (0.0, 0.0)
    for name, items, to_bytes, from_bytes in cases:
        e, d, size = measure(items, to_bytes, from_bytes, args.seconds)
        edge = edge_texts(items, args.seconds)
        print(f"  {name:35}{e:7.1f}us{d:7.1f}us{size:7.0f}   {edge:9.1f}us")
        if name == "numbered, the mix":
            mix = (e, d)
    print(
        f"an action at the table in process (CPU, no edge): {per_action:6.1f} us "
        f"(median {median:.1f} us)"
    )
    for nodes in (1, 2):
        codec = events_per_action * (mix[0] + nodes * mix[1])
        print(
            f"the codec per action, read on {nodes} node(s): {codec:6.1f} us "
            f"({codec / per_action:.0%} of the table's action)"
        )


if __name__ == "__main__":
    main()
