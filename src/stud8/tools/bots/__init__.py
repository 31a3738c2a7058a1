"""Computer players: a small :class:`Bot` interface and a few policies.

A bot decides from what its seat may see (:class:`~stud8.core.views.HandView`), never
from the other players' hidden cards, and draws any randomness from the
:class:`random.Random` it was built with, so a seeded game replays exactly.

>>> import random
>>> from stud8.core import Deck, Hand, TableRules
>>> rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
>>> hand = Hand.start(rules=rules, stacks={1: 100, 2: 100, 3: 100}, deck=Deck.seeded(5))
>>> bots = {seat: BOTS["rules"](random.Random(seat)) for seat in hand.seats}
>>> result = play_hand(hand, bots)
>>> sum(result.stacks.values())
300

A bot plays the table's game: :func:`make_bot` makes one for a game (from a seat
window the game is read from the table's rules; a HandView does not say it).

>>> make_bot("rules", random.Random(1), game=Game.RAZZ).game
<Game.RAZZ: 'razz'>
"""

from __future__ import annotations

import random
from collections.abc import Callable

from stud8.core.rules import Game
from stud8.tools.bots.base import Bot, play_hand
from stud8.tools.bots.equity_bot import EquityBot
from stud8.tools.bots.rules_based import RuleBasedBot
from stud8.tools.bots.simple import CallingStation, RandomBot

#: Bot factories by name: each takes the bot's own seeded random source.
BOTS: dict[str, Callable[[random.Random], Bot]] = {
    "random": RandomBot,
    "calling-station": CallingStation,
    "rules": RuleBasedBot,
    "equity": EquityBot,  # needs the tools extra (numpy, numba)
}


def make_bot(kind: str, rng: random.Random, *, game: Game = Game.STUD_HI_LO) -> Bot:
    """The bot ``kind`` of :data:`BOTS`, made for ``game`` (the bots that value hands
    play it; the random bot and the calling station need not know it)."""
    bot = BOTS[kind](rng)
    if isinstance(bot, (RuleBasedBot, EquityBot)):
        bot.game = game
    return bot


__all__ = [
    "BOTS",
    "Bot",
    "CallingStation",
    "EquityBot",
    "RandomBot",
    "RuleBasedBot",
    "make_bot",
    "play_hand",
]
