"""One hand of Seven Card Stud Hi/Lo, from the antes to the last odd chip.

>>> from stud8.core.cards import Deck
>>> from stud8.core.rules import TableRules
>>> rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
>>> hand = Hand.start(rules=rules, stacks={1: 100, 2: 100, 3: 100}, deck=Deck.seeded(1))
>>> hand.street, hand.to_act
(3, 2)
>>> [str(a) for a in hand.legal_actions()]
['bring in 2', 'complete to 4']
>>> _ = hand.apply(BringIn())
>>> _ = hand.apply(Fold()); _ = hand.apply(Fold())
>>> hand.is_over, hand.result.stacks
(True, {1: 99, 2: 102, 3: 99})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from stud8.core.actions import (
    Action,
    ActionKind,
    BringIn,
    Call,
    Check,
    Fold,
    LegalAction,
    make_action,
)
from stud8.core.cards import Card, Deck
from stud8.core.errors import HandSetupError, IllegalActionError
from stud8.core.evaluate import (
    HighValue,
    LowValue,
    best_high_cards,
    best_low_cards,
    evaluate_hi_lo,
)
from stud8.core.events import (
    ActionOpened,
    AntePosted,
    BetMade,
    BringInPosted,
    Called,
    CardDealt,
    Checked,
    CommunityCardDealt,
    Completed,
    Event,
    Folded,
    HandCancelled,
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    Raised,
    RakeTaken,
    StreetStarted,
    TimedOut,
    UncalledBetReturned,
)
from stud8.core.pots import OddChipKey, Pot, PotResult, build_pots, settle_pot, take_rake
from stud8.core.rules import (
    AllInLowCard,
    BettingStructure,
    FirstToActTie,
    HeadsUpCap,
    OddChip,
    ShowOrderNoBet,
    TableRules,
    TimeoutPolicy,
)
from stud8.core.streets import first_to_act, show_order, up_cards_key
from stud8.core.views import HandView, view_of

_SIZED_EVENTS: dict[ActionKind, type[Completed | BetMade | Raised]] = {
    ActionKind.COMPLETE: Completed,
    ActionKind.BET: BetMade,
    ActionKind.RAISE: Raised,
}
_FOLD = LegalAction(ActionKind.FOLD)
_CHECK = LegalAction(ActionKind.CHECK)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSetup:
    """Everything a hand starts from: replaying its decisions gives the same hand."""

    rules: TableRules
    stacks: tuple[tuple[int, int], ...]  # (seat, chips) in seat order
    deck: Deck
    hand_id: str = ""


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome: each pot, who won which half, the rake and the final stacks."""

    pots: tuple[PotResult, ...]
    rake: int
    stacks: dict[int, int]
    starting_stacks: dict[int, int]
    showdown: bool

    @property
    def winnings(self) -> dict[int, int]:
        """Net chips won (negative: lost) by seat."""
        return {s: self.stacks[s] - self.starting_stacks[s] for s in self.stacks}


class _Player:
    __slots__ = (
        "acted",
        "all_in",
        "bet",
        "contributed",
        "down",
        "folded",
        "index",
        "protected",
        "seat",
        "stack",
        "up",
    )

    def __init__(self, seat: int, stack: int, index: int) -> None:
        self.seat = seat
        self.index = index  # position in seat order
        self.stack = stack  # chips behind, not yet in the pot
        self.bet = 0  # chips put in on this street
        self.contributed = 0  # chips put in this hand, ante included
        self.down: list[Card] = []
        self.up: list[Card] = []
        self.folded = False
        self.all_in = False
        self.protected = False  # timed out under all-in protection
        self.acted = False  # acted since the last full bet or raise

    @property
    def can_act(self) -> bool:
        return not (self.folded or self.all_in or self.protected)


class Hand:
    """The state of one hand. Start one with :meth:`Hand.start`."""

    def __init__(self, setup: HandSetup) -> None:
        rules = setup.rules
        if not 2 <= len(setup.stacks) <= rules.max_seats:
            raise HandSetupError(
                f"a hand needs 2 to {rules.max_seats} players, got {len(setup.stacks)}"
            )
        seats = [s for s, _ in setup.stacks]
        if sorted(set(seats)) != seats:
            raise HandSetupError(f"seats must be distinct and in order, got {seats}")
        for seat, chips in setup.stacks:
            if not isinstance(seat, int) or not 1 <= seat <= rules.max_seats:
                raise HandSetupError(f"seat numbers run from 1 to {rules.max_seats}, got {seat!r}")
            if not isinstance(chips, int) or isinstance(chips, bool) or chips <= 0:
                raise HandSetupError(
                    f"seat {seat}: a player needs a whole positive number of chips, got {chips!r}"
                )
        self.setup = setup
        self.rules = rules
        self.hand_id = setup.hand_id
        self._seats: tuple[int, ...] = tuple(seats)
        self._ring = [_Player(s, c, i) for i, (s, c) in enumerate(setup.stacks)]
        self._players: dict[int, _Player] = {p.seat: p for p in self._ring}
        self._live_n = len(self._ring)  # players not folded
        self._active_n = len(self._ring)  # players who can still act (not all-in)
        self._legal: tuple[LegalAction, ...] | None = None  # cache for this decision
        self._fixed_limit = rules.structure is BettingStructure.FIXED_LIMIT
        # the cap as a count of full bets in a round (None: no cap)
        self._max_bets = (
            rules.raise_cap + 1 if rules.raise_cap is not None and self._fixed_limit else None
        )
        self._raked = rules.rake_percent != 0
        self._deck = setup.deck.cards
        self._next_card = 0
        self.events: list[Event] = []
        self.decisions: list[tuple[int, Action | None]] = []  # None: a timeout
        self.street = 3
        self.to_act: int | None = None
        self.community_card: Card | None = None
        self.bring_in_seat: int | None = None
        self.result: HandResult | None = None
        self.cancelled = False
        # the betting round
        self._current_bet = 0  # what a call must reach
        self._full_level = 0  # the street bet set by the last full bet or raise
        self._bets = 0  # full bets and raises this round, toward the cap
        self._largest_raise = 0  # pot and no limit: the minimum raise
        self._aggressor: int | None = None  # the last to bet or raise this round
        self._cap_lifted = False
        self._bring_in_pending = False  # the forced bring-in is still to be made
        self._bring_in_optional = False  # ...by a player who may fold instead
        self._first_on: dict[int, int] = {}  # street -> the seat that acted first
        self._deal_third_street()

    # ------------------------------------------------------------------ start
    @classmethod
    def start(
        cls,
        *,
        rules: TableRules,
        stacks: Mapping[int, int],
        deck: Deck | None = None,
        hand_id: str = "",
    ) -> Hand:
        """Post the antes and deal 3rd street. Without ``deck`` a fresh
        cryptographic shuffle is used, as at a live table."""
        setup = HandSetup(
            rules=rules,
            stacks=tuple(sorted(stacks.items())),
            deck=deck if deck is not None else Deck.shuffled(),
            hand_id=hand_id,
        )
        return cls(setup)

    @classmethod
    def replay(
        cls, setup: HandSetup, decisions: Iterable[tuple[int, Action | None]] | Sequence[Event]
    ) -> Hand:
        """The hand again from its setup and its decisions (or its events)."""
        hand = cls(setup)
        items = list(decisions)
        pairs: list[tuple[int, Action | None]]
        if items and isinstance(items[0], Event):
            pairs = list(decisions_from_events(e for e in items if isinstance(e, Event)))
        else:
            pairs = [d for d in items if isinstance(d, tuple)]
        for seat, action in pairs:
            if hand.to_act != seat:
                raise IllegalActionError(
                    f"replay expected seat {seat} to act, but seat {hand.to_act} is to act",
                    hand_id=hand.hand_id,
                    street=hand.street,
                    seat=seat,
                )
            if action is None:
                hand.time_out()
            else:
                hand.apply(action)
        return hand

    def _deal_third_street(self) -> None:
        ante = self.rules.ante
        events = self.events
        if ante:
            for p in self._players.values():
                paid = min(ante, p.stack)
                p.stack -= paid
                p.contributed += paid
                if p.stack == 0:
                    p.all_in = True
                    self._active_n -= 1
                events.append(AntePosted(p.seat, paid, p.all_in))
        events.append(StreetStarted(3))
        players = self._ring
        deck = self._deck
        n = len(players)
        for round_, face_up in enumerate((False, False, True)):
            for i, p in enumerate(players):
                card = deck[round_ * n + i]
                (p.up if face_up else p.down).append(card)
                events.append(CardDealt(p.seat, card, face_up, 3))
        self._next_card = 3 * n
        # The bring-in: the lowest up card, ace high, suits clubs to spades.
        low = min(players, key=lambda q: q.up[0].code)
        bring_in: _Player | None = low
        self._bring_in_optional = False
        if low.all_in:  # all-in for the ante: the player on his left brings in
            bring_in = self._next_with_chips(low.seat)
            self._bring_in_optional = self.rules.all_in_low_card is AllInLowCard.NEXT_MAY_FOLD
        if bring_in is None or self._active_n < 2:
            self._finish_round()  # nobody to bet against: deal it out
            return
        self.bring_in_seat = bring_in.seat
        self._bring_in_pending = True
        self._open_action(bring_in.seat)

    def _next_with_chips(self, seat: int) -> _Player | None:
        seats = self._seats
        i = seats.index(seat)
        for k in range(1, len(seats)):
            p = self._players[seats[(i + k) % len(seats)]]
            if p.can_act:
                return p
        return None

    def _deal(self, p: _Player, face_up: bool, street: int) -> None:
        card = self._deck[self._next_card]
        self._next_card += 1
        (p.up if face_up else p.down).append(card)
        self.events.append(CardDealt(p.seat, card, face_up, street))

    def _open_action(self, seat: int) -> None:
        self.to_act = seat
        self._first_on[self.street] = seat
        self.events.append(ActionOpened(self.street, seat))
        if self.rules.heads_up_cap is not HeadsUpCap.NEVER_LIFTED and self._active_n <= 2:
            self._cap_lifted = True

    # ------------------------------------------------------------ questions
    @property
    def seats(self) -> tuple[int, ...]:
        """The seats dealt in, in order."""
        return self._seats

    @property
    def is_over(self) -> bool:
        return self.result is not None or self.cancelled

    @property
    def pot_total(self) -> int:
        """All chips put in this hand, the current street's bets included."""
        return sum(p.contributed for p in self._players.values())

    @property
    def current_bet(self) -> int:
        """What a call reaches on this street."""
        return self._current_bet

    @property
    def bets_this_round(self) -> int:
        """Full bets and raises this round (the bring-in is not one)."""
        return self._bets

    @property
    def deck_position(self) -> int:
        """How many cards of the deck have been dealt."""
        return self._next_card

    def stack(self, seat: int) -> int:
        """Chips the seat has behind (not in the pot)."""
        return self._player(seat).stack

    def street_bet(self, seat: int) -> int:
        return self._player(seat).bet

    def contributed(self, seat: int) -> int:
        """Chips the seat has put in this hand, the ante included."""
        return self._player(seat).contributed

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._player(seat).up)

    def down_cards(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._player(seat).down)

    def cards(self, seat: int) -> tuple[Card, ...]:
        """All of the seat's cards in dealing order (down, down, up..., down)."""
        p = self._player(seat)
        return _dealing_order(p)

    def is_folded(self, seat: int) -> bool:
        return self._player(seat).folded

    def is_all_in(self, seat: int) -> bool:
        """No chips behind, or timed out under all-in protection."""
        p = self._player(seat)
        return p.all_in or p.protected

    def live_seats(self) -> tuple[int, ...]:
        """Seats still in the hand (not folded)."""
        return tuple(s for s in self._seats if not self._players[s].folded)

    def view(self, seat: int | None = None, *, everything: bool = False) -> HandView:
        """What ``seat`` may see now (None: an observer; ``everything``: the operator)."""
        return view_of(self, seat, everything=everything)

    def _player(self, seat: int) -> _Player:
        try:
            return self._players[seat]
        except KeyError:
            raise IllegalActionError(
                f"seat {seat} is not in this hand (seats {list(self._seats)})",
                hand_id=self.hand_id,
            ) from None

    # --------------------------------------------------------------- actions
    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the player to act may do, each kind with its amounts."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._find_legal_actions()
        return legal

    def _find_legal_actions(self) -> tuple[LegalAction, ...]:
        seat = self.to_act
        if seat is None:
            return ()
        p = self._players[seat]
        rules = self.rules
        max_to = p.bet + p.stack
        if self._bring_in_pending:
            out = [
                LegalAction.of(
                    ActionKind.BRING_IN,
                    adds=min(rules.bring_in, p.stack),
                    all_in=p.stack <= rules.bring_in,
                )
            ]
            if p.stack > rules.bring_in and rules.bring_in < rules.small_bet:
                lo, hi = self._raise_bounds(p, max_to)
                out.append(LegalAction.of(ActionKind.COMPLETE, lo, hi, lo - p.bet, lo == max_to))
            if self._bring_in_optional:
                out.append(_FOLD)
            return tuple(out)
        facing = self._current_bet - p.bet
        out = []
        if facing > 0:
            out.append(_FOLD)
            adds = min(facing, p.stack)
            out.append(
                LegalAction.of(ActionKind.CALL, p.bet + adds, p.bet + adds, adds, adds == p.stack)
            )
        else:
            out.append(_CHECK)
        if p.stack > facing and not p.acted and not self._capped():
            if self._fixed_limit:  # the common case, inline
                lo = hi = self._full_level + (
                    rules.big_bet if self.street >= rules.big_bet_street else rules.small_bet
                )
                if lo > max_to:
                    lo = hi = max_to
            else:
                lo, hi = self._raise_bounds(p, max_to)
            if self._bets == 0:
                kind = ActionKind.BET if self._current_bet == 0 else ActionKind.COMPLETE
            else:
                kind = ActionKind.RAISE
            out.append(LegalAction.of(kind, lo, hi, lo - p.bet, lo == max_to))
        return tuple(out)

    def _capped(self) -> bool:
        cap = self._max_bets
        return cap is not None and self._bets >= cap and not self._cap_lifted

    def _raise_bounds(self, p: _Player, max_to: int) -> tuple[int, int]:
        """The smallest and largest *to* amounts of a complete, bet or raise."""
        rules = self.rules
        size = rules.bet_size(self.street)
        structure = rules.structure
        if structure is BettingStructure.FIXED_LIMIT:
            target = self._full_level + size
            lo = hi = min(target, max_to)
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

    def apply(self, action: Action) -> list[Event]:
        """Apply the action of the player to act; returns the new events.

        An action that is not legal now raises :class:`IllegalActionError` and
        changes nothing.
        """
        seat = self.to_act
        if seat is None:
            raise IllegalActionError(
                "the hand is over" if self.is_over else "nobody is to act",
                hand_id=self.hand_id,
                street=self.street,
            )
        kind = action.kind
        legal_actions = self._legal or self.legal_actions()
        for legal in legal_actions:
            if legal.kind is kind:
                break
        else:
            allowed = ", ".join(str(a) for a in legal_actions)
            raise IllegalActionError(
                f"{kind.value.replace('_', ' ')} is not allowed now; seat {seat} may {allowed}",
                hand_id=self.hand_id,
                street=self.street,
                seat=seat,
            )
        to = getattr(action, "to", None)
        if to is None:
            to = legal.min_to
        elif to.__class__ is not int or not legal.min_to <= to <= legal.max_to:  # type: ignore[operator]
            self._refuse_amount(seat, kind, to, legal)
        start = len(self.events)
        self.decisions.append((seat, action))
        self._legal = None
        self._do(self._players[seat], kind, to)
        return self.events[start:]

    def _refuse_amount(self, seat: int, kind: ActionKind, to: object, legal: LegalAction) -> None:
        if not isinstance(to, int) or isinstance(to, bool):
            message = f"the amount must be a whole number of chips, got {to!r}"
        else:
            span = (
                f"exactly {legal.min_to}"
                if legal.min_to == legal.max_to
                else f"from {legal.min_to} to {legal.max_to}"
            )
            message = f"{kind.value} to {to} is not allowed: the amount must be {span}"
        raise IllegalActionError(message, hand_id=self.hand_id, street=self.street, seat=seat)

    def _do(self, p: _Player, kind: ActionKind, to: int | None) -> None:
        events = self.events
        if kind is ActionKind.FOLD:
            p.folded = True
            self._live_n -= 1
            self._active_n -= 1
            events.append(Folded(p.seat))
            if self._bring_in_pending:  # the bring-in passes on to the left
                nxt = self._next_with_chips(p.seat)
                if nxt is not None and self._live_n > 1:
                    self.to_act = nxt.seat
                    return
            self._after_action(p)
            return
        if kind is ActionKind.CHECK:
            p.acted = True
            events.append(Checked(p.seat))
            self._after_action(p)
            return
        if kind is ActionKind.CALL:
            adds = min(self._current_bet - p.bet, p.stack)
            self._put_in(p, adds)
            p.acted = True
            events.append(Called(p.seat, p.bet, adds, p.all_in))
            self._after_action(p)
            return
        if kind is ActionKind.BRING_IN:
            adds = min(self.rules.bring_in, p.stack)
            self._put_in(p, adds)
            p.acted = True
            self._bring_in_pending = False
            self.bring_in_seat = p.seat
            # Everyone else must enter for the full bring-in, even over a short one.
            self._current_bet = self.rules.bring_in
            if self.rules.bring_in >= self.rules.small_bet:  # a bring-in of a full bet
                self._full_level = self.rules.bring_in
                self._bets = 1
            events.append(BringInPosted(p.seat, adds, p.all_in))
            self._after_action(p)
            return
        assert to is not None
        # complete, bet or raise
        previous = self._current_bet
        if self._bring_in_pending:
            self._bring_in_pending = False
            self.bring_in_seat = p.seat
        adds = to - p.bet
        self._put_in(p, adds)
        if self._is_full(to, previous):
            if self.rules.structure is not BettingStructure.FIXED_LIMIT:
                self._largest_raise = max(self._largest_raise, to - previous)
            self._full_level = to
            self._bets += 1
            for q in self._players.values():
                q.acted = False
        self._current_bet = max(previous, to)
        self._aggressor = p.seat
        p.acted = True
        events.append(_SIZED_EVENTS[kind](p.seat, to, adds, p.all_in))
        self._after_action(p)

    def _is_full(self, to: int, previous: int) -> bool:
        """Whether a complete, bet or raise to ``to`` counts as a full one:
        it reopens the betting and counts toward the cap."""
        rules = self.rules
        size = rules.bet_size(self.street)
        if rules.structure is BettingStructure.FIXED_LIMIT:
            full_target = self._full_level + size
            if to >= full_target:
                return True
            # Half-bet rule: an all-in of at least half of what a full bet or
            # raise (or completion) would add counts as one (RRoP).
            return (to - previous) * 2 >= full_target - previous
        if self._bets == 0:
            return to >= size
        return to - previous >= max(self._largest_raise, size)

    def _put_in(self, p: _Player, chips: int) -> None:
        p.stack -= chips
        p.bet += chips
        p.contributed += chips
        if p.stack == 0:
            p.all_in = True
            self._active_n -= 1

    def _after_action(self, p: _Player) -> None:
        """Pass the action to the next player who must act, or end the round."""
        if self._live_n == 1:
            self._finish_round()
            return
        active = self._active_n
        if (
            active <= 2
            and not self._cap_lifted
            and self.rules.heads_up_cap is HeadsUpCap.LIFTED_WHEN_HEADS_UP
            and not self._capped_count()
        ):
            self._cap_lifted = True
        ring = self._ring
        n = len(ring)
        i = p.index
        current = self._current_bet
        for k in range(1, n + 1):
            q = ring[(i + k) % n]
            if q.folded or q.all_in or q.protected:
                continue
            if q.bet < current or (not q.acted and active > 1):
                # (with nothing to call and nobody left to bet against, no action)
                self.to_act = q.seat
                return
        self._finish_round()

    def _capped_count(self) -> bool:
        cap = self._max_bets
        return cap is not None and self._bets >= cap

    # ------------------------------------------------------------- timeouts
    def time_out(self) -> list[Event]:
        """The player to act ran out of time: apply the timeout rule (RULES.md section 6)."""
        seat = self.to_act
        if seat is None:
            raise IllegalActionError("nobody is to act", hand_id=self.hand_id, street=self.street)
        p = self._players[seat]
        start = len(self.events)
        self.decisions.append((seat, None))
        if self._bring_in_pending:
            # The bring-in is forced: it is posted for him, unless he may fold.
            outcome = "fold" if self._bring_in_optional else "bring_in"
        elif self.rules.timeout_policy is TimeoutPolicy.CHECK_OR_FOLD:
            outcome = "check" if self._current_bet <= p.bet else "fold"
        elif p.contributed - min(self.rules.ante, p.contributed) == 0 and p.bet == 0:
            outcome = "fold"  # nothing in beyond the ante
        else:
            outcome = "all_in_protection"
        self.events.append(TimedOut(seat, outcome))
        self._legal = None
        if outcome == "all_in_protection":
            p.protected = True
            self._active_n -= 1
            self._after_action(p)
        else:
            kind = {"fold": ActionKind.FOLD, "check": ActionKind.CHECK}.get(
                outcome, ActionKind.BRING_IN
            )
            self._do(p, kind, None)
        return self.events[start:]

    # ---------------------------------------------------------- the streets
    def _finish_round(self) -> None:
        """End the betting round; deal the next street, or end the hand."""
        self.to_act = None
        self._return_uncalled()
        while True:
            if self._live_n == 1:
                self._end_hand(showdown=False)
                return
            if self.street == 7:
                self._showdown()
                return
            self.street += 1
            self._reset_round()
            self.events.append(StreetStarted(self.street))
            self._deal_street()
            if self._active_n >= 2:
                self._open_action(self._first_to_act())
                return

    def _reset_round(self) -> None:
        self._current_bet = 0
        self._full_level = 0
        self._bets = 0
        self._largest_raise = 0
        self._aggressor = None
        self._cap_lifted = False
        for p in self._ring:
            p.bet = 0
            p.acted = False

    def _deal_street(self) -> None:
        street = self.street
        live = [p for p in self._ring if not p.folded]
        if street == 7 and len(live) > len(self._deck) - self._next_card:
            card = self._deck[self._next_card]
            self._next_card += 1
            self.community_card = card
            self.events.append(CommunityCardDealt(card))
            return
        face_up = street != 7
        deck = self._deck
        k = self._next_card
        events = self.events
        for p in live:
            card = deck[k]
            k += 1
            (p.up if face_up else p.down).append(card)
            events.append(CardDealt(p.seat, card, face_up, street))
        self._next_card = k

    def _first_to_act(self) -> int:
        rules = self.rules
        if self.community_card is None and rules.first_to_act_tie is FirstToActTie.POSITION:
            # The highest hand showing; on a tie the first seat (strict >).
            best: _Player | None = None
            best_key: tuple[int, ...] = ()
            for p in self._ring:
                if not p.folded:
                    key = up_cards_key(p.up)
                    if best is None or key > best_key:
                        best, best_key = p, key
            assert best is not None
            if not (best.all_in or best.protected):
                return best.seat
            ring = self._ring
            n = len(ring)
            for k in range(1, n):
                q = ring[(best.index + k) % n]
                if not (q.folded or q.all_in or q.protected):
                    return q.seat
        return first_to_act(
            street=self.street,
            up_cards={s: self._players[s].up for s in self._seats},
            can_act={s: self._players[s].can_act for s in self._seats},
            live=self.live_seats(),
            rules=self.rules,
            community_card=self.community_card,
            first_on=self._first_on,
        )

    def _return_uncalled(self) -> None:
        top = second = 0
        top_player = self._ring[0]
        for q in self._ring:
            b = q.bet
            if b > top:
                top, second, top_player = b, top, q
            elif b > second:
                second = b
        if top > second:
            back = top - second
            top_player.bet = second
            top_player.contributed -= back
            top_player.stack += back
            if top_player.all_in:  # he has chips again
                top_player.all_in = False
                if not (top_player.folded or top_player.protected):
                    self._active_n += 1
            self.events.append(UncalledBetReturned(top_player.seat, back))

    # ------------------------------------------------------------- showdown
    def _values(self, p: _Player) -> tuple[HighValue, LowValue | None]:
        cards = p.down + p.up
        if self.community_card is not None:
            cards.append(self.community_card)
        return evaluate_hi_lo(cards)

    def _showdown(self) -> None:
        live = [s for s in self._seats if not self._players[s].folded]
        values = {s: self._values(self._players[s]) for s in live}
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
            if not shown or _may_win(seat, values, shown, pots):
                shown.append(seat)
                p = self._players[seat]
                self.events.append(HandShown(seat, self._all_cards(p), hi, lo))
            else:
                self.events.append(HandMucked(seat))
        self._end_hand(showdown=True, values=values)

    def _all_cards(self, p: _Player) -> tuple[Card, ...]:
        cards = _dealing_order(p)
        if self.community_card is not None:
            cards += (self.community_card,)
        return cards

    def _end_hand(
        self,
        *,
        showdown: bool,
        values: Mapping[int, tuple[HighValue, LowValue | None]] | None = None,
    ) -> None:
        self.to_act = None
        players = self._players
        contributions = {p.seat: p.contributed for p in self._ring}
        total = sum(contributions.values())
        rake = (
            self.rules.rake_for(total, ended_on_third_street=self.street == 3) if self._raked else 0
        )
        if rake:
            self.events.append(RakeTaken(rake))
        results: list[PotResult] = []
        if values is None:  # everyone else folded: one pot, no split
            (winner,) = (p.seat for p in self._ring if not p.folded)
            amount = total - rake
            results.append(PotResult(0, amount, (winner,), ((winner, amount),), ()))
        else:
            live = frozenset(p.seat for p in self._ring if not p.folded)
            pots = take_rake(build_pots(contributions, live), rake)
            hi_key, lo_key = self._odd_chip_keys()
            for index in range(len(pots) - 1, -1, -1):  # side pots first
                results.append(settle_pot(index, pots[index], values, hi_key, lo_key))
        for r in results:
            whole = not r.low
            for seat, chips in r.high:
                if chips:
                    players[seat].stack += chips
                    self.events.append(
                        PotAwarded(r.index, seat, chips, "whole" if whole else "high")
                    )
            for seat, chips in r.low:
                if chips:
                    players[seat].stack += chips
                    self.events.append(PotAwarded(r.index, seat, chips, "low"))
        stacks = {s: players[s].stack for s in self._seats}
        self.events.append(HandEnded(tuple(stacks.items())))
        self.result = HandResult(
            pots=tuple(sorted(results, key=lambda r: r.index)),
            rake=rake,
            stacks=stacks,
            starting_stacks=dict(self.setup.stacks),
            showdown=showdown,
        )

    def _odd_chip_keys(self) -> tuple[OddChipKey, OddChipKey]:
        """Who gets odd chips among tied hands: the smallest key first (RULES.md 5.3)."""
        players = self._players
        community = self.community_card
        if self.rules.odd_chip is OddChip.ALL_CARDS:
            # All of the player's own cards count: the highest card by rank then
            # suit for high, the lowest (ace low) then clubs first for low.
            def high(seat: int) -> tuple[int, ...]:
                p = players[seat]
                return tuple(sorted(-c.code for c in p.down + p.up))

            def low(seat: int) -> tuple[int, ...]:
                p = players[seat]
                return tuple(sorted(c.low_rank * 4 + c.suit_index for c in p.down + p.up))

            return high, low

        def cards_of(seat: int) -> list[Card]:
            p = players[seat]
            return p.down + p.up + ([community] if community is not None else [])

        # Option (TDA): the highest card by suit within the five-card hand for that half.
        def high5(seat: int) -> tuple[int, ...]:
            return tuple(sorted(-c.code for c in best_high_cards(cards_of(seat))))

        def low5(seat: int) -> tuple[int, ...]:
            five = best_low_cards(cards_of(seat)) or ()
            return tuple(sorted(-(c.low_rank * 4 + c.suit_index) for c in five))

        return high5, low5

    # --------------------------------------------------------------- cancel
    def cancel(self, reason: str = "") -> list[Event]:
        """Cancel the hand: every ante, bring-in and bet goes back (RULES.md section 7)."""
        if self.is_over:
            raise IllegalActionError("the hand is already over", hand_id=self.hand_id)
        start = len(self.events)
        refunds = []
        for s in self._seats:
            p = self._players[s]
            refunds.append((s, p.contributed))
            p.stack += p.contributed
            p.contributed = 0
            p.bet = 0
        self.to_act = None
        self._legal = None
        self.cancelled = True
        self.events.append(HandCancelled(tuple(refunds), reason))
        return self.events[start:]

    def __repr__(self) -> str:
        return (
            f"<Hand {self.hand_id or '(no id)'} street {self.street} "
            f"to act {self.to_act} pot {self.pot_total}>"
        )


def _dealing_order(p: _Player) -> tuple[Card, ...]:
    """Down, down, up, up, up, up, down: the order the cards came."""
    return tuple(p.down[:2]) + tuple(p.up) + tuple(p.down[2:])


def _may_win(
    seat: int,
    values: Mapping[int, tuple[HighValue, LowValue | None]],
    shown: Sequence[int],
    pots: Sequence[Pot],
) -> bool:
    """Whether the seat's hand can win or tie a half of a pot he is in,
    against the hands already shown (else he may muck)."""
    hi, lo = values[seat]
    for pot in pots:
        if seat not in pot.eligible:
            continue
        rivals = [values[s] for s in shown if s in pot.eligible]
        if not rivals or hi >= max(r[0] for r in rivals):
            return True
        if lo is not None:
            rival_lows = [r[1] for r in rivals if r[1] is not None]
            if not rival_lows or lo >= max(rival_lows):
                return True
    return False


def decisions_from_events(events: Iterable[Event]) -> Iterable[tuple[int, Action | None]]:
    """The players' decisions in a hand's events (a timeout is ``None``)."""
    after_timeout: int | None = None
    for e in events:
        if isinstance(e, TimedOut):
            after_timeout = e.seat
            yield e.seat, None
            continue
        if isinstance(e, (Folded, Checked, Called, BringInPosted)):
            if after_timeout == e.seat:
                after_timeout = None
                continue
            simple = {Folded: Fold, Checked: Check, Called: Call, BringInPosted: BringIn}
            yield e.seat, simple[type(e)]()
        elif isinstance(e, (Completed, BetMade, Raised)):
            kind = {Completed: "complete", BetMade: "bet", Raised: "raise"}[type(e)]
            yield e.seat, make_action(kind, e.to)
        after_timeout = None
