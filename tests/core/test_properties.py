"""Property-based tests of the rules engine: random hands keep the invariants.

Each test draws a random hand (2 to 8 players in random seats, random stacks with
many tiny ones, random table rules, a seeded deck) and plays it with random legal
actions and timeouts drawn by Hypothesis, so a failure shrinks to a short hand.
The invariants come from RULES.md: chips are conserved to the unit, cards come
from the deck in dealing order and are never seen by the wrong player, every
offered action can be taken and nothing else can, every hand ends, the pots add
up, replays are exact and a cancelled hand gives everyone his chips back.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from strategies import (
    SIZED_KINDS,
    HandSpec,
    Move,
    TimeOut,
    hand_specs,
    moves,
)

from stud8.core.actions import (
    Action,
    ActionKind,
    Bet,
    BringIn,
    Call,
    Fold,
    LegalAction,
    make_action,
)
from stud8.core.cards import Card, Deck
from stud8.core.errors import IllegalActionError
from stud8.core.evaluate import best_high, best_razz_low, evaluate_hi_lo
from stud8.core.events import (
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
from stud8.core.hand import Hand
from stud8.core.rules import (
    AllInLowCard,
    BettingStructure,
    Game,
    HeadsUpCap,
    OddChipHalf,
    TableRules,
    TimeoutPolicy,
)
from stud8.core.views import events_for

#: The random players stop betting and raising after this many bets and raises on
#: a street (without it, an uncapped raising war with deep stacks is endless).
SIZED_PER_STREET = 6


def max_actions(players: int) -> int:
    """An upper bound on a hand's decisions when nobody bets or raises more than
    SIZED_PER_STREET times a street: between two bets or raises each player acts
    at most once, on each of 5 streets, plus declined bring-ins on 3rd street."""
    return 5 * (SIZED_PER_STREET + (SIZED_PER_STREET + 1) * players) + players


#: Example counts, as a share of the profile's max_examples (tests/conftest.py).
BASE = settings().max_examples


def examples(share: float) -> settings:
    return settings(max_examples=max(5, int(BASE * share)))


# ---------------------------------------------------------------- driving a hand


def start(spec: HandSpec) -> Hand:
    return Hand.start(rules=spec.rules, stacks=spec.stacks, deck=spec.deck)


def sized_this_street(hand: Hand) -> int:
    n = 0
    for e in reversed(hand.events):
        if isinstance(e, StreetStarted):
            break
        n += isinstance(e, (Completed, BetMade, Raised))
    return n


def draw_move(data: st.DataObject, hand: Hand, spec: HandSpec) -> Move:
    legal = hand.legal_actions()
    if sized_this_street(hand) >= SIZED_PER_STREET:
        legal = tuple(a for a in legal if a.kind not in SIZED_KINDS)
    return data.draw(
        moves(legal, fold_percent=spec.fold_percent, timeout_percent=spec.timeout_percent),
        label=f"street {hand.street}, seat {hand.to_act}",
    )


def make_move(hand: Hand, move: Move) -> list[Event]:
    if isinstance(move, TimeOut):
        return hand.time_out()
    return hand.apply(move)


@dataclass(frozen=True)
class Step:
    """One move made in a hand, with what the mover had put in before it."""

    seat: int
    move: Move
    new: list[Event]
    contributed_before: int


def play(
    data: st.DataObject,
    hand: Hand,
    spec: HandSpec,
    *,
    after: Callable[[Hand, Step], None] | None = None,
    stop: Callable[[int], bool] | None = None,
) -> int:
    """Play random moves until the hand ends (or ``stop(steps)``); returns the steps."""
    steps = 0
    limit = max_actions(len(hand.seats))
    while hand.to_act is not None:
        assert steps < limit, f"the hand did not end after {limit} actions"
        if stop is not None and stop(steps):
            return steps
        seat = hand.to_act
        contributed = hand.contributed(seat)
        move = draw_move(data, hand, spec)
        new = make_move(hand, move)
        assert new, f"{move!r} made no event"
        if after is not None:
            after(hand, Step(seat, move, new, contributed))
        steps += 1
    return steps


def describe(hand: Hand) -> None:
    """Hypothesis statistics: which situations the random hands reached."""
    events = hand.events
    if any(isinstance(e, AntePosted) and e.all_in for e in events):
        event("a player all-in for the ante")
    if any(isinstance(e, BringInPosted) and e.all_in for e in events):
        event("a short bring-in")
    if any(isinstance(e, (Completed, BetMade, Raised, Called)) and e.all_in for e in events):
        event("an all-in bet, raise or call")
    if any(isinstance(e, TimedOut) for e in events):
        event("a timeout")
    if any(isinstance(e, CommunityCardDealt) for e in events):
        event("a community card")
    if hand.result is not None:
        event("showdown" if hand.result.showdown else f"won on street {hand.street}")
        if len(hand.result.pots) > 1:
            event("side pots")
        if hand.result.rake:
            event("raked")


# ------------------------------------------------------------------ the checks


def is_money(x: object) -> bool:
    return type(x) is int


def check_money_types(hand: Hand) -> None:
    """Every amount is an int: never a float, never a bool."""
    values: list[object] = [hand.pot_total, hand.current_bet]
    for s in hand.seats:
        values += [hand.stack(s), hand.street_bet(s), hand.contributed(s)]
    for e in hand.events:
        if isinstance(e, (AntePosted, BringInPosted, UncalledBetReturned, RakeTaken, PotAwarded)):
            values.append(e.amount)
        elif isinstance(e, (Completed, BetMade, Raised, Called)):
            values += [e.to, e.adds]
        elif isinstance(e, HandEnded):
            values += [chips for _, chips in e.stacks]
        elif isinstance(e, HandCancelled):
            values += [chips for _, chips in e.refunds]
    for a in hand.legal_actions():
        values.append(a.adds)
        if a.min_to is not None or a.max_to is not None:
            values += [a.min_to, a.max_to]
    if hand.result is not None:
        values.append(hand.result.rake)
        values += list(hand.result.stacks.values())
        for pot in hand.result.pots:
            values.append(pot.amount)
            values += [chips for _, chips in (*pot.high, *pot.low)]
    bad = [v for v in values if not is_money(v)]
    assert not bad, f"money that is not an int: {bad!r}"


def check_chips(hand: Hand, starting: dict[int, int]) -> None:
    """Chips are conserved to the unit; nothing is negative."""
    total = sum(starting.values())
    for s in hand.seats:
        assert hand.stack(s) >= 0, f"seat {s} has a negative stack {hand.stack(s)}"
        assert hand.street_bet(s) >= 0 and hand.contributed(s) >= 0
        assert hand.contributed(s) >= hand.street_bet(s)
        if hand.stack(s) == 0 and not hand.is_folded(s) and not hand.is_over:
            assert hand.is_all_in(s), f"seat {s} has no chips but is not all-in"
    if hand.result is None:
        behind = sum(hand.stack(s) for s in hand.seats)
        assert behind + hand.pot_total == total, (
            f"chips not conserved: {behind} behind + {hand.pot_total} in the pot != {total}"
        )
    else:
        assert sum(hand.result.stacks.values()) + hand.result.rake == total
    check_money_types(hand)


def dealt_cards(events: list[Event]) -> list[Card]:
    out: list[Card] = []
    for e in events:
        if isinstance(e, CardDealt):
            assert e.card is not None
            out.append(e.card)
        elif isinstance(e, CommunityCardDealt):
            out.append(e.card)
    return out


def check_cards(hand: Hand) -> None:
    """Cards come from the deck in dealing order, never twice, the right number per street."""
    deck = hand.setup.deck.cards
    dealt = dealt_cards(hand.events)
    assert dealt == list(deck[: len(dealt)]), "cards were not dealt in deck order"
    assert len(dealt) == hand.deck_position
    held: list[Card] = [c for s in hand.seats for c in hand.cards(s)]
    if hand.community_card is not None:
        held.append(hand.community_card)
    dupes = [str(c) for c, n in Counter(held).items() if n > 1]
    assert not dupes, f"cards held twice: {dupes}"
    assert sorted(held, key=lambda c: c.code) == sorted(dealt, key=lambda c: c.code)

    # Each seat's cards are the ones dealt to it, in order, down or up as dealt.
    for s in hand.seats:
        mine = [e for e in hand.events if isinstance(e, CardDealt) and e.seat == s]
        assert hand.cards(s) == tuple(e.card for e in mine)
        assert hand.up_cards(s) == tuple(e.card for e in mine if e.face_up)
        assert hand.down_cards(s) == tuple(e.card for e in mine if not e.face_up)
        own = len(hand.cards(s))
        if hand.is_folded(s):
            assert own <= hand.street
        else:
            # 3 on 3rd street, +1 a street, 7 on 7th (the community card counts).
            assert own + (hand.community_card is not None) == hand.street, (
                f"seat {s} holds {own} cards on street {hand.street}"
            )

    # The dealing order: 3rd street down, down, up round the table in seat order;
    # then one card to each seat not yet folded, in seat order, up (down on 7th).
    street = 0
    folded: set[int] = set()
    per_street: dict[int, list[tuple[int, bool]]] = {}
    expected_seats: dict[int, list[int]] = {}
    for e in hand.events:
        if isinstance(e, StreetStarted):
            street = e.street
            per_street[street] = []
            expected_seats[street] = [s for s in hand.seats if s not in folded]
        elif isinstance(e, Folded):
            folded.add(e.seat)
        elif isinstance(e, CardDealt):
            assert e.street == street, f"a card for street {e.street} dealt on street {street}"
            per_street[street].append((e.seat, e.face_up))
        elif isinstance(e, CommunityCardDealt):
            assert street == 7
            assert len(expected_seats[7]) > len(deck) - len(dealt_cards_before(hand.events, e))
    for st_, cards in per_street.items():
        if st_ == 3:
            assert cards == [(s, k == 2) for k in range(3) for s in hand.seats]
        elif st_ == 7 and hand.community_card is not None:
            assert cards == [], "cards dealt to players as well as a community card"
        else:
            assert cards == [(s, st_ != 7) for s in expected_seats[st_]], (
                f"street {st_} dealt {cards}, expected one card to each of {expected_seats[st_]}"
            )


def dealt_cards_before(events: list[Event], stop: Event) -> list[Card]:
    i = next(i for i, e in enumerate(events) if e is stop)
    return dealt_cards(events[:i])


def check_legal_actions(hand: Hand) -> None:
    """The offered actions are consistent with the state and with RULES.md section 3."""
    legal = hand.legal_actions()
    seat = hand.to_act
    if seat is None:
        assert legal == ()
        return
    assert legal, f"seat {seat} is to act but may do nothing"
    assert not hand.is_folded(seat) and not hand.is_all_in(seat) and hand.stack(seat) > 0
    kinds = [a.kind for a in legal]
    # A kind comes twice only for the open pair on 4th street in fixed-limit stud
    # high: the small bet and the big bet, each an exact amount (RULES.md section 8).
    twice = {k for k in kinds if kinds.count(k) > 1}
    assert not twice or (
        hand.rules.game is Game.STUD_HIGH
        and hand.rules.structure is BettingStructure.FIXED_LIMIT
        and hand.street == 4
        and all(a.min_to == a.max_to for a in legal if a.kind in twice)
    ), f"a kind offered twice: {legal}"
    rules = hand.rules
    bet, stack, current = hand.street_bet(seat), hand.stack(seat), hand.current_bet
    size = rules.bet_size(hand.street)
    for a in legal:
        assert 0 <= a.adds <= stack, f"{a} adds {a.adds} with {stack} behind"
    if ActionKind.BRING_IN in kinds:
        assert hand.street == 3
        assert set(kinds) <= {ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.FOLD}
        (bring,) = (a for a in legal if a.kind is ActionKind.BRING_IN)
        assert bring.adds == min(rules.bring_in, stack)
        assert bring.all_in == (bring.adds == stack)
        if ActionKind.FOLD in kinds:
            assert rules.all_in_low_card is AllInLowCard.NEXT_MAY_FOLD
    else:
        facing = current - bet
        if facing > 0:
            assert ActionKind.FOLD in kinds and ActionKind.CALL in kinds
            assert ActionKind.CHECK not in kinds
            (call,) = (a for a in legal if a.kind is ActionKind.CALL)
            assert call.adds == min(facing, stack)
            assert call.min_to == call.max_to == bet + call.adds
            assert call.all_in == (call.adds == stack)
        else:
            assert ActionKind.CHECK in kinds and ActionKind.CALL not in kinds
    for a in legal:
        if a.kind not in SIZED_KINDS:
            continue
        assert a.min_to is not None and a.max_to is not None
        assert a.min_to <= a.max_to <= bet + stack, f"{a!r}: bet {bet}, stack {stack}"
        assert a.adds == a.min_to - bet
        assert a.min_to > current, f"{a!r} does not go above the bet of {current}"
        assert a.all_in == (a.min_to == bet + stack)
        if a.kind is ActionKind.BET:
            assert current == 0 and hand.street >= 4
        if a.kind is ActionKind.COMPLETE:  # over the bring-in, or over a short all-in bet
            assert hand.bets_this_round == 0
            assert current > 0 or ActionKind.BRING_IN in kinds
        if rules.structure is BettingStructure.FIXED_LIMIT:
            if rules.open_pair_in_force and hand.street == 4:
                # Stud: an open pair on 4th street allows the small or the big bet.
                assert a.max_to <= current + rules.big_bet
            else:
                assert a.min_to == a.max_to
                assert a.min_to <= current + size
        else:
            if a.kind is ActionKind.RAISE:
                assert a.min_to >= min(current + size, bet + stack)
            else:
                assert a.min_to == min(size, bet + stack)
            if rules.structure is BettingStructure.NO_LIMIT:
                assert a.max_to == bet + stack
            else:  # pot limit: raise by at most the pot after calling
                pot_after_call = hand.pot_total + (current - bet)
                assert a.max_to == max(a.min_to, min(bet + stack, current + pot_after_call))


@dataclass
class Tracker:
    """Follows a hand from outside: who could act on each street (for the cap)."""

    hand: Hand
    starting: dict[int, int]
    heads_up_seen: dict[int, bool] = field(default_factory=dict)
    started_heads_up: dict[int, bool] = field(default_factory=dict)
    never_again: set[int] = field(default_factory=set)  # folded or timed out: never acts

    def actors(self) -> int:
        h = self.hand
        return sum(1 for s in h.seats if not h.is_folded(s) and not h.is_all_in(s))

    def observe(self) -> None:
        h = self.hand
        if h.to_act is None:
            return
        assert h.to_act not in self.never_again, f"seat {h.to_act} acts after folding/timing out"
        n = self.actors()
        self.started_heads_up.setdefault(h.street, n <= 2)
        self.heads_up_seen[h.street] = self.heads_up_seen.get(h.street, False) or n <= 2

    def cap_may_be_lifted(self, street: int) -> bool:
        policy = self.hand.rules.heads_up_cap
        if policy is HeadsUpCap.NEVER_LIFTED:
            return False
        if policy is HeadsUpCap.LIFTED_IF_ROUND_STARTS_HEADS_UP:
            return self.started_heads_up.get(street, True)
        return self.heads_up_seen.get(street, True)

    def check_cap(self, new: list[Event]) -> None:
        """Fixed limit: no street bet above (cap + 1) bets unless lifted heads-up."""
        h = self.hand
        rules = h.rules
        if rules.structure is not BettingStructure.FIXED_LIMIT or rules.raise_cap is None:
            return
        street = self._street_of(new)
        limit = (rules.raise_cap + 1) * fixed_bet(rules, street)
        for e in new:
            if isinstance(e, StreetStarted):
                break
            if isinstance(e, (Completed, BetMade, Raised)) and not self.cap_may_be_lifted(street):
                assert e.to <= limit, (
                    f"street {street}: a bet to {e.to} is above {rules.raise_cap} raises "
                    f"({limit}) though the cap was not lifted"
                )
        if h.to_act is not None and not self.cap_may_be_lifted(h.street):
            assert h.bets_this_round <= rules.raise_cap + 1
            assert h.current_bet <= (rules.raise_cap + 1) * fixed_bet(rules, h.street)

    def _street_of(self, new: list[Event]) -> int:
        """The street the first of the new events happened on."""
        street = 3
        first = len(self.hand.events) - len(new)
        for e in self.hand.events[:first]:
            if isinstance(e, StreetStarted):
                street = e.street
        return street


def fixed_bet(rules: TableRules, street: int) -> int:
    """The largest fixed-limit bet on the street (the big bet on 4th street when an
    open pair may allow it in stud)."""
    if rules.open_pair_in_force and street == 4:
        return rules.big_bet
    return rules.bet_size(street)


def ante_paid(hand: Hand, seat: int) -> int:
    return sum(e.amount for e in hand.events if isinstance(e, AntePosted) and e.seat == seat)


def check_timeout(hand: Hand, seat: int, before_contributed: int, new: list[Event]) -> None:
    """RULES.md section 6: what a timeout does."""
    first = new[0]
    assert isinstance(first, TimedOut) and first.seat == seat
    bring_in_pending = any(isinstance(e, BringInPosted) for e in new)
    if first.outcome == "bring_in":
        assert bring_in_pending
        return
    if hand.rules.timeout_policy is TimeoutPolicy.CHECK_OR_FOLD:
        assert first.outcome in ("check", "fold")
    elif before_contributed - ante_paid(hand, seat) > 0:
        assert first.outcome == "all_in_protection", (
            f"seat {seat} had put in {before_contributed} but was {first.outcome}"
        )
    else:
        assert first.outcome == "fold", f"seat {seat} had put in only his ante"


def check_result(hand: Hand, starting: dict[int, int]) -> None:
    """The pots add up and go to eligible, unfolded, best hands."""
    assert hand.is_over and hand.result is not None
    assert hand.to_act is None and hand.legal_actions() == ()
    result = hand.result
    rules = hand.rules
    total = sum(starting.values())
    contributed = {s: hand.contributed(s) for s in hand.seats}
    put_in = sum(contributed.values())
    assert result.starting_stacks == starting
    assert sum(result.stacks.values()) + result.rake == total
    assert result.stacks == {s: hand.stack(s) for s in hand.seats}
    assert sum(result.winnings.values()) == -result.rake
    assert sum(p.amount for p in result.pots) + result.rake == put_in, (
        f"pots {[p.amount for p in result.pots]} + rake {result.rake} != {put_in} put in"
    )
    assert 0 <= result.rake <= put_in * rules.rake_percent / 100
    if rules.rake_cap is not None:
        assert result.rake <= rules.rake_cap
    if hand.street == 3 and not result.showdown and not rules.rake_third_street:
        assert result.rake == 0
    rakes = [e.amount for e in hand.events if isinstance(e, RakeTaken)]
    assert sum(rakes) == result.rake

    live = set(hand.live_seats())
    won: Counter[int] = Counter()
    previous: set[int] | None = None
    for pot in result.pots:
        eligible = set(pot.eligible)
        assert eligible and eligible <= live, f"pot {pot.index} eligible {eligible}, live {live}"
        if previous is not None:
            assert eligible <= previous, "side pots are not nested"
        previous = eligible
        high = sum(c for _, c in pot.high)
        low = sum(c for _, c in pot.low)
        assert high + low == pot.amount, f"pot {pot.index}: {high} + {low} != {pot.amount}"
        for s, chips in (*pot.high, *pot.low):
            assert s in eligible, f"seat {s} won from pot {pot.index} but is not eligible"
            assert chips >= 0
            won[s] += chips
        high_seats = {s for s, _ in pot.high}
        low_seats = {s for s, _ in pot.low}
        if result.showdown and len(eligible) > 1 and rules.game is not Game.STUD_HI_LO:
            # Stud (high only): the best high hand; razz: the best ace-to-five low.
            assert not pot.low
            if rules.game is Game.RAZZ:
                razz = {s: best_razz_low(all_cards(hand, s)) for s in eligible}
                winners = {s for s in eligible if razz[s] == max(razz.values())}
            else:
                highs = {s: best_high(all_cards(hand, s)) for s in eligible}
                winners = {s for s in eligible if highs[s] == max(highs.values())}
            assert high_seats == winners, f"pot {pot.index} went to {high_seats}, not {winners}"
        elif result.showdown and len(eligible) > 1:
            values = {s: evaluate_hi_lo(all_cards(hand, s)) for s in eligible}
            top_high = max(v[0] for v in values.values())
            assert high_seats == {s for s in eligible if values[s][0] == top_high}
            lows = [v[1] for v in values.values() if v[1] is not None]
            if not lows:
                assert not pot.low
            else:
                top_low = max(lows)
                assert low_seats == {s for s in eligible if values[s][1] == top_low}
                if high_seats != low_seats:
                    larger, smaller = (pot.amount + 1) // 2, pot.amount // 2
                    if rules.odd_chip_half is OddChipHalf.LOW:  # a site's option
                        larger, smaller = smaller, larger
                    assert high == larger and low == smaller
    assert [p.index for p in result.pots] == list(range(len(result.pots)))
    if result.pots:
        assert {s for s in live if contributed[s] > 0} <= set(result.pots[0].eligible)
    if not result.showdown:
        assert len(live) == 1 or hand.cancelled
        assert set(won) <= live
    for s in hand.seats:
        if hand.is_folded(s):
            assert won[s] == 0, f"folded seat {s} won {won[s]}"
        # Side pots: nobody wins from an opponent more than he put in himself.
        cap = sum(min(contributed[s], c) for c in contributed.values())
        assert won[s] <= cap, f"seat {s} put in {contributed[s]} but won {won[s]} (max {cap})"
        assert result.stacks[s] == starting[s] - contributed[s] + won[s]
    awarded: Counter[int] = Counter()
    for e in hand.events:
        if isinstance(e, PotAwarded):
            awarded[e.seat] += e.amount
    assert +awarded == +won
    shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
    mucked = {e.seat for e in hand.events if isinstance(e, HandMucked)}
    if result.showdown:
        assert shown | mucked == live and not shown & mucked
        assert all(won[s] == 0 for s in mucked), "a mucked hand won chips"
    else:
        assert not shown and not mucked
    assert isinstance(hand.events[-1], HandEnded)
    check_rounds_closed(hand)


def check_rounds_closed(hand: Hand) -> None:
    """Each betting round ends only when every player who can still act has matched
    the bet, and uncalled chips go back: after each round nobody has more in on that
    street than the most anyone else put in."""
    street = 3
    per_street: dict[int, Counter[int]] = {3: Counter()}
    out: set[int] = set()  # folded, all-in or protected: takes no further action
    can_act_at_end: dict[int, set[int]] = {}
    for e in hand.events:
        if isinstance(e, StreetStarted):
            if e.street > 3:
                can_act_at_end[street] = set(hand.seats) - out
            street = e.street
            per_street[street] = Counter()
        elif isinstance(e, AntePosted) and e.all_in:
            out.add(e.seat)
        elif isinstance(e, BringInPosted):
            per_street[street][e.seat] += e.amount
            if e.all_in:
                out.add(e.seat)
        elif isinstance(e, (Completed, BetMade, Raised, Called)):
            per_street[street][e.seat] += e.adds
            assert per_street[street][e.seat] == e.to, f"{e} does not add up on street {street}"
            if e.all_in:
                out.add(e.seat)
        elif isinstance(e, UncalledBetReturned):
            per_street[street][e.seat] -= e.amount
        elif isinstance(e, Folded) or (
            isinstance(e, TimedOut) and e.outcome == "all_in_protection"
        ):
            out.add(e.seat)
    if hand.result is not None:
        can_act_at_end[street] = set(hand.seats) - out
    for st_, bets in per_street.items():
        top = [*sorted(bets.values(), reverse=True), 0, 0]
        assert top[0] == top[1], f"street {st_}: {dict(bets)}: an uncalled bet was kept"
        if len(hand.live_seats()) > 1 or st_ < hand.street:
            for s in can_act_at_end.get(st_, ()):
                assert bets[s] == top[0], (
                    f"street {st_} ended with seat {s} at {bets[s]}, short of {top[0]}"
                )


def check_turn(hand: Hand, step: Step) -> None:
    """The action goes clockwise: nobody who still has to act is skipped."""
    if hand.to_act is None or hand.street != step_street(hand, step):
        return
    seats = hand.seats
    i = seats.index(step.seat)
    between = []
    for k in range(1, len(seats)):
        s = seats[(i + k) % len(seats)]
        if s == hand.to_act:
            break
        between.append(s)
    acted = seats_acted_this_street(hand)
    for s in between:
        if hand.is_folded(s) or hand.is_all_in(s):
            continue
        assert hand.street_bet(s) == hand.current_bet and s in acted, (
            f"after seat {step.seat}, seat {hand.to_act} acts: seat {s} was skipped"
        )


def step_street(hand: Hand, step: Step) -> int:
    """The street the step was made on."""
    first = len(hand.events) - len(step.new)
    return max([3, *(e.street for e in hand.events[:first] if isinstance(e, StreetStarted))])


def seats_acted_this_street(hand: Hand) -> set[int]:
    acted: set[int] = set()
    for e in reversed(hand.events):
        if isinstance(e, StreetStarted):
            break
        if isinstance(e, (BringInPosted, Completed, BetMade, Raised, Called, Checked)):
            acted.add(e.seat)
    return acted


def all_cards(hand: Hand, seat: int) -> list[Card]:
    cards = list(hand.cards(seat))
    if hand.community_card is not None:
        cards.append(hand.community_card)
    return cards


def check_views(hand: Hand) -> None:
    """Nobody sees another player's down cards unless they were shown at the showdown."""
    shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
    if shown:
        assert hand.result is not None and hand.result.showdown
    for e in hand.events:
        if isinstance(e, HandShown):
            assert e.cards == tuple(all_cards(hand, e.seat))
    for viewer in (*hand.seats, None):
        view = hand.view(viewer)
        assert view.viewer == viewer and view.to_act == hand.to_act
        assert view.pot == hand.pot_total and view.street == hand.street
        assert is_money(view.pot) and is_money(view.current_bet)
        if viewer is not None and viewer == hand.to_act:
            assert view.legal_actions == hand.legal_actions()
        else:
            assert view.legal_actions == ()
        assert [sv.seat for sv in view.seats] == list(hand.seats)
        for sv in view.seats:
            s = sv.seat
            assert sv.up_cards == hand.up_cards(s)
            assert sv.stack == hand.stack(s) and sv.contributed == hand.contributed(s)
            assert sv.bet == hand.street_bet(s)
            assert all(is_money(x) for x in (sv.stack, sv.bet, sv.contributed))
            down = hand.down_cards(s)
            if s == viewer or s in shown:
                assert sv.down_cards == down
            else:
                assert sv.down_cards == (None,) * len(down), (
                    f"seat {viewer} sees the down cards of seat {s}: {sv.down_cards}"
                )
        seen = list(events_for(hand.events, viewer))
        assert len(seen) == len(hand.events)
        for mine, real in zip(seen, hand.events, strict=True):
            if isinstance(real, CardDealt) and not real.face_up and real.seat != viewer:
                assert isinstance(mine, CardDealt) and mine.card is None, (
                    f"seat {viewer} sees seat {real.seat}'s down card in the events"
                )
                assert mine.seat == real.seat and mine.street == real.street
            else:
                assert mine == real
    # An observer sees no down card before the showdown.
    if not shown:
        for sv in hand.view().seats:
            assert all(c is None for c in sv.down_cards)


def snapshot(hand: Hand) -> tuple[Any, ...]:
    """Everything an illegal action must leave unchanged."""
    return (
        list(hand.events),
        list(hand.decisions),
        hand.to_act,
        hand.street,
        hand.legal_actions(),
        hand.pot_total,
        hand.current_bet,
        hand.bets_this_round,
        hand.deck_position,
        hand.community_card,
        hand.bring_in_seat,
        hand.is_over,
        tuple(
            (
                s,
                hand.stack(s),
                hand.street_bet(s),
                hand.contributed(s),
                hand.is_folded(s),
                hand.is_all_in(s),
                hand.cards(s),
            )
            for s in hand.seats
        ),
    )


def unoffered_actions(hand: Hand) -> list[Action]:
    """Actions that are not among the legal actions now."""
    offers: dict[ActionKind, list[LegalAction]] = {}
    for a in hand.legal_actions():
        offers.setdefault(a.kind, []).append(a)
    probe = hand.current_bet + hand.rules.big_bet
    out: list[Action] = []
    for kind in ActionKind:
        if kind not in offers:
            out.append(make_action(kind, probe if kind in SIZED_KINDS else None))
            if kind in SIZED_KINDS:
                out.append(make_action(kind))
            continue
        if kind not in SIZED_KINDS:
            continue
        # (the open pair on 4th street offers a kind twice: the small and the big bet)
        lowest = min(a.min_to for a in offers[kind] if a.min_to is not None)
        highest = max(a.max_to for a in offers[kind] if a.max_to is not None)
        out += [
            make_action(kind, lowest - 1),
            make_action(kind, highest + 1),
            make_action(kind, 0),
            make_action(kind, -highest),
            make_action(kind, highest + 10**9),
        ]
        if lowest == 1:
            out.append(make_action(kind, True))  # a bool is not an amount of money
        out.append(make_action(kind, float(lowest)))  # type: ignore[arg-type]
    return out


def assert_refuses_every_move(hand: Hand) -> None:
    """A finished or cancelled hand takes no action, no timeout and no cancel."""
    moves_after: list[Callable[[], object]] = [
        lambda: hand.apply(make_action("fold")),
        lambda: hand.apply(make_action("check")),
        hand.time_out,
        hand.cancel,
    ]
    for move in moves_after:
        before = snapshot(hand)
        try:
            move()
        except IllegalActionError:
            pass
        else:
            raise AssertionError("a hand that is over accepted another move")
        assert snapshot(hand) == before


def clone(hand: Hand) -> Hand:
    """An independent copy of the hand (its immutable parts shared)."""
    memo: dict[int, object] = {id(hand.setup): hand.setup}
    for e in hand.events:
        memo[id(e)] = e
    for c in hand.setup.deck.cards:
        memo[id(c)] = c
    return copy.deepcopy(hand, memo)


def event_for(move: Action) -> type[Event]:
    kinds: dict[ActionKind, type[Event]] = {
        ActionKind.FOLD: Folded,
        ActionKind.CHECK: Checked,
        ActionKind.CALL: Called,
        ActionKind.BRING_IN: BringInPosted,
        ActionKind.COMPLETE: Completed,
        ActionKind.BET: BetMade,
        ActionKind.RAISE: Raised,
    }
    return kinds[move.kind]


def try_every_offer(hand: Hand) -> None:
    """Every offered action can be taken: sized ones at min_to, max_to and between."""
    seat = hand.to_act
    assert seat is not None
    for legal in hand.legal_actions():
        tos: list[int | None] = [None]
        if legal.kind in SIZED_KINDS:
            assert legal.min_to is not None and legal.max_to is not None
            tos = [*sorted({legal.min_to, legal.max_to, (legal.min_to + legal.max_to) // 2})]
        for to in tos:
            trial = clone(hand)
            action = legal.action(to)
            new = trial.apply(action)
            first = new[0]
            assert type(first) is event_for(action), f"{action!r} gave {first!r}"
            assert getattr(first, "seat", None) == seat
            if isinstance(first, (Completed, BetMade, Raised, Called)):
                expected = to if to is not None else legal.min_to
                assert first.to == expected, f"{action!r} was recorded as to {first.to}"
                assert first.adds == expected - hand.street_bet(seat)
                assert first.all_in == (first.adds == hand.stack(seat))
            if isinstance(first, BringInPosted):
                assert first.amount == legal.adds
            check_chips(trial, dict(hand.setup.stacks))
            check_cards(trial)
            check_legal_actions(trial)


# ------------------------------------------------------------------- the tests


@examples(4.0)
@given(spec=hand_specs(), data=st.data())
def test_random_hands_keep_chips_cards_and_results_consistent(
    spec: HandSpec, data: st.DataObject
) -> None:
    hand = start(spec)
    starting = dict(spec.stacks)
    tracker = Tracker(hand, starting)

    def check_now() -> None:
        check_chips(hand, starting)
        check_cards(hand)
        check_legal_actions(hand)
        tracker.observe()

    # The bring-in is the lowest up card, ace high, clubs < diamonds < hearts < spades
    # (in razz the highest, ace low); if he is all-in for the ante, the first player
    # on his left with chips.
    up = {s: hand.up_cards(s)[0] for s in hand.seats}
    if spec.rules.game is Game.RAZZ:
        low = max(hand.seats, key=lambda s: up[s].low_rank * 4 + up[s].suit_index)
    else:
        low = min(hand.seats, key=lambda s: up[s].code)
    if hand.to_act is not None:
        assert any(a.kind is ActionKind.BRING_IN for a in hand.legal_actions())
        if not hand.is_all_in(low):
            assert hand.to_act == low
        else:
            i = hand.seats.index(low)
            left = [hand.seats[(i + k) % len(hand.seats)] for k in range(1, len(hand.seats))]
            assert hand.to_act == next(s for s in left if not hand.is_all_in(s))
    check_now()

    def after(h: Hand, step: Step) -> None:
        if isinstance(step.move, TimeOut):
            check_timeout(h, step.seat, step.contributed_before, step.new)
            timed_out = step.new[0]
            assert isinstance(timed_out, TimedOut)
            if timed_out.outcome in ("fold", "all_in_protection"):
                tracker.never_again.add(step.seat)
        elif step.move.kind is ActionKind.FOLD:
            tracker.never_again.add(step.seat)
        posted = [e for e in step.new[:2] if isinstance(e, BringInPosted)]
        if posted and h.street == 3 and h.to_act is not None:
            # Everyone else must still enter for the full bring-in, even over a short one.
            assert h.current_bet == h.rules.bring_in
        tracker.check_cap(step.new)
        check_turn(h, step)
        check_now()

    play(data, hand, spec, after=after)
    check_chips(hand, starting)
    check_cards(hand)
    check_result(hand, starting)
    with_result = hand.result
    assert hand.legal_actions() == () and hand.to_act is None
    assert_refuses_every_move(hand)
    assert hand.result is with_result
    describe(hand)


@examples(1.5)
@given(spec=hand_specs(), data=st.data())
def test_every_offered_action_can_be_taken(spec: HandSpec, data: st.DataObject) -> None:
    hand = start(spec)
    if hand.to_act is not None:
        try_every_offer(hand)

    def after(h: Hand, step: Step) -> None:
        if h.to_act is not None:
            try_every_offer(h)

    play(data, hand, spec, after=after)
    describe(hand)


@examples(2.0)
@given(spec=hand_specs(), data=st.data())
def test_actions_not_offered_are_refused_and_change_nothing(
    spec: HandSpec, data: st.DataObject
) -> None:
    hand = start(spec)

    def refuse_all(h: Hand) -> None:
        if h.to_act is None:
            return
        before = snapshot(h)
        for action in unoffered_actions(h):
            try:
                h.apply(action)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{action!r} was accepted; offered: {before[4]}")
            assert snapshot(h) == before, f"the refused {action!r} changed the hand"

    refuse_all(hand)
    play(data, hand, spec, after=lambda h, step: refuse_all(h))
    describe(hand)


@examples(2.0)
@given(spec=hand_specs(), data=st.data())
def test_replay_reproduces_the_hand(spec: HandSpec, data: st.DataObject) -> None:
    hand = start(spec)
    play(data, hand, spec)
    again = Hand.replay(hand.setup, hand.decisions)
    assert again.events == hand.events
    assert again.result == hand.result
    from_events = Hand.replay(hand.setup, hand.events)
    assert from_events.events == hand.events
    assert from_events.decisions == hand.decisions
    describe(hand)


@examples(2.0)
@given(spec=hand_specs(), data=st.data())
def test_views_never_leak_down_cards(spec: HandSpec, data: st.DataObject) -> None:
    hand = start(spec)
    check_views(hand)

    def after(h: Hand, step: Step) -> None:
        if data.draw(st.integers(0, 3), label="look now") == 0:
            check_views(h)

    play(data, hand, spec, after=after)
    check_views(hand)
    describe(hand)


@examples(2.0)
@given(spec=hand_specs(), data=st.data(), when=st.integers(0, 40))
def test_cancel_gives_everyone_his_stack_back(
    spec: HandSpec, data: st.DataObject, when: int
) -> None:
    hand = start(spec)
    play(data, hand, spec, stop=lambda steps: steps >= when)
    if hand.is_over:
        try:
            hand.cancel()
        except IllegalActionError:
            return
        raise AssertionError("a finished hand was cancelled")
    # Replaying the decisions so far gives the hand as it stands.
    assert Hand.replay(hand.setup, hand.decisions).events == hand.events
    put_in = {s: hand.contributed(s) for s in hand.seats}
    new = hand.cancel("server failure")
    assert new == [HandCancelled(tuple(put_in.items()), "server failure")]
    assert hand.is_over and hand.cancelled and hand.result is None
    assert hand.to_act is None and hand.legal_actions() == ()
    for s in hand.seats:
        assert hand.stack(s) == spec.stacks[s], f"seat {s} got {hand.stack(s)} back"
        assert hand.contributed(s) == 0 and hand.street_bet(s) == 0
    assert hand.pot_total == 0
    check_money_types(hand)
    assert_refuses_every_move(hand)


# ------------------------------------------------- examples found by the properties


def test_folded_antes_above_every_live_all_in_go_back() -> None:
    """Found by the properties: seats 1, 4 and 5 are all-in for 1 chip of a 2-chip
    ante; the low card is all-in, seats 2 and 3 may decline the bring-in and both
    fold. The three all-in players can each win at most 1 chip from each player
    (RULES.md section 5), so 5 chips are at stake; the chip that each of seats 2
    and 3 put in above every live player goes back to him."""
    rules = TableRules(
        ante=2, bring_in=1, small_bet=1, big_bet=1, all_in_low_card=AllInLowCard.NEXT_MAY_FOLD
    )
    starting = {1: 1, 2: 3, 3: 3, 4: 1, 5: 1}
    deck = Deck.from_cards(
        "Kd 3h 5h Kh 7d  Kc 4h 6h Qc 7h  9d As Qs 2c 7s"  # 3rd street, seats 1 to 5
        "  Jh Jc 7c  Td Ts 2h  9c 9s 3d  Qd Js 5c"  # 4th to 7th: seats 1, 4, 5
    )
    hand = Hand.start(rules=rules, stacks=starting, deck=deck)
    # Seat 4 has the low card (2c) and is all-in, as are seats 5 and 1 on his left;
    # seat 2 is the first on his left with chips, and may decline the bring-in.
    assert hand.to_act == 2
    hand.apply(Fold())
    assert hand.to_act == 3
    hand.apply(Fold())
    assert hand.result is not None and hand.result.showdown
    # Seat 5 (four sevens, no low anywhere) wins the 5 chips he could win; seats 2
    # and 3 get back the 1 chip each that no live player matched.
    assert hand.result.stacks == {1: 0, 2: 2, 3: 2, 4: 0, 5: 5}
    check_result(hand, starting)


def test_open_pair_offer_lists_only_amounts_it_accepts() -> None:
    """Found by the properties: in stud (high only), fixed limit, an open pair on 4th
    street allows the small or the big bet (RULES.md section 8). Whatever the offer
    says, every amount it covers must be accepted: a LegalAction's min_to and max_to
    bound the *to* amount (actions.py)."""
    rules = TableRules(ante=1, bring_in=1, small_bet=3, big_bet=5, game=Game.STUD_HIGH)
    # Seat 1: As Ks / 9c, then 9d (a pair of nines showing); seat 2: Qs Js / 2c, then 3d.
    deck = Deck.from_cards("As Qs Ks Js 9c 2c 9d 3d")
    hand = Hand.start(rules=rules, stacks={1: 50, 2: 50}, deck=deck)
    assert hand.to_act == 2  # the 2c brings in
    hand.apply(BringIn())
    hand.apply(Call())
    assert hand.street == 4 and hand.to_act == 1  # the open pair acts first
    bets = [a for a in hand.legal_actions() if a.kind is ActionKind.BET]
    # the small bet or the big bet: two offers, each of one exact amount
    assert [(a.min_to, a.max_to) for a in bets] == [(3, 3), (5, 5)]
    for to in range(1, 8):
        if to in (3, 5):
            clone(hand).apply(Bet(to=to))
        else:
            with pytest.raises(IllegalActionError):
                clone(hand).apply(Bet(to=to))
