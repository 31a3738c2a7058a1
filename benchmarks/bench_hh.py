"""Reading and verifying hand histories: hands per second, stud8 beside PokerKit.

1. The real PokerStars Stud Hi/Lo hands of ``../shared/hh`` (10 hands), read and
   verified by stud8 again and again (``parse_text`` + ``verify_pokerstars``).
2. PHH: 300 six-handed hands played by the rule-based bots, written once as PHH
   text; then stud8 reads and verifies them (``read_phh`` + ``verify_phh``) and
   PokerKit 0.7 parses and replays the same texts (``HandHistory.loads`` and
   walking its states to the end), in the same run.

    python benchmarks/bench_hh.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path

from stud8.core import Deck, Hand, HeadsUpCap, TableRules
from stud8.formats.phh import hand_to_phh, read_phh
from stud8.formats.phh.verify import verify_phh
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.verify import verify_pokerstars
from stud8.tools.bots import BOTS
from stud8.tools.bots.base import play_hand

DATA = Path(__file__).resolve().parents[2] / "shared" / "hh"


def rate(work: Callable[[], int], seconds: float) -> float:
    """Hands per second of ``work`` (which returns how many hands it did): best of
    the rounds that fit in ``seconds``."""
    work()  # warm up
    best = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        t = time.perf_counter()
        n = work()
        best = max(best, n / (time.perf_counter() - t))
    return best


def pokerstars_texts() -> list[str]:
    return [p.read_bytes().decode("utf-8-sig") for p in sorted(DATA.glob("*.txt"))]


def phh_texts(count: int) -> list[str]:
    # The TDA heads-up cap, which PokerKit plays, so that it can replay these hands.
    rules = TableRules(
        ante=1, bring_in=2, small_bet=4, big_bet=8, heads_up_cap=HeadsUpCap.NEVER_LIFTED
    )
    rng = random.Random(7)
    texts = []
    for i in range(count):
        bots = {seat: BOTS["rules"](random.Random(rng.random())) for seat in range(1, 7)}
        hand = Hand.start(
            rules=rules, stacks=dict.fromkeys(range(1, 7), 200), deck=Deck.shuffled(rng)
        )
        play_hand(hand, bots)
        texts.append(hand_to_phh(hand, hand_id=str(i + 1)))
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()

    texts = pokerstars_texts()

    def stud8_pokerstars() -> int:
        n = 0
        for _ in range(20):
            for text in texts:
                for item in parse_text(text):
                    verdict = verify_pokerstars(item)  # type: ignore[arg-type]
                    assert verdict.reproduced
                    n += 1
        return n

    print("PokerStars text, the 10 real hands (read + verify):")
    print(f"  stud8     {rate(stud8_pokerstars, args.seconds):10,.0f} hands/s")

    phh = phh_texts(300)

    def stud8_phh() -> int:
        for i, text in enumerate(phh):
            assert verify_phh(read_phh(text, source=f"{i}.phh")).reproduced
        return len(phh)

    print("PHH, 300 six-handed bot hands (read + replay + check the stacks):")
    print(f"  stud8     {rate(stud8_phh, args.seconds):10,.0f} hands/s")
    try:
        from pokerkit import HandHistory
    except ImportError:
        print("  pokerkit  not installed (pip install pokerkit)")
        return

    def pokerkit_replays(text: str) -> bool:
        try:
            states = list(HandHistory.loads(text))
        except ValueError:  # one of PokerKit's known deviations (short all-ins, odd chips)
            return False
        return bool(states) and not states[-1].status

    # PokerKit is slow: 60 hands it can replay are enough
    few = [text for text in phh[:90] if pokerkit_replays(text)][:60]

    def pokerkit_phh() -> int:
        for text in few:
            *_, state = HandHistory.loads(text)  # parse and play the hand to its end
            assert not state.status
        return len(few)

    theirs = rate(pokerkit_phh, args.seconds)
    ours = rate(stud8_phh, args.seconds)
    print(f"  pokerkit  {theirs:10,.0f} hands/s")
    print(f"  ratio     {ours / theirs:10.1f} x")


if __name__ == "__main__":
    main()
