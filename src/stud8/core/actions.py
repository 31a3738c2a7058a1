"""What a player may do: actions, and the legal actions offered at a moment.

Amounts are *to* amounts, as PokerStars writes them: the player's total bet on
this street after the action ("raises 4 to 8" is ``Raise(to=8)``). In fixed limit
the amount is implied and may be left out.

>>> Raise(to=8)
Raise(to=8)
>>> Action.parse("raise 8"), Action.parse("c")
(Raise(to=8), Call())
>>> LegalAction(ActionKind.RAISE, min_to=8, max_to=8)
LegalAction(ActionKind.RAISE, min_to=8, max_to=8)
>>> LegalAction(ActionKind.RAISE, min_to=8, max_to=8).action()
Raise(to=8)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from stud8.core.errors import Stud8Error
from stud8.core.record import fast_init


class ActionKind(Enum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BRING_IN = "bring_in"
    COMPLETE = "complete"
    BET = "bet"
    RAISE = "raise"

    # Members are singletons: hash by identity, in C (Enum's own hash is Python code
    # and the engine looks kinds up on every action).
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"ActionKind.{self.name}"


@dataclass(frozen=True, slots=True)
class Action:
    """Base of the actions; use the subclasses."""

    kind: ClassVar[ActionKind]

    @property
    def amount(self) -> int | None:
        return None

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action as typed at a prompt: ``fold``, ``check``, ``call``,
        ``bring``, ``complete [to]``, ``bet [to]``, ``raise [to]`` (or their
        first letters; ``b`` is bet, ``bi`` is bring in)."""
        words = text.strip().lower().replace("-", " ").replace("_", " ").split()
        if not words:
            raise Stud8Error("no action given")
        word, rest = words[0], words[1:]
        if word == "bring" and rest[:1] == ["in"]:
            rest = rest[1:]
        if rest[:1] == ["to"]:
            rest = rest[1:]
        amount: int | None = None
        if rest:
            if len(rest) != 1 or not rest[0].isdigit():
                raise Stud8Error(f"cannot read the amount in {text!r}: give a whole number")
            amount = int(rest[0])
        simple: dict[str, type[Action]] = {
            "f": Fold,
            "fold": Fold,
            "k": Check,
            "x": Check,
            "check": Check,
            "c": Call,
            "call": Call,
            "bi": BringIn,
            "bring": BringIn,
            "bringin": BringIn,
        }
        sized: dict[str, type[Complete] | type[Bet] | type[Raise]] = {
            "complete": Complete,
            "co": Complete,
            "b": Bet,
            "bet": Bet,
            "r": Raise,
            "raise": Raise,
        }
        if word in simple:
            if amount is not None:
                raise Stud8Error(f"{word!r} takes no amount")
            return simple[word]()
        if word in sized:
            return sized[word](to=amount)
        raise Stud8Error(
            f"unknown action {text!r}: use fold, check, call, bring in, complete, bet or raise"
        )


@dataclass(frozen=True, slots=True)
class Fold(Action):
    kind: ClassVar[ActionKind] = ActionKind.FOLD


@dataclass(frozen=True, slots=True)
class Check(Action):
    kind: ClassVar[ActionKind] = ActionKind.CHECK


@dataclass(frozen=True, slots=True)
class Call(Action):
    kind: ClassVar[ActionKind] = ActionKind.CALL


@dataclass(frozen=True, slots=True)
class BringIn(Action):
    """Post the bring-in (or all one has, if less)."""

    kind: ClassVar[ActionKind] = ActionKind.BRING_IN


@fast_init
@dataclass(frozen=True, slots=True)
class Complete(Action):
    """Complete the bring-in to a full small bet (more, in pot and no limit)."""

    to: int | None = None
    kind: ClassVar[ActionKind] = ActionKind.COMPLETE

    @property
    def amount(self) -> int | None:
        return self.to


@fast_init
@dataclass(frozen=True, slots=True)
class Bet(Action):
    to: int | None = None
    kind: ClassVar[ActionKind] = ActionKind.BET

    @property
    def amount(self) -> int | None:
        return self.to


@fast_init
@dataclass(frozen=True, slots=True)
class Raise(Action):
    to: int | None = None
    kind: ClassVar[ActionKind] = ActionKind.RAISE

    @property
    def amount(self) -> int | None:
        return self.to


ACTION_TYPES: dict[ActionKind, type[Action]] = {
    ActionKind.FOLD: Fold,
    ActionKind.CHECK: Check,
    ActionKind.CALL: Call,
    ActionKind.BRING_IN: BringIn,
    ActionKind.COMPLETE: Complete,
    ActionKind.BET: Bet,
    ActionKind.RAISE: Raise,
}


_SIZED = frozenset((ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE))
_SIMPLE: dict[ActionKind, Action] = {
    ActionKind.FOLD: Fold(),
    ActionKind.CHECK: Check(),
    ActionKind.CALL: Call(),
    ActionKind.BRING_IN: BringIn(),
}


def make_action(kind: ActionKind | str, to: int | None = None) -> Action:
    """The action of this kind: ``make_action("raise", 8) == Raise(to=8)``."""
    k = kind if isinstance(kind, ActionKind) else ActionKind(kind)
    if k in _SIZED:
        return ACTION_TYPES[k](to)  # type: ignore[call-arg]
    if to is not None:
        raise Stud8Error(f"{k.value} takes no amount, got {to!r}")
    return _SIMPLE[k]


# LegalAction lives in its own module so that the compiled build (mypyc, see setup.py)
# can compile it: this module's dataclasses it cannot. Imported last, as it uses the above.
from stud8.core._legal import LegalAction as LegalAction  # noqa: E402
