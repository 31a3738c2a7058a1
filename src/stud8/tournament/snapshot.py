"""A director's whole state to JSON-ready data and back, checked on the way in.

The room persists it after every event and resumes from it; the record holds the
definition, the random source's state, the entries, the tables (with the hand in play
at each and every dealt seat's chips at its deal), the clock and the eliminations. A
record that does not hold together (a seat and its entry disagreeing, chips made or
lost, a hand dealt to a busted entry...) is refused with a DirectorError saying what.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from stud8.tournament.definition import TournamentDefinition, TournamentError
from stud8.tournament.seating import TableState

if TYPE_CHECKING:  # the director module imports this one
    from stud8.tournament.director import Director

__all__ = ["check_state", "state_from_dict", "state_to_dict"]


def state_to_dict(td: Director) -> dict[str, Any]:
    version, internal, gauss = td.rng.getstate()
    return {
        "definition": td.definition.to_dict(),
        "rng": [version, list(internal), gauss],
        "phase": td.phase.value,
        "entries": [e.to_list() for e in td.entries.values()],
        "next_entry": td.next_entry,
        "tables": [t.to_dict() for _, t in sorted(td.tables.items())],
        "next_table": td.next_table,
        "step": td.step,
        "elapsed": td.elapsed,
        "last_now": td.last_now,
        "hands_dealt": td.hands_dealt,
        "registration_open": td.registration_open,
        "final_table": td.final_table,
        "closing": list(td.closing),
        "eliminations": [[h, list(g)] for h, g in td.eliminations],
    }


def state_from_dict(cls: type[Director], data: Any) -> Director:
    from stud8.tournament.director import DirectorError, EntryState, Phase

    try:
        definition = TournamentDefinition.from_dict(data["definition"])
        version, internal, gauss = data["rng"]
        rng = random.Random()
        rng.setstate((version, tuple(internal), gauss))
        td = cls(definition, rng=rng)
        td.phase = Phase(data["phase"])
        for entry, player, chips, table, seat, out in data["entries"]:
            td.entries[entry] = EntryState(entry, player, chips, table, seat, out)
        td.next_entry = data["next_entry"]
        td.busted = sum(bool(e.out) for e in td.entries.values())
        for t in data["tables"]:
            table = TableState.from_dict(t)
            td.tables[table.number] = table
        td.next_table = data["next_table"]
        td.step, td.elapsed, td.last_now = data["step"], data["elapsed"], data["last_now"]
        td.hands_dealt = data["hands_dealt"]
        td.registration_open = data["registration_open"]
        td.final_table, td.closing = data["final_table"], list(data["closing"])
        td.eliminations = [(h, tuple(g)) for h, g in data["eliminations"]]
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, TournamentError):
            raise
        raise DirectorError(f"a director's record is malformed: {e!r}") from None
    check_state(td)
    return td


def check_state(td: Director) -> None:
    """Refuse a state that does not hold together (see the module docstring)."""
    from stud8.tournament.director import DirectorError, Phase

    def bad(what: str) -> DirectorError:
        return DirectorError(f"a director's record does not hold together: {what}")

    d = td.definition
    if not isinstance(td.step, int) or not 0 <= td.step < len(d.structure.steps):
        raise bad(f"step {td.step!r} is not a step of the structure")
    for number, state in td.entries.items():
        if state.entry != number or not isinstance(state.chips, int) or state.chips < 0:
            raise bad(f"entry {number}: {state.to_list()}")
        if td.phase is not Phase.REGISTERING and (state.chips == 0) != bool(state.out):
            raise bad(f"entry {number} has {state.chips} chips but out={state.out!r}")
    if sum(e.chips for e in td.entries.values()) != d.starting_chips * len(td.entries):
        raise bad("the chips do not add up to the entries' starting chips")
    seen: set[int] = set()
    for n, t in td.tables.items():
        if t.size != d.table_size:
            raise bad(f"table {n} seats {t.size}, the tournament {d.table_size}")
        for seat, e in t.seats.items():
            entry = td.entries.get(e)
            if not 1 <= seat <= t.size or entry is None or entry.out or e in seen:
                raise bad(f"table {n}, seat {seat}: entry {e!r}")
            if (entry.table, entry.seat) != (n, seat):
                raise bad(f"entry {e} is at table {entry.table} seat {entry.seat}, not {n}/{seat}")
            seen.add(e)
        for seat, (e, chips) in t.dealt.items():
            entry = td.entries.get(e)
            if t.hand is None or entry is None or entry.out or entry.chips != chips:
                raise bad(f"table {n}: the hand dealt to seat {seat} (entry {e!r}, {chips!r})")
    alive = {e.entry for e in td.entries.values() if not e.out}
    if td.phase is Phase.RUNNING and seen != alive:
        raise bad(f"entries {sorted(alive ^ seen)} are not seated once each")
    if not set(td.closing) <= set(td.tables):
        raise bad(f"closing tables {td.closing} are not all open")
