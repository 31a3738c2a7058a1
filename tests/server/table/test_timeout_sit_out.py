"""Timeouts as players know them (issue 16, item 9): a player whose time runs out is
sat out from the next hand until he says he is back ("I'm back": ``come_back``), a
table option (``sit_out_on_timeout``) that a room's table has on by default. The
hand he timed out in plays on as the timeout rule says; its history says that he
is sitting out, the next hands list him sitting out, and every history verifies
with ``stud8 hh verify``."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from server.manualtable import ClockedTable
from stud8.cli import main as stud8_main
from stud8.core.actions import make_action
from stud8.core.cards import Deck
from stud8.core.events import TimedOut
from stud8.core.rules import TableRules
from stud8.server.books.memory import MemoryBooks
from stud8.server.clock import ManualClock
from stud8.server.table.commands import Act, ComeBack, SeatBot, Sit
from stud8.server.table.events import CameBack, HandStarted, Numbered, SatOut, SatOutReason
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableConfig, TableSpec

RULES = TableRules(
    ante=1, bring_in=2, small_bet=4, big_bet=8, action_seconds=10, time_bank_seconds=5
)
PLAYERS = ("ann", "bob", "cat")


class Harness(ClockedTable):
    def __init__(self, sit_out_on_timeout: bool) -> None:
        self.clock = ManualClock()
        self.books = MemoryBooks({p: 1000 for p in PLAYERS})
        seeds = itertools.count(7)
        self.table = Table(
            TableConfig(
                table_id="t1",
                rules=RULES,
                min_buy_in=20,
                max_buy_in=200,
                between_hands=2.0,
                sit_out_on_timeout=sit_out_on_timeout,
            ),
            books=self.books,
            clock=self.clock,
            deck_source=lambda: Deck.seeded(next(seeds)),
        )
        self.events: list[Numbered] = []
        self.table.listen(self.events.append)
        self._ids = itertools.count()

    def act(self, player: str, kind: str) -> Act:
        return Act(player=player, action=make_action(kind, None), command_id=f"c{next(self._ids)}")

    def of(self, kind: type) -> list[object]:
        return [e.event for e in self.events if isinstance(e.event, kind)]

    def kinds(self) -> list[str]:
        return [type(e.event).__name__ for e in self.events]

    async def seat_all(self) -> None:
        for seat, player in enumerate(PLAYERS, start=1):
            assert (await self.send(Sit(player=player, seat=seat, amount=100))).ok
        await self.advance(2)
        assert self.table.hand is not None

    async def passive(self, player: str) -> bool:
        """The player to act, if it is `player`, checks or calls (or brings in)."""
        hand = self.table.hand
        if hand is None or hand.to_act is None:
            return False
        if self.table.seats[hand.to_act].player != player:
            return False
        kinds = {a.kind.value for a in hand.legal_actions()}
        kind = next(k for k in ("check", "call", "bring_in") if k in kinds)
        assert (await self.send(self.act(player, kind))).ok
        return True

    async def hand_where(self, slow: str) -> None:
        """Play the hand in play to its end: `slow` lets his clock run out, the others
        check or call."""
        hand = self.table.hand
        assert hand is not None
        while not hand.is_over:
            assert hand.to_act is not None
            player = self.table.seats[hand.to_act].player
            if player == slow:
                await self.advance(RULES.action_seconds + RULES.time_bank_seconds)
            else:
                assert await self.passive(player)


def run(body: Callable[[Harness], Awaitable[None]], sit_out_on_timeout: bool = True) -> None:
    async def main() -> None:
        h = Harness(sit_out_on_timeout)
        h.table.start()
        try:
            await asyncio.wait_for(body(h), timeout=30)
        finally:
            await h.table.stop()

    asyncio.run(main())


def test_a_player_who_times_out_is_sat_out_from_the_next_hand_until_he_is_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def body(h: Harness) -> None:
        await h.seat_all()
        first = h.table.hand
        assert first is not None
        await h.hand_where(slow="ann")
        timeouts = [e for e in h.of(TimedOut) if isinstance(e, TimedOut) and e.seat == 1]
        assert timeouts, "ann's clock ran out"
        # told once, after the time-out itself, with its reason
        assert h.of(SatOut) == [SatOut(1, SatOutReason.TIMED_OUT)]
        kinds = h.kinds()
        assert kinds.index("SatOut") > kinds.index("TimedOut")
        seat = h.table.seats[1]
        assert seat.sitting_out and seat.out_reason == "timed_out" and seat.chips > 0
        # the next hand is dealt without her; bob and cat play it
        await h.advance(10)
        second = h.table.hand
        assert second is not None and second is not first
        assert 1 not in dict(second.setup.stacks) and len(second.setup.stacks) == 2
        await h.hand_where(slow="nobody")
        # "I'm back": dealt in again from the next hand
        assert (await h.send(ComeBack(player="ann"))).ok
        assert h.of(CameBack) == [CameBack(1)]
        await h.advance(10)
        third = h.table.hand
        assert third is not None and 1 in dict(third.setup.stacks)
        await h.hand_where(slow="nobody")
        assert h.books.audit()

        # the histories: the hand she timed out in says she is sitting out, the next
        # lists her seat sitting out, and each verifies as the room serves it
        text = h.books.hands.pokerstars_for_operator(limit=10)
        hands = [t for t in text.split("PokerStars Hand #") if t.strip()][::-1]  # oldest first
        assert len(hands) == 3
        assert "ann has timed out" in hands[0] and "\nann is sitting out\n" in hands[0]
        assert hands[0].index("ann has timed out") < hands[0].index("ann is sitting out")
        assert "Seat 1: ann (" in hands[1] and "in chips) is sitting out" in hands[1]
        assert "sitting out" not in hands[2]
        (tmp_path / "operator.txt").write_text(text)
        for player in PLAYERS:
            (tmp_path / f"{player}.txt").write_text(h.books.hands.pokerstars_for(player))

    run(body)
    for name in ("operator", *PLAYERS):
        path = tmp_path / f"{name}.txt"
        capsys.readouterr()
        code = stud8_main(["hh", "verify", str(path)])
        out = capsys.readouterr().out
        count = path.read_text().count("PokerStars Hand #")
        assert code == 0 and f"reproduced: {count} " in out and "mismatched: 0" in out, out


def test_with_the_option_off_a_player_who_times_out_stays_dealt_in() -> None:
    async def body(h: Harness) -> None:
        await h.seat_all()
        await h.hand_where(slow="ann")
        assert h.of(TimedOut) and h.of(SatOut) == []
        assert not h.table.seats[1].sitting_out
        await h.advance(10)
        hand = h.table.hand
        assert hand is not None and 1 in dict(hand.setup.stacks)

    run(body, sit_out_on_timeout=False)


def test_a_player_who_says_he_is_back_during_the_hand_plays_the_next() -> None:
    async def body(h: Harness) -> None:
        await h.seat_all()
        hand = h.table.hand
        assert hand is not None
        # ann's clock runs out at her first turn; she is back before the hand ends
        while hand.to_act is not None and h.table.seats[hand.to_act].player != "ann":
            assert await h.passive(h.table.seats[hand.to_act].player)
        await h.advance(RULES.action_seconds + RULES.time_bank_seconds)
        assert h.of(SatOut) == [SatOut(1, SatOutReason.TIMED_OUT)]
        assert (await h.send(ComeBack(player="ann"))).ok
        await h.hand_where(slow="nobody")
        await h.advance(10)
        nxt = h.table.hand
        assert nxt is not None and nxt is not hand and 1 in dict(nxt.setup.stacks)
        assert len(h.of(HandStarted)) == 2

    run(body)


def test_the_option_is_on_by_default_in_a_table_spec_and_checked() -> None:
    assert TableSpec().sit_out_on_timeout is True
    assert TableSpec().config("t1").sit_out_on_timeout is True
    assert TableSpec(sit_out_on_timeout=False).config("t1").sit_out_on_timeout is False
    with pytest.raises(ValueError, match="sit_out_on_timeout must be true or false"):
        TableSpec(sit_out_on_timeout="yes").config("t1")  # type: ignore[arg-type]


def test_bots_play_on_and_are_never_sat_out_while_a_player_who_times_out_is() -> None:
    """Bots never need "I'm back": at a table of two bots and ann, who never acts, ann
    is sat out after her first time-out and the bots play hand after hand, dealt in."""

    async def body(h: Harness) -> None:
        h.books.issue("bot1", 1000)
        h.books.issue("bot2", 1000)
        for seat, bot in ((2, "bot1"), (3, "bot2")):
            command = SeatBot(
                player=bot, seat=seat, amount=100, policy="calling-station", seed=seat
            )
            assert (await h.send(command)).ok
        assert (await h.send(Sit(player="ann", seat=1, amount=100))).ok
        for _ in range(40):  # the bots act at once; ann's clocks run out
            await h.advance(RULES.action_seconds + RULES.time_bank_seconds)
            if len(h.of(HandStarted)) >= 4:
                break
        assert h.of(SatOut) == [SatOut(1, SatOutReason.TIMED_OUT)]
        assert not h.table.seats[2].sitting_out and not h.table.seats[3].sitting_out
        started = [e for e in h.of(HandStarted) if isinstance(e, HandStarted)]
        assert len(started) >= 4
        assert all({2, 3} <= dict(e.stacks).keys() for e in started[1:] if len(e.stacks) > 1)
        assert all(1 not in dict(e.stacks) for e in started[1:])

    run(body)
