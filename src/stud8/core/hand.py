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

from stud8.core.actions import (
    Action,
    ActionKind,
    LegalAction,
)
from stud8.core.betting import Betting, SeatState
from stud8.core.cards import Card, Deck
from stud8.core.errors import HandSetupError, IllegalActionError
from stud8.core.evaluate import (
    HighValue,
    LowValue,
    RazzValue,
    best_razz_low,
    evaluate_hi_lo,
)
from stud8.core.events import (
    ActionOpened,
    AntePosted,
    CardDealt,
    CommunityCardDealt,
    Event,
    HandCancelled,
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    RakeTaken,
    StreetStarted,
    TimedOut,
    UncalledBetReturned,
    decisions_from_events,
)
from stud8.core.pots import PotResult, build_pots, settle_pot, settle_razz_pot, take_rake
from stud8.core.rules import (
    AllInLowCard,
    BettingStructure,
    FirstToActTie,
    Game,
    HeadsUpCap,
    ShowOrderNoBet,
    TableRules,
    TimeoutPolicy,
)
from stud8.core.showdown import HandResult, high_only, may_win, may_win_razz, odd_chip_keys
from stud8.core.streets import first_to_act, show_order, shows_open_pair, up_key_for
from stud8.core.views import HandView, view_of


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSetup:
    """Everything a hand starts from: replaying its decisions gives the same hand."""

    rules: TableRules
    stacks: tuple[tuple[int, int], ...]  # (seat, chips) in seat order
    deck: Deck
    hand_id: str = ""


class Hand(Betting):
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
        self._ring = [SeatState(s, c, i) for i, (s, c) in enumerate(setup.stacks)]
        self._players: dict[int, SeatState] = {p.seat: p for p in self._ring}
        self._live_n = len(self._ring)  # players not folded
        self._active_n = len(self._ring)  # players who can still act (not all-in)
        self._legal: tuple[LegalAction, ...] | None = None  # cache for this decision
        self._fixed_limit = rules.structure is BettingStructure.FIXED_LIMIT
        self._limit_inline = self._fixed_limit
        # The game (RULES.md 8), decided once: how hands are valued, who acts first.
        game = rules.game
        self._razz = game is Game.RAZZ
        self._evaluate = evaluate_hi_lo if game is Game.STUD_HI_LO else high_only
        self._up_key = up_key_for(game)
        self._open_pair_rule = rules.open_pair_in_force
        self._open_pair = False
        self._big_bet_made = False
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
        cancelled = [e for e in items if isinstance(e, HandCancelled)]
        if cancelled and not hand.is_over:
            hand.cancel(cancelled[0].reason)
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
        # The bring-in: the lowest up card, ace high, suits clubs to spades; in razz
        # the highest up card, ace low, suits clubs to spades (RULES.md 8).
        if self._razz:
            low = max(players, key=lambda q: q.up[0].low_rank * 4 + q.up[0].suit_index)
        else:
            low = min(players, key=lambda q: q.up[0].code)
        bring_in: SeatState | None = low
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

    def _player(self, seat: int) -> SeatState:
        try:
            return self._players[seat]
        except KeyError:
            raise IllegalActionError(
                f"seat {seat} is not in this hand (seats {list(self._seats)})",
                hand_id=self.hand_id,
            ) from None

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
        elif (to.__class__ is not int or not legal.min_to <= to <= legal.max_to) and not any(  # type: ignore[operator]
            # the open pair on 4th street offers the same kind twice (small, big bet)
            a.kind is kind and a.min_to <= to <= a.max_to  # type: ignore[operator]
            for a in legal_actions
            if to.__class__ is int
        ):
            self._refuse_amount(seat, kind, to, legal_actions)
        start = len(self.events)
        self.decisions.append((seat, action))
        self._legal = None
        self._do(self._players[seat], kind, to)
        return self.events[start:]

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
            if self._open_pair_rule:
                self._open_pair = self.street == 4 and shows_open_pair(
                    p.up for p in self._ring if not p.folded
                )
                self._limit_inline = not self._open_pair
                self._big_bet_made = False
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
            # The highest hand showing (razz: the lowest); on a tie the first seat (strict >).
            best: SeatState | None = None
            best_key: tuple[int, ...] = ()
            up_key = self._up_key
            for p in self._ring:
                if not p.folded:
                    key = up_key(p.up)
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
    def _values(self, p: SeatState) -> tuple[HighValue, LowValue | None]:
        cards = p.down + p.up
        if self.community_card is not None:
            cards.append(self.community_card)
        return self._evaluate(cards)

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
                self.events.append(HandShown(seat, self._all_cards(p), hi, low))
            else:
                self.events.append(HandMucked(seat))
        self._end_hand(showdown=True, values=values, razz=razz)

    def _all_cards(self, p: SeatState) -> tuple[Card, ...]:
        cards = _dealing_order(p)
        if self.community_card is not None:
            cards += (self.community_card,)
        return cards

    def _return_unmatched(self) -> None:
        """Chips of folded players above every live player's contribution go back:
        nobody left in the hand matched them (an all-in player wins from each
        opponent no more than he put in). Only antes and a declined bring-in can
        leave such chips; uncalled bets went back at the end of their round."""
        most = max(p.contributed for p in self._ring if not p.folded)
        for p in self._ring:
            if p.folded and p.contributed > most:
                back = p.contributed - most
                p.contributed = most
                p.stack += back
                self.events.append(UncalledBetReturned(p.seat, back))

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
            hi_key, lo_key = odd_chip_keys(
                self.rules.odd_chip,
                {p.seat: p.down + p.up for p in self._ring if not p.folded},
                self.community_card,
                razz=razz is not None,
            )
            for index in range(len(pots) - 1, -1, -1):  # side pots first
                if razz is not None:  # the best low takes the pot, odd chips by the low rule
                    results.append(settle_razz_pot(index, pots[index], razz, lo_key))
                else:
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


def _dealing_order(p: SeatState) -> tuple[Card, ...]:
    """Down, down, up, up, up, up, down: the order the cards came."""
    return tuple(p.down[:2]) + tuple(p.up) + tuple(p.down[2:])
