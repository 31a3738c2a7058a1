"""A tournament's summary as PokerStars writes it (its "tournament summary" file).

A room chip is written as a dollar (as the tournament's hand histories write the
buy-in): the buy-in ``$B/$F USD``, the prize pool and each prize in dollars, each
prize's share of the pool in percent. Places shared by players busted in the same
hand with as many chips are each written with their place number.

>>> from datetime import UTC, datetime
>>> from stud8.core.rules import Game
>>> print(tournament_summary(number=7, game=Game.STUD_HI_LO, buy_in=100, fee=10, entries=3,
...       prize_pool=300, started_at=datetime(2026, 11, 26, 12, tzinfo=UTC),
...       places=[SummaryPlace(1, "ann", 300), SummaryPlace(2, "bob", 0),
...               SummaryPlace(3, "cat", 0)], finished=True), end="")
PokerStars Tournament #7, 7 Card Stud Hi/Lo Limit
Buy-In: $100/$10 USD
3 players
Total Prize Pool: $300 USD
Tournament started 2026/11/26 7:00:00 ET
  1: ann, $300 (100%)
  2: bob,
  3: cat,
Tournament finished
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from stud8.core.rules import Game
from stud8.formats.pokerstars import header_date
from stud8.formats.pokerstars.write import GAME_NAMES

__all__ = ["SummaryPlace", "tournament_summary"]


@dataclass(frozen=True, slots=True)
class SummaryPlace:
    place: int
    player: str
    prize: int


def _percent(prize: int, pool: int) -> str:
    share = 100 * prize / pool if pool else 0.0
    text = f"{share:.2f}".rstrip("0").rstrip(".")
    return f"{text}%"


def tournament_summary(
    *,
    number: int,
    game: Game,
    buy_in: int,
    fee: int,
    entries: int,
    prize_pool: int,
    started_at: datetime,
    places: Sequence[SummaryPlace],
    finished: bool,
) -> str:
    """The summary's text (see the module); ``places`` best first."""
    lines = [
        f"PokerStars Tournament #{number}, {GAME_NAMES[game]} Limit",
        f"Buy-In: ${buy_in}/${fee} USD" if buy_in or fee else "Freeroll",
        f"{entries} players",
        f"Total Prize Pool: ${prize_pool} USD",
        f"Tournament started {header_date(started_at)}",
    ]
    for p in sorted(places, key=lambda p: (p.place, p.player)):
        won = f" ${p.prize} ({_percent(p.prize, prize_pool)})" if p.prize else ""
        lines.append(f"  {p.place}: {p.player},{won}")
    if finished:
        lines.append("Tournament finished")
    return "\n".join(lines) + "\n"
