"""What a tournament's table is told (``tournament_info``): at 180 players the event
sent to every seat at every hand stays as small as a table: each seat's place at
this table, not the whole standings nor the prizes (those are the lobby's, REST)."""

from __future__ import annotations

import random

from stud8.server.tournaments.info import tournament_info
from stud8.server.wire.events import encode_event
from stud8.server.wire.server import event_text
from stud8.tournament import STRUCTURES, TournamentDefinition
from stud8.tournament.director import Director, Phase
from stud8.tournament.events import HandFinished, Register


def started(players: int) -> Director:
    definition = TournamentDefinition(
        name="Big",
        structure=STRUCTURES["turbo"],
        buy_in=100,
        fee=10,
        table_size=8,
        min_entrants=2,
        max_entrants=players,
    )
    director = Director(definition, rng=random.Random(7))
    for n in range(players):
        director.handle(Register(now=1000.0, player=f"entrant{n:03d}"))
    return director


def test_each_table_is_told_its_seats_places_and_the_frame_stays_small() -> None:
    director = started(180)
    # table 1's hand: its first seat wins 100 chips from its second: places move
    table = director.tables[1]
    assert table.hand is not None
    seats = sorted(table.seats.items())
    s1, s2 = seats[0][0], seats[1][0]
    stacks = [(s, director.entries[e].chips) for s, e in seats]
    stacks[0] = (s1, stacks[0][1] + 100)
    stacks[1] = (s2, stacks[1][1] - 100)
    director.handle(HandFinished(now=1010.0, table=1, hand=table.hand, stacks=tuple(stacks)))
    alive = sorted(director.alive, key=lambda e: (-e.chips, e.entry))
    rank = {e.entry: 1 + sum(o.chips > e.chips for o in alive) for e in alive}  # ties share
    told: list[int] = []
    for number, t in sorted(director.tables.items()):
        info = tournament_info(
            director, tournament_id=1, table_number=number, phase=Phase.RUNNING, now=1010.0
        )
        assert info.players_left == 180 and info.entries == 180
        assert dict(info.places) == {seat: rank[e] for seat, e in t.seats.items()}
        told += [p for _, p in info.places]
        frame = event_text(99, encode_event(info))
        assert len(frame.encode()) < 600, len(frame)
        assert "entrant" not in frame  # no other player's name rides along
    # every place told once, at its table: the winner 1st, the 178 untouched tied 2nd
    assert sorted(told) == [1] + [2] * 178 + [180]
    assert (
        dict(
            tournament_info(
                director, tournament_id=1, table_number=1, phase=Phase.RUNNING, now=1010.0
            ).places
        )[s1]
        == 1
    )
