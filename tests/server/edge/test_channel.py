"""A table as this node's edge sees it: the channel follows the table through the bus,
and a viewer who joins gets exactly what he missed (from the channel's recent events,
from the table's history, or a snapshot), then the live events with no gap and no
repeat, and his turn when it is his."""

from __future__ import annotations

import json
from typing import Any

from server.tableharness import Harness, play_passively, run, seat_players
from stud8.server.bus.local import LocalBus
from stud8.server.edge.channel import TableChannel, Viewer
from stud8.server.table.spec import TableSpec


def on_bus(h: Harness) -> LocalBus:
    bus = LocalBus()
    bus.open(h.table, "t1", TableSpec())
    return bus


class Inbox:
    """What a viewer was sent, as messages."""

    def __init__(self, player: str | None, everything: bool = False) -> None:
        self.texts: list[str] = []
        self.viewer = Viewer(player, everything, self.texts.append)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(t) for t in self.texts]

    def numbers(self) -> list[int]:
        return [m["v"] for m in self.messages if m["t"] == "event"]


def test_a_viewer_gets_a_snapshot_then_every_event_once_in_order() -> None:
    async def body(h: Harness) -> None:
        bus = on_bus(h)
        await seat_players(h, 2)
        await h.advance(5)  # a hand is on before the channel starts
        channel = TableChannel(bus, "t1", bus.directory()["t1"])
        await channel.start()
        assert channel.seats == {1: "ann", 2: "bob"} and channel.last_seq == h.table.last_seq
        ann = Inbox("ann")
        await channel.join(ann.viewer, None)
        first = ann.messages[0]
        assert first["t"] == "snapshot" and first["v"] == h.table.last_seq
        assert first["d"]["viewer_seat"] == 1
        await play_passively(h)
        await h.advance(5)
        await play_passively(h)
        assert ann.numbers() == list(range(first["v"] + 1, h.table.last_seq + 1))
        channel.stop()

    run(body)


def test_a_viewer_who_comes_back_gets_exactly_what_he_missed() -> None:
    async def body(h: Harness) -> None:
        bus = on_bus(h)
        channel = TableChannel(bus, "t1", bus.directory()["t1"])
        await channel.start()  # before anything: the channel has every event
        await seat_players(h, 2)
        await h.advance(5)
        await play_passively(h)
        seen_up_to = h.table.last_seq - 10
        await h.advance(5)
        # from the channel's own recent events
        ann = Inbox("ann")
        await channel.join(ann.viewer, seen_up_to)
        assert ann.numbers() == list(range(seen_up_to + 1, h.table.last_seq + 1))
        assert all(m["t"] != "snapshot" for m in ann.messages)
        # from the table's history: a channel started after the events he missed
        late = TableChannel(bus, "t1", bus.directory()["t1"])
        await late.start()
        bob = Inbox("bob")
        await late.join(bob.viewer, seen_up_to)
        assert bob.numbers() == list(range(seen_up_to + 1, h.table.last_seq + 1))
        # the cards each may see: ann hers, bob his, in the same events
        deals = [
            (a["d"], b["d"])
            for a, b in zip(ann.messages, bob.messages, strict=False)
            if a["t"] == "event" and a["d"]["k"] == "deal" and not a["d"]["face_up"]
        ]
        for a, b in deals:
            assert (a["card"] is not None) == (a["seat"] == 1)
            assert (b["card"] is not None) == (b["seat"] == 2)
        # from the future, or from long ago: a snapshot
        cat = Inbox(None)
        await channel.join(cat.viewer, 10**9)
        assert cat.messages[0]["t"] == "snapshot"
        channel.stop()
        late.stop()

    run(body)


def test_the_player_to_act_is_told_his_turn_and_only_he() -> None:
    async def body(h: Harness) -> None:
        bus = on_bus(h)
        channel = TableChannel(bus, "t1", bus.directory()["t1"])
        await channel.start()
        ann, bob, watcher = Inbox("ann"), Inbox("bob"), Inbox(None)
        for inbox in (ann, bob, watcher):
            await channel.join(inbox.viewer, None)
        await seat_players(h, 2)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None and hand.to_act is not None
        mover, other = (ann, bob) if hand.to_act == 1 else (bob, ann)
        turns = [m for m in mover.messages if m["t"] == "turn"]
        assert len(turns) == 1 and turns[0]["d"]["seat"] == hand.to_act
        kinds = {a["kind"] for a in turns[0]["d"]["legal"]}
        assert kinds == {a.kind.value for a in hand.legal_actions()}
        assert not any(m["t"] == "turn" for m in other.messages + watcher.messages)
        # one who joins now is told his turn at once, after what he missed
        again = Inbox(mover.viewer.player)
        await channel.join(again.viewer, None)
        assert [m["t"] for m in again.messages] == ["snapshot", "turn"]
        channel.stop()

    run(body)
