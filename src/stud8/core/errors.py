"""Errors of the rules engine. Every one is a :class:`ValueError` too."""

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
