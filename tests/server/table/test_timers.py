"""The turn clock of RULES.md section 6, on a manual clock, and the clocks themselves."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable

import pytest

from server.manualtable import ClockedTable
from stud8.core.actions import make_action
from stud8.core.cards import Deck
from stud8.core.events import Called, Folded, TimedOut, TimeoutOutcome
from stud8.core.rules import TableRules, TimeoutPolicy
from stud8.server.books.memory import MemoryBooks
from stud8.server.clock import AsyncioClock, ManualClock
from stud8.server.table.commands import (
    Act,
    ComeBack,
    Connect,
    Disconnect,
    Sit,
    SitOut,
)
from stud8.server.table.events import (
    CameBack,
    Numbered,
    SatOut,
    SatOutReason,
    TimerStarted,
    TurnPhase,
)
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableConfig

RULES = TableRules(
    ante=1,
    bring_in=2,
    small_bet=4,
    big_bet=8,
    action_seconds=10,
    time_bank_seconds=20,
    reconnect_seconds=20,
)
# Seat 1 shows the 2c and brings in; seat 2 shows the Kd.
DECK = "As Ah Ks Kh 2c Kd"


class Harness(ClockedTable):
    def __init__(self, rules: TableRules = RULES) -> None:
        self.clock = ManualClock()
        self.books = MemoryBooks({"ann": 1000, "bob": 1000})
        self.table = Table(
            TableConfig(
                table_id="t1", rules=rules, min_buy_in=20, max_buy_in=200, between_hands=5.0
            ),
            books=self.books,
            clock=self.clock,
            deck_source=lambda: Deck.from_cards(DECK),
        )
        self.events: list[Numbered] = []
        self.table.listen(self.events.append)
        self._ids = itertools.count()

    def act(self, player: str, kind: str, amount: int | None = None) -> Act:
        action = make_action(kind, amount)
        return Act(player=player, action=action, command_id=f"c{next(self._ids)}")

    def of(self, kind: type) -> list[object]:
        return [e.event for e in self.events if isinstance(e.event, kind)]

    async def start_hand(self) -> None:
        assert (await self.send(Sit(player="ann", seat=1, amount=100))).ok
        assert (await self.send(Sit(player="bob", seat=2, amount=100))).ok
        await self.advance(5)
        assert self.table.hand is not None and self.table.hand.to_act == 1


def run(body: Callable[[Harness], Awaitable[None]], rules: TableRules = RULES) -> None:
    async def main() -> None:
        h = Harness(rules)
        h.table.start()
        try:
            await asyncio.wait_for(body(h), timeout=30)
        finally:
            await h.table.stop()

    asyncio.run(main())


def test_rule_6_the_turn_clock_runs_action_then_time_bank_then_the_timeout_rule() -> None:
    async def body(h: Harness) -> None:
        await h.start_hand()
        t0 = h.clock.now()
        assert h.of(TimerStarted)[-1] == TimerStarted(1, TurnPhase.ACTION, 10, t0 + 10)
        await h.advance(9.99)
        assert h.of(TimerStarted)[-1] == TimerStarted(1, TurnPhase.ACTION, 10, t0 + 10)
        await h.advance(0.01)
        assert h.of(TimerStarted)[-1] == TimerStarted(1, TurnPhase.TIME_BANK, 20, t0 + 30)
        await h.advance(19.99)
        assert h.of(TimedOut) == []
        await h.advance(0.01)
        # the bring-in is forced: the timeout posts it; then bob's clock starts
        assert h.of(TimedOut) == [TimedOut(1, TimeoutOutcome.BRING_IN)]
        assert h.table.hand is not None and h.table.hand.to_act == 2
        assert h.of(TimerStarted)[-1] == TimerStarted(2, TurnPhase.ACTION, 10, t0 + 40)

    run(body)


def test_an_action_stops_the_clock_and_the_next_player_gets_a_fresh_one() -> None:
    async def body(h: Harness) -> None:
        await h.start_hand()
        await h.advance(25)  # into ann's time books
        assert (await h.send(h.act("ann", "bring_in"))).ok
        now = h.clock.now()
        assert h.of(TimerStarted)[-1] == TimerStarted(2, TurnPhase.ACTION, 10, now + 10)
        await h.advance(29)
        assert h.of(TimedOut) == []  # ann's old deadline passed without effect

    run(body)


def test_timeout_with_nothing_in_beyond_the_ante_folds() -> None:
    async def body(h: Harness) -> None:
        await h.start_hand()
        assert (await h.send(h.act("ann", "bring_in"))).ok
        hand = h.table.hand
        assert hand is not None
        await h.advance(30)
        assert h.of(TimedOut) == [TimedOut(2, TimeoutOutcome.FOLD)]
        assert hand.is_over and hand.is_folded(2) and h.table.hand is None
        assert hand.result is not None and hand.result.stacks == {1: 101, 2: 99}
        assert hand.hand_id in h.books.settled and h.books.audit()

    run(body)


def test_timeout_with_chips_in_gives_all_in_protection() -> None:
    async def body(h: Harness) -> None:
        await h.start_hand()
        assert (await h.send(h.act("ann", "bring_in"))).ok
        assert (await h.send(h.act("bob", "complete"))).ok
        hand = h.table.hand
        assert hand is not None and hand.to_act == 1
        await h.advance(30)
        assert h.of(TimedOut) == [TimedOut(1, TimeoutOutcome.ALL_IN_PROTECTION)]
        assert not hand.is_folded(1) and hand.is_all_in(1)
        # ann stays in for the pot as it stands: the hand runs to the showdown
        assert hand.is_over and hand.result is not None and hand.result.showdown
        assert sum(hand.result.stacks.values()) == 200 and h.books.audit()

    run(body)


def test_timeout_under_check_or_fold_policy_checks_when_he_can() -> None:
    rules = TableRules(
        ante=1,
        bring_in=2,
        small_bet=4,
        big_bet=8,
        timeout_policy=TimeoutPolicy.CHECK_OR_FOLD,
        action_seconds=1,
        time_bank_seconds=1,
    )

    async def body(h: Harness) -> None:
        await h.start_hand()
        assert (await h.send(h.act("ann", "bring_in"))).ok
        assert (await h.send(h.act("bob", "call"))).ok
        hand = h.table.hand
        assert hand is not None and hand.street == 4
        first = hand.to_act
        await h.advance(2)
        assert h.of(TimedOut) == [TimedOut(first or 0, TimeoutOutcome.CHECK)]

    run(body, rules)


def test_rule_6_disconnect_in_turn_then_reconnect_before_the_deadline_gets_extra_time() -> None:
    async def body(h: Harness) -> None:
        await h.start_hand()
        assert (await h.send(h.act("ann", "bring_in"))).ok
        t0 = h.clock.now()
        await h.advance(5)
        assert (await h.send(Disconnect(player="bob"))).ok
        await h.advance(20)  # t0 + 25: in his time books, deadline t0 + 30
        assert h.of(TimerStarted)[-1] == TimerStarted(2, TurnPhase.TIME_BANK, 20, t0 + 30)
        assert (await h.send(Connect(player="bob"))).ok
        assert h.of(TimerStarted)[-1] == TimerStarted(2, TurnPhase.RECONNECT, 25, t0 + 50)
        await h.advance(24)  # t0 + 49: past the first deadline, still his turn
        assert h.of(TimedOut) == []
        hand = h.table.hand
        assert hand is not None and hand.to_act == 2
        assert (await h.send(h.act("bob", "call"))).ok
        assert [e for e in hand.events if isinstance(e, Called)] == [Called(2, 2, 2)]
        # a second reconnection in the same turn gives nothing more
        assert hand.to_act is not None
        who = h.table.seats[hand.to_act].player
        assert (await h.send(Disconnect(player=who))).ok
        assert (await h.send(Connect(player=who))).ok
        assert (await h.send(Disconnect(player=who))).ok
        assert (await h.send(Connect(player=who))).ok
        reconnects = [e for e in h.of(TimerStarted) if e.phase == "reconnect"]  # type: ignore[attr-defined]
        assert len(reconnects) == 2  # one for bob's turn, one for this one

    run(body)


def test_rule_6_disconnected_and_not_back_the_timeout_rule_applies_and_he_is_dealt_out() -> None:
    async def body(h: Harness) -> None:
        await h.start_hand()
        assert (await h.send(h.act("ann", "bring_in"))).ok
        assert (await h.send(Disconnect(player="bob"))).ok
        hand = h.table.hand
        assert hand is not None
        await h.advance(30)
        assert h.of(TimedOut) == [TimedOut(2, TimeoutOutcome.FOLD)]
        assert hand.is_over and Folded(2) in hand.events
        assert h.of(SatOut) == [SatOut(2, SatOutReason.DISCONNECTED)]
        assert h.table.seats[2].chips == 99  # his chips stay his, at the table
        await h.advance(60)
        assert h.table.hand is None  # nobody to play ann
        # he comes back: dealt in again
        assert (await h.send(Connect(player="bob"))).ok
        assert h.of(CameBack) == [CameBack(2)]
        await h.advance(5)
        assert h.table.hand is not None and h.table.hand.seats == (1, 2)

    run(body)


def test_rule_6_disconnected_or_sitting_out_between_hands_is_dealt_out() -> None:
    async def body(h: Harness) -> None:
        assert (await h.send(Sit(player="ann", seat=1, amount=100))).ok
        assert (await h.send(Sit(player="bob", seat=2, amount=100))).ok
        assert (await h.send(Disconnect(player="bob"))).ok
        await h.advance(10)
        assert h.table.hand is None and h.table.seats[2].sitting_out
        assert (await h.send(Connect(player="bob"))).ok
        assert (await h.send(SitOut(player="ann"))).ok
        await h.advance(10)
        assert h.table.hand is None
        assert not (await h.send(SitOut(player="ann"))).ok
        assert (await h.send(ComeBack(player="ann"))).ok
        await h.advance(5)
        assert h.table.hand is not None

    run(body)


def test_manual_clock_fires_timers_in_order_and_never_goes_back() -> None:
    clock = ManualClock(0.0)
    fired: list[tuple[str, float]] = []
    clock.call_at(3.0, lambda: fired.append(("b", clock.now())))
    clock.call_at(1.0, lambda: fired.append(("a", clock.now())))
    cancelled = clock.call_at(2.0, lambda: fired.append(("x", clock.now())))
    cancelled.cancel()
    clock.call_at(3.0, lambda: fired.append(("c", clock.now())))
    assert clock.pending() == 3 and clock.next_deadline() == 1.0
    clock.advance(5)
    assert fired == [("a", 1.0), ("b", 3.0), ("c", 3.0)] and clock.now() == 5.0
    assert clock.wall().timestamp() - ManualClock(0.0).wall().timestamp() == 5.0
    with pytest.raises(ValueError):
        clock.advance(-1)

    async def sleeper() -> float:
        task = asyncio.ensure_future(clock.sleep_until(7.0))
        await asyncio.sleep(0)
        assert not task.done()
        clock.advance(2)
        await task
        return clock.now()

    assert asyncio.run(sleeper()) == 7.0


def test_asyncio_clock_sleeps_and_fires_for_real_briefly() -> None:
    async def main() -> None:
        clock = AsyncioClock()
        start = clock.now()
        fired = asyncio.Event()
        clock.call_at(start + 0.01, fired.set)
        await clock.sleep_until(start + 0.02)
        assert fired.is_set() and clock.now() >= start + 0.02
        assert clock.wall().tzinfo is not None

    asyncio.run(main())


def test_a_table_on_the_real_clock_with_tiny_times_times_out() -> None:
    rules = TableRules(
        ante=1,
        bring_in=2,
        small_bet=4,
        big_bet=8,
        action_seconds=0,
        time_bank_seconds=0,
    )

    async def main() -> None:
        books = MemoryBooks({"ann": 1000, "bob": 1000})
        table = Table(
            TableConfig(
                table_id="t", rules=rules, min_buy_in=20, max_buy_in=200, between_hands=0.001
            ),
            books=books,
            clock=AsyncioClock(),
            deck_source=lambda: Deck.from_cards(DECK),
        )
        table.start()
        try:
            assert (await table.submit(Sit(player="ann", seat=1, amount=100))).ok
            assert (await table.submit(Sit(player="bob", seat=2, amount=100))).ok
            assert table.hand is None
            for _ in range(200):
                await asyncio.sleep(0.005)
                if table.hands_played >= 2:
                    break
            # each hand: ann's bring-in is posted for her, bob is folded
            assert table.hands_played >= 2 and books.audit()
            assert books.on_table("t", "ann") + books.on_table("t", "bob") == 200
        finally:
            await table.stop()

    asyncio.run(main())
