"""Whole hands per second: stud8 against PokerKit, measured in the same run.

Six-handed fixed-limit Stud Hi/Lo hands, ante 1, bring-in 2, 4/8, stacks 200,
each hand played to the end with random legal actions (a fresh shuffle every
hand). Both engines pick uniformly among the kinds of action they offer, so the
hands are alike in length. Prints hands per second for each and the ratio.

    python benchmarks/bench_hands.py [--seconds 5] [--rounds 5]

The two engines take turns, ``--rounds`` times, each for ``--seconds`` / ``--rounds``
of this process's CPU time (not wall time: on a shared machine another job's load
then slows neither in its turn). Each round gives a ratio; the median is printed.

Says which build of the engine ran: pure Python, or compiled with mypyc
(``STUD8_COMPILE=1 pip install .``, see setup.py). Also prints how long
``import stud8``, ``import stud8.core`` and ``import pokerkit`` take, in a fresh
interpreter with the bytecode cached.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import stud8.core.hand
from stud8.core import ActionKind, Deck, Hand, TableRules

CHECK = ActionKind.CHECK

PLAYERS = 6
STACK = 200


def stud8_hands(seconds: float, seed: int) -> tuple[int, float, int]:
    rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    stacks = dict.fromkeys(range(1, PLAYERS + 1), STACK)
    rng = random.Random(seed)
    uniform = rng.random
    hands = actions = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(50):
            hand = Hand.start(rules=rules, stacks=stacks, deck=Deck.shuffled(rng))
            while hand.to_act is not None:
                legal = hand.legal_actions()
                if len(legal) > 1 and legal[1].kind is CHECK:
                    legal = legal[1:]  # no free fold, as PokerKit (tournament mode) has it
                hand.apply(legal[int(uniform() * len(legal))].action())
                actions += 1
            hands += 1
        now = time.process_time()
        if now >= deadline:
            return hands, now - start, actions


def pokerkit_hands(seconds: float, seed: int) -> tuple[int, float, int]:
    from pokerkit import Automation, FixedLimitSevenCardStudHighLowSplitEightOrBetter

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    uniform = rng.random
    hands = actions = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(5):
            state = FixedLimitSevenCardStudHighLowSplitEightOrBetter.create_state(
                automations, True, 1, 2, 4, 8, STACK, PLAYERS
            )
            while state.status:
                choices: list[Callable[[], object]] = []
                if state.can_post_bring_in():
                    choices.append(state.post_bring_in)
                if state.can_fold():
                    choices.append(state.fold)
                if state.can_check_or_call():
                    choices.append(state.check_or_call)
                if state.can_complete_bet_or_raise_to():
                    choices.append(state.complete_bet_or_raise_to)
                choices[int(uniform() * len(choices))]()
                actions += 1
            hands += 1
        now = time.process_time()
        if now >= deadline:
            return hands, now - start, actions


def import_ms(module: str) -> float:
    """Milliseconds to import ``module`` in a fresh interpreter (best of 5).

    Measured as an installed package runs: with its bytecode cached (pip writes
    the ``.pyc`` files at install; here a first, unmeasured import writes them,
    even when ``PYTHONDONTWRITEBYTECODE`` is set in this environment, as in CI).
    """
    code = (
        "import time; t = time.perf_counter(); import "
        + module
        + "; print((time.perf_counter() - t) * 1000)"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def once() -> float:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        )
        return float(done.stdout)

    once()  # writes the bytecode cache
    return min(once() for _ in range(5))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    compiled = not str(stud8.core.hand.__file__).endswith(".py")
    print(f"engine    {'compiled (mypyc)' if compiled else 'pure Python'}")
    stud8_hands(0.5, args.seed)  # warm up: tables, caches
    try:
        pokerkit_hands(0.5, args.seed)
    except ImportError:
        pokerkit = False
        print("pokerkit  not installed (pip install pokerkit)")
    else:
        pokerkit = True
    slice_ = args.seconds / args.rounds
    ours: list[tuple[int, float, int]] = []
    theirs: list[tuple[int, float, int]] = []
    ratios = []
    for k in range(args.rounds):
        ours.append(stud8_hands(slice_, args.seed + k))
        if pokerkit:
            theirs.append(pokerkit_hands(slice_, args.seed + k))
            (n, t, _), (pn, pt, _) = ours[-1], theirs[-1]
            ratios.append((n / t) / (pn / pt))
    n, t, a = (sum(x) for x in zip(*ours, strict=True))
    print(f"stud8     {n / t:10,.0f} hands/s  ({a / n:.1f} actions a hand, {n} hands)")
    if pokerkit:
        pn, pt, pa = (sum(x) for x in zip(*theirs, strict=True))
        print(f"pokerkit  {pn / pt:10,.0f} hands/s  ({pa / pn:.1f} actions a hand, {pn} hands)")
        rounds = " ".join(f"{r:.1f}" for r in ratios)
        print(f"ratio     {statistics.median(ratios):10.1f} x  (median of rounds: {rounds})")
    print(f"import stud8       {import_ms('stud8'):6.1f} ms")
    print(f"import stud8.core  {import_ms('stud8.core'):6.1f} ms")
    if pokerkit:
        print(f"import pokerkit    {import_ms('pokerkit'):6.1f} ms")


if __name__ == "__main__":
    main()
