"""The lobby lists the tables from the bus's directory: what each is and the status its
owner last published, the books' trouble included (a table that cannot write the end
of its hand says so, and says so no more once it can)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from server.tableharness import FlakyBooks
from stud8.core.actions import make_action
from stud8.server.clock import AsyncioClock
from stud8.server.room.lobby import Lobby, Reseat
from stud8.server.table.commands import Act, Sit
from stud8.server.table.spec import TableSpec

SPEC = TableSpec(between_hands=0.0, bot_delay=0.0, min_buy_in=40, max_buy_in=400)


def test_the_lobby_shows_a_table_stopped_by_its_books_and_then_dealing_again() -> None:
    async def body() -> None:
        books = FlakyBooks(ends=1)
        lobby = Lobby(books=books, clock=AsyncioClock())
        table = await lobby.create(SPEC, "t1", name="Main")
        try:
            [listed] = lobby.listing()
            assert listed["table_id"] == "t1" and listed["name"] == "Main"
            assert listed["players"] == [] and listed["paused"] is None
            for seat, player in ((1, "ann"), (2, "bob")):
                assert (await table.submit(Sit(player=player, seat=seat, amount=100))).ok
            assert lobby.listing()[0]["players"] == ["ann", "bob"]
            while table.hand is None:
                await asyncio.sleep(0.01)
            hand = table.hand
            assert hand.to_act is not None
            mover = table.seats[hand.to_act].player
            assert (await table.submit(Act(player=mover, action=make_action("bring_in")))).ok
            assert hand.to_act is not None
            folder = table.seats[hand.to_act].player
            fold = asyncio.ensure_future(
                table.submit(Act(player=folder, action=make_action("fold")))
            )
            while lobby.listing()[0]["paused"] is None:
                await asyncio.sleep(0.01)
            assert "could not be written" in lobby.listing()[0]["paused"]
            assert (await asyncio.wait_for(fold, 10)).ok  # the retry lands
            listed = lobby.listing()[0]
            assert listed["paused"] is None and listed["hands_played"] == 1
        finally:
            await lobby.close_all()

    asyncio.run(asyncio.wait_for(body(), 30))


def test_a_table_reopened_with_a_waiting_list_keeps_its_free_seats_for_the_players_waiting() -> (
    None
):
    """A room on several nodes reopens a table taken over with its waiting list: the
    first listed is offered the lowest free seat, a free seat is kept for each of
    the others, and the bots fill only the seats left over."""

    async def body() -> None:
        lobby = Lobby(books=FlakyBooks(), clock=AsyncioClock())
        spec = replace(SPEC, seats=5, bots=4, between_hands=60.0)
        reseats = [Reseat(2, "bot99", 100, bot=True)]
        table = await lobby.reopen("t1", "Main", spec, reseats, ["cat", "dan"])
        try:
            offer = table.waiting.offer
            assert offer is not None and (offer.seat, offer.player) == (1, "cat")
            # seats 1 and 3 for cat and dan, 4 and 5 for the two bots the table lacks
            assert sorted(table.seats) == [2, 4, 5]
            assert all(table.seats[n].bot is not None for n in (2, 4, 5))
            assert table.snapshot().waiting_list == ("cat", "dan")
            assert lobby.listing()[0]["waiting"] == 2
        finally:
            await lobby.close_all()

    asyncio.run(asyncio.wait_for(body(), 30))
