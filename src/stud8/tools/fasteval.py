"""Batch hi/lo evaluation at compiled speed (numpy + numba).

:func:`batch_hi_lo` evaluates arrays of 5-, 6- or 7-card hands given as card codes
(0 = 2c ... 51 = As, ``(rank - 2) * 4 + suit``, suits c d h s) and returns the same
integers as :func:`stud8.core.evaluate.hi_lo_codes`: the high strength (1 to 7,462)
and the 8-or-better low strength (1 to 56, 0 for no qualifying low), higher is better.

>>> import numpy as np
>>> from stud8.core.cards import parse_cards
>>> hands = np.array([[c.code for c in parse_cards("As 2s 3s 4s 5s Kd Kc")],
...                   [c.code for c in parse_cards("Kd Ks 4c Kh 4s 2d 7c")]], dtype=np.uint8)
>>> high, low = batch_hi_lo(hands)
>>> high.tolist(), low.tolist()
([7453, 7275], [56, 0])

How it works. Each card has a 64-bit key; the sum of a hand's keys holds, in separate
bit fields, the base-5 rank counts of the ranks 2 to 8 (bits 0-16), of the ranks 9 to
ace (bits 17-30) and a 4-bit count per suit biased by 3 (bits 32-47: a suit with five
cards or more sets the top bit of its field). The two rank fields index a minimal
perfect hash of the 76,000 rank multisets of at most seven cards: ``ROW[a] + COL[b]``,
where the multisets of the upper ranks are numbered by size, so that a row holds just
those that can join ``a``. That slot holds the high value of the hand without a flush
and its low (the low depends only on the ranks). A flush (rare) takes the 13-bit rank
mask of its suit, from the sum of one-bit-per-card masks, to an 8,192-entry table, and
the better of the two highs wins. A second mask sum catches a card given twice.

The tables are built on first use (about a second, from :mod:`stud8.core._tables`, the
engine's own tables); the numba functions compile on first use and are cached on disk.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.extending import intrinsic

from stud8.core import _tables
from stud8.core.errors import CardError
from stud8.core.rules import Game

__all__ = [
    "EvalTables",
    "as_hands",
    "batch_hi_lo",
    "game_tables",
    "hi_lo_of_key",
    "jit",
    "popcount",
    "tables",
    "trailing_zeros",
]

IntArray = npt.NDArray[np.integer[Any]]
F = TypeVar("F", bound=Callable[..., Any])


def jit(*, inline: Literal["never", "always"] = "never") -> Callable[[F], F]:
    """``numba.njit(cache=True, nogil=True)`` that keeps the function's type for mypy."""
    return cast(Callable[[F], F], njit(cache=True, nogil=True, inline=inline))


#: Bits of the summed card key.
LANE_B_SHIFT = 17
LANE_A_MASK = (1 << LANE_B_SHIFT) - 1
LANE_B_MASK = (1 << 14) - 1
SUIT_SHIFT = 32
#: The starting key: a bias of 3 in each suit's 4-bit count (five cards set bit 3).
KEY_BASE = 0x3333 << SUIT_SHIFT
FLUSH_BITS = 0x8888 << SUIT_SHIFT

_SPLIT = 7  # ranks 2..8 (indexes 0..6) in lane A, 9..A (7..12) in lane B


@dataclass(frozen=True, slots=True, eq=False)
class EvalTables:
    """The lookup tables (numpy arrays) that the compiled functions take as arguments.

    ``card_key[c]`` and ``card_bit[c]`` for ``c`` from 0 to 255 (0 for the invalid codes
    52 to 255, which then show as a missing card); ``hilo[row[a] + col[b]]`` is
    ``high | low << 16`` for the two rank fields ``a`` and ``b`` of a key sum (both
    tables cover their whole field, 0 where no multiset of seven cards or fewer lands);
    ``flush[mask]`` is the best high of one suit's 13-bit rank mask (0 for fewer than
    five cards).
    """

    card_key: npt.NDArray[np.uint64]
    card_bit: npt.NDArray[np.uint64]
    row: npt.NDArray[np.uint32]
    col: npt.NDArray[np.uint16]
    hilo: npt.NDArray[np.uint32]
    flush: npt.NDArray[np.uint16]


def _multisets(ranks: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(key, size) of every count vector over ``ranks`` ranks, each 0..4, size <= 7."""
    keys = np.arange(5**ranks, dtype=np.int64)
    digits = keys[:, None] // (5 ** np.arange(ranks, dtype=np.int64)) % 5
    sizes = digits.sum(axis=1)
    keep = sizes <= 7
    return keys[keep], sizes[keep]


def _build() -> EvalTables:
    raw = _tables.Tables()
    card_key = np.zeros(256, dtype=np.uint64)
    card_bit = np.zeros(256, dtype=np.uint64)
    for code in range(52):
        idx, suit = code >> 2, code & 3
        lane = 5**idx if idx < _SPLIT else 5 ** (idx - _SPLIT) << LANE_B_SHIFT
        card_key[code] = lane + (1 << (SUIT_SHIFT + 4 * suit))
        card_bit[code] = 1 << (13 * suit + idx)

    keys_a, sizes_a = _multisets(_SPLIT)
    keys_b, sizes_b = _multisets(13 - _SPLIT)
    order = np.lexsort((keys_b, sizes_b))  # by size, then key
    keys_b, sizes_b = keys_b[order], sizes_b[order]
    col = np.zeros(LANE_B_MASK + 1, dtype=np.uint16)
    col[keys_b] = np.arange(len(keys_b))
    b_upto = np.searchsorted(sizes_b, np.arange(8), side="right")  # B multisets of size <= s
    lengths = b_upto[7 - sizes_a]
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    row = np.zeros(LANE_A_MASK + 1, dtype=np.uint32)
    row[keys_a] = starts
    total = int(lengths.sum())

    # One slot per (a, b) with size(a) + size(b) <= 7, plus a margin that keeps any
    # ``row[a] + col[b]`` (even of a bad hand's key) inside the table.
    full_keys = np.full(total + len(keys_b), -1, dtype=np.int64)
    for key_a, start, length in zip(
        keys_a.tolist(), starts.tolist(), lengths.tolist(), strict=True
    ):
        full_keys[start : start + length] = key_a + keys_b[:length] * 5**_SPLIT
    _SLOT_KEYS.append(full_keys)
    hilo = _slots(full_keys, raw.high) | _slots(full_keys, raw.low) << np.uint32(16)
    flush = np.array(raw.flush, dtype=np.uint16)
    return EvalTables(card_key, card_bit, row, col, hilo, flush)


def _slots(full_keys: npt.NDArray[np.int64], values: dict[int, int]) -> npt.NDArray[np.uint32]:
    """Each slot's value in ``values`` (by rank key), 0 for a slot of no 5 to 7 cards."""
    known = np.array(sorted(values), dtype=np.int64)
    by_key = np.array([values[k] for k in known.tolist()], dtype=np.uint32)
    where = np.searchsorted(known, full_keys).clip(0, len(known) - 1)
    found = known[where] == full_keys  # multisets of 5 to 7 cards; smaller ones stay 0
    return np.where(found, by_key[where], 0).astype(np.uint32)


def _build_game(game: Game) -> EvalTables:
    """The tables of ``game`` whose "high" is what wins its pot and whose low is 0.

    Seven Card Stud: the high, no low (so the high takes the whole pot). Razz: the
    ace-to-five low's strength (higher is better) in the high's place, no flush
    (straights and flushes do not count in razz: it depends on the ranks alone)."""
    base = tables()
    if game is Game.STUD_HIGH:
        hilo = (base.hilo & np.uint32(0xFFFF)).astype(np.uint32)
        return EvalTables(base.card_key, base.card_bit, base.row, base.col, hilo, base.flush)
    razz = _slots(_SLOT_KEYS[0], _tables.RazzTables().strength)
    no_flush = np.zeros_like(base.flush)
    return EvalTables(base.card_key, base.card_bit, base.row, base.col, razz, no_flush)


_LOCK = threading.Lock()
_TABLES: list[EvalTables] = []
_SLOT_KEYS: list[npt.NDArray[np.int64]] = []  # each hilo slot's rank key (-1: none)
_GAME_TABLES: dict[Game, EvalTables] = {}


def tables() -> EvalTables:
    """The evaluation tables, built on first use."""
    if not _TABLES:
        with _LOCK:
            if not _TABLES:
                _TABLES.append(_build())
    return _TABLES[0]


def game_tables(game: Game) -> EvalTables:
    """The tables that evaluate ``game``'s showdown with the same kernels: Stud Hi/Lo's
    are :func:`tables`; Seven Card Stud's have no low; Razz's "high" is the ace-to-five
    low's strength (1 to 6,175, higher is better) and they have no low. Built on first
    use (Razz's in about a second)."""
    if game is Game.STUD_HI_LO:
        return tables()
    found = _GAME_TABLES.get(game)
    if found is None:
        tables()
        with _LOCK:
            found = _GAME_TABLES.get(game)
            if found is None:
                found = _GAME_TABLES[game] = _build_game(game)
    return found


# ---------------------------------------------------------------------------------------
# Compiled kernels.


def _popcount(typingctx: Any, x: Any) -> Any:  # pragma: no cover - compiled
    sig = types.int64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


def _trailing_zeros(typingctx: Any, x: Any) -> Any:  # pragma: no cover - compiled
    sig = types.int64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return sig, codegen


#: The number of set bits of a 64-bit integer (one instruction), in compiled code.
popcount = cast(Callable[[Any], int], intrinsic(_popcount))
#: The index of the lowest set bit of a non-zero 64-bit integer, in compiled code.
trailing_zeros = cast(Callable[[Any], int], intrinsic(_trailing_zeros))


# ``key`` is KEY_BASE plus the card keys of a hand, ``bits`` the OR of its card bits.

_U0 = np.uint64(0)
_U8 = np.uint64(8)
_U255 = np.uint64(255)


@jit(inline="always")
def hi_lo_of_key(
    key: np.uint64,
    bits: np.uint64,
    row: npt.NDArray[np.uint32],
    col: npt.NDArray[np.uint16],
    hilo: npt.NDArray[np.uint32],
    flush: npt.NDArray[np.uint16],
) -> tuple[np.uint32, np.uint32]:  # pragma: no cover - compiled
    """(high, low) of a hand of 5 to 7 distinct cards from its key and bits.

    No branch: when no suit has five cards, the flush lookup reads the spades' mask,
    which then has fewer than five cards and a flush value of 0.
    """
    v = hilo[
        np.uint64(row[key & np.uint64(LANE_A_MASK)])
        + np.uint64(col[(key >> np.uint64(LANE_B_SHIFT)) & np.uint64(LANE_B_MASK)])
    ]
    f = (key & np.uint64(FLUSH_BITS)) | np.uint64(1 << 63)
    suit = ((trailing_zeros(f) - (SUIT_SHIFT + 3)) >> 2) & 3
    fh = np.uint32(flush[(bits >> np.uint64(13 * suit)) & np.uint64(0x1FFF)])
    return max(v & np.uint32(0xFFFF), fh), v >> np.uint32(16)


@jit()
def _batch7(
    hands: IntArray,
    card_key: npt.NDArray[np.uint64],
    card_bit: npt.NDArray[np.uint64],
    row: npt.NDArray[np.uint32],
    col: npt.NDArray[np.uint16],
    hilo: npt.NDArray[np.uint32],
    flush: npt.NDArray[np.uint16],
    out_hi: IntArray,
    out_lo: IntArray,
) -> int:  # pragma: no cover - compiled
    """Evaluate every row of a C-contiguous (n, 7) array; non-zero if a row is bad.

    A code outside 0..255 sets a bit above the low byte; one from 52 to 255, or a card
    given twice, leaves fewer than seven card bits. Bad rows still read inside the
    tables (see :class:`EvalTables`); the caller finds them and raises.
    """
    n = hands.shape[0]
    flat = hands.ravel()
    err = 0
    for i in range(n):
        b = 7 * i
        c0 = np.uint64(flat[b])
        c1 = np.uint64(flat[b + 1])
        c2 = np.uint64(flat[b + 2])
        c3 = np.uint64(flat[b + 3])
        c4 = np.uint64(flat[b + 4])
        c5 = np.uint64(flat[b + 5])
        c6 = np.uint64(flat[b + 6])
        high_bits = (c0 | c1 | c2 | c3 | c4 | c5 | c6) >> _U8
        c0 &= _U255
        c1 &= _U255
        c2 &= _U255
        c3 &= _U255
        c4 &= _U255
        c5 &= _U255
        c6 &= _U255
        key = (
            np.uint64(KEY_BASE)
            + card_key[c0]
            + card_key[c1]
            + card_key[c2]
            + card_key[c3]
            + card_key[c4]
            + card_key[c5]
            + card_key[c6]
        )
        bits = (
            card_bit[c0]
            | card_bit[c1]
            | card_bit[c2]
            | card_bit[c3]
            | card_bit[c4]
            | card_bit[c5]
            | card_bit[c6]
        )
        hi, lo = hi_lo_of_key(key, bits, row, col, hilo, flush)
        out_hi[i] = hi
        out_lo[i] = lo
        err |= (popcount(bits) ^ 7) | (high_bits != _U0)
    return err


@jit()
def _batch_any(
    hands: IntArray,
    card_key: npt.NDArray[np.uint64],
    card_bit: npt.NDArray[np.uint64],
    row: npt.NDArray[np.uint32],
    col: npt.NDArray[np.uint16],
    hilo: npt.NDArray[np.uint32],
    flush: npt.NDArray[np.uint16],
    out_hi: IntArray,
    out_lo: IntArray,
) -> int:  # pragma: no cover - compiled
    """:func:`_batch7` for rows of 5 to 7 cards, any layout."""
    n, m = hands.shape
    err = 0
    for i in range(n):
        key = np.uint64(KEY_BASE)
        bits = _U0
        high_bits = _U0
        for j in range(m):
            c = np.uint64(hands[i, j])
            high_bits |= c >> _U8
            c &= _U255
            key += card_key[c]
            bits |= card_bit[c]
        hi, lo = hi_lo_of_key(key, bits, row, col, hilo, flush)
        out_hi[i] = hi
        out_lo[i] = lo
        err |= (popcount(bits) ^ m) | (high_bits != _U0)
    return err


def _first_bad_row(hands: IntArray) -> int:
    ok_codes = ((hands >= 0) & (hands < 52)).all(axis=1)
    distinct = (np.diff(np.sort(hands, axis=1), axis=1) != 0).all(axis=1)
    bad = np.flatnonzero(~(ok_codes & distinct))
    return int(bad[0]) if len(bad) else -1


def as_hands(hands: npt.ArrayLike) -> IntArray:
    """``hands`` as a 2-D integer array of 5 to 7 columns (one hand: a 1-D sequence)."""
    arr = np.asarray(hands)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or not (np.issubdtype(arr.dtype, np.integer) or arr.size == 0):
        raise CardError(
            f"hands must be an integer array of shape (n, 5..7), got {arr.dtype} {arr.shape}"
        )
    if not 5 <= arr.shape[1] <= 7:
        raise CardError(f"a hand to evaluate is 5 to 7 cards, got rows of {arr.shape[1]}")
    return arr


def batch_hi_lo(
    hands: npt.ArrayLike,
    out: tuple[IntArray, IntArray] | None = None,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """High and low strengths of each row of ``hands`` (shape ``(n, 5..7)``, card codes).

    Returns two arrays of length ``n`` (``int32``, or the two arrays given as ``out``),
    equal row by row to :func:`stud8.core.evaluate.hi_lo_codes`. Raises
    :class:`~stud8.core.errors.CardError` (a ``ValueError``) naming the first row with a
    code outside 0..51 or a card given twice. A C-contiguous ``uint8`` array of seven
    columns is the fastest input.
    """
    arr = as_hands(hands)
    n, m = arr.shape
    if out is None:
        out_hi: IntArray = np.empty(n, dtype=np.int32)
        out_lo: IntArray = np.empty(n, dtype=np.int32)
    else:
        out_hi, out_lo = out
        if out_hi.shape != (n,) or out_lo.shape != (n,):
            raise ValueError(f"out must be two arrays of shape ({n},)")
    if n:
        t = tables()
        kernel = _batch7 if m == 7 and arr.flags.c_contiguous else _batch_any
        err = kernel(arr, t.card_key, t.card_bit, t.row, t.col, t.hilo, t.flush, out_hi, out_lo)
        if err:
            bad = _first_bad_row(arr)
            raise CardError(
                f"row {bad} is not {m} distinct card codes from 0 to 51: {arr[bad].tolist()}"
            )
    return out_hi, out_lo  # type: ignore[return-value]
