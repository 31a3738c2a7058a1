"""What a table is: the operator's :class:`TableSpec` and the :class:`TableConfig` it runs with.

A :class:`TableSpec` is what an operator asks for when he opens a table (``POST
/api/v1/tables``, all amounts in chips), and what the room stores to open the table
again after a restart. :meth:`TableSpec.config` checks it and turns it into the
table's :class:`TableConfig`: its :class:`~stud8.core.rules.TableRules` and the room's
settings (buy-in range, pace, clocks).

>>> spec = TableSpec(ante=1, bring_in=2, small_bet=4, big_bet=8, bots=2)
>>> spec.config("t1").rules.max_seats
8
>>> TableSpec(timeout_policy="never").config("t1")
Traceback (most recent call last):
...
ValueError: timeout_policy must be one of all_in_protection, check_or_fold, not 'never'

Each option of RULES.md is a :class:`RuleOption` of :data:`RULE_OPTIONS`, with its
default (TableRules's), what it allows and one line saying what it does; the two
of a mixed table (``rotation``, ``rotation_hands``: :mod:`stud8.server.table.rotation`)
are the table's, not TableRules's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import MISSING, dataclass, fields
from enum import Enum, StrEnum
from fractions import Fraction
from typing import Any, cast

from stud8.core.events import Event, HandMucked, HandShown
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
from stud8.server.table.rotation import (
    MIXED_NAME,
    ROTATION_CHOICES,
    ROTATION_DEFAULTS,
    ROTATION_OFF,
    Rotation,
)
from stud8.tools.bots import BOTS

__all__ = ["REVEAL_SECONDS", "RULE_OPTIONS", "OptionKind", "RuleOption", "TableConfig", "TableSpec"]

Choice = str | int  # an allowed value as JSON carries it (an enum's value, a street)


class OptionKind(StrEnum):
    """The kind of an option's value."""

    CHOICE = "choice"  # one of its choices
    INT = "int"  # a whole number (at least its minimum)
    BOOL = "bool"  # yes or no
    RATE = "rate"  # a percentage as text ('5' or '5/2')


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One option of RULES.md an operator chooses for a table: the one place that says
    what it is. ``name`` is its field in :class:`TableSpec` and in
    :class:`~stud8.core.rules.TableRules` (whose default it has: the rule book's); the
    spec's checks, the REST schema, the operator's form and the lobby's details are
    all made from these (``GET /api/v1/tables/options``)."""

    name: str
    label: str  # a few words, for a form's field and the lobby's details
    doc: str  # one line: what it does, and where RULES.md says so
    # the allowed values and their words; () for a number or a yes/no
    choices: tuple[tuple[Choice, str], ...] = ()
    minimum: int | None = None  # a number's least value
    nullable: bool = False  # null is allowed (a number: none, no cap)
    kind: OptionKind = OptionKind.CHOICE

    @property
    def default(self) -> Choice | bool | None:
        """The table's value when nobody chooses: TableRules's, as JSON carries it."""
        value = _RULE_DEFAULTS[self.name]
        if isinstance(value, Enum):
            return cast(Choice, value.value)
        if isinstance(value, Fraction):
            return str(value)
        return cast(Choice | bool | None, value)

    def refusal(self, value: object) -> str | None:
        """Why ``value`` is not allowed (naming the option and what is), or None."""
        if value is None and self.nullable:
            return None
        if self.choices:
            allowed = [v for v, _ in self.choices]
            if type(value) is type(allowed[0]) and value in allowed:
                return None
            return f"{self.name} must be one of {', '.join(map(str, allowed))}, not {value!r}"
        if self.kind is OptionKind.BOOL:
            return None if type(value) is bool else f"{self.name} must be true or false"
        if self.kind is OptionKind.INT:
            least = 0 if self.minimum is None else self.minimum
            if type(value) is int and value >= least:
                return None
            none = " or null (none)" if self.nullable else ""
            return f"{self.name} must be a whole number of {least} or more{none}, not {value!r}"
        return None  # a rate: TableRules says what is wrong with it


def _enum_choices(enum: type[Enum], *words: str) -> tuple[tuple[Choice, str], ...]:
    return tuple(zip((m.value for m in enum), words, strict=True))


_RULE_DEFAULTS: dict[str, Any] = {
    **{f.name: f.default for f in fields(TableRules) if f.default is not MISSING},
    **ROTATION_DEFAULTS,  # a table's, not a hand's: the game of each hand comes from it
}

# Every option of RULES.md, in the order the operator's form shows them.
RULE_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "game",
        "Game",
        "The game of the family (RULES.md 8); at a mixed table, the one it starts with.",
        _enum_choices(Game, "Stud Hi/Lo (8 or better)", "Seven Card Stud", "Razz"),
    ),
    RuleOption(
        "rotation",
        "Mixed games",
        "A mixed table rotates these games (RULES.md 8), starting with its game; off: one game.",
        ROTATION_CHOICES,
    ),
    RuleOption(
        "rotation_hands",
        "Hands of each game",
        "A mixed table changes game after this many hands; null: every orbit, as many hands "
        "as it has seats (PokerStars: every 8 hands at 8-max).",
        minimum=1,
        nullable=True,
        kind=OptionKind.INT,
    ),
    RuleOption(
        "structure",
        "Structure",
        "Fixed limit, pot limit or no limit (RULES.md 3).",
        _enum_choices(BettingStructure, "Fixed limit", "Pot limit", "No limit"),
    ),
    RuleOption(
        "all_in_low_card",
        "Low card all-in for the ante",
        "The player on his left must bring in, or may fold without paying (RULES.md 2).",
        _enum_choices(AllInLowCard, "next must bring in", "next may fold"),
    ),
    RuleOption(
        "first_to_act_tie",
        "First to act, tied up cards",
        "An exact tie of the highest hand showing goes by position, or by suit (RULES.md 3).",
        _enum_choices(FirstToActTie, "by position", "by highest card's suit"),
    ),
    RuleOption(
        "big_bet_street",
        "Big bets from street",
        "Fixed limit's big bet (pot and no limit's minimum bet) from this street (RULES.md 3).",
        ((4, "4th street"), (5, "5th street"), (6, "6th street"), (7, "7th street")),
    ),
    RuleOption(
        "open_pair_big_bet",
        "Open pair on 4th allows the big bet",
        "Seven Card Stud (high), fixed limit: an open pair on 4th street (RULES.md 8).",
        kind=OptionKind.BOOL,
    ),
    RuleOption(
        "raise_cap",
        "Raise cap",
        "Raises allowed after a round's bet in fixed limit; null: no cap (RULES.md 3).",
        minimum=1,
        nullable=True,
        kind=OptionKind.INT,
    ),
    RuleOption(
        "heads_up_cap",
        "Raise cap heads-up",
        "When the raise cap is lifted heads-up (RULES.md 3).",
        _enum_choices(
            HeadsUpCap, "lifted when heads-up", "lifted if the round starts heads-up", "never"
        ),
    ),
    RuleOption(
        "community_card_first_to_act",
        "Community card: first to act",
        "Who acts first on 7th street when the deck runs out (RULES.md 4).",
        _enum_choices(CommunityCardFirstToAct, "as on 6th street", "high hand with the card"),
    ),
    RuleOption(
        "show_order_no_bet",
        "Shows first, no last bet",
        "Who shows first when nobody bet on the last round (RULES.md 5).",
        _enum_choices(ShowOrderNoBet, "earliest seat", "first to act on 7th"),
    ),
    RuleOption(
        "rake_percent",
        "Rake %",
        "The operator's share of each pot, rounded down to the chip: '5' or '5/2' (RULES.md 5).",
        kind=OptionKind.RATE,
    ),
    RuleOption(
        "rake_cap",
        "Rake cap",
        "The most chips raked from a hand; null: no cap (RULES.md 5).",
        minimum=0,
        nullable=True,
        kind=OptionKind.INT,
    ),
    RuleOption(
        "rake_third_street",
        "Rake hands ending on 3rd street",
        "Whether a hand that ends on 3rd street is raked (RULES.md 5).",
        kind=OptionKind.BOOL,
    ),
    RuleOption(
        "odd_chip_half",
        "Odd chip of a split pot",
        "Which half of a split pot takes its odd chip (RULES.md 5.2).",
        _enum_choices(OddChipHalf, "the high half", "the low half"),
    ),
    RuleOption(
        "odd_chip",
        "Odd chip among tied hands",
        "Decided by all of the player's cards, or his five-card hand's (RULES.md 5.3).",
        _enum_choices(OddChip, "all his cards", "his five-card hand"),
    ),
    RuleOption(
        "action_seconds",
        "Action seconds",
        "A player's time to act (RULES.md 6).",
        minimum=0,
        kind=OptionKind.INT,
    ),
    RuleOption(
        "time_bank_seconds",
        "Time bank seconds",
        "The visible countdown after the time to act (RULES.md 6).",
        minimum=0,
        kind=OptionKind.INT,
    ),
    RuleOption(
        "timeout_policy",
        "When time runs out",
        "All-in protection, or check if he can, else fold (RULES.md 6).",
        _enum_choices(TimeoutPolicy, "all-in protection", "check, else fold"),
    ),
)
_OPTION_BY_NAME = {o.name: o for o in RULE_OPTIONS}
_TABLE_OPTIONS = frozenset(ROTATION_DEFAULTS)  # options of the table, not of TableRules


def _default(name: str) -> Any:
    """A :class:`TableSpec` field's default: its option's (the rule book's)."""
    return _OPTION_BY_NAME[name].default


# The pace of a showdown on the screen: the clients turn the hands over (and the
# mucks) one each this many seconds, in show order (the welcome's table says it).
REVEAL_SECONDS = 0.65


@dataclass(frozen=True, slots=True, kw_only=True)
class TableConfig:
    """The settings a table runs with (see :meth:`TableSpec.config`)."""

    table_id: str
    rules: TableRules
    min_buy_in: int
    max_buy_in: int
    between_hands: float = 2.0  # seconds from one hand's end to the next's start
    # After a showdown the next deal waits until the clients have turned every hand
    # over (one each REVEAL_SECONDS) and shown the results this long (0: no wait).
    showdown_seconds: float = 0.0
    bot_delay: float = 0.5  # seconds a bot waits before it acts
    offer_seconds: float = 30.0  # a freed seat is held this long for the first waiting
    # a player dealt out (sat out, disconnected, no chips) this long is stood up
    sit_out_seconds: float = 600.0
    # A player (never a bot) whose time runs out is sat out from the next hand until he
    # says he is back (``come_back``), as real rooms do. Off here, so a table built
    # directly keeps its players dealt in; the room's tables get it from their
    # TableSpec, where it is on by default.
    sit_out_on_timeout: bool = False
    # Events kept for viewers who come back (one who missed more gets a snapshot):
    # about five hands at a full table. Every event kept is an object the garbage
    # collector walks, at every table, so not more.
    history_size: int = 500
    remembered_commands: int = 4096  # command ids kept to answer repeats
    # Events are numbered from first_seq + 1. A table that comes back after a
    # restart starts far above its old numbers, so that a client's last_seen from
    # before the restart is answered with a snapshot, never with new events.
    first_seq: int = 0
    # A mixed table's games (None: one game, the rules'), and the hands it dealt
    # before (a table back after a restart goes on with its rotation where it was)
    rotation: Rotation | None = None
    hands_dealt: int = 0
    observer_chat: bool = False  # viewers who are not seated may chat too
    # chat lines a player may send in so many seconds (None: no limit); the room
    # opens its tables with stud8.server.wire.limits.CHAT_RATE
    chat_rate: tuple[int, float] | None = None

    def __post_init__(self) -> None:
        if not 0 < self.min_buy_in <= self.max_buy_in:
            raise ValueError(
                f"the buy-in range must be 0 < min <= max, got {self.min_buy_in}..{self.max_buy_in}"
            )
        if not self.offer_seconds > 0:
            raise ValueError(f"offer_seconds must be more than 0, got {self.offer_seconds}")
        if not self.sit_out_seconds > 0:
            raise ValueError(f"sit_out_seconds must be more than 0, got {self.sit_out_seconds}")
        if self.between_hands < 0 or self.bot_delay < 0 or self.showdown_seconds < 0:
            raise ValueError("between_hands, bot_delay and showdown_seconds must be 0 or more")

    def results_pause(self, events: Sequence[Event]) -> float:
        """How long after a hand's end its results stay before the next deal: after a
        showdown, the hands turned over one each :data:`REVEAL_SECONDS` (a muck is a
        step too), then ``showdown_seconds``; 0 for a hand won without a showdown."""
        if self.showdown_seconds <= 0:
            return 0.0
        steps = sum(1 for e in events if type(e) is HandShown or type(e) is HandMucked)
        if not any(type(e) is HandShown for e in events):
            return 0.0
        return (steps - 1) * REVEAL_SECONDS + self.showdown_seconds


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSpec:
    """What an operator asks for when creating a table (all amounts in chips)."""

    # The options of RULES.md (RULE_OPTIONS says what each is, and its default) and
    # the room's settings. An enum's option is its value's text, as JSON carries it.
    game: str = _default("game")
    ante: int = 1
    bring_in: int = 2
    small_bet: int = 4
    big_bet: int = 8
    structure: str = _default("structure")
    seats: int = 8
    min_buy_in: int = 40
    max_buy_in: int = 400
    action_seconds: int = _default("action_seconds")
    time_bank_seconds: int = _default("time_bank_seconds")
    reconnect_seconds: int = 20
    rake_percent: str = _default("rake_percent")
    rake_cap: int | None = _default("rake_cap")
    bots: int = 0
    bot_policy: str = "rules"
    between_hands: float = 2.0
    # the showdown's results stay this long before the next deal (after every hand
    # is turned over): long enough to read on any screen
    showdown_seconds: float = 5.0
    bot_delay: float = 0.5
    offer_seconds: float = 30.0  # a freed seat is held this long for the first waiting
    timeout_policy: str = _default("timeout_policy")
    sit_out_seconds: float = 600.0  # a player dealt out this long is stood up
    # a player whose time runs out sits out from the next hand until he is back
    sit_out_on_timeout: bool = True
    observer_chat: bool = False  # viewers who are not seated may chat too (off: players only)
    # a private table: only the accounts its invitation admitted (and operators) see
    # it, watch it or sit at it (stud8.server.books.invitations)
    private: bool = False
    all_in_low_card: str = _default("all_in_low_card")
    first_to_act_tie: str = _default("first_to_act_tie")
    big_bet_street: int = _default("big_bet_street")
    open_pair_big_bet: bool = _default("open_pair_big_bet")
    raise_cap: int | None = _default("raise_cap")
    heads_up_cap: str = _default("heads_up_cap")
    community_card_first_to_act: str = _default("community_card_first_to_act")
    show_order_no_bet: str = _default("show_order_no_bet")
    rake_third_street: bool = _default("rake_third_street")
    odd_chip_half: str = _default("odd_chip_half")
    odd_chip: str = _default("odd_chip")
    # a mixed table: the games it rotates ("off": one game) and the hands of each
    # (None: every orbit, as many hands as seats)
    rotation: str = _default("rotation")
    rotation_hands: int | None = _default("rotation_hands")

    def rules(self) -> TableRules:
        """The game's rules at this table; ValueError names the option that is wrong
        and what it allows."""
        chosen: dict[str, Any] = {}
        for option in RULE_OPTIONS:
            value = getattr(self, option.name)
            if (why := option.refusal(value)) is not None:
                raise ValueError(why)
            if option.name not in _TABLE_OPTIONS:
                chosen[option.name] = value
        try:
            chosen["rake_percent"] = Fraction(self.rake_percent)
        except (TypeError, ValueError, ZeroDivisionError):
            raise ValueError(
                f"rake_percent must be a number like '5' or '5/2', not {self.rake_percent!r}"
            ) from None
        return TableRules(
            ante=self.ante,
            bring_in=self.bring_in,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            reconnect_seconds=self.reconnect_seconds,
            max_seats=self.seats,
            **chosen,
        )

    @property
    def mixed(self) -> str:
        """A mixed table's game in its histories ("Triple Stud"), or "" (one game)."""
        return "" if self.rotation == ROTATION_OFF else MIXED_NAME

    def rotation_of(self, rules: TableRules) -> Rotation | None:
        """The games of a mixed table (None: one game); ValueError if its game is not
        one of them."""
        hands = self.seats if self.rotation_hands is None else self.rotation_hands
        return Rotation.of(self.rotation, hands, rules.game)

    def config(
        self,
        table_id: str,
        *,
        first_seq: int = 0,
        chat_rate: tuple[int, float] | None = None,
        hands_dealt: int = 0,
    ) -> TableConfig:
        """The table's settings (``chat_rate``: the room's limit on chat, see
        :class:`TableConfig`; ``hands_dealt``: the hands it dealt before, a table
        back after a restart); ValueError says what is wrong with the spec."""
        rules = self.rules()
        rotation = self.rotation_of(rules)
        if not 0 <= self.bots <= rules.max_seats:
            raise ValueError(f"bots must be 0 to {rules.max_seats}, got {self.bots}")
        if not isinstance(self.sit_out_on_timeout, bool):
            raise ValueError(
                f"sit_out_on_timeout must be true or false, got {self.sit_out_on_timeout!r}"
            )
        if self.bot_policy not in BOTS:
            raise ValueError(f"no bot policy {self.bot_policy!r} (there are {', '.join(BOTS)})")
        return TableConfig(
            table_id=table_id,
            rules=rules,
            min_buy_in=self.min_buy_in,
            max_buy_in=self.max_buy_in,
            between_hands=self.between_hands,
            showdown_seconds=self.showdown_seconds,
            bot_delay=self.bot_delay,
            offer_seconds=self.offer_seconds,
            sit_out_seconds=self.sit_out_seconds,
            sit_out_on_timeout=self.sit_out_on_timeout,
            first_seq=first_seq,
            rotation=rotation,
            hands_dealt=hands_dealt,
            observer_chat=self.observer_chat,
            chat_rate=chat_rate,
        )
