"""The batch evaluator gives exactly the engine's integers (``hi_lo_codes``)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from stud8.core.cards import parse_cards
from stud8.core.errors import CardError
from stud8.core.evaluate import hi_lo_codes
from stud8.tools.fasteval import batch_hi_lo, tables


def codes(text: str) -> list[int]:
    return [c.code for c in parse_cards(text)]


def random_hands(n: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :size].astype(np.uint8)


def test_every_five_card_hand() -> None:
    hands = np.array(list(combinations(range(52), 5)), dtype=np.uint8)
    assert len(hands) == 2_598_960
    high, low = batch_hi_lo(hands)
    expected = np.array([hi_lo_codes(h) for h in combinations(range(52), 5)], dtype=np.int32)
    assert np.array_equal(high, expected[:, 0])
    assert np.array_equal(low, expected[:, 1])
    # every value occurs: 7,462 highs (1..7462) and 56 lows plus "no low"
    assert np.array_equal(np.unique(high), np.arange(1, 7463))
    assert np.array_equal(np.unique(low), np.arange(0, 57))


def test_a_million_random_seven_card_hands() -> None:
    hands = random_hands(1_000_000, 7, seed=7)
    high, low = batch_hi_lo(hands)
    expected = np.array([hi_lo_codes(h) for h in hands.tolist()], dtype=np.int32)
    assert np.array_equal(high, expected[:, 0])
    assert np.array_equal(low, expected[:, 1])


def test_six_card_hands_and_other_layouts() -> None:
    hands = random_hands(20_000, 6, seed=6)
    high, low = batch_hi_lo(hands)
    expected = np.array([hi_lo_codes(h) for h in hands.tolist()], dtype=np.int32)
    assert np.array_equal(high, expected[:, 0]) and np.array_equal(low, expected[:, 1])
    seven = random_hands(5_000, 7, seed=8)
    want = batch_hi_lo(seven)
    for variant in (
        seven.astype(np.int64),
        seven.astype(np.int8),
        seven.astype(np.uint16),
        np.asfortranarray(seven),  # not C-contiguous: the generic kernel
        np.repeat(seven, 2, axis=1)[:, ::2],  # strided
        seven.tolist(),  # a plain list
    ):
        got = batch_hi_lo(variant)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_hands_that_matter() -> None:
    hands = [
        ("As 2s 3s 4s 5s Kd Kc", (7453, 56)),  # steel wheel, the best low
        ("Kd Ks 4c Kh 4s 2d 7c", (None, 0)),  # full house, no low
        ("Ah Kh Qh Jh Th 9h 8h", (7462, 0)),  # royal flush among seven hearts
        ("8c 7d 6h 5s 4c Kd Kh", (None, 1)),  # the worst qualifying low
        ("2c 2d 2h 2s 3c 3d 3h", (None, 0)),  # quads with trips
        ("Ac 2c 3c 4c 6d 7d 8d", (None, None)),  # flush with a low
    ]
    for text, (want_high, want_low) in hands:
        high, low = batch_hi_lo([codes(text)])
        assert (int(high[0]), int(low[0])) == hi_lo_codes(codes(text)), text
        if want_high is not None:
            assert high[0] == want_high, text
        if want_low is not None:
            assert low[0] == want_low, text


def test_output_arrays_and_empty_input() -> None:
    hands = random_hands(100, 7, seed=1)
    out_hi = np.zeros(100, dtype=np.int64)
    out_lo = np.zeros(100, dtype=np.int64)
    got = batch_hi_lo(hands, out=(out_hi, out_lo))
    assert got[0] is out_hi and got[1] is out_lo
    want = batch_hi_lo(hands)
    assert np.array_equal(out_hi, want[0]) and np.array_equal(out_lo, want[1])
    empty = batch_hi_lo(np.zeros((0, 7), dtype=np.uint8))
    assert empty[0].shape == (0,) and empty[1].shape == (0,)
    one = batch_hi_lo(codes("As 2s 3s 4s 5s Kd Kc"))  # a single hand, 1-D
    assert one[0].tolist() == [7453]
    with pytest.raises(ValueError, match="out must be"):
        batch_hi_lo(hands, out=(out_hi[:5], out_lo))


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ([0, 1, 2, 3, 4, 5, 52], "a code past the deck"),
        ([0, 1, 2, 3, 4, 5, 255], "the largest uint8"),
        ([0, 1, 2, 3, 4, 5, 5], "a card twice"),
        ([9, 9, 9, 9, 9, 9, 9], "one card seven times"),
        ([0, 1, 2, 3, 4, 5, -1], "a negative code"),
        ([0, 1, 2, 3, 4, 5, 256], "a code past a byte"),
        ([0, 1, 2, 3, 4, 5, 1 << 40], "a huge code"),
    ],
)
def test_bad_rows_are_named(bad: list[int], why: str) -> None:
    hands = random_hands(50, 7, seed=3).astype(np.int64)
    hands[17] = bad
    with pytest.raises(CardError, match=r"row 17 is not 7 distinct card codes") as info:
        batch_hi_lo(hands)
    assert isinstance(info.value, ValueError), why


def test_wrong_shapes() -> None:
    with pytest.raises(CardError, match="5 to 7 cards"):
        batch_hi_lo(np.zeros((3, 4), dtype=np.uint8))
    with pytest.raises(CardError, match="5 to 7 cards"):
        batch_hi_lo(np.zeros((3, 8), dtype=np.uint8))
    with pytest.raises(CardError, match="integer array"):
        batch_hi_lo(np.zeros((3, 7), dtype=np.float64))
    with pytest.raises(CardError, match="integer array"):
        batch_hi_lo(np.zeros((2, 3, 7), dtype=np.uint8))


def test_tables_are_a_minimal_perfect_hash() -> None:
    t = tables()
    # one slot per rank multiset of 0 to 7 cards, plus a margin, and no two multisets
    # of seven cards share a slot
    hands = random_hands(200_000, 7, seed=11)
    keys = np.zeros(len(hands), dtype=np.uint64)
    for j in range(7):
        keys += t.card_key[hands[:, j]]
    lane_a = (keys & np.uint64((1 << 17) - 1)).astype(np.int64)
    lane_b = ((keys >> np.uint64(17)) & np.uint64((1 << 14) - 1)).astype(np.int64)
    slots = t.row[lane_a].astype(np.int64) + t.col[lane_b].astype(np.int64)
    ranks = np.sort(hands >> 2, axis=1)
    by_slot: dict[int, bytes] = {}
    for slot, r in zip(slots.tolist(), ranks, strict=True):
        assert by_slot.setdefault(slot, r.tobytes()) == r.tobytes()
    assert len(t.hilo) < 80_000
