"""Tables and seats: the random draw, balancing and breaking, by the TDA rules for Stud.

The rules followed (Poker TDA Tournament Rules, 2022 numbering):

* **Rule 7, Random Correct Seating**: seats are drawn at random (:func:`draw_seats`).
* **Rule 8, late registrations and re-entries**: sold full stacks and seated by the
  same random draw, among the shortest tables (:func:`late_seat`).
* **Rule 10, Breaking Tables**: the players of a broken table get new tables and
  seats by a two-step random process: a table drawn at random among those with the
  fewest players (so that the tables stay balanced), then a seat drawn at random at it
  (:func:`break_table`). Tables break in a predetermined order: the highest-numbered
  first.
* **Rule 11, Balancing Tables**: A, in Stud a player moves *by position*: the seat
  filled at the short table is the last one opened there, and the player moved is the
  one at the long table in the same seat number (or, if it is empty, the next one
  clockwise, i.e. the next higher seat number, wrapping); C, the table a player
  moves from is predetermined: the one with the most players, the highest-numbered
  among equals; D, at the director's discretion tables are balanced tightly: no table
  plays two or more players short of another; a short table waits (halts) while the
  long one finishes its hand (:func:`balance_move`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

__all__ = ["TableState", "balance_move", "break_table", "draw_seats", "late_seat"]


@dataclass(slots=True)
class TableState:
    """One table: who sits where, the hand in play (its number and every dealt seat's
    ``(entry, chips)`` at the deal), and the seats in the order they were vacated."""

    number: int
    size: int
    seats: dict[int, int] = field(default_factory=dict)  # seat -> entry
    hand: int | None = None
    dealt: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat -> (entry, chips)
    opened: list[int] = field(default_factory=list)  # vacated seats, the last opened last
    hands_in_level: int = 0

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def in_hand(self) -> bool:
        return self.hand is not None

    def empty_seats(self) -> list[int]:
        return [s for s in range(1, self.size + 1) if s not in self.seats]

    def sit(self, seat: int, entry: int) -> None:
        assert seat not in self.seats and 1 <= seat <= self.size, (self.number, seat)
        self.seats[seat] = entry
        if seat in self.opened:
            self.opened.remove(seat)

    def leave(self, seat: int) -> int:
        entry = self.seats.pop(seat)
        self.opened.append(seat)
        return entry

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "size": self.size,
            "seats": [[s, e] for s, e in sorted(self.seats.items())],
            "hand": self.hand,
            "dealt": [[s, e, c] for s, (e, c) in sorted(self.dealt.items())],
            "opened": list(self.opened),
            "hands_in_level": self.hands_in_level,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TableState:
        return cls(
            number=d["number"],
            size=d["size"],
            seats={s: e for s, e in d["seats"]},
            hand=d["hand"],
            dealt={s: (e, c) for s, e, c in d["dealt"]},
            opened=list(d["opened"]),
            hands_in_level=d["hands_in_level"],
        )


def tables_needed(players: int, size: int) -> int:
    """The fewest tables that seat ``players`` (at least one)."""
    return max(1, -(-players // size))


def draw_seats(entries: list[int], size: int, rng: random.Random) -> list[TableState]:
    """The start (TDA 7): as few tables as seat everyone, within one player of each
    other, every entry at a random table and seat."""
    count = tables_needed(len(entries), size)
    order = list(entries)
    rng.shuffle(order)
    tables = [TableState(number=n, size=size) for n in range(1, count + 1)]
    groups: list[list[int]] = [order[i::count] for i in range(count)]
    for table, group in zip(tables, groups, strict=True):
        for seat, entry in zip(
            sorted(rng.sample(range(1, size + 1), len(group))), group, strict=True
        ):
            table.sit(seat, entry)
    return tables


def _pick_shortest(
    tables: list[TableState], extra: dict[int, int], rng: random.Random
) -> TableState | None:
    """A table drawn at random among those with a free seat and the fewest players
    (counting ``extra`` players already assigned to them)."""
    open_ = [t for t in tables if t.players < t.size]
    if not open_:
        return None
    fewest = min(t.players + extra.get(t.number, 0) for t in open_)
    return rng.choice([t for t in open_ if t.players + extra.get(t.number, 0) == fewest])


def late_seat(tables: list[TableState], rng: random.Random) -> tuple[TableState, int] | None:
    """Where a late registrant sits (TDA 8): a random seat at a random table among the
    shortest with a free seat; None if every table is full (open a new one)."""
    table = _pick_shortest(tables, {}, rng)
    if table is None:
        return None
    return table, rng.choice(table.empty_seats())


def break_table(
    broken: TableState, others: list[TableState], rng: random.Random
) -> list[tuple[int, int, TableState, int]]:
    """Where each player of ``broken`` goes (TDA 10): ``(from_seat, entry, table, seat)``
    in the order drawn. The caller has checked that the others have the seats; it
    moves the players (this only draws)."""
    order = sorted(broken.seats.items())
    rng.shuffle(order)
    extra: dict[int, int] = {}
    taken: dict[int, set[int]] = {}
    out = []
    for from_seat, entry in order:
        candidates = [t for t in others if t.players + extra.get(t.number, 0) < t.size]
        table = _pick_shortest_free(candidates, extra, rng)
        free = [s for s in table.empty_seats() if s not in taken.get(table.number, set())]
        seat = rng.choice(free)
        taken.setdefault(table.number, set()).add(seat)
        extra[table.number] = extra.get(table.number, 0) + 1
        out.append((from_seat, entry, table, seat))
    return out


def _pick_shortest_free(
    tables: list[TableState], extra: dict[int, int], rng: random.Random
) -> TableState:
    fewest = min(t.players + extra.get(t.number, 0) for t in tables)
    return rng.choice([t for t in tables if t.players + extra.get(t.number, 0) == fewest])


def balance_move(tables: list[TableState]) -> tuple[TableState, int, TableState, int] | None:
    """The next move that balances the tables (TDA 11), or None: ``(from_table,
    from_seat, to_table, to_seat)``. Only a table between hands gives a player; a short
    table may be in a hand (the player moved joins it for the next one)."""
    if len(tables) < 2:
        return None
    counts = [len(t.seats) for t in tables]
    shortest = min(counts)
    if max(counts) <= shortest + 1:
        return None  # balanced: the common case, decided at once
    sources = [t for t in tables if not t.in_hand and t.players >= shortest + 2]
    if not sources:
        return None
    source = max(sources, key=lambda t: (t.players, t.number))
    target = min(tables, key=lambda t: (t.players, t.number))
    empty = target.empty_seats()
    opened = [s for s in target.opened if s in empty]
    to_seat = opened[-1] if opened else empty[0]
    # by position: the same seat number at the long table, else the next one clockwise
    for k in range(source.size):
        seat = (to_seat - 1 + k) % source.size + 1
        if seat in source.seats:
            return source, seat, target, to_seat
    raise AssertionError("a table with players has an occupied seat")  # pragma: no cover
