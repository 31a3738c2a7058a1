"""Seats: the draw, balancing by position and breaking (TDA 7, 10, 11), unit by unit."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from stud8.tournament.seating import (
    TableState,
    balance_move,
    break_table,
    draw_seats,
    late_seat,
)


def table(
    number: int,
    seats: dict[int, int],
    *,
    size: int = 8,
    hand: int | None = None,
    opened: list[int] | None = None,
) -> TableState:
    return TableState(
        number=number, size=size, seats=dict(seats), hand=hand, opened=list(opened or [])
    )


def test_the_last_seat_opened_at_the_short_table_is_filled_by_that_seat_at_the_long_one() -> None:
    """TDA 11A, Stud: players move by position."""
    long_ = table(2, {s: 20 + s for s in range(1, 9)})
    short = table(1, {1: 1, 2: 2, 5: 5, 6: 6, 7: 7, 8: 8}, opened=[4, 3])
    assert balance_move([short, long_]) == (long_, 3, short, 3)


def test_if_that_seat_is_empty_at_the_long_table_the_next_one_clockwise_moves() -> None:
    long_ = table(2, {1: 21, 2: 22, 5: 25, 6: 26, 7: 27, 8: 28, 4: 24})  # seat 3 empty
    short = table(1, {1: 1, 2: 2, 6: 6, 7: 7, 8: 8}, opened=[3])
    assert balance_move([short, long_]) == (long_, 4, short, 3)
    wraps = table(3, {1: 31, 2: 32, 3: 33, 4: 34, 5: 35, 6: 36, 7: 37})  # seat 8 empty
    short = table(1, {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, opened=[8])
    assert balance_move([short, wraps]) == (wraps, 1, short, 8)


def test_a_seat_never_opened_is_filled_lowest_first() -> None:
    long_ = table(2, {s: 20 + s for s in range(1, 8)})
    short = table(1, {2: 2, 3: 3, 4: 4, 8: 8})
    assert balance_move([short, long_]) == (long_, 1, short, 1)


def test_the_table_to_move_from_is_the_longest_highest_numbered_and_between_hands() -> None:
    """TDA 11C: a predetermined table; a table in a hand gives nobody."""
    a = table(1, {s: 10 + s for s in range(1, 5)})
    b = table(2, {s: 20 + s for s in range(1, 7)})
    c = table(3, {s: 30 + s for s in range(1, 7)})
    move = balance_move([a, b, c])
    assert move is not None and move[0] is c and move[2] is a
    c.hand = 9
    move = balance_move([a, b, c])
    assert move is not None and move[0] is b
    b.hand = 10
    assert balance_move([a, b, c]) is None  # table 1 halts until one is over
    assert balance_move([table(1, {1: 1, 2: 2}), table(2, {1: 3, 2: 4, 3: 5})]) is None


@given(st.integers(2, 500), st.integers(2, 8), st.integers(0, 2**32))
def test_the_draw_seats_everyone_once_at_as_few_tables_within_one(
    players: int, size: int, seed: int
) -> None:
    tables = draw_seats(list(range(1, players + 1)), size, random.Random(seed))
    assert len(tables) == -(-players // size)
    counts = [t.players for t in tables]
    assert max(counts) - min(counts) <= 1
    assert sorted(e for t in tables for e in t.seats.values()) == list(range(1, players + 1))
    assert all(1 <= s <= size for t in tables for s in t.seats)


@given(st.lists(st.integers(0, 8), min_size=2, max_size=8), st.integers(0, 2**32))
def test_a_broken_table_s_players_go_to_the_shortest_tables_at_random_seats(
    counts: list[int], seed: int
) -> None:
    """TDA 10: a table, then a seat, drawn at random, keeping the tables balanced."""
    rnd = random.Random(seed)
    tables = [
        table(n, dict(zip(rnd.sample(range(1, 9), c), range(100 * n, 100 * n + c), strict=True)))
        for n, c in enumerate(counts, 1)
    ]
    broken, others = tables[-1], tables[:-1]
    free = sum(8 - t.players for t in others)
    if broken.players > free:
        return
    moves = break_table(broken, others, random.Random(seed))
    assert sorted(e for _, e, _, _ in moves) == sorted(broken.seats.values())
    placed: dict[int, set[int]] = {}
    for _, _, t, seat in moves:
        assert seat not in t.seats and seat not in placed.setdefault(t.number, set())
        placed[t.number].add(seat)
    after = [t.players + len(placed.get(t.number, ())) for t in others]
    before = [t.players for t in others]
    # the players went to the shortest tables first: no table got one while another,
    # shorter by two or more after the break, had room
    for i, t in enumerate(others):
        if placed.get(t.number):
            assert all(after[i] <= after[j] + 1 or after[j] == 8 for j in range(len(others)))
    assert sum(after) - sum(before) == broken.players


def test_a_late_registrant_sits_at_one_of_the_shortest_tables_or_needs_a_new_one() -> None:
    a = table(1, {s: s for s in range(1, 8)})
    b = table(2, {s: 10 + s for s in range(1, 7)})
    where = late_seat([a, b], random.Random(1))
    assert where is not None and where[0] is b and where[1] in (7, 8)
    full = [table(1, {s: s for s in range(1, 9)})]
    assert late_seat(full, random.Random(1)) is None
