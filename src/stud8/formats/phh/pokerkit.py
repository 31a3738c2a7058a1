"""PokerKit's ways of writing a Stud hand that stud8's rules tell otherwise, read as
the rules have them (the finishing stacks, which are checked, come out the same)."""

from __future__ import annotations

from stud8.core import BettingStructure, Hand, LegalAction

__all__ = ["alone_with_chips", "full_raise"]


def full_raise(hand: Hand, options: list[LegalAction], amount: int | None) -> int | None:
    """A fixed-limit raise as the rules have it. PokerKit's older versions write a
    raise facing an opponent all-in for less as ``cbr`` to what he can call, short of
    the full raise; it is the full raise, and the part nobody can call comes back
    (the finishing stacks are the same, and they are checked). ``options``: the
    legal actions of the raise's kind (an open pair in Stud high gives two)."""
    if (
        amount is None
        or hand.rules.structure is not BettingStructure.FIXED_LIMIT
        or not 0 < hand.current_bet < amount  # a raise (a bet may be of either size)
        or any(o.min_to is not None and o.min_to <= amount <= (o.max_to or 0) for o in options)
        or amount != _most_anyone_can_call(hand)  # capped at what the richest can call
    ):
        return amount
    above = [o.min_to for o in options if o.min_to is not None and o.min_to > amount]
    return min(above) if above else amount


def _most_anyone_can_call(hand: Hand) -> int:
    """The most any opponent of the player to act can put in on this street."""
    return max(
        (hand.street_bet(s) + hand.stack(s) for s in hand.live_seats() if s != hand.to_act),
        default=0,
    )


def alone_with_chips(hand: Hand, seat: int) -> bool:
    """Whether the seat is the only live player who is not all-in."""
    live = hand.live_seats()
    return seat in live and all(hand.is_all_in(s) != (s == seat) for s in live)
