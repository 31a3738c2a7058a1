"""The end of a hand: the showdown in show order, the pots split and paid, the rake
(RULES.md sections 5 and 7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from stud8.core._shared_events import uncalled
from stud8.core.betting import Betting, SeatState
from stud8.core.cards import Card
from stud8.core.evaluate import HighValue, LowValue, RazzValue, best_razz_low
from stud8.core.events import (
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    RakeTaken,
)
from stud8.core.pots import PotResult, build_pots, settle_pot, settle_razz_pot, take_rake
from stud8.core.rules import OddChipHalf, ShowOrderNoBet
from stud8.core.showdown import HandResult, may_win, may_win_razz, odd_chip_keys
from stud8.core.streets import show_order

_new: Final = tuple.__new__  # events are records (tuples): built directly, as in hand.py


class Settlement(Betting):
    """The showdown and settlement part of a :class:`~stud8.core.hand.Hand` (the hand
    owns the state). One chain of bases, not mixins: a compiled build (mypyc) makes
    native classes only with single inheritance."""

    _starting: tuple[tuple[int, int], ...]  # (seat, chips) at the start
    community_card: Card | None
    result: HandResult | None
    _razz: bool
    _first_on: dict[int, int]

    # ------------------------------------------------------------- showdown
    def _values(self, p: SeatState) -> tuple[HighValue, LowValue | None]:
        cards = p.down + p.up
        if self.community_card is not None:
            cards.append(self.community_card)
        return self._plan.evaluate(cards)

    def _showdown(self) -> None:
        live = [s for s in self._seats if not self._players[s].folded]
        values = {s: self._values(self._players[s]) for s in live}
        # Razz: the ace-to-five low plays for the whole pot (RULES.md 8).
        ps = self._players
        razz = {s: best_razz_low(self._all_cards(ps[s])) for s in live} if self._razz else None
        pots = build_pots({s: p.contributed for s, p in self._players.items()}, frozenset(live))
        order = show_order(
            live=live,
            aggressor=self._aggressor if self.street == 7 else None,
            first_on_seventh=self._first_on.get(7),
            earliest_first=self.rules.show_order_no_bet is ShowOrderNoBet.EARLIEST_SEAT,
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
                p = self._players[seat]
                low = lo if razz is None else razz[seat]
                self.events.append(_new(HandShown, (seat, self._all_cards(p), hi, low)))
            else:
                self.events.append(_new(HandMucked, (seat,)))
        self._end_hand(showdown=True, values=values, razz=razz)

    def _all_cards(self, p: SeatState) -> tuple[Card, ...]:
        cards = dealing_order(p)
        if self.community_card is not None:
            cards += (self.community_card,)
        return cards

    def _return_unmatched(self) -> None:
        """Chips of folded players above every live player's contribution go back:
        nobody left in the hand matched them (an all-in player wins from each
        opponent no more than he put in). Only antes and a declined bring-in can
        leave such chips; uncalled bets went back at the end of their round."""
        most = 0
        for p in self._ring:
            if not p.folded and p.contributed > most:
                most = p.contributed
        for p in self._ring:
            if p.folded and p.contributed > most:
                back = p.contributed - most
                p.contributed = most
                p.stack += back
                self.events.append(uncalled(p.seat, back))

    def _end_hand(
        self,
        *,
        showdown: bool,
        values: Mapping[int, tuple[HighValue, LowValue | None]] | None = None,
        razz: Mapping[int, RazzValue] | None = None,
    ) -> None:
        self.to_act = None
        players = self._players
        self._return_unmatched()
        contributions = {p.seat: p.contributed for p in self._ring}
        total = sum(contributions.values())
        rake = (
            self.rules.rake_for(total, ended_on_third_street=self.street == 3)
            if self._plan.raked
            else 0
        )
        if rake:
            self.events.append(_new(RakeTaken, (rake,)))
        results: list[PotResult] = []
        if values is None:  # everyone else folded: one pot, no split
            winner = 0
            for p in self._ring:
                if not p.folded:
                    winner = p.seat  # (the only one)
            amount = total - rake
            results.append(PotResult(0, amount, (winner,), ((winner, amount),), ()))
        else:
            live = frozenset(p.seat for p in self._ring if not p.folded)
            pots = take_rake(build_pots(contributions, live), rake)
            hi_key, lo_key = odd_chip_keys(
                self.rules.odd_chip,
                {p.seat: p.down + p.up for p in self._ring if not p.folded},
                self.community_card,
                razz=razz is not None,
            )
            to_low = self.rules.odd_chip_half is OddChipHalf.LOW
            for index in range(len(pots) - 1, -1, -1):  # side pots first
                if razz is not None:  # the best low takes the pot, odd chips by the low rule
                    results.append(settle_razz_pot(index, pots[index], razz, lo_key))
                else:
                    results.append(
                        settle_pot(
                            index, pots[index], values, hi_key, lo_key, odd_chip_to_low=to_low
                        )
                    )
        for r in results:
            whole = not r.low
            for seat, chips in r.high:
                if chips:
                    players[seat].stack += chips
                    self.events.append(
                        _new(PotAwarded, (r.index, seat, chips, "whole" if whole else "high"))
                    )
            for seat, chips in r.low:
                if chips:
                    players[seat].stack += chips
                    self.events.append(_new(PotAwarded, (r.index, seat, chips, "low")))
        stacks = {s: players[s].stack for s in self._seats}
        self.events.append(_new(HandEnded, (tuple(stacks.items()),)))
        self.result = HandResult(
            pots=tuple(results) if len(results) == 1 else tuple(sorted(results, key=_by_index)),
            rake=rake,
            stacks=stacks,
            starting_stacks=dict(self._starting),
            showdown=showdown,
        )


def _by_index(pot: PotResult) -> int:
    return pot.index


def dealing_order(p: SeatState) -> tuple[Card, ...]:
    """Down, down, up, up, up, up, down: the order the cards came."""
    return tuple(p.down[:2]) + tuple(p.up) + tuple(p.down[2:])
