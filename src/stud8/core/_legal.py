"""One kind of action the player to act may take: :class:`LegalAction`.

Public as ``stud8.core.actions.LegalAction``; a module of its own so that the compiled
build (mypyc, see setup.py) compiles it: the engine reads these on every action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from stud8.core.actions import _SIMPLE, ACTION_TYPES, Action, ActionKind
from stud8.core.errors import Stud8Error

_CALL: Final = ActionKind.CALL
_BRING_IN: Final = ActionKind.BRING_IN
_set: Final = object.__setattr__  # frozen: the fields are set past the refusing __setattr__


@dataclass(frozen=True, slots=True, init=False)
class LegalAction:
    """One kind of action the player to act may take, with its amounts.

    For complete, bet and raise, ``min_to`` and ``max_to`` bound the *to*
    amount (equal in fixed limit). For call, ``min_to == max_to`` is the total
    the player's street bet reaches (less than the bet if he is all-in).
    """

    kind: ActionKind
    min_to: int | None = None
    max_to: int | None = None
    #: chips the action adds to the pot at min_to (at the fixed amount in limit)
    adds: int = 0
    all_in: bool = False

    # Written out (init=False): compiled, a dataclass's generated __init__ stays
    # interpreted Python.
    def __init__(
        self,
        kind: ActionKind,
        min_to: int | None = None,
        max_to: int | None = None,
        adds: int = 0,
        all_in: bool = False,
    ) -> None:
        _set(self, "kind", kind)
        _set(self, "min_to", min_to)
        _set(self, "max_to", max_to)
        _set(self, "adds", adds)
        _set(self, "all_in", all_in)

    # Pickled and copied by its values (compiled, the default way would set the frozen
    # fields one by one, which they refuse).
    def __reduce__(
        self,
    ) -> tuple[type[LegalAction], tuple[ActionKind, int | None, int | None, int, bool]]:
        return LegalAction, (self.kind, self.min_to, self.max_to, self.adds, self.all_in)

    def __repr__(self) -> str:
        extra = "" if self.min_to is None else f", min_to={self.min_to}, max_to={self.max_to}"
        return f"LegalAction({self.kind!r}{extra})"

    def action(self, to: int | None = None) -> Action:
        """The action for this choice (at ``to``, or the minimum amount)."""
        kind = self.kind
        simple = _SIMPLE.get(kind)
        if simple is None:
            if to is not None:
                return ACTION_TYPES[kind](to)  # type: ignore[call-arg]
            # At the minimum amount: actions are immutable, so the same few are shared.
            made = _MADE[kind]
            action = made.get(self.min_to)
            if action is None:
                action = ACTION_TYPES[kind](self.min_to)  # type: ignore[call-arg]
                if len(made) < 1024:
                    made[self.min_to] = action
            return action
        if to is not None:
            raise Stud8Error(f"{kind.value} takes no amount, got {to!r}")
        return simple

    @staticmethod
    def of(
        kind: ActionKind,
        min_to: int | None = None,
        max_to: int | None = None,
        adds: int = 0,
        all_in: bool = False,
    ) -> LegalAction:
        """The (shared) LegalAction with these values: the engine offers the same
        few choices over and over, so they are made once."""
        key = (kind, min_to, max_to, adds, all_in)
        legal = _LEGAL.get(key)
        if legal is None:
            legal = LegalAction(kind, min_to, max_to, adds, all_in)
            if len(_LEGAL) < 8192:
                _LEGAL[key] = legal
        return legal

    def __str__(self) -> str:
        kind = self.kind
        name = kind.value.replace("_", " ")
        if kind is _CALL:
            return f"call {self.adds}" + (" (all-in)" if self.all_in else "")
        if kind is _BRING_IN:
            return f"bring in {self.adds}" + (" (all-in)" if self.all_in else "")
        if self.min_to is None:
            return name
        if self.min_to == self.max_to:
            return f"{name} to {self.min_to}" + (" (all-in)" if self.all_in else "")
        return f"{name} to {self.min_to}-{self.max_to}"


_LEGAL: Final[dict[tuple[ActionKind, int | None, int | None, int, bool], LegalAction]] = {}
# The sized actions (complete, bet, raise) at their minimum amounts, by kind and amount.
_MADE: Final[dict[ActionKind, dict[int | None, Action]]] = {
    kind: {} for kind in ACTION_TYPES if kind not in _SIMPLE
}
