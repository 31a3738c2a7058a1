"""A table whose books diverge (:class:`~stud8.server.table.books.BooksDiverged`): it
takes the ledger's chips, says why in the lobby (``paused``) and the log, and deals
no more; its players may still leave with what the ledger holds."""

from __future__ import annotations

import logging

import pytest

from server.tableharness import PLAYERS, Harness, run, seat_players
from stud8.core.events import PotAwarded
from stud8.server.books.memory import MemoryBooks
from stud8.server.table.books import BooksDiverged, HandEnd
from stud8.server.table.commands import Leave
from stud8.server.table.events import HandFinished, HandStarted, SeatLeft


class DivergingBooks(MemoryBooks):
    """Books that refuse the first hand's end as closed otherwise (``written``
    False: nothing kept) or keep it and then find the ledger different (``written``
    True: each player ``off`` chips more in the ledger than at the table)."""

    def __init__(self, *, written: bool, off: int = 0) -> None:
        super().__init__({p: 1000 for p in PLAYERS})
        self.written, self.off = written, off
        self.ends: list[HandEnd] = []

    async def hand_ended(self, end: HandEnd) -> None:
        self.ends.append(end)
        if len(self.ends) > 1:
            await super().hand_ended(end)
            return
        if self.written:
            await super().hand_ended(end)
        assert end.stacks is not None
        for player in end.stacks:
            self._tables[(end.table_id, player)] = self._tables.get((end.table_id, player), 0)
            self._tables[(end.table_id, player)] += self.off
        ledger = {p: self._tables.get((end.table_id, p), 0) for p in end.stacks}
        raise BooksDiverged("a test's divergence", written=self.written, ledger=ledger)


async def _play_one_hand(h: Harness) -> None:
    await seat_players(h, 2)
    await h.advance(5)
    hand = h.table.hand
    assert hand is not None and hand.to_act is not None
    await h.send(h.act(h.table.seats[hand.to_act].player, "bring_in"))
    assert hand.to_act is not None
    await h.send(h.act(h.table.seats[hand.to_act].player, "fold"))


@pytest.mark.parametrize("written", [False, True])
def test_a_table_whose_books_diverge_takes_the_ledgers_chips_and_deals_no_more(
    written: bool, caplog: pytest.LogCaptureFixture
) -> None:
    books = DivergingBooks(written=written, off=7 if written else 0)

    async def body(h: Harness) -> None:
        seen = h.watch()
        await _play_one_hand(h)
        assert h.table.hand is None
        assert [e.stacks for e in books.ends] == [{"ann": 99, "bob": 101}]  # every seat
        paused = h.table.status().paused or ""
        assert paused.startswith("stopped: its books disagree") and "a test's divergence" in paused
        # the ledger's chips: unchanged by a refused end, 7 more each after a kept one
        chips = {s.player: s.chips for s in h.table.seats.values()}
        assert chips == ({"ann": 106, "bob": 108} if written else {"ann": 100, "bob": 100})
        finish = [e.event for e in seen if isinstance(e.event, HandFinished)]
        assert [f.cancelled for f in finish] == [not written]
        # a refused end is never shown: no pot was awarded
        assert any(isinstance(e.event, PotAwarded) for e in seen) is written
        await h.advance(60)
        assert sum(isinstance(e.event, HandStarted) for e in seen) == 1
        assert h.table.status().paused == paused  # still says why
        # the players leave with what the ledger holds (the books check the amount)
        for player in ("ann", "bob"):
            assert (await h.send(Leave(player=player))).ok
        left = {e.event.player: e.event.chips for e in seen if isinstance(e.event, SeatLeft)}
        assert left == chips

    with caplog.at_level(logging.ERROR, logger="stud8.server"):
        run(body, books=books)
    assert any("its books disagree" in r.getMessage() for r in caplog.records)
