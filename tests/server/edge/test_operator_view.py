"""An operator watching a table sees every card; nobody else does (the edge decides
per viewer). Real server, real websockets."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

from server.roomclient import Room, passive, run, serve
from stud8.server.table.spec import TableSpec

Msg = dict[str, Any]
BOTS = TableSpec(
    bots=4, bot_policy="random", between_hands=0.01, bot_delay=0.002, action_seconds=30
)


class Raw:
    """A websocket client that checks nothing: what the operator is sent."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self.messages: list[Msg] = []

    async def recv(self, timeout: float = 10) -> Msg:
        msg: Msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(msg)
        return msg


def url(room: Room, token: str | None) -> str:
    query = f"?token={token}" if token else ""
    return f"ws://127.0.0.1:{room.port}/ws/v1/tables/t1{query}"


def down_deals(messages: list[Msg]) -> list[Msg]:
    return [
        m["d"]
        for m in messages
        if m["t"] == "event" and m["d"]["k"] == "deal" and not m["d"]["face_up"]
    ]


def test_an_operator_watching_sees_every_down_card_and_a_player_none() -> None:
    async def body() -> None:
        async with serve(spec=BOTS) as room:
            op_t, cat_t = await room.player("oper"), await room.player("cat")
            table = room.table()
            async with (
                websockets.connect(url(room, op_t), max_queue=None) as op_ws,
                room.connect(cat_t) as cat,  # Client: fails on any card it may not see
            ):
                op = Raw(op_ws)
                finished = 0
                while finished < 5:
                    msg = await op.recv()
                    if msg["t"] == "event" and msg["d"]["k"] == "hand_finish":
                        finished += 1
                downs = down_deals(op.messages)
                assert len(downs) >= 4 * 4 * 2  # the first hand may have begun before
                assert all(d["card"] is not None for d in downs)
                # the operator's snapshot in the middle of a hand shows every card
                # (the bots play fast: a hand may end while he connects, so he
                # tries until a snapshot lands in one with down cards dealt)
                cards: list[str | None] = []
                for _ in range(100):
                    while table.hand is None or not table.hand.down_cards(table.hand.seats[0]):
                        await asyncio.sleep(0.001)
                    async with websockets.connect(url(room, op_t), max_queue=None) as again_ws:
                        again = Raw(again_ws)
                        snap = await again.recv()
                        while snap["t"] != "snapshot":
                            snap = await again.recv()
                    assert snap["d"]["viewer_seat"] is None
                    hand = snap["d"]["hand"]
                    if hand is not None:
                        cards = [c for s in hand["seats"] for c in s["down_cards"]]
                        assert all(c is not None for c in cards), snap
                        if cards:
                            break
                assert cards, "no snapshot came in the middle of a hand"
                # cat, logged in but not an operator, was sent the same events
                # without one down card (Client.recv checked each)
                while cat.last_seq < op.messages[-1].get("v", 0):
                    await cat.recv()
                assert down_deals(cat.messages)
                assert all(d["card"] is None for d in down_deals(cat.messages))
            assert room.books.audit()

    run(body, timeout=120)


def test_an_operator_dealt_into_a_hand_sees_only_his_own_cards_in_it() -> None:
    async def body() -> None:
        spec = TableSpec(bots=2, between_hands=0.01, bot_delay=0.002, action_seconds=30)
        async with serve(spec=spec) as room:
            op_t = await room.player("oper")
            async with room.connect(op_t) as op:
                op.check_visible = lambda msg: None  # type: ignore[method-assign]
                reply = await op.command("sit", seat=3, amount=200)
                assert reply["t"] == "ack", reply
                dealt: set[int] = set()
                played = watched = 0
                while played < 3:
                    if (turn := op.take_turn()) is not None:
                        await op.act(**passive(turn))
                    msg = await op.recv()
                    if msg["t"] != "event":
                        continue
                    d = msg["d"]
                    if d["k"] == "hand_start":
                        dealt = {seat for seat, _ in d["stacks"]}
                    elif d["k"] == "hand_finish":
                        played += 3 in dealt
                        watched += 3 not in dealt
                    elif d["k"] == "deal" and not d["face_up"]:
                        if 3 in dealt and d["seat"] != 3:
                            assert d["card"] is None, msg  # he plays this hand: fair play
                        else:
                            assert d["card"] is not None, msg
                assert played == 3
            assert room.books.audit()

    run(body, timeout=120)
