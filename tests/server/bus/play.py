"""Real bus messages to encode: a table played in memory (every command it was sent,
every numbered event, catch-ups mid-hand and between hands) and hands played by the
engine alone (every kind of hand event, views of every seat)."""

from __future__ import annotations

import asyncio
import functools
import random
from dataclasses import dataclass, field
from fractions import Fraction

from server.tableharness import Harness
from stud8.core.actions import LegalAction
from stud8.core.cards import Deck
from stud8.core.events import Event
from stud8.core.hand import Hand
from stud8.core.rules import BettingStructure, Game, TableRules
from stud8.core.views import HandView
from stud8.server.table.commands import (
    Chat,
    ComeBack,
    Command,
    Connect,
    Disconnect,
    JoinWaitlist,
    Leave,
    Reply,
    Sit,
    SitOut,
    TopUp,
)
from stud8.server.table.events import HandRefunded, LeaveReason, Numbered, SeatOffered
from stud8.server.table.rotation import Rotation
from stud8.server.table.snapshot import CatchUp
from stud8.server.table.status import TableStatus

PLAYERS = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")
WAITING = "ivy"


@dataclass
class Session:
    """What a table sent and was sent."""

    commands: list[Command] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    numbered: list[Numbered] = field(default_factory=list)
    catch_ups: list[CatchUp] = field(default_factory=list)
    statuses: list[TableStatus] = field(default_factory=list)


@functools.cache
def table_session(hands: int = 14, seed: int = 15) -> Session:
    """Eight players (and one waiting) play ``hands`` hands at a real table, a mixed
    one (Stud Hi/Lo, Seven Card Stud, Razz, 5 hands each), acting at random; some
    time out, drop and come back, sit out, top up, leave; one hand is cancelled;
    catch-ups are taken at random moments."""
    out = Session()
    rng = random.Random(seed)

    async def send(h: Harness, cmd: Command) -> Reply:
        out.commands.append(cmd)
        reply = await h.send(cmd)
        out.replies.append(reply)
        return reply

    async def catch_up(h: Harness) -> None:
        out.catch_ups.append(await h.table.catch_up())
        if h.table.last_seq > 3:
            out.catch_ups.append(await h.table.catch_up(h.table.last_seq - rng.randint(0, 3)))

    async def between_hands(h: Harness, number: int) -> None:
        seats = h.table.seats
        if number == 2:
            await send(h, SitOut(player=seats[min(seats)].player))
        if number == 4:
            await send(h, ComeBack(player=seats[min(seats)].player))
            await send(h, Chat(player=seats[max(seats)].player, text="between hands"))
        for seat in list(seats.values()):
            if 0 < seat.chips < 60 and rng.random() < 0.5:
                await send(h, TopUp(player=seat.player, amount=200 - seat.chips))
        if number == 6:  # a seat frees: it is offered to the one waiting
            await send(h, Leave(player=seats[max(seats)].player))
        if any(isinstance(n.event, SeatOffered) for n in out.numbered[-6:]):
            await catch_up(h)  # with the offer
            free = next(s for s in range(1, 9) if s not in h.table.seats)
            await send(h, Sit(player=WAITING, seat=free, amount=150, command_id="w1"))
        await catch_up(h)

    async def play_hand(h: Harness, number: int) -> None:
        steps = 0
        while (hand := h.table.hand) is not None and steps < 400:
            steps += 1
            seat = hand.to_act
            assert seat is not None
            player = h.table.seats[seat].player
            r = rng.random()
            if number == 3 and steps == 6:
                await h.table.cancel_hand("the server failed")
                await h.settle()
            elif r < 0.04:  # he lets his clock run out
                events = len(hand.events)
                while h.table.hand is hand and len(hand.events) == events:
                    await h.advance(5)
            elif r < 0.08:
                await catch_up(h)
            elif r < 0.10:  # his connection drops and comes back
                await send(h, Disconnect(player=player))
                await send(h, Connect(player=player))
            elif r < 0.12:  # he says something (in the hand)
                await send(h, Chat(player=player, text=f"nh <b>{steps}</b>"))
            else:
                choices = hand.legal_actions()
                legal = rng.choice(choices)
                if legal.kind.value == "fold" and rng.random() < 0.7:
                    legal = choices[-1]  # fold less: more hands reach the showdown
                await send(h, h.act(player, legal.kind.value, _amount(rng, legal)))

    async def main() -> None:
        games = (Game.STUD_HI_LO, Game.STUD_HIGH, Game.RAZZ)
        h = Harness(
            accounts={p: 10_000 for p in (*PLAYERS, WAITING)},
            between_hands=5.0,
            rotation=Rotation(games, hands=5),
        )
        out.numbered = h.watch()
        h.table.on_status(out.statuses.append)
        # the table comes back from a restart that cut a hand short: it tells it
        h.table.restore_refunded([HandRefunded("317840224650031249", "317840224650031249")])
        h.table.start()
        try:
            for i, player in enumerate(PLAYERS):
                amount = rng.randint(20, 200)
                await send(h, Sit(player=player, seat=i + 1, amount=amount, command_id=f"s{i}"))
            await send(h, JoinWaitlist(player=WAITING))
            await catch_up(h)
            for number in range(hands):
                await between_hands(h, number)
                await h.advance(5)
                await play_hand(h, number)
            await send(h, Leave(player=PLAYERS[0], reason=LeaveReason.TABLE_CLOSED))
        finally:
            await h.table.stop()

    asyncio.run(main())
    return out


def _amount(rng: random.Random, legal: LegalAction) -> int | None:
    """A random amount for a complete, bet or raise; None for the others."""
    if legal.kind.value not in ("complete", "bet", "raise"):
        return None
    assert legal.min_to is not None and legal.max_to is not None
    return rng.randint(legal.min_to, legal.max_to)


@dataclass
class EngineHand:
    events: tuple[Event, ...]
    players: dict[int, str]
    views: list[HandView]
    legal: list[tuple[LegalAction, ...]]


def engine_hands(count: int = 120, seed: int = 8) -> list[EngineHand]:
    """``count`` hands played by the engine alone over every game, structure and
    table size, with a rake, timeouts and cancellations, and passive 8-handed hands
    (which run out of cards: a community card)."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        seats = rng.sample(range(1, 9), 8 if n % 10 == 0 else rng.randint(2, 8))
        passive = n % 10 == 0
        rules = TableRules(
            ante=1,
            bring_in=2,
            small_bet=4,
            big_bet=8,
            game=rng.choice(list(Game)),
            structure=BettingStructure.FIXED_LIMIT
            if passive
            else rng.choice(list(BettingStructure)),
            rake_percent=Fraction(5),
            rake_cap=3,
        )
        stacks = {s: 500 if passive else rng.choice((3, 12, 40, 300)) for s in seats}
        hand = Hand.start(rules=rules, stacks=stacks, deck=Deck.seeded(n + seed), hand_id=f"e{n}")
        views = [hand.view(everything=True)]
        legal = []
        while not hand.is_over:
            r = rng.random()
            if not passive and r < 0.04:
                hand.time_out()
            elif not passive and r < 0.05:
                hand.cancel("the server failed")
            else:
                choices = hand.legal_actions()
                legal.append(choices)
                kinds = [c for c in choices if c.kind.value in ("check", "call", "bring_in")]
                choice = rng.choice(kinds if passive else choices)
                hand.apply(choice.action(_amount(rng, choice)))
            if rng.random() < 0.2:
                views.append(hand.view(rng.choice((None, *seats))))
        views.append(hand.view(everything=True))
        players = {s: f"p{s}" for s in sorted(seats)}
        out.append(EngineHand(tuple(hand.events), players, views, legal))
    return out
