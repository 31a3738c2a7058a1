"""Compiled loops behind :mod:`stud8.tools.equity` for any number of players (internal).

:func:`multi_level` enumerates every assignment of disjoint completions exactly: the
players but the last one by a depth-first walk, and for each of their assignments the
last player's completions in a tight loop that only sorts them into twelve classes
(his high above, equal to or below the best of the others; his low likewise, or nobody
with a low), which :func:`_distribute` then turns into every player's counts.
:func:`monte_carlo` deals random completions. The columns of ``stats`` and ``totals``
are described in :mod:`stud8.tools._equity_kernels`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from stud8.tools._equity_kernels import (
    EV,
    EV_SQ,
    HIGH_TIE,
    HIGH_WIN,
    LOW_TIE,
    LOW_WIN,
    N_STATS,
    NO_LOW,
    OUTCOMES,
    POT,
    SCOOP,
)
from stud8.tools.fasteval import hi_lo_of_key, jit

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
U32 = npt.NDArray[np.uint32]
U16 = npt.NDArray[np.uint16]
I32 = npt.NDArray[np.int32]
I16 = npt.NDArray[np.int16]
I8 = npt.NDArray[np.int8]

HALF = POT // 2


@jit()
def _credit(
    stats: I64,
    p: int,
    count: int,
    high: bool,
    n_high: int,
    low: bool,
    n_low: int,
    no_low: bool,
) -> None:  # pragma: no cover - compiled
    """Add ``count`` outcomes where player ``p`` wins (or ties) these halves."""
    share = 0
    if high:
        share = (POT if no_low else HALF) // n_high
        if n_high == 1:
            stats[p, HIGH_WIN] += count
        else:
            stats[p, HIGH_TIE] += count
    if low:
        share += HALF // n_low
        if n_low == 1:
            stats[p, LOW_WIN] += count
        else:
            stats[p, LOW_TIE] += count
    stats[p, EV] += count * share
    if share == POT:
        stats[p, SCOOP] += count


@jit()
def _distribute(
    cat: I64,
    n_players: int,
    rest_high: npt.NDArray[np.bool_],
    n_rest_high: int,
    rest_low: npt.NDArray[np.bool_],
    n_rest_low: int,
    stats: I64,
    totals: I64,
) -> None:  # pragma: no cover - compiled
    """Credit the last player's twelve classes of completions against the others."""
    last = n_players - 1
    for hc in range(3):
        for lc in range(4):
            count = cat[hc * 4 + lc]
            if count == 0:
                continue
            totals[OUTCOMES] += count
            no_low = lc == 3
            if no_low:
                totals[NO_LOW] += count
            last_high = hc <= 1  # above or equal
            others_high = hc >= 1  # equal or below
            n_high = int(last_high) + (n_rest_high if others_high else 0)
            last_low = lc <= 1
            others_low = lc == 1 or lc == 2
            n_low = 0 if no_low else int(last_low) + (n_rest_low if others_low else 0)
            _credit(stats, last, count, last_high, n_high, last_low and not no_low, n_low, no_low)
            for p in range(last):
                high = others_high and rest_high[p]
                low = others_low and rest_low[p]
                if high or low:
                    _credit(stats, p, count, high, n_high, low, n_low, no_low)


@jit()
def multi_level(
    first: int,
    last: int,
    offsets: I64,
    comp_h: I16,
    comp_l: I8,
    comp_m: U64,
    stats: I64,
    totals: I64,
) -> None:  # pragma: no cover - compiled
    """Every outcome where player 0's completion index is in ``[first, last)``.

    Player ``p``'s completions are ``offsets[p]`` to ``offsets[p + 1]`` of the flat
    arrays (high, low, mask of pool positions).
    """
    n = len(offsets) - 1
    idx = np.zeros(n, dtype=np.int64)
    used = np.zeros(n, dtype=np.uint64)
    cat = np.zeros(12, dtype=np.int64)
    rest_high = np.zeros(n, dtype=np.bool_)
    rest_low = np.zeros(n, dtype=np.bool_)
    lvl = 0
    idx[0] = first
    while True:
        end = last if lvl == 0 else offsets[lvl + 1]
        m = used[lvl]
        i = idx[lvl]
        while i < end and (comp_m[i] & m) != 0:
            i += 1
        idx[lvl] = i
        if i >= end:
            if lvl == 0:
                break
            lvl -= 1
            idx[lvl] += 1
            continue
        if lvl < n - 2:
            used[lvl + 1] = m | comp_m[i]
            lvl += 1
            idx[lvl] = offsets[lvl]
            continue
        # players 0..n-2 are dealt: the best high and low among them
        mm = m | comp_m[i]
        best_h = -1
        best_l = 0
        for r in range(n - 1):
            h = comp_h[idx[r]]
            lo = comp_l[idx[r]]
            if h > best_h:
                best_h = h
            if lo > best_l:
                best_l = lo
        n_high = 0
        n_low = 0
        for r in range(n - 1):
            rest_high[r] = comp_h[idx[r]] == best_h
            rest_low[r] = best_l > 0 and comp_l[idx[r]] == best_l
            n_high += rest_high[r]
            n_low += rest_low[r]
        cat[:] = 0
        lo_none = best_l == 0
        j = np.uint64(offsets[n - 1])
        j_end = np.uint64(offsets[n])
        while j < j_end:  # unsigned indexes: no negative-index checks in the tight loop
            if comp_m[j] & mm == 0:
                # classes without branches: 0 above, 1 equal, 2 below; low 3 = nobody
                h = comp_h[j]
                lo = comp_l[j]
                hc = np.int64(h < best_h) + np.int64(h <= best_h)
                lc = (
                    np.int64(lo < best_l)
                    + np.int64(lo <= best_l)
                    + 2 * np.int64(lo_none & (lo == 0))
                )
                cat[hc * 4 + lc] += 1
            j += np.uint64(1)
        _distribute(cat, n, rest_high, n_high, rest_low, n_low, stats, totals)
        idx[lvl] += 1


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)


@jit(inline="always")
def _split_mix(state: np.uint64) -> tuple[np.uint64, np.uint64]:  # pragma: no cover
    """SplitMix64: (the next state, a random 64-bit number)."""
    state += _GOLDEN
    z = state
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return state, z ^ (z >> _S31)


@jit()
def monte_carlo(
    trials: int,
    state: U64,
    pool_codes: I32,
    draws: I64,
    base_key: U64,
    base_bits: U64,
    community: bool,
    card_key: U64,
    card_bit: U64,
    row: U32,
    col: U16,
    hilo: U32,
    flush: U16,
    hist: I64,
) -> None:  # pragma: no cover - compiled
    """``trials`` random deals: player ``p`` draws ``draws[p]`` cards (then the shared
    community card, if any) from the pool. ``state[0]``, the generator's, is carried on.

    Each deal adds one to ``hist[high << n | low]``, where ``high`` has a bit for each
    player with the best high and ``low`` one for each with the best low (0: no low);
    :func:`histogram_stats` turns that into the players' counts. (Indexes are unsigned:
    numba then checks no negative index, which counts here.)
    """
    n = len(draws)
    deck = pool_codes.astype(np.uint8)
    size = np.uint64(len(deck))
    ends = np.zeros(n, dtype=np.uint64)
    total = np.uint64(0)
    for p in range(n):
        total += np.uint64(draws[p])
        ends[p] = total
    if community:
        total += _ONE
    his = np.zeros(n, dtype=np.int64)
    los = np.zeros(n, dtype=np.int64)
    rng = state[0]
    for _ in range(trials):
        # a partial Fisher-Yates shuffle, two draws from each 64-bit random number
        d = np.uint64(0)
        while d < total:
            rng, r = _split_mix(rng)
            j = d + (((r >> _S32) * (size - d)) >> _S32)
            c = deck[j]
            deck[j] = deck[d]
            deck[d] = c
            d += _ONE
            if d < total:
                j = d + (((r & _LOW32) * (size - d)) >> _S32)
                c = deck[j]
                deck[j] = deck[d]
                deck[d] = c
                d += _ONE
        shared_key = np.uint64(0)
        shared_bits = np.uint64(0)
        if community:
            c = deck[total - _ONE]
            shared_key = card_key[c]
            shared_bits = card_bit[c]
        q = np.uint64(0)
        best_h: Any = 0
        best_l: Any = 0
        for p in range(n):
            key = base_key[p] + shared_key
            bits = base_bits[p] | shared_bits
            end = ends[p]
            while q < end:
                c = deck[q]
                q += _ONE
                key += card_key[c]
                bits |= card_bit[c]
            h, lo = hi_lo_of_key(key, bits, row, col, hilo, flush)
            his[p] = h
            los[p] = lo
            best_h = max(best_h, np.int64(h))
            best_l = max(best_l, np.int64(lo))
        high: Any = 0
        low: Any = 0
        for p in range(n):
            high |= np.int64(his[p] == best_h) << p
            low |= np.int64(los[p] == best_l) << p
        if best_l == 0:
            low = 0
        hist[(high << n) | low] += 1
    state[0] = rng


def histogram_stats(hist: I64, n: int) -> tuple[list[list[int]], list[int]]:
    """The players' counts (with the squared shares) and the totals from the histogram."""
    stats = np.zeros((n, N_STATS), dtype=np.int64)
    totals = [0, 0]
    for index in np.flatnonzero(hist).tolist():
        count = int(hist[index])
        high, low = index >> n, index & ((1 << n) - 1)
        n_high, n_low = high.bit_count(), low.bit_count()
        totals[OUTCOMES] += count
        if not low:
            totals[NO_LOW] += count
        for p in range(n):
            wins_high, wins_low = high >> p & 1, low >> p & 1
            share = 0
            if wins_high:
                share = (POT if not low else HALF) // n_high
                stats[p, HIGH_WIN if n_high == 1 else HIGH_TIE] += count
            if wins_low:
                share += HALF // n_low
                stats[p, LOW_WIN if n_low == 1 else LOW_TIE] += count
            stats[p, EV] += count * share
            stats[p, EV_SQ] += count * share * share
            if share == POT:
                stats[p, SCOOP] += count
    return [[int(x) for x in s] for s in stats], totals
