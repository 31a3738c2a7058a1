"""Property tests over random tournaments: tables playing at once, hands finishing in
any order, some cancelled, late registrations and re-entries, the state sent through
JSON and back along the way. After every event (tournament.driver.check_invariants):
chips conserved, every live entry seated once, tables within one player of each
other but a longer one still in its hand, a short table never dealt; at the end
(check_results): places 1..N with no gaps, prizes summing to the pool. And the
tournament always ends."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from stud8.tournament import Break, Level, Start, Structure, TournamentDefinition
from stud8.tournament.director import Director
from stud8.tournament.events import Register, Tick
from stud8.tournament.structures import STRUCTURES
from tournament.driver import Driver

START = datetime(2026, 11, 26, 20, 0, tzinfo=UTC)


@st.composite
def structures(draw: st.DrawFn) -> Structure:
    if draw(st.booleans()):
        return STRUCTURES[draw(st.sampled_from(sorted(STRUCTURES)))]
    by_hands = draw(st.booleans())
    n = draw(st.integers(1, 6))
    steps: list[Level | Break] = []
    for i in range(n):
        small = 10 * 2**i
        steps.append(
            Level(
                ante=small // 5,
                bring_in=small // 2,
                small_bet=small,
                big_bet=2 * small,
                minutes=None if by_hands else draw(st.integers(1, 3)),
                hands=draw(st.integers(1, 5)) if by_hands else None,
            )
        )
        if i < n - 1 and draw(st.integers(0, 3)) == 0:
            steps.append(Break(minutes=draw(st.integers(1, 5))))
    chips = draw(st.sampled_from((30, 100, 500)))
    return Structure(name="random", starting_chips=chips, steps=tuple(steps))


@st.composite
def definitions(draw: st.DrawFn) -> TournamentDefinition:
    structure = draw(structures())
    size = draw(st.integers(2, 8))
    entrants = draw(st.integers(2, 60))
    scheduled = draw(st.booleans())
    late = draw(st.integers(0, min(3, len(structure.levels)))) if scheduled else 0
    return TournamentDefinition(
        structure=structure,
        table_size=size,
        min_entrants=2,
        max_entrants=entrants + (draw(st.integers(0, 20)) if scheduled else 0),
        start=Start.AT_TIME if scheduled else Start.WHEN_FULL,
        starts_at=START if scheduled else None,
        late_registration=late,
        reentries=draw(st.integers(0, 2)) if late else 0,
        buy_in=draw(st.sampled_from((0, 1, 7, 100))),
        payouts=draw(st.sampled_from((None, (5000, 3000, 2000), (10000,)))),
    )


@settings(max_examples=120)
@given(definition=definitions(), seed=st.integers(0, 2**32), play=st.integers(0, 2**32))
def test_random_tournaments_keep_every_invariant_and_end(
    definition: TournamentDefinition, seed: int, play: int
) -> None:
    rnd = random.Random(play)  # the hands' outcomes, their order, the latecomers
    td = Director(definition, rng=random.Random(seed))
    t0 = START.timestamp() - 600 if definition.start is Start.AT_TIME else 0.0
    driver = Driver(td, rnd, now=t0, round_trip_every=rnd.choice((0, 7)))
    count = definition.max_entrants if definition.is_sit_and_go else rnd.randint(2, 40)
    count = min(count, definition.max_entrants)
    for i in range(count):
        driver.handle(Register(now=t0, player=f"p{i}"))
    if definition.late_registration:
        # latecomers, and busted players coming back (refused when out of re-entries)
        driver.late_players = [f"late{i}" for i in range(rnd.randint(0, 10))]
        driver.late_players += [f"p{rnd.randrange(count)}" for _ in range(rnd.randint(0, 10))]
        rnd.shuffle(driver.late_players)
    if definition.start is Start.AT_TIME:
        driver.now = START.timestamp()
        driver.handle(Tick(now=driver.now))
    finished = driver.run()
    assert len(finished.results) == len(driver.td.entries) >= count
