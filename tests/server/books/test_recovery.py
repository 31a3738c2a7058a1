"""Crash recovery: a hand cut short by a crash is cancelled at the next start,
its chips are where they were when it was dealt, the books balance, the
cancellation is recorded, and a second recovery does nothing.

Runs on a fresh SQLite file, and on PostgreSQL too when
``STUD8_TEST_POSTGRES_URL`` names a database the tests may wipe.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.rules import TableRules
from stud8.formats.pokerstars.write import hand_number
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import HandMoney, Ledger, bank, table_account
from stud8.server.books.recovery import CANCELLED_NOTE, SETTLED_NOTE, cut_short_at, recover
from stud8.server.books.room import RoomBooks
from stud8.server.books.writer import RoomWriter
from stud8.server.clock import ManualClock
from stud8.server.storage import create_engine_for
from stud8.server.table.commands import Act, Sit
from stud8.server.table.events import HandRefunded
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableConfig

POSTGRES_URL = os.environ.get("STUD8_TEST_POSTGRES_URL", "")
NO_POSTGRES = "STUD8_TEST_POSTGRES_URL is not set (the CI script sets it to a scratch database)"
RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)


@pytest.fixture
def fresh(migrated_url: str) -> Iterator[tuple[Ledger, HandStore]]:
    """The room after a restart: a new engine on the same database."""
    engine = create_engine_for(migrated_url)
    yield Ledger(engine), HandStore(engine)
    engine.dispose()


def crash_mid_hand(url: str) -> tuple[str, dict[str, int]]:
    """Run a table on the database until a hand has antes, a bring-in and a
    completion in, then stop everything without finishing it (as SIGKILL would:
    nothing after this point reaches the database). Returns the hand id and the
    stacks at its start."""
    engine = create_engine_for(url)
    ledger = Ledger(engine)
    for name in ("ann", "bob", "cat"):
        ledger.grant(name, 1000)

    async def body() -> tuple[str, dict[str, int]]:
        clock = ManualClock()
        table = Table(
            TableConfig(
                table_id="t1", rules=RULES, min_buy_in=20, max_buy_in=200, between_hands=1.0
            ),
            books=RoomBooks(ledger, writer),
            clock=clock,
            deck_source=lambda: Deck.seeded(7),
        )
        table.start()
        try:
            for seat, (name, chips) in enumerate((("ann", 150), ("bob", 120), ("cat", 90)), 1):
                assert (await table.submit(Sit(player=name, seat=seat, amount=chips))).ok
            await table.settled()
            clock.advance(1.0)
            await table.settled()
            hand = table.hand
            assert hand is not None
            start = {table.seats[s].player: c for s, c in hand.setup.stacks}
            for kind in (ActionKind.BRING_IN, ActionKind.COMPLETE):
                to_act = hand.to_act
                assert to_act is not None
                amount = next(a.min_to for a in hand.legal_actions() if a.kind is kind)
                player = table.seats[to_act].player
                reply = await table.submit(
                    Act(player=player, action=make_action(kind.value, amount))
                )
                assert reply.ok, reply
            assert sum(hand.contributed(s) for s in hand.seats) == 3 + 2 + 4  # antes, bets in
            return hand.hand_id, start
        finally:
            await table.stop()  # the hand is left as it is

    writer = RoomWriter(engine)
    try:
        return asyncio.run(body())
    finally:
        writer.close()
        engine.dispose()


def test_a_hand_cut_short_is_cancelled_and_every_chip_is_back(
    migrated_url: str, fresh: tuple[Ledger, HandStore]
) -> None:
    hand_id, start = crash_mid_hand(migrated_url)
    ledger, store = fresh
    assert [h.hand_id for h in store.in_progress()] == [hand_id]

    report = recover(ledger.engine, ledger)
    assert report.ok, report
    assert report.cancelled == (hand_id,)
    [closed] = report.hands
    assert (closed.table, closed.outcome, closed.stacks) == ("t1", "refunded", start)
    assert report.tables == {"t1": start}  # the tables come back with these chips
    for player, chips in start.items():
        assert ledger.balance(table_account("t1", player)) == chips
        assert ledger.balance(bank(player)) == 1000 - chips
    assert report.audit.ok and report.audit.issued == 3000 == report.audit.held

    done = ledger.hand_transaction(hand_id)
    assert done is not None and done[1] == "refund"
    assert ledger.entries(done[0]) == []  # nothing had moved, nothing moves back
    found = store.fetch(hand_id)
    assert found is not None and found.cancelled and found.record is None
    assert found.note == CANCELLED_NOTE
    assert {s.player: s.stack for s in found.seats} == start
    assert store.hands_of("bob") == [hand_id]
    assert store.pokerstars_for("bob") == ""  # no history to show, and no error
    assert store.in_progress() == []

    again = recover(ledger.engine, ledger)
    assert again.ok and again.hands == () and again.tables == report.tables
    assert again.audit.transactions == report.audit.transactions


def test_a_hand_settled_before_the_crash_keeps_its_settlement(
    fresh: tuple[Ledger, HandStore],
) -> None:
    """The crash came after the ledger settled the hand but before its record was
    stored: the settlement stands and the hand is recorded as settled."""
    ledger, store = fresh
    for name in ("ann", "bob"):
        ledger.grant(name, 500)
        ledger.buy_in(name, "t2", 100)
    store.begin("h-settled", "t2", {1: ("ann", 100), 2: ("bob", 100)})
    ledger.settle_hand("h-settled", "t2", HandMoney({"ann": 10}, {"bob": 9}, 1))
    store.begin("h-open", "t2", {1: ("ann", 90), 2: ("bob", 109)})

    report = recover(ledger.engine, ledger, store)
    assert report.ok, report
    outcomes = {h.hand_id: h.outcome for h in report.hands}
    assert outcomes == {"h-settled": "settled", "h-open": "refunded"}
    assert report.tables == {"t2": {"ann": 90, "bob": 109}}
    assert report.audit.rake == 1
    settled = store.fetch("h-settled")
    assert settled is not None and not settled.cancelled and settled.note == SETTLED_NOTE
    assert ledger.hand_transaction("h-settled")[1] == "hand_settlement"  # type: ignore[index]
    assert ledger.hand_transaction("h-open")[1] == "refund"  # type: ignore[index]
    assert recover(ledger.engine, ledger, store).hands == ()
    # the table that comes back tells the hand the restart cancelled, not the settled
    # one, and so does it after another restart (it is read from the stored hands)
    told = (HandRefunded("h-open", str(hand_number("h-open"))),)
    assert cut_short_at(store, "t2") == told
    assert cut_short_at(HandStore(ledger.engine), "t2") == told
    assert cut_short_at(store, "t1") == ()


def test_nothing_to_recover_after_a_clean_run(fresh: tuple[Ledger, HandStore]) -> None:
    ledger, _ = fresh
    ledger.grant("ann", 100)
    report = recover(ledger.engine, ledger)
    assert report.ok and report.hands == () and report.tables == {}
    assert "0 unfinished hand(s) closed" in str(report)
