"""A mixed table: the games it rotates (:class:`Rotation`) and the game of each hand
(:class:`GameRotation`, a part of the table's owner).

An operator may open a table that rotates the games of the family (RULES.md 8): two
or all three of Stud Hi/Lo, Seven Card Stud and Razz, each played for ``hands``
hands before the next. The table starts with its ``game`` (one of the rotation's)
and goes round the rotation's order from there.

**Every orbit.** Stud has no button, so an orbit is not the button going round: it
is as many hands as the table has seats, one hand "on" each seat. That is what
PokerStars does in its mixed games with stud: at an 8-max table the game changes
every 8 hands (HORSE, 8-Game, Triple Stud). A table's ``rotation_hands`` of None
means that.

**Which hand plays which game** is a function of how many hands the table has
dealt (cancelled ones too: a hand dealt is a hand of its game), so a table back
after a restart, or on another node, goes on where it was: the room counts the
table's stored hands (every hand it noted ends stored, finished or refunded) and
gives the count to its config (:attr:`TableConfig.hands_dealt`).

**Told before it happens.** At the start of each hand of a mixed table the table
tells a :class:`~stud8.server.table.events.MixedGame` event: the hand's game, the
next game and how many hands of this one are left; at the start of the last hand
of a game its notice says "The game changes to Razz after this hand", and at the
first hand of a game "Now playing: Razz".

**Its histories** name the game the way PokerStars names its mixed stud game
(``PokerStars Hand #...:  Triple Stud (Razz Limit, $0.10/$0.20 USD) - ...``), the
name trackers know (fpdb's ``3stud``), whichever of the family's games it rotates.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from stud8.core.rules import Game, TableRules
from stud8.server.table.events import MixedGame

__all__ = [
    "MIXED_NAME",
    "ROTATION_CHOICES",
    "ROTATION_DEFAULTS",
    "ROTATION_OFF",
    "GameRotation",
    "Rotation",
    "game_name",
]

#: The name of the mixed game in a mixed table's histories (PokerStars' own).
MIXED_NAME = "Triple Stud"
ROTATION_OFF = "off"
_WORDS = {Game.STUD_HI_LO: "Stud Hi/Lo", Game.STUD_HIGH: "Seven Card Stud", Game.RAZZ: "Razz"}
# the rotations an operator may choose: every order of two or three games, as a
# cycle (where it starts is the table's game); a value is the games' values joined by +
_CYCLES = (
    (Game.STUD_HI_LO, Game.STUD_HIGH, Game.RAZZ),
    (Game.STUD_HI_LO, Game.RAZZ, Game.STUD_HIGH),
    (Game.STUD_HI_LO, Game.STUD_HIGH),
    (Game.STUD_HI_LO, Game.RAZZ),
    (Game.STUD_HIGH, Game.RAZZ),
)
ROTATION_CHOICES: tuple[tuple[str, str], ...] = (
    (ROTATION_OFF, "off: one game"),
    *(("+".join(g.value for g in c), ", ".join(_WORDS[g] for g in c)) for c in _CYCLES),
)
#: A table's rotation when nobody chooses: none (one game).
ROTATION_DEFAULTS: dict[str, str | None] = {"rotation": ROTATION_OFF, "rotation_hands": None}


def game_name(game: Game) -> str:
    """The game in a player's words: 'Stud Hi/Lo', 'Seven Card Stud', 'Razz'."""
    return _WORDS[game]


@dataclass(frozen=True, slots=True)
class Rotation:
    """The games of a mixed table in the order they are played (round and round),
    ``hands`` of each, starting with ``games[first]``.

    >>> r = Rotation((Game.STUD_HI_LO, Game.STUD_HIGH, Game.RAZZ), hands=2)
    >>> [r.game_of(n).value for n in range(7)]
    ['stud_hi_lo', 'stud_hi_lo', 'stud_high', 'stud_high', 'razz', 'razz', 'stud_hi_lo']
    """

    games: tuple[Game, ...]
    hands: int
    first: int = 0

    def __post_init__(self) -> None:
        if len(self.games) < 2 or self.hands < 1 or not 0 <= self.first < len(self.games):
            raise ValueError("a rotation has two games or more, of one hand or more each")

    @classmethod
    def of(cls, value: str, hands: int, game: Game) -> Rotation | None:
        """The rotation a spec's ``rotation`` names (None: off), starting with
        ``game``; ValueError if ``game`` is not one of its games."""
        if value == ROTATION_OFF:
            return None
        games = tuple(Game(v) for v in value.split("+"))
        if game not in games:
            raise ValueError(
                f"game {game.value} is not one of the rotation's games ({value}): "
                "a mixed table starts with one of them"
            )
        return cls(games, hands, games.index(game))

    def game_of(self, hand: int) -> Game:
        """The game of the table's hand number ``hand`` (0: its first)."""
        return self.games[(self.first + hand // self.hands) % len(self.games)]


class GameRotation:
    """Which game the table deals next, and what it tells of it (see the module).
    ``rules`` are the table's (its first game's), ``dealt`` the hands it dealt before."""

    def __init__(self, rules: TableRules, rotation: Rotation | None, dealt: int = 0) -> None:
        self._rules = rules
        self._rotation = rotation
        self._dealt = dealt
        self._told: MixedGame | None = None

    @property
    def mixed(self) -> str:
        """The mixed game's name in the histories, or "" (one game)."""
        return MIXED_NAME if self._rotation is not None else ""

    def rules(self) -> TableRules:
        """The rules of the next hand: the table's, with the game its turn brings."""
        if self._rotation is None:
            return self._rules
        return replace(self._rules, game=self._rotation.game_of(self._dealt))

    def dealt(self) -> tuple[MixedGame, ...]:
        """A hand was dealt (with :meth:`rules`); what to tell of its game (nothing at
        a table of one game)."""
        self._dealt += 1
        told = self.info(notices=True)
        self._told = told
        return () if told is None else (told,)

    def info(self, *, notices: bool = False) -> MixedGame | None:
        """The hand in play's game (the last dealt; before any, the first to come)
        and what comes next, or None at a table of one game. ``notices``: with the
        notice of a hand that starts or ends a game (the event told at its start)."""
        rotation = self._rotation
        if rotation is None:
            return None
        if not notices and self._told is not None:
            return self._told
        hand = max(0, self._dealt - 1)
        game = rotation.game_of(hand)
        left = rotation.hands - 1 - hand % rotation.hands
        following = rotation.game_of(hand + left + 1)
        said = []
        if notices and hand % rotation.hands == 0:
            said.append(f"Now playing: {game_name(game)}")
        if notices and left == 0:
            said.append(f"The game changes to {game_name(following)} after this hand")
        return MixedGame(game, following, left, MIXED_NAME, ". ".join(said))
