"""What the engine is given, checked: actions, decisions to replay, and how a wrong
value is named in an error (for :mod:`stud8.core.hand`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from stud8.core.actions import (
    Action,
    ActionKind,
    Bet,
    BringIn,
    Call,
    Check,
    Complete,
    Fold,
    Raise,
)
from stud8.core.cards import Deck
from stud8.core.errors import NotAnActionError, SetupTypeError
from stud8.core.events import Event, decisions_from_events
from stud8.core.rules import TableRules

# The kind of each action class: Hand.apply reads it, and checks the type, in one lookup.
KIND_OF: Final[dict[type, ActionKind]] = {
    cls: cls.kind for cls in (Fold, Check, Call, BringIn, Complete, Bet, Raise)
}


def kind_or_none(action: object) -> ActionKind | None:
    """The kind of an instance of an Action subclass; None for anything else."""
    if not isinstance(action, Action):
        return None
    kind = getattr(action.__class__, "kind", None)
    return kind if isinstance(kind, ActionKind) else None


def what(value: object) -> str:
    """A wrong value for an error message: itself, and its type (or that it is a class)."""
    if isinstance(value, type):
        return f"the class {value.__name__} (not an instance of it)"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} (type {type(value).__name__})"


def _decision(index: int, item: object, hand_id: str) -> tuple[int, Action | None]:
    """A replayed decision, checked: a (seat, action) pair, the action None for a timeout."""
    if not isinstance(item, tuple) or len(item) != 2:
        raise NotAnActionError(
            f"decision {index} must be a (seat, action) pair, got {what(item)}", hand_id=hand_id
        )
    seat, action = item
    if seat.__class__ is not int and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise NotAnActionError(
            f"decision {index}: the seat must be a whole number, got {what(seat)}",
            hand_id=hand_id,
        )
    if action is not None and kind_or_none(action) is None:
        raise NotAnActionError(
            f"decision {index}: the action must be Fold(), Check(), Call(), BringIn(), "
            f"Complete(to), Bet(to), Raise(to) or None (a timeout), got {what(action)}",
            hand_id=hand_id,
        )
    return int(seat), action


def replay_items(
    decisions: object, hand_id: str
) -> tuple[list[object], list[tuple[int, Action | None]]]:
    """What Hand.replay is given, checked: the items, and the (seat, action) pairs
    to apply (from the pairs given, or from the hand's events)."""
    if isinstance(decisions, (str, bytes)) or not isinstance(decisions, Iterable):
        raise NotAnActionError(
            f"decisions must be (seat, action) pairs or the hand's events, got {what(decisions)}",
            hand_id=hand_id,
        )
    # (object: what was given is checked here, item by item, not on the way in)
    items: list[object] = list(decisions)
    if items and isinstance(items[0], Event):
        for i, item in enumerate(items):
            if not isinstance(item, Event):
                raise NotAnActionError(
                    f"item {i} is {what(item)} among events: give the hand's events or "
                    "its decisions, not both",
                    hand_id=hand_id,
                )
        return items, list(decisions_from_events(e for e in items if isinstance(e, Event)))
    return items, [_decision(i, item, hand_id) for i, item in enumerate(items)]


def action_kind(action: object, hand_id: str, street: int, seat: int | None) -> ActionKind:
    """The kind of an instance of an Action subclass; NotAnActionError for anything else
    (Hand.apply's slow way: a string, None, a number, an action class)."""
    kind = kind_or_none(action)
    if kind is None:
        raise NotAnActionError(
            "an action must be Fold(), Check(), Call(), BringIn(), Complete(to), "
            f"Bet(to) or Raise(to), got {what(action)}",
            hand_id=hand_id,
            street=street,
            seat=seat,
        )
    return kind


def check_setup(rules: object, deck: object) -> None:
    """A hand's rules and deck are the engine's own (SetupTypeError if not)."""
    if not isinstance(rules, TableRules):
        raise SetupTypeError(f"rules must be TableRules, got {what(rules)}")
    if not isinstance(deck, Deck):
        raise SetupTypeError(f"deck must be a Deck (or None: a fresh shuffle), got {what(deck)}")


def check_stacks(stacks: object) -> None:
    """Stacks are a mapping of seat to chips (SetupTypeError if not)."""
    if not isinstance(stacks, Mapping):
        raise SetupTypeError(
            f"stacks must map each seat to its chips ({{seat: chips}}), got {what(stacks)}"
        )
