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

from collections.abc import Mapping
from dataclasses import dataclass

from stud8.server.table.books import BooksDiverged, HandEnd
from stud8.server.table.state import Seat
from stud8.server.table.waiting import BookWrites

HALTED = "stopped: its books disagree with the table ({reason}); an operator must look"


@dataclass(frozen=True, slots=True)
class Ended:
    """A hand's end once kept: the seats' chips after it, whether it is announced
    cancelled, and whether its held events are shown (not if the ledger refused it)."""

    final: dict[int, int]
    cancelled: bool
    shown: bool = True


def seated_after(seats: Mapping[int, Seat], final: Mapping[int, int]) -> dict[str, int]:
    """Every seated player's chips once the hand is over (``final``: the stacks of
    the seats dealt in), for the books to check against the ledger."""
    return {seat.player: final.get(n, seat.chips) for n, seat in seats.items()}


async def end_durably(
    writes: BookWrites, end: HandEnd, final: dict[int, int], seats: Mapping[int, Seat]
) -> Ended:
    """Keep the hand's end (retried until it lands): ``final`` and the hand's own
    word, or, if the books diverged, the ledger's chips (the table halted) and
    cancelled, unshown, unless its end was written."""
    try:
        await writes.hand_ended(end)
    except BooksDiverged as exc:
        chips = halt_on_divergence(writes, exc, seats)
        return Ended(chips, end.cancelled or not exc.written, shown=exc.written)
    return Ended(final, end.cancelled)


def halt_on_divergence(
    writes: BookWrites, diverged: BooksDiverged, seats: Mapping[int, Seat]
) -> dict[int, int]:
    """Stop the table dealing (see the module); each seat's chips from the ledger."""
    writes.halt(diverged.reason, HALTED.format(reason=diverged.reason))
    return {n: diverged.ledger.get(seat.player, seat.chips) for n, seat in seats.items()}
