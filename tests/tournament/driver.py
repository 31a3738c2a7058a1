"""Drive a director as the room will: tables playing at once, hands finishing in any
order, some cut short, late registrations, the clock ticking; and check its
invariants after every event."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
from collections import Counter
from dataclasses import dataclass, field

from stud8.tournament.director import Director, DirectorError, Phase
from stud8.tournament.events import (
    Busted,
    DealHand,
    Decision,
    Event,
    Finished,
    HandCancelled,
    HandFinished,
    Register,
    Tick,
)


def synthetic_outcome(deal: DealHand, rnd: random.Random) -> tuple[tuple[int, int], ...]:
    """A hand's end without the engine: one winner takes everything from 0 to 3 others
    (busting them; equal stacks at the deal make ties) and part of one more's chips.
    Chips are conserved, as in a real hand."""
    chips = {s: c for s, _, c in deal.seats}
    seats = sorted(chips)
    winner = rnd.choice(seats)
    others = [s for s in seats if s != winner]
    for s in rnd.sample(others, min(rnd.choice((0, 0, 1, 1, 2, 3)), len(others))):
        chips[winner] += chips[s]
        chips[s] = 0
    alive = [s for s in others if chips[s] > 0]
    if alive:
        s = rnd.choice(alive)
        x = rnd.randint(0, chips[s])
        chips[s] -= x
        chips[winner] += x
    return tuple(sorted(chips.items()))


def check_invariants(td: Director, decisions: tuple[Decision, ...]) -> None:
    """What must hold after every event."""
    d = td.definition
    # chips conserved: every entry bought the starting chips; none made, none lost
    assert td.chips_in_play == d.starting_chips * len(td.entries)
    for entry in td.entries.values():
        assert entry.chips >= 0
        assert (entry.chips == 0) == entry.out
    if td.phase is not Phase.RUNNING:
        return
    # every live entry sits at exactly one seat, and the seats say so
    seated = Counter(e for t in td.tables.values() for e in t.seats.values())
    alive = {e.entry for e in td.alive}
    assert td.players_left == len(alive)
    assert set(seated) == alive and all(n == 1 for n in seated.values())
    for t in td.tables.values():
        assert t.players <= d.table_size
        for seat, e in t.seats.items():
            assert (td.entries[e].table, td.entries[e].seat) == (t.number, seat)
        if t.hand is not None:  # a hand in play was dealt to live entries only
            for _seat, (e, c) in t.dealt.items():
                assert td.entries[e].chips == c  # unchanged until the hand is over
    # balanced within one, except a longer table still in its hand (TDA 11)
    tables = [t for n, t in td.tables.items() if n not in td.closing]
    for a in tables:
        for b in tables:
            if a.players >= b.players + 2:
                assert a.in_hand, f"table {a.number} ({a.players}) vs {b.number} ({b.players})"
    # and a table two or more short of another is never dealt (it halts)
    longest = max((t.players for t in tables), default=0)
    for x in decisions:
        if isinstance(x, DealHand):
            assert len(x.seats) >= 2 and len(x.seats) + 2 > longest
    # as few tables as seat everyone, but the one waiting to break
    needed = max(1, -(-len(alive) // d.table_size))
    assert len(td.tables) == needed + len(td.closing)
    assert all(td.tables[n].in_hand for n in td.closing)


def check_results(td: Director, finished: Finished) -> None:
    """Places 1..N with no gap, prizes summing to the pool, better places paid more."""
    results = finished.results
    assert {r.entry for r in results} == set(td.entries)
    covered: list[int] = []
    for place in sorted({r.place for r in results}):
        group = [r for r in results if r.place == place]
        assert all(r.shared == len(group) for r in group)
        covered.extend(range(place, place + len(group)))
    assert sorted(covered) == list(range(1, len(results) + 1))
    assert sum(r.prize for r in results) == finished.prize_pool == td.prize_pool
    for a, b in itertools.pairwise(results):
        assert a.place <= b.place
        if a.place < b.place:
            assert a.prize >= b.prize


@dataclass
class Driver:
    """Plays a director to its end with synthetic hands (or ``outcome``)."""

    td: Director
    rnd: random.Random
    now: float = 0.0
    cancel_rate: float = 0.05
    late_players: list[str] = field(default_factory=list)
    round_trip_every: int = 0
    in_play: dict[int, DealHand] = field(default_factory=dict)
    finished: Finished | None = None
    placed: dict[int, tuple[int, int]] = field(default_factory=dict)  # entry: (place, shared)
    events: int = 0
    deals: int = 0

    def handle(self, event: Event) -> tuple[Decision, ...]:
        out = self.td.handle(event)
        self.events += 1
        check_invariants(self.td, out)
        for x in out:
            if isinstance(x, DealHand):
                assert x.table not in self.in_play
                self.in_play[x.table] = x
                self.deals += 1
            elif isinstance(x, Finished):
                self.finished = x
            elif isinstance(x, Busted) and x.place is not None:
                self.placed[x.entry] = (x.place, x.shared)
        if self.round_trip_every and self.events % self.round_trip_every == 0:
            data = json.loads(json.dumps(self.td.to_dict()))
            again = Director.from_dict(data)
            assert again.to_dict() == self.td.to_dict()
            self.td = again
        return out

    def step(self) -> None:
        rnd = self.rnd
        self.now += rnd.choice((0.0, 1.0, 20.0, 60.0, 200.0))
        roll = rnd.random()
        if self.late_players and roll < 0.1:
            name = self.late_players.pop()
            # closed, full or out of re-entries: a refusal changes nothing
            with contextlib.suppress(DirectorError):
                self.handle(Register(now=self.now, player=name))
            return
        if not self.in_play:
            deadline = self.td.next_deadline()
            assert deadline is not None, "nothing in play and nothing due: stuck"
            self.now = max(self.now, deadline)
            self.handle(Tick(now=self.now))
            return
        table = rnd.choice(sorted(self.in_play))
        deal = self.in_play.pop(table)
        if rnd.random() < self.cancel_rate:
            self.handle(HandCancelled(now=self.now, table=table, hand=deal.hand))
        else:
            stacks = synthetic_outcome(deal, rnd)
            self.handle(HandFinished(now=self.now, table=table, hand=deal.hand, stacks=stacks))

    def run(self, limit: int = 20_000) -> Finished:
        for _ in range(limit):
            if self.td.phase is not Phase.RUNNING:
                break
            self.step()
        assert self.finished is not None, f"not over after {limit} steps"
        check_results(self.td, self.finished)
        final = {r.entry: (r.place, r.shared) for r in self.finished.results}
        assert all(final[e] == p for e, p in self.placed.items())  # as announced at the bust
        return self.finished
