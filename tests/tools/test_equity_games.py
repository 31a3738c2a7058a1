"""Equity in Seven Card Stud (high only) and Razz (RULES.md 8): the same kernels on the
game's tables (:func:`stud8.tools.fasteval.game_tables`), checked against the engine's
own evaluation, hand by hand and over every deal of a small position."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from stud8.core.cards import Card, parse_cards
from stud8.core.evaluate import best_razz_low, hi_lo_codes
from stud8.core.rules import Game
from stud8.tools.equity import equity

DECK = [Card.from_code(c) for c in range(52)]


def strength(game: Game, cards: Sequence[Card]) -> int:
    """What wins ``game``'s pot, higher better: the high, or Razz's ace-to-five low."""
    if game is Game.RAZZ:
        return best_razz_low(cards).strength
    return hi_lo_codes([c.code for c in cards])[0]


@settings(max_examples=150, deadline=None)
@given(st.permutations(range(52)), st.sampled_from([Game.RAZZ, Game.STUD_HIGH]))
def test_rules_8_a_complete_hand_wins_as_the_engine_says(order: list[int], game: Game) -> None:
    """Seven cards each, nothing to come: the better hand of the game takes the whole
    pot (a tie splits it), and nobody ever has an 8-or-better low."""
    a = [DECK[c] for c in order[:7]]
    b = [DECK[c] for c in order[7:14]]
    result = equity([a, b], game=game)
    sa, sb = strength(game, a), strength(game, b)
    expected = 1.0 if sa > sb else 0.0 if sa < sb else 0.5
    first = result.players[0]
    assert first.ev == expected
    assert first.scoop == (1.0 if sa > sb else 0.0)
    assert first.low_win == first.low_tie == 0.0
    assert result.no_low == 1.0


def slow_share(game: Game, players: Sequence[str]) -> tuple[list[Fraction], int]:
    """Each player's share of the pot over every deal of the cards to come (each
    player's own, 7 in all), by the engine's evaluation."""
    hands = [parse_cards(p) for p in players]
    seen = {c for h in hands for c in h}
    pool = [c for c in DECK if c not in seen]
    need = [7 - len(h) for h in hands]
    shares = [Fraction(0)] * len(hands)
    count = 0
    for first in combinations(pool, need[0]):
        rest = [c for c in pool if c not in first]
        for second in combinations(rest, need[1]):
            values = [
                strength(game, [*hands[0], *first]),
                strength(game, [*hands[1], *second]),
            ]
            best = max(values)
            winners = [i for i, v in enumerate(values) if v == best]
            for i in winners:
                shares[i] += Fraction(1, len(winners))
            count += 1
    return [s / count for s in shares], count


def test_rules_8_razz_and_stud_on_6th_street_count_every_deal() -> None:
    """Heads-up on 6th street (one card each to come): the exact count equals the
    engine's evaluation of every deal, in Razz (a wheel draw against a made 8, a pair
    counting against its holder) and in Stud (a flush draw against trips)."""
    positions = {
        Game.RAZZ: ["As 2d 3c 4h Kd Qs", "8c 7d 6h 2s 3d Ac"],
        Game.STUD_HIGH: ["Ah Kh 7h 2h 9c 4d", "Qs Qd Qc 5s 8d 3c"],
    }
    for game, players in positions.items():
        result = equity(players, game=game)
        shares, count = slow_share(game, players)
        assert result.method == "exact" and result.outcomes == count
        for player, share in zip(result.players, shares, strict=True):
            assert abs(player.ev - float(share)) < 1e-12
            assert player.low_win == 0.0
        assert abs(sum(p.ev for p in result.players) - 1.0) < 1e-12


def test_the_hi_lo_game_is_the_default_and_differs_from_the_others() -> None:
    players = ["As 2d 3c 4h Kd", "Qh Qs 8c 9d Jc"]
    hi_lo = equity(players, dead="5c 6d Tc 2h")
    assert hi_lo.players == equity(players, dead="5c 6d Tc 2h", game=Game.STUD_HI_LO).players
    assert hi_lo.players[0].low_win > 0
    stud = equity(players, dead="5c 6d Tc 2h", game=Game.STUD_HIGH)
    # the high's chances are the game's whole pot in Stud: the same counts as Hi/Lo's
    assert stud.players[0].high_win == hi_lo.players[0].high_win
    first = stud.players[0]
    assert abs(first.ev - (first.high_win + first.high_tie / 2)) < 1e-12
