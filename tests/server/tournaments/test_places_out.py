"""The lobby's places of the entries out while a tournament runs
(:func:`stud8.server.tournaments.views.places_out`, so the browser can tell a busted
player his place at once): each is the place the director gave when he went out, and
at the end the place of the results."""

from __future__ import annotations

import random

import pytest

from stud8.server.tournaments.views import places_out
from stud8.tools.tournament_sim import TournamentSimConfig, simulate_tournament
from stud8.tournament.director import Director
from stud8.tournament.events import Busted, Decision


@pytest.mark.parametrize(("players", "table_size", "seed"), [(6, 6, 1), (13, 4, 2), (20, 8, 3)])
def test_the_places_out_are_the_directors(players: int, table_size: int, seed: int) -> None:
    busted: dict[int, tuple[int, int]] = {}

    def observe(director: Director, decisions: tuple[Decision, ...]) -> None:
        for d in decisions:
            if isinstance(d, Busted):
                assert d.place is not None  # no late registration
                busted[d.entry] = (d.place, d.shared)
        assert places_out(director) == busted

    config = TournamentSimConfig(
        players=players, seed=seed, table_size=table_size, structure="hyper"
    )
    result = simulate_tournament(config, observe)
    assert len(busted) == players - 1
    for r in result.results[1:]:
        assert busted[r.entry] == (r.place, r.shared)


def test_no_places_while_registration_is_open() -> None:
    from stud8.tournament import STRUCTURES, TournamentDefinition

    definition = TournamentDefinition(name="t", structure=STRUCTURES["turbo"], max_entrants=4)
    director = Director(definition, rng=random.Random(1))
    assert director.registration_open
    assert places_out(director) == {}
