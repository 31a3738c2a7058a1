"""Benchmark: the hand replayer's equity, street by street (``GET
/api/v1/hands/{hand_id}/equity``'s work, without the HTTP): each street of a hand
worked out afresh (the answers kept are forgotten first), then the whole hand again
from what was kept.

Hands: random hands of 2, 4, 6 and 8 players played to the showdown by calling
stations, seen by the operator (every card: heads-up, 3rd street is counted exactly,
18 billion outcomes), by player 1 (his own cards and the hands shown) and by an
observer (the hands shown: those that could not win were mucked). Printed:
milliseconds per street, how it was counted (exact, or sampled from
:data:`~stud8.server.http.replay_equity.SAMPLE_DEALS` deals) and the whole hand's
time; no pass or fail by time. One core; the compiled kernels are loaded first
(``warm_up``), and that time is printed apart.

Run: ``python benchmarks/bench_replay_equity.py [--hands N]``.
"""

from __future__ import annotations

import argparse
import time

from stud8.core import Hand
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.rules import Game, TableRules
from stud8.formats.record import HandRecord
from stud8.server.http import replay_equity
from stud8.server.wire.replay import Replay, replay_of
from stud8.tools.equity import warm_up

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
CALLING = (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)
STREETS = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}


def calling_stations(players: int, seed: int) -> HandRecord:
    """Everyone checks or calls to the showdown: every street dealt to every hand."""
    stacks = {s: 1000 for s in range(1, players + 1)}
    hand = Hand.start(rules=RULES, stacks=stacks, deck=Deck.seeded(seed), hand_id=f"b{seed}")
    while not hand.is_over:
        legal = {a.kind for a in hand.legal_actions()}
        hand.apply(make_action(next(k for k in CALLING if k in legal).value, None))
    return HandRecord.from_hand(hand)


def measure(name: str, replay: Replay) -> float:
    """Each street timed afresh, then the hand from what was kept; the fresh total."""
    replay_equity.forget()
    total = 0.0
    parts = []
    game = Game(replay.game)
    for position in replay_equity.positions(replay):
        start = time.perf_counter()
        street = replay_equity.street_equity(game, position)
        ms = (time.perf_counter() - start) * 1000
        total += ms
        how = "exact" if street.method.value == "exact" else "sampled"
        parts.append(f"{STREETS[position.street]} {ms:6.1f} ms {how:7}")
    start = time.perf_counter()
    replay_equity.equity_of(replay)
    kept = (time.perf_counter() - start) * 1000
    print(f"{name:34} " + " | ".join(parts) + f" | hand {total:7.1f} ms, kept {kept:.2f} ms")
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3, help="random hands per table size")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    warm_up()
    print(f"warm-up (load the compiled kernels): {time.perf_counter() - start:.2f} s")
    print(f"sampled streets: {replay_equity.SAMPLE_DEALS:,} deals each")
    worst = 0.0
    for players in (2, 4, 6, 8):
        for i in range(args.hands):
            record = calling_stations(players, seed=100 * players + i)
            for who, replay in (
                ("operator", replay_of(record, everything=True)),
                ("player 1", replay_of(record, viewer=1)),
                ("observer", replay_of(record, viewer=None)),
            ):
                worst = max(worst, measure(f"{players} players #{i + 1}: {who}", replay))
    print(f"slowest whole hand, worked out afresh: {worst:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
