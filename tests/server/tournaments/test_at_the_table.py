"""A player at his tournament table, over the websocket: his snapshot carries the
tournament (level, stakes, the next level's, players left, average stack, standings);
he cannot sit, top up or leave (the tournament seats and moves him); sitting out, he
is dealt in, pays his antes and times out at once when it is his turn (as the big
rooms do); he sees the tournament's events to the end, with the final results.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import websockets

from server.roomclient import Client
from server.tournaments.tourroom import login, operator, tournament_room, until


def test_a_player_at_a_tournament_table(url: str) -> None:
    asyncio.run(asyncio.wait_for(_at_the_table(url), 240))


async def _at_the_table(url: str) -> None:
    async with tournament_room(url, players={"ann": 1000}) as (http, room, ts):
        # a 10 s clock: a time-out at once is the sitting out's
        ts.spec = replace(ts.spec, action_seconds=10, time_bank_seconds=0)
        boss = await operator(http)
        ann = await login(http, "ann", "ann-Password-9")
        body = {
            "name": "Heads",
            "structure": "hyper",
            "starting_chips": 120,
            "level_hands": 4,
            "buy_in": 10,
            "table_size": 3,
            "max_entrants": 3,
        }
        r = await http.post("/api/v1/tournaments", json=body, headers=boss)
        tid = r.json()["tournament"]["summary"]["tournament_id"]
        assert (await http.post(f"/api/v1/tournaments/{tid}/register", headers=ann)).is_success
        runner = ts.runners[tid]
        table_id = runner.room_table(1)
        token = ann["Authorization"].removeprefix("Bearer ")
        r = await http.post(f"/api/v1/tournaments/{tid}/bots", json={"count": 2}, headers=boss)
        assert r.is_success, r.text
        await until(lambda: table_id in runner.running, 10, "the table")
        address = f"ws://127.0.0.1:{http.base_url.port}/ws/v1/tables/{table_id}?token={token}"
        async with websockets.connect(address, max_queue=None) as ws:
            client = Client(ws)
            welcome = await client.recv()
            assert welcome["t"] == "welcome"
            client.seat = welcome["d"]["seat"]  # the cards it may see: its own
            snapshot = await client.until(lambda m: m["t"] == "snapshot")
            info = snapshot["d"]["tournament"]
            assert info is not None and info["tournament_id"] == tid
            assert info["players_left"] == 3 and info["entries"] == 3
            assert info["prize_pool"] == 30
            assert info["level"] >= 1 and info["small_bet"] > 0
            assert info["next_small_bet"] > info["small_bet"] or info["next_small_bet"] == 0
            # each seat's place by chips (equal stacks share the better one), not the
            # whole standings
            chips = {s["seat"]: s["chips"] for s in snapshot["d"]["seats"]}
            assert dict(info["places"]) == {
                seat: 1 + sum(c > mine for c in chips.values()) for seat, mine in chips.items()
            }
            assert sorted(s for s, _ in info["places"]) == sorted(
                s["seat"] for s in snapshot["d"]["seats"]
            )
            assert snapshot["d"]["viewer_seat"] is not None
            for t, d in (
                ("sit", {"seat": 1, "amount": 100}),
                ("top_up", {"amount": 10}),
                ("leave", {}),
            ):
                reply = await client.command(t, **d)
                assert reply["t"] == "reject" and "tournament" in reply["d"]["reason"], reply
            assert (await client.command("sit_out"))["t"] == "ack"
            seat = snapshot["d"]["viewer_seat"]
            # dealt in while sitting out: the ante paid, and a time-out at once
            start = await client.until(
                lambda m: m["t"] == "event" and m["d"]["k"] == "hand_start", 30
            )
            assert seat in [s for s, _ in start["d"]["stacks"]]
            asked = time.monotonic()
            timeout = await client.until(
                lambda m: (
                    m["t"] == "event"
                    and m["d"]["k"] in ("timeout", "hand_finish")
                    and (m["d"]["k"] == "hand_finish" or m["d"]["seat"] == seat)
                ),
                30,
            )
            antes = [
                m
                for m in client.messages[-80:]
                if m["t"] == "event" and m["d"]["k"] == "ante" and m["d"]["seat"] == seat
            ]
            assert antes, "a player sitting out pays his ante"
            if timeout["d"]["k"] == "timeout":
                assert time.monotonic() - asked < 5  # not his 30 s clock
            # to the end: the tournament events, the last with the results
            final = await client.until(
                lambda m: (
                    m["t"] == "event"
                    and m["d"]["k"] == "tournament"
                    and m["d"]["phase"] == "finished"
                ),
                200,
            )
            results = final["d"]["results"]
            assert sorted(results) == sorted(["ann", *runner.bots])
            assert final["d"]["result_prizes"][0] == [1, 30]
        assert runner.over
        assert room.ledger.audit().ok
