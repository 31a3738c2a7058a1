"""The table's books in memory: :class:`MemoryBooks`, for tests (``runtime.memory_app``).

The same books as the room's database keeps (:mod:`stud8.server.books.room`), held
in memory and lost with the process: each player's account, his chips at each
table, the rake, every hand settled or refunded (once per hand id), who sits
where, and the hand records (:class:`~stud8.server.books.memory_hands.MemoryHandStore`,
which answers ``GET /api/v1/hands``). Every call of the
:class:`~stud8.server.table.books.TableBooks` port is durable at once (there is
nothing to wait for).

Chips at a table stay the player's while he plays: a hand moves them only when it
ends. The invariant (:meth:`MemoryBooks.audit`): accounts + chips on tables + rake
= every chip ever issued.

>>> import asyncio
>>> books = MemoryBooks({"ann": 100, "bob": 100})
>>> asyncio.run(books.sit("t1", 1, "ann", 60))
>>> asyncio.run(books.sit("t1", 2, "bob", 50))
>>> books.balance("ann"), books.on_table("t1", "ann"), books.seats["t1"]
(40, 60, {1: 'ann', 2: 'bob'})
>>> asyncio.run(books.sit("t1", 3, "cat", 10))
Traceback (most recent call last):
...
stud8.server.table.books.BooksRefused: cat has 0 chips in his account, not 10
>>> books.audit()
True
"""

from __future__ import annotations

from collections.abc import Mapping

from stud8.server.books.chat import ChatSilenced, MemoryChat
from stud8.server.books.memory_hands import MemoryHandStore
from stud8.server.table.books import BooksRefused, ChatLine, HandEnd, HandNote


class MemoryBooks:
    """The :class:`~stud8.server.table.books.TableBooks` port in memory."""

    def __init__(
        self, accounts: Mapping[str, int] | None = None, hands: MemoryHandStore | None = None
    ) -> None:
        self._accounts: dict[str, int] = dict(accounts or {})
        self._tables: dict[tuple[str, str], int] = {}
        self.issued = sum(self._accounts.values())
        self.rake = 0
        self.hands = hands if hands is not None else MemoryHandStore()
        self.seats: dict[str, dict[int, str]] = {}  # table -> seat -> player
        self.noted: dict[str, HandNote] = {}  # hands dealt and not ended
        self.ended: dict[str, HandEnd] = {}  # hands settled or refunded, by id
        self.journal: list[tuple[str, ...]] = []
        self.chat = MemoryChat()  # the tables' chat, and who is silenced

    # ------------------------------------------------------------ accounts
    def issue(self, player: str, amount: int) -> None:
        """New chips for a player's account (an account's opening grant)."""
        self._check_amount(amount)
        self._accounts[player] = self._accounts.get(player, 0) + amount
        self.issued += amount

    def balance(self, player: str) -> int:
        return self._accounts.get(player, 0)

    def on_table(self, table: str, player: str) -> int:
        return self._tables.get((table, player), 0)

    def audit(self) -> bool:
        """accounts + chips on tables + rake == issued, and nothing negative."""
        if any(v < 0 for v in self._accounts.values()) or any(v < 0 for v in self._tables.values()):
            return False
        return sum(self._accounts.values()) + sum(self._tables.values()) + self.rake == self.issued

    @staticmethod
    def _check_amount(amount: int) -> None:
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise BooksRefused(
                f"an amount must be a whole positive number of chips, got {amount!r}"
            )

    def _move_in(self, player: str, table: str, amount: int) -> None:
        self._check_amount(amount)
        have = self._accounts.get(player, 0)
        if have < amount:
            raise BooksRefused(f"{player} has {have} chips in his account, not {amount}")
        self._accounts[player] = have - amount
        key = (table, player)
        self._tables[key] = self._tables.get(key, 0) + amount

    @property
    def settled(self) -> dict[str, HandEnd]:
        """The hands settled, by id, in the order they ended."""
        return {h: end for h, end in self.ended.items() if not end.cancelled}

    @property
    def refunded(self) -> dict[str, HandEnd]:
        """The hands cancelled (every chip back), by id."""
        return {h: end for h, end in self.ended.items() if end.cancelled}

    # ------------------------------------------------------------ the port
    async def sit(
        self, table_id: str, seat: int, player: str, amount: int, *, bot: bool = False
    ) -> None:
        if bot:
            self.issue(player, amount)
        self._move_in(player, table_id, amount)
        self.seats.setdefault(table_id, {})[seat] = player
        self.journal.append(("sit", player, table_id, str(seat), str(amount)))

    async def top_up(
        self, table_id: str, seat: int, player: str, amount: int, *, partial: bool = False
    ) -> int:
        chips = min(amount, self._accounts.get(player, 0)) if partial else amount
        if chips <= 0 and partial:
            return 0
        self._move_in(player, table_id, chips)
        self.journal.append(("top_up", player, table_id, str(seat), str(chips)))
        return chips

    async def stand(self, table_id: str, seat: int, player: str, chips: int) -> None:
        key = (table_id, player)
        have = self._tables.get(key, 0)
        if chips != have:
            raise BooksRefused(f"{player} has {have} chips at {table_id}, not {chips}")
        self._tables.pop(key, None)
        self._accounts[player] = self._accounts.get(player, 0) + chips
        if self.seats.get(table_id, {}).get(seat) == player:
            del self.seats[table_id][seat]
        self.journal.append(("stand", player, table_id, str(seat), str(chips)))

    async def hand_dealt(self, note: HandNote) -> None:
        self.noted[note.hand_id] = note
        self.journal.append(("dealt", note.hand_id, note.table_id))

    async def hand_ended(self, end: HandEnd) -> None:
        if end.hand_id in self.ended:
            return  # applied once
        put_in, taken = sum(end.contributions.values()), sum(end.payouts.values())
        if end.rake < 0 or put_in != taken + end.rake:
            raise BooksRefused(
                f"hand {end.hand_id}: contributions {put_in} != payouts {taken} + rake {end.rake}"
            )
        table = end.table_id
        for player, chips in end.contributions.items():
            if self._tables.get((table, player), 0) < chips:
                raise BooksRefused(f"hand {end.hand_id}: {player} has not {chips} at {table}")
        for player, chips in end.contributions.items():
            self._tables[(table, player)] -= chips
        for player, chips in end.payouts.items():
            self._tables[(table, player)] = self._tables.get((table, player), 0) + chips
        self.rake += end.rake
        self.ended[end.hand_id] = end
        self.noted.pop(end.hand_id, None)
        self.hands.add(end.record)
        kind = "refund" if end.cancelled else "settle"
        self.journal.append((kind, end.hand_id, table))

    async def chat_said(self, line: ChatLine) -> None:
        try:
            self.chat.say(line)
        except ChatSilenced as exc:
            raise BooksRefused(str(exc)) from None
