"""The next deal waits for the showdown: after a hand shown down, the clients turn
the hands over one each ``REVEAL_SECONDS`` and the results stay ``showdown_seconds``
(a room's table: TableSpec's default); a hand won without a showdown waits only
``between_hands``."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace

import pytest

from server.tableharness import Harness, play_passively
from stud8.core.actions import make_action
from stud8.core.cards import Deck
from stud8.core.events import HandMucked, HandShown
from stud8.server.table.commands import Act, Sit
from stud8.server.table.events import HandFinished, HandStarted, Numbered
from stud8.server.table.owner import Table
from stud8.server.table.spec import REVEAL_SECONDS, TableSpec


class Paced(Harness):
    """The harness's table, with a showdown pause."""

    def __init__(self, showdown_seconds: float) -> None:
        super().__init__(between_hands=1.0)
        seeds = itertools.count(1)
        self.table = Table(
            replace(self.table.config, showdown_seconds=showdown_seconds),
            books=self.books,
            clock=self.clock,
            deck_source=lambda: Deck.seeded(next(seeds)),
        )
        self.seen: list[tuple[float, Numbered]] = []
        self.table.listen(lambda item: self.seen.append((self.clock.now(), item)))

    def times_of(self, kind: type) -> list[float]:
        return [t for t, item in self.seen if isinstance(item.event, kind)]


def test_a_room_table_keeps_the_showdown_five_seconds_by_default() -> None:
    assert TableSpec().config("t1").showdown_seconds == 5.0
    with pytest.raises(ValueError, match="showdown_seconds"):
        TableSpec(showdown_seconds=-1).config("t1")


def test_the_next_deal_waits_for_every_hand_turned_over_and_the_results() -> None:
    async def main() -> None:
        h = Paced(showdown_seconds=4.5)
        h.table.start()
        try:
            for seat, player in enumerate(("ann", "bob", "cat"), start=1):
                assert (await h.send(Sit(player=player, seat=seat, amount=100))).ok
            await h.advance(1.0)
            assert h.table.hand is not None
            await play_passively(h)  # everyone checks or calls: a showdown
            steps = [i for _, i in h.seen if isinstance(i.event, (HandShown, HandMucked))]
            assert len(steps) == 3
            finished = h.times_of(HandFinished)[-1]
            await h.advance(4.5 + 2 * REVEAL_SECONDS - 0.01)
            assert h.table.hand is None  # still showing the results
            await h.advance(0.02)
            assert h.table.hand is not None
            started = h.times_of(HandStarted)[-1]
            assert started - finished == pytest.approx(4.5 + 2 * REVEAL_SECONDS, abs=0.02)
            # a hand won without a showdown: only between_hands
            while (hand := h.table.hand) is not None:
                seat = hand.to_act
                assert seat is not None
                player = h.table.seats[seat].player
                kinds = {a.kind.value for a in hand.legal_actions()}
                kind = "fold" if "fold" in kinds else "bring_in"
                act = Act(player=player, action=make_action(kind), command_id=f"f{len(h.seen)}")
                assert (await h.send(act)).ok
            finished = h.times_of(HandFinished)[-1]
            await h.advance(1.0)
            assert h.table.hand is not None
            assert h.times_of(HandStarted)[-1] - finished == pytest.approx(1.0, abs=0.02)
        finally:
            await h.table.stop()

    asyncio.run(main())
