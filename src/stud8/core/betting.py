"""The betting round: the legal actions and what each action does (RULES.md section 3)."""

from __future__ import annotations

from typing import Final

from stud8.core._shared_events import (
    CHECKED,
    FOLDED,
    bet_made,
    bring_in_posted,
    called,
    completed,
    raised,
)
from stud8.core.actions import ActionKind, LegalAction
from stud8.core.cards import Card
from stud8.core.errors import IllegalActionError
from stud8.core.events import (
    Event,
)
from stud8.core.plan import TablePlan
from stud8.core.rules import BettingStructure, TableRules

# Enum members cost an attribute lookup through a descriptor each time (~0.1 us):
# the hot paths use these names instead.
FOLD: Final = ActionKind.FOLD
CHECK: Final = ActionKind.CHECK
CALL: Final = ActionKind.CALL
BRING_IN: Final = ActionKind.BRING_IN
COMPLETE: Final = ActionKind.COMPLETE
BET: Final = ActionKind.BET
RAISE: Final = ActionKind.RAISE
_FOLD: Final = LegalAction(FOLD)
_CHECK: Final = LegalAction(CHECK)
# The fixed-limit choices, made once for each (street bet, call to, call all-in,
# raise kind, raise to, raise all-in), packed in one int: the same few come up hand
# after hand. Amounts (bet <= call to) below _AMOUNTS, 16 bits each.
_AMOUNTS: Final = 1 << 16
_LIMIT_CHOICES: Final[dict[int, tuple[LegalAction, ...]]] = {}


class SeatState:
    """One seat's state in a hand (internal to the engine; read it through Hand)."""

    __slots__ = (
        "all_in",
        "bet",
        "contributed",
        "down",
        "folded",
        "index",
        "out",
        "protected",
        "reopen_at",
        "seat",
        "stack",
        "up",
        "up_product",
    )

    # (Defaults only so that a compiled build (mypyc) can copy and pickle it: a native
    # class is remade by calling __init__ with no arguments, then its state is set.)
    def __init__(self, seat: int = 0, stack: int = 0, index: int = 0) -> None:
        self.seat = seat
        self.index = index  # position in seat order
        self.stack = stack  # chips behind, not yet in the pot
        self.bet = 0  # chips put in on this street
        self.contributed = 0  # chips put in this hand, ante included
        self.down: list[Card] = []
        self.up: list[Card] = []
        self.up_product = 1  # the product of the up cards' rank primes (see hand.RANK_PRIMES)
        self.folded = False
        self.all_in = False
        self.protected = False  # timed out under all-in protection
        self.out = False  # folded, all-in or protected: takes no more action
        # The bet at which the betting is open to him (RULES.md 3): 0 until he acts on
        # the street; once he has acted, the bet that is a full raise over his own bet
        # (the short all-ins since count together). He must act again, and may raise,
        # once the current bet reaches it.
        self.reopen_at = 0

    @property
    def can_act(self) -> bool:
        return not self.out


class Betting:
    """The betting part of a :class:`~stud8.core.hand.Hand` (a mixin: the hand
    owns the state, this holds the rules of acting on it)."""

    rules: TableRules
    hand_id: str
    street: int
    to_act: int | None
    bring_in_seat: int | None
    events: list[Event]
    _seats: tuple[int, ...]
    _ring: list[SeatState]
    _after: list[tuple[SeatState, ...]]  # by index: the others clockwise from his left, then him
    _players: dict[int, SeatState]
    _live_n: int
    _active_n: int
    _legal: tuple[LegalAction, ...] | None
    _fixed_limit: bool
    # fixed limit with one bet size this street: the legal amounts are worked out inline
    _limit_inline: bool
    # Stud (high only), fixed limit, 4th street with an open pair showing: a bet or
    # raise may be the small or the big bet, and by the big bet once one is made
    _open_pair: bool
    _big_bet_made: bool
    _max_bets: int | None
    _plan: TablePlan
    _current_bet: int
    _full_level: int
    _bets: int
    # fixed limit: the bet the short all-ins are measured over (the last full bet or
    # raise, or the bring-in)
    _base: int
    _largest_raise: int
    _aggressor: int | None
    _cap_lifted: bool
    _bring_in_pending: bool
    _bring_in_optional: bool

    def _finish_round(self) -> None:
        raise NotImplementedError

    @property
    def pot_total(self) -> int:
        """All chips put in this hand, the current street's bets included."""
        return sum(p.contributed for p in self._ring)

    # --------------------------------------------------------------- actions
    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the player to act may do, each kind with its amounts."""
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.to_act
        if seat is None:
            return ()
        p = self._players[seat]
        if self._bring_in_pending:
            legal = self._legal = self._bring_in_choices(p)
            return legal
        bet = p.bet
        stack = p.stack
        current = self._current_bet
        facing = current - bet
        raise_kind: ActionKind | None = None
        kind_code = 0  # for the key below: none, complete, bet, raise
        lo = hi = 0
        cap = self._max_bets
        if (
            stack > facing
            and p.reopen_at <= current
            and (cap is None or self._bets < cap or self._cap_lifted)
            and self._active_n >= 2
        ):
            # Only if another player could still put in more than the current bet:
            # if not (the others are all-in, or can only call), a raise would just
            # come back uncalled, so none is offered.
            for q in self._after[p.index]:
                if not q.out and q.bet + q.stack > current:
                    if q is not p:
                        if self._bets:
                            raise_kind, kind_code = RAISE, 3
                        elif current == 0:
                            raise_kind, kind_code = BET, 2
                        else:
                            raise_kind, kind_code = COMPLETE, 1
                    break
        if raise_kind is not None:
            if self._limit_inline:  # the common case: fixed limit, one bet size
                plan = self._plan
                lo = self._full_level + (
                    plan.big_bet if self.street >= plan.big_bet_street else plan.small_bet
                )
                if lo > bet + stack:
                    lo = bet + stack
            else:
                lo, hi = self._raise_bounds(p, bet + stack)
                legal = self._legal = self._choices(p, facing, raise_kind, lo, hi)
                return legal
        elif not self._limit_inline:
            legal = self._legal = self._choices(p, facing, None, 0, 0)
            return legal
        call_all_in = facing >= stack
        call_to = bet + stack if call_all_in else current
        if lo >= _AMOUNTS or call_to >= _AMOUNTS:  # (street bets this large: not kept)
            legal = self._legal = self._choices(p, facing, raise_kind, lo, lo)
            return legal
        # One int for (street bet, call to, call all-in, raise kind, raise to, raise
        # all-in): cheaper to make and hash than a tuple of them.
        key = (
            (((bet << 16 | call_to) << 16 | lo) << 3 | kind_code) << 2
            | call_all_in << 1
            | (lo == bet + stack)
        )
        legal = _LIMIT_CHOICES.get(key)
        if legal is None:
            legal = self._choices(p, facing, raise_kind, lo, lo)
            if len(_LIMIT_CHOICES) < 4096:
                _LIMIT_CHOICES[key] = legal
        self._legal = legal
        return legal

    def _bring_in_choices(self, p: SeatState) -> tuple[LegalAction, ...]:
        plan = self._plan  # (the rules' amounts, read natively when compiled)
        bring_in = plan.bring_in
        out = [LegalAction.of(BRING_IN, adds=min(bring_in, p.stack), all_in=p.stack <= bring_in)]
        if p.stack > bring_in and bring_in < plan.small_bet:
            max_to = p.bet + p.stack
            lo, hi = self._raise_bounds(p, max_to)
            out.append(LegalAction.of(COMPLETE, lo, hi, lo - p.bet, lo == max_to))
        if self._bring_in_optional:
            out.append(_FOLD)
        return tuple(out)

    def _choices(
        self, p: SeatState, facing: int, raise_kind: ActionKind | None, lo: int, hi: int
    ) -> tuple[LegalAction, ...]:
        """Fold; check or call; and the complete, bet or raise from ``lo`` to ``hi``."""
        # A player may always fold in turn, even when he could check (as at PokerStars).
        out = [_FOLD]
        if facing > 0:
            adds = min(facing, p.stack)
            out.append(LegalAction.of(CALL, p.bet + adds, p.bet + adds, adds, adds == p.stack))
        else:
            out.append(_CHECK)
        if raise_kind is not None:
            if self._open_pair and lo < hi:  # fixed limit: the small or the big bet, two choices
                out.append(LegalAction.of(raise_kind, lo, lo, lo - p.bet, False))
                lo = hi
            out.append(LegalAction.of(raise_kind, lo, hi, lo - p.bet, lo == p.bet + p.stack))
        return tuple(out)

    def _raise_bounds(self, p: SeatState, max_to: int) -> tuple[int, int]:
        """The smallest and largest *to* amounts of a complete, bet or raise."""
        rules = self.rules
        size = rules.bet_size(self.street)
        structure = rules.structure
        if structure is BettingStructure.FIXED_LIMIT:
            target = self._full_level + size
            lo = hi = min(target, max_to)
            if self._open_pair:  # the small or the big bet; only the big one after a big one
                hi = min(self._full_level + rules.big_bet, max_to)
                if self._big_bet_made:
                    lo = hi
        else:
            if self._bets == 0:
                lo = size
            else:
                lo = self._current_bet + max(self._largest_raise, size)
            if structure is BettingStructure.NO_LIMIT:
                hi = max_to
            else:  # the pot after calling
                hi = self._current_bet + self.pot_total + (self._current_bet - p.bet)
            lo = min(lo, max_to)
            hi = max(lo, min(hi, max_to))
        return lo, hi

    def _next_with_chips(self, seat: int) -> SeatState | None:
        seats = self._seats
        i = seats.index(seat)
        for k in range(1, len(seats)):
            p = self._players[seats[(i + k) % len(seats)]]
            if p.can_act:
                return p
        return None

    def _refuse_amount(
        self, seat: int, kind: ActionKind, to: object, legal_actions: tuple[LegalAction, ...]
    ) -> None:
        if not isinstance(to, int) or isinstance(to, bool):
            message = f"the amount must be a whole number of chips, got {to!r}"
        else:
            spans = [
                f"exactly {a.min_to}" if a.min_to == a.max_to else f"from {a.min_to} to {a.max_to}"
                for a in legal_actions
                if a.kind is kind
            ]
            message = (
                f"{kind.value} to {to} is not allowed: the amount must be {' or '.join(spans)}"
            )
        raise IllegalActionError(message, hand_id=self.hand_id, street=self.street, seat=seat)

    def _do(self, p: SeatState, kind: ActionKind, to: int | None) -> None:
        """Carry out a legal action, then pass the action on (or end the round)."""
        events = self.events
        if kind is CALL:
            adds = self._current_bet - p.bet
            if adds >= p.stack:
                adds = p.stack
                self._active_n -= 1
                p.all_in = True
                p.out = True
            p.stack -= adds
            p.bet += adds
            p.contributed += adds
            p.reopen_at = self._reopen_at(p.bet)
            events.append(called(p.seat, p.bet, adds, p.all_in))
        elif kind is FOLD:
            p.folded = True
            p.out = True
            self._live_n -= 1
            self._active_n -= 1
            events.append(FOLDED[p.seat])
            if self._bring_in_pending:  # the bring-in passes on to the left
                nxt = self._next_with_chips(p.seat)
                if nxt is not None and self._live_n > 1:
                    self.to_act = nxt.seat
                    return
            if self._live_n == 1:
                self._finish_round()
                return
        elif kind is CHECK:
            p.reopen_at = self._reopen_at(p.bet)
            events.append(CHECKED[p.seat])
        elif kind is BRING_IN:
            plan = self._plan
            adds = min(plan.bring_in, p.stack)
            self._put_in(p, adds)
            self._bring_in_pending = False
            self.bring_in_seat = p.seat
            # Everyone else must enter for the full bring-in, even over a short one.
            self._current_bet = self._base = plan.bring_in
            if plan.full_bring_in:  # a bring-in of a full bet
                self._full_level = plan.bring_in
                self._bets = 1
            p.reopen_at = self._reopen_at(p.bet)
            events.append(bring_in_posted(p.seat, adds, p.all_in))
        else:
            assert to is not None
            self._bet_to(p, kind, to)
        # Pass the action to the next player who must act, or end the round.
        active = self._active_n
        if (
            active <= 2
            and not self._cap_lifted
            and self._plan.cap_lifts_heads_up
            and not self._capped_count()
        ):
            self._cap_lifted = True
        current = self._current_bet
        for q in self._after[p.index]:
            if q.out:
                continue
            if q.bet < current or (q.reopen_at <= current and active > 1):
                # (with nothing to call and nobody left to bet against, no action)
                self.to_act = q.seat
                return
        self._finish_round()

    def _bet_to(self, p: SeatState, kind: ActionKind, to: int) -> None:
        """A complete, bet or raise to ``to``."""
        previous = self._current_bet
        # A short all-in is measured from the bet it is over: for the bring-in player
        # completing instead of bringing in, from the bring-in, as for anyone after him
        # (RULES 3: half of the completion over the bring-in), not from nothing.
        over = previous
        if self._bring_in_pending:
            self._bring_in_pending = False
            self.bring_in_seat = p.seat
            over = self._base = self._plan.bring_in
        adds = to - p.bet
        self._put_in(p, adds)
        if self._is_full(to, over):
            if not self._fixed_limit:
                # The round's first bet (a completion included) counts at its full
                # size: the bring-in or a short all-in before it is not a bet.
                size = to if self._bets == 0 else to - previous
                self._largest_raise = max(self._largest_raise, size)
            elif self._open_pair and to >= self._full_level + self._plan.big_bet:
                self._big_bet_made = True  # from now on, raises are by the big bet
            self._full_level = self._base = to
            self._bets += 1
        if to > previous:
            self._current_bet = to
        self._aggressor = p.seat
        p.reopen_at = self._reopen_at(to)
        event: Event
        if kind is RAISE:
            event = raised(p.seat, to, adds, p.all_in)
        elif kind is BET:
            event = bet_made(p.seat, to, adds, p.all_in)
        else:
            event = completed(p.seat, to, adds, p.all_in)
        self.events.append(event)

    def _bet_size(self) -> int:
        """What a full bet or raise adds this street (fixed limit: the open pair's big
        bet once one is made)."""
        plan = self._plan
        if self._big_bet_made:  # the open pair on 4th street: raises by the big bet
            return plan.big_bet
        return plan.big_bet if self.street >= plan.big_bet_street else plan.small_bet

    def _is_full(self, to: int, previous: int) -> bool:
        """Whether a complete, bet or raise to ``to`` counts as a full one: it
        counts toward the cap, and the next raise is a full bet above it."""
        size = self._bet_size()
        if self._fixed_limit:
            # Half-bet rule (RRoP): an all-in counts as full when it adds at least half
            # a bet (half of what a full bet, raise or completion adds over the last
            # full one, or over the bring-in). The short all-ins since count together
            # (RULES 3, TDA 47A): measured over that bet, not over the last all-in.
            base = self._base
            return (to - base) * 2 >= self._full_level + size - base
        if self._bets == 0:
            return to >= size
        return to - previous >= max(self._largest_raise, size)

    def _reopen_at(self, bet: int) -> int:
        """The bet at which the betting opens again to a player who has acted and put
        in ``bet``: half a bet (limit) or a full raise (pot and no limit) above it,
        made by any number of short all-ins (RULES 3; TDA 47A: only for a player
        facing that much, so not for one who called the first of them)."""
        size = self._bet_size()
        if self._fixed_limit:  # half a bet, as _is_full measures it
            return bet + ((self._full_level + size - self._base + 1) >> 1)
        if self._bets == 0:
            return size
        return bet + max(self._largest_raise, size)

    def _put_in(self, p: SeatState, chips: int) -> None:
        p.stack -= chips
        p.bet += chips
        p.contributed += chips
        if p.stack == 0:
            p.all_in = True
            p.out = True
            self._active_n -= 1

    def _after_action(self, p: SeatState) -> None:
        """Pass the action to the next player who must act, or end the round
        (after a timeout under all-in protection)."""
        if self._live_n == 1:
            self._finish_round()
            return
        active = self._active_n
        if (
            active <= 2
            and not self._cap_lifted
            and self._plan.cap_lifts_heads_up
            and not self._capped_count()
        ):
            self._cap_lifted = True
        current = self._current_bet
        for q in self._after[p.index]:
            if q.out:
                continue
            if q.bet < current or (q.reopen_at <= current and active > 1):
                self.to_act = q.seat
                return
        self._finish_round()

    def _capped_count(self) -> bool:
        cap = self._max_bets
        return cap is not None and self._bets >= cap
