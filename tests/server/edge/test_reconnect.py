"""A player who reconnects acts on his live turn: mid-hand on his turn (caught up
from ``last_seen``, or from a snapshot) and between hands, the first turn he acts
on after he is back is applied, and the same turn told to him again (the table's
``reconnect`` clock, after the one he was caught up with) is not acted on twice.
His second connection's command ids are its own, never the first one's (a repeated
id would get the first connection's answer again and hide a stale action)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from server.roomclient import SPEC, Client, Msg, passive, play, run, serve, sit
from stud8.server.table.owner import Table


async def live_turn(client: Client) -> Msg:
    """The first turn this client may act on."""
    while (turn := client.take_turn()) is None:
        await client.recv()
    return turn


async def acted(client: Client, turn: Msg) -> Msg:
    """Act passively on ``turn``; the reply."""
    command_id = await client.act(**passive(turn))
    return await client.reply(command_id)


async def gone(table: Table, seat: int) -> None:
    while table.seats[seat].connected:
        await asyncio.sleep(0.01)


async def until_to_act(table: Table, clients: dict[int, Client], seat: int) -> None:
    """Play passively (every seat but ``seat`` acting only) until ``seat`` is to act."""
    while table.hand is None or table.hand.to_act != seat:
        hand = table.hand
        if hand is not None and hand.to_act is not None and hand.to_act != seat:
            mover = clients[hand.to_act]
            reply = await acted(mover, await live_turn(mover))
            assert reply["t"] == "ack", reply
        else:
            await asyncio.sleep(0.01)


@pytest.mark.parametrize("caught_up", ["events", "snapshot"])
def test_back_mid_hand_on_his_turn_the_turn_he_acts_on_is_live(caught_up: str) -> None:
    async def body() -> None:
        async with serve() as room:
            ann_t, bob_t = await room.player("ann"), await room.player("bob")
            table = room.table()
            async with room.connect(bob_t, ids="b") as bob:
                async with room.connect(ann_t, ids="a") as ann:
                    await sit(room, ann, 1)
                    await sit(room, bob, 2)
                    # ann's turn comes; then bob acts and it is ann's turn again
                    await until_to_act(table, {1: ann, 2: bob}, 1)
                    reply = await acted(ann, await live_turn(ann))
                    assert reply["t"] == "ack", reply
                    await until_to_act(table, {1: ann, 2: bob}, 1)
                    last_seen = ann.last_seq
                await gone(table, 1)
                hand = table.hand
                assert hand is not None and hand.to_act == 1
                decisions = len(hand.decisions)
                since = last_seen if caught_up == "events" else None
                async with room.connect(ann_t, last_seen=since, ids="r") as ann:
                    ann.seat, ann.last_seq = 1, last_seen
                    turn = await live_turn(ann)
                    # she acts on what she is told, as it comes (not waiting for the
                    # answer), then plays on: the rest of this hand and the next
                    first = await ann.act(**passive(turn))
                    await asyncio.gather(play(ann, 2), play(bob, 2))
                    rejected = [m for m in ann.messages if m["t"] == "reject"]
                    assert not rejected, rejected
                    acks = [m for m in ann.messages if m["t"] == "ack" and m["d"]["id"] == first]
                    assert len(acks) == 1  # the first turn she acted on was live: applied
                    seat, action = hand.decisions[decisions]
                    assert seat == 1 and action is not None  # hers, not a timeout
                    # the turn was told twice (caught up, then with the reconnect clock)
                    told = [m for m in ann.messages if m["t"] == "turn"]
                    assert len(told) >= 2 and told[0]["d"] == told[1]["d"]
                    start = next(m for m in ann.messages if m["t"] in ("event", "snapshot"))
                    assert start["t"] == ("event" if caught_up == "events" else "snapshot")
            assert room.books.audit()

    run(body)


def test_back_between_hands_the_first_turn_he_acts_on_is_live() -> None:
    async def body() -> None:
        # a pause between hands long enough for ann to leave before the next deal
        async with serve(spec=replace(SPEC, between_hands=1.0)) as room:
            ann_t, bob_t = await room.player("ann"), await room.player("bob")
            table = room.table()
            async with room.connect(bob_t, ids="b") as bob:
                async with room.connect(ann_t, ids="a") as ann:
                    await sit(room, ann, 1)
                    await sit(room, bob, 2)
                    await asyncio.gather(play(ann, 1), play(bob, 1))
                    last_seen = ann.last_seq
                await gone(table, 1)
                assert table.hand is None  # ann is dealt out: bob alone, no hand
                played = table.hands_played
                async with room.connect(ann_t, last_seen=last_seen, ids="r") as ann:
                    ann.seat, ann.last_seq = 1, last_seen
                    assert ann.take_turn() is None
                    # she is dealt in again; the next hand plays
                    acts = await asyncio.gather(play(ann, 1), play(bob, 1))
                    assert all(n > 0 for n in acts), acts
                    assert table.hands_played == played + 1
                    hand_ids = [
                        m["d"]["hand_id"]
                        for m in ann.messages
                        if m["t"] == "event" and m["d"]["k"] == "hand_start"
                    ]
                    assert len(hand_ids) == 1
            assert room.books.audit()

    run(body)
