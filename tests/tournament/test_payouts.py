"""Payouts: the default by entries, given shares, integer prizes that sum to the pool."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stud8.tournament.payouts import (
    WHOLE,
    PayoutError,
    check_payouts,
    default_payouts,
    paid_places,
    prizes,
    share_prizes,
)


@pytest.mark.parametrize(
    ("entries", "shares"),
    [
        (2, (10000,)),
        (4, (10000,)),
        (5, (6500, 3500)),
        (6, (6500, 3500)),
        (9, (5000, 3000, 2000)),
        (10, (5000, 3000, 2000)),
    ],
)
def test_small_fields_pay_as_the_big_rooms(entries: int, shares: tuple[int, ...]) -> None:
    assert default_payouts(entries) == shares


@pytest.mark.parametrize(("entries", "places"), [(11, 3), (18, 3), (27, 4), (100, 15), (180, 27)])
def test_bigger_fields_pay_about_the_top_15_percent(entries: int, places: int) -> None:
    assert paid_places(entries) == places == len(default_payouts(entries))


@given(st.integers(1, 10_000))
def test_the_default_is_always_a_valid_payout(entries: int) -> None:
    shares = default_payouts(entries)
    check_payouts(shares)
    assert len(shares) <= max(1, entries)


@given(st.integers(0, 10**9), st.integers(1, 3000))
def test_prizes_are_integers_summing_exactly_to_the_pool(pool: int, entries: int) -> None:
    paid = prizes(pool, default_payouts(entries))
    assert sum(paid) == pool
    assert list(paid) == sorted(paid, reverse=True)


@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=8), st.integers(1, 8))
def test_a_shared_prize_is_split_in_whole_chips_odd_chips_first(
    place_prizes: list[int], tied: int
) -> None:
    split = share_prizes(place_prizes, tied)
    assert sum(split) == sum(place_prizes) and len(split) == tied
    assert max(split) - min(split) <= 1
    assert list(split) == sorted(split, reverse=True)  # the odd chips to the first


@pytest.mark.parametrize(
    ("shares", "says"),
    [
        ((), "at least one place"),
        ((5000, 5001), "place 2 (5001) is paid more"),
        ((9999,), "sum to 9999"),
        ((WHOLE, 0), "place 2's share"),
        ((5000.0, 5000), "place 1's share"),
    ],
)
def test_bad_shares_are_refused(shares: tuple[int, ...], says: str) -> None:
    with pytest.raises(PayoutError, match=None) as e:
        check_payouts(shares)
    assert says in str(e.value)


def test_bad_pools_and_entries_are_refused() -> None:
    with pytest.raises(PayoutError):
        prizes(-1, (WHOLE,))
    with pytest.raises(PayoutError):
        default_payouts(0)
    with pytest.raises(PayoutError):
        share_prizes((10,), 0)
