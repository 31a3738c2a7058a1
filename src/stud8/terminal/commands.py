"""Reading what the player types at the action prompt.

>>> from stud8.core.actions import ActionKind, LegalAction
>>> legal = (LegalAction(ActionKind.FOLD), LegalAction(ActionKind.CALL, 2, 2, adds=2),
...          LegalAction(ActionKind.COMPLETE, 4, 4, adds=4))
>>> prompt_text(legal)
'Your action [f]old, [c]all 2, c[o]mplete to 4 > '
>>> read_action("o", legal), read_action("raise", legal), read_action("c", legal)
(Complete(to=None), Complete(to=None), Call())
"""

from __future__ import annotations

from collections.abc import Sequence

from stud8.core.actions import Action, ActionKind, BringIn, Check, LegalAction, make_action
from stud8.core.errors import IllegalActionError

HELP = """\
  Actions: f / fold, k / check, c / call, b / bring in, o / complete,
           b / bet, r / raise. In fixed limit the amount is implied, but you may
           give it: "raise 8" or "r to 8". "c" checks when there is nothing to call;
           folding when you could check asks first.
  Other:   t / table (show the table), h / help, q / quit (leave with a summary)."""

QUIT_WORDS = frozenset(("q", "quit", "exit"))
HELP_WORDS = frozenset(("h", "help", "?"))
TABLE_WORDS = frozenset(("t", "table"))
FOLD_PROMPT = "Fold anyway? [y/N] > "

#: Short forms the prompt offers beyond those :meth:`Action.parse` reads.
ALIASES = {"o": "complete", "comp": "complete", "ch": "check", "ca": "call"}
_SIZED = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)


def option_text(a: LegalAction) -> str:
    """How the prompt offers one legal action: ``[c]all 2``, ``[r]aise to 8``."""
    all_in = " (all-in)" if a.all_in else ""
    k = a.kind
    if k is ActionKind.FOLD:
        return "[f]old"
    if k is ActionKind.CHECK:
        return "chec[k]"
    if k is ActionKind.CALL:
        return f"[c]all {a.adds}{all_in}"
    if k is ActionKind.BRING_IN:
        return f"[b]ring in {a.adds}{all_in}"
    if k is ActionKind.COMPLETE:
        return f"c[o]mplete to {a.min_to}{all_in}"
    if k is ActionKind.BET:
        return f"[b]et {a.min_to}{all_in}"
    return f"[r]aise to {a.min_to}{all_in}"


def prompt_text(legal: Sequence[LegalAction]) -> str:
    """``Your action [f]old, [c]all 2, [r]aise to 8 > ``. Folding is not offered when
    checking is free (it may still be typed, and is then confirmed)."""
    kinds = {a.kind for a in legal}
    shown = [a for a in legal if not (a.kind is ActionKind.FOLD and ActionKind.CHECK in kinds)]
    return "Your action " + ", ".join(option_text(a) for a in shown) + " > "


def folds_for_nothing(action: Action, legal: Sequence[LegalAction]) -> bool:
    """Whether ``action`` folds a hand that could check for free."""
    kinds = {a.kind for a in legal}
    return action.kind is ActionKind.FOLD and ActionKind.CHECK in kinds and ActionKind.FOLD in kinds


def read_action(text: str, legal: Sequence[LegalAction]) -> Action:
    """The action typed, read kindly against what is legal now.

    ``c`` checks when there is nothing to call, ``b`` or ``c`` brings in on the
    bring-in, and
    bet, raise and complete stand for one another (at most one of them is offered at
    a time). Anything else that is not legal is returned as typed, for the hand to
    refuse with its reason. Raises :class:`~stud8.core.errors.Stud8Error` for words
    that are not an action.
    """
    first, _, rest = text.strip().lower().partition(" ")
    if first in ALIASES:
        text = f"{ALIASES[first]} {rest}"
    action = Action.parse(text)
    kinds = {a.kind for a in legal}
    kind = action.kind
    if kind in kinds:
        return action
    if kind is ActionKind.CALL and ActionKind.CHECK in kinds:
        return Check()
    if ActionKind.BRING_IN in kinds and (
        kind in (ActionKind.CALL, ActionKind.CHECK) or (first in ("b", "bet") and not rest)
    ):
        return BringIn()  # the passive choice of the player who must bring in
    if kind in _SIZED:
        for other in _SIZED:
            if other in kinds:
                return make_action(other, action.amount)
    return action


def reason(e: IllegalActionError) -> str:
    """The rule an illegal action broke, without the hand, street and seat prefix."""
    text = str(e)
    if e.hand_id or e.street is not None or e.seat is not None:
        text = text.split(": ", 1)[-1]
    return text
