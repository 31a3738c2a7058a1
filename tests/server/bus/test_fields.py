"""The bus codec's field readers: exact types, 64-bit numbers, finite floats, card
names, and errors that say where, briefly, whatever the value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from stud8.core.cards import Card
from stud8.server.bus.fields import (
    BusCodecError,
    Layout,
    optional,
    read_bool,
    read_card,
    read_float,
    read_int,
    read_str,
    tuple_of,
)


@pytest.mark.parametrize(
    ("read", "value", "words"),
    [
        (read_int, 1.0, "must be a whole number"),
        (read_int, False, "must be a whole number"),
        (read_int, "1", "must be a whole number"),
        (read_int, 2**63, "must fit in 64 bits"),
        (read_int, -(2**63), "must fit in 64 bits"),
        (read_bool, 0, "must be true or false"),
        (read_str, b"ann", "must be a string"),
        (read_float, float("inf"), "must be a finite number"),
        (read_float, float("nan"), "must be a finite number"),
        (read_float, "1.5", "must be a whole number"),
        (read_card, "td", "must be a card's name"),
        (read_card, "10d", "must be a card's name"),
        (read_card, ["Td"], "must be a card's name"),
    ],
)
def test_a_reader_takes_only_its_exact_type(read: Any, value: object, words: str) -> None:
    with pytest.raises(BusCodecError, match=words) as caught:
        read(value, "here")
    assert caught.value.path == "here"


def test_readers_give_back_what_they_take() -> None:
    assert read_int(2**63 - 1, "x") == 2**63 - 1 and read_int(-(2**63) + 1, "x") == -(2**63) + 1
    assert type(read_float(2, "x")) is int and type(read_float(2.0, "x")) is float
    assert read_card("Td", "x") == Card(10, "d")
    assert tuple_of(optional(read_card))(["As", None], "x") == (Card(14, "s"), None)


def test_an_error_shows_a_huge_or_deep_value_briefly() -> None:
    huge: Any = list(range(100_000))
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    for value in (huge, deep, "x" * 100_000, {str(i): i for i in range(10_000)}):
        with pytest.raises(BusCodecError) as caught:
            read_int(value, "seq")
        assert len(str(caught.value)) < 200


@dataclass(frozen=True)
class Seat:
    seat: int
    player: str


@dataclass(frozen=True)
class Table:
    name: str
    seats: tuple[Seat, ...]


def test_a_layout_reads_its_fields_in_order_and_says_where_one_is_wrong() -> None:
    seat = Layout(
        Seat, "seat", {"seat": (None, read_int, "int"), "player": (None, read_str, "str")}
    )
    seats = tuple_of(seat.decode)
    table = Layout(
        Table, "table", {"name": (None, read_str, "str"), "seats": (None, seats, "seats")}
    )
    assert table.decode(["t1", [[1, "ann"], [2, "bob"]]], "table") == Table(
        "t1", (Seat(1, "ann"), Seat(2, "bob"))
    )
    assert seat.encode(Seat(3, "cat")) == [3, "cat"]
    with pytest.raises(BusCodecError) as caught:
        table.decode(["t1", [[1, "ann"], [2, None]]], "table")
    assert str(caught.value) == "table.seats[1].player: must be a string, got None"
    with pytest.raises(BusCodecError, match="must be a list of its 2 fields"):
        table.decode(["t1"], "table")
