"""The websocket table path end to end: a real uvicorn server on 127.0.0.1, real
websocket clients, players acting on the legal actions they are sent."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from server.roomclient import Client, Msg, Room, aggressive, passive, play, run, serve, sit
from server.schemacheck import SCHEMAS, conforms
from stud8.server.edge.projection import encode
from stud8.server.settings import Settings
from stud8.server.table.commands import Command, Reply
from stud8.server.table.spec import TableSpec


def test_two_players_play_complete_hands_to_showdown_over_websockets() -> None:
    async def body() -> None:
        async with serve() as room:
            ann_t, bob_t = await room.player("ann"), await room.player("bob")
            async with (
                room.connect() as watcher,
                room.connect(ann_t) as ann,
                room.connect(bob_t) as bob,
            ):
                await sit(room, ann, 1)
                await sit(room, bob, 2)
                acks = await asyncio.gather(play(ann, 3, aggressive), play(bob, 3, passive))
                assert all(n > 0 for n in acks)
                # the observer saw every event, with no hidden card (checked on recv)
                await watcher.until(
                    lambda m: m["t"] == "event" and m["v"] >= ann.last_seq, timeout=10
                )
            table = room.table()
            assert table.hands_played >= 3
            assert room.books.audit()
            kinds = [m["d"]["k"] for m in watcher.messages if m["t"] == "event"]
            # neither folds: both reach the showdown of each hand (the loser may muck)
            assert kinds.count("show") + kinds.count("muck") == 6 and kinds.count("show") >= 3
            # each player saw his own down cards
            own = [
                m
                for m in ann.messages
                if m["t"] == "event" and m["d"]["k"] == "deal" and m["d"]["seat"] == 1
            ]
            assert own and all(m["d"]["card"] is not None for m in own)
            # chips: all at the table or in the accounts
            total = sum(s.chips for s in table.seats.values())
            assert total + room.books.rake == 400
            listing = (await room.http.get("/api/v1/tables")).json()["tables"]
            assert listing[0]["hands_played"] >= 3 and listing[0]["average_pot"] > 0
            # the welcome gives the table's rules, as the lobby lists them
            for client in (watcher, ann):
                welcome = client.messages[0]
                assert welcome["t"] == "welcome" and conforms(welcome, SCHEMAS["server"]["welcome"])
                rules = welcome["d"]["table"]
                assert rules == {k: listing[0][k] for k in rules}
            assert set(listing[0]) - set(rules) == {
                "seats_taken",
                "players",
                "waiting",
                "average_pot",
                "hands_per_hour",
                "hands_played",
                "paused",
                "observers",
            }
            assert listing[0]["paused"] is None
            assert (rules["table_id"], rules["name"], rules["structure"]) == (
                "t1",
                "t1",
                "fixed_limit",
            )
            assert rules["stakes"] == {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}
            assert rules["buy_in"] == {"min": 40, "max": 400} and rules["seats"] == 8
            clock = (
                rules["action_seconds"],
                rules["time_bank_seconds"],
                rules["reconnect_seconds"],
            )
            assert clock == (30, 30, 20) and rules["timeout_policy"] == "all_in_protection"

    run(body)


async def _start_hand(room: Room, ann: Client, bob: Client) -> tuple[Client, Client, Msg]:
    """Seat ann and bob and wait for the first turn: (mover, other, turn message)."""
    await sit(room, ann, 1)
    await sit(room, bob, 2)
    table = room.table()
    while table.hand is None or table.hand.to_act is None:
        await asyncio.sleep(0.01)
    mover, other = (ann, bob) if table.hand.to_act == 1 else (bob, ann)
    turn = await mover.until(lambda m: m["t"] == "turn")
    return mover, other, turn


def test_every_kind_of_bad_message_gets_a_reason_and_changes_nothing() -> None:
    async def body() -> None:
        async with serve() as room:
            tokens = [await room.player(n) for n in ("ann", "bob", "cat")]
            async with room.connect(tokens[0]) as ann, room.connect(tokens[1]) as bob:
                mover, other, _ = await _start_hand(room, ann, bob)
                table = room.table()
                hand = table.hand
                assert hand is not None

                def state() -> tuple[object, ...]:
                    assert hand is not None
                    return (table.last_seq, len(hand.events), hand.to_act, room.books.audit())

                before = state()
                raw_cases: list[tuple[str | bytes, str]] = [
                    ("{not json", "malformed JSON"),
                    ("[1, 2]", "JSON object"),
                    ('{"t": "dance", "d": {"id": "x1"}}', "unknown message type"),
                    ('{"t": 7, "d": {"id": "x2"}}', "must be a string"),
                    ('{"t": "act", "d": {"id": "x3"}}', "missing field 'kind'"),
                    ('{"t": "act", "d": {"kind": "call", "id": "x4", "x": 1}}', "unknown fields"),
                    ('{"t": "act", "d": {"kind": "call", "id": "x5"}, "z": 0}', "envelope"),
                    ('{"t": "act", "d": {"kind": "bet", "amount": "8", "id": "x6"}}', "integer"),
                    ('{"t": "act", "d": {"kind": "bet", "amount": true, "id": "x6b"}}', "integer"),
                    ('{"t": "act", "d": {"kind": "call", "id": 12}}', "id must be a string"),
                    ('{"t": "act", "d": []}', "d must be a JSON object"),
                    ('{"t": "act", "d": {"kind": "call", "id": "' + "x" * 5000 + '"}}', "large"),
                    (b"\xff\xfe", "malformed JSON"),
                ]
                for text, why in raw_cases:
                    await mover.ws.send(text)
                    reply = await mover.until(lambda m: m["t"] == "reject")
                    assert why in reply["d"]["reason"], (text, reply)
                assert state() == before
                # well formed, but not allowed
                rules_cases: list[tuple[Client, str, dict[str, Any], str]] = [
                    (other, "act", {"kind": "call"}, "not your turn"),
                    (mover, "act", {"kind": "complete", "amount": 5}, "complete"),
                    (mover, "act", {"kind": "dance"}, "not an action"),
                    (mover, "act", {"kind": "call", "amount": 3}, "takes no amount"),
                    (mover, "top_up", {"amount": 10}, "between hands"),
                    (mover, "sit", {"seat": 5, "amount": 100}, "already seated"),
                ]
                for client, t, d, why in rules_cases:
                    reply = await client.command(t, **d)
                    assert reply["t"] == "reject" and why in reply["d"]["reason"], (t, d, reply)
                async with room.connect() as watcher:
                    reply = await watcher.command("act", kind="call")
                    assert reply["t"] == "reject" and "observers" in reply["d"]["reason"]
                async with room.connect(tokens[2]) as cat:
                    reply = await cat.command("act", kind="call")
                    assert reply["t"] == "reject" and "not seated" in reply["d"]["reason"]
                    reply = await cat.command("sit", seat=3, amount=5000)
                    assert reply["t"] == "reject" and "buy-in" in reply["d"]["reason"]
                assert state() == before
                assert room.books.balance("cat") == 1000
                # a bad token or table closes the socket with a reason
                url = f"ws://127.0.0.1:{room.port}/ws/v1/tables"
                for path, code in ((f"{url}/t1?token=nope", 4401), (f"{url}/t9", 4404)):
                    async with websockets.connect(path) as ws:
                        try:
                            await asyncio.wait_for(ws.recv(), 5)
                        except websockets.ConnectionClosed as closed:
                            assert closed.rcvd is not None and closed.rcvd.code == code
                        else:
                            raise AssertionError("the socket stayed open")

    run(body)


def test_a_repeated_command_id_is_applied_once(monkeypatch: pytest.MonkeyPatch) -> None:
    async def body() -> None:
        async with serve() as room:
            ann_t, bob_t = await room.player("ann"), await room.player("bob")
            async with room.connect(ann_t) as ann, room.connect(bob_t) as bob:
                mover, _, turn = await _start_hand(room, ann, bob)
                table = room.table()
                submitted: list[str | None] = []  # command ids that reached the table
                post = table.post

                def counted(command: Command) -> asyncio.Future[Reply]:
                    submitted.append(command.command_id)
                    return post(command)

                monkeypatch.setattr(table, "post", counted)
                hand = table.hand
                assert hand is not None
                n_events = len(hand.events)
                choice = passive(turn)
                await mover.send("act", id="same", **choice)
                await mover.send("act", id="same", **choice)
                first = await mover.reply("same")
                second = await mover.reply("same")
                assert first == second and first["t"] == "ack"
                assert len(hand.decisions) == 1
                assert len(hand.events) > n_events
                # once answered, the same id is answered the same again, and not applied:
                # the table alone recognises a repeat (the edge keeps no copy of answers)
                n_submitted = len(submitted)
                await mover.send("act", id="same", **choice)
                assert await mover.reply("same") == first
                assert len(hand.decisions) == 1
                assert submitted[n_submitted:] == ["same"]
                # on a new connection (a reconnect), the same id is still applied once
                n_decisions = len(hand.decisions)
                mover_token = ann_t if mover is ann else bob_t
            async with room.connect(mover_token) as again:
                await again.send("act", id="same", **choice)
                third = await again.reply("same")
                assert third["t"] == "ack" and third["d"] == first["d"]
                assert len(hand.decisions) == n_decisions

    run(body)


def test_two_commands_racing_for_the_same_turn_one_applies() -> None:
    async def body() -> None:
        async with serve() as room:
            ann_t, bob_t = await room.player("ann"), await room.player("bob")
            async with room.connect(ann_t) as ann, room.connect(bob_t) as bob:
                mover, _, turn = await _start_hand(room, ann, bob)
                hand = room.table().hand
                assert hand is not None
                kinds = [a["kind"] for a in turn["d"]["legal"]]
                assert "bring_in" in kinds and "complete" in kinds
                await mover.send("act", id="r1", kind="bring_in")
                await mover.send("act", id="r2", kind="complete", amount=4)
                first, second = await mover.reply("r1"), await mover.reply("r2")
                assert first["t"] == "ack"
                assert second["t"] == "reject" and "not your turn" in second["d"]["reason"]
                assert len(hand.decisions) == 1

    run(body)


def test_a_player_disconnects_mid_hand_and_gets_exactly_the_missed_events() -> None:
    async def body() -> None:
        async with serve() as room:
            ann_t, bob_t = await room.player("ann"), await room.player("bob")
            table = room.table()
            async with room.connect(bob_t) as bob:
                async with room.connect(ann_t) as ann:
                    await sit(room, ann, 1)
                    await sit(room, bob, 2)
                    while table.hand is None or table.hand.to_act != 2:
                        # ann plays passively until it is bob's turn
                        if table.hand is not None and table.hand.to_act == 1:
                            turn = await ann.until(lambda m: m["t"] == "turn")
                            assert (await ann.command("act", **passive(turn)))["t"] == "ack"
                        else:
                            await asyncio.sleep(0.01)
                    hand = table.hand
                    await ann.until(lambda m: m["t"] == "event" and m["v"] == table.last_seq)
                    last_seen = ann.last_seq
                # ann is gone; the server notices
                while table.seats[1].connected:
                    await asyncio.sleep(0.01)
                turn = await bob.until(lambda m: m["t"] == "turn")
                assert (await bob.command("act", **passive(turn)))["t"] == "ack"
                assert table.hand is hand and hand is not None and not hand.is_over
                missed = table.events_since(last_seen)
                assert missed is not None and len(missed) >= 2
                expected = [json.loads(encode(item).text_for("ann", False)) for item in missed]
                upto = table.last_seq
                async with room.connect(ann_t, last_seen=last_seen, ids="r") as ann:
                    ann.seat, ann.last_seq = 1, last_seen
                    got = [await ann.recv() for _ in expected]
                    assert got == expected  # exactly the missed events, in order, no snapshot
                    assert [m["v"] for m in got] == list(range(last_seen + 1, upto + 1))
                    # then the table notes the reconnection; the turn goes on
                    back = await ann.until(lambda m: m["t"] == "event")
                    assert back["d"]["k"] == "reconnected" and back["v"] == upto + 1
                    if hand.to_act == 1:
                        timer = await ann.until(
                            lambda m: m["t"] == "event" and m["d"]["k"] == "timer"
                        )
                        assert timer["d"]["phase"] == "reconnect"
                    await asyncio.gather(play(ann, 1), play(bob, 1))
                    assert hand.is_over and room.books.audit()
                # without last_seen (or too old), a snapshot
                async with room.connect(ann_t) as again:
                    again.seat = 1
                    snap = await again.until(lambda m: m["t"] == "snapshot")
                    assert snap["v"] >= table.last_seq - 2
                    assert [s["player"] for s in snap["d"]["seats"]] == ["ann", "bob"]

    run(body)


def test_an_observer_never_receives_a_hidden_card_over_many_bot_hands() -> None:
    async def body() -> None:
        spec = TableSpec(
            bots=4, bot_policy="random", between_hands=0.01, bot_delay=0.002, action_seconds=30
        )
        async with serve(spec=spec) as room:
            table = room.table()
            cat_t = await room.player("cat")
            async with room.connect() as watcher, room.connect(cat_t) as cat:
                finished = 0
                deals = 0
                while finished < 15:
                    msg = await watcher.recv()  # every message checked in recv
                    if msg["t"] == "event" and msg["d"]["k"] == "hand_finish":
                        finished += 1
                    if msg["t"] == "event" and msg["d"]["k"] == "deal":
                        deals += 1
                assert deals > 0
                # the whole stream: every face-down card hidden unless shown later
                downs = [
                    m
                    for m in watcher.messages
                    if m["t"] == "event" and m["d"]["k"] == "deal" and not m["d"]["face_up"]
                ]
                assert downs and all(m["d"]["card"] is None for m in downs)
                # a logged-in player not seated sees no more than an observer
                while cat.last_seq < watcher.last_seq:
                    await cat.recv()
            assert table.hands_played >= 15 and room.books.audit()

    run(body, timeout=120)


def test_a_flood_of_messages_is_rate_limited() -> None:
    async def body() -> None:
        settings = Settings(default_tables=0, rate_per_second=20, rate_burst=40)
        async with serve(settings) as room:
            ann_t = await room.player("ann")
            async with room.connect(ann_t) as ann:
                for i in range(150):
                    await ann.send("ping", id=f"p{i}")
                replies = [
                    await ann.until(lambda m: m["t"] in ("pong", "reject")) for _ in range(150)
                ]
                pongs = [m for m in replies if m["t"] == "pong"]
                limited = [m for m in replies if m["t"] == "reject"]
                assert 40 <= len(pongs) < 150
                assert limited and all("rate limit" in m["d"]["reason"] for m in limited)
                assert {m["d"]["id"] for m in replies} == {f"p{i}" for i in range(150)}
                # a rate-limited command id can be sent again once the bucket refills
                await asyncio.sleep(0.3)
                reply = await ann.command("sit", seat=1, amount=100)
                assert reply["t"] == "ack"

    run(body)


def test_a_table_closing_tells_its_players_and_takes_no_more_commands() -> None:
    """An operator closes the table: each seated player sees his ``leave`` event
    (reason ``table_closed``, his chips back), and a command after gets a reject."""

    async def body() -> None:
        async with serve() as room:
            ann_t, op_t = await room.player("ann"), await room.player("oper")
            async with room.connect(ann_t) as ann:
                await sit(room, ann, 1)
                r = await room.http.delete(
                    "/api/v1/tables/t1", headers={"Authorization": f"Bearer {op_t}"}
                )
                assert r.status_code == 200, r.text
                left = await ann.until(lambda m: m["t"] == "event" and m["d"]["k"] == "leave")
                assert left["d"]["reason"] == "table_closed" and left["d"]["chips"] == 200
                reply = await ann.command("sit", seat=2, amount=100)
                assert reply["t"] == "reject" and "closed" in reply["d"]["reason"]
                assert room.books.balance("ann") == 1000 and room.books.audit()

    run(body)
