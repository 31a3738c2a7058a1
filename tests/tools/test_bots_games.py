"""The bots play the table's game (RULES.md 8): in Seven Card Stud they value their
hand for high only, in Razz for the ace-to-five low only; in Stud Hi/Lo as before.

The same cards get opposite decisions in the two games: a big pair is a hand in Stud
and junk in Razz, three wheel cards are a hand in Razz and little in Stud, a made
7-low bets in Razz and gives up in Stud, a full house the other way round. And a bot
that knows the game beats the same bot valuing every hand as Stud Hi/Lo."""

from __future__ import annotations

import random

import pytest
from test_bots import facing_bet, make_view, unopened

from stud8.core import Deck, Game, Hand, TableRules
from stud8.core.actions import Action, ActionKind, BringIn, Complete, Fold, LegalAction
from stud8.core.cards import parse_cards
from stud8.core.views import HandView
from stud8.tools.bots import BOTS, Bot, EquityBot, RuleBasedBot, play_hand
from stud8.tools.bots.window import play_fast
from stud8.tools.simulate import GAMES, SimulationConfig, simulate

BOT_KINDS = ("rules", "equity")


def make_bot(kind: str, seed: int = 0, game: Game = Game.STUD_HI_LO) -> Bot:
    """A bot made for ``game`` (a HandView does not say the game: the table's seat
    window does, and the bot made for a table plays its game)."""
    if kind == "equity":
        return EquityBot(random.Random(seed), trials=600, game=game)
    return RuleBasedBot(random.Random(seed), game=game)


def third_street(game: Game, seat1: str, seat2: str, seat3: str) -> Hand:
    """Three players; each gets two down cards and an up card (the last written)."""
    a, b, c = (parse_cards(t) for t in (seat1, seat2, seat3))
    order = [a[0], b[0], c[0], a[1], b[1], c[1], a[2], b[2], c[2]]
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, game=game)
    return Hand.start(rules=rules, stacks={1: 200, 2: 200, 3: 200}, deck=Deck.from_cards(order))


def facing_completion(game: Game, cards: str) -> HandView:
    """Seat 1's view after the bring-in and a completion (seat 1 to act)."""
    if game is Game.RAZZ:  # the highest card brings in: the Kc of seat 2
        hand = third_street(game, cards, "Ts 8h Kc", "9d 9s 3h")
    else:  # the lowest card brings in: the 2c of seat 2
        hand = third_street(game, cards, "Ts 8h 2c", "9d 9s 6h")
    assert hand.to_act == 2
    hand.apply(BringIn())
    hand.apply(Complete())
    assert hand.to_act == 1
    view = hand.view(1)
    return view


@pytest.mark.parametrize("kind", BOT_KINDS)
@pytest.mark.parametrize("seed", range(3))
def test_third_street_big_pair_plays_in_stud_and_folds_in_razz(kind: str, seed: int) -> None:
    kings = "Kd Ks 4c"  # a pair of kings: a hand in Stud, a kings-high pair in Razz
    assert on_third(kind, seed, Game.STUD_HIGH, kings).kind in (
        ActionKind.CALL,
        ActionKind.RAISE,
    )
    assert on_third(kind, seed, Game.RAZZ, kings) == Fold()


@pytest.mark.parametrize("kind", BOT_KINDS)
@pytest.mark.parametrize("seed", range(3))
def test_third_street_wheel_cards_play_in_razz_and_fold_in_stud(kind: str, seed: int) -> None:
    wheel = "As 3d 4c"  # three to a wheel: the best start in Razz, rags in Stud
    assert on_third(kind, seed, Game.RAZZ, wheel).kind in (
        ActionKind.CALL,
        ActionKind.RAISE,
    )
    assert on_third(kind, seed, Game.STUD_HIGH, wheel) == Fold()


def later(
    down: str, up: str, legal: tuple[LegalAction, ...], opponents: tuple[str, ...]
) -> HandView:
    """Seat 1's view on 7th street (the game is the bot's: a view does not say it)."""
    return make_view(down, up, legal, street=7, opponents=opponents, pot=60)


def on_third(kind: str, seed: int, game: Game, cards: str) -> Action:
    """What a bot made for ``game`` does with ``cards`` facing a completion."""
    return make_bot(kind, seed, game).act(facing_completion(game, cards))


def on_seventh(
    kind: str, game: Game, cards: tuple[str, str], legal: tuple[LegalAction, ...]
) -> Action:
    """What a bot made for ``game`` does on 7th street with ``cards`` (down, up)."""
    return make_bot(kind, 0, game).act(later(*cards, legal, BOARDS))


SEVEN_LOW = ("As 2d 9h", "4c 5s 7d Kh")  # 7-5-4-2-A low; no pair, king high
FULL_HOUSE = ("Qs Qd 9h", "9c 9s Qh 2d")  # queens full of nines; no low at all
BOARDS = ("Th 8c 5s Js", "Jd 6d 4h 3c")


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_seventh_street_a_made_low_bets_in_razz_and_gives_up_in_stud(kind: str) -> None:
    bet = unopened(8)
    razz = on_seventh(kind, Game.RAZZ, SEVEN_LOW, bet)
    stud = on_seventh(kind, Game.STUD_HIGH, SEVEN_LOW, bet)
    assert razz.kind is ActionKind.BET
    assert stud.kind is ActionKind.CHECK
    facing = facing_bet(8, 16)
    assert on_seventh(kind, Game.RAZZ, SEVEN_LOW, facing).kind in (
        ActionKind.CALL,
        ActionKind.RAISE,
    )
    assert on_seventh(kind, Game.STUD_HIGH, SEVEN_LOW, facing) == Fold()


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_seventh_street_a_full_house_bets_in_stud_and_gives_up_in_razz(kind: str) -> None:
    bet = unopened(8)
    assert on_seventh(kind, Game.STUD_HIGH, FULL_HOUSE, bet).kind is ActionKind.BET
    assert on_seventh(kind, Game.RAZZ, FULL_HOUSE, bet).kind is ActionKind.CHECK
    facing = facing_bet(8, 16)
    assert on_seventh(kind, Game.STUD_HIGH, FULL_HOUSE, facing).kind in (
        ActionKind.CALL,
        ActionKind.RAISE,
    )
    assert on_seventh(kind, Game.RAZZ, FULL_HOUSE, facing) == Fold()


def test_a_bot_that_knows_the_game_beats_one_that_plays_it_as_hi_lo() -> None:
    """In Seven Card Stud (measured over 4,000 hands: about +11 bb/100, 95% CI +-7; in
    Razz only +3 +-5, the Hi/Lo reading already prizing low cards, so Razz is pinned by
    its decisions above rather than by a result)."""
    game = Game.STUD_HIGH
    rng = random.Random(31)
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, game=game)
    seats = (1, 2, 3, 4)
    aware_won = blind_won = 0
    for i in range(1500):
        # two bots know the game, two do not; they swap seats every hand
        aware = (1, 3) if i % 2 == 0 else (2, 4)
        bots: dict[int, Bot] = {
            # a bot made for Stud Hi/Lo values every hand as Hi/Lo (what the bots did before)
            s: RuleBasedBot(random.Random(i * 10 + s), game=game if s in aware else Game.STUD_HI_LO)
            for s in seats
        }
        hand = Hand.start(rules=rules, stacks=dict.fromkeys(seats, 800), deck=Deck.shuffled(rng))
        for seat, chips in play_hand(hand, bots).winnings.items():
            if seat in aware:
                aware_won += chips
            else:
                blind_won += chips
    assert aware_won + blind_won == 0
    assert aware_won > 0.05 * 8 * 1500, aware_won  # at least 5 big bets per 100 hands


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
@pytest.mark.parametrize("kind", BOT_KINDS)
def test_a_window_decides_as_the_view_does_in_every_game(game: Game, kind: str) -> None:
    rng = random.Random(5)
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, game=game)
    for n in range(40 if kind == "rules" else 8):
        deck = Deck.shuffled(rng)
        seats = {1: 300, 2: 300, 3: 300}
        fast = {s: make_bot(kind, n * 10 + s) for s in seats}  # the game from the window
        slow = {s: make_bot(kind, n * 10 + s, game) for s in seats}
        one = Hand.start(rules=rules, stacks=seats, deck=deck)
        play_fast(one, fast)
        two = Hand.start(rules=rules, stacks=seats, deck=deck)
        play_hand(two, slow)
        assert one.decisions == two.decisions


@pytest.mark.parametrize("game", ["stud", "razz"])
def test_simulate_runs_each_game_and_the_bots_beat_calling_stations(game: str) -> None:
    config = SimulationConfig(
        hands=1000,
        bots=("rules", "calling-station", "rules", "calling-station"),
        seed=3,
        game=GAMES[game],
    )
    result = simulate(config)
    assert result.hands == 1000
    nets = [sum(r) for r in result.nets]
    assert sum(nets) == 0
    assert nets[0] > 0 and nets[2] > 0 and nets[0] + nets[2] > 0.1 * 8 * 1000, nets


def test_the_registry_s_bots_act_in_razz_and_stud() -> None:
    for game in (Game.STUD_HIGH, Game.RAZZ):
        rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8, game=game)
        for k, (kind, make) in enumerate(BOTS.items()):
            hand = Hand.start(rules=rules, stacks={1: 100, 2: 100, 3: 100}, deck=Deck.seeded(k))
            play_hand(hand, {s: make(random.Random(s)) for s in (1, 2, 3)})
            assert hand.is_over and hand.result is not None, kind
