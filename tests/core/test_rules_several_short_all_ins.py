"""RULES.md section 3, "Several short all-ins count together", against the engine.

    A player who has already acted may raise again when the bet he now faces is at
    least half a bet (limit) or a full raise (pot and no limit) above the bet he
    last acted on, even if no single all-in was (RRoP; TDA 2024 Rule 47A and its
    Example 1). The next raise is then a full bet or raise above the current bet.

The worked cases: TDA's Example 1 (no limit, and the same in pot limit), the fixed
limit case of issue 29 (bet 4, all-ins to 5 and 6, a call), the same over a
bring-in, and the player who called the first all-in (he faces less: not reopened).
Then a property over random hands full of short all-ins: before every decision an
independent model of the rule, fed only with the events, says whether the player to
act may raise and (fixed limit) to what; chips are conserved and every hand ends.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st
from scenario import assert_conserved, legal, play, start, table

from stud8.core.actions import ActionKind
from stud8.core.cards import Deck
from stud8.core.events import (
    AntePosted,
    BetMade,
    BringInPosted,
    Called,
    Checked,
    Completed,
    Event,
    Folded,
    Raised,
    StreetStarted,
    TimedOut,
    UncalledBetReturned,
)
from stud8.core.hand import Hand
from stud8.core.rules import BettingStructure, TableRules

FOLD, CALL, RAISE, COMPLETE = (
    ActionKind.FOLD,
    ActionKind.CALL,
    ActionKind.RAISE,
    ActionKind.COMPLETE,
)
SIZED = frozenset({ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE})
NO_LIMIT, POT_LIMIT = BettingStructure.NO_LIMIT, BettingStructure.POT_LIMIT

# Five seats; seat 1 shows a pair of kings on 4th street and acts first there; seat
# 5 brings in with the 2c on 3rd street.
FIVE = {
    1: "?? ?? Kc Kd",
    2: "?? ?? 9d 4s",
    3: "?? ?? Th 5c",
    4: "?? ?? Jd 6h",
    5: "?? ?? 2c 7s",
}


def kinds(hand: Hand) -> set[ActionKind]:
    return set(legal(hand))


# --------------------------------------------------------------- TDA Example 1


def tda_example_1(structure: BettingStructure) -> Hand:
    """Blinds 50-100 in TDA; here bring-in 50 and bets of 100, no ante, and 4th
    street: seat 1 (A) bets 100, seat 2 (B) is all-in to 125, seat 3 (C) calls,
    seat 4 (D) is all-in to 200, seat 5 (E) calls."""
    rules = table(ante=0, bring_in=50, small_bet=100, big_bet=100, structure=structure)
    # B and D have 125 and 200 left after calling the bring-in of 50.
    hand = start(FIVE, rules=rules, stacks={1: 2000, 2: 175, 3: 1000, 4: 250, 5: 1000})
    play(hand, "5 bring-in, 1 call, 2 call, 3 call, 4 call")
    assert (hand.street, hand.to_act) == (4, 1)
    play(hand, "1 bet 100, 2 raise 125, 3 call, 4 raise 200, 5 call")
    assert hand.is_all_in(2) and hand.is_all_in(4)
    return hand


def test_rule_3_several_short_all_ins_reopen_no_limit_tda_47a_example_1() -> None:
    """RULES.md 3: "Several short all-ins count together" (TDA 2024 Rule 47A,
    Example 1). Neither 25 (B) nor 75 (D) is a full raise over the bet of 100, but A
    now faces 100 more than the bet he acted on: a full raise. He may fold, call, or
    raise, by at least the last full bet (100): to 300 or more."""
    hand = tda_example_1(NO_LIMIT)
    assert hand.to_act == 1
    options = legal(hand)
    assert set(options) == {FOLD, CALL, RAISE}
    assert (options[CALL].min_to, options[CALL].adds) == (200, 100)
    assert (options[RAISE].min_to, options[RAISE].max_to) == (300, 1950)  # 2000 - 50
    play(hand, "1 raise 300")
    # C called 125: he faces 175 more, a full raise (A's) over his bet.
    assert kinds(hand) == {FOLD, CALL, RAISE}
    assert legal(hand)[RAISE].min_to == 400
    play(hand, "3 fold, 5 call")
    assert hand.street == 5
    # 3rd street 5 x 50; 4th 300 + 125 + 125 + 200 + 300.
    assert hand.pot_total == 250 + 1050
    assert_conserved(hand)


def test_rule_3_several_short_all_ins_do_not_reopen_for_who_called_the_first() -> None:
    """RULES.md 3: a player who has acted may raise again when the bet he faces is a
    full raise "above the bet he last acted on" (TDA 47A: not "for players who have
    already acted and are not facing at least a full bet or raise"). In Example 1,
    if A only calls, C (who called 125) faces 75 more: he may only call or fold."""
    hand = tda_example_1(NO_LIMIT)
    play(hand, "1 call")
    assert hand.to_act == 3
    assert kinds(hand) == {FOLD, CALL}
    assert legal(hand)[CALL].adds == 75
    play(hand, "3 call")
    assert hand.street == 5
    assert hand.pot_total == 250 + 125 + 200 * 4
    assert_conserved(hand)


def test_rule_3_several_short_all_ins_reopen_pot_limit_tda_47a_example_1() -> None:
    """RULES.md 3: "or a full raise (pot and no limit)": Example 1 in pot limit. A
    may raise to 300 at least, and at most the pot after his call (250 + 100 + 125 +
    125 + 200 + 200 = 1000, plus his call of 100, over the 200)."""
    hand = tda_example_1(POT_LIMIT)
    options = legal(hand)
    assert set(options) == {FOLD, CALL, RAISE}
    assert (options[RAISE].min_to, options[RAISE].max_to) == (300, 200 + 1000 + 100)
    assert_conserved(hand)


# ----------------------------------------------------------------- fixed limit


def test_rule_3_several_short_all_ins_reopen_fixed_limit_half_a_bet() -> None:
    """RULES.md 3: in limit, "at least half a bet" above the bet he last acted on.
    4th street, small bet 4: seat 1 bets 4, seat 2 is all-in to 5, seat 3 all-in to
    6, seat 4 calls. Each all-in adds 1, less than half a bet; together they add 2,
    half a bet: seat 1 may raise, a full bet above the current bet, to 10. Counted
    together they are one raise toward the cap, as one all-in of half a bet is."""
    hand = start(FIVE, stacks={2: 8, 3: 9})  # 5 and 6 left after ante and bring-in
    play(hand, "5 bring-in, 1 call, 2 call, 3 call, 4 call")
    play(hand, "1 bet 4, 2 raise 5")
    assert hand.bets_this_round == 1
    play(hand, "3 raise 6")
    assert hand.bets_this_round == 2
    # Seat 4 has not acted: a full bet above 6 as well, not a completion to 8.
    assert legal(hand)[RAISE].min_to == 10
    play(hand, "4 call, 5 fold")
    assert hand.to_act == 1
    options = legal(hand)
    assert set(options) == {FOLD, CALL, RAISE}
    assert (options[CALL].adds, options[RAISE].min_to, options[RAISE].max_to) == (2, 10, 10)
    play(hand, "1 raise 10, 4 call")
    assert hand.street == 5
    assert [hand.stack(s) for s in (1, 2, 3, 4)] == [87, 0, 0, 87]
    assert_conserved(hand)


def test_rule_3_several_short_all_ins_fixed_limit_caller_of_the_first_not_reopened() -> None:
    """RULES.md 3: "above the bet he last acted on". Bet 4, all-in to 5, seat 3 calls
    5, all-in to 6 (together half a bet over the bet), seat 5 calls. Seat 1 (at 4)
    may raise to 10; had he only called, seat 3 (at 5) faces 1, less than half a
    bet: he may only call."""
    for bettor_raises in (True, False):
        hand = start(FIVE, stacks={2: 8, 4: 9})
        play(hand, "5 bring-in, 1 call, 2 call, 3 call, 4 call")
        play(hand, "1 bet 4, 2 raise 5, 3 call, 4 raise 6, 5 call")
        assert legal(hand)[RAISE].min_to == 10
        if bettor_raises:
            play(hand, "1 raise 10")
            assert legal(hand)[RAISE].min_to == 14  # seat 3 faces a full raise
            play(hand, "3 call, 5 call")
        else:
            play(hand, "1 call")
            assert kinds(hand) == {FOLD, CALL}
            play(hand, "3 call")
        assert hand.street == 5
        assert_conserved(hand)


def test_rule_3_several_short_all_ins_fixed_limit_short_of_half_a_bet_do_not_reopen() -> None:
    """RULES.md 3: "An all-in of less than half a bet does not reopen the betting".
    5th street, big bet 8: bet 8, all-ins to 9 and 11 add 3 together, less than half
    a bet (4): the bettor may only call."""
    hands = {1: "?? ?? Kc Kd Ks", 2: "?? ?? 9d 4s 3h", 3: "?? ?? Th 5c 6d", 4: "?? ?? 2c 7s 8h"}
    hand = start(hands, stacks={2: 12, 3: 14})  # 9 and 11 left on 5th street
    play(hand, "4 bring-in, 1 call, 2 call, 3 call")
    play(hand, "1 check, 2 check, 3 check, 4 check")
    assert (hand.street, hand.to_act) == (5, 1)
    play(hand, "1 bet 8, 2 raise 9, 3 raise 11, 4 call")
    assert hand.bets_this_round == 1
    assert kinds(hand) == {FOLD, CALL}
    play(hand, "1 call")
    assert hand.street == 6
    assert_conserved(hand)


def test_rule_3_several_short_all_ins_over_the_bring_in_count_as_the_completion() -> None:
    """RULES.md 3: half a bet over a bring-in is half of the completion over it.
    Bring-in 2, small bet 6: all-ins to 3 and 4 add 1 each, together 2, half of the
    4 the completion adds: the bring-in may raise again, a full bet above 4, to 10."""
    hands = {1: "?? ?? 2c", 2: "?? ?? Kd", 3: "?? ?? Qh", 4: "?? ?? Js"}
    rules = table(small_bet=6, big_bet=12)
    hand = start(hands, rules=rules, stacks={2: 4, 3: 5})  # 3 and 4 after the ante
    play(hand, "1 bring-in, 2 complete 3")
    assert hand.bets_this_round == 0
    play(hand, "3 complete 4")
    assert hand.bets_this_round == 1
    play(hand, "4 call")
    options = legal(hand)
    assert set(options) == {FOLD, CALL, RAISE}
    assert (options[CALL].adds, options[RAISE].min_to) == (2, 10)
    play(hand, "1 raise 10, 4 call")
    assert hand.street == 4
    assert_conserved(hand)


# ------------------------------------------------------------------- property


@dataclass
class Model:
    """The betting of one hand as RULES.md 3 has it, rebuilt from its events only."""

    rules: TableRules
    stacks: dict[int, int]  # chips behind
    street: int = 3
    bets: dict[int, int] = field(default_factory=dict)
    current: int = 0
    level: int = 0  # limit: the last full bet or raise (a completion included)
    over: int = 0  # limit: what short all-ins are measured over: that bet, or the bring-in
    full_bets: int = 0
    largest: int = 0  # pot and no limit: the largest full bet or raise
    folded: set[int] = field(default_factory=set)
    out: set[int] = field(default_factory=set)  # timed out under all-in protection
    # who has acted since the last full bet or raise: at what bet, and the bet he
    # must then face to be allowed to raise again
    reopens: dict[int, int] = field(default_factory=dict)
    bring_in_pending: bool = True
    # For the count below: raises full by themselves (over the bet just before them),
    # and how many there had been when each player last acted.
    singles: int = 0
    singles_seen: dict[int, int] = field(default_factory=dict)
    several: int = 0  # decisions where only short all-ins together reopened the betting

    @property
    def limit(self) -> bool:
        return self.rules.structure is BettingStructure.FIXED_LIMIT

    def half_a_bet(self) -> int:
        """Limit: half of what a full bet adds over the last one (or the bring-in)."""
        size = self.rules.bet_size(self.street)
        return (self.level + size - self.over + 1) // 2

    def acted(self, seat: int) -> None:
        bet = self.bets.get(seat, 0)
        self.singles_seen[seat] = self.singles
        if self.limit:
            self.reopens[seat] = bet + self.half_a_bet()
        elif self.full_bets:
            self.reopens[seat] = bet + max(self.largest, self.rules.bet_size(self.street))
        else:
            self.reopens[seat] = self.rules.bet_size(self.street)

    def feed(self, event: Event) -> None:
        match event:
            case StreetStarted(street=street):
                self.street, self.bets, self.current = street, {}, 0
                self.level = self.over = self.full_bets = self.largest = 0
                self.reopens = {}
            case AntePosted(seat=seat, amount=amount):
                self.stacks[seat] -= amount
            case UncalledBetReturned(seat=seat, amount=amount):
                self.stacks[seat] += amount
            case BringInPosted(seat=seat, amount=amount):
                self.put(seat, amount)
                self.bring_in_pending = False
                self.current = self.over = self.rules.bring_in
                if self.rules.bring_in >= self.rules.small_bet:
                    self.full_bets, self.level = 1, self.rules.bring_in
                    self.largest = self.rules.bring_in
                self.acted(seat)
            case Called(seat=seat, adds=adds):
                self.put(seat, adds)
                self.acted(seat)
            case Checked(seat=seat):
                self.acted(seat)
            case Completed(seat=seat, to=to) | BetMade(seat=seat, to=to) | Raised(seat=seat, to=to):
                if self.bring_in_pending:  # the bring-in himself, all-in or completing
                    self.bring_in_pending = False
                    self.over = self.rules.bring_in
                previous = self.current
                self.put(seat, to - self.bets.get(seat, 0))
                size = self.rules.bet_size(self.street)
                if self.limit:
                    alone = (to - previous) * 2 >= self.level + size - previous
                    full = to - self.over >= self.half_a_bet()
                elif self.full_bets == 0:
                    full = to >= size
                else:
                    full = to - previous >= max(self.largest, size)
                self.singles += full if not self.limit else alone
                if full:
                    self.full_bets += 1
                    self.level = self.over = to
                    self.largest = max(self.largest, to if self.full_bets == 1 else to - previous)
                self.current = max(self.current, to)
                self.acted(seat)
            case Folded(seat=seat):
                self.folded.add(seat)
            case TimedOut(seat=seat, outcome="all_in_protection"):
                self.out.add(seat)
            case _:
                pass

    def put(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.bets[seat] = self.bets.get(seat, 0) + chips

    def may_raise(self, seat: int) -> bool:
        bet, chips = self.bets.get(seat, 0), self.stacks[seat]
        if chips <= self.current - bet:
            return False
        if seat in self.reopens and self.current < self.reopens[seat]:
            return False  # he has acted, and faces less than a full raise over his bet
        others = [
            s
            for s in self.stacks
            if s != seat and s not in self.folded | self.out and self.stacks[s] > 0
        ]
        if not any(self.bets.get(s, 0) + self.stacks[s] > self.current for s in others):
            return False
        if seat in self.reopens and self.singles == self.singles_seen[seat]:
            self.several += 1  # no raise since he acted would have reopened it alone
        return True

    def raise_to(self, seat: int) -> int:
        """The smallest complete, bet or raise (limit: the only one)."""
        size = self.rules.bet_size(self.street)
        if self.limit:
            lo = self.level + size
        elif self.full_bets == 0:
            lo = size
        else:
            lo = self.current + max(self.largest, size)
        return min(lo, self.bets.get(seat, 0) + self.stacks[seat])


@st.composite
def all_in_tables(draw: st.DrawFn) -> tuple[TableRules, dict[int, int], int]:
    """A table, its players' stacks (many short, so that all-ins come often) and a
    seed for the deck and the players' choices."""
    small = draw(st.integers(2, 8))
    rules = TableRules(
        ante=draw(st.integers(0, 2)),
        bring_in=draw(st.integers(1, small)),
        small_bet=small,
        big_bet=draw(st.sampled_from((small, 2 * small))),
        structure=draw(st.sampled_from(BettingStructure)),
        raise_cap=None,  # (the cap and the heads-up rules are another test's)
    )
    players = draw(st.integers(3, 7))
    seats = sorted(
        draw(st.lists(st.integers(1, 8), min_size=players, max_size=players, unique=True))
    )
    stacks = {s: draw(st.integers(1, 6 * small) | st.integers(1, 40 * small)) for s in seats}
    return rules, stacks, draw(st.integers(0, 2**32))


def play_checked(rules: TableRules, stacks: dict[int, int], seed: int) -> Model:
    """Play a random hand of many raises; before each decision the engine's raise
    must be the model's. Returns the model (its count of several-all-in reopenings)."""
    rng = random.Random(seed)
    hand = Hand.start(rules=rules, stacks=stacks, deck=Deck.shuffled(rng), hand_id=f"s{seed}")
    model = Model(rules, dict(stacks))
    fed = 0
    for _ in range(400):
        for event in hand.events[fed:]:
            model.feed(event)
        fed = len(hand.events)
        if hand.is_over:
            break
        seat = hand.to_act
        assert seat is not None
        offered = hand.legal_actions()
        sized = [a for a in offered if a.kind in SIZED]
        where = f"seed {seed}, street {hand.street}, seat {seat}: {offered}"
        if ActionKind.BRING_IN not in {a.kind for a in offered}:
            assert bool(sized) == model.may_raise(seat), where
            if sized:
                assert sized[0].min_to == model.raise_to(seat), where
        # Short stacks shove, deep ones raise now and then: many short all-ins in a row.
        roll = rng.random()
        shove = bool(sized) and sized[0].all_in  # even the smallest raise is all he has
        if roll < 0.02:
            hand.time_out()
        elif sized and roll < (0.8 if shove else 0.2):
            choice = sized[-1]
            assert choice.min_to is not None and choice.max_to is not None
            hand.apply(choice.action(rng.randint(choice.min_to, choice.max_to)))
        else:
            passive = [a for a in offered if a.kind not in SIZED and a.kind is not FOLD]
            fold = not passive or rng.random() < 0.1
            hand.apply(offered[0].action() if fold else passive[0].action())
        if not hand.is_over:
            assert sum(hand.stack(s) for s in hand.seats) + hand.pot_total == sum(stacks.values())
    assert hand.is_over, f"seed {seed}: the hand does not end"
    assert_conserved(hand)
    return model


@settings(max_examples=300, deadline=None)
@given(table=all_in_tables())
def test_rule_3_several_short_all_ins_property(
    table: tuple[TableRules, dict[int, int], int],
) -> None:
    """RULES.md 3, over random hands full of all-ins in every structure: a player may
    raise exactly when he has not acted since the last full bet or raise, or faces a
    full raise over the bet he last acted on (short all-ins counted together); the
    amounts follow; chips are conserved and the hand ends."""
    play_checked(*table)


def test_rule_3_several_short_all_ins_occur_in_random_hands() -> None:
    """The property's model is not idle: over seeded random hands the case it checks
    (a player reopened by several short all-ins, none of them enough alone) comes
    up."""
    rng = random.Random(47)
    several = 0
    for _ in range(400):
        small = rng.randint(2, 8)
        rules = TableRules(
            ante=1,
            bring_in=rng.randint(1, small - 1),
            small_bet=small,
            big_bet=2 * small,
            structure=rng.choice(list(BettingStructure)),
            raise_cap=None,
        )
        stacks = {s: rng.randint(1, 6 * small) for s in range(1, rng.randint(4, 8) + 1)}
        several += play_checked(rules, stacks, rng.randrange(2**32)).several
    assert several >= 5, several
