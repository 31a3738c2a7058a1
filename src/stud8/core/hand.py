"""One hand of Seven Card Stud Hi/Lo, from the antes to the last odd chip.

>>> from stud8.core import BringIn, Deck, Fold, TableRules
>>> rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
>>> deck = Deck.from_cards("Ah Kh Qh  Ad Kd Qd  9c 2c Tc")  # seat 2 shows the 2c
>>> hand = Hand.start(rules=rules, stacks={1: 100, 2: 100, 3: 100}, deck=deck)
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
from operator import itemgetter
from typing import Final

from stud8.core._inputs import KIND_OF, action_kind, check_setup, check_stacks, replay_items
from stud8.core._shared_events import (
    OPENED,
    STREET_STARTED,
    ante_posted,
    card_dealt,
)
from stud8.core.actions import (
    Action,
    ActionKind,
    LegalAction,
)
from stud8.core.betting import CALL, BettingRound, SeatState
from stud8.core.cards import Card, Deck
from stud8.core.errors import HandSetupError, IllegalActionError, SetupTypeError
from stud8.core.events import (
    CommunityCardDealt,
    Event,
    HandCancelled,
    TimedOut,
    TimeoutOutcome,
)
from stud8.core.plan import RANK_PRIMES, plan_for
from stud8.core.record import fast_init
from stud8.core.rules import (
    MAX_SEATS,
    AllInLowCard,
    TableRules,
    TimeoutPolicy,
)
from stud8.core.settle import dealing_order, settle
from stud8.core.settle import showdown as _showdown
from stud8.core.showdown import HandResult
from stud8.core.streets import first_to_act, shows_open_pair
from stud8.core.views import HandView, view_of

_new: Final = tuple.__new__  # events are records (tuples): built directly on the hot paths

# The action a timeout takes for the player (all-in protection takes none).
_TIMEOUT_ACTIONS: Final = {
    TimeoutOutcome.FOLD: ActionKind.FOLD,
    TimeoutOutcome.CHECK: ActionKind.CHECK,
    TimeoutOutcome.BRING_IN: ActionKind.BRING_IN,
}


# For n players: for each index, an itemgetter giving the others clockwise from
# his left, then him (Hand._after, built for every hand).
_CLOCKWISE: Final = {
    n: [itemgetter(*[(i + k) % n for k in range(1, n + 1)]) for i in range(n)]
    for n in range(2, MAX_SEATS + 1)
}


@fast_init
@dataclass(frozen=True, slots=True, kw_only=True)
class HandSetup:
    """Everything a hand starts from: replaying its decisions gives the same hand."""

    rules: TableRules
    stacks: tuple[tuple[int, int], ...]  # (seat, chips) in seat order
    deck: Deck
    hand_id: str = ""


class Hand:
    """The state of one hand. Start one with :meth:`Hand.start`."""

    # Slots: the engine reads them on every action.
    __slots__ = (
        "_deck",
        "_first_on",
        "_next_card",
        "_open_pair_rule",
        "_plan",
        "_players",
        "_razz",
        "_ring",
        "_round",
        "_seats",
        "_starting",
        "cancelled",
        "community_card",
        "decisions",
        "events",
        "hand_id",
        "result",
        "rules",
        "setup",
        "street",
        "to_act",
    )

    # Compiled (mypyc), a native class's __new__ calls __init__, which copy.deepcopy
    # and pickle cannot; with its own __new__ it does not. (Make hands through ``cls``,
    # as start and replay do: a direct compiled call ``Hand(setup)`` of such a class
    # loses an error its __init__ raises, in mypyc 2.4.)
    def __new__(cls, *args: object, **kwargs: object) -> Hand:
        return super().__new__(cls)

    def __init__(self, setup: HandSetup) -> None:
        rules = setup.rules
        check_setup(rules, setup.deck)
        plan = plan_for(rules)
        stacks = setup.stacks
        max_seats = plan.max_seats
        if not 2 <= len(stacks) <= max_seats:
            raise HandSetupError(f"a hand needs 2 to {max_seats} players, got {len(stacks)}")
        ring = []
        previous = 0
        # Read as given (objects): compiled, a typed unpack of a (seat, 100.0) pair
        # would raise a bare TypeError before these checks could say what is wrong.
        given: Sequence[Sequence[object]] = stacks
        for i, pair in enumerate(given):
            seat_given, chips_given = pair[0], pair[1]
            # (an int subclass, as numpy's, is taken as an int; a bool is not a seat)
            if not isinstance(seat_given, int) or isinstance(seat_given, bool):
                raise HandSetupError(f"seat numbers run from 1 to {max_seats}, got {seat_given!r}")
            seat = int(seat_given)
            if not 1 <= seat <= max_seats:
                raise HandSetupError(f"seat numbers run from 1 to {max_seats}, got {seat!r}")
            if seat <= previous:
                raise HandSetupError(
                    f"seats must be distinct and in order, got {[s for s, _ in stacks]}"
                )
            previous = seat
            if not isinstance(chips_given, int) or isinstance(chips_given, bool):
                raise HandSetupError(
                    f"seat {seat}: a player needs a whole positive number of chips, "
                    f"got {chips_given!r}"
                )
            chips = int(chips_given)
            if chips <= 0:
                raise HandSetupError(
                    f"seat {seat}: a player needs a whole positive number of chips, got {chips!r}"
                )
            ring.append(SeatState(seat, chips, i))
        self.setup = setup
        self._starting = stacks
        self.rules = rules
        self._plan = plan
        self.hand_id = setup.hand_id
        self._seats: tuple[int, ...] = tuple([p.seat for p in ring])
        self._ring = ring
        self._players: dict[int, SeatState] = {p.seat: p for p in ring}
        # The game (RULES.md 8), decided once: how hands are valued, who acts first.
        self._razz = plan.razz
        self._open_pair_rule = plan.open_pair_rule
        self._deck = setup.deck.cards
        self._next_card = 0
        self.events: list[Event] = []
        self.decisions: list[tuple[int, Action | None]] = []  # None: a timeout
        self.street = 3
        self.to_act: int | None = None
        self.community_card: Card | None = None
        self.result: HandResult | None = None
        self.cancelled = False
        after = [clockwise(ring) for clockwise in _CLOCKWISE[len(ring)]]
        self._round = BettingRound(plan, ring, self._players, after, self.events, self.hand_id)
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
        check_stacks(stacks)
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
        """The hand again from its setup and its decisions, ``(seat, action)`` pairs
        (``action`` None for a timeout), or its events; anything else raises
        :class:`NotAnActionError` naming the item."""
        if not isinstance(setup, HandSetup):
            raise SetupTypeError(f"replay needs the hand's HandSetup, got {setup!r:.60}")
        items, pairs = replay_items(decisions, setup.hand_id)
        hand = cls(setup)
        for seat, action in pairs:
            if hand.to_act != seat:
                raise IllegalActionError(
                    f"replay expected seat {seat} to act, but "
                    + (f"seat {hand.to_act} is to act" if hand.to_act else "the hand is over"),
                    hand_id=hand.hand_id,
                    street=hand.street,
                    seat=seat,
                )
            if action is None:
                hand.time_out()
            else:
                hand.apply(action)
        cancelled = [e for e in items if isinstance(e, HandCancelled)]
        if cancelled and not hand.is_over:
            hand.cancel(cancelled[0].reason)
        return hand

    def _deal_third_street(self) -> None:
        ante = self._plan.ante
        events = self.events
        players = self._ring
        seats = self._seats
        # The records come from the shared tables (_shared_events): a hand starts with
        # two dozen of them, the same ones hand after hand.
        if ante:
            short = False
            for p in players:
                if p.stack <= ante:
                    short = True
            if not short:  # the usual case: nobody all-in
                for p in players:
                    p.stack -= ante
                    p.contributed = ante
                    events.append(ante_posted(p.seat, ante, False))
            else:
                for p in players:
                    paid = ante if ante < p.stack else p.stack
                    p.stack -= paid
                    p.contributed += paid
                    if p.stack == 0:
                        p.all_in = True
                        p.out = True
                        self._round.active_n -= 1
                    events.append(ante_posted(p.seat, paid, p.all_in))
        events.append(STREET_STARTED[3])
        deck = self._deck
        n = len(players)
        # (Loops over indices: compiled, they run in C, where zip(..., strict=True) is a call.)
        for i in range(n):
            events.append(card_dealt(seats[i], deck[i], False, 3))
        for i in range(n):
            events.append(card_dealt(seats[i], deck[n + i], False, 3))
        # The bring-in: the lowest up card, ace high, suits clubs to spades; in razz
        # the highest up card, ace low, suits clubs to spades (RULES.md 8).
        low = players[0]
        lowest = 52
        for i in range(n):
            p = players[i]
            c = deck[2 * n + i]
            p.down = [deck[i], deck[n + i]]
            p.up = [c]
            p.up_product = RANK_PRIMES[c.rank]
            events.append(card_dealt(p.seat, c, True, 3))
            if c.code < lowest:
                low, lowest = p, c.code
        self._next_card = 3 * n
        if self._razz:
            low = max(players, key=lambda q: q.up[0].low_rank * 4 + q.up[0].suit_index)
        bring_in: SeatState | None = low
        r = self._round
        if low.all_in:  # all-in for the ante: the player on his left brings in
            bring_in = r.next_with_chips(low.seat)
            r.bring_in_optional = self.rules.all_in_low_card is AllInLowCard.NEXT_MAY_FOLD
        if bring_in is None or r.active_n < 2:
            self._finish_round()  # nobody to bet against: deal it out
            return
        r.bring_in_seat = bring_in.seat
        r.bring_in_pending = True
        self._open_action(bring_in.seat)

    def _open_action(self, seat: int) -> None:
        self.to_act = seat
        street = self.street
        self._first_on[street] = seat
        self.events.append(OPENED[street * 16 + seat])
        self._round.open_action()

    # ------------------------------------------------------------ questions
    @property
    def seats(self) -> tuple[int, ...]:
        """The seats dealt in, in order."""
        return self._seats

    @property
    def bring_in_seat(self) -> int | None:
        """The seat that brought in (or completed instead) on 3rd street."""
        return self._round.bring_in_seat

    @property
    def is_over(self) -> bool:
        return self.result is not None or self.cancelled

    @property
    def current_bet(self) -> int:
        """What a call reaches on this street."""
        return self._round.current_bet

    @property
    def bets_this_round(self) -> int:
        """Full bets and raises this round (the bring-in is not one)."""
        return self._round.bets

    @property
    def pot_total(self) -> int:
        """All chips put in this hand, the current street's bets included."""
        return self._round.pot_total

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
        return dealing_order(p)

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

    def _player(self, seat: int) -> SeatState:
        try:
            return self._players[seat]
        except KeyError:
            raise IllegalActionError(
                f"seat {seat} is not in this hand (seats {list(self._seats)})",
                hand_id=self.hand_id,
            ) from None

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the player to act may do, each kind with its amounts."""
        seat = self.to_act
        if seat is None:
            return ()
        return self._round.legal_actions(self._players[seat])

    def apply(self, action: Action) -> list[Event]:
        """Apply the action of the player to act; returns the new events.

        An action that is not legal now raises :class:`IllegalActionError` and
        changes nothing.
        """
        r = self._round
        seat = self.to_act
        # one lookup reads the kind and checks the type (the slow way refuses a non-action)
        kind = KIND_OF.get(type(action))
        if kind is None:
            kind = action_kind(action, self.hand_id, self.street, seat)
        if seat is None:
            raise IllegalActionError(
                "the hand is over" if self.is_over else "nobody is to act",
                hand_id=self.hand_id,
                street=self.street,
            )
        p = self._players[seat]
        legal_actions = r.legal or r.legal_actions(p)
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
        to = legal.min_to
        if to is not None and kind is not CALL:  # complete, bet or raise: check the amount
            given: object = getattr(action, "to", None)
            if given is not None and (given.__class__ is not int or given != to):
                if given.__class__ is not int or not any(
                    # the open pair on 4th street offers the same kind twice (small, big bet)
                    a.kind is kind and a.min_to <= given <= a.max_to  # type: ignore[operator]
                    for a in legal_actions
                ):
                    self._refuse_amount(seat, kind, given, legal_actions)
                to = given  # type: ignore[assignment]
        start = len(self.events)
        self.decisions.append((seat, action))
        r.legal = None
        nxt = self.to_act = r.act(p, kind, to)
        if nxt is None:
            self._finish_round()
        return self.events[start:]

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

    # ------------------------------------------------------------- timeouts
    def time_out(self) -> list[Event]:
        """The player to act ran out of time: apply the timeout rule (RULES.md section 6)."""
        r = self._round
        seat = self.to_act
        if seat is None:
            raise IllegalActionError("nobody is to act", hand_id=self.hand_id, street=self.street)
        p = self._players[seat]
        start = len(self.events)
        self.decisions.append((seat, None))
        outcome: TimeoutOutcome
        if r.bring_in_pending:
            # The bring-in is forced: it is posted for him, unless he may fold.
            outcome = TimeoutOutcome.FOLD if r.bring_in_optional else TimeoutOutcome.BRING_IN
        elif self.rules.timeout_policy is TimeoutPolicy.CHECK_OR_FOLD:
            outcome = TimeoutOutcome.CHECK if r.current_bet <= p.bet else TimeoutOutcome.FOLD
        elif p.contributed - min(self.rules.ante, p.contributed) == 0 and p.bet == 0:
            outcome = TimeoutOutcome.FOLD  # nothing in beyond the ante
        else:
            outcome = TimeoutOutcome.ALL_IN_PROTECTION
        self.events.append(TimedOut(seat, outcome))
        r.legal = None
        if outcome is TimeoutOutcome.ALL_IN_PROTECTION:
            nxt = self.to_act = r.protect(p)
        else:
            nxt = self.to_act = r.act(p, _TIMEOUT_ACTIONS[outcome], None)
        if nxt is None:
            self._finish_round()
        return self.events[start:]

    # ---------------------------------------------------------- the streets
    def _finish_round(self) -> None:
        """End the betting round; deal the next street, or end the hand."""
        r = self._round
        self.to_act = None
        r.return_uncalled()
        while True:
            if r.live_n == 1:
                self._end_hand()
                return
            if self.street == 7:
                self._end_hand(showdown=True)
                return
            street = self.street = self.street + 1
            r.new_street(street)
            self.events.append(STREET_STARTED[street])
            self._deal_street()
            if self._open_pair_rule:
                r.set_open_pair(
                    street == 4 and shows_open_pair(p.up for p in self._ring if not p.folded)
                )
            if r.active_n >= 2:
                self._open_action(self._first_to_act())
                return

    def _end_hand(self, *, showdown: bool = False) -> None:
        r = self._round
        self.to_act = None
        if showdown:
            self.result = _showdown(
                self._ring,
                self.events,
                self._plan,
                street=self.street,
                community_card=self.community_card,
                aggressor=r.aggressor,
                first_on_seventh=self._first_on.get(7),
                starting=self._starting,
            )
        else:
            self.result = settle(
                self._ring,
                self.events,
                self._plan,
                street=self.street,
                community_card=self.community_card,
                starting=self._starting,
            )

    def _deal_street(self) -> None:
        street = self.street
        live = [p for p in self._ring if not p.folded]
        deck = self._deck
        k = self._next_card
        events = self.events
        if street == 7:
            if len(live) > len(deck) - k:
                card = deck[k]
                self._next_card = k + 1
                self.community_card = card
                events.append(_new(CommunityCardDealt, (card,)))
                return
            for p in live:
                card = deck[k]
                k += 1
                p.down.append(card)
                events.append(card_dealt(p.seat, card, False, 7))
        else:
            for p in live:
                card = deck[k]
                k += 1
                p.up.append(card)
                p.up_product *= RANK_PRIMES[card.rank]
                events.append(card_dealt(p.seat, card, True, street))
        self._next_card = k

    def _first_to_act(self) -> int:
        plan = self._plan
        if self.community_card is None and plan.position_tie:
            # The highest hand showing (razz: the lowest); on a tie the first seat (strict >).
            best: SeatState | None = None
            best_key: tuple[int, ...] = ()
            keys = plan.up_keys
            for p in self._ring:
                if not p.folded:
                    key = keys.get(p.up_product)
                    if key is None:
                        key = keys[p.up_product] = plan.up_key(p.up)
                    if best is None or key > best_key:
                        best, best_key = p, key
            assert best is not None
            if not best.out:
                return best.seat
            ring = self._ring
            n = len(ring)
            for k in range(1, n):
                q = ring[(best.index + k) % n]
                if not q.out:
                    return q.seat
        return first_to_act(
            street=self.street,
            up_cards={s: self._players[s].up for s in self._seats},
            can_act={s: self._players[s].can_act for s in self._seats},
            live=self.live_seats(),
            rules=self.rules,
            community_card=self.community_card,
        )

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
        self._round.legal = None
        self.cancelled = True
        self.events.append(HandCancelled(tuple(refunds), reason))
        return self.events[start:]

    def __repr__(self) -> str:
        return (
            f"<Hand {self.hand_id or '(no id)'} street {self.street} "
            f"to act {self.to_act} pot {self.pot_total}>"
        )
