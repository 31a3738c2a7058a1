"""The rules engine: standard library only, no I/O, no clock, no global random.

>>> from stud8.core import Hand, TableRules, Deck, Complete
>>> hand = Hand.start(rules=TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8),
...                   stacks={1: 100, 4: 100}, deck=Deck.seeded(3))
>>> hand.to_act in (1, 4)
True
"""

from stud8.core.actions import (
    Action,
    ActionKind,
    Bet,
    BringIn,
    Call,
    Check,
    Complete,
    Fold,
    LegalAction,
    Raise,
    make_action,
)
from stud8.core.cards import Card, Deck, format_cards, parse_cards
from stud8.core.errors import (
    CardError,
    HandSetupError,
    IllegalActionError,
    NotAnActionError,
    RulesError,
    SetupTypeError,
    Stud8Error,
    WrongTypeError,
)
from stud8.core.events import TimeoutOutcome, decisions_from_events
from stud8.core.hand import Hand, HandSetup
from stud8.core.rules import (
    AllInLowCard,
    BettingStructure,
    CommunityCardFirstToAct,
    FirstToActTie,
    Game,
    HeadsUpCap,
    OddChip,
    OddChipHalf,
    ShowOrderNoBet,
    TableRules,
    TimeoutPolicy,
)
from stud8.core.showdown import HandResult

__all__ = [
    "Action",
    "ActionKind",
    "AllInLowCard",
    "Bet",
    "BettingStructure",
    "BringIn",
    "Call",
    "Card",
    "CardError",
    "Check",
    "CommunityCardFirstToAct",
    "Complete",
    "Deck",
    "FirstToActTie",
    "Fold",
    "Game",
    "Hand",
    "HandResult",
    "HandSetup",
    "HandSetupError",
    "HeadsUpCap",
    "IllegalActionError",
    "LegalAction",
    "NotAnActionError",
    "OddChip",
    "OddChipHalf",
    "Raise",
    "RulesError",
    "SetupTypeError",
    "ShowOrderNoBet",
    "Stud8Error",
    "TableRules",
    "TimeoutOutcome",
    "TimeoutPolicy",
    "WrongTypeError",
    "decisions_from_events",
    "format_cards",
    "make_action",
    "parse_cards",
]
