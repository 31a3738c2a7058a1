"""Pot-limit and no-limit bounds, checked independently of the engine.

PokerKit has no stud in pot limit or no limit, so the differential test cannot
cover them. Here random pot-limit and no-limit hands are played (random stakes,
stacks from a few chips to deep, random legal actions and random amounts), and
before every decision a small model of RULES.md 3, fed only with the hand's events
(never the engine's state), works out what the player to act may do and the
smallest and largest *to* amount of his complete, bet or raise. The engine's
``legal_actions()`` must say the same.

The model (RULES.md 3, "Pot limit and no limit" and "Short all-in"):

* the minimum bet is the street's bet (the small bet on 3rd and 4th street, the big
  bet from the big-bet street); the completion on 3rd street is the small bet;
* the minimum raise is by the largest full bet or raise of the round (the round's
  first bet, a completion included, counts at its full size), and at least by the
  street's bet;
* the maximum: in no limit the player's chips; in pot limit the pot after calling
  (everything in the pot, this street's bets included, plus his call);
* both are cut to what the player has;
* an all-in short of a full raise does not reopen the betting for a player who has
  acted since the last full bet or raise, but several count together: he may raise
  again when the bet he faces is a full raise above the bet he last acted on
  ("Several short all-ins", TDA 2024 Rule 47A);
* nobody may raise when he cannot put in more than the call, nor when no other
  player could put in more than the current bet.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from stud8.core import ActionKind, Deck, Hand, TableRules
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
    UncalledBetReturned,
)
from stud8.core.rules import BettingStructure

SIZED = frozenset({ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE})
HANDS = 600


@dataclass
class Model:
    """The betting as RULES.md 3 has it, rebuilt from the events."""

    rules: TableRules
    stacks: dict[int, int]  # chips behind
    pot: int = 0  # every chip put in, this street's bets included
    street: int = 3
    bets: dict[int, int] = field(default_factory=dict)  # this street
    current: int = 0
    full_bets: int = 0  # full bets and raises this street
    largest: int = 0  # the largest full bet or raise this street
    # since the last full bet or raise: the bet each player last acted on
    acted: dict[int, int] = field(default_factory=dict)
    folded: set[int] = field(default_factory=set)

    def feed(self, event: Event) -> None:
        match event:
            case StreetStarted(street=street):
                self.street, self.bets, self.current = street, {}, 0
                self.full_bets, self.largest, self.acted = 0, 0, {}
            case AntePosted(seat=seat, amount=amount):
                self.stacks[seat] -= amount
                self.pot += amount
            case UncalledBetReturned(seat=seat, amount=amount):
                self.stacks[seat] += amount
                self.pot -= amount
            case BringInPosted(seat=seat, amount=amount):
                self._put(seat, amount)
                self.current = self.rules.bring_in  # the others enter for the full one
                if self.rules.bring_in >= self.rules.small_bet:  # a bring-in of a full bet
                    self.full_bets, self.largest = 1, self.rules.bring_in
                self.acted[seat] = self.bets[seat]
            case Called(seat=seat, adds=adds):
                self._put(seat, adds)
                self.acted[seat] = self.bets[seat]
            case Completed(seat=seat, to=to) | BetMade(seat=seat, to=to) | Raised(seat=seat, to=to):
                previous = self.current
                self._put(seat, to - self.bets.get(seat, 0))
                size = self.rules.bet_size(self.street)
                increment = to if self.full_bets == 0 else to - previous
                if increment >= max(self.largest, size):
                    self.full_bets += 1
                    self.largest = increment
                    self.acted = {}
                self.current = max(self.current, to)
                self.acted[seat] = to
            case Checked(seat=seat):
                self.acted[seat] = self.bets.get(seat, 0)
            case Folded(seat=seat):
                self.folded.add(seat)
            case _:
                pass

    def _put(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.bets[seat] = self.bets.get(seat, 0) + chips
        self.pot += chips

    def expected(self, seat: int) -> tuple[ActionKind, int, int] | None:
        """The complete, bet or raise the player to act may make, with its bounds."""
        bet = self.bets.get(seat, 0)
        chips = self.stacks[seat]
        if chips <= self.current - bet:
            return None
        size = self.rules.bet_size(self.street)
        if seat in self.acted and not (
            self.full_bets and self.current - self.acted[seat] >= max(self.largest, size)
        ):
            return None  # no full raise since he acted, even counting all-ins together
        others = [
            s for s in self.stacks if s != seat and s not in self.folded and self.stacks[s] > 0
        ]
        if not any(self.bets.get(s, 0) + self.stacks[s] > self.current for s in others):
            return None
        if self.full_bets == 0:
            # the first full bet completes the bring-in (posted or not yet) or a
            # short all-in bet
            opening = self.current == 0 and self.street != 3
            kind = ActionKind.BET if opening else ActionKind.COMPLETE
            lo = size
        else:
            kind = ActionKind.RAISE
            lo = self.current + max(self.largest, size)
        if self.rules.structure is BettingStructure.NO_LIMIT:
            hi = bet + chips
        else:
            hi = self.current + self.pot + (self.current - bet)
        most = bet + chips
        lo = min(lo, most)
        return kind, lo, max(lo, min(hi, most))


def random_hand(seed: int) -> tuple[Hand, Model, random.Random]:
    rng = random.Random(seed)
    small = rng.randint(2, 10)
    rules = TableRules(
        ante=rng.randint(0, small),
        bring_in=rng.randint(1, small),
        small_bet=small,
        big_bet=rng.choice((small, 2 * small)),
        structure=rng.choice((BettingStructure.POT_LIMIT, BettingStructure.NO_LIMIT)),
    )
    seats = sorted(rng.sample(range(1, 9), rng.randint(2, 8)))
    stacks = {
        seat: rng.choice(
            (rng.randint(1, 3 * small), rng.randint(small, 20 * small), rng.randint(50, 2000))
        )
        for seat in seats
    }
    hand = Hand.start(rules=rules, stacks=stacks, deck=Deck.shuffled(rng), hand_id=f"b{seed}")
    return hand, Model(rules, dict(stacks)), rng


def test_pot_limit_and_no_limit_bounds_match_an_independent_model() -> None:
    checked = {BettingStructure.POT_LIMIT: 0, BettingStructure.NO_LIMIT: 0}
    short_all_ins = capped_by_chips = 0
    for seed in range(HANDS):
        hand, model, rng = random_hand(seed)
        fed = 0
        while not hand.is_over:
            for event in hand.events[fed:]:
                model.feed(event)
            fed = len(hand.events)
            seat = hand.to_act
            assert seat is not None
            legal = hand.legal_actions()
            sized = [a for a in legal if a.kind in SIZED]
            ours = None if not sized else (sized[0].kind, sized[0].min_to, sized[-1].max_to)
            where = f"seed {seed}, street {model.street}, seat {seat}, legal {legal}"
            if ActionKind.BRING_IN in {a.kind for a in legal}:
                # the bring-in's choice: the completion is the street's bet
                if sized:
                    assert ours == model.expected(seat), where
            else:
                assert ours == model.expected(seat), where
            if ours is not None:
                checked[hand.rules.structure] += 1
                capped_by_chips += ours[2] == hand.stack(seat) + hand.street_bet(seat)
            choice = rng.choice(legal)
            if choice.kind in SIZED:
                assert choice.min_to is not None and choice.max_to is not None
                to = rng.choice(
                    (choice.min_to, choice.max_to, rng.randint(choice.min_to, choice.max_to))
                )
                action = choice.action(to)
            else:
                action = choice.action()
            hand.apply(action)
            last = hand.events[-1]
            if isinstance(last, (Completed, BetMade, Raised)) and last.all_in:
                short_all_ins += 1
    # The run covers both structures, raises capped by the stack and all-ins.
    assert min(checked.values()) > 1000, checked
    assert capped_by_chips > 200 and short_all_ins > 200, (capped_by_chips, short_all_ins)
