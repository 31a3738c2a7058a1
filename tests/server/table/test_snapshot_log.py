"""A snapshot carries the hand on the table (its events from ``hand_start``) and the
hands a restart cancelled; each viewer is given of them exactly what he was given
live: the events' texts at the edge, one by one, are the ones a live viewer got."""

from __future__ import annotations

import asyncio
import json

from server.tableharness import Harness, play_passively, run, seat_players
from stud8.core.events import CardDealt
from stud8.server.edge.projection import encode, snapshot_for
from stud8.server.table.events import (
    HandFinished,
    HandRefunded,
    HandStarted,
    Numbered,
    WaitingListChanged,
)
from stud8.server.table.feed import AFTER_HAND, Feed


def _log_of(h: Harness, player: str | None, everything: bool = False) -> list[dict[str, object]]:
    snap = h.table.snapshot()
    data = json.loads(snapshot_for(snap, player, everything).encode(snap.seq))["d"]
    log: list[dict[str, object]] = data["log"]
    return log


def _live(seen: list[Numbered], start: int, player: str | None) -> list[dict[str, object]]:
    """What a live viewer was sent of the events from ``start`` on: {v, d}."""
    out = []
    for item in seen[start:]:
        message = json.loads(encode(item).text_for(player, False))
        out.append({"v": message["v"], "d": message["d"]})
    return out


def test_a_snapshot_mid_hand_gives_each_viewer_the_hand_as_he_saw_it_live() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 3)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None
        start = next(i for i, n in enumerate(seen) if isinstance(n.event, HandStarted))
        for player in ("ann", "bob", None):
            assert _log_of(h, player) == _live(seen, start, player)
        # an opponent's reloaded snapshot carries no down card but his own
        bob_seat = next(n for n, s in h.table.seats.items() if s.player == "bob")
        text = snapshot_for(h.table.snapshot(), "bob", False).encode(0)
        for item in seen[start:]:
            event = item.event
            if isinstance(event, CardDealt) and not event.face_up:
                card = str(event.card) if event.seat == bob_seat else None
                shown = {"k": "deal", "seat": event.seat, "card": card, "face_up": False}
                dealt = {"v": item.seq, "d": {**shown, "street": event.street}}
                assert dealt in json.loads(text)["d"]["log"]
                if event.seat != bob_seat:
                    assert f'"card":"{event.card}"' not in text
        observer = json.dumps(_log_of(h, None))
        assert all(
            f'"{e.event.card}"' not in observer
            for e in seen[start:]
            if isinstance(e.event, CardDealt) and not e.event.face_up
        )
        # who played each seat: the names of the hand's lines
        snap = h.table.snapshot()
        message = json.loads(snapshot_for(snap, None, False).encode(snap.seq))["d"]
        assert message["log_seats"] == [[n, s.player] for n, s in sorted(h.table.seats.items())]

    run(body)


def test_between_hands_the_snapshot_keeps_the_last_hand_and_its_showdown() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 2)
        await h.advance(5)
        await play_passively(h)
        assert h.table.hand is None
        snap = h.table.snapshot()
        assert snap.hand is None and snap.hand_log
        kinds = [item.event.kind for item in snap.hand_log]
        assert kinds[0] == "hand_start" and "hand_finish" in kinds and "show" in kinds
        start = next(i for i, n in enumerate(seen) if isinstance(n.event, HandStarted))
        assert _log_of(h, "ann") == _live(seen, start, "ann")
        # the next hand's snapshot starts at its own hand_start
        await h.advance(10)
        assert h.table.hand is not None
        log = h.table.snapshot().hand_log
        assert isinstance(log[0].event, HandStarted)
        assert log[0].event.hand_id == h.table.hand.hand_id

    run(body)


def test_a_table_back_from_a_restart_tells_the_hands_it_cancelled() -> None:
    async def main() -> None:
        h = Harness()
        seen = h.watch()
        cut = HandRefunded("517840224650031249", "517840224650031249")
        h.table.restore_refunded([cut])
        h.table.start()
        try:
            await h.settle()
            assert [n.event for n in seen][:1] == [cut]
            snap = h.table.snapshot()
            assert snap.refunded == (cut,)
            data = json.loads(snapshot_for(snap, "ann", False).encode(snap.seq))["d"]
            assert data["refunded"] == [
                {"k": "hand_refunded", "hand_id": cut.hand_id, "number": cut.number}
            ]
        finally:
            await h.table.stop()

    asyncio.run(main())


def test_the_feed_keeps_a_bounded_tail_after_the_hand() -> None:
    feed = Feed(10)
    feed.emit(WaitingListChanged(("x",)))
    assert feed.on_table() == ()  # no hand yet
    feed.emit(HandStarted("1", ((1, 10), (2, 10))))
    feed.emit(HandFinished("1"))
    for _ in range(AFTER_HAND + 50):
        feed.emit(WaitingListChanged(("x",)))
    kept = feed.on_table()
    assert len(kept) == 2 + AFTER_HAND
    assert isinstance(kept[0].event, HandStarted)
