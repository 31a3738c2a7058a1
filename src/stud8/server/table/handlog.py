"""The hand's log: what its history tells beyond the engine's events.

A part of the table's owner task (:class:`stud8.server.table.owner.Table` holds
one): when the hand started and when each of its events happened, the seats with
chips that were not dealt in (listed as sitting out), and the table's lines said
during it ("ann is sitting out", after her clock ran out). At the hand's end it
makes the hand's :class:`~stud8.formats.record.HandRecord`. A new hand's id is
drawn here (:func:`new_hand_id`).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from itertools import repeat

from stud8.core.hand import Hand
from stud8.formats.record import HandRecord, SeatRecord, TableLine

__all__ = ["HandLog", "new_hand_id"]


def new_hand_id() -> str:
    """A new hand's id: an 18-digit number, which is also its number in PokerStars
    text (:func:`~stud8.formats.pokerstars.write.hand_number` of a number is the
    number), so the log, the table, the histories, the replayer and the REST API
    all name the hand alike. Drawn at random from 9 * 10**17: two hands of a room
    share one with a chance of about n**2 / 2e18 among n hands."""
    return str(10**17 + secrets.randbelow(9 * 10**17))


class HandLog:
    """The log of the hand in play (the last one, between hands)."""

    def __init__(self) -> None:
        self.started_at: datetime | None = None
        self._times: list[datetime] = []  # when each event of the hand happened
        self._idle: tuple[SeatRecord, ...] = ()  # seated, not dealt in
        self._lines: list[TableLine] = []
        self._mixed = ""

    def start(self, started_at: datetime, idle: tuple[SeatRecord, ...], mixed: str = "") -> None:
        """A new hand: started at ``started_at``, ``idle`` seated and not dealt in;
        ``mixed``: the mixed game it is a hand of ("Triple Stud"), or ""."""
        self.started_at = started_at
        self._mixed = mixed
        self._times = []
        self._idle = idle
        self._lines = []

    def happened(self, count: int, at: datetime) -> None:
        """``count`` more events of the hand happened ``at``."""
        self._times.extend(repeat(at, count))

    def sat_out(self, after: int, player: str) -> None:
        """``player`` sits out from the next hand (his clock ran out), told after
        the hand's first ``after`` events."""
        self._lines.append(TableLine(after, f"{player} is sitting out"))

    def record(self, hand: Hand, names: Mapping[int, str], table: str) -> HandRecord:
        """The hand's record, with the seats sitting out and the table's lines."""
        record = HandRecord.from_hand(
            hand, names=dict(names), table=table, started_at=self.started_at, times=self._times
        )
        return replace(record, idle=self._idle, table_lines=tuple(self._lines), mixed=self._mixed)
