"""A table whose books diverged: it takes the ledger's chips and deals no more.

When :meth:`~stud8.server.table.books.TableBooks.hand_ended` raises
:class:`~stud8.server.table.books.BooksDiverged` (the hand was closed otherwise, or
the ledger's chips at the table differ from the table's stacks after it), the
ledger is right and the table is not: :func:`halt_on_divergence` says so in the
log and in the lobby (the table's ``paused``, for good: ``halted``), drops the
held events of a hand whose end was refused (nobody is shown a result the ledger
does not hold; the hand is announced cancelled) and gives every seat the chips the
ledger holds for it. The players may still leave (they cash out what the ledger
holds); the table deals again once an operator has restarted the room, its seats
coming back from the ledger.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

from stud8.server.table.books import BooksDiverged, HandEnd
from stud8.server.table.state import Seat

if TYPE_CHECKING:
    from stud8.server.table.owner import Table

log = logging.getLogger("stud8.server")

HALTED = "stopped: its books disagree with the table ({reason}); an operator must look"


def seated_after(seats: Mapping[int, Seat], final: Mapping[int, int]) -> dict[str, int]:
    """Every seated player's chips once the hand is over (``final``: the stacks of
    the seats dealt in), for the books to check against the ledger."""
    return {seat.player: final.get(n, seat.chips) for n, seat in seats.items()}


async def end_durably(
    table: Table, end: HandEnd, final: dict[int, int]
) -> tuple[dict[int, int], bool]:
    """Keep the hand's end (the table's ``_durably``: retried until it lands); the
    seats' chips after it and whether the hand is announced cancelled: ``final`` and
    the hand's own word, or, if the books diverged, the ledger's chips (the table
    halted) and cancelled unless its end was written."""
    try:
        await table._durably(f"the end of hand {end.hand_id}", lambda: table._books.hand_ended(end))
    except BooksDiverged as exc:
        return halt_on_divergence(table, exc), end.cancelled or not exc.written
    return final, end.cancelled


def halt_on_divergence(table: Table, diverged: BooksDiverged) -> dict[int, int]:
    """Stop ``table`` dealing (see the module); each seat's chips from the ledger."""
    reason = HALTED.format(reason=diverged.reason)
    log.error("table %s: %s", table.table_id, reason)
    table.halted = diverged.reason
    table._handing_over = True  # (no hand is dealt any more)
    table._pause(reason)
    if not diverged.written:
        table._held = []  # the end the ledger refused is never shown
    return {
        n: diverged.ledger.get(seat.player, seat.chips) for n, seat in table.seating.seats.items()
    }
