"""The auto top-up (issue 28, item 7): a seated player whose account has it on and
who ends a hand below the buy-in he chose at the table is topped up to it from his
bank between hands (never during one: RULES.md 1, table stakes), as his own top-up
would be (the books' one
``top_up``); what the bank holds if it is short, nothing (said once) if it is empty;
nothing when it is off. On a manual clock with the books in memory, and once on a
database: the ledger's transaction, balanced, and the audit of the books against the
hands and the seats clean (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest
from sqlalchemy import select

from server.manualtable import ClockedTable
from server.roomdb import fresh_database
from server.tableharness import RULES, Harness, run
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.server.books.consistency import hands_and_seats
from stud8.server.books.ledger import Ledger
from stud8.server.books.room import RoomBooks
from stud8.server.books.seats import TableStore
from stud8.server.books.writer import RoomWriter
from stud8.server.clock import ManualClock
from stud8.server.storage import create_engine_for, upgrade
from stud8.server.storage.models import Transaction
from stud8.server.table.commands import Act, AutoTopUp, Connect, Disconnect, Sit, TopUp
from stud8.server.table.events import HandFinished, HandStarted, Numbered, ToppedUp
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableConfig, TableSpec

PASSIVE = (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)


def act(table: Table, player: str, kind: ActionKind, ids: itertools.count[int]) -> Act:
    return Act(player=player, action=make_action(kind.value, None), command_id=f"a{next(ids)}")


async def ann_loses_a_hand(
    h: ClockedTable, ids: itertools.count[int], *, folds_on: int = 3
) -> None:
    """Deal the next hand and play it: ann folds as soon as she may from street
    ``folds_on`` on (she loses her ante at least), the others check or call."""
    await h.advance(5)
    while (hand := h.table.hand) is not None:
        seat = hand.to_act
        assert seat is not None
        player = h.table.seats[seat].player
        legal = {a.kind for a in hand.legal_actions()}
        if player == "ann" and ActionKind.FOLD in legal and hand.street >= folds_on:
            kind = ActionKind.FOLD
        else:
            kind = next(k for k in PASSIVE if k in legal)
        reply = await h.send(act(h.table, player, kind, ids))
        assert reply.ok, reply


async def seat_ann_and_bob(h: ClockedTable, *, auto: bool, ann: int = 100) -> None:
    assert (await h.send(Connect(player="ann", auto_top_up=auto))).ok
    assert (await h.send(Sit(player="ann", seat=1, amount=ann))).ok
    assert (await h.send(Sit(player="bob", seat=2, amount=100))).ok


def top_ups(seen: list[Numbered]) -> list[ToppedUp]:
    return [n.event for n in seen if isinstance(n.event, ToppedUp)]


def test_a_short_stack_is_topped_up_to_his_buy_in_between_hands() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        ids = itertools.count()
        await seat_ann_and_bob(h, auto=True)
        await ann_loses_a_hand(h, ids)
        (up,) = top_ups(seen)
        assert up.auto and up.short == 0 and up.seat == 1 and up.chips == 100
        assert up.amount > 0 and h.table.seats[1].chips == 100
        # his bank paid it, through the books' top-up (one movement, as his own)
        assert h.books.on_table("t1", "ann") == 100
        assert h.books.balance("ann") == 1000 - 100 - up.amount
        assert ("top_up", "ann", "t1", "1", str(up.amount)) in h.books.journal
        # the top-up came after the hand had finished, and the next hand starts with it
        finished = max(n.seq for n in seen if isinstance(n.event, HandFinished))
        assert next(n.seq for n in seen if isinstance(n.event, ToppedUp)) > finished
        await h.advance(5)
        started = [n.event for n in seen if isinstance(n.event, HandStarted)]
        assert dict(started[-1].stacks)[1] == 100
        assert h.books.audit()

    run(body)


def test_a_bank_short_of_it_pays_what_it_holds_and_an_empty_one_is_said_once() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        ids = itertools.count()
        await seat_ann_and_bob(h, auto=True)  # ann's bank: 1 chip left
        await ann_loses_a_hand(h, ids, folds_on=4)  # the ante and 3rd street's bet
        (up,) = top_ups(seen)
        assert (up.amount, up.auto) == (1, True) and up.short > 0
        assert up.chips == 100 - up.short == h.table.seats[1].chips
        assert h.books.balance("ann") == 0
        # the bank is empty now: said once, nothing moved, however many hands
        for _ in range(3):
            await ann_loses_a_hand(h, ids)
        empty = top_ups(seen)[1:]
        assert len(empty) == 1 and empty[0].amount == 0 and empty[0].short > 0
        assert h.books.balance("ann") == 0
        assert h.books.audit()

    run(body, accounts={"ann": 101, "bob": 1000})


def test_off_nothing_is_topped_up_and_turned_on_mid_hand_it_waits_for_the_hand_s_end() -> None:
    """RULES.md 1 (table stakes): only the chips a player has at the start of a hand
    play in it, so a top-up asked mid-hand comes after the hand's end."""

    async def body(h: Harness) -> None:
        seen = h.watch()
        ids = itertools.count()
        await seat_ann_and_bob(h, auto=False)
        await ann_loses_a_hand(h, ids)
        assert top_ups(seen) == [] and h.table.seats[1].chips < 100
        short = h.table.seats[1].chips
        # the next hand: she turns it on during it: nothing moves until its end
        await h.advance(5)
        assert h.table.hand is not None
        assert (await h.send(AutoTopUp(player="ann", on=True))).ok
        assert top_ups(seen) == [] and h.table.seats[1].chips == short
        assert h.books.balance("ann") == 900
        while (hand := h.table.hand) is not None:
            seat = hand.to_act
            assert seat is not None
            player = h.table.seats[seat].player
            legal = {a.kind for a in hand.legal_actions()}
            kind = ActionKind.FOLD if player == "ann" and ActionKind.FOLD in legal else None
            kind = kind or next(k for k in PASSIVE if k in legal)
            assert top_ups(seen) == []
            assert (await h.send(act(h.table, player, kind, ids))).ok
        (up,) = top_ups(seen)
        finished = max(n.seq for n in seen if isinstance(n.event, HandFinished))
        assert up.chips == 100
        assert next(n.seq for n in seen if n.event is up) > finished
        # turned off again: her next loss stays a loss
        assert (await h.send(AutoTopUp(player="ann", on=False))).ok
        await ann_loses_a_hand(h, ids)
        assert len(top_ups(seen)) == 1 and h.table.seats[1].chips < 100
        assert h.books.audit()

    run(body)


def test_the_stack_it_tops_up_to_is_the_buy_in_or_the_most_he_topped_up_to() -> None:
    async def body(h: Harness) -> None:
        seen = h.watch()
        ids = itertools.count()
        await seat_ann_and_bob(h, auto=True, ann=60)
        assert (await h.send(TopUp(player="ann", amount=90))).ok  # he wants 150 now
        await ann_loses_a_hand(h, ids)
        assert top_ups(seen)[-1].chips == 150 == h.table.seats[1].chips
        # the setting told before he sat (his Connect) is his seat's; a bot has none
        assert h.table.seats[2].auto_top_up is False
        # a player who disconnects keeps his seat's setting; one told while away too
        assert (await h.send(Disconnect(player="ann"))).ok
        assert h.table.seats[1].auto_top_up is True
        assert (await h.send(AutoTopUp(player="ann", on=False))).ok
        assert h.table.seats[1].auto_top_up is False

    run(body)


def test_a_seat_brought_back_by_a_restart_tops_up_to_the_stack_he_chose() -> None:
    """A restart's seat tops up to the stack its player chose, kept with his seat
    (within the table's buy-in); a seat kept without it (before revision 0012), to
    what it came back with, at least the table's minimum buy-in (its ``top_up_to``).
    Through a real restart: ``tests/server/room/test_restore.py``."""

    async def body(h: Harness) -> None:
        h.table.seating.restore(1, "ann", 80)
        h.table.seating.restore(2, "bob", 5)
        h.table.seating.restore(3, "cat", 30, top_up_to=150)
        h.table.seating.restore(4, "dan", 30, top_up_to=500)  # the table's maximum now
        tops = {n: s.top_up_to for n, s in h.table.seats.items()}
        assert tops == {1: 80, 2: 20, 3: 150, 4: 200}
        assert (await h.send(Connect(player="ann", auto_top_up=True))).ok
        assert h.table.seats[1].auto_top_up is True and h.table.seats[2].auto_top_up is False

    run(body)


# ------------------------------------------------------------------ on a database
class DbTable(ClockedTable):
    """A table on a manual clock whose books are the room's, on a SQLite file."""

    def __init__(self, books: RoomBooks) -> None:
        self.clock = ManualClock()
        seeds = itertools.count(1)
        self.table = Table(
            TableConfig(
                table_id="t1",
                rules=RULES,
                min_buy_in=20,
                max_buy_in=200,
                between_hands=5.0,
                bot_delay=0.0,
            ),
            books=books,
            clock=self.clock,
            deck_source=lambda: Deck.seeded(next(seeds)),
            bot_seed=7,
        )


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_on_a_database_the_top_up_is_one_balanced_transaction_and_the_audit_is_clean(
    kind: str, tmp_path: Path
) -> None:
    engine = create_engine_for(fresh_database(kind, tmp_path))
    upgrade(engine)
    TableStore(engine).save("t1", "t1", TableSpec(min_buy_in=20, max_buy_in=200))
    ledger = Ledger(engine)
    ledger.grant("ann", 130)
    ledger.grant("bob", 1000)

    async def main() -> None:
        writer = RoomWriter(engine)
        h = DbTable(RoomBooks(ledger, writer))
        seen: list[Numbered] = []
        h.table.listen(seen.append)
        h.table.start()
        try:
            ids = itertools.count()
            await seat_ann_and_bob(h, auto=True)
            await ann_loses_a_hand(h, ids)
            (up,) = top_ups(seen)
            assert up.chips == 100 and ledger.balance("table:t1:ann") == 100
            assert ledger.balance("bank:ann") == 30 - up.amount
            with engine.connect() as conn:
                rows = conn.execute(
                    select(Transaction.kind, Transaction.memo).order_by(Transaction.id)
                ).all()
            assert rows[-1] == ("top_up", "seat 1, auto top-up"), rows[-3:]
            # a few more hands: the bank runs dry, the hands still settle on what it paid
            for _ in range(6):
                await ann_loses_a_hand(h, ids)
            assert ledger.balance("table:t1:ann") == h.table.seats[1].chips
            empty = sum(u.amount == 0 for u in top_ups(seen))  # said once, when it ran dry
            assert ledger.balance("bank:ann") > 0 or empty == 1
        finally:
            await h.table.stop()
            writer.close()

    asyncio.run(asyncio.wait_for(main(), 60))
    assert ledger.audit().ok
    assert hands_and_seats(engine) == []
    engine.dispose()
