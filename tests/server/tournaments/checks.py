"""The invariants of a tournament in the room, checked after every event."""

from __future__ import annotations

from stud8.tournament.director import Director, Phase
from stud8.tournament.events import Decision


def check_invariants(td: Director, decisions: tuple[Decision, ...]) -> None:
    """Chips conserved; every table within one player of the others, but for a longer
    one still in its hand (TDA 11); every live entry seated once."""
    start = td.definition.starting_chips
    assert td.chips_in_play == start * len(td.entries), "tournament chips made or lost"
    if td.phase is not Phase.RUNNING:
        return
    tables = [t for n, t in td.tables.items() if n not in td.closing]
    counts = [t.players for t in tables]
    if counts and max(counts) - min(counts) > 1:
        longest = [t for t in tables if t.players >= min(counts) + 2]
        assert all(t.in_hand for t in longest), f"unbalanced: {counts}"
    seated = [e for t in td.tables.values() for e in t.seats.values()]
    assert sorted(seated) == sorted(e.entry for e in td.alive)
