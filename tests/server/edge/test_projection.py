"""What each viewer may see, decided at the edge: no text ever carries a card its viewer
may not see, each event is encoded once per visibility class, and a snapshot is
projected for each viewer."""

from __future__ import annotations

import json
from typing import Any

from server.tableharness import Harness, run, seat_players
from stud8.core.events import CardDealt, HandShown
from stud8.server.bus.codec import decode_catch_up, encode_catch_up
from stud8.server.edge.projection import encode, snapshot_for
from stud8.server.table.commands import ComeBack, SeatBot, Sit, SitOut
from stud8.server.table.events import HandStarted, Numbered, SeatTaken

BOTS = ("b1", "b2", "b3")
# (player, operator): three players, an observer, an operator watching, and an
# operator who plays (b1 named an operator): he sees what his seat sees
VIEWERS: tuple[tuple[str | None, bool], ...] = (
    ("b1", False),
    ("b2", False),
    ("b3", False),
    (None, False),
    ("op", True),
    ("b1", True),
)


def test_no_viewer_is_sent_a_card_he_may_not_see_over_many_bot_hands() -> None:
    async def body(h: Harness) -> None:
        for name in BOTS:
            h.books.issue(name, 1_000_000)
        seen = h.watch()
        while h.table.hands_played < 150:
            for number, name in enumerate(BOTS, start=1):
                if number not in h.table.seats:
                    bot = SeatBot(player=name, seat=number, amount=200)
                    assert (await h.send(bot)).ok
            await h.advance(5)
        assert [i.seq for i in seen] == list(range(1, h.table.last_seq + 1))
        hidden = sum(isinstance(i.event, CardDealt) and not i.event.face_up for i in seen)
        for player, everything in VIEWERS:
            mine = 0
            seat: int | None = None
            for item in seen:
                message: dict[str, Any] = json.loads(encode(item).text_for(player, everything))
                assert message["t"] == "event" and message["v"] == item.seq  # never a gap
                d = message["d"]
                if isinstance(item.event, HandStarted):
                    seat = item.seat_of(player)
                if d["k"] == "deal" and not d["face_up"]:
                    may = d["seat"] == seat or (everything and seat is None)
                    assert (d["card"] is not None) == may, (player, everything, item)
                    mine += d["card"] is not None
                elif isinstance(item.event, HandShown):
                    assert d["cards"]  # shown to everyone
            if player is None:
                assert mine == 0
            elif everything and player == "op":
                assert mine == hidden  # an operator not dealt in sees every card
            else:
                assert mine >= 150 * 2  # at least his first two down cards, each hand

    run(body)


def test_an_event_is_encoded_once_per_visibility_class() -> None:
    public = encode(Numbered(3, SeatTaken(1, "ann", 100)))
    assert public.whole is None
    texts = {id(public.text_for(p, e)) for p, e in VIEWERS}
    assert len(texts) == 1  # one text, the same object, for everyone

    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 2)
        await h.advance(5)
        deals = [i for i in seen if isinstance(i.event, CardDealt) and not i.event.face_up]
        assert deals
        for item in deals:
            encoded = encode(item)
            assert encoded.whole is not None
            texts = {
                encoded.text_for(p, e) for p, e in (("ann", False), ("bob", False), (None, False))
            }
            assert texts == {encoded.text, encoded.whole}  # two texts in all

    run(body)


def test_a_snapshot_shows_each_viewer_what_he_may_see() -> None:
    async def body(h: Harness) -> None:
        await seat_players(h, 2)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None and hand.to_act is not None
        caught = await h.table.catch_up(None)
        snap = caught.snapshot
        assert snap is not None
        mover = snap.hand_seats[hand.to_act]
        for player, everything, seat in (
            ("ann", False, 1),
            ("bob", False, 2),
            (None, False, None),
            ("op", True, None),
            ("ann", True, 1),
            ("cat", False, None),  # not dealt in: an observer's view
        ):
            message = snapshot_for(snap, player, everything)
            assert message.viewer_seat == snap.seat_of(player)
            assert message.hand is not None and message.hand.viewer == seat
            all_cards = everything and seat is None
            for s in message.hand.seats:
                visible = all(c is not None for c in s.down_cards)
                assert visible == (all_cards or s.seat == seat), (player, s)
            may_act = all_cards or player == mover
            assert bool(message.hand.legal_actions) == may_act
            text = json.loads(message.encode(snap.seq))
            assert text["t"] == "snapshot" and text["v"] == snap.seq

    run(body)


def test_a_snapshot_gives_a_seated_player_his_table_seat_with_or_without_a_hand() -> None:
    """The snapshot's viewer_seat is his seat at the table: between hands (no hand
    in play) and when he sat down during a hand he is not dealt into (the hand's
    viewer is then None) as much as in a hand he plays."""

    async def body(h: Harness) -> None:
        await seat_players(h, 1)  # alone: no hand is dealt
        caught = await h.table.catch_up(None)
        assert caught.snapshot is not None and caught.snapshot.hand is None
        alone = snapshot_for(caught.snapshot, "ann", False)
        assert alone.viewer_seat == 1 and alone.hand is None
        assert snapshot_for(caught.snapshot, "bob", False).viewer_seat is None
        assert json.loads(alone.encode(caught.seq))["d"]["viewer_seat"] == 1
        assert (await h.send(Sit(player="bob", seat=2, amount=100))).ok  # a hand is dealt
        await h.advance(5)
        assert h.table.hand is not None
        assert (await h.send(Sit(player="cat", seat=3, amount=100))).ok
        caught = await h.table.catch_up(None)
        snap = caught.snapshot
        assert snap is not None and snap.hand is not None
        late = snapshot_for(snap, "cat", False)
        assert late.viewer_seat == 3  # seated at the table...
        assert late.hand is not None and late.hand.viewer is None  # ...not dealt in
        assert all(c is None for s in late.hand.seats for c in s.down_cards)
        assert not late.hand.legal_actions
        playing = snapshot_for(snap, "bob", False)
        assert playing.viewer_seat == 2 and playing.hand is not None
        assert playing.hand.viewer == 2

    run(body)


def test_a_snapshot_tells_a_sitting_out_player_why_and_nobody_else() -> None:
    """After a reload his prompt says why he sits out: the snapshot carries the reason
    (the table's, across the bus too) to the player himself; others see only that he
    sits out; back in, no reason is left."""

    async def body(h: Harness) -> None:
        await seat_players(h, 2)
        assert (await h.send(SitOut(player="ann"))).ok
        caught = await h.table.catch_up(None)
        snap = caught.snapshot
        assert snap is not None
        assert {s.player: s.out_reason for s in snap.seats} == {"ann": "asked", "bob": ""}
        # the snapshot crosses the bus between nodes with the reason in it
        across = decode_catch_up(encode_catch_up(caught)).snapshot
        assert across is not None and across.seats == snap.seats
        for viewer, everything, reason in (
            ("ann", False, "asked"),
            ("bob", False, ""),
            (None, False, ""),
            ("op", True, ""),
        ):
            message = snapshot_for(across, viewer, everything)
            ann = json.loads(message.encode(caught.seq))["d"]["seats"][0]
            assert ann["player"] == "ann" and ann["sitting_out"] is True
            assert ann["out_reason"] == reason, viewer
        assert (await h.send(ComeBack(player="ann"))).ok
        back = (await h.table.catch_up(None)).snapshot
        assert back is not None
        assert all(not s.sitting_out and s.out_reason == "" for s in back.seats)

    run(body)
