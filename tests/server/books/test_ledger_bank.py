"""The table's chip bank over the real ledger: each method, the refusals, hands
keyed by id, and a table playing bot hands on it with its records stored.

Runs on a fresh SQLite file, and on PostgreSQL too when
``STUD8_TEST_POSTGRES_URL`` names a database the tests may wipe.
"""

from __future__ import annotations

import asyncio
import itertools
import os

import pytest

from stud8.core.cards import Deck
from stud8.core.rules import TableRules
from stud8.server.books.bank import BankError
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import Ledger, bank, table_account
from stud8.server.books.ledger_bank import LedgerBank
from stud8.server.clock import ManualClock
from stud8.server.table.commands import SeatBot, TableConfig
from stud8.server.table.owner import Table

POSTGRES_URL = os.environ.get("STUD8_TEST_POSTGRES_URL", "")
NO_POSTGRES = "STUD8_TEST_POSTGRES_URL is not set (the CI script sets it to a scratch database)"


def test_buy_in_top_up_cash_out_move_chips_in_the_ledger(ledger: Ledger) -> None:
    chips = LedgerBank(ledger)
    ledger.grant("ann", 500)

    async def body() -> None:
        await chips.buy_in("ann", "t1", 3, 200)
        assert ledger.balance(bank("ann")) == 300
        assert ledger.balance(table_account("t1", "ann")) == 200
        await chips.top_up("ann", "t1", 3, 50)
        assert ledger.balance(table_account("t1", "ann")) == 250
        await chips.cash_out("ann", "t1", 3, 250)
        assert ledger.balance(bank("ann")) == 500
        assert ledger.balance(table_account("t1", "ann")) == 0

    asyncio.run(body())
    assert ledger.audit().ok


def test_refusals_are_bank_errors_and_write_nothing(ledger: Ledger) -> None:
    chips = LedgerBank(ledger)
    ledger.grant("ann", 100)

    async def body() -> None:
        with pytest.raises(BankError, match="cannot pay"):
            await chips.buy_in("ann", "t1", 1, 101)
        with pytest.raises(BankError, match="no account"):
            await chips.buy_in("ghost", "t1", 2, 10)
        await chips.buy_in("ann", "t1", 1, 60)
        with pytest.raises(BankError):
            await chips.cash_out("ann", "t1", 1, 61)
        with pytest.raises(BankError, match="positive"):
            await chips.top_up("ann", "t1", 1, 0)
        ledger.grant("bob", 100)
        await chips.buy_in("bob", "t1", 2, 60)
        with pytest.raises(
            BankError, match="contributions 5 != payouts and rake 6"
        ):  # unbalanced: 5 lost, 6 won
            await chips.settle_hand("h1", "t1", {"ann": -5, "bob": 6}, 0)
        with pytest.raises(BankError, match="cannot pay"):  # more than his stack
            await chips.settle_hand("h1", "t1", {"ann": -61, "bob": 61}, 0)

    asyncio.run(body())
    assert ledger.hand_transaction("h1") is None
    assert ledger.balance(bank("ann")) == 40
    assert ledger.balance(table_account("t1", "ann")) == 60
    assert ledger.audit().ok


def test_a_hand_is_settled_or_refunded_once(ledger: Ledger) -> None:
    chips = LedgerBank(ledger)
    for name in ("ann", "bob"):
        ledger.grant(name, 100)

    async def body() -> None:
        await chips.buy_in("ann", "t1", 1, 60)
        await chips.buy_in("bob", "t1", 2, 50)
        await chips.settle_hand("h1", "t1", {"ann": -5, "bob": 4}, 1)
        await chips.settle_hand("h1", "t1", {"ann": -5, "bob": 4}, 1)
        await chips.refund_hand("h1", "t1", {"ann": 5, "bob": 1})  # settled: no-op
        await chips.refund_hand("h2", "t1", {"ann": 3, "bob": 3})
        await chips.refund_hand("h2", "t1", {"ann": 3, "bob": 3})
        await chips.settle_hand("h2", "t1", {"ann": -3, "bob": 3}, 0)  # refunded: no-op

    asyncio.run(body())
    assert ledger.hand_transaction("h1") is not None
    assert ledger.hand_transaction("h1")[1] == "hand_settlement"  # type: ignore[index]
    assert ledger.hand_transaction("h2")[1] == "refund"  # type: ignore[index]
    assert ledger.balances("table:") == {"table:t1:ann": 55, "table:t1:bob": 54}
    report = ledger.audit()
    assert report.ok and report.rake == 1


def test_hand_started_notes_the_hand(ledger: Ledger) -> None:
    store = HandStore(ledger.engine)
    chips = LedgerBank(ledger, store)
    asyncio.run(chips.hand_started("h9", "t1", {1: ("ann", 60), 4: ("bob", 50)}))
    [noted] = store.in_progress()
    assert (noted.hand_id, noted.table, noted.players) == ("h9", "t1", {"ann": 60, "bob": 50})
    with pytest.raises(RuntimeError):
        asyncio.run(LedgerBank(ledger).hand_started("h10", "t1", {}))


def test_a_table_plays_bot_hands_on_the_ledger(ledger: Ledger) -> None:
    """Bots play hands at a real table whose bank is the ledger and whose record
    sink is the hand store; the books balance and every hand is stored."""
    names = ("b1", "b2", "b3")
    store = HandStore(ledger.engine)
    for name in names:
        ledger.grant(name, 10_000)
    seeds = itertools.count(1)

    async def body() -> None:
        clock = ManualClock()
        table = Table(
            TableConfig(
                table_id="t1",
                rules=TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8),
                min_buy_in=20,
                max_buy_in=200,
                between_hands=1.0,
                bot_delay=0.0,
            ),
            bank=LedgerBank(ledger, store),
            clock=clock,
            deck_source=lambda: Deck.seeded(next(seeds)),
            record_sink=store,
            bot_seed=3,
        )
        store.watch(table)
        table.start()
        try:
            for seat, name in enumerate(names, start=1):
                reply = await table.submit(SeatBot(player=name, seat=seat, amount=200))
                assert reply.ok, reply
            while table.hands_played < 8:
                await table.settled()
                clock.advance(1.0)
                await table.settled()
                if table.hand is None:
                    for sitting in table.seats.values():
                        at_table = ledger.balance(table_account("t1", sitting.player))
                        assert sitting.chips == at_table
                for number in range(1, 4):  # refill a broke bot's seat
                    if number not in table.seats:
                        name = names[number - 1]
                        await table.submit(SeatBot(player=name, seat=number, amount=200))
        finally:
            await table.stop()

    asyncio.run(asyncio.wait_for(body(), timeout=120))
    report = ledger.audit()
    assert report.ok, report
    assert report.issued == 30_000
    assert store.count() >= 8
    assert store.in_progress() == []  # each note closed with its record
    for hand_id in store.hands_of("b1", limit=3):
        assert ledger.hand_transaction(hand_id) is not None
