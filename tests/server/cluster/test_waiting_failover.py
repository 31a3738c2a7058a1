"""A table's waiting list survives its owner killed outright (SIGKILL), nodes as
processes: the next owner shows the players the same list in the same order, the
player who had been offered a seat is offered it again, and the next free seat goes
to the next listed (:mod:`stud8.server.cluster.waitlists`; a drain:
tests/server/cluster/test_waiting_lists.py).

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Callable
from pathlib import Path

import httpx
import redis

from server.cluster.clusterprocess import BUY_IN, Msg, Player, nodes, owner, wait_until
from server.roomdb import fresh_database
from server.roomprocess import OPERATOR, open_table, register
from stud8.server.cluster.waitlists import waiting_key

# two seats and no hand for ten minutes: the seats change only when told to
SPEC = {
    "seats": 2,
    "between_hands": 600,
    "offer_seconds": 300,
    "bots": 0,
    "min_buy_in": 40,
    "max_buy_in": 400,
}
NAMES = ("ann", "bob", "cat", "dan", "eve")


def stored(redis_url: str) -> object:
    client = redis.Redis.from_url(redis_url)
    try:
        raw = client.get(waiting_key("t1"))
    finally:
        client.close()
    return None if raw is None else json.loads(raw)


def test_the_waiting_list_survives_its_owner_killed(tmp_path: Path, redis_url: str) -> None:
    pg = fresh_database("postgresql", tmp_path)
    with nodes(pg, redis_url, tmp_path, ("a", "b")) as servers:
        first = servers["a"]
        with httpx.Client(base_url=first.base) as http:
            open_table(http, register(http, OPERATOR), "t1", **SPEC)
        home = owner(redis_url, "t1")
        assert home is not None
        away = "b" if home == "a" else "a"
        with httpx.Client(base_url=servers[away].base) as http:
            tokens = {name: register(http, name) for name in NAMES}

        async def main() -> None:
            players = {n: await Player.connect(servers[away], "t1", n, tokens[n]) for n in NAMES}
            ann, bob, cat, dan, eve = players.values()
            try:
                for seat, player in ((1, ann), (2, bob)):
                    assert (await player.command("sit", seat=seat, amount=BUY_IN))["t"] == "ack"
                for player in (cat, dan, eve):
                    assert (await player.command("join_waitlist"))["t"] == "ack"
                assert (await bob.command("leave"))["t"] == "ack"  # seat 2 held for cat
                await cat.wait_for("the seat offered", _offered("cat", 2))
                await asyncio.to_thread(
                    wait_until,
                    lambda: stored(redis_url) == ["cat", "dan", "eve"],
                    "the list in Redis",
                )
                mark = len(cat.messages)
                servers[home].process.send_signal(signal.SIGKILL)
                found = await cat.wait_for(
                    "the table from its new owner", lambda m: m["t"] == "snapshot", mark
                )
                snap = cat.messages[found]["d"]
                assert snap["waiting_list"] == ["cat", "dan", "eve"], snap
                assert snap["offer"]["seat"] == 2 and snap["offer"]["player"] == "cat", snap
                assert owner(redis_url, "t1") == away
                with httpx.Client(base_url=servers[away].base) as http:
                    (listed,) = http.get("/api/v1/tables").json()["tables"]
                assert listed["waiting"] == 3, listed
                # held for cat: eve may not take it; cat does; the next seat is dan's
                reply = await eve.command("sit", seat=2, amount=BUY_IN)
                assert reply["t"] == "reject" and "held for cat" in reply["d"]["reason"], reply
                assert (await cat.command("sit", seat=2, amount=BUY_IN))["t"] == "ack"
                mark = len(dan.messages)
                assert (await ann.command("leave"))["t"] == "ack"
                await dan.wait_for("the seat offered", _offered("dan", 1), mark)
                await asyncio.to_thread(
                    wait_until, lambda: stored(redis_url) == ["dan", "eve"], "the list kept"
                )
            finally:
                for player in players.values():
                    await player.close()

        asyncio.run(asyncio.wait_for(main(), 180))


def _offered(player: str, seat: int) -> Callable[[Msg], bool]:
    def match(m: Msg) -> bool:
        d = m.get("d")
        return (
            m["t"] == "event"
            and isinstance(d, dict)
            and d.get("k") == "seat_offered"
            and (d.get("player"), d.get("seat")) == (player, seat)
        )

    return match
