"""The simplest bots: a random player and a calling station."""

from __future__ import annotations

import random

from stud8.core.actions import Action, ActionKind
from stud8.core.views import HandView
from stud8.tools.bots.base import legal_by_kind, passive_action


class RandomBot:
    """Picks uniformly among the legal kinds of action, and a uniform amount in range."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: HandView) -> Action:
        legal = view.legal_actions[self.rng.randrange(len(view.legal_actions))]
        if legal.min_to is not None and legal.max_to is not None and legal.kind in _SIZED:
            return legal.action(self.rng.randint(legal.min_to, legal.max_to))
        return legal.action()


_SIZED = frozenset((ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE))


class CallingStation:
    """Checks when it can, calls any bet, posts the bring-in; never bets, never folds."""

    name = "calling-station"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng  # unused: a calling station has nothing to choose

    def act(self, view: HandView) -> Action:
        return passive_action(legal_by_kind(view))
