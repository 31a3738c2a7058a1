"""Tests of the bots, stud8.tools.bots: legal play, sensible rules, and results."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import pytest

from stud8.core import BettingStructure, Deck, Game, Hand, TableRules
from stud8.core.actions import (
    Action,
    ActionKind,
    BringIn,
    Call,
    Check,
    Complete,
    Fold,
    LegalAction,
    Raise,
)
from stud8.core.cards import Card, parse_cards
from stud8.core.evaluate import HighCategory, evaluate_hi_lo
from stud8.core.events import BetMade, Completed, Raised, StreetStarted
from stud8.core.views import HandView, SeatView
from stud8.tools.bots import (
    BOTS,
    Bot,
    CallingStation,
    RandomBot,
    RuleBasedBot,
    play_hand,
)
from stud8.tools.bots.rules_based import MAX_BETS

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)


def check_legal(action: Action, legal: Sequence[LegalAction], *, free_fold: bool = False) -> None:
    """The action is one of the legal ones, its amount within the bounds; and unless
    ``free_fold``, it does not fold when it could check."""
    kinds = {a.kind for a in legal}
    offers = [a for a in legal if a.kind is action.kind]  # two for the open pair's bets
    assert offers, (action, legal)
    if action.amount is not None:
        assert any(
            a.min_to is not None and a.max_to is not None and a.min_to <= action.amount <= a.max_to
            for a in offers
        ), (action, offers)
    if ActionKind.CHECK in kinds and not free_fold:
        assert action.kind is not ActionKind.FOLD, "folded when it could check"


def test_the_registry() -> None:
    assert set(BOTS) == {"random", "calling-station", "rules", "equity"}
    for name, make in BOTS.items():
        bot = make(random.Random(1))
        assert isinstance(bot, Bot)
        assert bot.name == name


# ------------------------------------------------------------------ legality
@pytest.mark.parametrize("kind", sorted(BOTS))
def test_every_bot_plays_only_legal_actions(kind: str) -> None:
    rng = random.Random(f"legal-{kind}")
    decisions = 0
    for _ in range(150):
        n = rng.randint(2, 8)
        seats = sorted(rng.sample(range(1, 9), n))
        rules = TableRules(
            ante=rng.choice((0, 1, 2)),
            bring_in=2,
            small_bet=4,
            big_bet=8,
            structure=rng.choice(list(BettingStructure)),
            game=rng.choice(list(Game)),
        )
        stacks = {s: rng.choice((1, 2, 3, 5, 9, 20, 60, 300)) for s in seats}
        # The bot under test in every other seat, the others of every kind around it.
        bots: dict[int, Bot] = {
            s: BOTS[kind if i % 2 == 0 else rng.choice(sorted(BOTS))](random.Random(rng.random()))
            for i, s in enumerate(seats)
        }
        hand = Hand.start(rules=rules, stacks=stacks, deck=Deck.shuffled(rng))
        while hand.to_act is not None:
            seat = hand.to_act
            view = hand.view(seat)
            action = bots[seat].act(view)
            # Only the random bot folds when it could check (it picks any legal action).
            check_legal(action, hand.legal_actions(), free_fold=bots[seat].name == "random")
            hand.apply(action)
            decisions += 1
        assert hand.result is not None
        assert sum(hand.result.stacks.values()) == sum(stacks.values())
    assert decisions > 600


def test_a_bot_sees_only_its_own_cards() -> None:
    """The rules bot's decisions do not change when the others' hidden cards do."""
    base = list(Deck.seeded(11).cards)
    other = base.copy()
    # Three players who all go to 7th street: seats 2 and 3 get positions 1, 2 (first
    # down), 4, 5 (second down), 19 and 20 (7th street); swap those with cards never dealt.
    for pos, unused in zip((1, 2, 4, 5, 19, 20), range(40, 46), strict=True):
        other[pos], other[unused] = other[unused], other[pos]

    def decisions(deck: Deck) -> list[Action]:
        hand = Hand.start(rules=RULES, stacks={1: 500, 2: 500, 3: 500}, deck=deck)
        bots: dict[int, Bot] = {
            1: RuleBasedBot(random.Random(5)),
            2: CallingStation(random.Random(0)),
            3: CallingStation(random.Random(0)),
        }
        mine: list[Action] = []
        while hand.to_act is not None:
            seat = hand.to_act
            view = hand.view(seat)
            if seat == 1:
                assert all(c is None for s in view.seats if s.seat != 1 for c in s.down_cards)
            action = bots[seat].act(view)
            if seat == 1:
                mine.append(action)
            hand.apply(action)
        return mine

    first = decisions(Deck(tuple(base)))
    assert len(first) == 5  # one decision on every street
    assert decisions(Deck(tuple(other))) == first


def test_bots_are_reproducible_with_a_seed() -> None:
    def run(seed: int) -> list[tuple[int, int]]:
        rng = random.Random(seed)
        out: list[tuple[int, int]] = []
        for _ in range(20):
            bots: dict[int, Bot] = {
                s: BOTS[k](random.Random(seed * 10 + s))
                for s, k in zip((1, 2, 3, 4), ("random", "rules", "random", "rules"), strict=True)
            }
            hand = Hand.start(rules=RULES, stacks=dict.fromkeys(bots, 100), deck=Deck.shuffled(rng))
            out.extend(play_hand(hand, bots).stacks.items())
        return out

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_calling_station_and_random_bot() -> None:
    station = CallingStation(random.Random(0))
    facing = (
        LegalAction(ActionKind.FOLD),
        LegalAction(ActionKind.CALL, 8, 8, adds=8),
        LegalAction(ActionKind.RAISE, 16, 16, adds=16),
    )
    assert station.act(make_view("As Kd", "Qc Jh 9s", facing, street=5)) == Call()
    assert station.act(make_view("As Kd", "Qc Jh 9s", unopened(8), street=5)) == Check()
    bring = (LegalAction(ActionKind.BRING_IN, adds=2), LegalAction(ActionKind.COMPLETE, 4, 4))
    assert station.act(make_view("As Kd", "Ac", bring, street=3)) == BringIn()
    # The random bot: every kind and every amount in range, in the long run.
    rng_bot = RandomBot(random.Random(0))
    no_limit = (
        LegalAction(ActionKind.FOLD),
        LegalAction(ActionKind.CALL, 8, 8, adds=8),
        LegalAction(ActionKind.RAISE, 16, 20, adds=16),
    )
    view = make_view("As Kd", "Qc Jh 9s", no_limit, street=5)
    seen = {(a.kind, a.amount) for a in (rng_bot.act(view) for _ in range(400))}
    assert seen == {
        (ActionKind.FOLD, None),
        (ActionKind.CALL, None),
        *((ActionKind.RAISE, to) for to in range(16, 21)),
    }


# ------------------------------------------------------------- 3rd street
# Three players. Dealing order: first down cards of seats 1, 2, 3; second down
# cards; then the up cards. Seat 2 shows the 2c and brings in, seat 3 shows an ace.
def third_street(seat1: str, seat2: str = "7h 8d 2c", seat3: str = "Qs Jd Ah") -> Hand:
    a, b, c = (parse_cards(t) for t in (seat1, seat2, seat3))
    order = [a[0], b[0], c[0], a[1], b[1], c[1], a[2], b[2], c[2]]
    return Hand.start(rules=RULES, stacks={1: 200, 2: 200, 3: 200}, deck=Deck.from_cards(order))


@pytest.mark.parametrize("seed", range(10))
def test_folds_junk_facing_a_completion(seed: int) -> None:
    hand = third_street("Kd 9c 4s")  # K-9-4 offsuit
    hand.apply(BringIn())
    hand.apply(Complete())
    assert hand.to_act == 1
    assert RuleBasedBot(random.Random(seed)).act(hand.view(1)) == Fold()


@pytest.mark.parametrize("seed", range(10))
def test_raises_with_rolled_up_trips(seed: int) -> None:
    bot = RuleBasedBot(random.Random(seed))
    hand = third_street("7c 7d 7s")
    hand.apply(BringIn())
    hand.apply(Complete())
    assert bot.act(hand.view(1)) == Raise(8)  # facing a completion: raise
    hand = third_street("7c 7d 7s")
    hand.apply(BringIn())
    hand.apply(Call())
    assert bot.act(hand.view(1)) == Complete(4)  # facing the bring-in: complete
    hand = third_street("3c 3d 3s", seat2="7h 8d 9c")  # the bring-in himself
    assert hand.to_act == 1
    assert bot.act(hand.view(1)) == Complete(4)


@pytest.mark.parametrize("seed", range(10))
def test_brings_in_rather_than_completes_with_junk(seed: int) -> None:
    hand = third_street("Kd 9c 4s", seat2="Ts 8h 2c")  # seat 2: T-8-2
    assert hand.to_act == 2
    assert RuleBasedBot(random.Random(seed)).act(hand.view(2)) == BringIn()


@pytest.mark.parametrize("cards", ["As 2d 3c", "Ad 4h 6c", "Ks Kd 9c", "Ac Ad Tc"])
def test_completes_with_good_starting_hands(cards: str) -> None:
    hand = third_street(cards)
    hand.apply(BringIn())
    hand.apply(Call())
    assert RuleBasedBot(random.Random(0)).act(hand.view(1)) == Complete(4)


def test_a_low_draw_calls_a_completion() -> None:
    hand = third_street("As 5d 7c")
    hand.apply(BringIn())
    hand.apply(Complete())
    assert RuleBasedBot(random.Random(0)).act(hand.view(1)) in (Call(), Raise(8))


# --------------------------------------------------- later streets, by view
def make_view(
    down: str,
    up: str,
    legal: Sequence[LegalAction],
    *,
    street: int,
    opponents: Sequence[str] = ("Th 8c 5s",),
    pot: int = 40,
    current_bet: int | None = None,
) -> HandView:
    """Seat 1's view: its cards, and each opponent's up cards (seats 2, 3, ...)."""
    if current_bet is None:
        call = next((a for a in legal if a.kind is ActionKind.CALL), None)
        current_bet = call.min_to if call is not None and call.min_to is not None else 0
    down_cards = parse_cards(down)
    seats = [SeatView(1, 200, 0, 10, False, False, parse_cards(up), down_cards)]
    for i, text in enumerate(opponents, start=2):
        hidden = (None,) * len(down_cards)
        seats.append(SeatView(i, 200, current_bet, 10, False, False, parse_cards(text), hidden))
    return HandView(
        hand_id="",
        viewer=1,
        street=street,
        to_act=1,
        bring_in_seat=None,
        pot=pot,
        current_bet=current_bet,
        community_card=None,
        seats=tuple(seats),
        legal_actions=tuple(legal),
        is_over=False,
    )


def facing_bet(bet: int, raise_to: int | None = None) -> tuple[LegalAction, ...]:
    out = [LegalAction(ActionKind.FOLD), LegalAction(ActionKind.CALL, bet, bet, adds=bet)]
    if raise_to is not None:
        out.append(LegalAction(ActionKind.RAISE, raise_to, raise_to, adds=raise_to))
    return tuple(out)


def unopened(bet: int) -> tuple[LegalAction, ...]:
    """Nothing to call: check or bet (or fold, which a player may always do in turn)."""
    return (
        LegalAction(ActionKind.FOLD),
        LegalAction(ActionKind.CHECK),
        LegalAction(ActionKind.BET, bet, bet, adds=bet),
    )


def act(view: HandView, seed: int = 0) -> Action:
    return RuleBasedBot(random.Random(seed)).act(view)


THREE_WAY = ("Th 8c 5s", "Js 6d 4h")


def test_a_pair_showing_scares_a_weaker_pair_away() -> None:
    kings = ("Kc Kd", "9h Qs Jd")
    legal = facing_bet(8, 16)
    assert act(make_view(*kings, legal, street=5, opponents=THREE_WAY, pot=30)) == Call()
    scary = ("Ac As 5s", "Js 6d 4h")  # a pair of aces showing
    assert act(make_view(*kings, legal, street=5, opponents=scary, pot=30)) == Fold()


def test_four_low_cards_showing_scare_a_lone_pair_away() -> None:
    kings = ("Kc Kd", "9h Qs 2d Jc")
    legal = facing_bet(8, 16)
    calm = ("Tc 9c 4d 3s", "Js 6d 4h 2s")
    assert act(make_view(*kings, legal, street=6, opponents=calm, pot=40)) == Call()
    scary = ("2h 3c 5d 7s", "Js 6d 4h 2s")  # four low cards showing
    assert act(make_view(*kings, legal, street=6, opponents=scary, pot=40)) == Fold()


def test_four_to_a_low_on_fifth_keeps_drawing_when_the_pot_pays() -> None:
    draw = ("As 2d", "4c 7h Kc")  # A-2-4-7 and a king
    assert act(make_view(*draw, facing_bet(8, 16), street=5, opponents=THREE_WAY, pot=60)) == Call()
    # Facing a raise: only when the pot is big.
    raised = facing_bet(16, 24)
    big = make_view(*draw, raised, street=5, opponents=THREE_WAY, pot=100, current_bet=16)
    small = make_view(*draw, raised, street=5, opponents=THREE_WAY, pot=30, current_bet=16)
    assert act(big) == Call()
    assert act(small) == Fold()


def test_a_busted_low_draw_gives_up_unless_it_has_a_high_hand() -> None:
    busted = ("As 2d", "4c Kc Qd Jh")  # three low cards with one card to come
    legal = facing_bet(8, 16)
    assert act(make_view(*busted, legal, street=6, opponents=THREE_WAY, pot=60)) == Fold()
    river = ("As 2d 9s", "4c Kc Qd Jh")
    assert act(make_view(*river, legal, street=7, opponents=THREE_WAY, pot=60)) == Fold()
    with_kings = ("As Kd", "4c Kc Qd Jh")  # ... but a pair of kings calls
    assert act(make_view(*with_kings, legal, street=6, opponents=THREE_WAY, pot=60)) == Call()


@pytest.mark.parametrize(
    ("down", "up", "street"),
    [
        ("As 2d", "4c 6h 8s 8d", 6),  # a made 8-low and a pair
        ("Kc Kd", "9h 9s 3c", 5),  # two pair
        ("As 2d", "3c 4h 5s", 5),  # a made wheel
        ("7c 7d", "7s Ah 2c", 5),  # trips
    ],
)
def test_bets_made_hands_for_value(down: str, up: str, street: int) -> None:
    view = make_view(down, up, unopened(8), street=street, opponents=THREE_WAY)
    assert act(view).kind is ActionKind.BET


def test_raises_a_wheel_and_a_full_house() -> None:
    wheel = make_view("As 2d", "3c 4h 5s Kd", facing_bet(8, 16), street=6, opponents=THREE_WAY)
    assert act(wheel) == Raise(16)
    boat = make_view("Kc Kd 9d", "9h 9s 3c Kh", facing_bet(8, 16), street=7, opponents=THREE_WAY)
    assert act(boat) == Raise(16)


def test_never_folds_when_it_can_check() -> None:
    junk = make_view("Kc 8d 3h", "Qh Ts 6c 2d", unopened(8), street=7, opponents=THREE_WAY)
    for seed in range(20):
        assert act(junk, seed) == Check()


# ------------------------------------------------------------------ results
def test_rule_based_bots_beat_calling_stations() -> None:
    """2,000 hands six-handed, stacks of 100 big bets restored every hand."""
    rng = random.Random(2024)
    kinds = ("rules", "calling-station") * 3
    bots: dict[int, Bot] = {
        seat: BOTS[kind](random.Random(seat)) for seat, kind in enumerate(kinds, start=1)
    }
    won = dict.fromkeys(bots, 0)
    for _ in range(2000):
        hand = Hand.start(rules=RULES, stacks=dict.fromkeys(bots, 800), deck=Deck.shuffled(rng))
        for seat, chips in play_hand(hand, bots).winnings.items():
            won[seat] += chips
    assert sum(won.values()) == 0
    rules_seats = [s for s, k in enumerate(kinds, start=1) if k == "rules"]
    # Each rule-based bot wins at least 10 big bets per 100 hands (about 40 seen).
    for seat in rules_seats:
        assert won[seat] > 0.10 * 8 * 2000, won


def test_a_rule_based_decision_is_fast() -> None:
    rng = random.Random(9)
    views: list[HandView] = []
    bots: dict[int, Bot] = {s: BOTS["rules"](random.Random(s)) for s in range(1, 7)}
    for _ in range(60):
        hand = Hand.start(rules=RULES, stacks=dict.fromkeys(bots, 400), deck=Deck.shuffled(rng))
        while hand.to_act is not None:
            view = hand.view(hand.to_act)
            views.append(view)
            hand.apply(bots[hand.to_act].act(view))
    bot = RuleBasedBot(random.Random(0))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for view in views:
            bot.act(view)
        best = min(best, (time.perf_counter() - start) / len(views))
    # Aim: under 50 microseconds; the bound leaves room for a busy machine.
    assert best < 200e-6, f"{best * 1e6:.0f} µs per decision"


# ------------------------------------------------------- heads-up raising wars
def holds_a_lock(cards: Sequence[Card]) -> bool:
    """The nuts (or near) for one half, with every card known: the best low there is,
    5-4-3-2-A, or four of a kind or better."""
    if len(cards) < 5:
        return len(cards) == 4 and len({c.rank for c in cards}) == 1
    high, low = evaluate_hi_lo(cards)
    wheel = low is not None and low.ranks[0] == 5
    return wheel or high.category >= HighCategory.FOUR_OF_A_KIND


def bets_by_street(hand: Hand) -> dict[int, list[int]]:
    """The seats that made each full bet (completion, bet or raise), street by street."""
    out: dict[int, list[int]] = {}
    street = 3
    for event in hand.events:
        if isinstance(event, StreetStarted):
            street = event.street
        elif isinstance(event, (Completed, BetMade, Raised)):
            out.setdefault(street, []).append(event.seat)
    return out


def test_a_heads_up_raising_war_ends() -> None:
    """Heads-up the raise cap is lifted (RULES.md 3); two rule-based bots with deep
    stacks used to re-raise each other until one was all-in (about one hand in twenty
    six-handed). Now each stops at the usual cap, a bet and three raises, unless it
    holds a lock or near-lock for its half: no street goes past four bets otherwise."""
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    rng = random.Random("wars")
    at_the_cap = past_the_cap = 0
    for _ in range(3000):
        bots: dict[int, Bot] = {s: RuleBasedBot(random.Random(rng.random())) for s in (1, 2)}
        hand = Hand.start(rules=rules, stacks={1: 800, 2: 800}, deck=Deck.shuffled(rng))
        play_hand(hand, bots)
        for street, seats in bets_by_street(hand).items():
            at_the_cap += len(seats) == MAX_BETS
            for seat in seats[MAX_BETS:]:  # a bet past the usual cap: with a lock only
                past_the_cap += 1
                assert holds_a_lock(hand.cards(seat)[:street]), (street, seat, hand.events)
    assert MAX_BETS == 4
    # Strong hands met and raised each other to the cap, and stopped there.
    assert at_the_cap >= 5, at_the_cap
    assert past_the_cap == 0


@pytest.mark.parametrize(
    ("down", "up", "raises"),
    [
        ("As 2d", "3c 4h 5s Kd", True),  # a made wheel: the nut low
        ("Kc Kd", "Kh Ks 3c 9d", True),  # four kings
        ("7c 7d", "7s Ah 2c Kd", False),  # trips: strong, not a lock
        ("Qc Jc", "Tc 9c 8d 2s", False),  # a straight: strong, not a lock
    ],
)
def test_past_the_cap_only_a_lock_raises(down: str, up: str, raises: bool) -> None:
    """Heads-up, facing the fourth bet on 6th street (the cap lifted), a lock re-raises;
    any other strong hand only calls."""
    legal = facing_bet(32, 40)
    view = make_view(down, up, legal, street=6, opponents=("Th 8c 5s 6h",), pot=120)
    assert act(view) == (Raise(40) if raises else Call())
    # Below the cap, the same strong hands raise.
    below = make_view(down, up, facing_bet(16, 24), street=6, opponents=("Th 8c 5s 6h",))
    assert act(below) == Raise(24)
