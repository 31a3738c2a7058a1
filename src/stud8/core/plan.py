"""What the engine works out once from a table's rules, for every hand there.

Hands at one table share one :class:`TablePlan`: the game's valuation and
up-card ranking, the cap, the bet sizes, whether rake is taken. Working these out
(and reading enum members, each a descriptor lookup) costs more than dealing a
street, so it is done once per :class:`~stud8.core.rules.TableRules`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from stud8.core.cards import Card
from stud8.core.evaluate import HighValue, LowValue, evaluate_hi_lo
from stud8.core.rules import BettingStructure, FirstToActTie, Game, HeadsUpCap, TableRules
from stud8.core.showdown import high_only
from stud8.core.streets import up_key_for


class TablePlan:
    """What the engine works out once from a :class:`TableRules` (every hand at a
    table shares it): the game's valuation and up-card ranking, the cap, whether
    rake is taken, the fixed-limit bet sizes."""

    __slots__ = (
        "ante",
        "big_bet",
        "big_bet_street",
        "bring_in",
        "cap_lifts_at_open",
        "cap_lifts_heads_up",
        "evaluate",
        "fixed_limit",
        "full_bring_in",
        "max_bets",
        "max_seats",
        "open_pair_rule",
        "position_tie",
        "raked",
        "razz",
        "rules",
        "small_bet",
        "up_key",
        "up_keys",
    )

    def __init__(self, rules: TableRules) -> None:
        self.rules = rules
        game = rules.game
        self.max_seats = rules.max_seats
        self.ante = rules.ante
        self.bring_in = rules.bring_in
        self.small_bet = rules.small_bet
        self.big_bet = rules.big_bet
        self.big_bet_street = rules.big_bet_street
        self.full_bring_in = rules.bring_in >= rules.small_bet  # a bring-in of a full bet
        self.fixed_limit = rules.structure is BettingStructure.FIXED_LIMIT
        self.razz = game is Game.RAZZ
        self.evaluate: Callable[[Sequence[Card]], tuple[HighValue, LowValue | None]] = (
            evaluate_hi_lo if game is Game.STUD_HI_LO else high_only
        )
        self.up_key: Callable[[Sequence[Card]], tuple[int, ...]] = up_key_for(game)
        # up-card rankings by the product of the up cards' rank primes (a multiset key)
        self.up_keys: dict[int, tuple[int, ...]] = {}
        self.open_pair_rule = rules.open_pair_in_force
        self.position_tie = rules.first_to_act_tie is FirstToActTie.POSITION
        # the cap as a count of full bets in a round (None: no cap)
        self.max_bets = (
            rules.raise_cap + 1 if rules.raise_cap is not None and self.fixed_limit else None
        )
        self.cap_lifts_at_open = rules.heads_up_cap is not HeadsUpCap.NEVER_LIFTED
        self.cap_lifts_heads_up = rules.heads_up_cap is HeadsUpCap.LIFTED_WHEN_HEADS_UP
        self.raked = rules.rake_percent != 0

    def __reduce__(self) -> tuple[object, tuple[TableRules]]:
        # A copy (or an unpickled hand) gets the plan of its rules: what a plan holds
        # follows from them. (Compiled, mypyc, copy and pickle could not make a native
        # object without calling __init__.)
        return plan_for, (self.rules,)


_PLANS: Final[dict[int, tuple[TableRules, TablePlan]]] = {}


def plan_for(rules: TableRules) -> TablePlan:
    # Keyed by identity (hashing a TableRules costs more than a hand's start); the
    # entry holds the rules, so its id cannot be reused while it is cached.
    entry = _PLANS.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    plan = TablePlan(rules)
    if len(_PLANS) >= 256:
        _PLANS.clear()
    _PLANS[id(rules)] = (rules, plan)
    return plan


# A prime for each rank: the product over a player's up cards names their ranks as
# a multiset, a cheap key for the up-card ranking that decides who acts first.
RANK_PRIMES: Final = (0, 0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
