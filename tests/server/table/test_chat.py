"""The table's chat: who may chat, how often, the hand a line falls in, and a refusal
(an observer, a player over the rate, a silenced player, books that cannot be
written) that says why and changes nothing: no event, no line kept."""

from __future__ import annotations

import asyncio

import pytest

from server.tableharness import Harness, play_passively, run, seat_players
from stud8.server.books.memory import MemoryBooks
from stud8.server.clock import ManualClock
from stud8.server.table.books import ChatLine
from stud8.server.table.chat import TableChat
from stud8.server.table.commands import Chat, Refused
from stud8.server.table.events import ChatSaid, Numbered
from stud8.server.wire.limits import CHAT_RATE


def said(seen: list[Numbered]) -> list[ChatSaid]:
    return [n.event for n in seen if isinstance(n.event, ChatSaid)]


def test_a_seated_player_s_line_is_kept_with_its_hand_then_shown() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 2)
        reply = await h.send(Chat(player="ann", text="  gl all  ", command_id="m1"))
        assert reply.ok, reply
        await h.advance(6)  # the first hand is dealt
        hand = h.table.hand
        assert hand is not None
        assert (await h.send(Chat(player="bob", text="<b>nh</b>"))).ok
        lines = said(seen)
        assert lines == [
            ChatSaid("ann", "gl all", 1, None),
            ChatSaid("bob", "<b>nh</b>", 2, hand.hand_id),
        ]
        kept = h.books.chat.lines("t1")
        assert [(k.player, k.text, k.hand_id) for k in kept] == [
            ("ann", "gl all", None),
            ("bob", "<b>nh</b>", hand.hand_id),
        ]
        assert [k.text for k in h.books.chat.lines("t1", hand_id=hand.hand_id)] == ["<b>nh</b>"]
        # a repeated command id is answered as the first time, and said once
        again = await h.send(Chat(player="ann", text="  gl all  ", command_id="m1"))
        assert again == reply
        assert len(said(seen)) == 2
        await play_passively(h)

    run(body)


def test_observers_chat_only_where_the_table_allows_it() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 1)
        reply = await h.send(Chat(player="zed", text="hello"))
        assert not reply.ok and "only the players seated here may chat" in reply.reason
        assert said(seen) == [] and h.books.chat.lines("t1") == []
        h.table.chat.observer_chat = True  # the table's option (TableSpec.observer_chat)
        assert (await h.send(Chat(player="zed", text="hello"))).ok
        assert said(seen) == [ChatSaid("zed", "hello", None, None)]

    run(body)


def test_the_chat_rate_is_per_player_and_a_line_over_it_changes_nothing() -> None:
    most, seconds = CHAT_RATE

    async def body(h: Harness) -> None:
        h.table.chat.rate = CHAT_RATE  # as the room opens its tables
        seen = h.watch()
        await seat_players(h, 2)
        await h.advance(1)
        for i in range(most):
            assert (await h.send(Chat(player="ann", text=f"line {i}"))).ok
        over = await h.send(Chat(player="ann", text="one too many"))
        assert not over.ok
        assert f"at most {most} messages in {seconds:g} seconds" in over.reason
        assert "was not sent" in over.reason
        assert [e.text for e in said(seen)] == [f"line {i}" for i in range(most)]
        assert len(h.books.chat.lines("t1")) == most
        # another player is not held back by ann's lines
        assert (await h.send(Chat(player="bob", text="me too"))).ok
        # once the window has passed, she may speak again
        await h.advance(seconds)
        assert (await h.send(Chat(player="ann", text="back"))).ok
        assert said(seen)[-1].text == "back"

    run(body, between_hands=1000.0)


def test_an_empty_line_is_refused() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 1)
        reply = await h.send(Chat(player="ann", text=" \t "))
        assert not reply.ok and "empty" in reply.reason
        assert said(seen) == []

    run(body)


def test_a_silenced_player_is_refused_saying_why() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 2)
        h.books.chat.silence("ANN")  # any case
        reply = await h.send(Chat(player="ann", text="let me speak"))
        assert not reply.ok and "silenced by an operator" in reply.reason, reply
        assert said(seen) == [] and h.books.chat.lines("t1") == []
        assert (await h.send(Chat(player="bob", text="quiet now"))).ok
        h.books.chat.silence("ann", undo=True)
        assert (await h.send(Chat(player="ann", text="thanks"))).ok
        assert [e.player for e in said(seen)] == ["bob", "ann"]

    run(body)


class DownBooks(MemoryBooks):
    """Books whose chat cannot be written (the database is unreachable)."""

    async def chat_said(self, line: ChatLine) -> None:
        raise OSError("the database is unreachable")


def test_a_line_the_books_cannot_keep_is_not_shown() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        await seat_players(h, 1)
        reply = await h.send(Chat(player="ann", text="hello"))
        assert not reply.ok and "chat is unavailable" in reply.reason, reply
        assert said(seen) == []
        assert h.table.running

    run(body, books=DownBooks({"ann": 1000, "bob": 1000}))


def test_the_rate_s_memory_of_players_is_bounded() -> None:
    """The times kept per player are forgotten once they are past the window (a room
    with many talkers does not keep them all for ever), a silenced player's too."""
    books = MemoryBooks()
    books.chat.silence("mute")
    clock = ManualClock()
    chat = TableChat("t1", books, clock, lambda event: None, rate=CHAT_RATE)

    async def main() -> None:
        with pytest.raises(Refused, match="silenced"):
            await chat.say(Chat(player="mute", text="hi"), seat=1, hand_id=None)
        for i in range(10_001):
            await chat.say(Chat(player=f"p{i}", text="hi"), seat=1, hand_id=None)
        # past 10,000 players the ones with nothing recent are forgotten (the
        # silenced one, who never said anything)
        assert "mute" not in chat._recent and len(chat._recent) == 10_001
        clock.advance(CHAT_RATE[1])
        await chat.say(Chat(player="late", text="hi"), seat=1, hand_id=None)
        assert list(chat._recent) == ["late"]

    asyncio.run(main())
