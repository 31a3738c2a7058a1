"""Writing PHH for the three stud games: :func:`hand_to_phh` (conventions:
:mod:`stud8.formats.phh`).

Also the pieces the reader shares: :class:`PhhError`, the variant codes and the
timeout commentary.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from enum import Enum

from stud8.core.cards import Card
from stud8.core.events import (
    ActionOpened,
    AntePosted,
    BetMade,
    BringInPosted,
    Called,
    CardDealt,
    Checked,
    CommunityCardDealt,
    Completed,
    Folded,
    HandMucked,
    HandShown,
    PotAwarded,
    Raised,
    StreetStarted,
    TimedOut,
    UncalledBetReturned,
)
from stud8.core.hand import Hand
from stud8.core.rules import BettingStructure, Game, TableRules
from stud8.formats import HandHistoryError, ReplayError, UnwritableError

__all__ = [
    "CODES",
    "GAME_OF_VARIANT",
    "TIMED_OUT",
    "VARIANT",
    "VARIANTS",
    "PhhError",
    "PhhReplayError",
    "hand_to_phh",
    "rule_options_names",
]

VARIANT = "F7S/8"  # Seven Card Stud Hi/Lo, the room's first game
#: The phh-std variant code of each game (fixed limit), as PokerKit reads them.
VARIANTS: Mapping[Game, str] = {Game.STUD_HI_LO: VARIANT, Game.STUD_HIGH: "F7S", Game.RAZZ: "FR"}
GAME_OF_VARIANT: Mapping[str, Game] = {code: game for game, code in VARIANTS.items()}
CODES = ", ".join(VARIANTS.values())  # for messages: "F7S/8, F7S, FR"
TIMED_OUT = "timed out"
_ACTS = (BringInPosted, Completed, BetMade, Raised, Called, Checked, Folded, TimedOut)
_CHIPS = (AntePosted, BringInPosted, Completed, BetMade, Raised, Called)
_NOT_OPTIONS = frozenset(("ante", "bring_in", "small_bet", "big_bet", "game", "structure"))


def rule_options_names() -> frozenset[str]:
    """The table options kept in ``_stud8_rules`` (all but the game, structure and forced bets)."""
    return frozenset(f.name for f in fields(TableRules)) - _NOT_OPTIONS


class PhhError(HandHistoryError):
    """A PHH text that cannot be read or replayed, or a hand PHH cannot hold.

    >>> str(PhhError("cannot read action 'p1 x'", source="a.phh", line=9))
    "a.phh:9: cannot read action 'p1 x'"
    """

    def __init__(self, message: str, *, source: str = "<phh>", line: int | None = None) -> None:
        super().__init__(message, file=source, line=line)


class PhhReplayError(PhhError, ReplayError):
    """A PHH hand that departs from the engine's rules (the line says where)."""


class PhhUnwritableError(PhhError, UnwritableError):
    """A hand PHH cannot express (a pot- or no-limit table)."""


# ------------------------------------------------------------------ writing


def _toml_str(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return _toml_str(str(value.value))
    if value is None:
        return '"none"'
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_str(value)
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return _toml_str(str(value))  # Fraction


def _rule_options(rules: TableRules) -> dict[str, object]:
    """The table options that are not the default (all but the forced bets)."""
    default = TableRules(
        ante=rules.ante, bring_in=rules.bring_in, small_bet=rules.small_bet, big_bet=rules.big_bet
    )
    return {
        f.name: getattr(rules, f.name)
        for f in fields(TableRules)
        if f.name not in _NOT_OPTIONS and getattr(rules, f.name) != getattr(default, f.name)
    }


def hand_to_phh(
    hand: Hand,
    *,
    names: Mapping[int, str] | Sequence[str] | None = None,
    hand_id: str | int | None = None,
    table: str | int | None = None,
    viewer: int | None = None,
    shows: Sequence[tuple[int, Sequence[Card]]] = (),
) -> str:
    """A finished fixed-limit hand as PHH text (``finishing_stacks`` always written).

    ``names`` by seat (or in seat order); ``hand_id`` defaults to the hand's id.
    With ``viewer`` (a seat) the other players' down cards are ``??`` unless
    shown; by default every card is written (the operator's record). ``shows``
    are voluntary shows (seat, cards): ``pN sm`` after the end of the hand, the
    cards not shown written ``??``.
    """
    result = hand.result
    if result is None:
        state = "cancelled" if hand.cancelled else "not over"
        raise PhhError(f"only a finished hand can be written as PHH; this one is {state}")
    rules = hand.rules
    if rules.structure is not BettingStructure.FIXED_LIMIT:
        structure = rules.structure.value.replace("_", "-")
        raise PhhUnwritableError(
            f"PHH's stud variants ({CODES}) are fixed-limit; this table is {structure}"
        )
    seats = hand.seats
    pn = {seat: f"p{i + 1}" for i, seat in enumerate(seats)}
    events = hand.events
    order = [e.seat for e in events if isinstance(e, (HandShown, HandMucked))]
    shown = {e.seat for e in events if isinstance(e, HandShown)}
    last_betting = max((e.street for e in events if isinstance(e, ActionOpened)), default=3)
    all_in_street = last_betting if order and last_betting < 7 else None

    def text(card: Card | None, seat: int, face_up: bool) -> str:
        hidden = viewer is not None and seat != viewer and not face_up and seat not in shown
        return "??" if hidden or card is None else str(card)

    def own(seat: int, count: int) -> str:
        cards = hand.cards(seat)[:count]
        return "".join(text(c, seat, i in (2, 3, 4, 5)) for i, c in enumerate(cards))

    actions: list[str] = []
    deals: list[CardDealt] = []
    timed_out: int | None = None
    # The betting round, as PokerKit keeps it: who acted since the last bet.
    acted: set[int] = set()
    out_of_chips: set[int] = set()
    folded: set[int] = set()
    bets = dict.fromkeys(seats, 0)
    for k, e in enumerate(events):
        if deals and not isinstance(e, CardDealt):
            for seat in seats:
                cards = "".join(text(d.card, seat, d.face_up) for d in deals if d.seat == seat)
                if cards:
                    actions.append(f"d dh {pn[seat]} {cards}")
            deals.clear()
        line = ""
        if isinstance(e, CardDealt):
            deals.append(e)
        elif isinstance(e, CommunityCardDealt):
            line = f"d db {e.card}"
        elif isinstance(e, StreetStarted) and all_in_street is not None:
            if e.street == all_in_street + 1:  # PokerKit shows down before the run-out
                actions.extend(f"{pn[s]} sm {own(s, all_in_street)}" for s in order)
        elif isinstance(e, (HandShown, HandMucked)) and e.seat == order[0]:
            if all_in_street is None or hand.community_card is None:
                actions.extend(
                    f"{pn[s]} sm {own(s, 7)}" if s in shown else f"{pn[s]} sm" for s in order
                )
        elif isinstance(e, TimedOut):
            if e.outcome == "all_in_protection":
                actions.append(f"# {pn[e.seat]} timed out: all-in protection")
            else:
                timed_out = e.seat
        elif isinstance(e, BringInPosted):
            line = f"{pn[e.seat]} pb"
        elif isinstance(e, (Completed, BetMade, Raised)):
            line = f"{pn[e.seat]} cbr {e.to}"
        elif isinstance(e, (Called, Checked)):
            line = f"{pn[e.seat]} cc"
        elif isinstance(e, Folded):
            line = f"{pn[e.seat]} f"
        if line:
            if timed_out is not None and not line.startswith("d "):
                line, timed_out = f"{line} # {TIMED_OUT}", None
            actions.append(line)
        if isinstance(e, StreetStarted):
            acted.clear()
            bets = dict.fromkeys(seats, 0)
        elif isinstance(e, UncalledBetReturned):
            out_of_chips.discard(e.seat)
        elif (isinstance(e, _CHIPS) and e.all_in) or (
            isinstance(e, TimedOut) and e.outcome == "all_in_protection"
        ):
            out_of_chips.add(e.seat)
        if isinstance(e, (Completed, BetMade, Raised)):
            acted = {e.seat}
        elif isinstance(e, (BringInPosted, Called, Checked, Folded)):
            acted.add(e.seat)
        if isinstance(e, (BringInPosted, Completed, BetMade, Raised, Called)):
            bets[e.seat] = e.amount if isinstance(e, BringInPosted) else e.to
        if isinstance(e, Folded):
            folded.add(e.seat)
            if not isinstance(events[k + 1], _ACTS) and len(folded) < len(seats) - 1:
                # The fold ended stud8's round: the one player left with chips
                # has nobody to bet against. PokerKit still has him check.
                top = max(bets.values())
                for s in seats:
                    if s not in folded | out_of_chips | acted and bets[s] == top:
                        actions.append(f"{pn[s]} cc")

    for seat, show in shows:
        if seat not in pn:
            raise PhhError(f"seat {seat} shows, but is not in the hand")
        shown_now = set(show)
        held = "".join(str(c) if c in shown_now else "??" for c in hand.cards(seat))
        actions.append(f"{pn[seat]} sm {held}")
    start = dict(hand.setup.stacks)
    won = dict.fromkeys(seats, 0)
    for e in events:
        if isinstance(e, PotAwarded):
            won[e.seat] += e.amount
    out = [
        f'variant = "{VARIANTS[rules.game]}"',
        "ante_trimming_status = true",
        f"antes = {_toml_value([rules.ante] * len(seats))}",
        f"bring_in = {rules.bring_in}",
        f"small_bet = {rules.small_bet}",
        f"big_bet = {rules.big_bet}",
        f"starting_stacks = {_toml_value([start[s] for s in seats])}",
        "actions = [",
        *(f"  {_toml_str(a)}," for a in actions),
        "]",
    ]
    hand_id = hand.hand_id if hand_id is None else hand_id
    if hand_id != "":
        out.append(f"hand = {_toml_value(hand_id)}")
    if table is not None:
        out.append(f"table = {_toml_value(table)}")
    out.append(f"seats = {_toml_value(list(seats))}")
    out.append(f"seat_count = {rules.max_seats}")
    if names is not None:
        listed = [names[s] for s in seats] if isinstance(names, Mapping) else list(names)
        if len(listed) != len(seats):
            raise PhhError(f"{len(listed)} names for {len(seats)} players")
        out.append(f"players = {_toml_value(listed)}")
    options = _rule_options(rules)
    if options:
        pairs = ", ".join(f"{k} = {_toml_value(v)}" for k, v in options.items())
        out.append(f"_stud8_rules = {{{pairs}}}")
    out.append(f"finishing_stacks = {_toml_value([result.stacks[s] for s in seats])}")
    out.append(f"winnings = {_toml_value([won[s] for s in seats])}")
    return "\n".join(out) + "\n"
