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
    uncalled,
)
from stud8.core.actions import ActionKind, LegalAction
from stud8.core.cards import Card
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


class BettingRound:
    """The betting round of a :class:`~stud8.core.hand.Hand`: who is to act, what he
    may do, and what each action does (RULES.md 3). The hand holds one and starts it
    again on every street; it shares the hand's seats and event list, and tells the
    hand when the round is over (:meth:`act` returns True), which then deals on."""

    __slots__ = (
        "active_n",
        "after",
        "aggressor",
        "base",
        "bets",
        "big_bet_made",
        "bring_in_optional",
        "bring_in_pending",
        "bring_in_seat",
        "cap_lifted",
        "current_bet",
        "events",
        "fixed_limit",
        "full_level",
        "hand_id",
        "largest_raise",
        "legal",
        "limit_inline",
        "live_n",
        "max_bets",
        "open_pair",
        "plan",
        "players",
        "reopen_by",
        "ring",
        "rules",
        "size",
    )

    # Compiled (mypyc), a native class's __new__ calls __init__, which copy.deepcopy
    # and pickle cannot; with its own __new__ it does not (as for Hand).
    def __new__(cls, *args: object, **kwargs: object) -> BettingRound:
        return super().__new__(cls)

    def __init__(
        self,
        plan: TablePlan,
        ring: list[SeatState],
        players: dict[int, SeatState],
        after: list[tuple[SeatState, ...]],
        events: list[Event],
        hand_id: str,
    ) -> None:
        self.plan = plan
        self.rules: TableRules = plan.rules
        self.hand_id = hand_id
        self.ring = ring  # the hand's seats, in seat order
        # by index: the others clockwise from his left, then him
        self.after = after
        self.players = players  # the hand's, by seat
        self.events = events  # the hand's: the round appends its actions
        self.size = plan.small_bet  # what a full bet adds this street (the fixed bet)
        self.bring_in_seat: int | None = None
        self.live_n = len(ring)  # players not folded
        self.active_n = len(ring)  # players who can still act (not all-in)
        self.legal: tuple[LegalAction, ...] | None = None  # cache for this decision
        self.fixed_limit = plan.fixed_limit
        # fixed limit with one bet size this street: the legal amounts are worked out inline
        self.limit_inline = plan.fixed_limit
        # Stud (high only), fixed limit, 4th street with an open pair showing: a bet or
        # raise may be the small or the big bet, and by the big bet once one is made
        self.open_pair = False
        self.big_bet_made = False
        self.max_bets = plan.max_bets
        self.current_bet = 0  # what a call must reach
        self.full_level = 0  # the street bet set by the last full bet or raise
        # fixed limit: what short all-ins are measured over (the last full bet or
        # raise, or the bring-in)
        self.base = 0
        self.bets = 0  # full bets and raises this round, toward the cap
        self.largest_raise = 0  # pot and no limit: the minimum raise
        # what reopens the betting to a player who has acted (see _reopen_at): it
        # changes only with a full bet, so it is measured then, not on every action
        self.reopen_by = 0
        self.aggressor: int | None = None  # the last to bet or raise this round
        self.cap_lifted = False
        self.bring_in_pending = False  # the forced bring-in is still to be made
        self.bring_in_optional = False  # ...by a player who may fold instead

    def new_street(self, street: int) -> None:
        """Start the round of ``street``: no bets yet."""
        plan = self.plan
        self.size = plan.big_bet if street >= plan.big_bet_street else plan.small_bet
        self.current_bet = 0
        self.full_level = 0
        self.base = 0
        self.bets = 0
        self.largest_raise = 0
        self.aggressor = None
        self.cap_lifted = False
        self._measure_reopen()
        for p in self.ring:
            p.bet = 0
            p.reopen_at = 0

    def set_open_pair(self, open_pair: bool) -> None:
        """Fixed-limit Stud high: an open pair showing on 4th street (RULES.md 8)."""
        self.open_pair = open_pair
        self.limit_inline = self.fixed_limit and not open_pair
        self.big_bet_made = False
        self._measure_reopen()

    def open_action(self) -> None:
        """The betting starts (the hand says with whom)."""
        if self.active_n <= 2 and self.plan.cap_lifts_at_open:
            self.cap_lifted = True

    @property
    def pot_total(self) -> int:
        """All chips put in this hand, the current street's bets included."""
        return sum(p.contributed for p in self.ring)

    # --------------------------------------------------------------- actions
    def legal_actions(self, p: SeatState) -> tuple[LegalAction, ...]:
        """What ``p``, the player to act, may do, each kind with its amounts (kept
        until the next action)."""
        legal = self.legal
        if legal is not None:
            return legal
        if self.bring_in_pending:
            legal = self.legal = self._bring_in_choices(p)
            return legal
        bet = p.bet
        stack = p.stack
        current = self.current_bet
        facing = current - bet
        raise_kind: ActionKind | None = None
        kind_code = 0  # for the key below: none, complete, bet, raise
        lo = hi = 0
        cap = self.max_bets
        if (
            stack > facing
            and p.reopen_at <= current
            and (cap is None or self.bets < cap or self.cap_lifted)
            and self.active_n >= 2
        ):
            # Only if another player could still put in more than the current bet:
            # if not (the others are all-in, or can only call), a raise would just
            # come back uncalled, so none is offered.
            for q in self.after[p.index]:
                if not q.out and q.bet + q.stack > current:
                    if q is not p:
                        if self.bets:
                            raise_kind, kind_code = RAISE, 3
                        elif current == 0:
                            raise_kind, kind_code = BET, 2
                        else:
                            raise_kind, kind_code = COMPLETE, 1
                    break
        if raise_kind is not None:
            if self.limit_inline:  # the common case: fixed limit, one bet size
                lo = self.full_level + self.size
                if lo > bet + stack:
                    lo = bet + stack
            else:
                lo, hi = self._raise_bounds(p, bet + stack)
                legal = self.legal = self._choices(p, facing, raise_kind, lo, hi)
                return legal
        elif not self.limit_inline:
            legal = self.legal = self._choices(p, facing, None, 0, 0)
            return legal
        call_all_in = facing >= stack
        call_to = bet + stack if call_all_in else current
        if lo >= _AMOUNTS or call_to >= _AMOUNTS:  # (street bets this large: not kept)
            legal = self.legal = self._choices(p, facing, raise_kind, lo, lo)
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
        self.legal = legal
        return legal

    def _bring_in_choices(self, p: SeatState) -> tuple[LegalAction, ...]:
        plan = self.plan  # (the rules' amounts, read natively when compiled)
        bring_in = plan.bring_in
        out = [LegalAction.of(BRING_IN, adds=min(bring_in, p.stack), all_in=p.stack <= bring_in)]
        if p.stack > bring_in and bring_in < plan.small_bet:
            max_to = p.bet + p.stack
            lo, hi = self._raise_bounds(p, max_to)
            out.append(LegalAction.of(COMPLETE, lo, hi, lo - p.bet, lo == max_to))
        if self.bring_in_optional:
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
            if self.open_pair and lo < hi:  # fixed limit: the small or the big bet, two choices
                out.append(LegalAction.of(raise_kind, lo, lo, lo - p.bet, False))
                lo = hi
            out.append(LegalAction.of(raise_kind, lo, hi, lo - p.bet, lo == p.bet + p.stack))
        return tuple(out)

    def _raise_bounds(self, p: SeatState, max_to: int) -> tuple[int, int]:
        """The smallest and largest *to* amounts of a complete, bet or raise."""
        rules = self.rules
        size = self.size
        structure = rules.structure
        if structure is BettingStructure.FIXED_LIMIT:
            target = self.full_level + size
            lo = hi = min(target, max_to)
            if self.open_pair:  # the small or the big bet; only the big one after a big one
                hi = min(self.full_level + rules.big_bet, max_to)
                if self.big_bet_made:
                    lo = hi
        else:
            if self.bets == 0:
                lo = size
            else:
                lo = self.current_bet + max(self.largest_raise, size)
            if structure is BettingStructure.NO_LIMIT:
                hi = max_to
            else:  # the pot after calling
                hi = self.current_bet + self.pot_total + (self.current_bet - p.bet)
            lo = min(lo, max_to)
            hi = max(lo, min(hi, max_to))
        return lo, hi

    def next_with_chips(self, seat: int) -> SeatState | None:
        """The first player clockwise from ``seat`` who can still act."""
        for p in self.after[self.players[seat].index]:
            if p.can_act and p.seat != seat:
                return p
        return None

    def act(self, p: SeatState, kind: ActionKind | None, to: int | None) -> int | None:
        """Carry out a legal action (None: see :meth:`protect`); returns the seat the
        action passes to, None when nobody must act: the round is over (the hand
        then deals on, or ends)."""
        events = self.events
        if kind is CALL:
            adds = self.current_bet - p.bet
            if adds >= p.stack:
                adds = p.stack
                self.active_n -= 1
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
            self.live_n -= 1
            self.active_n -= 1
            events.append(FOLDED[p.seat])
            if self.bring_in_pending:  # the bring-in passes on to the left
                nxt = self.next_with_chips(p.seat)
                if nxt is not None and self.live_n > 1:
                    return nxt.seat
        elif kind is CHECK:
            p.reopen_at = self._reopen_at(p.bet)
            events.append(CHECKED[p.seat])
        elif kind is BRING_IN:
            plan = self.plan
            adds = min(plan.bring_in, p.stack)
            self._put_in(p, adds)
            self.bring_in_pending = False
            self.bring_in_seat = p.seat
            # Everyone else must enter for the full bring-in, even over a short one.
            self.current_bet = self.base = plan.bring_in
            if plan.full_bring_in:  # a bring-in of a full bet
                self.full_level = plan.bring_in
                self.bets = 1
            self._measure_reopen()
            p.reopen_at = self._reopen_at(p.bet)
            events.append(bring_in_posted(p.seat, adds, p.all_in))
        elif kind is None:
            p.protected = True
            p.out = True
            self.active_n -= 1
        else:
            assert to is not None
            self._bet_to(p, kind, to)
        # Pass the action on to the next player who must act, if anyone must.
        if self.live_n == 1:
            return None
        active = self.active_n
        if active <= 2 and not self.cap_lifted and self.plan.cap_lifts_heads_up:
            cap = self.max_bets
            if cap is None or self.bets < cap:
                self.cap_lifted = True
        current = self.current_bet
        for q in self.after[p.index]:
            if q.out:
                continue
            if q.bet < current or (q.reopen_at <= current and active > 1):
                # (with nothing to call and nobody left to bet against, no action)
                return q.seat
        return None

    def _bet_to(self, p: SeatState, kind: ActionKind, to: int) -> None:
        """A complete, bet or raise to ``to``."""
        previous = self.current_bet
        # A short all-in is measured from the bet it is over: for the bring-in player
        # completing instead of bringing in, from the bring-in, as for anyone after him
        # (RULES 3: half of the completion over the bring-in), not from nothing.
        over = previous
        if self.bring_in_pending:
            self.bring_in_pending = False
            self.bring_in_seat = p.seat
            over = self.base = self.plan.bring_in
        adds = to - p.bet
        self._put_in(p, adds)
        if self._is_full(to, over):
            if not self.fixed_limit:
                # The round's first bet (a completion included) counts at its full
                # size: the bring-in or a short all-in before it is not a bet.
                size = to if self.bets == 0 else to - previous
                self.largest_raise = max(self.largest_raise, size)
            elif self.open_pair and to >= self.full_level + self.plan.big_bet:
                self.big_bet_made = True  # from now on, raises are by the big bet
            self.full_level = self.base = to
            self.bets += 1
        self._measure_reopen()  # (a short completion of the bring-in moved the base)
        if to > previous:
            self.current_bet = to
        self.aggressor = p.seat
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
        if self.big_bet_made:  # the open pair on 4th street: raises by the big bet
            return self.plan.big_bet
        return self.size

    def _is_full(self, to: int, previous: int) -> bool:
        """Whether a complete, bet or raise to ``to`` counts as a full one: it
        counts toward the cap, and the next raise is a full bet above it."""
        size = self._bet_size()
        if self.fixed_limit:
            # Half-bet rule (RRoP): an all-in counts as full when it adds at least half
            # a bet (half of what a full bet, raise or completion adds over the last
            # full one, or over the bring-in). The short all-ins since count together
            # (RULES 3, TDA 47A): measured over that bet, not over the last all-in.
            base = self.base
            return (to - base) * 2 >= self.full_level + size - base
        if self.bets == 0:
            return to >= size
        return to - previous >= max(self.largest_raise, size)

    def _measure_reopen(self) -> None:
        """Measure what reopens the betting (see :meth:`_reopen_at`) after a change to
        the bet it is measured over: a full bet or raise, the bring-in, a new street."""
        size = self._bet_size()
        if self.fixed_limit:  # half a bet, as _is_full measures it
            self.reopen_by = (self.full_level + size - self.base + 1) >> 1
        elif self.bets:
            self.reopen_by = max(self.largest_raise, size)
        else:  # no full bet yet: it is the first full bet that reopens
            self.reopen_by = 0

    def _reopen_at(self, bet: int) -> int:
        """The bet at which the betting opens again to a player who has acted and put
        in ``bet``: half a bet (limit) or a full raise (pot and no limit) above it,
        made by any number of short all-ins (RULES 3; TDA 47A: only for a player
        facing that much, so not for one who called the first of them)."""
        by = self.reopen_by
        return bet + by if by else self.size

    def _put_in(self, p: SeatState, chips: int) -> None:
        p.stack -= chips
        p.bet += chips
        p.contributed += chips
        if p.stack == 0:
            p.all_in = True
            p.out = True
            self.active_n -= 1

    def protect(self, p: SeatState) -> int | None:
        """He timed out under all-in protection: in for what he has put in, he takes
        no more action (RULES.md 6). Passes the action on, as :meth:`act` does."""
        return self.act(p, None, None)

    def return_uncalled(self) -> None:
        """At the round's end the chips nobody called go back (RULES.md 3): the
        highest street bet's excess over the second highest."""
        # The highest street bet (its first holder) and the second highest, in one pass.
        top = second = -1
        top_player = self.ring[0]
        for q in self.ring:
            bet = q.bet
            if bet > top:
                second = top
                top = bet
                top_player = q
            elif bet > second:
                second = bet
        if top > second:
            back = top - second
            top_player.bet = second
            top_player.contributed -= back
            top_player.stack += back
            if top_player.all_in:  # he has chips again
                top_player.all_in = False
                top_player.out = top_player.folded or top_player.protected
                if not (top_player.folded or top_player.protected):
                    self.active_n += 1
            self.events.append(uncalled(top_player.seat, back))
