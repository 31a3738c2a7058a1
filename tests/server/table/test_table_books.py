"""The table and its books (the port): a finished hand is announced only once its
end is durable, and a hand's end or note that cannot be written is never dropped:
the table stops dealing, says so (``paused``, the log) and tries again until it lands.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from server.tableharness import FlakyBooks, Harness, run, seat_players
from stud8.core.events import HandEnded, PotAwarded
from stud8.server.table.commands import Leave, Reply
from stud8.server.table.events import HandFinished, HandStarted, Numbered


async def until(condition: Callable[[], bool], what: str) -> None:
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"never: {what}")


def test_a_hand_end_that_cannot_be_written_is_held_back_and_retried(
    caplog: pytest.LogCaptureFixture,
) -> None:
    books = FlakyBooks(ends=2)

    async def body(h: Harness) -> None:
        seen: list[Numbered] = []
        h.table.listen(seen.append)
        await seat_players(h, 2)
        await h.advance(5)
        hand = h.table.hand
        assert hand is not None and hand.to_act is not None
        # the bring-in, then the other folds: the action that ends the hand
        await h.send(h.act(h.table.seats[hand.to_act].player, "bring_in"))
        assert hand.to_act is not None
        folder = h.table.seats[hand.to_act].player
        fold = asyncio.ensure_future(h.table.submit(h.act(folder, "fold")))
        await until(lambda: h.table.paused is not None, "the table says it has stopped")
        assert "could not be written" in (h.table.paused or "")
        assert not fold.done()  # the fold is not answered before its hand is kept
        kinds = {type(item.event) for item in seen}
        assert PotAwarded not in kinds and HandEnded not in kinds and HandFinished not in kinds
        assert books.attempts == 1 and not books.ended
        # time passes: no new hand, the same hand, a second failure, then it lands
        h.clock.advance(0.5)
        await until(lambda: books.attempts == 2, "a second try")
        assert h.table.hand is hand and h.table.paused is not None and not fold.done()
        h.clock.advance(1.0)
        reply: Reply = await asyncio.wait_for(fold, 10)
        assert reply.ok
        assert h.table.paused is None
        assert hand.hand_id in books.settled
        kinds = {type(item.event) for item in seen}
        assert PotAwarded in kinds and HandFinished in kinds
        # announced in order: the fold, the pot, the hand's end, then hand_finish
        finish = next(i for i in seen if isinstance(i.event, HandFinished))
        pot = next(i for i in seen if isinstance(i.event, PotAwarded))
        assert pot.seq < finish.seq and finish.seq == seen[-1].seq
        assert books.audit()

    with caplog.at_level(logging.ERROR, logger="stud8.server"):
        run(body, books=books)
    assert sum("could not be written" in r.getMessage() for r in caplog.records) == 2


def test_a_hand_note_that_cannot_be_written_deals_no_hand_until_it_is(
    caplog: pytest.LogCaptureFixture,
) -> None:
    books = FlakyBooks(notes=1)

    async def body(h: Harness) -> None:
        seen: list[Numbered] = []
        h.table.listen(seen.append)
        await seat_players(h, 2)
        await h.advance(5)  # time for a hand: its note fails, no card is dealt
        assert h.table.hand is None and h.table.paused is not None
        assert "note" in h.table.paused
        assert not any(isinstance(i.event, HandStarted) for i in seen)
        await h.advance(5)  # tried again: it lands and the hand is dealt
        assert h.table.hand is not None and h.table.paused is None
        assert h.table.hand.hand_id in books.noted

    with caplog.at_level(logging.ERROR, logger="stud8.server"):
        run(body, books=books)
    assert any("cannot note a new hand" in r.getMessage() for r in caplog.records)


def test_a_player_who_leaves_while_the_books_are_down_is_paid_out_when_they_are_back() -> None:
    books = FlakyBooks(stands=2)

    async def body(h: Harness) -> None:
        await seat_players(h, 3)
        reply = await h.send(Leave(player="cat"))
        assert reply.ok  # taken: he leaves as soon as his chips can go back
        seat = h.table.seats[3]
        assert seat.leaving and not seat.ready and books.on_table("t1", "cat") == 100
        await h.advance(5)  # a hand is dealt without him; the retry fails once more
        hand = h.table.hand
        assert hand is not None and 3 not in hand.seats and 3 in h.table.seats
        await h.advance(5)  # the books are back: he is stood up
        assert 3 not in h.table.seats
        assert books.balance("cat") == 1000 and books.on_table("t1", "cat") == 0
        assert books.audit()

    run(body, books=books)
