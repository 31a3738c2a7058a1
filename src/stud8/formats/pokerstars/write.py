"""Write a finished hand the way PokerStars prints a 7 Card Stud Hi/Lo hand.

The text follows the real PokerStars files in ``../shared/hh/`` (beside the repository)
line for line:
the header, the seats, the antes, ``*** 3rd STREET ***`` with its ``Dealt to``
lines, the bring-in, completions (``raises X to Y``; ``bets`` when the low card
completes instead of bringing in), the later streets up to ``*** RIVER ***``,
``*** SHOW DOWN ***`` with the hands described as PokerStars describes them
(``HI: a pair of Eights; LO: 8,7,6,3,A``), ``collected ... from pot`` / ``main
pot`` / ``side pot`` / ``side pot-1``, and the ``*** SUMMARY ***``.

Money: with a currency (``"USD"``, ``"EUR"``, ``"GBP"``) a chip is a cent and is
printed ``$0.04``; without one (``""``) chips are printed as whole numbers, and the
hand is written as a play-money hand (``(10/20)`` stakes, ``(Play Money)`` after
the table name), as PokerStars writes play-money tables.

A view: one player's (his down cards shown, the others' hidden unless shown
down; ``seat=N``), an observer's (nobody's down cards), or the operator's (every
card; ``everything=True``). Mucked hands are listed with their cards in the
summary only when the view may see them (PokerStars lists them for everyone; a
player of ours sees only what he was allowed to see at the table).

The header is the one trackers read: a numeric hand number (:func:`hand_number`:
the record's hand id when it is a number, else a number derived from it, the same
every time), the date as PokerStars writes it (``- 2026/11/26 2:15:00 ET``, after
the local time when the record keeps a local zone: ``- 2023/02/05 10:25:51 PT
[2023/02/05 13:25:51 ET]``; ``1970/01/01 0:00:00 ET`` for a hand whose time is
unknown, as trackers need one), a tournament's header (``Tournament #N, buy-in
... - Level V (200/400)``) and a mixed game's (``HORSE (7 Card Stud Hi/Lo
Limit)``). Seats sitting out, seats not dealt in and the table's other lines
(chat, players joining or sitting out) are written where the record keeps them;
a voluntary show (the winner of an uncontested pot, a muck shown later) is
``name: shows [...]`` after the pot is collected.

Not PokerStars' own: a cancelled hand ends with ``Hand cancelled`` and a summary
of the chips given back; a timeout is written ``name has timed out`` followed by
what the timeout did (no line when it left him all-in under all-in protection).
Seven Card Stud (high only) and Razz hands are written too (``7 Card Stud
Limit``, ``Razz Limit``), as best we know PokerStars writes them; a mixed table's
as PokerStars' Triple Stud (``Triple Stud (Razz Limit, 4/8)``: the record's ``mixed``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from stud8.core.cards import Card, format_cards
from stud8.core.evaluate import (
    HighCategory,
    HighValue,
    LowValue,
    RazzValue,
    best_high,
    best_low,
    best_razz_low,
)
from stud8.core.events import (
    AntePosted,
    BetMade,
    BringInPosted,
    Called,
    CardDealt,
    Checked,
    CommunityCardDealt,
    Completed,
    Event,
    Folded,
    HandCancelled,
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
    Raised,
    RakeTaken,
    StreetStarted,
    TimedOut,
    UncalledBetReturned,
)
from stud8.core.pots import PotResult
from stud8.core.rules import BettingStructure, Game
from stud8.formats import HandHistoryError
from stud8.formats.pokerstars import header_date
from stud8.formats.record import HandRecord, VoluntaryShow

__all__ = [
    "CURRENCY_SYMBOLS",
    "ENDING_EVENTS",
    "describe_high",
    "describe_low",
    "format_money",
    "hand_number",
    "pot_name",
    "table_name",
    "to_pokerstars",
    "write_pokerstars",
]

#: The date written for a hand whose time is unknown (trackers need one).
UNKNOWN_DATE = "1970/01/01 0:00:00 ET"
CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}

STRUCTURE_NAMES = {
    BettingStructure.FIXED_LIMIT: "Limit",
    BettingStructure.POT_LIMIT: "Pot Limit",
    BettingStructure.NO_LIMIT: "No Limit",
}
GAME_NAMES = {
    Game.STUD_HI_LO: "7 Card Stud Hi/Lo",
    Game.STUD_HIGH: "7 Card Stud",
    Game.RAZZ: "Razz",
}
STREET_MARKERS = {
    3: "*** 3rd STREET ***",
    4: "*** 4th STREET ***",
    5: "*** 5th STREET ***",
    6: "*** 6th STREET ***",
    7: "*** RIVER ***",
}
STREET_NAMES = {3: "3rd Street", 4: "4th Street", 5: "5th Street", 6: "6th Street", 7: "River"}

_NAMES = {
    2: "Deuce",
    3: "Three",
    4: "Four",
    5: "Five",
    6: "Six",
    7: "Seven",
    8: "Eight",
    9: "Nine",
    10: "Ten",
    11: "Jack",
    12: "Queen",
    13: "King",
    14: "Ace",
}
_PLURALS = {r: n + ("es" if r == 6 else "s") for r, n in _NAMES.items()}

#: Between two hands: three blank lines, as in PokerStars' own files.
HAND_SEPARATOR = "\n\n\n"


def format_money(amount: int, symbol: str | None) -> str:
    """Chips as PokerStars prints them: ``$0.04``, ``$1``, ``$51125.64``; or ``150``.

    >>> format_money(4, "$"), format_money(100, "$"), format_money(5112564, "$")
    ('$0.04', '$1', '$51125.64')
    >>> format_money(150, None)
    '150'
    """
    if symbol is None:
        return str(amount)
    whole, cents = divmod(amount, 100)
    return f"{symbol}{whole}" if cents == 0 else f"{symbol}{whole}.{cents:02d}"


def describe_high(value: HighValue) -> str:
    """A high hand as PokerStars describes it.

    >>> from stud8.core.evaluate import best_high
    >>> from stud8.core.cards import parse_cards
    >>> describe_high(best_high(parse_cards("Ad 5s 8d Ac 8c Jd Th")))
    'two pair, Aces and Eights'
    >>> describe_high(best_high(parse_cards("3h Ah 2s 4d 7d 5h 6d")))
    'a straight, Three to Seven'
    """
    cat, r = value.category, value.ranks
    if cat is HighCategory.HIGH_CARD:
        return f"high card {_NAMES[r[0]]}"
    if cat is HighCategory.ONE_PAIR:
        return f"a pair of {_PLURALS[r[0]]}"
    if cat is HighCategory.TWO_PAIR:
        return f"two pair, {_PLURALS[r[0]]} and {_PLURALS[r[2]]}"
    if cat is HighCategory.THREE_OF_A_KIND:
        return f"three of a kind, {_PLURALS[r[0]]}"
    if cat is HighCategory.STRAIGHT:
        return f"a straight, {_NAMES[r[4]]} to {_NAMES[r[0]]}"
    if cat is HighCategory.FLUSH:
        return f"a flush, {_NAMES[r[0]]} high"
    if cat is HighCategory.FULL_HOUSE:
        return f"a full house, {_PLURALS[r[0]]} full of {_PLURALS[r[3]]}"
    if cat is HighCategory.FOUR_OF_A_KIND:
        return f"four of a kind, {_PLURALS[r[0]]}"
    if r[0] == 14:
        return "a Royal Flush"
    return f"a straight flush, {_NAMES[r[4]]} to {_NAMES[r[0]]}"


def describe_low(value: LowValue) -> str:
    """An 8-or-better low as PokerStars writes it: ``8,7,6,3,A``."""
    return ",".join("A" if r == 1 else str(r) for r in value.ranks)


def describe(high: HighValue, low: LowValue | RazzValue | None, game: Game) -> str:
    """``HI: a pair of Eights; LO: 8,7,6,3,A`` (no ``LO`` part without a low); in
    Stud, high only, ``a pair of Eights``; in Razz ``Lo: 7,5,4,3,A``."""
    if game is Game.RAZZ and isinstance(low, RazzValue):
        ranks = sorted(low.ranks, reverse=True)
        return "Lo: " + ",".join("A" if r == 1 else "23456789TJQK"[r - 2] for r in ranks)
    if game is Game.STUD_HIGH:
        return describe_high(high)
    text = "HI: " + describe_high(high)
    return text if not isinstance(low, LowValue) else f"{text}; LO: {describe_low(low)}"


def pot_name(index: int, pot_count: int) -> str:
    """As PokerStars names pots: ``pot``; or ``main pot`` and ``side pot``; or
    ``side pot-1``, ``side pot-2``... when there are several side pots."""
    if pot_count <= 1:
        return "pot"
    if index == 0:
        return "main pot"
    return "side pot" if pot_count == 2 else f"side pot-{index}"


def hand_number(hand_id: str) -> int:
    """A hand's (or tournament's) number for PokerStars text: the id itself when it
    is a whole number (of up to 18 digits), else an 18-digit number derived from
    the id by a hash, the same every time (two ids share one with a chance of
    about n**2 / 2e18 among n hands).

    >>> hand_number("241636097024"), hand_number("")
    (241636097024, 0)
    >>> hand_number("sim7-1") == hand_number("sim7-1") != hand_number("sim7-2")
    True
    >>> len(str(hand_number("0c5f21d7a0c14f7a9f0e8d3b1a2c4e6f")))
    18
    """
    if not hand_id:
        return 0
    numeric = hand_id.isascii() and hand_id.isdigit() and len(hand_id) <= 18
    if numeric and (hand_id == "0" or hand_id[0] != "0"):
        return int(hand_id)
    digest = hashlib.blake2b(hand_id.encode("utf-8"), digest_size=8).digest()
    return 10**17 + int.from_bytes(digest, "big") % (9 * 10**17)


def table_name(table: str, number: int) -> str:
    """The table's name as written: the record's own, or, for a history that names
    no table (Absolute Poker's cash and tournament hands, a PHH file without
    ``table``), ``Hand N`` after the hand's number, since trackers refuse a header
    with an empty name (``Table ''``) and the hand's number is all the source says
    that tells the table. Written so, it reads back as that name.

    >>> table_name("Dawn", 7), table_name("", 1300000000), table_name("  ", 7)
    ('Dawn', 'Hand 1300000000', 'Hand 7')
    """
    return table if table.strip() else f"Hand {number}"


class _Writer:
    """Writes one hand; the state the lines depend on (street bets, cards so far)."""

    def __init__(
        self,
        record: HandRecord,
        seat: int | None,
        everything: bool,
        currency: str,
        number: int | None = None,
    ) -> None:
        self.record = record
        self.viewer = seat
        self.everything = everything
        if currency and currency not in CURRENCY_SYMBOLS:
            raise HandHistoryError(
                f"unknown currency {currency!r}: use one of {', '.join(CURRENCY_SYMBOLS)} or ''"
            )
        self.currency = currency
        self.symbol = CURRENCY_SYMBOLS.get(currency) if currency else None
        self.names = record.names
        self.lines: list[str] = []
        self.cards: dict[int, list[Card]] = {s.seat: [] for s in record.seats}
        self.up: dict[int, list[Card]] = {s.seat: [] for s in record.seats}
        self.community: Card | None = None
        self.street = 3
        self.current = 0  # what a call reaches on this street
        self.bring_in_pending = True
        self.folded_on: dict[int, int] = {}
        self.voluntary: set[int] = set()
        self.number = hand_number(record.hand_id) if number is None else number
        self.notes: dict[int, list[str]] = {}
        for line in record.table_lines:
            self.notes.setdefault(line.before, []).append(line.text)

    def m(self, amount: int) -> str:
        return format_money(amount, self.symbol)

    def sees(self, seat: int) -> bool:
        return self.everything or seat == self.viewer

    # ---------------------------------------------------------------- text
    def write(self) -> str:
        r = self.record
        rules = r.rules
        if self.symbol is not None:
            stakes = f"({self.m(rules.small_bet)}/{self.m(rules.big_bet)} {self.currency})"
        else:
            stakes = f"({rules.small_bet}/{rules.big_bet})"
        game = f"{GAME_NAMES[rules.game]} {STRUCTURE_NAMES[rules.structure]}"
        out = self.lines
        date = header_date(r.started_at, r.time_zone) if r.started_at else UNKNOWN_DATE
        if r.tournament is not None:
            t = r.tournament
            if r.mixed:
                game = f"{r.mixed} ({game})"
            level = f"Level {t.level} " if t.level else ""
            out.append(
                f"PokerStars Hand #{self.number}: Tournament #{hand_number(t.number)}, "
                f"{t.buy_in or 'Freeroll'} {game} - {level}({self.m(rules.small_bet)}/"
                f"{self.m(rules.big_bet)}) - {date}"
            )
            play = ""
        else:
            if r.mixed:
                game = f"{r.mixed} ({game}, {stakes[1:]}"
            else:
                game = f"{game} {stakes}"
            out.append(f"PokerStars Hand #{self.number}:  {game} - {date}")
            play = " (Play Money)" if self.symbol is None else ""
        out.append(f"Table '{table_name(r.table, self.number)}' {rules.max_seats}-max{play}")
        for s in sorted((*r.seats, *r.idle), key=lambda s: s.seat):
            away = "is sitting out" if s.sitting_out else ""
            out.append(f"Seat {s.seat}: {s.name} ({self.m(s.stack)} in chips) {away}")
        events = r.events
        i, n = 0, len(events)
        while i < n:
            self._table_lines(i)
            e = events[i]
            if type(e) is StreetStarted:
                i = self._street(e.street, events, i + 1)
                continue
            if type(e) in ENDING_EVENTS:
                self._ending(events[i:])
                break
            self._event(e)
            i += 1
        return "\n".join(out) + "\n"

    def _table_lines(self, before: int) -> None:
        """The table's lines kept before ``events[before]``."""
        lines = self.notes.pop(before, None)
        if lines:
            self.lines.extend(lines)

    def _street(self, street: int, events: Sequence[Event], i: int) -> int:
        self.street = street
        self.current = 0
        dealt: dict[int, list[Card]] = {}
        dealt_notes: list[str] = []
        while i < len(events):
            e = events[i]
            if i in self.notes and type(e) in (CardDealt, CommunityCardDealt):
                dealt_notes.extend(self.notes.pop(i))
            if type(e) is CardDealt:
                assert e.card is not None, "a record holds every card"
                dealt.setdefault(e.seat, []).append(e.card)
            elif type(e) is CommunityCardDealt:
                self.community = e.card
            else:
                break
            i += 1
        marker = STREET_MARKERS[street]
        if self.community is not None and street == 7:
            marker += f" [{self.community}]"
        self.lines.append(marker)
        for seat in sorted(dealt):
            new = dealt[seat]
            before = self.cards[seat]
            name = self.names[seat]
            if self.sees(seat):
                if street == 3:
                    self.lines.append(f"Dealt to {name} [{format_cards(new)}]")
                else:
                    self.lines.append(
                        f"Dealt to {name} [{format_cards(before)}] [{format_cards(new)}]"
                    )
            elif street == 3:
                self.lines.append(f"Dealt to {name} [{new[-1]}]")
            elif street < 7:
                self.lines.append(
                    f"Dealt to {name} [{format_cards(self.up[seat])}] [{format_cards(new)}]"
                )
            before.extend(new)
            if street < 7:
                self.up[seat].append(new[-1])
        self.lines.extend(dealt_notes)
        return i

    def _event(self, e: Event) -> None:
        t = type(e)
        out = self.lines
        if t is AntePosted:
            assert isinstance(e, AntePosted)
            out.append(
                f"{self.names[e.seat]}: posts the ante {self.m(e.amount)}{_all_in(e.all_in)}"
            )
        elif t is BringInPosted:
            assert isinstance(e, BringInPosted)
            self.bring_in_pending = False
            self.voluntary.add(e.seat)
            self.current = max(self.current, self.record.rules.bring_in)
            out.append(f"{self.names[e.seat]}: brings in for {self.m(e.amount)}{_all_in(e.all_in)}")
        elif t in (Completed, BetMade, Raised):
            assert isinstance(e, (Completed, BetMade, Raised))
            self.voluntary.add(e.seat)
            name = self.names[e.seat]
            if t is BetMade or (t is Completed and self.bring_in_pending and self.street == 3):
                out.append(f"{name}: bets {self.m(e.to)}{_all_in(e.all_in)}")
            else:
                by = e.to - self.current
                out.append(f"{name}: raises {self.m(by)} to {self.m(e.to)}{_all_in(e.all_in)}")
            self.bring_in_pending = False
            self.current = max(self.current, e.to)
        elif t is Called:
            assert isinstance(e, Called)
            self.voluntary.add(e.seat)
            out.append(f"{self.names[e.seat]}: calls {self.m(e.adds)}{_all_in(e.all_in)}")
        elif t is Checked:
            assert isinstance(e, Checked)
            out.append(f"{self.names[e.seat]}: checks ")
        elif t is Folded:
            assert isinstance(e, Folded)
            self.folded_on[e.seat] = self.street
            out.append(f"{self.names[e.seat]}: folds ")
        elif t is TimedOut:
            assert isinstance(e, TimedOut)
            out.append(f"{self.names[e.seat]} has timed out")
        elif t is UncalledBetReturned:
            assert isinstance(e, UncalledBetReturned)
            out.append(f"Uncalled bet ({self.m(e.amount)}) returned to {self.names[e.seat]}")
        # ActionOpened, RakeTaken, HandEnded: nothing of their own in the text

    # ------------------------------------------------------- showdown, summary
    def _ending(self, events: Sequence[Event]) -> None:
        out = self.lines
        if any(type(e) is HandCancelled for e in events):
            out.append("Hand cancelled")
            out.append("*** SUMMARY ***")
            total = sum(sum(a for _, a in e.refunds) for e in events if type(e) is HandCancelled)
            out.append(f"Total pot {self.m(total)} | Rake {self.m(0)} ")
            return
        record = self.record
        pots = record.pots
        awards = [e for e in events if type(e) is PotAwarded]
        shows: list[HandShown | HandMucked] = [
            e for e in events if type(e) is HandShown or type(e) is HandMucked
        ]
        won: dict[int, int] = {}
        for a in awards:
            won[a.seat] = won.get(a.seat, 0) + a.amount
        count = len(pots)
        late = {v.seat: v for v in record.shows}
        if not shows:  # everyone else folded
            for a in awards:
                out.append(f"{self.names[a.seat]} collected {self.m(a.amount)} from pot")
            for seat in won:
                if seat not in late:
                    out.append(f"{self.names[seat]}: doesn't show hand ")
            out.extend(self._voluntary_line(v) for v in record.shows)
        else:
            out.append("*** SHOW DOWN ***")
            waiting = list(shows)
            for pot in sorted(pots, key=lambda p: -p.index):  # side pots first
                for e in [e for e in waiting if e.seat in pot.eligible]:
                    waiting.remove(e)
                    out.append(self._show_line(e))
                for a in awards:
                    if a.pot == pot.index:
                        out.append(
                            f"{self.names[a.seat]} collected {self.m(a.amount)} "
                            f"from {pot_name(a.pot, count)}"
                        )
            out.extend(self._show_line(e) for e in waiting)
            if self.record.rules.game is Game.STUD_HI_LO and not any(
                a.half == "low" for a in awards
            ):
                out.append("No low hand qualified")
            out.extend(self._voluntary_line(v) for v in record.shows)
        for before in sorted(self.notes):  # the lines kept at the end of the hand
            out.extend(self.notes.pop(before))
        out.append("*** SUMMARY ***")
        out.append(self._total_line(pots))
        if self.community is not None:
            out.append(f"Board [{self.community}]")
        shown = {e.seat: e for e in shows}
        for s in record.seats:
            out.append(self._summary_seat(s.seat, s.name, shown.get(s.seat), won.get(s.seat)))

    def _voluntary_line(self, v: VoluntaryShow) -> str:
        desc = _describe_some(v.cards, self.record.rules.game)
        return f"{self.names[v.seat]}: shows [{format_cards(v.cards)}]{desc}"

    def _show_line(self, e: HandShown | HandMucked) -> str:
        name = self.names[e.seat]
        if isinstance(e, HandMucked):
            return f"{name}: mucks hand "
        desc = describe(e.high, e.low, self.record.rules.game)
        return f"{name}: shows [{format_cards(e.cards)}] ({desc})"

    def _total_line(self, pots: Sequence[PotResult]) -> str:
        total = sum(p.amount for p in pots) + self.record.rake
        parts = [f"Total pot {self.m(total)}"]
        if len(pots) > 1:
            for p in pots:
                if p.index == 0:
                    parts.append(f"Main pot {self.m(p.amount)}.")
                elif len(pots) == 2:
                    parts.append(f"Side pot {self.m(p.amount)}.")
                else:
                    parts.append(f"Side pot-{p.index} {self.m(p.amount)}.")
        parts.append(f"| Rake {self.m(self.record.rake)} ")
        return " ".join(parts)

    def _summary_seat(
        self, seat: int, name: str, shown: HandShown | HandMucked | None, won: int | None
    ) -> str:
        head = f"Seat {seat}: {name}"
        if seat in self.folded_on:
            street = self.folded_on[seat]
            quiet = " (didn't bet)" if street == 3 and seat not in self.voluntary else ""
            return f"{head} folded on the {STREET_NAMES[street]}{quiet}"
        if isinstance(shown, HandShown):
            cards = format_cards(shown.cards)
            desc = describe(shown.high, shown.low, self.record.rules.game)
            if won:
                return f"{head} showed [{cards}] and won ({self.m(won)}) with {desc}"
            return f"{head} showed [{cards}] and lost with {desc}"
        if isinstance(shown, HandMucked):
            late = next((v for v in self.record.shows if v.seat == seat), None)
            if late is not None:
                return f"{head} mucked [{format_cards(late.cards)}]"
            if self.sees(seat):
                held = self.cards[seat] + ([self.community] if self.community else [])
                return f"{head} mucked [{format_cards(held)}]"
            return f"{head} mucked"
        return f"{head} collected ({self.m(won or 0)})"


def _describe_some(cards: Sequence[Card], game: Game) -> str:
    """`` (HI: ...)`` for five cards or more; nothing for fewer (no hand to name)."""
    if len(cards) < 5:
        return ""
    high = best_high(cards)
    if game is Game.RAZZ:
        return f" ({describe(high, best_razz_low(cards), game)})"
    return f" ({describe(high, best_low(cards), game)})"


ENDING_EVENTS = (HandShown, HandMucked, PotAwarded, RakeTaken, HandEnded, HandCancelled)


def _all_in(flag: bool) -> str:
    return " and is all-in" if flag else ""


def to_pokerstars(
    record: HandRecord,
    *,
    seat: int | None = None,
    everything: bool = False,
    currency: str | None = None,
    number: int | None = None,
) -> str:
    """The hand as PokerStars text, seen by ``seat`` (None: an observer), or by the
    operator (``everything=True``: every card). ``currency`` overrides the
    record's (``"USD"``: chips are cents; ``""``: play chips); ``number`` the hand
    number (default :func:`hand_number` of the record's hand id)."""
    if seat is not None and seat not in record.names:
        raise HandHistoryError(f"hand {record.hand_id}: seat {seat} is not in the hand")
    if number is not None and not 0 <= number < 10**19:
        raise HandHistoryError(f"hand {record.hand_id}: a hand number of 0 to 19 digits")
    cur = record.currency if currency is None else currency
    return _Writer(record, seat, everything, cur, number).write()


def write_pokerstars(
    path: str | Path,
    records: Iterable[HandRecord],
    *,
    seat: int | None = None,
    everything: bool = False,
    currency: str | None = None,
) -> int:
    """Write the hands to a PokerStars text file (UTF-8, LF); returns how many."""
    n = 0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for record in records:
            if n:
                f.write(HAND_SEPARATOR)
            f.write(to_pokerstars(record, seat=seat, everything=everything, currency=currency))
            n += 1
    return n
