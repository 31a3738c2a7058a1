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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from stud8.core.events import Event, HandMucked, HandShown
from stud8.core.rules import BettingStructure, Game, TableRules, TimeoutPolicy
from stud8.tools.bots import BOTS

__all__ = ["REVEAL_SECONDS", "TableConfig", "TableSpec"]

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

    game: str = "stud_hi_lo"  # or "stud_high" (Seven Card Stud), "razz" (RULES.md section 8)
    ante: int = 1
    bring_in: int = 2
    small_bet: int = 4
    big_bet: int = 8
    structure: str = "fixed_limit"
    seats: int = 8
    min_buy_in: int = 40
    max_buy_in: int = 400
    action_seconds: int = 10
    time_bank_seconds: int = 20
    reconnect_seconds: int = 20
    rake_percent: str = "0"
    rake_cap: int | None = None
    bots: int = 0
    bot_policy: str = "rules"
    between_hands: float = 2.0
    # the showdown's results stay this long before the next deal (after every hand
    # is turned over): long enough to read on any screen
    showdown_seconds: float = 5.0
    bot_delay: float = 0.5
    offer_seconds: float = 30.0  # a freed seat is held this long for the first waiting
    timeout_policy: str = "all_in_protection"  # or "check_or_fold" (RULES.md section 6)
    sit_out_seconds: float = 600.0  # a player dealt out this long is stood up
    # a player whose time runs out sits out from the next hand until he is back
    sit_out_on_timeout: bool = True
    observer_chat: bool = False  # viewers who are not seated may chat too (off: players only)
    # a private table: only the accounts its invitation admitted (and operators) see
    # it, watch it or sit at it (stud8.server.books.invitations)
    private: bool = False

    def rules(self) -> TableRules:
        """The game's rules at this table; ValueError says what is wrong."""
        try:
            policy = TimeoutPolicy(self.timeout_policy)
        except ValueError:
            choices = ", ".join(p.value for p in TimeoutPolicy)
            raise ValueError(
                f"timeout_policy must be one of {choices}, not {self.timeout_policy!r}"
            ) from None
        try:
            game = Game(self.game)
        except ValueError:
            choices = ", ".join(g.value for g in Game)
            raise ValueError(f"game must be one of {choices}, not {self.game!r}") from None
        try:
            structure = BettingStructure(self.structure)
        except ValueError:
            choices = ", ".join(s.value for s in BettingStructure)
            raise ValueError(
                f"structure must be one of {choices}, not {self.structure!r}"
            ) from None
        try:
            rake = Fraction(self.rake_percent)
        except (ValueError, ZeroDivisionError):
            raise ValueError(
                f"rake_percent must be a number like '5' or '5/2', not {self.rake_percent!r}"
            ) from None
        return TableRules(
            game=game,
            ante=self.ante,
            bring_in=self.bring_in,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            structure=structure,
            rake_percent=rake,
            rake_cap=self.rake_cap,
            action_seconds=self.action_seconds,
            time_bank_seconds=self.time_bank_seconds,
            reconnect_seconds=self.reconnect_seconds,
            max_seats=self.seats,
            timeout_policy=policy,
        )

    def config(
        self,
        table_id: str,
        *,
        first_seq: int = 0,
        chat_rate: tuple[int, float] | None = None,
    ) -> TableConfig:
        """The table's settings (``chat_rate``: the room's limit on chat, see
        :class:`TableConfig`); ValueError says what is wrong with the spec."""
        rules = self.rules()
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
            observer_chat=self.observer_chat,
            chat_rate=chat_rate,
        )
