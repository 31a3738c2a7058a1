"""Every hand a table stores verifies with ``stud8 hh verify``, whatever happened in
it: timeouts under each timeout rule (RULES.md section 6), players who disconnect
and come back, sit out and come back, top up between hands. The texts checked are
the ones the room serves (``GET /api/v1/hands``): the operator's, with every card,
and each player's, with his own down cards only."""

from __future__ import annotations

import asyncio
import itertools
import random
from pathlib import Path

import pytest

from server.manualtable import ClockedTable
from stud8.cli import main as stud8_main
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.events import TimedOut
from stud8.core.rules import TableRules, TimeoutPolicy
from stud8.server.books.memory import MemoryBooks
from stud8.server.clock import ManualClock
from stud8.server.table.commands import (
    Act,
    ComeBack,
    Command,
    Connect,
    Disconnect,
    Sit,
    SitOut,
    TopUp,
)
from stud8.server.table.owner import Table
from stud8.server.table.spec import TableConfig

PLAYERS = ("ann", "bob", "cat", "dan")
SIZED = {ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE}
HANDS = 40


class Room(ClockedTable):
    """One table on a manual clock, its books in memory."""

    def __init__(self, policy: TimeoutPolicy, seed: int) -> None:
        self.clock = ManualClock()
        self.books = MemoryBooks({p: 100_000 for p in PLAYERS})
        rules = TableRules(
            ante=1,
            bring_in=2,
            small_bet=4,
            big_bet=8,
            action_seconds=10,
            time_bank_seconds=5,
            reconnect_seconds=5,
            timeout_policy=policy,
        )
        seeds = itertools.count(seed * 1000)
        self.table = Table(
            TableConfig(table_id="t1", rules=rules, min_buy_in=10, max_buy_in=60, between_hands=1),
            books=self.books,
            clock=self.clock,
            deck_source=lambda: Deck.seeded(next(seeds)),
        )
        self._ids = itertools.count()

    async def ask(self, command: Command) -> bool:
        return (await self.send(command)).ok


async def play_hands(room: Room, rng: random.Random) -> dict[str, int]:
    """Play HANDS hands with random actions, timeouts, disconnections, sit-outs and
    top-ups; what happened, counted."""
    table = room.table
    seen = {"timeouts": 0, "disconnected": 0, "sat_out": 0, "top_ups": 0}
    for seat, player in enumerate(PLAYERS, start=1):
        assert await room.ask(Sit(player=player, seat=seat, amount=rng.randint(10, 60)))
        assert await room.ask(Connect(player=player))
    away: set[str] = set()
    sitting_out: set[str] = set()
    guard = 0
    while table.hands_played < HANDS:
        guard += 1
        assert guard < 20_000, "the hands do not end"
        hand = table.hand
        if hand is None:  # between hands: top up, come back, sit out
            for state in list(table.seats.values()):
                player = state.player
                if state.chips < 10 and await room.ask(TopUp(player=player, amount=30)):
                    seen["top_ups"] += 1
                if player in away and rng.random() < 0.6:
                    away.discard(player)
                    assert await room.ask(Connect(player=player))
                if player in sitting_out and rng.random() < 0.5:
                    sitting_out.discard(player)
                    assert await room.ask(ComeBack(player=player))
                elif rng.random() < 0.05 and await room.ask(SitOut(player=player)):
                    sitting_out.add(player)
                    seen["sat_out"] += 1
            await room.advance(1.1)
            continue
        to_act = hand.to_act
        if to_act is None:
            await room.settle()
            continue
        player = table.seats[to_act].player
        roll = rng.random()
        if roll < 0.12 or player in away:  # his time runs out
            before = len([e for e in hand.events if isinstance(e, TimedOut)])
            await room.advance(16)
            if table.hand is hand:
                after = len([e for e in hand.events if isinstance(e, TimedOut)])
                assert after == before + 1
            seen["timeouts"] += 1
        elif roll < 0.16:  # his connection drops: the clock keeps running
            away.add(player)
            seen["disconnected"] += 1
            assert await room.ask(Disconnect(player=player))
        else:
            legal = hand.legal_actions()
            choice = rng.choice(legal)
            to = None
            if choice.kind in SIZED:
                to = rng.choice((choice.min_to, choice.max_to))
            command_id = f"c{next(room._ids)}"
            act = Act(player=player, action=make_action(choice.kind, to), command_id=command_id)
            reply = await room.send(act)
            assert reply.ok, reply
    return seen


@pytest.mark.parametrize("policy", list(TimeoutPolicy))
def test_every_stored_hand_verifies_with_timeouts_disconnections_and_sit_outs(
    policy: TimeoutPolicy, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def main() -> dict[str, int]:
        room = Room(policy, seed=len(policy.value))
        room.table.start()
        try:
            return await asyncio.wait_for(play_hands(room, random.Random(policy.value)), 120)
        finally:
            await room.table.stop()
            hands = room.books.hands
            operator = hands.pokerstars_for_operator(limit=1000)
            (tmp_path / "operator.txt").write_text(operator)
            for player in PLAYERS:
                mine = hands.pokerstars_for(player, limit=1000)
                (tmp_path / f"{player}.txt").write_text(mine)
            settled = len(room.books.settled)
            assert operator.count("PokerStars Hand #") == settled >= HANDS

    seen = asyncio.run(main())
    assert seen["timeouts"] >= 10 and seen["disconnected"] >= 3, seen
    assert seen["sat_out"] >= 1 and seen["top_ups"] >= 1, seen
    operator = (tmp_path / "operator.txt").read_text()
    assert operator.count(" has timed out") >= 10
    # the room's own history, through the command a player or an operator runs
    for name in ("operator", *PLAYERS):
        path = tmp_path / f"{name}.txt"
        capsys.readouterr()
        code = stud8_main(["hh", "verify", str(path)])
        out = capsys.readouterr().out
        count = path.read_text().count("PokerStars Hand #")
        assert code == 0, out
        assert f"reproduced: {count} " in out and "mismatched: 0" in out, out
