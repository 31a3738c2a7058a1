"""A rule-based stud player: plain, solid poker from hand-written rules.

It plays the table's game: the rules below are Stud Hi/Lo's; in Seven Card Stud it
values its hand for high only and in Razz for the ace-to-five low only
(:mod:`stud8.tools.bots.games`), with the same betting rules. Deciding from a seat
window it reads the game from the table's rules; from a HandView (which does not say
the game) it plays the ``game`` it was made for.

It sees only what its seat sees (its own down cards, every up card, the pot and
the bets) and decides in a few microseconds, without simulation:

* **3rd street**: plays three to a low (better with an ace or wheel cards), rolled-up
  trips, big live pairs, a low pair with an ace, three suited low cards; folds
  rubbish such as K-9-4 offsuit when someone has completed; brings in (never
  completes) with junk; completes or raises with its best hands.
* **4th to 7th street**: scores its high hand and its low (made or drawing), counts
  the cards it has seen for its outs, and marks its hand down against scare cards (a
  pair showing over its pair, four low cards showing over a weak hand). Bets and
  raises for value with made hands (a made 8-low or better with a pair, two pair or
  better, a made wheel), keeps drawing to a low while the pot pays for it, gives up
  busted draws without a high hand, and never folds when it can check.
* **Heads-up**, where the raise cap may be lifted (RULES.md 3), it re-raises only up to
  the usual cap, a bet and three raises (:data:`MAX_BETS`), unless it holds a lock or
  near-lock: the nut low (a made wheel) or four of a kind or better. Past that it
  calls, so a raising war between two strong hands ends.

>>> import random
>>> from stud8.core import Deck, Hand, TableRules
>>> rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
>>> # Seat 1 is dealt rolled-up queens; seat 2 brings in with the 2c.
>>> hand = Hand.start(rules=rules, stacks={1: 100, 2: 100},
...                   deck=Deck.from_cards("Qs 9d Qh 8c Qd 2c"))
>>> bot = RuleBasedBot(random.Random(1))
>>> _ = hand.apply(bot.act(hand.view(2)))   # junk: it brings in, it does not complete
>>> hand.events[-1]
BringInPosted(seat=2, amount=2, all_in=False)
>>> bot.act(hand.view(1))                   # trips: it completes
Complete(to=4)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from stud8.core.actions import (
    Action,
    ActionKind,
    BringIn,
    Call,
    Check,
    Fold,
    LegalAction,
    make_action,
)
from stud8.core.cards import Card
from stud8.core.rules import Game
from stud8.core.views import HandView, SeatView
from stud8.tools.bots import games
from stud8.tools.bots.reading import (
    Holding,
    OwnHand,
    board_of,
    hand_points,
    mark_down,
    pair_of_three,
    read_own,
    starting_tier,
    third_street_tier,
)

if TYPE_CHECKING:
    from stud8.tools.bots.reading import Board
    from stud8.tools.bots.window import SeatWindow

__all__ = ["MAX_BETS", "RuleBasedBot", "hand_points", "starting_tier"]

#: Bets on a street (the first bet or completion and the raises) the bot makes at most
#: without a lock: the usual cap. Heads-up the cap may be lifted; a sensible player
#: still stops re-raising there unless he cannot lose his half.
MAX_BETS = 4

_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_BRING_IN = ActionKind.BRING_IN
_COMPLETE = ActionKind.COMPLETE
_BET = ActionKind.BET
_RAISE = ActionKind.RAISE
# The plain actions, made once (actions are immutable).
_CHECK_ACTION: Action = Check()
_CALL_ACTION: Action = Call()
_BRING_IN_ACTION: Action = BringIn()
_FOLD_ACTION: Action = Fold()


def _action(legal: LegalAction) -> Action:
    """The action of ``legal`` (a complete, bet or raise at its smallest amount)."""
    return make_action(legal.kind, legal.min_to if legal.kind in _SIZED_KINDS else None)


_SIZED_KINDS = frozenset((_COMPLETE, _BET, _RAISE))


class _Options:
    """One decision's legal actions, read for the rules: the actions the bot may choose
    (made once), and what the betting so far says. The last of a kind offered twice (the
    open pair's two bets) counts: the larger."""

    __slots__ = (
        "aggressive",
        "can_bring_in",
        "full_raise_to",
        "give_up",
        "legal",
        "opening",
        "passive",
        "raise_to",
        "to_call",
    )

    def __init__(self, legal: Sequence[LegalAction]) -> None:
        by_kind = {a.kind: a for a in legal}
        self.legal = legal  # what the options are for (kept alive: see _options)
        call = by_kind.get(_CALL)
        self.to_call = call.adds if call is not None else 0
        self.can_bring_in = _BRING_IN in by_kind
        # 3rd street: the bring-in or a completion still to be made (nobody completed)
        self.opening = self.can_bring_in or _COMPLETE in by_kind
        raise_ = by_kind.get(_RAISE)
        self.raise_to = (raise_.min_to or 0) if raise_ is not None else None
        # the smallest full bet or raise offered, which tells the size of a bet
        full = raise_ or by_kind.get(_BET)
        self.full_raise_to = (
            full.min_to
            if full is not None and full.min_to is not None and not full.all_in
            else None
        )
        aggressive = raise_ or by_kind.get(_BET) or by_kind.get(_COMPLETE)
        # Complete, bet or raise (at the smallest amount), if one is offered.
        self.aggressive = _action(aggressive) if aggressive is not None else None
        # The cheapest way to stay in: check, else call, else bring in, else fold.
        for kind in (_CHECK, _CALL, _BRING_IN, _FOLD):
            if kind in by_kind:
                self.passive = _action(by_kind[kind])
                break
        else:  # only an aggressive action is offered (not with the engine's rules)
            self.passive = _action(next(iter(by_kind.values())))
        # Giving up: check if possible (never fold for free), else fold, else the cheapest.
        if _CHECK in by_kind:
            self.give_up = _CHECK_ACTION
        elif _FOLD in by_kind:
            self.give_up = _FOLD_ACTION
        else:
            self.give_up = self.passive


# The options of the legal actions offered, by the identity of their tuple: the engine
# offers the same few tuples over and over. An entry keeps its tuple alive, so no other
# object can take its id while it is there.
_OPTIONS: dict[int, _Options] = {}


def _options(legal: tuple[LegalAction, ...]) -> _Options:
    options = _OPTIONS.get(id(legal))
    if options is None or options.legal is not legal:
        options = _Options(legal)
        if len(_OPTIONS) >= 4096:
            _OPTIONS.clear()
        _OPTIONS[id(legal)] = options
    return options


class _Table(Protocol):
    """What the street methods read of the table (a HandView or a SeatWindow)."""

    @property
    def pot(self) -> int: ...


class RuleBasedBot:
    """A sensible fixed-limit Stud Hi/Lo player built from rules (see the module doc).

    It decides from a :class:`~stud8.core.views.HandView` (:meth:`act`) or, the same
    way but faster, from a :class:`~stud8.tools.bots.window.SeatWindow` (:meth:`decide`),
    reading its own cards once a street (only the new ones), and the opponents' boards
    again only when somebody folds.
    """

    name = "rules"

    def __init__(self, rng: random.Random, *, game: Game = Game.STUD_HI_LO) -> None:
        self.rng = rng
        self.game = game  # the game of act(view): a view does not say it
        # decide(): what was worked out for this window's hand, on this street
        self._window: SeatWindow | None = None
        self._holding: Holding | None = None  # its cards in this window's hand
        self._street = 0
        self._third = False  # 3rd street, three cards: tier and pair
        self._tier = 0.0
        self._pair = 0
        self._own: OwnHand | None = None  # later streets: the own cards read
        self._live: tuple[int, ...] | None = None  # the live seats the value was for
        self._value = 0.0
        self._opponents = 0

    # ------------------------------------------------------------------ act
    def act(self, view: HandView) -> Action:
        seat = view.viewer
        legal = view.legal_actions
        if seat is None or not legal:
            raise ValueError("a bot acts only on its own turn, with its seat's view")
        me: SeatView | None = None
        dead = [0] * 15  # up cards of the other seats, by rank (ace 14)
        boards: list[Board] = []  # the live opponents'
        for s in view.seats:
            if s.seat == seat:
                me = s
                continue
            for c in s.up_cards:
                dead[c.rank] += 1
            if not s.folded:
                boards.append(board_of(s.up_cards))
        assert me is not None
        mine = [c for c in me.down_cards if c is not None]
        mine.extend(me.up_cards)
        if view.community_card is not None:
            mine.append(view.community_card)
        options = _options(tuple(legal))
        game = self.game
        if game is not Game.STUD_HI_LO:
            ups = [s.up_cards for s in view.seats if s.seat != seat and not s.folded]
            return self._by_game(game, options, mine, dead, ups, view.current_bet, view)
        if view.street == 3 and len(mine) == 3:

            def raised_over(pair: int) -> bool:
                return any(
                    s.bet == view.current_bet and s.up_cards and s.up_cards[0].rank > pair
                    for s in view.seats
                    if s.seat != seat and not s.folded
                )

            tier = starting_tier(mine, dead)
            pair = pair_of_three(mine)
            return self._third_street(options, tier, pair, view.current_bet, view, raised_over)
        n = len(mine)
        own = read_own(mine, max(0, 7 - n), dead, n + sum(dead))
        return self._later_street(
            options, _value(own, boards), own, len(boards), view.current_bet, view, view.street
        )

    def decide(self, window: SeatWindow) -> Action:
        """The same choice as :meth:`act`, from a window, reusing this street's work."""
        legal = window.legal_actions
        if not legal:
            raise ValueError("a bot acts only on its own turn")
        game = window.rules.game
        if game is not Game.STUD_HI_LO:
            seat = window.seat
            mine = list(window.own_cards())
            if window.community_card is not None and window.street == 7:
                mine.append(window.community_card)
            dead = list(window.up_rank_counts())
            for c in window.up_cards(seat):
                dead[c.rank] -= 1
            ups = [window.up_cards(s) for s in window.live_seats() if s != seat]
            return self._by_game(game, _options(legal), mine, dead, ups, window.current_bet, window)
        street = window.street
        if street != self._street or window is not self._window:
            self._read_street(window, street)
        options = _OPTIONS.get(id(legal))
        if options is None or options.legal is not legal:
            options = _options(legal)
        if self._third:
            return self._third_street(
                options, self._tier, self._pair, window.current_bet, window, self._raised_over
            )
        live = window.live_seats()
        own = self._own
        assert own is not None
        if live is not self._live:
            self._live = live
            shown = window.shown()
            seat = window.seat
            boards = []  # the live opponents'
            for s in live:
                if s != seat:
                    up = shown[s]
                    known = _SHOWN.get(id(up))
                    if known is None or known[0] is not up:
                        known = _shown(up)
                    boards.append(known[1])
            self._value = _value(own, boards)
            self._opponents = len(boards)
        return self._later_street(
            options, self._value, own, self._opponents, window.current_bet, window, street
        )

    def _read_street(self, window: SeatWindow, street: int) -> None:
        """Read the cards dealt since last read, once a street."""
        if window is not self._window:
            self._window = window
            self._holding = None
        self._street = street
        self._live = None
        cards = window.own_cards()  # down, down, up, ...
        if street == 3 and len(cards) == 3:
            self._third = True
            self._tier, self._pair = third_street_tier(cards, window.up_rank_counts)
            return
        self._third = False
        holding = self._holding
        if holding is None:
            holding = self._holding = Holding()
        holding.update(cards, window.community_card if street == 7 else None)
        self._own = holding.read(max(0, 7 - len(holding.cards)), self._seen)

    def _seen(self) -> tuple[Sequence[int], int]:
        """The other seats' up cards by rank, and how many cards this seat has seen.
        The counts of every up card stand for the others' (dead) cards: a hand's reading
        looks only at the low ranks it lacks, which it cannot show itself."""
        window = self._window
        holding = self._holding
        assert window is not None and holding is not None
        counts = window.up_rank_counts()
        own_up = len(window.up_cards(window.seat))
        return counts, len(holding.cards) + sum(counts) - own_up

    def _raised_over(self, pair: int) -> bool:
        """Whether a live opponent who completed or raised to the current bet shows an
        up card above ``pair`` (3rd street, from the window)."""
        window = self._window
        assert window is not None
        seat = window.seat
        current = window.current_bet
        for s in window.live_seats():
            if s != seat:
                up = window.up_cards(s)
                if up and window.street_bet(s) == current and up[0].rank > pair:
                    return True
        return False

    def _by_game(
        self,
        game: Game,
        options: _Options,
        mine: Sequence[Card],
        dead: Sequence[int],
        boards: Sequence[Sequence[Card]],
        current_bet: int,
        table: _Table,
    ) -> Action:
        """Seven Card Stud or Razz: the hand valued by the game, the same betting rules."""
        if len(mine) == 3:
            tier = games.starting_tier(game, mine, dead)
            pair = pair_of_three(mine) if game is Game.STUD_HIGH else 0

            def raised_over(rank: int) -> bool:
                return False  # the tier already counts the live cards

            return self._third_street(options, tier, pair, current_bet, table, raised_over)
        value, draw, lock = games.later_value(game, mine, max(0, 7 - len(mine)), boards)
        own = OwnHand(0, value, 0, 0.0, 0, draw, lock)
        street = min(len(mine), 7)
        return self._later_street(options, value, own, len(boards), current_bet, table, street)

    # ------------------------------------------------------------ 3rd street
    def _third_street(
        self,
        options: _Options,
        tier: float,
        pair: int,
        current_bet: int,
        table: _Table,
        raised_over: Callable[[int], bool],
    ) -> Action:
        """``raised_over(rank)``: whether a live opponent who has completed or raised to
        the current bet shows a card above ``rank``."""
        # Bets so far, as bet_level: 0 until somebody completes.
        if options.opening:
            level = 0
        elif options.raise_to is not None:
            size = options.raise_to - current_bet
            level = current_bet // size if size > 0 else 4
        else:
            level = 4  # capped
        # Scare card: somebody completed or raised showing a card above our pair.
        if level and tier < 3.5 and pair and raised_over(pair):
            tier -= 1.0
        aggressive = options.aggressive
        if tier >= 3.5:  # rolled-up trips, aces: build the pot, up to the usual cap
            if aggressive is not None and level < MAX_BETS:
                return aggressive
            return options.passive
        if tier >= 3.0:
            if level <= 1 and aggressive is not None:
                return aggressive
            return options.passive
        if tier >= 2.0:
            if level == 0 and aggressive is not None and self.rng.random() < 0.85:
                return aggressive
            if level <= 1 or (level == 2 and tier >= 2.5):
                return options.passive
            return options.give_up
        if options.can_bring_in:
            return _BRING_IN_ACTION  # the forced bet: never complete with junk
        if tier >= 1.5:
            if level <= 1:
                return options.passive
            return options.give_up
        if tier >= 1.0 and level == 0 and options.to_call <= table.pot // 3:
            return options.passive  # a cheap look for the bring-in only
        return options.give_up

    # ------------------------------------------------------- 4th to 7th street
    def _later_street(
        self,
        options: _Options,
        value: float,
        own: OwnHand,
        opponents: int,
        current_bet: int,
        table: _Table,
        street: int,
    ) -> Action:
        aggressive = options.aggressive
        # Bets and raises so far on the street (0 unopened, 1 one bet, 2 raised...).
        if current_bet == 0:
            level = 0
        else:
            full = options.full_raise_to
            if full is not None and full > current_bet:
                level = -(-current_bet // (full - current_bet))
            else:
                level = 4 if options.to_call else 1
        if value >= 3.0:
            # Heads-up the raising may go on without a cap: past the usual cap, raise
            # again only with a lock or near-lock.
            if aggressive is not None and (level < MAX_BETS or own.lock):
                return aggressive
            return options.passive
        if value >= 2.0:
            if aggressive is not None and (level == 0 or (level == 1 and value >= 2.5)):
                return aggressive
            return options.passive
        to_call = options.to_call
        if to_call == 0:
            heads_up_bet = aggressive is not None and value >= 1.5 and opponents == 1
            if heads_up_bet and self.rng.random() < 0.5:
                assert aggressive is not None
                return aggressive
            return options.give_up
        odds = table.pot / to_call
        if value >= 1.2 and (level <= 1 or odds >= 5):
            return options.passive
        if own.draw and odds >= 4:
            return options.passive
        if value >= 0.6 and odds >= 6 and (street < 7 or opponents == 1):
            return options.passive
        return options.give_up


def _value(own: OwnHand, boards: Sequence[Board]) -> float:
    """The worth of the hand from 4th street on, high and low together, against what
    the live opponents show (their ``boards``)."""
    hi, lo = mark_down(own, boards)
    value = hi + 0.5 * lo if hi >= lo else lo + 0.5 * hi
    if len(boards) == 1:
        value += 0.2  # heads-up, hands go down in value less
    return value


# The boards of the up cards seen lately, by the identity of their tuple (the windows
# of a hand keep a seat's tuple until it is dealt another up card): (the tuple, kept
# alive so that no other object takes its id while it is here; its board).
_SHOWN: dict[int, tuple[tuple[Card, ...], Board]] = {}


def _shown(up: tuple[Card, ...]) -> tuple[tuple[Card, ...], Board]:
    if len(_SHOWN) >= 1 << 15:
        _SHOWN.clear()
    known = _SHOWN[id(up)] = (up, board_of(up))
    return known
