"""What a tournament's tables and lobby say of it: the table's
:class:`~stud8.server.table.events.TournamentInfo`, the prizes by place, and the
PokerStars names (the level in Roman numerals, the buy-in as ``$B+$F USD``).

A room chip is written as a dollar in PokerStars' text (the room plays for play
chips; trackers need a currency on a tournament's header): a buy-in of 100 and a fee
of 10 is ``$100+$10 USD``; a tournament with neither is a ``Freeroll``.

>>> roman(3), roman(14), buy_in_text(100, 10), buy_in_text(0, 0)
('III', 'XIV', '$100+$10 USD', 'Freeroll')
"""

from __future__ import annotations

from stud8.formats.pokerstars.tournament import buy_in_text, roman
from stud8.server.table.events import TournamentInfo
from stud8.tournament.director import Director, Phase
from stud8.tournament.payouts import default_payouts, prizes

__all__ = ["buy_in_text", "place_prizes", "roman", "tournament_info"]


def place_prizes(director: Director) -> tuple[tuple[int, int], ...]:
    """(place, prize) of each paid place, for the entries so far (at least one)."""
    d = director.definition
    shares = d.payouts if d.payouts is not None else default_payouts(max(1, len(director.entries)))
    return tuple((n, p) for n, p in enumerate(prizes(director.prize_pool, shares), 1))


def tournament_info(
    director: Director,
    *,
    tournament_id: int,
    table_number: int,
    phase: Phase,
    now: float,
    notice: str = "",
) -> TournamentInfo:
    """The tournament as ``table_number`` shows it at ``now`` (the director's time)."""
    d = director.definition
    level = d.level(director.level)
    last = len(d.structure.levels)
    following = d.level(director.level + 1) if director.level < last else None
    deadline = director.next_deadline() if director.phase is Phase.RUNNING else None
    alive = sorted(director.alive, key=lambda e: (-e.chips, e.entry))
    left = len(alive)
    # equal stacks share the better place (1st, 1st, 3rd): at the start everybody is
    # tied for 1st, not placed by his entry number
    place: dict[int, int] = {}
    for n, e in enumerate(alive, 1):
        tied = n > 1 and alive[n - 2].chips == e.chips
        place[e.entry] = place[alive[n - 2].entry] if tied else n
    table = director.tables.get(table_number)
    seated = sorted(table.seats.items()) if table is not None else []
    results: tuple[str, ...] = ()
    result_prizes: tuple[tuple[int, int], ...] = ()
    if director.phase is Phase.FINISHED:
        results = tuple(r.player for r in director.results)
        result_prizes = tuple((r.place, r.prize) for r in director.results)
    return TournamentInfo(
        tournament_id=tournament_id,
        name=d.name,
        table_number=table_number,
        phase=phase,
        level=director.level,
        ante=level.ante,
        bring_in=level.bring_in,
        small_bet=level.small_bet,
        big_bet=level.big_bet,
        next_ante=following.ante if following else 0,
        next_bring_in=following.bring_in if following else 0,
        next_small_bet=following.small_bet if following else 0,
        next_big_bet=following.big_bet if following else 0,
        seconds_left=-1.0 if deadline is None else round(max(0.0, deadline - now), 3),
        on_break=director.on_break,
        players_left=left,
        entries=len(director.entries),
        average_stack=director.chips_in_play // left if left else 0,
        prize_pool=director.prize_pool,
        places=tuple((seat, place[entry]) for seat, entry in seated if entry in place),
        results=results,
        result_prizes=result_prizes,
        notice=notice,
    )
