"""The stakes PokerStars dealt, and why trackers refuse a hand at other stakes.

Trackers read PokerStars text as PokerStars hands, and know a PokerStars cash game
by its stakes. fpdb (its live fork fpdb-3, ``PokerStarsToFpdb.py``, which
``../shared/oracles/fpdb-check`` runs) refuses, whatever else the hand says:

- a fixed-limit **cash** hand (real or play money) whose big bet, as the header
  writes it (``$0.12``, ``(4/12)``), is not one of PokerStars' limit stakes: it
  looks the big bet up in its table of them (``lim_blinds``, copied here as
  :data:`LIMIT_BIG_BETS`) to find the blinds a hold'em table of those stakes has,
  and a big bet it cannot find is ``Lim_Blinds has no lookup for '0.12'``;
- **pot-limit and no-limit** stud, cash or tournament: the games it imports from
  PokerStars (``readSupportedGames``) have stud only as fixed limit, so it is
  ``Unsupported game type``.

A tournament's fixed-limit hand is accepted at any stakes (fpdb looks nothing up).
Nothing in the text can be written otherwise without misstating the game or its
stakes: the big bet is the game's, and PokerStars text has no other way to say a
limit, so such hands stay as they are, and ``stud8 hh convert`` says which they are
(:func:`why_trackers_refuse`).

>>> from stud8.core.rules import TableRules
>>> why_trackers_refuse(TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8), "USD", False)
''
>>> why_trackers_refuse(TableRules(ante=1, bring_in=2, small_bet=6, big_bet=12), "", False)
'a limit cash game with a big bet of 12, which PokerStars never dealt: trackers (fpdb) refuse it'
>>> why_trackers_refuse(TableRules(ante=1, bring_in=2, small_bet=6, big_bet=12), "", True)
''
"""

from __future__ import annotations

from stud8.core.rules import BettingStructure, TableRules
from stud8.formats.pokerstars.write import CURRENCY_SYMBOLS, format_money

__all__ = ["LIMIT_BIG_BETS", "why_trackers_refuse"]

#: The big bets of PokerStars' fixed-limit cash games, as its headers write them
#: (cents of the currency, or play chips), from fpdb-3's ``lim_blinds`` table.
LIMIT_BIG_BETS: frozenset[str] = frozenset(
    [
        "0.04",
        "0.08",
        "0.10",
        "0.20",
        "0.40",
        "0.50",
        "1",
        "2",
        "4",
        "6",
        "8",
        "10",
        "16",
        "20",
        "30",
        "40",
        "50",
        "60",
        "80",
        "100",
        "150",
        "200",
        "400",
        "500",
        "600",
        "800",
        "1000",
        "2000",
        "4000",
        "10000",
        "20000",
        "40000",
    ]
)


def why_trackers_refuse(rules: TableRules, currency: str, tournament: bool) -> str:
    """Why trackers refuse a hand of these rules written as PokerStars text ('' if
    they accept it)."""
    if rules.structure is not BettingStructure.FIXED_LIMIT:
        name = rules.structure.value.replace("_", "-")
        return f"{name} stud, which PokerStars never dealt: trackers (fpdb) refuse it"
    if tournament:
        return ""
    symbol = CURRENCY_SYMBOLS.get(currency)
    big_bet = format_money(rules.big_bet, symbol).lstrip("$€£")
    if big_bet in LIMIT_BIG_BETS:
        return ""
    shown = format_money(rules.big_bet, symbol)
    return (
        f"a limit cash game with a big bet of {shown}, which PokerStars never dealt: "
        "trackers (fpdb) refuse it"
    )
