"""A table handed over to another node (a drain, a clean stop: ``Table.hand_over``)
with a hand in play: the hand is played out, even by the clock alone when its
players have gone, and no hand is dealt after it; a hand-over never waits for a
table that has stopped (stopped, or fenced: another node owns it now)."""

from __future__ import annotations

import asyncio

from server.tableharness import PLAYERS, Harness, run, seat_players
from stud8.server.books.memory import MemoryBooks
from stud8.server.table.books import BooksFenced, HandEnd, HandNote
from stud8.server.table.commands import Disconnect, Leave
from stud8.server.table.state import StartHand

# a turn's action time and time bank (tableharness's RULES): what the clock gives
# a player who has gone before it acts for him
TURN = 10 + 20


async def deal(h: Harness) -> str:
    await seat_players(h, 2)
    await h.advance(5)  # between hands
    hand = h.table.hand
    assert hand is not None
    return hand.hand_id


def test_a_hand_whose_players_left_is_played_out_by_the_clock_then_handed_over() -> None:
    async def body(h: Harness) -> None:
        hand_id = await deal(h)
        for player in PLAYERS[:2]:
            assert (await h.send(Leave(player=player))).ok
            assert (await h.send(Disconnect(player=player))).ok
        handing = asyncio.ensure_future(h.table.hand_over())
        await h.settle()
        assert not handing.done()  # the hand is still in play
        for _ in range(20):  # turn after turn timed out, street after street
            if handing.done():
                break
            await h.advance(TURN)
        assert handing.done()
        await handing
        assert h.table.hand is None
        assert hand_id in h.books.ended and not h.books.ended[hand_id].cancelled
        await h.advance(60)
        assert h.table.hand is None  # and none dealt after it

    run(body)


def test_a_hand_start_already_queued_deals_nothing_once_the_table_is_handed_over() -> None:
    async def body(h: Harness) -> None:
        await seat_players(h, 2)
        handing = asyncio.ensure_future(h.table.hand_over())
        # the deal's timer fires as the hand-over starts: its message is queued
        h.table._queue.put_nowait((StartHand(), None))
        await asyncio.wait_for(handing, 5)
        await h.advance(60)
        assert h.table.hand is None and not h.books.ended

    run(body)


class SlowNoteBooks(MemoryBooks):
    """Books that keep a new hand's note waiting until ``noted`` is let through (a
    database slow to answer): the note is durable when it answers."""

    def __init__(self, stacks: dict[str, int]) -> None:
        super().__init__(stacks)
        self.writing = asyncio.Event()
        self.let_through = asyncio.Event()

    async def hand_dealt(self, note: HandNote) -> None:
        self.writing.set()
        await self.let_through.wait()
        await super().hand_dealt(note)


def test_a_hand_over_while_a_hand_is_being_noted_waits_for_that_hand_to_end() -> None:
    """The drain's race (CI, 2026-12-03): the hand-over came while the new hand's
    note was being written. The note is durable, so that hand must be played out
    here; handed over then, the next owner found it unfinished and refunded it."""

    async def body(h: Harness) -> None:
        books = h.books
        assert isinstance(books, SlowNoteBooks)
        await seat_players(h, 2)
        h.clock.advance(5)  # between hands: the deal's note is being written
        await asyncio.wait_for(books.writing.wait(), 5)
        handing = asyncio.ensure_future(h.table.hand_over())
        await asyncio.sleep(0.05)
        assert not handing.done()  # a hand is starting: the hand-over waits for it
        books.let_through.set()
        await h.settle()
        hand = h.table.hand
        assert hand is not None and hand.hand_id in books.noted
        assert not handing.done()
        for player in PLAYERS[:2]:
            h.table.post(Leave(player=player))
        for _ in range(20):  # the clock plays it out
            if handing.done():
                break
            await h.advance(TURN)
        await asyncio.wait_for(handing, 5)
        assert hand.hand_id in books.ended and not books.ended[hand.hand_id].cancelled
        await h.advance(60)
        assert h.table.hand is None and list(books.ended) == [hand.hand_id]  # no more dealt

    run(body, books=SlowNoteBooks({p: 1000 for p in PLAYERS}))


class FencedBooks(MemoryBooks):
    """Books of a table another node has taken over: the hand's end is refused."""

    async def hand_ended(self, end: HandEnd) -> None:
        raise BooksFenced("table t1 belongs to node b now")


def test_a_hand_over_returns_when_the_table_is_fenced_mid_hand() -> None:
    async def body(h: Harness) -> None:
        hand_id = await deal(h)
        handing = asyncio.ensure_future(h.table.hand_over())
        await h.settle()
        for player in PLAYERS[:2]:
            h.table.post(Leave(player=player))
        # the clock plays the hand to its end, whose settlement the books refuse
        for _ in range(20):
            if not h.table.running:
                break
            h.clock.advance(TURN)
            await asyncio.sleep(0.01)
        assert h.table.fenced is not None
        # the hand is the new owner's: it never ends here, and the hand-over is done
        await asyncio.wait_for(handing, 5)
        assert h.table.hand is not None and h.table.hand.hand_id == hand_id

    run(body, books=FencedBooks({p: 1000 for p in PLAYERS}))


def test_a_hand_over_returns_when_the_table_is_stopped_mid_hand() -> None:
    async def body(h: Harness) -> None:
        await deal(h)
        handing = asyncio.ensure_future(h.table.hand_over())
        await h.settle()
        assert not handing.done()
        await h.table.stop()  # let go: its lease lost, or the node stopping
        await asyncio.wait_for(handing, 5)
        assert h.table.hand is not None  # left as it is, for the next owner

    run(body)
