"""The table's books: the one port through which a table changes the world.

A table never writes to a database, a ledger or a file itself. Everything it does
that must outlive it goes through one :class:`TableBooks`, each call returning once
what it asked is **durable** (or raising):

- :meth:`~TableBooks.sit`: a player (or a bot, whose chips are issued in the same
  step) buys in and takes a seat: the chips leave his account and the seat is
  his, together or not at all. :class:`BooksRefused` if he cannot pay;
- :meth:`~TableBooks.top_up`: more chips from his account, between hands (his
  command, or the table's auto top-up, which takes what his bank holds);
- :meth:`~TableBooks.stand`: he leaves the seat and his chips go back to his
  account, together;
- :meth:`~TableBooks.hand_dealt`: a hand is noted before a card of it is dealt,
  so that a restart finds and cancels a hand the table did not finish
  (RULES.md section 7);
- :meth:`~TableBooks.hand_ended`: a finished or cancelled hand, as ONE
  :class:`HandEnd` (its gross amounts, its rake, its record) that the books keep in
  one step: its settlement (or refund), its history and the removal of its note;
- :meth:`~TableBooks.chat_said`: a line of the table's chat (:class:`ChatLine`),
  kept on the hands' time line before anyone is shown it; :class:`BooksRefused`
  if an operator has silenced the player.

**A finished hand is announced only once its end is durable.** The table holds
back the events of the action that ended the hand (the showdown, the pots
awarded) until :meth:`~TableBooks.hand_ended` has returned, so no player is ever
shown a result that a restart could cancel: a server that dies before the
settlement is written dies before anyone saw the result, and the restart cancels
a hand nobody saw end. A settlement that cannot be written is never dropped: the
table stops dealing, says so, and retries until it lands (:mod:`stud8.server.table.owner`).

The room implements the port over its database (:class:`stud8.server.books.room.RoomBooks`),
tests and the room in memory with :class:`stud8.server.books.memory.MemoryBooks`.

>>> from stud8.core import BringIn, Deck, Fold, Hand, TableRules
>>> rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
>>> hand = Hand.start(rules=rules, stacks={1: 50, 2: 50}, deck=Deck.from_cards("As Kd 2c 3c 9h 8h"))
>>> _ = hand.apply(BringIn())  # seat 2, the 8h showing
>>> _ = hand.apply(Fold())  # seat 1; bob's bring-in, uncalled, comes back
>>> gross_amounts(hand.result, {1: "ann", 2: "bob"})
({'ann': 1, 'bob': 1}, {'bob': 2})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from stud8.core.events import HandCancelled
from stud8.core.hand import Hand
from stud8.core.showdown import HandResult
from stud8.formats.record import HandRecord

__all__ = [
    "BooksDiverged",
    "BooksFenced",
    "BooksRefused",
    "ChatLine",
    "HandEnd",
    "HandNote",
    "TableBooks",
    "gross_amounts",
]


class BooksRefused(Exception):
    """The books refused a movement (not enough chips, an unknown account...):
    nothing was written, and the table refuses the command that asked for it."""


class BooksFenced(Exception):
    """The table belongs to another node now (a room on several nodes: this node
    lost its lease and another took the table over): nothing was written, and this
    node must stop running the table without touching its hand or its seats, which
    are the new owner's (:mod:`stud8.server.books.fencing`)."""


class BooksDiverged(Exception):
    """The books and the table disagree about a hand's end; the ledger is right.

    ``written``: False when the books refused the end (the hand was settled or
    refunded otherwise before: nothing of it was written), True when it was written
    and the check in the same transaction found the table's accounts different from
    the table's stacks. ``ledger``: each seated player's chips at the table as the
    ledger holds them, for the table to take. The table stops dealing (its
    ``paused`` says why) until an operator restarts it: a difference nobody
    explains must not be played on."""

    def __init__(self, reason: str, *, written: bool, ledger: Mapping[str, int]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.written = written
        self.ledger = dict(ledger)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandNote:
    """A hand about to be dealt: each seat dealt in, his player and starting stack."""

    hand_id: str
    table_id: str
    seats: tuple[tuple[int, str, int], ...]  # (seat, player, chips), by seat
    started_at: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class ChatLine:
    """A line of a table's chat: who said what, when, during which hand (None:
    between hands)."""

    table_id: str
    hand_id: str | None
    player: str
    text: str
    said_at: datetime


def gross_amounts(
    result: HandResult, players: Mapping[int, str]
) -> tuple[dict[str, int], dict[str, int]]:
    """A finished hand's gross amounts: what each player put into the pots (his
    starting stack, less his final stack, plus what he won) and what each took
    out of them (his share of every pot, high and low). Their difference is the
    rake: sum(contributions) == sum(payouts) + rake."""
    payouts: dict[str, int] = {}
    for pot in result.pots:
        for seat, chips in (*pot.high, *pot.low):
            payouts[players[seat]] = payouts.get(players[seat], 0) + chips
    contributions = {
        players[seat]: start - result.stacks[seat] + payouts.get(players[seat], 0)
        for seat, start in result.starting_stacks.items()
    }
    return contributions, payouts


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnd:
    """A finished (or cancelled) hand as the books keep it, in one step.

    ``contributions`` is what each player put in, ``payouts`` what each took out
    (gross amounts, see :func:`gross_amounts`), ``rake`` the house's share. A
    cancelled hand gives back every contribution: its payouts equal its
    contributions and it has no rake. ``stacks``: the chips of every player seated
    at the table once the hand is over, as the table holds them (the books check
    them against the ledger in the same step); None: not checked (a tournament's
    table, whose chips are not the ledger's)."""

    hand_id: str
    table_id: str
    cancelled: bool
    contributions: Mapping[str, int]
    payouts: Mapping[str, int]
    rake: int
    record: HandRecord
    stacks: Mapping[str, int] | None = None

    @classmethod
    def of(
        cls,
        hand: Hand,
        players: Mapping[int, str],
        record: HandRecord,
        *,
        stacks: Mapping[str, int] | None = None,
    ) -> HandEnd:
        """The end of ``hand`` (over: finished or cancelled); ``players`` names the
        player in each seat dealt in; ``stacks`` (see the class) the seats' chips after it."""
        if hand.cancelled:
            cancel = next(e for e in reversed(hand.events) if isinstance(e, HandCancelled))
            back = {players[seat]: chips for seat, chips in cancel.refunds}
            return cls(
                hand_id=hand.hand_id,
                table_id=record.table,
                cancelled=True,
                contributions=back,
                payouts=dict(back),
                rake=0,
                record=record,
                stacks=stacks,
            )
        result = hand.result
        if result is None:
            raise ValueError(f"hand {hand.hand_id} is not over")
        contributions, payouts = gross_amounts(result, players)
        return cls(
            hand_id=hand.hand_id,
            table_id=record.table,
            cancelled=False,
            contributions=contributions,
            payouts=payouts,
            rake=result.rake,
            record=record,
            stacks=stacks,
        )


class TableBooks(Protocol):
    """What a table needs of the world (see the module). Each call returns once what
    it asked is durable; :class:`BooksRefused` when it is refused (nothing written);
    any other exception when the books could not be reached (nothing to assume:
    the table tries again)."""

    async def sit(
        self, table_id: str, seat: int, player: str, amount: int, *, bot: bool = False
    ) -> None:
        """``amount`` from ``player``'s account to his seat, and the seat his (a
        bot's chips are issued first)."""
        ...

    async def top_up(
        self, table_id: str, seat: int, player: str, amount: int, *, partial: bool = False
    ) -> int:
        """``amount`` more from his account to his chips at the table; the chips
        moved. ``partial`` (an auto top-up): as much of ``amount`` as his bank holds,
        read in the same step (0: an empty bank, nothing written)."""
        ...

    async def stand(self, table_id: str, seat: int, player: str, chips: int) -> None:
        """He leaves ``seat``; his ``chips`` there (all of them; maybe 0) go back to
        his account."""
        ...

    async def hand_dealt(self, note: HandNote) -> None:
        """Note a hand before its cards are dealt (a restart cancels it if it is
        still noted then)."""
        ...

    async def hand_ended(self, end: HandEnd) -> None:
        """Keep a finished or cancelled hand: its settlement or refund, its record
        and the removal of its note, in one step. Applied once per hand id (the same
        end again changes nothing); :class:`BooksDiverged` if the hand was closed
        otherwise, or if the ledger's chips at the table differ from ``end.stacks``."""
        ...

    async def chat_said(self, line: ChatLine) -> None:
        """Keep a line of the table's chat; :class:`BooksRefused` (nothing kept) if
        its player is silenced."""
        ...
