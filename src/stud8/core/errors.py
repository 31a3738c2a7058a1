"""Errors of the rules engine. Every one is a :class:`ValueError` too; those for a
value of the wrong type (:class:`WrongTypeError`) are also a :class:`TypeError`."""

from __future__ import annotations


class Stud8Error(ValueError):
    """Base of every error stud8 raises for bad input."""


class CardError(Stud8Error):
    """A card or deck that cannot be read or is not valid."""


class RulesError(Stud8Error):
    """Table rules that are not valid."""


class IllegalActionError(Stud8Error):
    """An action that is not legal at this moment of the hand; the hand is unchanged.

    The message names the hand, the street, the seat and the rule.
    """

    def __init__(
        self,
        message: str,
        *,
        hand_id: str = "",
        street: int | None = None,
        seat: int | None = None,
    ) -> None:
        where = []
        if hand_id:
            where.append(f"hand {hand_id}")
        if street is not None:
            where.append(f"street {street}")
        if seat is not None:
            where.append(f"seat {seat}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.hand_id = hand_id
        self.street = street
        self.seat = seat


class HandSetupError(Stud8Error):
    """A hand that cannot start as asked (seats, stacks, deck)."""


class WrongTypeError(Stud8Error, TypeError):
    """A value of the wrong type where the engine expects one of its own (an action,
    rules, a deck, stacks). A :class:`TypeError` as Python's convention has it, and
    a :class:`ValueError` as every error of the engine is, so that a caller catching
    either (the room catches ``ValueError``) refuses it."""


class NotAnActionError(IllegalActionError, WrongTypeError):
    """``Hand.apply`` given something that is not an action (a string, ``None``, a
    number, an action class instead of an action); the hand is unchanged."""


class SetupTypeError(HandSetupError, WrongTypeError):
    """A hand set up with a wrong type: rules that are not ``TableRules``, a deck
    that is not a ``Deck``, stacks that are not a mapping of seat to chips."""
