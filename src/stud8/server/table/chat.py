"""The table's chat: who may say something, how often, and saying it.

A line of chat is a table command (:class:`~stud8.server.table.commands.Chat`),
taken in turn with everything else the table does, and a table event
(:class:`~stud8.server.table.events.ChatSaid`), numbered and sent to every viewer
like the others. Its text was checked at the edge (its length, no control
characters: :mod:`stud8.server.wire.client`); here the table refuses, changing
nothing and saying why:

- an observer (a viewer who is not seated), unless the table allows observers to
  chat (``TableConfig.observer_chat``, off by default);
- a player over the chat rate (``TableConfig.chat_rate``: so many lines in so
  many seconds, all his connections together; the room's is
  :data:`stud8.server.wire.limits.CHAT_RATE`);
- a player an operator has silenced (the books refuse the line).

A line is kept in the table's books with the hand it fell in (None between hands)
**before** it is shown, so the chat read back with a hand is the chat its players
saw (:meth:`~stud8.server.table.books.TableBooks.chat_said`).

>>> import asyncio
>>> from stud8.server.clock import ManualClock
>>> class Books:
...     async def chat_said(self, line): print("kept:", line.player, repr(line.text), line.hand_id)
>>> said = []
>>> chat = TableChat("t1", Books(), ManualClock(), said.append, rate=(2, 10.0))
>>> asyncio.run(chat.say(Chat(player="ann", text="gl all"), seat=3, hand_id="h1"))
kept: ann 'gl all' h1
>>> said
[ChatSaid(player='ann', text='gl all', seat=3, hand_id='h1')]
>>> asyncio.run(chat.say(Chat(player="zed", text="hi"), seat=None, hand_id=None))
Traceback (most recent call last):
...
stud8.server.table.commands.Refused: only the players seated here may chat at this table
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from stud8.server.clock import Clock
from stud8.server.table.books import BooksFenced, BooksRefused, ChatLine, TableBooks
from stud8.server.table.commands import Chat, Refused
from stud8.server.table.events import AnyEvent, ChatSaid

__all__ = ["TableChat"]


class TableChat:
    """One table's chat (see the module). ``emit`` numbers and publishes an event."""

    def __init__(
        self,
        table_id: str,
        books: TableBooks,
        clock: Clock,
        emit: Callable[[AnyEvent], object],
        *,
        observer_chat: bool = False,
        rate: tuple[int, float] | None = None,
    ) -> None:
        self.table_id = table_id
        self._books = books
        self._clock = clock
        self._emit = emit
        self.observer_chat = observer_chat
        self.rate = rate
        self._recent: dict[str, deque[float]] = {}  # each player's last lines' times

    def _check_rate(self, player: str) -> deque[float] | None:
        """The player's recent times (to note this line in), or Refused if he is over."""
        if self.rate is None:
            return None
        most, seconds = self.rate
        now = self._clock.now()
        times = self._recent.get(player)
        if times is None:
            if len(self._recent) > 10_000:  # nobody's old lines are kept for ever
                self._recent = {
                    p: t for p, t in self._recent.items() if t and now - t[-1] < seconds
                }
            times = self._recent[player] = deque(maxlen=max(1, most))
        while times and now - times[0] >= seconds:
            times.popleft()
        if len(times) >= most:
            wait = max(0.1, seconds - (now - times[0]))
            raise Refused(
                f"chat: at most {most} messages in {seconds:g} seconds; "
                f"wait {wait:.1f} s (your message was not sent)"
            )
        return times

    async def say(self, cmd: Chat, *, seat: int | None, hand_id: str | None) -> None:
        """Say ``cmd.text`` as ``cmd.player`` (at ``seat``, None: an observer) during
        ``hand_id``: kept, then shown; or Refused, nothing changed."""
        text = cmd.text.strip()
        if not text:
            raise Refused("chat: say something (the message is empty)")
        if seat is None and not self.observer_chat:
            raise Refused("only the players seated here may chat at this table")
        times = self._check_rate(cmd.player)
        line = ChatLine(
            table_id=self.table_id,
            hand_id=hand_id,
            player=cmd.player,
            text=text,
            said_at=self._clock.wall(),
        )
        try:
            await self._books.chat_said(line)
        except BooksFenced:
            raise
        except BooksRefused as exc:
            raise Refused(str(exc)) from None
        except Exception as exc:  # the books cannot be reached: nothing was said
            raise Refused(f"chat is unavailable for a moment ({exc}); try again") from None
        if times is not None:
            times.append(self._clock.now())
        self._emit(ChatSaid(cmd.player, text, seat, hand_id))
