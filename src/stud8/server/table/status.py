"""What the lobby shows of a table: its :class:`TableStatus`, published by its owner.

The table's owner task publishes a new status whenever something the lobby shows
changes (a seat taken or freed, the waiting list, a hand finished, the table
stopped or dealing again), so the lobby never reads a table's state: it lists the
last status of each (from the bus's directory, :mod:`stud8.server.bus`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TableStatus"]


@dataclass(frozen=True, slots=True)
class TableStatus:
    """``players`` by seat, in seat order; ``waiting``: how many on the waiting
    list; ``average_pot`` and ``hands_per_hour`` over the last hour; ``paused``:
    why the table has stopped dealing (its books cannot be written), or None."""

    table_id: str
    players: tuple[str, ...] = ()
    waiting: int = 0
    hands_played: int = 0
    average_pot: float = 0.0
    hands_per_hour: float = 0.0
    paused: str | None = None
