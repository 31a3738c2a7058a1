"""Equity for Seven Card Stud Hi/Lo: each player's expected share of the pot and more.

Give each player's cards so far (an unknown down card written ``??``, as an opponent's
are seen at the table) and the dead cards (folded players' up cards, ``??`` for cards
known to be out but not seen), and :func:`equity` returns, for each player, the
expected share of the pot (``ev``; the pot is split as RULES.md 5 says, the odd chips
ignored), how often he wins the high alone or ties for it, the same for the low, how
often he scoops (takes the whole pot alone), and how often nobody has a qualifying low.

>>> r = equity(["As 2d 3c 4h Kd", "Qh Qs 8c 9d Jc"], dead="5c 6d Tc 2h")
>>> r.method, r.outcomes, round(r.players[0].ev, 9)
('exact', 442890, 0.479923909)

Every way the remaining cards can fall is counted when that is feasible (``"exact"``),
else random deals are sampled (``"monte-carlo"``, with a standard error); ``method``
chooses, ``"auto"`` by the estimated work. Heads-up, the exact count evaluates each
player's possible completions once and counts the disjoint pairs by inclusion-exclusion
(see :mod:`stud8.tools._equity_kernels`): all of 3rd street, 18 billion outcomes, takes
about a second. With more players every combination is walked.

When more players reach 7th street than there are cards left, the last card is one
community card shared by all (RULES.md 4): ``community=None`` decides it from the
number of cards left, ``True`` or ``False`` says it, and a card (``"Kh"``) says it was
dealt (the players then show six cards each).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from stud8.core.cards import Card
from stud8.core.errors import CardError
from stud8.core.rules import Game
from stud8.tools import _equity_kernels as K
from stud8.tools import _equity_multi as M
from stud8.tools.fasteval import KEY_BASE, EvalTables, game_tables, tables

__all__ = [
    "DEFAULT_TRIALS",
    "EquityInputError",
    "EquityResult",
    "Method",
    "PlayerEquity",
    "Progress",
    "equity",
    "exact_work",
    "warm_up",
]

Method = Literal["auto", "exact", "monte-carlo"]
Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` (units of work) while a long run goes on."""

UNKNOWN = "??"
DEFAULT_TRIALS = 5_000_000
#: ``"auto"`` counts exactly up to this much estimated work (a unit is about 2 ns of one
#: core: the budget is about two seconds).
EXACT_BUDGET = 1_000_000_000
_PAIR_COST = 16  # work units per completion gathered into a group by the heads-up count
#: ``"exact"`` refuses more than this (several minutes of work, and memory).
EXACT_LIMIT = 200_000_000_000
_CHUNK = 4_000_000  # work units between progress reports


class EquityInputError(CardError):
    """Cards or options that do not describe a Stud Hi/Lo position (a ``ValueError``)."""


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """One player's results; every figure is a probability but ``ev``, a share (0 to 1)."""

    cards: str
    ev: float
    high_win: float
    high_tie: float
    low_win: float
    low_tie: float
    scoop: float
    ev_stderr: float | None = None


@dataclass(frozen=True, slots=True)
class EquityResult:
    """The result of :func:`equity`. ``outcomes`` (exact) or ``trials`` (Monte Carlo) is
    set; ``stderr`` is the largest standard error of the players' EVs (Monte Carlo)."""

    players: tuple[PlayerEquity, ...]
    method: Literal["exact", "monte-carlo"]
    outcomes: int | None
    trials: int | None
    stderr: float | None
    no_low: float
    dead: str
    community: str | None
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The ``stud8 equity --json`` object."""
        players = []
        for p in self.players:
            row: dict[str, Any] = {
                "cards": p.cards,
                "ev": p.ev,
                "high_win": p.high_win,
                "high_tie": p.high_tie,
                "low_win": p.low_win,
                "low_tie": p.low_tie,
                "scoop": p.scoop,
            }
            if p.ev_stderr is not None:
                row["ev_stderr"] = p.ev_stderr
            players.append(row)
        out: dict[str, Any] = {"players": players, "method": self.method}
        if self.method == "exact":
            out["outcomes"] = self.outcomes
        else:
            out["trials"] = self.trials
            out["stderr"] = self.stderr
        out["no_low"] = self.no_low
        out["dead"] = self.dead
        out["community"] = self.community
        return out


# ---------------------------------------------------------------------------------------
# Reading the position.


@dataclass(frozen=True, slots=True)
class _Position:
    labels: tuple[str, ...]  # each player's cards as given, normalized
    known: tuple[tuple[int, ...], ...]  # each player's known codes (with the community card)
    draws: tuple[int, ...]  # cards each player still gets from the pool, own ones
    pool: tuple[int, ...]  # codes nobody has seen, ascending
    community: str | None  # None, "??" (to come) or the card
    dead: str


def _cards(given: str | Iterable[str | Card], where: str) -> list[Card | None]:
    tokens: list[str | Card]
    if isinstance(given, str):
        tokens = list(given.replace(",", " ").split())
    else:
        tokens = list(given)
    out: list[Card | None] = []
    for tok in tokens:
        if isinstance(tok, Card):
            out.append(tok)
        elif isinstance(tok, str) and tok.strip() == UNKNOWN:
            out.append(None)
        else:
            try:
                out.append(Card.parse(tok))
            except CardError as e:
                raise EquityInputError(f"{where}: {e}") from None
    return out


def _position(
    players: Sequence[str | Iterable[str | Card]],
    dead: str | Iterable[str | Card],
    community: bool | str | Card | None,
) -> _Position:
    if isinstance(players, str):
        raise EquityInputError("players is a list of hands, one string per player")
    if not 2 <= len(players) <= 8:
        raise EquityInputError(f"equity needs 2 to 8 players, got {len(players)}")
    hands = [_cards(p, f"player {i}") for i, p in enumerate(players, 1)]
    dead_cards = _cards(dead, "dead cards")
    shared: Card | None = None
    if isinstance(community, str) and community.strip() == UNKNOWN:
        community = True
    if isinstance(community, (str, Card)) and not isinstance(community, bool):
        cards = _cards([community] if isinstance(community, Card) else community, "community")
        if len(cards) != 1 or cards[0] is None:
            raise EquityInputError(f"the community card is one card, got {community!r}")
        shared = cards[0]
    for i, hand in enumerate(hands, 1):
        if not hand:
            raise EquityInputError(f"player {i} has no cards")
        if len(hand) > 7:
            raise EquityInputError(f"player {i} has {len(hand)} cards; a stud hand has 7 at most")
    sizes = {len(h) for h in hands}
    if len(sizes) > 1:
        shown = ", ".join(f"player {i}: {len(h)}" for i, h in enumerate(hands, 1))
        raise EquityInputError(
            f"every player must have the same number of cards (stud deals them alike): {shown}"
        )
    n = sizes.pop()
    seen: dict[int, str] = {}
    places = [(f"player {i}", h) for i, h in enumerate(hands, 1)] + [("the dead cards", dead_cards)]
    if shared is not None:
        places.append(("the community card", [shared]))
    for where, cards in places:
        for c in cards:
            if c is None:
                continue
            if c.code in seen:
                other = seen[c.code]
                also = f"{other} and {where}" if other != where else f"{where}, twice"
                raise EquityInputError(f"{c} is given twice ({also})")
            seen[c.code] = where
    n_players = len(hands)
    stub = 52 - n_players * n - len(dead_cards)
    if stub < 0:
        raise EquityInputError(f"{n_players * n + len(dead_cards)} cards given; a deck has 52")
    if shared is not None:
        if n > 6:
            raise EquityInputError("with a community card dealt, each player shows 6 cards")
        stub -= 1
        mode: str | None = str(shared)
    elif community is None:
        mode = UNKNOWN if n < 7 and stub < n_players * (7 - n) else None
    elif community is True:
        if n > 6:
            raise EquityInputError("7 cards each: no community card is left to come")
        mode = UNKNOWN
    else:
        mode = None
    if mode is None:
        need = n_players * (7 - n)
    else:
        need = n_players * (6 - n) + (1 if mode == UNKNOWN else 0)
    if need > stub:
        raise EquityInputError(
            f"not enough cards: the players need {need} more and {stub} are left in the deck"
        )
    own = (6 - n) if mode else (7 - n)
    shared_codes = (shared.code,) if shared is not None else ()
    known = tuple(tuple(c.code for c in h if c is not None) + shared_codes for h in hands)
    draws = tuple(own + sum(c is None for c in h) for h in hands)
    pool = tuple(c for c in range(52) if c not in seen)
    labels = tuple(" ".join(UNKNOWN if c is None else str(c) for c in h) for h in hands)
    dead_label = " ".join(UNKNOWN if c is None else str(c) for c in dead_cards)
    return _Position(labels, known, draws, pool, mode, dead_label)


# ---------------------------------------------------------------------------------------
# Work estimates and the counting itself.


def _pair_work(r: int, ka: int, kb: int) -> int:
    return sum(
        math.comb(r, t) * (math.comb(r - t, ka - t) + math.comb(r - t, kb - t))
        for t in range(min(ka, kb) + 1)
    )


def _direct_work(r: int, draws: Sequence[int]) -> int:
    sizes = sorted(math.comb(r, k) for k in draws)
    return math.prod(sizes) + sum(sizes)


def _outcomes(r: int, draws: Sequence[int]) -> int:
    total, left = 1, r
    for k in draws:
        total *= math.comb(left, k)
        left -= k
    return total


def _estimate(pos: _Position) -> tuple[int, int]:
    """(exact work, exact outcomes) of the position."""
    r = len(pos.pool)
    if pos.community == UNKNOWN:
        r -= 1
    if len(pos.draws) == 2:
        work = _PAIR_COST * _pair_work(r, *pos.draws)
    else:
        work = _direct_work(r, pos.draws)
    outcomes = _outcomes(r, pos.draws)
    if pos.community == UNKNOWN:
        work *= r + 1
        outcomes *= r + 1
    return work, outcomes


def exact_work(
    players: Sequence[str | Iterable[str | Card]],
    dead: str | Iterable[str | Card] = (),
    community: bool | str | Card | None = None,
) -> int:
    """The estimated work of an exact count of the position (the units of
    :data:`EXACT_BUDGET`, about 2 to 20 ns of one core each), without counting it; raises
    :class:`EquityInputError` as :func:`equity` does."""
    return _estimate(_position(players, dead, community))[0]


def _base(codes: Iterable[int]) -> tuple[np.uint64, np.uint64]:
    t = tables()  # the cards' keys and bits are the same in every game
    key, bits = KEY_BASE, 0
    for c in codes:
        key += int(t.card_key[c])
        bits |= int(t.card_bit[c])
    return np.uint64(key), np.uint64(bits)


def _completion_arrays(
    pool: np.ndarray[Any, np.dtype[np.int32]],
    known: Sequence[int],
    k: int,
    with_mask: bool,
    t: EvalTables,
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    size = math.comb(len(pool), k)
    hi = np.empty(size, dtype=np.int16)
    lo = np.empty(size, dtype=np.int8)
    mask = np.empty(size if with_mask else 1, dtype=np.uint64)
    key, bits = _base(known)
    K.completions(
        pool,
        k,
        key,
        bits,
        t.card_key,
        t.card_bit,
        t.row,
        t.col,
        t.hilo,
        t.flush,
        hi,
        lo,
        mask,
        with_mask,
    )
    return hi, lo, mask


class _Meter:
    """Progress reports, in units of estimated work."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress, self.total, self.done = progress, max(total, 1), 0

    def add(self, units: int) -> None:
        self.done = min(self.total, self.done + units)
        if self.progress is not None:
            self.progress(self.done, self.total)


def _exact_pair(
    pool: np.ndarray[Any, np.dtype[np.int32]],
    known: Sequence[Sequence[int]],
    draws: Sequence[int],
    meter: _Meter,
    evaluation: EvalTables,
) -> tuple[list[list[int]], list[int]]:
    ka, kb = draws
    a_h, a_l, _ = _completion_arrays(pool, known[0], ka, False, evaluation)
    b_h, b_l, _ = _completion_arrays(pool, known[1], kb, False, evaluation)
    r = len(pool)
    binom = K.binomials()
    acc = np.zeros(K.PAIR_FIELDS, dtype=np.int64)
    for t in range(min(ka, kb) + 1):
        groups = math.comb(r, t)
        per_group = math.comb(r - t, ka - t) + math.comb(r - t, kb - t)
        step = max(1, _CHUNK // (_PAIR_COST * per_group))
        for first in range(0, groups, step):
            last = min(groups, first + step)
            K.pair_level(t, first, last, r, ka, kb, a_h, a_l, b_h, b_l, binom, acc)
            meter.add((last - first) * per_group * _PAIR_COST)
    return K.pair_stats(acc)


def _exact_multi(
    pool: np.ndarray[Any, np.dtype[np.int32]],
    known: Sequence[Sequence[int]],
    draws: Sequence[int],
    meter: _Meter,
    t: EvalTables,
) -> tuple[list[list[int]], list[int]]:
    n = len(draws)
    # the player with the most completions goes last (the tight loop), the fewest first
    order = sorted(range(n), key=lambda p: math.comb(len(pool), draws[p]))
    arrays = [_completion_arrays(pool, known[p], draws[p], True, t) for p in order]
    offsets = np.zeros(n + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(a[0]) for a in arrays])
    comp_h = np.concatenate([a[0] for a in arrays])
    comp_l = np.concatenate([a[1] for a in arrays])
    comp_m = np.concatenate([a[2] for a in arrays])
    stats = np.zeros((n, K.N_STATS), dtype=np.int64)
    totals = np.zeros(2, dtype=np.int64)
    first_count = int(offsets[1])
    per_first = max(1, _direct_work(len(pool), draws) // max(first_count, 1))
    step = max(1, _CHUNK // per_first)
    for first in range(0, first_count, step):
        last = min(first_count, first + step)
        M.multi_level(first, last, offsets, comp_h, comp_l, comp_m, stats, totals)
        meter.add((last - first) * per_first)
    out = [[0] * K.N_STATS for _ in range(n)]
    for slot, p in enumerate(order):
        out[p] = [int(x) for x in stats[slot]]
    return out, [int(x) for x in totals]


def _exact(
    pos: _Position, meter: _Meter, force_direct: bool, t: EvalTables | None = None
) -> tuple[list[list[int]], list[int]]:
    t = t or tables()
    pool = np.array(pos.pool, dtype=np.int32)
    run = _exact_pair if len(pos.draws) == 2 and not force_direct else _exact_multi
    if pos.community != UNKNOWN:
        return run(pool, pos.known, pos.draws, meter, t)
    stats = [[0] * K.N_STATS for _ in pos.draws]
    totals = [0, 0]
    for i, c in enumerate(pos.pool):
        rest = np.delete(pool, i)
        known = [(*k, c) for k in pos.known]
        s, tot = run(rest, known, pos.draws, meter, t)
        stats = [[x + y for x, y in zip(a, b, strict=True)] for a, b in zip(stats, s, strict=True)]
        totals = [x + y for x, y in zip(totals, tot, strict=True)]
    return stats, totals


def _monte_carlo(
    pos: _Position, trials: int, seed: int | None, meter: _Meter, t: EvalTables
) -> tuple[list[list[int]], list[int]]:
    pool = np.array(pos.pool, dtype=np.int32)
    draws = np.array(pos.draws, dtype=np.int64)
    bases = [_base(k) for k in pos.known]
    base_key = np.array([b[0] for b in bases], dtype=np.uint64)
    base_bits = np.array([b[1] for b in bases], dtype=np.uint64)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    state = np.array([seed & (2**64 - 1)], dtype=np.uint64)
    hist = np.zeros(1 << (2 * len(draws)), dtype=np.int64)
    step = max(1, _CHUNK // (8 * len(draws)))
    done = 0
    while done < trials:
        chunk = min(step, trials - done)
        M.monte_carlo(
            chunk,
            state,
            pool,
            draws,
            base_key,
            base_bits,
            pos.community == UNKNOWN,
            t.card_key,
            t.card_bit,
            t.row,
            t.col,
            t.hilo,
            t.flush,
            hist,
        )
        done += chunk
        meter.add(chunk)
    return M.histogram_stats(hist, len(draws))


def equity(
    players: Sequence[str | Iterable[str | Card]],
    dead: str | Iterable[str | Card] = (),
    *,
    method: Method = "auto",
    trials: int | None = None,
    seed: int | None = None,
    community: bool | str | Card | None = None,
    progress: Progress | None = None,
    game: Game = Game.STUD_HI_LO,
) -> EquityResult:
    """Each player's equity in a Stud Hi/Lo pot; see the module docstring.

    ``players``: each player's cards, in the order given (``"As 2d ?? 4h"`` or a list
    of cards and ``"??"``), the same number for every player, 2 to 8 players. ``dead``:
    cards out of play. ``method``: ``"exact"``, ``"monte-carlo"`` (``trials`` deals,
    :data:`DEFAULT_TRIALS` if not given, generated from ``seed``: the same seed gives the
    same result) or ``"auto"`` (exact when its estimated work is at most
    :data:`EXACT_BUDGET`, else Monte Carlo; giving ``trials`` means Monte Carlo). A
    caller with a budget of its own asks :func:`exact_work` and names the method.
    ``progress(done, total)`` is called as work goes on. ``game``: in Seven Card Stud
    the high takes the whole pot and nobody has a low; in Razz the ace-to-five low
    takes it, counted as the "high" (``high_win``, ``high_tie``; ``scoop`` is a win
    alone in both), and nobody has an 8-or-better low.

    Raises :class:`EquityInputError` (a ``ValueError``) naming the problem: a card that
    cannot be read, a card given twice, a wrong number of cards or players, too few
    cards left, or an exact count too large to finish.
    """
    if method not in ("auto", "exact", "monte-carlo"):
        raise EquityInputError(f"method is 'auto', 'exact' or 'monte-carlo', got {method!r}")
    if trials is not None and (not isinstance(trials, int) or trials < 1):
        raise EquityInputError(f"trials must be a positive whole number, got {trials!r}")
    if trials is not None and method == "exact":
        raise EquityInputError("trials is for Monte Carlo; the exact method counts everything")
    pos = _position(players, dead, community)
    work, outcomes = _estimate(pos)
    if method == "auto":
        method = "exact" if trials is None and work <= EXACT_BUDGET else "monte-carlo"
    if method == "exact" and work > EXACT_LIMIT:
        raise EquityInputError(
            f"an exact count of this position ({outcomes:,} outcomes) would take more than "
            "a few minutes; use Monte Carlo (trials)"
        )
    start = time.perf_counter()
    t = game_tables(game)
    if method == "exact":
        stats, totals = _exact(pos, _Meter(progress, work), False, t)
        if totals[K.OUTCOMES] != outcomes:  # pragma: no cover - a bug
            raise AssertionError(f"counted {totals[K.OUTCOMES]} outcomes, expected {outcomes}")
    else:
        n_trials = trials or DEFAULT_TRIALS
        stats, totals = _monte_carlo(pos, n_trials, seed, _Meter(progress, n_trials), t)
    return _result(pos, method, stats, totals, time.perf_counter() - start)


def _result(
    pos: _Position,
    method: Literal["exact", "monte-carlo"],
    stats: list[list[int]],
    totals: list[int],
    seconds: float,
) -> EquityResult:
    n = totals[K.OUTCOMES]

    def ratio(x: int, scale: int = 1) -> float:
        return float(Fraction(x, n * scale))

    players = []
    worst = 0.0
    for label, s in zip(pos.labels, stats, strict=True):
        stderr = None
        if method == "monte-carlo":
            mean = s[K.EV] / (n * K.POT)
            var = max(0.0, s[K.EV_SQ] / (n * K.POT * K.POT) - mean * mean)
            stderr = math.sqrt(var * n / max(n - 1, 1) / n)
            worst = max(worst, stderr)
        players.append(
            PlayerEquity(
                cards=label,
                ev=ratio(s[K.EV], K.POT),
                high_win=ratio(s[K.HIGH_WIN]),
                high_tie=ratio(s[K.HIGH_TIE]),
                low_win=ratio(s[K.LOW_WIN]),
                low_tie=ratio(s[K.LOW_TIE]),
                scoop=ratio(s[K.SCOOP]),
                ev_stderr=stderr,
            )
        )
    exact = method == "exact"
    return EquityResult(
        players=tuple(players),
        method=method,
        outcomes=n if exact else None,
        trials=None if exact else n,
        stderr=None if exact else worst,
        no_low=ratio(totals[K.NO_LOW]),
        dead=pos.dead,
        community=pos.community,
        seconds=seconds,
    )


# Small positions that run every kernel equity() uses: the exact count heads-up and
# multiway, and Monte Carlo.
_WARM_UP: tuple[tuple[tuple[str, ...], Method], ...] = (
    (("As 2s 3s 4s 5s 6s", "Kd Kh Qc Qd Jc Jd"), "exact"),
    (("As 2s 3s 4s 5s 6s", "Kd Kh Qc Qd Jc Jd", "7h 8h 9h Th Td 9d"), "exact"),
    (("As 2s 3s", "Kd Kh Qc"), "monte-carlo"),
    (("As 2s 3s", "Kd Kh Qc", "7h 8h 9h"), "monte-carlo"),
)


def warm_up() -> float:
    """Make every compiled kernel of :func:`equity` ready; returns the seconds it took.

    numba compiles them on first use (10 to 40 seconds, once after each install: the
    machine code is cached next to the package, and an install replaces the files it
    is keyed on); after that this only loads them from the cache. ``stud8 equity
    --warm-up`` calls it, and so does every ``stud8 equity`` before its own count.
    """
    start = time.perf_counter()
    for players, method in _WARM_UP:
        trials = 64 if method == "monte-carlo" else None
        equity(list(players), method=method, trials=trials, seed=1)
    return time.perf_counter() - start
