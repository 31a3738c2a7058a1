"""The end of a hand: the showdown in show order, the pots split and paid, the rake
(RULES.md sections 5 and 7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from stud8.core._shared_events import uncalled
from stud8.core.betting import SeatState
from stud8.core.cards import Card
from stud8.core.evaluate import HighValue, LowValue, RazzValue, best_razz_low
from stud8.core.events import (
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    RakeTaken,
)
from stud8.core.plan import TablePlan
from stud8.core.pots import PotResult, build_pots, settle_pot, settle_razz_pot, take_rake
from stud8.core.rules import OddChipHalf, ShowOrderNoBet
from stud8.core.showdown import HandResult, may_win, may_win_razz, odd_chip_keys
from stud8.core.streets import show_order

_new: Final = tuple.__new__  # events are records (tuples): built directly, as in hand.py


def showdown(
    ring: list[SeatState],
    events: list[Event],
    plan: TablePlan,
    *,
    street: int,
    community_card: Card | None,
    aggressor: int | None,
    first_on_seventh: int | None,
    starting: tuple[tuple[int, int], ...],
) -> HandResult:
    """Show the hands in show order (a hand that cannot win is mucked), then settle
    (RULES.md 5). ``aggressor``: the last to bet or raise on 7th street, if any."""
    rules = plan.rules
    live = [p.seat for p in ring if not p.folded]
    ps = {p.seat: p for p in ring}
    values = {s: _values(ps[s], plan, community_card) for s in live}
    # Razz: the ace-to-five low plays for the whole pot (RULES.md 8).
    razz = (
        {s: best_razz_low(_all_cards(ps[s], community_card)) for s in live} if plan.razz else None
    )
    pots = build_pots({p.seat: p.contributed for p in ring}, frozenset(live))
    order = show_order(
        live=live,
        aggressor=aggressor if street == 7 else None,
        first_on_seventh=first_on_seventh,
        earliest_first=rules.show_order_no_bet is ShowOrderNoBet.EARLIEST_SEAT,
    )
    shown: list[int] = []
    for seat in order:
        hi, lo = values[seat]
        if razz is not None:
            can_win = not shown or may_win_razz(seat, razz, shown, pots)
        else:
            can_win = not shown or may_win(seat, values, shown, pots)
        if can_win:
            shown.append(seat)
            low = lo if razz is None else razz[seat]
            cards = _all_cards(ps[seat], community_card)
            events.append(_new(HandShown, (seat, cards, hi, low)))
        else:
            events.append(_new(HandMucked, (seat,)))
    return settle(
        ring,
        events,
        plan,
        street=street,
        community_card=community_card,
        starting=starting,
        values=values,
        razz=razz,
    )


def _values(
    p: SeatState, plan: TablePlan, community_card: Card | None
) -> tuple[HighValue, LowValue | None]:
    cards = p.down + p.up
    if community_card is not None:
        cards.append(community_card)
    return plan.evaluate(cards)


def _all_cards(p: SeatState, community_card: Card | None) -> tuple[Card, ...]:
    cards = dealing_order(p)
    if community_card is not None:
        cards += (community_card,)
    return cards


def _return_unmatched(ring: list[SeatState], events: list[Event]) -> None:
    """Chips of folded players above every live player's contribution go back:
    nobody left in the hand matched them (an all-in player wins from each
    opponent no more than he put in). Only antes and a declined bring-in can
    leave such chips; uncalled bets went back at the end of their round."""
    most = 0
    for p in ring:
        if not p.folded and p.contributed > most:
            most = p.contributed
    for p in ring:
        if p.folded and p.contributed > most:
            back = p.contributed - most
            p.contributed = most
            p.stack += back
            events.append(uncalled(p.seat, back))


def settle(
    ring: list[SeatState],
    events: list[Event],
    plan: TablePlan,
    *,
    street: int,
    community_card: Card | None,
    starting: tuple[tuple[int, int], ...],
    values: Mapping[int, tuple[HighValue, LowValue | None]] | None = None,
    razz: Mapping[int, RazzValue] | None = None,
) -> HandResult:
    """Take the rake, split and pay the pots (``values`` None: everyone else folded),
    and end the hand (RULES.md 5 and 7)."""
    rules = plan.rules
    _return_unmatched(ring, events)
    contributions = {p.seat: p.contributed for p in ring}
    total = sum(contributions.values())
    rake = rules.rake_for(total, ended_on_third_street=street == 3) if plan.raked else 0
    if rake:
        events.append(_new(RakeTaken, (rake,)))
    results: list[PotResult] = []
    if values is None:  # everyone else folded: one pot, no split
        winner = 0
        for p in ring:
            if not p.folded:
                winner = p.seat  # (the only one)
        amount = total - rake
        results.append(PotResult(0, amount, (winner,), ((winner, amount),), ()))
    else:
        live = frozenset(p.seat for p in ring if not p.folded)
        pots = take_rake(build_pots(contributions, live), rake)
        hi_key, lo_key = odd_chip_keys(
            rules.odd_chip,
            {p.seat: p.down + p.up for p in ring if not p.folded},
            community_card,
            razz=razz is not None,
        )
        to_low = rules.odd_chip_half is OddChipHalf.LOW
        for index in range(len(pots) - 1, -1, -1):  # side pots first
            if razz is not None:  # the best low takes the pot, odd chips by the low rule
                results.append(settle_razz_pot(index, pots[index], razz, lo_key))
            else:
                results.append(
                    settle_pot(index, pots[index], values, hi_key, lo_key, odd_chip_to_low=to_low)
                )
    players = {p.seat: p for p in ring}
    for r in results:
        whole = not r.low
        for seat, chips in r.high:
            if chips:
                players[seat].stack += chips
                events.append(
                    _new(PotAwarded, (r.index, seat, chips, "whole" if whole else "high"))
                )
        for seat, chips in r.low:
            if chips:
                players[seat].stack += chips
                events.append(_new(PotAwarded, (r.index, seat, chips, "low")))
    stacks = {p.seat: p.stack for p in ring}
    events.append(_new(HandEnded, (tuple(stacks.items()),)))
    return HandResult(
        pots=tuple(results) if len(results) == 1 else tuple(sorted(results, key=_by_index)),
        rake=rake,
        stacks=stacks,
        starting_stacks=dict(starting),
        showdown=values is not None,
    )


def _by_index(pot: PotResult) -> int:
    return pot.index


def dealing_order(p: SeatState) -> tuple[Card, ...]:
    """Down, down, up, up, up, up, down: the order the cards came."""
    return tuple(p.down[:2]) + tuple(p.up) + tuple(p.down[2:])
