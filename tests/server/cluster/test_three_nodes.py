"""Three nodes of a room as processes (``stud8 serve --redis --node``): the tables
spread over the three, a table owned by one node played by players connected
through the two others, and that owner killed (SIGKILL) in the middle of a hand.

What must hold (issue 15): the dead node's tables are shared by the two that are
left (not all taken by one), within 15 s; the hand in play is cancelled through the
ledger (every chip back, the history records it); both players keep their seats and
chips, get a snapshot from the new owner through the node they are connected to,
and play on; the tables the dead node did not run never move; ``stud8 admin audit``
balances.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections import Counter
from pathlib import Path

import httpx

from server.cluster.clusterprocess import (
    BUY_IN,
    bring_in,
    nodes,
    owner,
    play_hands,
    seat_both,
    wait_until,
)
from server.cluster.test_failover import FAILOVER_SECONDS, SPEC, ledger_of
from server.roomdb import fresh_database
from server.roomprocess import OPERATOR, audit, open_table, register
from stud8.server.books.ledger import table_account

TABLES = [f"t{n}" for n in range(1, 7)]


def owners(redis_url: str) -> dict[str, str | None]:
    return {t: owner(redis_url, t) for t in TABLES}


def test_three_nodes_share_a_killed_owners_tables_and_its_players_play_on(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)
    with nodes(pg, redis_url, tmp_path, ("a", "b", "c")) as servers:
        with httpx.Client(base_url=servers["a"].base) as http:
            boss = register(http, OPERATOR)
            for table_id in TABLES:
                open_table(http, boss, table_id, **SPEC)
        # every table runs somewhere, the load spread over the three
        wait_until(lambda: None not in owners(redis_url).values(), "every table owned", 30)
        before = owners(redis_url)
        load = Counter(before.values())
        assert sorted(load.values()) == [2, 2, 2], before
        home = before["t1"]
        assert home is not None
        left = sorted(name for name in servers if name != home)
        # ann through one of the two other nodes, bob through the third
        with httpx.Client(base_url=servers[left[0]].base) as http:
            tokens = {"ann": register(http, "ann")}
        with httpx.Client(base_url=servers[left[1]].base) as http:
            tokens["bob"] = register(http, "bob")

        async def main() -> tuple[str, float]:
            ann, bob = await seat_both(servers[left[0]], tokens, through=servers[left[1]])
            try:
                hand_id = await bring_in(ann, bob, 0)
                marks = [len(ann.messages), len(bob.messages)]
                killed = time.monotonic()
                servers[home].process.send_signal(signal.SIGKILL)
                for player, mark in zip((ann, bob), marks, strict=True):
                    found = await player.wait_for(
                        "the table from its new owner", lambda m: m["t"] == "snapshot", mark
                    )
                    snap = player.messages[found]["d"]
                    chips = {s["player"]: s["chips"] for s in snap["seats"]}
                    assert chips == {"ann": BUY_IN, "bob": BUY_IN}, snap  # every bet back
                    seats = {s["player"]: s["seat"] for s in snap["seats"]}
                    assert seats == {"ann": 1, "bob": 2}, snap
                    assert snap["hand"] is None or snap["hand"]["hand_id"] != hand_id
                failover = time.monotonic() - killed
                await play_hands((ann, bob), 2)
                return hand_id, failover
            finally:
                await ann.close()
                await bob.close()

        hand_id, failover = asyncio.run(asyncio.wait_for(main(), 180))
        assert failover < FAILOVER_SECONDS, failover
        print(f"failover after SIGKILL of the owner, three nodes: {failover:.1f} s")
        orphaned = [t for t, node in before.items() if node == home]

        def moved() -> bool:
            now = owners(redis_url)
            return all(now[t] in left for t in orphaned)

        wait_until(moved, "the dead node's tables owned again", FAILOVER_SECONDS)
        after = owners(redis_url)
        # shared by the two nodes left, not all taken by one
        assert sorted(after[t] or "" for t in orphaned) == left, (before, after)
        # the tables of the live nodes did not move
        assert {t: after[t] for t in before if t not in orphaned} == {
            t: node for t, node in before.items() if t not in orphaned
        }
    engine, ledger = ledger_of(pg)
    try:
        done = ledger.hand_transaction(hand_id)
        assert done is not None and done[1] == "refund", done  # cancelled, recorded
        balances = ledger.balances()
        held = sum(
            balances.get(f"bank:{p}", 0) + balances.get(table_account("t1", p), 0)
            for p in ("ann", "bob")
        )
        assert held == 2 * 10_000  # no rake at this table: every chip still theirs
        assert ledger.audit().ok
    finally:
        engine.dispose()
    result = audit(pg, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
