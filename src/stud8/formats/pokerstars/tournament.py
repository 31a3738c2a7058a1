"""A tournament's names in PokerStars' text: the level in Roman numerals, the buy-in
as ``$B+$F USD`` (a room chip written as a dollar: trackers need a currency on a
tournament's header), ``Freeroll`` with neither. The room's tournaments and the
tournament simulator write their hands with them.

>>> roman(3), roman(14), buy_in_text(100, 10), buy_in_text(0, 0)
('III', 'XIV', '$100+$10 USD', 'Freeroll')
"""

from __future__ import annotations

__all__ = ["buy_in_text", "roman"]

_ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def roman(number: int) -> str:
    """A level's number as PokerStars writes it (``Level III``)."""
    out = []
    for value, letters in _ROMAN:
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


def buy_in_text(buy_in: int, fee: int) -> str:
    """The buy-in of a tournament's hand history header (see the module)."""
    if not buy_in and not fee:
        return "Freeroll"
    return f"${buy_in}+${fee} USD"
