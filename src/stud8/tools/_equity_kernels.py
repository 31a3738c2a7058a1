"""Compiled loops behind :mod:`stud8.tools.equity` (internal).

Cards still to come are drawn from a *pool* (the cards nobody has seen), numbered by
position 0..R-1. A player's *completion* is the set of pool positions that complete his
hand (his unknown down cards and his cards to come); completions of ``k`` cards are
numbered in colex order: the set ``s_0 < s_1 < ... < s_{k-1}`` has the index
``sum(C(s_j, j + 1))``.

Results are counted in whole numbers. Per player, the columns of ``stats`` are: the
share of the pot in units of 1/:data:`POT` (a pot split 1 to 8 ways is a whole number
of units), high win (alone), high tie, low win (alone), low tie, scoop (the whole pot
alone) and, for Monte Carlo, the sum of the squared shares. ``totals`` holds the number
of outcomes and of outcomes where nobody has a qualifying low.

Heads-up, exactly (:func:`pair_level`). The disjoint pairs of completions are counted
by inclusion-exclusion: the sum over disjoint pairs of a statistic is the sum over
every set ``T`` of pool positions of ``(-1)^|T|`` times its sum over *all* pairs of
completions that both contain ``T``. For each ``T`` that is a product of two groups,
counted from histograms (or directly when the groups are small), never pair by pair:
eleven counts per group pair (:data:`PAIR_FIELDS`) give every statistic.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from stud8.tools.fasteval import hi_lo_of_key, jit

POT = 1680  # 2 * lcm(1..8): each half of a pot split 1..8 ways is whole
EV, HIGH_WIN, HIGH_TIE, LOW_WIN, LOW_TIE, SCOOP, EV_SQ = range(7)
N_STATS = 7
OUTCOMES, NO_LOW = range(2)

# The counts of a group pair, summed over pairs (a, b): all pairs, high a > b, high
# a = b, the same two for the pairs where neither has a low, pairs where neither has a
# low, low a > b (b maybe none), low b > a, low a = b > 0, and the "scoop" pairs:
# high and low a > b, high and low b > a.
(P_ALL, P_HGT, P_HEQ, P_HGT00, P_HEQ00, P_N00, P_LGT, P_LLT, P_LEQ, P_SA, P_SB) = range(11)
PAIR_FIELDS = 11
HIST = 8192  # > the highest high strength, 7,462
LOWS = 57  # low strengths 0 (none) .. 56

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
U32 = npt.NDArray[np.uint32]
U16 = npt.NDArray[np.uint16]
I32 = npt.NDArray[np.int32]


def binomials(n: int = 53, k: int = 9) -> I64:
    """``C[i, j]`` for 0 <= i < n, 0 <= j < k."""
    table = np.zeros((n, k), dtype=np.int64)
    for i in range(n):
        table[i, 0] = 1
        for j in range(1, min(i, k - 1) + 1):
            table[i, j] = table[i - 1, j - 1] + (table[i - 1, j] if j < i else 0)
    return table


@jit()
def next_colex(s: I64, k: int, limit: int) -> bool:  # pragma: no cover - compiled
    """Step ``s[:k]`` (ascending, values below ``limit``) to the next set; False at the end."""
    j = 0
    while j < k:
        nxt = s[j + 1] if j + 1 < k else limit
        if s[j] + 1 < nxt:
            s[j] += 1
            for q in range(j):
                s[q] = q
            return True
        j += 1
    return False


@jit()
def unrank_colex(rank: int, k: int, binom: I64, s: I64) -> None:  # pragma: no cover
    """The ``k``-set with this colex index, into ``s[:k]``."""
    r = rank
    for j in range(k - 1, -1, -1):
        x = j
        while binom[x + 1, j + 1] <= r:
            x += 1
        s[j] = x
        r -= binom[x, j + 1]


@jit()
def completions(
    pool_codes: I32,
    k: int,
    base_key: np.uint64,
    base_bits: np.uint64,
    card_key: U64,
    card_bit: U64,
    row: U32,
    col: U16,
    hilo: U32,
    flush: U16,
    out_hi: npt.NDArray[np.int16],
    out_lo: npt.NDArray[np.int8],
    out_mask: U64,
    with_mask: bool,
) -> None:  # pragma: no cover - compiled
    """(high, low, pool-position mask) of every ``k``-card completion, in colex order
    (the masks only ``with_mask``; else ``out_mask`` may be a single slot)."""
    limit = len(pool_codes)
    s = np.arange(max(k, 1), dtype=np.int64)
    idx = 0
    while True:
        key = base_key
        bits = base_bits
        mask = np.uint64(0)
        for j in range(k):
            c = pool_codes[s[j]]
            key += card_key[c]
            bits |= card_bit[c]
            mask |= np.uint64(1) << np.uint64(s[j])
        hi, lo = hi_lo_of_key(key, bits, row, col, hilo, flush)
        out_hi[idx] = hi
        out_lo[idx] = lo
        if with_mask:
            out_mask[idx] = mask
        idx += 1
        if not next_colex(s, k, limit):
            break


# ---------------------------------------------------------------------------------------
# Heads-up: counts over a pair of groups.


@jit()
def _pairs_direct(
    ah: npt.NDArray[np.int16],
    al: npt.NDArray[np.int8],
    na: int,
    bh: npt.NDArray[np.int16],
    bl: npt.NDArray[np.int8],
    nb: int,
    out: I64,
) -> None:  # pragma: no cover - compiled
    hgt = heq = hgt00 = heq00 = n00 = lgt = llt = leq = sa = sb = 0
    for i in range(na):
        ha = ah[i]
        la = al[i]
        for j in range(nb):
            hb = bh[j]
            lb = bl[j]
            g = ha > hb
            e = ha == hb
            hgt += g
            heq += e
            if la == 0 and lb == 0:
                n00 += 1
                hgt00 += g
                heq00 += e
            else:
                lg = la > lb
                ll = la < lb
                lgt += lg
                llt += ll
                leq += la == lb
                sa += g and lg
                sb += ha < hb and ll
    out[P_ALL] += na * nb
    out[P_HGT] += hgt
    out[P_HEQ] += heq
    out[P_HGT00] += hgt00
    out[P_HEQ00] += heq00
    out[P_N00] += n00
    out[P_LGT] += lgt
    out[P_LLT] += llt
    out[P_LEQ] += leq
    out[P_SA] += sa
    out[P_SB] += sb


@jit()
def _fenwick_add(tree: I64, i: int) -> None:  # pragma: no cover - compiled
    i += 1
    while i < HIST:
        tree[i] += 1
        i += i & -i


@jit()
def _fenwick_below(tree: I64, i: int) -> int:  # pragma: no cover - compiled
    """How many added values are below ``i``."""
    total = 0
    while i > 0:
        total += tree[i]
        i -= i & -i
    return total


@jit()
def _pairs_hist(
    ah: npt.NDArray[np.int16],
    al: npt.NDArray[np.int8],
    na: int,
    bh: npt.NDArray[np.int16],
    bl: npt.NDArray[np.int8],
    nb: int,
    out: I64,
    work: I64,
    order_a: I64,
    order_b: I64,
) -> None:  # pragma: no cover - compiled
    """:func:`_pairs_direct` in O(n log n): histograms, and a sweep over the lows."""
    work[:] = 0
    cnt_b = work[0:HIST]
    cnt_b00 = work[HIST : 2 * HIST]
    tree_a = work[2 * HIST : 3 * HIST]
    tree_b = work[3 * HIST : 4 * HIST]
    lo_b = work[4 * HIST : 4 * HIST + LOWS]
    lo_a = work[4 * HIST + LOWS : 4 * HIST + 2 * LOWS]
    start_a = work[4 * HIST + 2 * LOWS : 4 * HIST + 3 * LOWS + 1]
    start_b = work[4 * HIST + 3 * LOWS + 1 : 4 * HIST + 4 * LOWS + 2]
    for j in range(nb):
        cnt_b[bh[j]] += 1
        lo_b[bl[j]] += 1
        if bl[j] == 0:
            cnt_b00[bh[j]] += 1
    for i in range(na):
        lo_a[al[i]] += 1
    # counts -> number below (exclusive prefix sums), keeping the counts for ties
    below_b = tree_a  # borrowed, reset before the sweep
    below_b00 = tree_b
    run = run00 = 0
    for h in range(HIST):
        below_b[h] = run
        below_b00[h] = run00
        run += cnt_b[h]
        run00 += cnt_b00[h]
    lo_below = 0
    lo_below_b = np.empty(LOWS, dtype=np.int64)
    for v in range(LOWS):
        lo_below_b[v] = lo_below
        lo_below += lo_b[v]
    hgt = heq = hgt00 = heq00 = lgt = llt = leq = 0
    for i in range(na):
        ha = ah[i]
        la = al[i]
        hgt += below_b[ha]
        heq += cnt_b[ha]
        if la == 0:
            hgt00 += below_b00[ha]
            heq00 += cnt_b00[ha]
        else:
            leq += lo_b[la]
        lgt += lo_below_b[la]
        llt += nb - lo_below_b[la] - lo_b[la]
    n00 = lo_a[0] * lo_b[0]
    # Both high and low a > b (and b > a): sweep the lows upwards with a Fenwick tree of
    # the highs of the hands already passed, on each side.
    tree_a[:] = 0
    tree_b[:] = 0
    pos = 0
    for v in range(LOWS):
        start_a[v] = pos
        pos += lo_a[v]
    start_a[LOWS] = pos
    pos = 0
    for v in range(LOWS):
        start_b[v] = pos
        pos += lo_b[v]
    start_b[LOWS] = pos
    fill_a = start_a[:LOWS].copy()
    fill_b = start_b[:LOWS].copy()
    for i in range(na):
        order_a[fill_a[al[i]]] = i
        fill_a[al[i]] += 1
    for j in range(nb):
        order_b[fill_b[bl[j]]] = j
        fill_b[bl[j]] += 1
    sa = sb = 0
    for v in range(LOWS):
        if v > 0:
            for q in range(start_a[v], start_a[v + 1]):
                sa += _fenwick_below(tree_b, ah[order_a[q]])
            for q in range(start_b[v], start_b[v + 1]):
                sb += _fenwick_below(tree_a, bh[order_b[q]])
        for q in range(start_a[v], start_a[v + 1]):
            _fenwick_add(tree_a, ah[order_a[q]])
        for q in range(start_b[v], start_b[v + 1]):
            _fenwick_add(tree_b, bh[order_b[q]])
    out[P_ALL] += na * nb
    out[P_HGT] += hgt
    out[P_HEQ] += heq
    out[P_HGT00] += hgt00
    out[P_HEQ00] += heq00
    out[P_N00] += n00
    out[P_LGT] += lgt
    out[P_LLT] += llt
    out[P_LEQ] += leq
    out[P_SA] += sa
    out[P_SB] += sb


WORK_SIZE = 4 * HIST + 4 * LOWS + 2
DIRECT_MAX = 24_000  # group pairs with at most this many pairs are counted directly


@jit()
def _group(
    t_set: I64,
    t: int,
    k: int,
    limit: int,
    binom: I64,
    src_h: npt.NDArray[np.int16],
    src_l: npt.NDArray[np.int8],
    dst_h: npt.NDArray[np.int16],
    dst_l: npt.NDArray[np.int8],
    others: I64,
    u: I64,
) -> int:  # pragma: no cover - compiled
    """Gather the values of the ``k``-completions containing the set ``t_set[:t]``."""
    n_others = 0
    q = 0
    for x in range(limit):
        if q < t and t_set[q] == x:
            q += 1
        else:
            others[n_others] = x
            n_others += 1
    m = k - t
    for j in range(m):
        u[j] = j
    count = 0
    while True:
        # merge T and U (both ascending) into the colex index of their union
        rank = 0
        i = 0
        j = 0
        pos = 1
        while i < t or j < m:
            if j >= m or (i < t and t_set[i] < others[u[j]]):
                rank += binom[t_set[i], pos]
                i += 1
            else:
                rank += binom[others[u[j]], pos]
                j += 1
            pos += 1
        dst_h[count] = src_h[rank]
        dst_l[count] = src_l[rank]
        count += 1
        if not next_colex(u, m, n_others):
            break
    return count


@jit()
def pair_level(
    t: int,
    first: int,
    last: int,
    limit: int,
    ka: int,
    kb: int,
    a_h: npt.NDArray[np.int16],
    a_l: npt.NDArray[np.int8],
    b_h: npt.NDArray[np.int16],
    b_l: npt.NDArray[np.int8],
    binom: I64,
    acc: I64,
) -> None:  # pragma: no cover - compiled
    """Add the pair counts of the groups of every ``t``-set with colex index in
    ``[first, last)``, with the sign ``(-1)^t``, to ``acc``."""
    sign = -1 if t & 1 else 1
    out = np.zeros(PAIR_FIELDS, dtype=np.int64)
    if t == 0:
        _pairs_any(a_h, a_l, len(a_h), b_h, b_l, len(b_h), out)
        for f in range(PAIR_FIELDS):
            acc[f] += out[f]
        return
    size_a = binom[limit - t, ka - t]
    size_b = binom[limit - t, kb - t]
    ga_h = np.empty(size_a, dtype=np.int16)
    ga_l = np.empty(size_a, dtype=np.int8)
    gb_h = np.empty(size_b, dtype=np.int16)
    gb_l = np.empty(size_b, dtype=np.int8)
    others = np.empty(limit, dtype=np.int64)
    u = np.zeros(max(ka, kb) + 1, dtype=np.int64)
    t_set = np.zeros(t + 1, dtype=np.int64)
    unrank_colex(first, t, binom, t_set)
    work = np.empty(WORK_SIZE, dtype=np.int64)
    order_a = np.empty(size_a, dtype=np.int64)
    order_b = np.empty(size_b, dtype=np.int64)
    for _ in range(first, last):
        na = _group(t_set, t, ka, limit, binom, a_h, a_l, ga_h, ga_l, others, u)
        nb = _group(t_set, t, kb, limit, binom, b_h, b_l, gb_h, gb_l, others, u)
        if na * nb <= DIRECT_MAX:
            _pairs_direct(ga_h, ga_l, na, gb_h, gb_l, nb, out)
        else:
            _pairs_hist(ga_h, ga_l, na, gb_h, gb_l, nb, out, work, order_a, order_b)
        next_colex(t_set, t, limit)
    for f in range(PAIR_FIELDS):
        acc[f] += sign * out[f]


@jit()
def _pairs_any(
    ah: npt.NDArray[np.int16],
    al: npt.NDArray[np.int8],
    na: int,
    bh: npt.NDArray[np.int16],
    bl: npt.NDArray[np.int8],
    nb: int,
    out: I64,
) -> None:  # pragma: no cover - compiled
    if na * nb <= DIRECT_MAX:
        _pairs_direct(ah, al, na, bh, bl, nb, out)
    else:
        work = np.empty(WORK_SIZE, dtype=np.int64)
        order_a = np.empty(na, dtype=np.int64)
        order_b = np.empty(nb, dtype=np.int64)
        _pairs_hist(ah, al, na, bh, bl, nb, out, work, order_a, order_b)


def pair_stats(acc: npt.NDArray[np.int64]) -> tuple[list[list[int]], list[int]]:
    """Per-player stats and the totals of two players from the summed pair counts."""
    p = [int(x) for x in acc]
    hlt = p[P_ALL] - p[P_HGT] - p[P_HEQ]
    hlt00 = p[P_N00] - p[P_HGT00] - p[P_HEQ00]
    quarter = POT // 4
    a_ev = 2 * p[P_HGT] + p[P_HEQ] + 2 * p[P_HGT00] + p[P_HEQ00] + 2 * p[P_LGT] + p[P_LEQ]
    b_ev = 2 * hlt + p[P_HEQ] + 2 * hlt00 + p[P_HEQ00] + 2 * p[P_LLT] + p[P_LEQ]
    a = [a_ev * quarter, p[P_HGT], p[P_HEQ], p[P_LGT], p[P_LEQ], p[P_HGT00] + p[P_SA], 0]
    b = [b_ev * quarter, hlt, p[P_HEQ], p[P_LLT], p[P_LEQ], hlt00 + p[P_SB], 0]
    return [a, b], [p[P_ALL], p[P_N00]]
