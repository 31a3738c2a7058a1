"""``stud8 simulate`` speed: hands per second with the rule-based bots, six-handed, on
one core, and where the time goes; and each bot's decisions per second.

    python benchmarks/bench_simulate.py [--hands 20000] [--repeat 3] [--jobs 2]

Prints, best of ``--repeat`` runs after a warm-up:

* ``simulate``: :func:`stud8.tools.simulate.simulate` with six rule-based bots (the
  command's own code path, one process), in hands per second; then the same for each
  game (Stud Hi/Lo, Seven Card Stud, Razz), side by side in the same run, with the
  rule-based and the equity bots (``--game-hands``);
* ``engine only``: the very same hands replayed through the engine from their recorded
  decisions, no bots (the floor: what any bot costs comes on top), and the engine's
  share of a hand, in microseconds;
* a split of one simulated hand: engine (start, legal actions, apply), bots, the rest;
* decisions per second of each bot, each playing all six seats: the rule-based bot
  deciding from a seat window (as in ``simulate``) and from a full HandView, the
  calling station and the random bot (HandView), and the equity bot (window; its
  Monte Carlo trials as in ``simulate``), with the cost of building a HandView apart.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import stud8.core.hand as hand_module
import stud8.tools.bots.rules_based as rules_module
from stud8.core import Deck, Game, Hand, TableRules
from stud8.core.actions import Action
from stud8.tools.bots import BOTS, Bot
from stud8.tools.bots.base import FastBot
from stud8.tools.bots.window import HandWindows
from stud8.tools.simulate import SimulationConfig, simulate

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
SEATS = tuple(range(1, 7))
STACK = 800  # 100 big bets, as simulate's default


def best(repeat: int, run: Callable[[], float]) -> float:
    return min(run() for _ in range(repeat))


def bench_simulate(
    hands: int, repeat: int, jobs: int, game: Game = Game.STUD_HI_LO, bot: str = "rules"
) -> float:
    config = SimulationConfig(hands=hands, bots=(bot,) * 6, seed=1, jobs=jobs, game=game)
    return best(repeat, lambda: simulate(config).seconds)


def recorded_hands(hands: int) -> list[tuple[Deck, list[Action]]]:
    """Six rule-based bots' hands: each deck and the decisions made."""
    rng = random.Random(1)
    bots: dict[int, Bot] = {s: BOTS["rules"](random.Random(s)) for s in SEATS}
    from stud8.tools.bots.window import play_fast

    out = []
    for _ in range(hands):
        deck = Deck.shuffled(rng)
        hand = Hand.start(rules=RULES, stacks=dict.fromkeys(SEATS, STACK), deck=deck)
        play_fast(hand, bots)
        out.append((deck, [a for _, a in hand.decisions if a is not None]))
    return out


def bench_engine(games: list[tuple[Deck, list[Action]]], repeat: int) -> float:
    stacks = dict.fromkeys(SEATS, STACK)

    def run() -> float:
        start = time.perf_counter()
        for deck, actions in games:
            hand = Hand.start(rules=RULES, stacks=stacks, deck=deck)
            apply = hand.apply
            for action in actions:
                apply(action)
        return time.perf_counter() - start

    return best(repeat, run)


def split(hands: int) -> dict[str, float]:
    """Microseconds a hand in the engine (start, legal actions, apply), in the bots
    (deciding) and in the rest (shuffling, the seat windows, the loop), for the
    rule-based bots deciding from windows (one timed run; the timers add a little)."""
    rng = random.Random(2)
    bots = {s: BOTS["rules"](random.Random(s)) for s in SEATS}
    decide = {s: b.decide for s, b in bots.items() if isinstance(b, FastBot)}
    stacks = dict.fromkeys(SEATS, STACK)
    clock = time.perf_counter
    engine = deciding = 0.0
    start = clock()
    for _ in range(hands):
        deck = Deck.shuffled(rng)
        a = clock()
        hand = Hand.start(rules=RULES, stacks=stacks, deck=deck)
        engine += clock() - a
        windows = HandWindows(hand)
        while (seat := hand.to_act) is not None:
            window = windows.seat(seat)
            a = clock()
            hand.legal_actions()  # the engine's work, done once a decision
            b = clock()
            action = decide[seat](window)
            c = clock()
            hand.apply(action)
            d = clock()
            engine += (b - a) + (d - c)
            deciding += c - b
    total = clock() - start
    scale = 1e6 / hands
    return {
        "engine": engine * scale,
        "bots": deciding * scale,
        "rest": (total - engine - deciding) * scale,
        "total": total * scale,
    }


def decisions_per_second(kind: str, hands: int, *, window: bool) -> tuple[float, float, int]:
    """(decisions a second of the bot alone, with the view or window it is given, and
    how many decisions): the bot in all six seats."""
    rng = random.Random(3)
    bots = {s: BOTS[kind](random.Random(s)) for s in SEATS}
    fast = {s: b for s, b in bots.items() if isinstance(b, FastBot)}
    if window and len(fast) != len(bots):
        raise ValueError(f"the {kind} bot cannot decide from a window")
    stacks = dict.fromkeys(SEATS, STACK)
    clock = time.perf_counter
    alone = given = 0.0
    n = 0
    for _ in range(hands):
        hand = Hand.start(rules=RULES, stacks=stacks, deck=Deck.shuffled(rng))
        windows = HandWindows(hand)
        while (seat := hand.to_act) is not None:
            hand.legal_actions()  # the engine's work, not the bot's
            a = clock()
            if window:
                w = windows.seat(seat)
                b = clock()
                action = fast[seat].decide(w)
            else:
                view = hand.view(seat)
                b = clock()
                action = bots[seat].act(view)
            c = clock()
            hand.apply(action)
            alone += c - b
            given += c - a
            n += 1
    return n / alone, n / given, n


def pokerkit_reference(seconds: float) -> str:
    """PokerKit, the peer: the same kind of six-handed hands with random legal actions
    (no bots: PokerKit has none), from benchmarks/bench_hands.py."""
    sys.path.insert(0, str(Path(__file__).parent))
    try:
        import bench_hands
    except ImportError as e:  # pragma: no cover - run from elsewhere
        return f"(bench_hands.py not found: {e})"
    try:
        bench_hands.pokerkit_hands(0.3, 1)
        n, t, _ = bench_hands.pokerkit_hands(seconds, 1)
    except ImportError:
        return "not installed (pip install pokerkit)"
    ours, ours_t, _ = bench_hands.stud8_hands(seconds, 1)
    return (
        f"{n / t:>9,.0f} hands/s  (random actions, no bots; stud8's engine "
        f"the same way: {ours / ours_t:,.0f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2, help="also time this many processes")
    parser.add_argument("--equity-hands", type=int, default=300)
    parser.add_argument("--game-hands", type=int, default=2_000, help="0: skip the games")
    parser.add_argument("--peer-seconds", type=float, default=3.0, help="0: skip PokerKit")
    args = parser.parse_args(argv)
    n = args.hands
    print(f"python {sys.version.split()[0]}; six-handed, stakes 1/2/4/8, stacks {STACK}")
    engine_build = "pure Python" if str(hand_module.__file__).endswith(".py") else "compiled"
    bots_build = "pure Python" if str(rules_module.__file__).endswith(".py") else "compiled"
    print(f"build: engine {engine_build}, rule-based bot {bots_build}")
    simulate(SimulationConfig(hands=500, bots=("rules",) * 6, seed=9))  # warm-up
    seconds = bench_simulate(n, args.repeat, 1)
    print(f"simulate, rule-based bots, 1 core   {n / seconds:>9,.0f} hands/s")
    if args.game_hands > 0:
        print("simulate by game, 1 core (rule-based / equity bots, hands/s):")
        for game in Game:
            rules_s = bench_simulate(args.game_hands, 1, 1, game)
            equity_n = max(1, args.game_hands // 20)
            equity_s = bench_simulate(equity_n, 1, 1, game, "equity")
            print(
                f"  {game.value:<12} {args.game_hands / rules_s:>9,.0f} / "
                f"{equity_n / equity_s:>7,.0f}"
            )
    games = recorded_hands(n)
    decisions = sum(len(a) for _, a in games) / n
    engine = bench_engine(games, args.repeat)
    print(
        f"engine only, same hands, no bots     {n / engine:>9,.0f} hands/s  "
        f"({engine / n * 1e6:.0f} µs a hand, {decisions:.1f} decisions a hand)"
    )
    parts = split(min(n, 5_000))
    print(
        "one simulated hand, µs:              "
        f"engine {parts['engine']:.0f} + bots {parts['bots']:.0f} + rest {parts['rest']:.0f}"
        f" = {parts['total']:.0f}"
    )
    if args.peer_seconds > 0:
        print(f"PokerKit, the peer                   {pokerkit_reference(args.peer_seconds)}")
    if args.jobs > 1:
        seconds = bench_simulate(n, 1, args.jobs)
        print(f"simulate, {args.jobs} processes            {n / seconds:>9,.0f} hands/s")
    print("\ndecisions a second (the bot alone / with the view or window it is given)")
    hands = min(n, 3_000)
    for kind, window in (
        ("rules", True),
        ("rules", False),
        ("calling-station", False),
        ("random", False),
        ("equity", True),
    ):
        count = args.equity_hands if kind == "equity" else hands
        if count == 0:
            continue
        alone, given, decided = decisions_per_second(kind, count, window=window)
        how = "window" if window else "HandView"
        print(f"  {kind:<16} {how:<9} {alone:>10,.0f} / {given:>9,.0f}   ({decided:,} decisions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
