"""Differential test: thousands of random fixed-limit hands, replayed in PokerKit.

Each hand is played in stud8 with random stakes (bring-in below the small bet),
2 to 8 players with stacks from one chip (all-in for the ante, short bring-ins,
all-ins on every street) to deep, and random legal actions from
``hand.legal_actions()`` (folds included), chosen with a ``random.Random`` seeded
per hand. Its events are turned into the steps of the oracle harness
(``pokerkit_oracle.py``), replayed in PokerKit's
``FixedLimitSevenCardStudHighLowSplitEightOrBetter``, and PokerKit's final stacks
must equal ``hand.result.stacks``.

Every hand comes from one integer seed: ``play_random_hand(seed)`` plays it again,
so the run is deterministic and a failure can be replayed alone.

Only PokerKit's deviations from RULES.md are masked, each one counted:

* raise cap heads-up: PokerKit never lifts it, so stud8 plays with
  ``heads_up_cap=HeadsUpCap.NEVER_LIFTED`` (the TDA option) here;
* ``short_all_in_bet``: PokerKit has no half-bet rule (a short all-in reopens the
  betting for a player who acted only when the consecutive short all-ins add up
  to a full bet, for every such player alike, where RULES 3 counts half a bet
  from each player's own bet; every all-in counts toward its cap, and after one
  the next raise is a full bet above it, never a completion: pinned in
  ``test_pokerkit_has_no_half_bet_rule`` and
  ``test_pokerkit_counts_short_all_ins_together_only_to_a_full_bet``). A hand with an all-in
  complete, bet or raise short of a full one is compared step by step, chips
  committed included, up to the first step where the two engines part; that step
  must be an action of the same street, at or after the short all-in, that
  PokerKit refuses or gives to another player. If they never part, the whole hand
  is compared as any other;
* ``short_bring_in``: PokerKit lets later players call a short (all-in) bring-in
  for less (pinned in ``test_pokerkit_calls_a_short_bring_in_for_less``); such a
  hand is compared step by step up to the first call of it, where the caller
  must have put in exactly the bring-in's shortfall more than in PokerKit, and
  nobody else a chip more or less;
* ``no_low_side_pot``: PokerKit decides hi/lo once per hand, so a pot still
  contested by players none of whom has a qualifying low is halved when another
  hand has one; such hands are not compared;
* ``odd_chip``: PokerKit gives odd chips by seat order (both of them to the first
  player when the same players tie both halves). Where a pot has tied winners and
  odd chips, the totals must be equal, each winner may differ by at most the
  number of those odd chips, and everyone else must match exactly;
* ``merged_pots`` (found by this test, pinned in
  ``test_pokerkit_merges_pots_before_halving_them``): PokerKit kills the hands
  that cannot win before it settles, rebuilds the pots from the hands left and
  merges pots left with the same players, then halves each merged pot; RULES 5
  halves every pot on its own (the high half the larger). The chips that move
  are counted like odd chips;
* burn cards and the community card: the harness handles them.

The conditions come from stud8's own result (its pots) and the hands evaluated
here, never from PokerKit's output.

PokerKit evaluates every hand of the showdown many times over (for every pot,
every player and both halves); the run memoizes that evaluation (a pure
function) while it replays, which makes it about four times faster and changes
nothing (``test_memoized_pokerkit_evaluation_changes_nothing``).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

import pytest
from deal import deck_for
from pokerkit import State
from pokerkit.hands import CombinationHand
from pokerkit.hands import Hand as PokerKitHand
from pokerkit_oracle import FULL_DECK, OracleDisagrees, Step, play_in_pokerkit

from stud8.core import (
    Action,
    ActionKind,
    Bet,
    BringIn,
    Call,
    Check,
    Complete,
    Deck,
    Fold,
    Hand,
    HeadsUpCap,
    LegalAction,
    Raise,
    TableRules,
)
from stud8.core.evaluate import HighValue, LowValue, evaluate_hi_lo
from stud8.core.events import (
    AntePosted,
    BetMade,
    BringInPosted,
    Called,
    CardDealt,
    Checked,
    CommunityCardDealt,
    Completed,
    Folded,
    Raised,
    StreetStarted,
    UncalledBetReturned,
)

MASTER_SEED = 20_241_122
"""Hand ``i`` of the run is ``play_random_hand(MASTER_SEED + i)``."""

HANDS_TO_COMPARE = 2000
"""Hands that must be compared exactly (no mask but the cap setting)."""

MAX_HANDS = 6000
"""A bound on the hands generated, so a broken generator cannot loop forever."""

# Coverage the run must reach among the exactly compared hands (it reaches
# about 1,700 showdowns, 600 hands with a side pot and 200 8-player hands with
# a community card).
MIN_SHOWDOWNS = 1000
MIN_SIDE_POTS = 300
MIN_EIGHT_PLAYER_COMMUNITY = 100
# Hands with a short bring-in or a short all-in (about 15% of them): compared to
# the end when PokerKit agrees throughout (about 360), else up to the deviation
# (about 120).
MIN_DEVIATING_TO_THE_END = 200
MIN_DEVIATING_UP_TO_IT = 60

SIZED = frozenset({ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE})
PASSIVE = (ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL)


# --------------------------------------------------------------- random hands


@dataclass(frozen=True, slots=True)
class Style:
    """How the players of one hand choose among their legal actions."""

    name: str
    fold: float  # chance of folding when a fold is offered
    aggression: float  # chance of completing, betting or raising when offered


STYLES = (
    Style("calling station", fold=0.0, aggression=0.0),  # everyone to 7th street
    Style("passive", fold=0.03, aggression=0.12),
    Style("loose", fold=0.08, aggression=0.3),
    Style("maniac", fold=0.05, aggression=0.6),
    Style("tight", fold=0.35, aggression=0.25),
    Style("uniform", fold=-1.0, aggression=-1.0),  # any legal action, equally likely
)


def random_rules(rng: random.Random) -> TableRules:
    """Random stakes with bring-in < small bet; all options at their default but
    the heads-up cap, which PokerKit never lifts."""
    small_bet = rng.randint(2, 10)
    big_bet = rng.choice((small_bet, 2 * small_bet, rng.randint(small_bet, 3 * small_bet)))
    return TableRules(
        ante=rng.choice((0, 1, 1, 2, rng.randint(0, small_bet))),
        bring_in=rng.randint(1, small_bet - 1),
        small_bet=small_bet,
        big_bet=big_bet,
        heads_up_cap=HeadsUpCap.NEVER_LIFTED,
    )


def random_stack(rng: random.Random, rules: TableRules, profile: str) -> int:
    """One player's chips: very short (all-in for the ante, a short bring-in),
    a few bets (all-ins on later streets), or deep."""
    forced = rules.ante + rules.bring_in
    short = rng.randint(1, forced + 1)
    few_bets = rng.randint(1, rules.ante + 2 * rules.small_bet + 2 * rules.big_bet)
    medium = rng.randint(rules.ante + rules.small_bet, rules.ante + 8 * rules.big_bet)
    deep = rng.randint(20 * rules.big_bet, 60 * rules.big_bet)
    roll = rng.random()
    if profile == "deep":
        return deep if roll < 0.9 else medium
    if profile == "short":
        return short if roll < 0.3 else few_bets if roll < 0.7 else medium
    return short if roll < 0.1 else few_bets if roll < 0.35 else medium if roll < 0.65 else deep


def choose_action(rng: random.Random, legal: Sequence[LegalAction], style: Style) -> Action:
    """A legal action for the player to act, as the hand's style has it.

    Never a fold when a check is free: stud8 (like PokerStars) allows it, but then
    PokerKit makes the last player with chips check alone before it deals on,
    where stud8 deals on at once (nobody is left to bet against him).
    """
    if any(a.kind is ActionKind.CHECK for a in legal):
        legal = [a for a in legal if a.kind is not ActionKind.FOLD]
    if style.fold < 0:
        choice = rng.choice(legal)
    else:
        kinds = {a.kind: a for a in legal}
        sized = [a for a in legal if a.kind in SIZED]
        passive = [a for a in legal if a.kind in PASSIVE]
        if ActionKind.FOLD in kinds and rng.random() < style.fold:
            return Fold()
        if sized and rng.random() < style.aggression:
            choice = sized[0]
        elif passive:
            choice = passive[0]
        else:
            choice = rng.choice(legal)
    if choice.kind in SIZED:
        assert choice.min_to is not None and choice.max_to is not None
        return choice.action(rng.randint(choice.min_to, choice.max_to))
    return choice.action()


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A finished random hand and how it was made."""

    seed: int | None  # None: a hand written out by a test
    style: Style
    rules: TableRules
    stacks: dict[int, int]  # seat -> chips at the start
    deck: Deck
    hand: Hand


def play_random_hand(seed: int) -> PlayedHand:
    """Set up and play one random hand; everything comes from ``seed``."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    players = rng.randint(2, 8)
    seats = sorted(rng.sample(range(1, 9), players))
    profile = rng.choice(("mixed", "mixed", "deep", "short"))
    stacks = {seat: random_stack(rng, rules, profile) for seat in seats}
    # 8-player hands play check/call more often, to reach 7th street and the
    # community card.
    style = STYLES[0] if players == 8 and rng.random() < 0.4 else rng.choice(STYLES)
    deck = Deck.shuffled(rng)
    hand = Hand.start(rules=rules, stacks=stacks, deck=deck, hand_id=f"diff-{seed}")
    actions = 0
    while not hand.is_over:
        hand.apply(choose_action(rng, hand.legal_actions(), style))
        actions += 1
        assert actions < 500, f"seed {seed}: the hand does not end"
    return PlayedHand(seed, style, rules, stacks, deck, hand)


# ------------------------------------------------------ events -> oracle steps


def to_steps(hand: Hand) -> list[Step]:
    """The hand's cards and actions as the harness's steps (player = position of
    the seat in ascending seat order)."""
    index = {seat: i for i, seat in enumerate(hand.seats)}
    steps: list[Step] = []
    for event in hand.events:
        match event:
            case CardDealt(seat=seat, card=card, face_up=face_up):
                assert card is not None
                steps.append(Step("deal", index[seat], str(card), face_up=face_up))
            case CommunityCardDealt(card=card):
                steps.append(Step("community", card=str(card)))
            case BringInPosted(seat=seat):
                steps.append(Step("bring_in", index[seat]))
            case Completed(seat=seat, to=to):
                steps.append(Step("complete", index[seat], to=to))
            case BetMade(seat=seat, to=to):
                steps.append(Step("bet", index[seat], to=to))
            case Raised(seat=seat, to=to):
                steps.append(Step("raise", index[seat], to=to))
            case Called(seat=seat):
                steps.append(Step("call", index[seat]))
            case Checked(seat=seat):
                steps.append(Step("check", index[seat]))
            case Folded(seat=seat):
                steps.append(Step("fold", index[seat]))
            case _:
                pass  # antes, streets, uncalled bets, showdown, awards: PokerKit's own
    return steps


# ------------------------------------------------------------------- masking


def short_all_in_bet(hand: Hand) -> bool:
    """Whether an all-in complete, bet or raise was short of a full one.

    Until the first short one, every complete, bet or raise of a street is full,
    so a full one reaches the last one's amount plus the fixed bet (the
    completion: the small bet, over a bring-in that is less).
    """
    rules = hand.rules
    street = 3
    level: int | None = None  # the last complete/bet/raise of the street
    for event in hand.events:
        if isinstance(event, StreetStarted):
            street, level = event.street, None
        elif isinstance(event, (Completed, BetMade, Raised)):
            full = (level or 0) + rules.bet_size(street)
            if event.all_in and event.to < full:
                return True
            level = event.to
    return False


def short_bring_in(hand: Hand) -> bool:
    """Whether the bring-in was posted all-in for less than the bring-in."""
    return any(
        isinstance(e, BringInPosted) and e.all_in and e.amount < hand.rules.bring_in
        for e in hand.events
    )


@dataclass(frozen=True, slots=True)
class StepLedger:
    """What stud8 had done before each step of ``to_steps(hand)``: the chips each
    player (by index) had committed to the pot, and the street of each step."""

    committed: list[tuple[int, ...]]  # before step i
    street: list[int]  # the street step i belongs to (a card: the street it starts)
    actions: list[int]  # the indices of the action steps


def step_ledger(hand: Hand) -> StepLedger:
    index = {seat: i for i, seat in enumerate(hand.seats)}
    chips = [0] * len(hand.seats)
    committed: list[tuple[int, ...]] = []
    streets: list[int] = []
    actions: list[int] = []
    street = 3
    for event in hand.events:
        match event:
            case StreetStarted(street=number):
                street = number
            case AntePosted(seat=seat, amount=amount):
                chips[index[seat]] += amount
            case UncalledBetReturned(seat=seat, amount=amount):
                chips[index[seat]] -= amount
            case CardDealt() | CommunityCardDealt():
                committed.append(tuple(chips))
                streets.append(street)
            case BringInPosted(seat=seat, amount=amount):
                actions.append(len(committed))
                committed.append(tuple(chips))
                streets.append(street)
                chips[index[seat]] += amount
            case (
                Completed(seat=seat, adds=adds)
                | BetMade(seat=seat, adds=adds)
                | Raised(seat=seat, adds=adds)
                | Called(seat=seat, adds=adds)
            ):
                actions.append(len(committed))
                committed.append(tuple(chips))
                streets.append(street)
                chips[index[seat]] += adds
            case Checked() | Folded():
                actions.append(len(committed))
                committed.append(tuple(chips))
                streets.append(street)
            case _:
                pass
    return StepLedger(committed, streets, actions)


@dataclass(frozen=True, slots=True)
class Deviation:
    """A step where PokerKit's documented rules part from RULES.md's."""

    kind: str  # "short_bring_in" or "short_all_in_bet"
    step: int  # index in to_steps(hand)
    street: int
    seat: int
    amount: int  # a short bring-in's chips; a short all-in's 'to'


def deviations(hand: Hand) -> list[Deviation]:
    """Every short bring-in and short all-in complete, bet or raise, with its step
    (as ``short_bring_in`` and ``short_all_in_bet`` find them)."""
    rules = hand.rules
    ledger = step_ledger(hand)
    found: list[Deviation] = []
    street = 3
    level: int | None = None
    action = 0
    for event in hand.events:
        if isinstance(event, StreetStarted):
            street, level = event.street, None
        elif isinstance(
            event, (BringInPosted, Completed, BetMade, Raised, Called, Checked, Folded)
        ):
            step = ledger.actions[action]
            action += 1
            if isinstance(event, BringInPosted):
                if event.all_in and event.amount < rules.bring_in:
                    found.append(
                        Deviation("short_bring_in", step, street, event.seat, event.amount)
                    )
            elif isinstance(event, (Completed, BetMade, Raised)):
                full = (level or 0) + rules.bet_size(street)
                if event.all_in and event.to < full:
                    found.append(Deviation("short_all_in_bet", step, street, event.seat, event.to))
                level = event.to
    return found


class ChipsDiffer(AssertionError):
    """PokerKit's chips committed differ from ours before step ``index``."""

    def __init__(self, index: int, ours: tuple[int, ...], theirs: tuple[int, ...]) -> None:
        super().__init__(f"before step {index}: chips committed ours {ours}, PokerKit {theirs}")
        self.index = index
        self.ours = ours
        self.theirs = theirs


@dataclass(frozen=True, slots=True)
class Parting:
    """Where PokerKit first parts from stud8 in a hand (none: it played it all)."""

    step: int | None  # the step PokerKit refused, or the action whose chips differ
    street: int  # the street of the last action at or before it
    chips: ChipsDiffer | None
    refusal: OracleDisagrees | None


def explained(
    played: PlayedHand, steps: Sequence[Step], ledger: StepLedger, parting: Parting
) -> Deviation | None:
    """The documented deviation that explains where PokerKit parted, if one does."""
    hand = played.hand
    index = {seat: i for i, seat in enumerate(hand.seats)}
    for deviation in deviations(hand):
        if deviation.street != parting.street or (
            parting.step is not None and parting.step < deviation.step
        ):
            continue
        if deviation.kind == "short_bring_in" and parting.chips is not None:
            # The first call of it: the caller put in the shortfall more, and only he.
            assert parting.step is not None
            caller = steps[parting.step]
            # He called the full bring-in (or all he had, if less); PokerKit, the short one.
            before = ledger.committed[parting.step][caller.player]
            chips = played.stacks[hand.seats[caller.player]] - before
            shortfall = min(hand.rules.bring_in, chips) - deviation.amount
            diff = [a - b for a, b in zip(parting.chips.ours, parting.chips.theirs, strict=True)]
            expected = [shortfall if i == caller.player else 0 for i in range(len(diff))]
            if (
                caller.kind == "call"
                and diff == expected
                and caller.player != index[deviation.seat]
            ):
                return deviation
        if deviation.kind == "short_all_in_bet" and parting.refusal is not None:
            return deviation
    return None


Values = Mapping[int, tuple[HighValue, LowValue | None]]


def showdown_values(hand: Hand) -> dict[int, tuple[HighValue, LowValue | None]]:
    """Each live seat's high and low, evaluated here from its cards."""
    community = () if hand.community_card is None else (hand.community_card,)
    return {seat: evaluate_hi_lo(hand.cards(seat) + community) for seat in hand.live_seats()}


@dataclass(frozen=True, slots=True)
class Split:
    """How one pot splits: its best high hands and best low hands (none: no low)."""

    amount: int
    high: tuple[int, ...]
    low: tuple[int, ...]


def split(amount: int, seats: Sequence[int], values: Values) -> Split:
    best_high = max(values[s][0] for s in seats)
    lows = [low for s in seats if (low := values[s][1]) is not None]
    best_low = max(lows) if lows else None
    return Split(
        amount,
        tuple(s for s in seats if values[s][0] == best_high),
        () if best_low is None else tuple(s for s in seats if values[s][1] == best_low),
    )


def contenders(hand: Hand, values: Values) -> list[tuple[int, tuple[int, ...]]]:
    """Our pots as PokerKit settles them: (amount, players still in it).

    PokerKit kills every hand that cannot win a share of some pot before it
    pushes the chips; the pots are then rebuilt with the surviving hands only,
    and consecutive pots left with the same players are merged.
    """
    assert hand.result is not None
    survivors: set[int] = set()
    for pot in hand.result.pots:
        best = split(pot.amount, pot.eligible, values)
        survivors.update(best.high, best.low)
    merged: list[tuple[int, tuple[int, ...]]] = []
    for pot in sorted(hand.result.pots, key=lambda pot: pot.index):
        players = tuple(s for s in pot.eligible if s in survivors)
        if merged and merged[-1][1] == players:
            merged[-1] = (merged[-1][0] + pot.amount, players)
        else:
            merged.append((pot.amount, players))
    return merged


def no_low_side_pot(hand: Hand, values: Values) -> bool:
    """Whether PokerKit halves a pot with no qualifying low: a pot still
    contested by two or more players none of whom has a low, while another
    surviving hand has one (PokerKit decides hi/lo once for the hand)."""
    pots = contenders(hand, values)
    if not any(values[s][1] is not None for _, players in pots for s in players):
        return False
    return any(
        len(players) > 1 and all(values[s][1] is None for s in players) for _, players in pots
    )


def odd_chips(pots: Sequence[Split]) -> int:
    """The odd chips of pots with tied winners: the remainders of a half-by-half
    split (PokerKit) and of an even split of a double tie (stud8)."""
    count = 0
    for pot in pots:
        if not pot.low:
            count += pot.amount % len(pot.high)
            continue
        count += (pot.amount + 1) // 2 % len(pot.high) + pot.amount // 2 % len(pot.low)
        if pot.high == pot.low:
            count += pot.amount % len(pot.high)
    return count


def tied_odd_chips(hand: Hand, values: Values) -> int:
    """Odd chips of tied pots, in our pots and in PokerKit's (merged) pots."""
    assert hand.result is not None
    ours = [split(pot.amount, pot.eligible, values) for pot in hand.result.pots]
    theirs = [split(amount, players, values) for amount, players in contenders(hand, values)]
    return odd_chips(ours) + odd_chips(theirs)


def merged_pot_chips(hand: Hand, values: Values) -> int:
    """Chips that move when PokerKit merges pots before halving them.

    RULES 5 settles each pot on its own, its high half the larger one. Merged,
    k pots of odd amounts give the high half k // 2 chips fewer.
    """
    assert hand.result is not None
    survivors = {s for _, players in contenders(hand, values) for s in players}
    groups: dict[tuple[int, ...], list[int]] = {}
    for pot in hand.result.pots:
        players = tuple(s for s in pot.eligible if s in survivors)
        groups.setdefault(players, []).append(pot.amount)
    chips = 0
    for players, amounts in groups.items():
        if any(values[s][1] is not None for s in players):
            chips += sum(amount % 2 for amount in amounts) // 2
    return chips


# ------------------------------------------------- PokerKit, memoized showdown


class MemoizedPokerKitEvaluation(AbstractContextManager["MemoizedPokerKitEvaluation"]):
    """Memoize PokerKit's hand evaluation while replaying (a pure function).

    PokerKit's showdown asks for each player's best hand (``from_game``: every
    five-card combination) and for hand entries again and again; both depend on
    the cards only. The memo is cleared after each hand to keep it small.
    """

    def __init__(self) -> None:
        self._from_game = CombinationHand.__dict__["from_game"].__func__
        self._hands: dict[tuple[Any, ...], Any] = {}
        self._entries: dict[tuple[int, tuple[Any, ...]], Any] = {}
        self._patch = pytest.MonkeyPatch()

    def __enter__(self) -> MemoizedPokerKitEvaluation:
        self._patch.setattr(CombinationHand, "from_game", classmethod(self._best_hand))
        self._patch.setattr(PokerKitHand, "entry", property(self._entry))
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._patch.undo()
        self.clear()

    def clear(self) -> None:
        self._hands.clear()
        self._entries.clear()

    def _best_hand(self, cls: type, hole_cards: Any, board_cards: Any = ()) -> Any:
        key = (cls, tuple(hole_cards), tuple(board_cards))
        best = self._hands.get(key)
        if best is None:
            try:
                best = self._from_game(cls, key[1], key[2])
            except ValueError as error:  # no hand of this kind (no low): keep the refusal
                best = error
            self._hands[key] = best
        if isinstance(best, ValueError):
            raise ValueError(*best.args)
        return best

    def _entry(self, hand: Any) -> Any:
        lookup = type(hand).lookup
        key = (id(lookup), hand.cards)
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = lookup.get_entry(hand.cards)
        return entry


def replay_in_pokerkit(
    played: PlayedHand, steps: Sequence[Step], ledger: StepLedger | None = None
) -> list[int]:
    """PokerKit's final stacks for the hand, in seat order. With ``ledger``, the
    chips each player has committed must also be ours before every action
    (:class:`ChipsDiffer` if not)."""
    hand = played.hand
    starting = [played.stacks[seat] for seat in hand.seats]

    actions = frozenset(() if ledger is None else ledger.actions)

    def same_chips(index: int, state: State) -> None:
        # Before each action (not each card: an ante nobody can match stays in our
        # pot until the hand ends, while PokerKit trims it at once).
        assert ledger is not None
        if index not in actions:
            return
        theirs = tuple(start - left for start, left in zip(starting, state.stacks, strict=True))
        if theirs != ledger.committed[index]:
            raise ChipsDiffer(index, ledger.committed[index], theirs)

    return play_in_pokerkit(
        before_step=None if ledger is None else same_chips,
        ante=played.rules.ante,
        bring_in=played.rules.bring_in,
        small_bet=played.rules.small_bet,
        big_bet=played.rules.big_bet,
        starting_stacks=[played.stacks[seat] for seat in hand.seats],
        steps=steps,
        unused_cards=[str(card) for card in played.deck.cards[hand.deck_position :]],
    )


# ---------------------------------------------------------------- comparison


@dataclass(slots=True)
class Tally:
    """What the run did, for the assertion messages."""

    generated: int = 0
    compared: int = 0  # exactly, no mask but the cap setting
    masked: Counter[str] = field(default_factory=Counter)
    # hands with a short bring-in or short all-in that PokerKit played to the end
    through: Counter[str] = field(default_factory=Counter)
    showdowns: int = 0
    side_pots: int = 0
    all_in_players: int = 0
    eight_player_community: int = 0
    players: Counter[int] = field(default_factory=Counter)
    styles: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    failed_seeds: list[int] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.generated} hands generated, {self.compared} compared exactly; "
            f"masked (short ones compared up to it): {dict(sorted(self.masked.items()))}; "
            f"with a short bring-in or all-in, compared to the end: {dict(self.through)}; "
            f"among the exactly compared: {self.showdowns} showdowns, "
            f"{self.side_pots} with a side pot, {self.all_in_players} with an all-in "
            f"player, {self.eight_player_community} 8-player hands with a community card; "
            f"players {dict(sorted(self.players.items()))}; styles {dict(self.styles)}"
        )


def describe(played: PlayedHand, steps: Sequence[Step], detail: str) -> str:
    """Everything needed to see and replay a disagreement."""
    hand = played.hand
    assert hand.result is not None
    index = {seat: i for i, seat in enumerate(hand.seats)}
    lines = [
        (
            "a hand written out by the test"
            if played.seed is None
            else f"seed {played.seed} (replay: play_random_hand({played.seed})), "
            f"style {played.style.name}"
        ),
        f"rules {played.rules!r}",
        "stacks (seat: chips, player index): "
        + ", ".join(f"{s}: {c} (P{index[s]})" for s, c in played.stacks.items()),
        f"deck {played.deck!r}",
        "steps:",
        *(f"  {i:3d} {step}" for i, step in enumerate(steps)),
        "stud8 pots:",
        *(f"  {pot}" for pot in hand.result.pots),
        f"stud8 stacks {hand.result.stacks} (by player index "
        f"{[hand.result.stacks[s] for s in hand.seats]})",
        detail,
    ]
    return "\n".join(lines)


def part(ledger: StepLedger, error: OracleDisagrees | ChipsDiffer) -> Parting:
    """Where the replay stopped: a refused step, or the action whose chips differ."""
    if isinstance(error, ChipsDiffer):
        step: int | None = max((i for i in ledger.actions if i < error.index), default=None)
    else:
        step = error.step_index
    last = step if step is not None else len(ledger.street) - 1
    street = max((ledger.street[i] for i in ledger.actions if i <= last), default=3)
    chips = error if isinstance(error, ChipsDiffer) else None
    refusal = error if isinstance(error, OracleDisagrees) else None
    return Parting(step, street, chips, refusal)


def compare(played: PlayedHand, tally: Tally) -> None:
    """Replay one hand in PokerKit; count it, or record a disagreement."""
    hand = played.hand
    result = hand.result
    assert result is not None
    steps = to_steps(hand)
    ledger = step_ledger(hand)
    deviating = deviations(hand)
    try:
        theirs = replay_in_pokerkit(played, steps, ledger)
    except (OracleDisagrees, ChipsDiffer) as error:
        parting = part(ledger, error)
        deviation = explained(played, steps, ledger, parting)
        if deviation is None:
            fail(tally, played, describe(played, steps, f"PokerKit parts from stud8: {error}"))
        else:
            # Compared up to the step where the documented deviation shows.
            tally.masked[deviation.kind] += 1
        return
    if deviating:
        tally.through[deviating[0].kind] += 1
    merged = tied = 0
    winners: set[int] = set()
    if result.showdown:
        values = showdown_values(hand)
        if no_low_side_pot(hand, values):
            tally.masked["no_low_side_pot"] += 1
            return
        merged = merged_pot_chips(hand, values)
        tied = tied_odd_chips(hand, values)
        winners = {s for _, players in contenders(hand, values) for s in players}
    tolerance = merged + tied
    ours = [result.stacks[seat] for seat in hand.seats]

    if tolerance:
        # Only the winners' shares may differ, by at most the odd chips.
        off = [
            seat
            for seat, a, b in zip(hand.seats, ours, theirs, strict=True)
            if abs(a - b) > (tolerance if seat in winners else 0)
        ]
        if off or sum(ours) != sum(theirs):
            detail = (
                f"PokerKit stacks {theirs}, ours {ours}: seats {off} differ by more than the "
                f"{tolerance} odd chip(s) of tied ({tied}) or merged ({merged}) pots"
            )
            fail(tally, played, describe(played, steps, detail))
        else:
            tally.masked["merged_pots" if merged else "odd_chip"] += 1
        return
    if theirs != ours:
        fail(tally, played, describe(played, steps, f"PokerKit stacks {theirs}, ours {ours}"))
        return

    tally.compared += 1
    tally.players[len(hand.seats)] += 1
    tally.styles[played.style.name] += 1
    if result.showdown:
        tally.showdowns += 1
        if sum(1 for pot in result.pots if len(pot.eligible) > 1) > 1:
            tally.side_pots += 1
    if any(hand.is_all_in(seat) for seat in hand.live_seats()):
        tally.all_in_players += 1
    if len(hand.seats) == 8 and hand.community_card is not None:
        tally.eight_player_community += 1


def fail(tally: Tally, played: PlayedHand, message: str) -> None:
    assert played.seed is not None
    tally.failed_seeds.append(played.seed)
    if len(tally.failures) < 3:
        tally.failures.append(message)


def run(hands_to_compare: int = HANDS_TO_COMPARE) -> Tally:
    """Random hands, compared with PokerKit until enough were compared exactly."""
    tally = Tally()
    with MemoizedPokerKitEvaluation() as memo:
        while tally.compared < hands_to_compare and tally.generated < MAX_HANDS:
            played = play_random_hand(MASTER_SEED + tally.generated)
            tally.generated += 1
            compare(played, tally)
            memo.clear()
    return tally


# -------------------------------------------------------------------- tests


def test_steps_cover_every_card_and_action_of_the_hand() -> None:
    # The conversion itself: every card dealt becomes one step, in dealing
    # order; with the unused cards they are the whole deck; every decision is
    # one action step.
    for seed in range(MASTER_SEED, MASTER_SEED + 20):
        played = play_random_hand(seed)
        hand = played.hand
        steps = to_steps(hand)
        cards = [step.card for step in steps if step.kind in ("deal", "community")]
        assert cards == [str(card) for card in played.deck.cards[: hand.deck_position]]
        unused = [str(card) for card in played.deck.cards[hand.deck_position :]]
        assert sorted(cards + unused) == sorted(FULL_DECK)
        actions = [step for step in steps if step.kind not in ("deal", "community")]
        assert [step.player for step in actions] == [
            hand.seats.index(seat) for seat, _ in hand.decisions
        ]


def test_short_all_in_and_short_bring_in_are_detected() -> None:
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    # Seat 1 (2c, the low card) has 2 chips: ante 1, then a bring-in of 1, all-in.
    hand = Hand.start(rules=rules, stacks={1: 2, 2: 100}, deck=Deck.from_cards("Ks Kd Qs Qd 2c 9h"))
    hand.apply(BringIn())
    assert short_bring_in(hand)
    assert not short_all_in_bet(hand)
    # Seat 2 (2c) brings in 2. Seat 1 completes all-in: with 5 chips to 4 (a full
    # completion), with 4 chips to 3 (short of it).
    for chips, short in ((5, False), (4, True)):
        deck = Deck.from_cards("Ks Kd Qs Qd 9h 2c")
        hand = Hand.start(rules=rules, stacks={1: chips, 2: 100}, deck=deck)
        hand.apply(BringIn())
        (complete,) = (a for a in hand.legal_actions() if a.kind is ActionKind.COMPLETE)
        assert complete.all_in
        hand.apply(complete.action())
        assert short_all_in_bet(hand) is short
        assert not short_bring_in(hand)


def parting_of(played: PlayedHand) -> tuple[list[Step], StepLedger, Parting]:
    steps = to_steps(played.hand)
    ledger = step_ledger(played.hand)
    try:
        replay_in_pokerkit(played, steps, ledger)
    except (OracleDisagrees, ChipsDiffer) as error:
        return steps, ledger, part(ledger, error)
    raise AssertionError("PokerKit played the whole hand")


def test_pokerkit_calls_a_short_bring_in_for_less() -> None:
    # Pinned PokerKit deviation (short_bring_in). Ante 1, bring-in 2: seat 1 (2c)
    # has 1 chip after the ante and brings in all-in for 1; seat 2 calls. RULES 3:
    # he enters for the full bring-in, 2; PokerKit takes 1.
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    stacks = {1: 2, 2: 100, 3: 100}
    deck = deck_for({1: "Kh Kd 2c", 2: "Qh Qd 9c", 3: "Jh Jd Tc"})
    hand = Hand.start(rules=rules, stacks=stacks, deck=deck)
    hand.apply(BringIn())
    hand.apply(Call())
    assert hand.stack(2) == 97
    hand.apply(Fold())
    played = PlayedHand(None, STYLES[0], rules, stacks, deck, hand)
    steps, ledger, parting = parting_of(played)
    assert parting.chips is not None and parting.step == 10  # seat 2's call
    assert (parting.chips.ours, parting.chips.theirs) == ((2, 3, 1), (2, 2, 1))
    deviation = explained(played, steps, ledger, parting)
    assert deviation == Deviation("short_bring_in", 9, 3, 1, 1)
    # Anything else than that shortfall, or on another player, is not explained.
    for ours, theirs in (((2, 4, 1), (2, 2, 1)), ((2, 3, 2), (2, 2, 1)), ((2, 3, 1), (2, 3, 0))):
        other = Parting(10, 3, ChipsDiffer(11, ours, theirs), None)
        assert explained(played, steps, ledger, other) is None


def test_pokerkit_has_no_half_bet_rule() -> None:
    # Pinned PokerKit deviation (short_all_in_bet). Ante 1, bring-in 2, small bet 6:
    # seat 2 goes all-in to 3 over the bring-in, less than half the completion over
    # it. RULES 3: seat 3 may complete to 6; PokerKit's smallest raise is to 9.
    rules = TableRules(ante=1, bring_in=2, small_bet=6, big_bet=12)
    stacks = {1: 100, 2: 4, 3: 100}
    deck = deck_for({1: "Kh Kd 2c", 2: "Qh Qd 9c", 3: "Jh Jd Tc"})
    hand = Hand.start(rules=rules, stacks=stacks, deck=deck)
    hand.apply(BringIn())
    hand.apply(Complete(to=3))
    hand.apply(Complete(to=6))
    hand.apply(Fold())
    played = PlayedHand(None, STYLES[0], rules, stacks, deck, hand)
    steps, ledger, parting = parting_of(played)
    assert parting.refusal is not None and parting.step == 11
    assert "9" in str(parting.refusal)
    assert explained(played, steps, ledger, parting) == Deviation("short_all_in_bet", 10, 3, 2, 3)
    # A refusal before the short all-in, or on another street, is not explained.
    for step, street in ((9, 3), (11, 4)):
        other = Parting(step, street, None, parting.refusal)
        assert explained(played, steps, ledger, other) is None


def test_pokerkit_counts_short_all_ins_together_only_to_a_full_bet() -> None:
    # Pinned PokerKit deviation (short_all_in_bet), RULES 3 "Several short all-ins
    # count together". 4th street, small bet 4: seat 1 bets 4, seats 2 and 3 are
    # all-in to 5 and 6, seat 4 calls. Together the all-ins add half a bet: seat 1
    # may raise to 10. PokerKit sums consecutive short all-ins to a full bet (4)
    # before it reopens the betting: it refuses the raise.
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    stacks = {1: 100, 2: 8, 3: 9, 4: 100}
    deck = deck_for({1: "Kh Qd 9c Kc", 2: "Qh Jd Tc 4s", 3: "Jh Td 8c 5s", 4: "Th 9d 2c 6s"})
    hand = Hand.start(rules=rules, stacks=stacks, deck=deck)
    script: list[Action] = [BringIn(), Call(), Call(), Call()]  # seat 4 brings in
    script += [Bet(), Raise(to=5), Raise(to=6), Call()]  # 4th street, from seat 1
    for action in script:
        hand.apply(action)
    assert hand.to_act == 1
    assert {a.kind for a in hand.legal_actions()} == {
        ActionKind.FOLD,
        ActionKind.CALL,
        ActionKind.RAISE,
    }
    hand.apply(Raise(to=10))
    hand.apply(Call())
    played = PlayedHand(None, STYLES[0], rules, stacks, deck, hand)
    steps, ledger, parting = parting_of(played)
    assert parting.refusal is not None and parting.step is not None
    assert (steps[parting.step].kind, steps[parting.step].to) == ("raise", 10)
    assert explained(played, steps, ledger, parting) is not None


def test_memoized_pokerkit_evaluation_changes_nothing() -> None:
    showdowns = 0
    for seed in range(MASTER_SEED, MASTER_SEED + 40):
        played = play_random_hand(seed)
        if short_bring_in(played.hand) or short_all_in_bet(played.hand):
            continue
        steps = to_steps(played.hand)
        plain = replay_in_pokerkit(played, steps)
        with MemoizedPokerKitEvaluation():
            memoized = replay_in_pokerkit(played, steps)
            again = replay_in_pokerkit(played, steps)
        assert plain == memoized == again, f"seed {seed}"
        assert played.hand.result is not None
        showdowns += played.hand.result.showdown
    assert showdowns >= 10
    # Leaving the block puts PokerKit back as it was.
    assert CombinationHand.__dict__["from_game"].__func__.__module__ == "pokerkit.hands"
    assert PokerKitHand.__dict__["entry"].fget.__module__ == "pokerkit.hands"


def test_pokerkit_merges_pots_before_halving_them() -> None:
    # Pinned PokerKit deviation, masked as merged_pots. Ante 1, bring-in 3.
    # Seat 1 is all-in for the ante; seat 4 brings in 3 (2c) and folds on 4th;
    # seat 5 folds on 3rd. Seats 2 and 3 put in 1 + 3 + 6 = 10 each.
    # Main pot 5 x 1 = 5 (seats 1, 2, 3); side pot 9 + 9 + 3 = 21 (seats 2, 3).
    # Seat 2 (kings full) has the high of both pots, seat 3 (6-5-4-3-A) the low
    # of both; seat 1 (jacks and nines, no low) wins nothing.
    # RULES 5, each pot on its own, the odd chip to the high half: 3 + 11 = 14
    # to seat 2, 2 + 10 = 12 to seat 3. PokerKit kills seat 1's hand, both pots
    # then have the same players, and it halves 26: 13 and 13.
    rules = TableRules(ante=1, bring_in=3, small_bet=6, big_bet=12)
    stacks = {1: 1, 2: 100, 3: 100, 4: 100, 5: 100}
    deck = deck_for(
        {
            1: "Qh Jh 9c Td 9s 8d Jc",
            2: "Kh Kd Ks 7d Qc Qd 2s",
            3: "Ac 3d 4h 5c 6d Th Jd",
            4: "8h 9h 2c 7c",
            5: "5h 6h Qs",
        }
    )
    hand = Hand.start(rules=rules, stacks=stacks, deck=deck)
    hand.apply(BringIn())  # seat 4
    hand.apply(Fold())  # seat 5
    hand.apply(Call())  # seat 2
    hand.apply(Call())  # seat 3
    assert hand.street == 4 and hand.to_act == 2
    hand.apply(Bet())  # seat 2, 6
    hand.apply(Call())  # seat 3
    hand.apply(Fold())  # seat 4
    while not hand.is_over:
        hand.apply(Check())
    assert hand.result is not None
    assert [(pot.amount, pot.eligible) for pot in hand.result.pots] == [
        (5, (1, 2, 3)),
        (21, (2, 3)),
    ]
    assert hand.result.stacks == {1: 0, 2: 104, 3: 102, 4: 96, 5: 99}
    values = showdown_values(hand)
    assert contenders(hand, values) == [(26, (2, 3))]
    assert merged_pot_chips(hand, values) == 1
    assert tied_odd_chips(hand, values) == 0
    assert not no_low_side_pot(hand, values)
    played = PlayedHand(None, STYLES[0], rules, stacks, deck, hand)
    assert replay_in_pokerkit(played, to_steps(hand)) == [0, 103, 103, 96, 99]


def test_seventh_street_opener_when_the_sixth_street_opener_folded() -> None:
    # 8 players, nobody folds before 6th street. Seat 5 shows a pair of aces and
    # acts first on 4th to 6th; seat 2 shows a pair of kings. On 6th seat 5 bets,
    # seat 6 raises, everyone calls and seat 5 folds: 7 players, 4 cards left, a
    # community card. RULES 4: the 6th-street opener acts first on 7th; he has
    # folded, so the highest board among the players still in, seat 2, acts first
    # (as on any 7th street, and as in PokerKit); not seat 6, the next seat.
    hands = {
        1: "Qc Jd 2c 3h 9s 4d",
        2: "Qd Jh Kc Kd 5c 6h",
        3: "Qh Js 3c 7d 8c Td",
        4: "Qs Tc 4c 8d 9c Jc",
        5: "2d 3d As Ah 5d 6d",
        6: "2h 3s 5h 7h 9d Th",
        7: "2s 4h 6c 8h Ts Kh",
        8: "4s 5s 7c 9h Ks Ad",
    }
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    deck = deck_for(hands, then="7s")
    hand = Hand.start(rules=rules, stacks=dict.fromkeys(range(1, 9), 100), deck=deck)
    hand.apply(BringIn())  # seat 1, 2c
    for _ in range(7):
        hand.apply(Call())
    for _street in (4, 5):
        assert hand.to_act == 5
        for _ in range(8):
            hand.apply(Check())
    assert hand.to_act == 5
    hand.apply(Bet())
    hand.apply(Raise())  # seat 6
    for _ in range(6):
        hand.apply(Call())  # seats 7, 8, 1, 2, 3, 4
    assert hand.to_act == 5
    hand.apply(Fold())
    assert hand.street == 7 and hand.community_card is not None
    seventh_opener = hand.to_act
    while not hand.is_over:
        hand.apply(Check())
    played = PlayedHand(None, STYLES[0], rules, dict.fromkeys(range(1, 9), 100), deck, hand)
    steps = to_steps(hand)
    try:
        replay_in_pokerkit(played, steps)
    except OracleDisagrees as error:
        pytest.fail(describe(played, steps, f"PokerKit does not accept the hand: {error}"))
    assert seventh_opener == 2


def test_no_raise_when_nobody_can_call_more_than_the_current_bet() -> None:
    # Ante 1, bring-in 1, bets 2/2. 3rd: seat 1 (2c) brings in, seat 2
    # completes to 2, seat 3 and seat 1 call: seats 2 and 3 have 4 chips left.
    # 4th: seat 1 (A-2 showing) bets 2, seat 2 calls (2 left), seat 3 raises
    # all-in to 4. Seat 2 can reach 4 at most, the current bet, so a re-raise by
    # seat 1 could never be called, even in part: PokerKit refuses it ("no reason
    # to complete, bet, or raise"), and it would only come back uncalled.
    rules = TableRules(
        ante=1, bring_in=1, small_bet=2, big_bet=2, heads_up_cap=HeadsUpCap.NEVER_LIFTED
    )
    deck = deck_for({1: "7h 8h 2c As", 2: "9s Ts Kd 3d", 3: "Jh Js Qd 4d"})
    hand = Hand.start(rules=rules, stacks={1: 100, 2: 7, 3: 7}, deck=deck)
    hand.apply(BringIn())
    hand.apply(hand.legal_actions()[-1].action())  # seat 2 completes
    hand.apply(Call())
    hand.apply(Call())
    assert hand.street == 4 and hand.to_act == 1
    hand.apply(Bet())
    hand.apply(Call())  # seat 2
    hand.apply(Raise())  # seat 3, all-in
    assert hand.is_all_in(3) and hand.to_act == 1 and hand.stack(2) == 2
    kinds = [legal.kind for legal in hand.legal_actions()]
    assert kinds == [ActionKind.FOLD, ActionKind.CALL], hand.legal_actions()


def test_stud8_agrees_with_pokerkit_on_random_hands() -> None:
    start = time.perf_counter()
    tally = run()
    elapsed = time.perf_counter() - start
    summary = f"{tally.summary()}; {elapsed:.1f} s"
    print(summary)
    assert not tally.failures, (
        f"{len(tally.failed_seeds)} disagreement(s) with PokerKit, seeds {tally.failed_seeds} "
        f"({summary}); the first:\n\n" + "\n\n".join(tally.failures)
    )
    assert tally.compared >= HANDS_TO_COMPARE, summary
    assert tally.showdowns >= MIN_SHOWDOWNS, summary
    assert tally.side_pots >= MIN_SIDE_POTS, summary
    assert tally.eight_player_community >= MIN_EIGHT_PLAYER_COMMUNITY, summary
    assert sum(tally.through.values()) >= MIN_DEVIATING_TO_THE_END, summary
    assert min(tally.masked["short_bring_in"], tally.masked["short_all_in_bet"]) > 0, summary
    up_to_it = tally.masked["short_bring_in"] + tally.masked["short_all_in_bet"]
    assert up_to_it >= MIN_DEVIATING_UP_TO_IT, summary
