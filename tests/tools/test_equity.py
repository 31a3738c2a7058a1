"""Stud Hi/Lo equity: exact counts against a slow independent enumeration, Monte Carlo
against the exact answer, the reference position, errors, the command."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations, pairwise

import pytest

from stud8.cli import main
from stud8.core.cards import Card, parse_cards
from stud8.core.evaluate import hi_lo_codes
from stud8.tools import equity as eq
from stud8.tools.equity import EquityInputError, EquityResult, equity
from stud8.tools.equity_report import ProgressBar, run_equity

REF_PLAYERS = ["As 2d 3c 4h Kd", "Qh Qs 8c 9d Jc"]
REF_DEAD = "5c 6d Tc 2h"

Slow = tuple[list[dict[str, Fraction]], int, Fraction]


def slow_equity(players: Sequence[str], dead: str = "", community: str | None = None) -> Slow:
    """Every deal of the unseen cards, one by one, evaluated with ``hi_lo_codes``.

    ``community``: None, ``"??"`` (7th street one shared unknown card) or a card.
    Returns each player's figures as fractions, the number of outcomes and how often
    nobody has a low.
    """
    hands = [p.split() for p in players]
    known = [[Card.parse(c).code for c in h if c != "??"] for h in hands]
    seen = {c for k in known for c in k} | {c.code for c in parse_cards(dead)}
    shared: list[int] = []
    if community not in (None, "??"):
        shared = [Card.parse(community).code]
        seen |= set(shared)
    own = 7 - len(hands[0]) - (1 if community else 0)
    draws = [own + h.count("??") for h in hands]
    pool = sorted(set(range(52)) - seen)
    names = ("ev", "high_win", "high_tie", "low_win", "low_tie", "scoop")
    totals = [dict.fromkeys(names, Fraction(0)) for _ in players]
    count = 0
    no_low = 0

    def deals(left: list[int], i: int) -> list[list[tuple[int, ...]]]:
        if i == len(players):
            return [[]]
        out = []
        for combo in combinations(left, draws[i]):
            rest = [c for c in left if c not in combo]
            out.extend([[combo, *tail] for tail in deals(rest, i + 1)])
        return out

    boards: list[tuple[list[int], list[int]]] = []
    if community == "??":
        boards = [([c], [x for x in pool if x != c]) for c in pool]
    else:
        boards = [(shared, pool)]
    for board, left in boards:
        for deal in deals(left, 0):
            values = [hi_lo_codes([*known[p], *deal[p], *board]) for p in range(len(players))]
            count += 1
            best_high = max(v[0] for v in values)
            best_low = max(v[1] for v in values)
            high = [v[0] == best_high for v in values]
            low = [best_low > 0 and v[1] == best_low for v in values]
            if best_low == 0:
                no_low += 1
            for p, t in enumerate(totals):
                share = Fraction(0)
                if high[p]:
                    share += Fraction(2 if best_low == 0 else 1, 2 * sum(high))
                    t["high_win" if sum(high) == 1 else "high_tie"] += 1
                if low[p]:
                    share += Fraction(1, 2 * sum(low))
                    t["low_win" if sum(low) == 1 else "low_tie"] += 1
                t["ev"] += share
                if share == 1:
                    t["scoop"] += 1
    return [{k: v / count for k, v in t.items()} for t in totals], count, Fraction(no_low, count)


def assert_same(result: EquityResult, slow: Slow) -> None:
    figures, count, no_low = slow
    assert result.method == "exact"
    assert result.outcomes == count
    assert result.no_low == pytest.approx(float(no_low), abs=1e-12)
    for p, want in zip(result.players, figures, strict=True):
        for name, value in want.items():
            assert getattr(p, name) == pytest.approx(float(value), abs=1e-12), name


# --------------------------------------------------------------------------- reference


def test_reference_position() -> None:
    r = equity(REF_PLAYERS, dead=REF_DEAD)
    assert r.method == "exact"
    assert r.outcomes == 442_890
    assert r.players[0].ev == pytest.approx(0.479923909, abs=5e-10)
    assert r.players[0].ev + r.players[1].ev == pytest.approx(1.0, abs=1e-12)
    assert [p.cards for p in r.players] == REF_PLAYERS
    assert r.dead == REF_DEAD and r.community is None
    assert r.trials is None and r.stderr is None


# ---------------------------------------------------------------- exact, small positions


@pytest.mark.parametrize(
    ("players", "dead"),
    [
        # river: one card to come each
        (["As 2d 3c 4h Kd 9s", "Qh Qs 8c 9d Jc 7s"], "5c 6d Tc 2h"),
        # unknown down cards, both players
        (
            ["?? ?? 3c 4h Kd 9s", "?? Qs 8c 9d Jc 7s"],
            "5c 6d Tc 2h Ad Ah Kc Ks Td Th 7h 7c 2c 2d 2s 3d 3h 3s 4c 4d 4s 5d 5h 5s 6c 6h 6s Qc",
        ),
        # three players on 6th street (every player's low draw)
        (
            ["As 2d 3c 4h Kd 9s", "Qh Qs 8c 9d Jc 7s", "Ac 2c 5h 6h Js 3s"],
            "4c 4d Kh Kc Ks Th Tc Td Ts 9h",
        ),
        # four players, one with a hidden card
        (
            ["As 2d 3c 4h Kd 9s", "Qh Qs 8c 9d Jc 7s", "Ac 2c 5h 6h Js 3s", "?? 8h 8s 4s 5s 6s"],
            "Kh Kc Tc Th 9h 9c 2h 2s 3h 3d Ad Ah Td 7d 7h 7c Qc Qd",
        ),
        # 7th street, all known: ties in both halves
        (["As 2d 3c 4h 5s Kd Kc", "Ad 2c 3d 4c 5d Kh Ks"], ""),
        # no low possible for anybody
        (["Ks Kd Qc Qh Js 9d", "Ts Td 9c 9h Jh 8d"], "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s"),
    ],
)
def test_exact_against_slow_enumeration(players: list[str], dead: str) -> None:
    assert_same(equity(players, dead=dead, method="exact"), slow_equity(players, dead))


def test_ties_and_no_low() -> None:
    split = equity(["As 2d 3c 4h 5s Kd Kc", "Ad 2c 3d 4c 5d Kh Ks"])
    assert split.outcomes == 1
    for p in split.players:
        assert (p.ev, p.high_tie, p.low_tie, p.high_win, p.low_win, p.scoop) == (
            0.5,
            1.0,
            1.0,
            0.0,
            0.0,
            0.0,
        )
    nolow = equity(["Ks Kd Qc Qh Js 9d 9s", "Ts Td 9c 9h Jh 8d 2s"])
    assert nolow.no_low == 1.0
    assert (nolow.players[0].ev, nolow.players[0].scoop) == (1.0, 1.0)


def test_pair_method_equals_the_direct_walk() -> None:
    # heads-up, the inclusion-exclusion count against the plain walk over all pairs
    for players, dead in [
        (["As 2d 3c 4h", "Qh Qs 8c 9d"], "Kd Kc Ks 7h 7c 7d 6s 6d"),
        (["?? ?? 3c 4h Kd", "?? Qs 8c 9d Jc"], "5c 6d Tc 2h Ah Ad 8s 8d 2c 2d 3d 3h 4c 4d"),
        (["As 2s ?? 4s 6d", "7s 7d Ks Kh 6c"], "Td Th 3s 3h 9s 9h 4h 2h"),
    ]:
        pos = eq._position(players, dead, None)
        pair = eq._exact(pos, eq._Meter(None, 1), force_direct=False)
        direct = eq._exact(pos, eq._Meter(None, 1), force_direct=True)
        assert pair == direct, players


def test_known_community_card() -> None:
    players = ["As 2d 3c 4h Kd 9s", "Qh Qs 8c 9d Jc 7s", "Ac 2c 5h 6h Js 3s"]
    r = equity(players, dead="4c 4d", community="5d")
    assert r.community == "5d"
    assert_same(r, slow_equity(players, "4c 4d", community="5d"))


def test_eight_players_share_a_community_card() -> None:
    players = [
        "As 2d 3c 4h Kd 9s",
        "Qh Qs 8c 9d Jc 7s",
        "Ac 2c 5h 6h Js 3s",
        "Kc Kh 4s 5s 6s 7h",
        "Ah 2s 3h 4c 8h 8s",
        "Ts Th 9h 9c Tc Td",
        "Ad 3d 6d 7d 8d 5d",
        "Jd Jh Qc Qd Ks 2h",
    ]
    r = equity(players)  # 48 cards out, 4 left: 7th street is one shared card
    assert r.community == "??"
    assert r.outcomes == 4
    assert_same(r, slow_equity(players, community="??"))
    assert sum(p.ev for p in r.players) == pytest.approx(1.0)


def test_forced_community_card() -> None:
    players = ["As 2d 3c 4h Kd", "Qh Qs 8c 9d Jc", "Ac 2c 5h 6h Js"]
    dead = "Kh Kc Tc Th 9h 9c 2h 2s 3h 3d 4s 4d 5s 5d 6s 6d 7s 7d 7h 7c 8s 8d Ks Ts Td"
    r = equity(players, dead=dead, community=True)
    assert r.community == "??"
    assert equity(players, dead=dead, community="??").players == r.players
    assert_same(r, slow_equity(players, dead, community="??"))
    assert equity(players, dead=dead).community is None  # enough cards: no community


# ------------------------------------------------------------------------- Monte Carlo


def test_monte_carlo_agrees_with_exact() -> None:
    players = ["As 2d 3c 4h Kd", "Qh Qs 8c 9d Jc", "7d 7h 6s Js 9c"]
    exact = equity(players, dead="Kc", method="exact")
    mc = equity(players, dead="Kc", trials=400_000, seed=12)
    assert mc.method == "monte-carlo" and mc.trials == 400_000 and mc.outcomes is None
    assert mc.stderr is not None and 0 < mc.stderr < 0.002
    for e, m in zip(exact.players, mc.players, strict=True):
        assert m.ev_stderr is not None and m.ev_stderr <= mc.stderr
        assert abs(e.ev - m.ev) < 4 * m.ev_stderr
        for name in ("high_win", "high_tie", "low_win", "low_tie", "scoop"):
            p = getattr(e, name)
            sigma = math.sqrt(p * (1 - p) / 400_000) + 1e-9
            assert abs(getattr(m, name) - p) < 4 * sigma + 1e-6, name
    assert abs(exact.no_low - mc.no_low) < 4 * math.sqrt(0.25 / 400_000)


def test_monte_carlo_is_deterministic_with_a_seed() -> None:
    players = ["As 2s 3s", "Kd Kc Qh", "?? ?? 7h", "8c 8d 4c"]
    a = equity(players, trials=50_000, seed=5)
    b = equity(players, trials=50_000, seed=5)
    c = equity(players, trials=50_000, seed=6)
    assert a.players == b.players and a.no_low == b.no_low
    assert a.players != c.players
    assert sum(p.ev for p in a.players) == pytest.approx(1.0)


def test_monte_carlo_community_card() -> None:
    players = [
        "As 2d 3c 4h Kd",
        "Qh Qs 8c 9d Jc",
        "Ac 2c 5h 6h Js",
        "Kc Kh 4s 5s 6s",
        "Ah 2s 3h 4c 8h",
        "Ts Th 9h 9c Tc",
        "Ad 3d 6d 7d 8d",
        "Jd Jh Qc Qd Ks",
    ]
    r = equity(players, trials=100_000, seed=3)
    assert r.community == "??" and r.method == "monte-carlo"
    assert sum(p.ev for p in r.players) == pytest.approx(1.0)


def test_auto_method() -> None:
    assert equity(["As 2d 3c", "Qh Qs 8c"]).method == "exact"  # 18 billion, quick
    four = equity(["As 2d 3c", "Qh Qs 8c", "7d 7h 6s", "Kc 5d 4s"], trials=None, seed=1)
    assert four.method == "monte-carlo" and four.trials == eq.DEFAULT_TRIALS
    assert equity(REF_PLAYERS, dead=REF_DEAD, trials=1000, seed=1).method == "monte-carlo"


def test_third_street_heads_up_totals() -> None:
    r = equity(["As 2d 3c", "Qh Qs 8c"], method="exact")
    assert r.outcomes == 18_265_297_050
    a, b = r.players
    assert a.ev + b.ev == pytest.approx(1.0, abs=1e-12)
    assert a.high_tie == b.high_tie and a.low_tie == b.low_tie
    assert a.high_win + b.high_win + a.high_tie == pytest.approx(1.0, abs=1e-12)
    assert a.low_win + b.low_win + a.low_tie + r.no_low == pytest.approx(1.0, abs=1e-12)


def test_progress_reaches_the_end() -> None:
    seen: list[tuple[int, int]] = []
    equity(["As 2d 3c", "Qh Qs 8c"], progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1][0] == seen[-1][1]
    assert all(a[0] <= b[0] for a, b in pairwise(seen))
    seen.clear()
    equity(
        ["As 2d 3c", "Qh Qs 8c", "Kd 7h 7s"],
        trials=300_000,
        seed=1,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert seen[-1] == (300_000, 300_000)


def test_progress_bar_draws_and_clears() -> None:
    err = io.StringIO()
    bar = ProgressBar(err, delay=0.0)
    bar(5, 10)
    bar(10, 10)
    bar.close()
    text = err.getvalue()
    assert "50.0%" in text or "100.0%" in text
    assert text.endswith("\r")


# ------------------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("players", "dead", "message"),
    [
        (["As 2s Zz", "Kd Kc Qh"], "", r"player 1: cannot read card 'Zz'"),
        (["As 2s 3s", "Kd Kc Qh"], "5c Xy", r"dead cards: cannot read card 'Xy'"),
        (["As 2s 3s", "As Kc Qh"], "", r"As is given twice \(player 1 and player 2\)"),
        (["As 2s 3s", "Kd Kc Qh"], "Kc", r"Kc is given twice \(player 2 and the dead cards\)"),
        (["As 2s As", "Kd Kc Qh"], "", r"As is given twice \(player 1, twice\)"),
        (["As 2s 3s 4s", "Kd Kc Qh"], "", r"same number of cards.*player 1: 4, player 2: 3"),
        (["As 2s 3s 4s 5s 6s 7s 8s", "Kd Kc Qh Qs Qd Qc Jh Jd"], "", r"at most"),
        (["As 2s 3s"], "", r"2 to 8 players, got 1"),
        ([f"{r}c" for r in "23456789T"], "", r"2 to 8 players, got 9"),
        (["", "Kd Kc Qh"], "", r"player 1 has no cards"),
    ],
)
def test_bad_input_is_named(players: list[str], dead: str, message: str) -> None:
    with pytest.raises(EquityInputError, match=message) as info:
        equity(players, dead=dead)
    assert isinstance(info.value, ValueError)


def test_other_bad_input() -> None:
    players = ["As 2s 3s", "Kd Kc Qh"]
    taken = {c.code for p in players for c in parse_cards(p)}
    rest = [Card.from_code(c) for c in range(52) if c not in taken]
    dead = " ".join(str(c) for c in rest[4:])  # 4 left; 7 needed even with a community card
    with pytest.raises(EquityInputError, match="need 7 more and 4 are left"):
        equity(players, dead=dead)
    with pytest.raises(EquityInputError, match="trials"):
        equity(REF_PLAYERS, trials=0)
    with pytest.raises(EquityInputError, match="trials is for Monte Carlo"):
        equity(REF_PLAYERS, method="exact", trials=10)
    with pytest.raises(EquityInputError, match="method"):
        equity(REF_PLAYERS, method="guess")  # type: ignore[arg-type]
    with pytest.raises(EquityInputError, match="no community card"):
        equity(["As 2d 3c 4h Kd 9s 8s", "Qh Qs 8c 9d Jc 7s 6s"], community=True)
    with pytest.raises(EquityInputError, match="community card is one card"):
        equity(REF_PLAYERS, community="Kh Kc")
    with pytest.raises(EquityInputError, match="one string per player"):
        equity("As 2d 3c")
    with pytest.raises(EquityInputError, match="would take more than a few minutes"):
        equity(["?? ?? ??", "?? ?? ??", "?? ?? ??", "?? ?? ??"], method="exact")


# ----------------------------------------------------------------------------- command


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def test_command_json() -> None:
    code, out, _ = run(["equity", *REF_PLAYERS, "--dead", REF_DEAD, "--json"])
    assert code == 0
    data = json.loads(out)
    assert data["method"] == "exact" and data["outcomes"] == 442_890
    assert [p["cards"] for p in data["players"]] == REF_PLAYERS
    keys = {"cards", "ev", "high_win", "high_tie", "low_win", "low_tie", "scoop"}
    assert all(set(p) == keys for p in data["players"])
    assert round(data["players"][0]["ev"], 9) == 0.479923909
    assert "no_low" in data and "trials" not in data and "stderr" not in data


def test_command_monte_carlo_json() -> None:
    code, out, _ = run(
        ["equity", "As 2s 3s", "Kd Kc Qh", "--trials", "20000", "--seed", "1", "--json"]
    )
    assert code == 0
    data = json.loads(out)
    assert data["method"] == "monte-carlo" and data["trials"] == 20_000
    assert 0 < data["stderr"] < 0.01 and "outcomes" not in data


def test_command_text_and_errors() -> None:
    code, out, _ = run(["equity", *REF_PLAYERS, "--dead", REF_DEAD])
    assert code == 0 and "442,890 outcomes" in out and "47.99%" in out
    code, _, err = run(["equity", "As 2s Zz", "Kd Kc Qh"])
    assert code == 2 and "cannot read card 'Zz'" in err
    code, _, err = run(["equity", "As 2s 3s", "Kd Kc Qh", "--exact", "--trials", "5"])
    assert code == 2 and "not allowed with" in err
    code, out, _ = run(["equity", "As 2d 3c 4h Kd 9s", "Qh Qs 8c 9d Jc 7s", "--community", "5d"])
    assert code == 0 and "community card: 5d" in out


def test_run_equity_progress_to_a_stream() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = run_equity(
        ["As 2s 3s", "Kd Kc Qh", "7h 7d 2c"],
        trials=200_000,
        seed=2,
        progress=True,
        stdout=out,
        stderr=err,
    )
    assert code == 0 and "Monte Carlo: 200,000 trials" in out.getvalue()
