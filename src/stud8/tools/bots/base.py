"""The bot interface, and helpers to run bots through a hand.

A bot is anything with a ``name`` and an ``act(view)`` method: it is given the
hand as its own seat sees it (:meth:`stud8.core.hand.Hand.view`) when it is that
seat's turn, and returns one of the actions in ``view.legal_actions``.

For speed (``stud8 simulate``), a bot may also decide from a
:class:`~stud8.tools.bots.window.SeatWindow`, a lean live view of the same facts, with a
``decide(window)`` method that chooses as ``act`` does (see
:mod:`stud8.tools.bots.window`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from stud8.core import Hand, HandResult
from stud8.core.actions import Action, ActionKind, LegalAction
from stud8.core.views import HandView

if TYPE_CHECKING:
    from stud8.tools.bots.window import SeatWindow


@runtime_checkable
class Bot(Protocol):
    """A computer player: decides from its seat's view of the hand only."""

    name: str

    def act(self, view: HandView) -> Action:
        """The action to take; ``view.viewer`` is the seat to act and
        ``view.legal_actions`` what it may do."""
        ...


@runtime_checkable
class FastBot(Bot, Protocol):
    """A bot that can also decide from a :class:`~stud8.tools.bots.window.SeatWindow`
    (the same choice as ``act``)."""

    def decide(self, window: SeatWindow) -> Action: ...


def legal_by_kind(view: HandView) -> dict[ActionKind, LegalAction]:
    """The legal actions of the view, by kind."""
    return {a.kind: a for a in view.legal_actions}


def passive_action(legal: Mapping[ActionKind, LegalAction]) -> Action:
    """The cheapest way to stay in: check, else call, else bring in, else fold."""
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN, ActionKind.FOLD):
        if kind in legal:
            return legal[kind].action()
    # Only an aggressive action is offered (cannot happen with the engine's rules).
    return next(iter(legal.values())).action()


def give_up(legal: Mapping[ActionKind, LegalAction]) -> Action:
    """Check if possible (never fold for free), else fold, else the cheapest action."""
    if ActionKind.CHECK in legal:
        return legal[ActionKind.CHECK].action()
    if ActionKind.FOLD in legal:
        return legal[ActionKind.FOLD].action()
    return passive_action(legal)


def aggressive_action(legal: Mapping[ActionKind, LegalAction]) -> Action | None:
    """Complete, bet or raise (at the smallest amount), if one is offered."""
    for kind in (ActionKind.RAISE, ActionKind.BET, ActionKind.COMPLETE):
        if kind in legal:
            return legal[kind].action()
    return None


def is_legal(action: Action, view: HandView) -> bool:
    """Whether ``action`` is one of the view's legal actions, its amount in range."""
    amount = action.amount
    for legal in view.legal_actions:  # a kind may come twice (the open pair's two bets)
        if legal.kind is action.kind and (
            amount is None
            or legal.min_to is None
            or legal.max_to is None
            or legal.min_to <= amount <= legal.max_to
        ):
            return True
    return False


def play_hand(hand: Hand, bots: Mapping[int, Bot]) -> HandResult:
    """Let the bots (one per seat) play the hand to its end; returns the result."""
    while hand.to_act is not None:
        seat = hand.to_act
        hand.apply(bots[seat].act(hand.view(seat)))
    assert hand.result is not None, "a hand with nobody to act is over"
    return hand.result
