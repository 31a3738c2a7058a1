"""A tournament as the lobby shows it: its summary and its detail (the wire's bodies);
and as the operator's console watches it (:func:`console_line`)."""

from __future__ import annotations

from collections.abc import Mapping

from stud8.server.books.tournaments import StoredEntry
from stud8.server.tournaments.info import place_prizes
from stud8.server.wire.admin import ConsoleTournament, ConsoleTournamentTable
from stud8.server.wire.tournaments import (
    TournamentDetail,
    TournamentEntry,
    TournamentLevel,
    TournamentPrize,
    TournamentSummary,
    TournamentTableSeats,
)
from stud8.tournament.definition import Level
from stud8.tournament.director import Director, Phase

__all__ = ["console_line", "detail_of", "places_out", "summary_of"]


def summary_of(tid: int, director: Director, phase: Phase) -> TournamentSummary:
    d = director.definition
    return TournamentSummary(
        tournament_id=tid,
        name=d.name,
        game=d.game.value,
        structure=d.structure.name,
        phase=phase,
        start=d.start.value,
        starts_at=None if d.starts_at is None else d.starts_at.isoformat(),
        buy_in=d.buy_in,
        fee=d.fee,
        starting_chips=d.starting_chips,
        table_size=d.table_size,
        min_entrants=d.min_entrants,
        max_entrants=d.max_entrants,
        entries=len(director.entries),
        players_left=director.players_left,
        prize_pool=director.prize_pool,
        level=director.level,
    )


def places_out(director: Director) -> dict[int, tuple[int, int]]:
    """The place (the first of those shared) and how many share it of each entry out
    so far, as the director placed it when it went out (none while registration is
    open: a late entry would change them): the first out of N entries is N-th."""
    if director.registration_open:
        return {}
    placed: dict[int, tuple[int, int]] = {}
    total, gone = len(director.entries), 0
    for _hand, group in director.eliminations:  # first out first, each a tie group
        gone += len(group)
        for entry in group:
            placed[entry] = (total - gone + 1, len(group))
    return placed


def detail_of(
    tid: int,
    director: Director,
    phase: Phase,
    tables: Mapping[int, str],
    bots: set[str],
    stored: Mapping[int, StoredEntry],
    now: float,
) -> TournamentDetail:
    d = director.definition
    levels: list[TournamentLevel] = []
    number = 0
    for step in d.structure.steps:
        if isinstance(step, Level):
            number += 1
            levels.append(
                TournamentLevel(
                    number,
                    step.ante,
                    step.bring_in,
                    step.small_bet,
                    step.big_bet,
                    step.minutes,
                    step.hands,
                    0,
                )
            )
        else:
            levels.append(TournamentLevel(0, 0, 0, 0, 0, None, None, step.minutes))
    results = {r.entry: r for r in director.results}
    places = {
        e.entry: (e.place, e.shared) for e in stored.values() if e.place is not None
    }  # from the database once paid
    out_so_far = places_out(director)  # while it runs: the busted, placed

    def entry_of(entry: int) -> TournamentEntry:
        e = director.entries[entry]
        r = results.get(entry)
        known = places.get(entry) or out_so_far.get(entry)
        place, shared = (r.place, r.shared) if r else known if known else (None, 1)
        return TournamentEntry(
            entry=e.entry,
            player=e.player,
            bot=e.player in bots,
            chips=e.chips,
            table_id=tables.get(e.table) if e.table is not None else None,
            seat=e.seat,
            out=e.out,
            place=place,
            shared=shared,
            prize=r.prize if r else 0,
        )

    deadline = director.next_deadline() if director.phase is Phase.RUNNING else None
    seats: dict[int, list[str]] = {}
    for n, t in sorted(director.tables.items()):
        seats[n] = [director.entries[e].player for _, e in sorted(t.seats.items())]
    left = director.players_left
    return TournamentDetail(
        summary=summary_of(tid, director, phase),
        levels=levels,
        late_registration=d.late_registration,
        reentries=d.reentries,
        registration_open=director.registration_open
        and phase in (Phase.REGISTERING, Phase.RUNNING),
        on_break=director.on_break,
        seconds_left=None if deadline is None else round(max(0.0, deadline - now), 3),
        average_stack=director.chips_in_play // left if left else 0,
        entrants=[entry_of(e) for e in sorted(director.entries)],
        payouts=[TournamentPrize(p, prize) for p, prize in place_prizes(director)],
        tables=[
            TournamentTableSeats(tables.get(n, f"T{tid}-{n}"), n, players)
            for n, players in seats.items()
        ],
        results=[entry_of(r.entry) for r in director.results],
    )


def console_line(
    tid: int, director: Director, phase: Phase, tables: Mapping[int, str], now: float
) -> ConsoleTournament:
    """The tournament now, for the operator's console (its node left for the caller)."""
    d = director.definition
    levels = d.structure.levels
    stakes = levels[min(max(director.level, 1), len(levels)) - 1]
    deadline = director.next_deadline() if director.phase is Phase.RUNNING else None
    return ConsoleTournament(
        tournament_id=tid,
        name=d.name,
        phase=phase,
        entries=len(director.entries),
        players_left=director.players_left,
        level=director.level,
        small_bet=stakes.small_bet,
        big_bet=stakes.big_bet,
        ante=stakes.ante,
        on_break=director.on_break,
        seconds_left=None if deadline is None else round(max(0.0, deadline - now), 1),
        tables=[
            ConsoleTournamentTable(
                tables.get(n, f"T{tid}-{n}"),
                [director.entries[e].player for _, e in sorted(t.seats.items())],
            )
            for n, t in sorted(director.tables.items())
        ],
        prize_pool=director.prize_pool,
        node=None,
    )
