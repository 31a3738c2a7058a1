"""A bot that decides by Monte Carlo equity: its cards against what the others show.

At each decision it deals out the rest of the hand a few hundred times
(:func:`stud8.tools.equity.equity`, Monte Carlo): its own cards (down and up) against
every live opponent's up cards, their down cards unknown (``??``, as it sees them),
with the folded players' cards dead (their up cards, and as many unknown cards as they
had down). The result is its expected share of the pot, ``ev``; with ``n`` players
still in, ``ev * n`` is what each chip that everyone puts in brings back.

* Facing a bet it calls when the pot pays for its share (``ev`` at least the call over
  the pot after calling, with a margin for the betting still to come), else folds;
  it raises when ``ev * n`` is well above 1, and only near the nuts once the betting
  has been raised twice.
* With nothing to call it bets when ``ev * n`` is clearly above 1, else checks (it
  never folds when it can check).
* On 3rd street, holding the low card, it brings in, and completes only with a strong
  hand.

It values the hand by the table's game: Stud Hi/Lo (8 or better) by
:mod:`stud8.tools.equity`; Seven Card Stud (high only) and Razz (the ace-to-five low)
by :func:`stud8.tools.bots.games.game_equity`, the same way in pure Python (from a
seat window the game is the table's; from a HandView, the ``game`` it was made for). Its
equity is worked out once a street (again if someone folds), from ``trials`` deals
seeded from its own random source, so a seeded game replays exactly.

>>> import random
>>> from stud8.core import Deck, Hand, TableRules
>>> rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
>>> # Seat 1: rolled-up aces; seat 2 brings in with the 2c.
>>> hand = Hand.start(rules=rules, stacks={1: 100, 2: 100},
...                   deck=Deck.from_cards("As 9d Ah 8c Ad 2c"))
>>> _ = hand.apply(EquityBot(random.Random(2)).act(hand.view(2)))
>>> EquityBot(random.Random(1)).act(hand.view(1))
Complete(to=4)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from stud8.core.actions import Action, ActionKind, LegalAction
from stud8.core.cards import Card
from stud8.core.rules import Game
from stud8.core.views import HandView
from stud8.tools.bots.base import aggressive_action, give_up, passive_action
from stud8.tools.bots.games import game_equity

if TYPE_CHECKING:
    from stud8.tools.bots.window import SeatWindow

__all__ = ["DEFAULT_TRIALS", "EquityBot"]

#: Deals per equity estimate: a standard error of about 0.02 on the share of the pot,
#: for a fraction of a millisecond.
DEFAULT_TRIALS = 400

_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_BRING_IN = ActionKind.BRING_IN
_COMPLETE = ActionKind.COMPLETE
_BET = ActionKind.BET
_RAISE = ActionKind.RAISE
_UNKNOWN = "??"

#: ``ev * players`` to bet (or complete) with nothing to call, to raise a bet, and to
#: raise again once the round has been raised twice.
BET_AT = 1.3
RAISE_AT = 1.55
RERAISE_AT = 1.8
#: The share of the pot a call must win, beyond the pot odds, by street (the bets to
#: come cost more the earlier it is).
CALL_MARGIN = {3: 0.03, 4: 0.05, 5: 0.05, 6: 0.03, 7: 0.0}

_Hands = tuple[tuple[Card | str, ...], ...]


class _Spot:
    """What an equity estimate is for: the cards as the bot sees them."""

    __slots__ = ("community", "dead", "game", "players")

    def __init__(
        self,
        players: _Hands,
        dead: tuple[Card | str, ...],
        community: Card | None,
        game: Game = Game.STUD_HI_LO,
    ):
        self.players = players  # the bot's cards first, then each live opponent's
        self.dead = dead
        self.community = community
        self.game = game

    def key(self) -> tuple[object, ...]:
        return (self.players, self.dead, self.community, self.game)


class EquityBot:
    """Plays by its Monte Carlo equity against the up cards it sees (see the module doc).

    ``trials``: deals per estimate (default :data:`DEFAULT_TRIALS`).
    """

    name = "equity"

    def __init__(
        self, rng: random.Random, trials: int = DEFAULT_TRIALS, *, game: Game = Game.STUD_HI_LO
    ) -> None:
        if not isinstance(trials, int) or isinstance(trials, bool) or trials < 1:
            raise ValueError(f"trials must be a positive whole number, got {trials!r}")
        self.rng = rng
        self.game = game  # the game of act(view): a view does not say it; a window does
        self.trials = trials
        self._key: tuple[object, ...] | None = None
        self.last_equity = 0.0  # the share of the pot last estimated
        self.estimates = 0  # equity estimates made (for tests and benchmarks)

    # ------------------------------------------------------------- the views
    def act(self, view: HandView) -> Action:
        seat = view.viewer
        if seat is None or not view.legal_actions:
            raise ValueError("a bot acts only on its own turn, with its seat's view")
        mine: list[Card | str] = []
        others: list[tuple[Card | str, ...]] = []
        dead: list[Card | str] = []
        for s in view.seats:
            if s.seat == seat:
                mine.extend(c for c in s.down_cards if c is not None)
                mine.extend(s.up_cards)
            elif s.folded:
                dead.extend(s.up_cards)
                dead.extend(_UNKNOWN for _ in s.down_cards)
            else:
                others.append((_UNKNOWN,) * len(s.down_cards) + s.up_cards)
        spot = _Spot((tuple(mine), *others), tuple(dead), view.community_card, self.game)
        return self._choose(spot, view.legal_actions, view.street, view.pot, view.current_bet)

    def decide(self, window: SeatWindow) -> Action:
        """The same choice as :meth:`act`, from a :class:`SeatWindow`."""
        legal = window.legal_actions
        if not legal:
            raise ValueError("a bot acts only on its own turn")
        seat = window.seat
        live = window.live_seats()
        mine: list[Card | str] = list(window.down_cards)
        mine.extend(window.up_cards(seat))
        others: list[tuple[Card | str, ...]] = []
        dead: list[Card | str] = []
        for s, up in zip(window.seats, window.all_up_cards(), strict=True):
            if s == seat:
                continue
            unknown = (_UNKNOWN,) * len(window.others_down(s))
            if s in live:
                others.append(unknown + up)
            else:
                dead.extend(up)
                dead.extend(unknown)
        spot = _Spot((tuple(mine), *others), tuple(dead), window.community_card, window.rules.game)
        return self._choose(spot, legal, window.street, window.pot, window.current_bet)

    # -------------------------------------------------------------- choosing
    def equity_of(self, spot: _Spot) -> float:
        """The bot's expected share of the pot (0 to 1); the same spot is not worked
        out twice in a row."""
        key = spot.key()
        if key == self._key:
            return self.last_equity
        if spot.game is not Game.STUD_HI_LO:
            ev = game_equity(
                spot.game,
                [[None if c == _UNKNOWN else c for c in p] for p in spot.players],  # type: ignore[misc]
                [None if c == _UNKNOWN else c for c in spot.dead],  # type: ignore[misc]
                spot.community,
                self.trials,
                random.Random(self.rng.getrandbits(63)),
            )
            self.estimates += 1
            self._key = key
            self.last_equity = ev
            return ev
        from stud8.tools.equity import EquityInputError, equity

        try:
            result = equity(
                list(spot.players),
                spot.dead,
                method="monte-carlo",
                trials=self.trials,
                seed=self.rng.getrandbits(63),
                community=spot.community,
            )
            ev = result.players[0].ev
        except EquityInputError:  # pragma: no cover - a position the engine cannot reach
            ev = 1.0 / len(spot.players)
        self.estimates += 1
        self._key = key
        self.last_equity = ev
        return ev

    def _choose(
        self,
        spot: _Spot,
        legal_actions: Sequence[LegalAction],
        street: int,
        pot: int,
        current_bet: int,
    ) -> Action:
        legal = {a.kind: a for a in legal_actions}
        players = len(spot.players)
        ev = self.equity_of(spot)
        strength = ev * players  # 1: a fair share
        aggressive = aggressive_action(legal)
        if _BRING_IN in legal:  # the low card on 3rd street
            if aggressive is not None and strength >= RAISE_AT:
                return aggressive
            return legal[_BRING_IN].action()
        call = legal.get(_CALL)
        to_call = call.adds if call is not None else 0
        if to_call == 0:
            if aggressive is not None and strength >= BET_AT:
                return aggressive
            return give_up(legal)
        # Facing a bet: raise with a strong hand, call when the pot pays, else fold.
        raises = _raises_so_far(legal, current_bet)
        need = RAISE_AT if raises < 2 else RERAISE_AT
        if aggressive is not None and strength >= need:
            return aggressive
        price = to_call / (pot + to_call)  # the share of the pot a call must win
        if ev >= price + CALL_MARGIN.get(street, 0.0):
            return passive_action(legal)
        return give_up(legal)


def _raises_so_far(legal: dict[ActionKind, LegalAction], current_bet: int) -> int:
    """Full bets and raises on this street so far (0 facing only the bring-in)."""
    raise_ = legal.get(_RAISE) or legal.get(_COMPLETE)
    if raise_ is None or raise_.min_to is None or raise_.all_in:
        return 3  # capped, or no full raise left: as if raised a lot
    size = raise_.min_to - current_bet
    if size <= 0 or raise_.kind is _COMPLETE:
        return 0
    return max(0, -(-current_bet // size) - 1)
