"""The ready structures: regular, turbo and hyper.

All three climb the same ladder of fixed-limit stakes (ante, bring-in, small bet, big
bet: the ante about a fifth of the small bet and the bring-in about a third, as Stud
tournaments play), from 20/40; they differ in the starting chips and in how long a
level lasts:

========  ==============  =============  ======================================
name      starting chips  level          breaks
========  ==============  =============  ======================================
regular   3000            10 minutes     5 minutes after every 6th level
turbo     1500            5 minutes      none
hyper     500             3 minutes      none
========  ==============  =============  ======================================

>>> STRUCTURES["hyper"].levels[0].stakes, len(STRUCTURES["hyper"].levels)
((5, 10, 20, 40), 26)
>>> [str(s) for s in STRUCTURES["regular"].steps[5:8]]
['ante 25, bring-in 50, 150/300, 10 min', 'break, 5 min', 'ante 30, bring-in 60, 200/400, 10 min']
"""

from __future__ import annotations

from stud8.tournament.definition import Break, Level, Step, Structure

__all__ = ["LADDER", "STRUCTURES", "ladder_structure"]

#: (ante, bring-in, small bet, big bet), level by level.
LADDER: tuple[tuple[int, int, int, int], ...] = (
    (5, 10, 20, 40),
    (5, 10, 30, 60),
    (10, 15, 50, 100),
    (15, 25, 80, 160),
    (20, 30, 100, 200),
    (25, 50, 150, 300),
    (30, 60, 200, 400),
    (50, 100, 300, 600),
    (75, 125, 400, 800),
    (100, 150, 500, 1000),
    (100, 200, 600, 1200),
    (150, 250, 800, 1600),
    (200, 300, 1000, 2000),
    (300, 500, 1500, 3000),
    (400, 600, 2000, 4000),
    (500, 1000, 3000, 6000),
    (750, 1250, 4000, 8000),
    (1000, 1500, 5000, 10000),
    (1000, 2000, 6000, 12000),
    (1500, 2500, 8000, 16000),
    (2000, 3000, 10000, 20000),
    (3000, 5000, 15000, 30000),
    (4000, 6000, 20000, 40000),
    (5000, 10000, 30000, 60000),
    (7500, 12500, 40000, 80000),
    (10000, 15000, 50000, 100000),
)


def ladder_structure(
    name: str,
    *,
    starting_chips: int,
    minutes: int | None = None,
    hands: int | None = None,
    break_every: int = 0,
    break_minutes: int = 5,
) -> Structure:
    """The ladder, each level ``minutes`` (or ``hands``) long, with a break of
    ``break_minutes`` after every ``break_every``-th level (0: none)."""
    steps: list[Step] = []
    for n, (ante, bring_in, small, big) in enumerate(LADDER, 1):
        steps.append(
            Level(
                ante=ante,
                bring_in=bring_in,
                small_bet=small,
                big_bet=big,
                minutes=minutes,
                hands=hands,
            )
        )
        if break_every and n % break_every == 0 and n < len(LADDER):
            steps.append(Break(minutes=break_minutes))
    return Structure(name=name, starting_chips=starting_chips, steps=tuple(steps))


STRUCTURES: dict[str, Structure] = {
    "regular": ladder_structure("regular", starting_chips=3000, minutes=10, break_every=6),
    "turbo": ladder_structure("turbo", starting_chips=1500, minutes=5),
    "hyper": ladder_structure("hyper", starting_chips=500, minutes=3),
}
