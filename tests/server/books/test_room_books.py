"""The table's books on the room's database (RoomBooks): each call is one durable
step through the writer (chips and seat together, a hand's whole end together),
refusals write nothing, a hand is kept once, and a table plays bot hands on them.

Each test runs on a fresh SQLite file and on PostgreSQL (the shared ``engine`` and
``ledger`` fixtures).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest
from sqlalchemy import Engine, event

from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.hand import Hand
from stud8.core.rules import TableRules
from stud8.formats.record import HandRecord
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger, bank, rake_account, table_account
from stud8.server.books.room import RoomBooks
from stud8.server.books.seats import StoredSeat, TableStore
from stud8.server.books.writer import RoomWriter
from stud8.server.clock import ManualClock
from stud8.server.table.books import BooksRefused, HandEnd, HandNote
from stud8.server.table.commands import SeatBot
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableConfig

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, rake_percent=Fraction(5))
NAMES = {1: "ann", 2: "bob"}


def on_books(ledger: Ledger, body: Callable[[RoomBooks], Awaitable[None]]) -> None:
    """Run ``body`` with RoomBooks on ``ledger``; the writer is closed after."""
    writer = RoomWriter(ledger.engine)

    async def main() -> None:
        await asyncio.wait_for(body(RoomBooks(ledger, writer)), 60)

    try:
        asyncio.run(main())
    finally:
        writer.close()


def commits(engine: Engine) -> list[int]:
    """A list that grows by one at each commit on ``engine``."""
    seen: list[int] = []

    @event.listens_for(engine, "commit")
    def _commit(_conn: Any) -> None:
        seen.append(1)

    return seen


def played_hand(hand_id: str, seed: int, stacks: dict[int, int]) -> Hand:
    """A hand played to its end: seat 1 bets and completes whenever he may, seat 2
    calls (or brings in)."""
    hand = Hand.start(rules=RULES, stacks=stacks, deck=Deck.seeded(seed), hand_id=hand_id)
    while not hand.is_over:
        legal = {a.kind: a for a in hand.legal_actions()}
        order: tuple[ActionKind, ...] = (ActionKind.BRING_IN, ActionKind.CALL, ActionKind.CHECK)
        if hand.to_act == 1:
            order = (ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET, *order[1:])
        kind = next(k for k in order if k in legal)
        amount = legal[kind].min_to if kind in (ActionKind.COMPLETE, ActionKind.BET) else None
        hand.apply(make_action(kind.value, amount))
    return hand


def end_of(hand: Hand) -> HandEnd:
    return HandEnd.of(hand, NAMES, HandRecord.from_hand(hand, names=NAMES, table="t1"))


def test_sit_top_up_and_stand_move_the_chips_and_the_seat_together(ledger: Ledger) -> None:
    ledger.grant("ann", 500)
    seats = TableStore(ledger.engine)

    async def body(books: RoomBooks) -> None:
        await books.sit("t1", 3, "ann", 200)
        assert ledger.balance(bank("ann")) == 300
        assert ledger.balance(table_account("t1", "ann")) == 200
        # the seat kept with the stack his auto top-up tops up to: his buy-in...
        assert seats.seats("t1") == [StoredSeat(3, "ann", False, 200)]
        await books.top_up("t1", 3, "ann", 50)
        assert ledger.balance(table_account("t1", "ann")) == 250
        # ...raised by his own top-up, never by an auto top-up
        assert seats.seats("t1") == [StoredSeat(3, "ann", False, 250)]
        assert await books.top_up("t1", 3, "ann", 30, partial=True) == 30
        assert seats.seats("t1") == [StoredSeat(3, "ann", False, 250)]
        await books.stand("t1", 3, "ann", 280)
        assert ledger.balance(bank("ann")) == 500
        assert ledger.balance(table_account("t1", "ann")) == 0
        assert seats.seats("t1") == []
        # a bot's chips are issued with its seat
        await books.sit("t1", 5, "bot7", 120, bot=True)
        assert ledger.balance(table_account("t1", "bot7")) == 120
        assert seats.seats("t1") == [StoredSeat(5, "bot7", True, 120)]

    on_books(ledger, body)
    report = ledger.audit()
    assert report.ok and report.issued == 620


def test_a_refusal_is_books_refused_and_writes_nothing(ledger: Ledger) -> None:
    ledger.grant("ann", 100)
    seats = TableStore(ledger.engine)

    async def body(books: RoomBooks) -> None:
        with pytest.raises(BooksRefused, match="cannot pay"):
            await books.sit("t1", 1, "ann", 101)
        with pytest.raises(BooksRefused, match="no account"):
            await books.sit("t1", 2, "ghost", 10)
        assert seats.seats("t1") == []  # no seat without its chips
        await books.sit("t1", 1, "ann", 60)
        with pytest.raises(BooksRefused):
            await books.stand("t1", 1, "ann", 61)
        assert seats.seats("t1") == [StoredSeat(1, "ann", False, 60)]  # still seated
        with pytest.raises(BooksRefused, match="positive"):
            await books.top_up("t1", 1, "ann", 0)
        unbalanced = HandEnd(
            hand_id="h1",
            table_id="t1",
            cancelled=False,
            contributions={"ann": 5},
            payouts={"ann": 6},
            rake=0,
            record=HandRecord.from_hand(played_hand("h1", 1, {1: 60, 2: 60}), table="t1"),
        )
        with pytest.raises(BooksRefused, match="contributions 5 != payouts and rake 6"):
            await books.hand_ended(unbalanced)

    on_books(ledger, body)
    assert ledger.hand_transaction("h1") is None
    assert HandStore(ledger.engine).fetch("h1") is None  # nor its record
    assert ledger.balance(bank("ann")) == 40
    assert ledger.audit().ok


def test_a_hand_s_end_is_one_transaction_with_gross_amounts(ledger: Ledger) -> None:
    """Its settlement (every contribution in, every payout and the rake out: gross
    amounts, as the ledger promises), its record and the removal of its note: one
    commit. A repeat changes nothing."""
    for name in NAMES.values():
        ledger.grant(name, 1000)
    hand = next(
        h
        for seed in range(1, 50)
        if (h := played_hand("h1", seed, {1: 100, 2: 100})).result
        and h.result.rake > 0
        and len(h.result.pots[0].high) == 1
    )
    result = hand.result
    assert result is not None
    end = end_of(hand)
    assert sum(end.contributions.values()) == sum(end.payouts.values()) + result.rake
    store = HandStore(ledger.engine)
    seen = commits(ledger.engine)

    async def body(books: RoomBooks) -> None:
        for seat, name in NAMES.items():
            await books.sit("t1", seat, name, 100)
        note = HandNote(
            hand_id="h1",
            table_id="t1",
            seats=((1, "ann", 100), (2, "bob", 100)),
            started_at=datetime.now(UTC),
        )
        await books.hand_dealt(note)
        assert [h.hand_id for h in store.in_progress()] == ["h1"]
        before = len(seen)
        await books.hand_ended(end)
        assert len(seen) == before + 1  # one transaction
        await books.hand_ended(end)  # applied once

    on_books(ledger, body)
    assert store.in_progress() == []
    found = store.fetch("h1")
    assert found is not None and found.record is not None and not found.cancelled
    settled = ledger.hand_transaction("h1")
    assert settled is not None and settled[1] == "hand_settlement"
    legs = ledger.entries(settled[0])
    put_in = {name: -a for name, a in legs if name.startswith("table:") and a < 0}
    paid = {name: a for name, a in legs if name.startswith("table:") and a > 0}
    # gross: both players' whole contributions go in, the winner's whole pot comes out
    assert put_in == {table_account("t1", n): c for n, c in end.contributions.items() if c}
    assert paid == {table_account("t1", n): c for n, c in end.payouts.items() if c}
    assert len(put_in) == 2 and len(paid) == 1
    assert sum(a for name, a in legs if name == "pot:t1") == 0
    assert (rake_account("t1"), result.rake) in legs
    for seat, name in NAMES.items():
        assert ledger.balance(table_account("t1", name)) == result.stacks[seat]
    assert ledger.audit().ok


def test_a_cancelled_hand_is_refunded_with_its_record(ledger: Ledger) -> None:
    for name in NAMES.values():
        ledger.grant(name, 1000)
    hand = Hand.start(rules=RULES, stacks={1: 100, 2: 100}, deck=Deck.seeded(2), hand_id="h2")
    hand.apply(make_action("bring_in"))
    hand.cancel("the table is closing")

    async def body(books: RoomBooks) -> None:
        for seat, name in NAMES.items():
            await books.sit("t1", seat, name, 100)
        await books.hand_ended(end_of(hand))

    on_books(ledger, body)
    refund = ledger.hand_transaction("h2")
    assert refund is not None and refund[1] == "refund"
    found = HandStore(ledger.engine).fetch("h2")
    assert found is not None and found.cancelled and found.record is not None
    assert ledger.balances("table:") == {"table:t1:ann": 100, "table:t1:bob": 100}


def test_a_table_plays_bot_hands_on_the_database(ledger: Ledger) -> None:
    """Bots play at a real table on RoomBooks: each hand noted before it is dealt,
    kept whole at its end; between hands the table's stacks are the ledger's."""
    names = ("b1", "b2", "b3")
    store = HandStore(ledger.engine)
    seeds = itertools.count(1)
    noted: list[set[str]] = []

    async def body(books: RoomBooks) -> None:
        clock = ManualClock()
        table = Table(
            TableConfig(table_id="t1", rules=RULES, min_buy_in=20, max_buy_in=200, bot_delay=0.0),
            books=books,
            clock=clock,
            deck_source=lambda: Deck.seeded(next(seeds)),
            bot_seed=3,
        )

        def deliver(item: Any) -> None:
            if item.event.kind == "hand_start":  # the note is there before the deal
                noted.append({h.hand_id for h in store.in_progress()})
                assert item.event.hand_id in noted[-1]

        table.listen(deliver)
        table.start()
        try:
            while table.hands_played < 8:
                for number, name in enumerate(names, start=1):  # refill a broke bot's seat
                    if number not in table.seats:
                        reply = await table.submit(SeatBot(player=name, seat=number, amount=200))
                        assert reply.ok, reply
                await table.settled()
                clock.advance(2.0)
                await table.settled()
                if table.hand is None:
                    for sitting in table.seats.values():
                        at_table = ledger.balance(table_account("t1", sitting.player))
                        assert sitting.chips == at_table
        finally:
            await table.stop()

    on_books(ledger, body)
    assert len(noted) >= 8
    report = ledger.audit()
    assert report.ok, report
    assert store.count() >= 8
    assert store.in_progress() == []  # each note closed with its record
    for hand_id in store.hands_of("b1", limit=3):
        assert ledger.hand_transaction(hand_id) is not None
