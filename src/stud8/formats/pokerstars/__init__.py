"""PokerStars Seven Card Stud Hi/Lo hands as a file tells them: the data model.

The reader (:mod:`stud8.formats.pokerstars.read`) gives these; the verifier
(:mod:`stud8.formats.verify`) replays them through the engine; the writer
(:mod:`stud8.formats.pokerstars.write`) prints engine hands in the same text.
Amounts are integers: cents at a table with a currency, chips in a tournament or
at a play-money table. Seats are the seat numbers of the file.

The end of the module holds the reader's small helpers for amounts and cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone, tzinfo

from stud8.core.cards import CARDS, Card
from stud8.core.record import fast_init
from stud8.formats import HandHistoryError

__all__ = [
    "PSAction",
    "PSAnte",
    "PSCollect",
    "PSDeal",
    "PSNote",
    "PSSeat",
    "PSShow",
    "PSSummarySeat",
    "PokerStarsHand",
    "ReadError",
    "Skipped",
    "eastern",
    "header_date",
    "read_header_date",
]


@dataclass(frozen=True, slots=True)
class ReadError:
    """A hand that could not be read: where and why."""

    file: str
    line: int
    message: str
    hand_id: str = ""

    def __str__(self) -> str:
        hand = f"hand {self.hand_id}: " if self.hand_id else ""
        return f"{self.file}:{self.line}: {hand}{self.message}"

    def error(self) -> HandHistoryError:
        """The same as an exception, to raise."""
        hand = f"hand {self.hand_id}: " if self.hand_id else ""
        return HandHistoryError(hand + self.message, file=self.file, line=self.line)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A hand of another game than Stud Hi/Lo, Seven Card Stud or Razz (or a cancelled one)."""

    file: str
    line: int
    hand_id: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: hand {self.hand_id} skipped: {self.reason}"


@fast_init
@dataclass(frozen=True, slots=True)
class PSSeat:
    seat: int
    name: str
    stack: int
    sitting_out: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class PSAnte:
    seat: int
    amount: int
    all_in: bool
    line: int


@fast_init
@dataclass(frozen=True, slots=True)
class PSDeal:
    """A ``Dealt to`` line: ``cards`` is its first group, ``new`` its second (the
    card of this street), empty when the line has one group."""

    street: int
    seat: int
    cards: tuple[Card, ...]
    new: tuple[Card, ...]
    line: int


@fast_init
@dataclass(frozen=True, slots=True)
class PSAction:
    """One action as written. ``verb`` is ``brings in``, ``bets``, ``raises``,
    ``calls``, ``checks``, ``folds`` or ``timed out``; ``amount`` is the first
    amount written (``raises X to Y``: X) and ``to`` the second (Y)."""

    street: int
    seat: int
    verb: str
    amount: int | None
    to: int | None
    all_in: bool
    line: int


@fast_init
@dataclass(frozen=True, slots=True)
class PSShow:
    seat: int
    cards: tuple[Card, ...]
    description: str
    line: int


@fast_init
@dataclass(frozen=True, slots=True)
class PSNote:
    """A line of the table that is not part of the play (``X is sitting out``, ``X
    joins the table at seat #4``, chat...), kept to be written back where it was.

    ``section`` is where it stands: ``seats`` (before 3rd street, after ``antes``
    antes), ``streets`` (on ``street``, before the hand's action number
    ``actions``), ``showdown`` or ``summary``."""

    text: str
    section: str
    street: int
    antes: int
    actions: int
    line: int


@fast_init
@dataclass(frozen=True, slots=True)
class PSCollect:
    """``name collected X from <pot>``: ``pot`` 0 is the pot or main pot, 1 the
    (first) side pot..."""

    seat: int
    amount: int
    pot: int
    label: str
    line: int


@fast_init
@dataclass(frozen=True, slots=True)
class PSSummarySeat:
    """A seat line of the summary: ``outcome`` is ``folded``, ``collected``,
    ``won``, ``lost``, ``mucked`` or ``""`` (something else, kept in ``text``)."""

    seat: int
    outcome: str
    street: int | None
    cards: tuple[Card, ...]
    won: int | None
    text: str
    line: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PokerStarsHand:
    """One Stud Hi/Lo hand as the file tells it. Amounts in cents (cash) or chips."""

    hand_id: str
    file: str
    line: int
    game: str  # "7 Card Stud Hi/Lo", "7 Card Stud" or "Razz"
    structure: str  # "Limit", "Pot Limit" or "No Limit"
    mixed: str  # the mixed game it is part of ("8-Game", "HORSE") or ""
    small_bet: int
    big_bet: int
    currency: str  # "USD", "EUR", "GBP"; "" for chips
    tournament: str  # the tournament number, "" at a cash table
    buy_in: str
    level: str
    table: str
    max_seats: int
    date: str
    seats: tuple[PSSeat, ...]
    hero: int | None  # the seat whose down cards the file shows
    antes: tuple[PSAnte, ...]
    deals: tuple[PSDeal, ...]
    community: Card | None
    actions: tuple[PSAction, ...]
    uncalled: tuple[tuple[int, int], ...]  # (seat, amount)
    showdown: bool
    shows: tuple[PSShow, ...]
    mucks: tuple[int, ...]
    collected: tuple[PSCollect, ...]
    total_pot: int
    pots: tuple[int, ...]  # main pot, side pots, as the summary lists them (after rake)
    rake: int
    summary: tuple[PSSummarySeat, ...]
    # (seat, street) of up cards the file does not show, which a reader filled in
    # to agree with the file's bring-in and openers (another site's history).
    filled_in: tuple[tuple[int, int], ...] = ()
    notes: tuple[PSNote, ...] = ()
    _names: dict[int, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_cash(self) -> bool:
        return not self.tournament

    @property
    def cents(self) -> bool:
        """Whether amounts are cents (a table with a currency)."""
        return bool(self.currency)

    def name(self, seat: int) -> str:
        """The player in the seat (``seat N`` for a seat nobody sits in)."""
        name = self._names.get(seat)
        if name is None:
            name = next((s.name for s in self.seats if s.seat == seat), f"seat {seat}")
        return name

    @property
    def dealt_in(self) -> tuple[int, ...]:
        """The seats dealt into the hand, in order."""
        return tuple(sorted({d.seat for d in self.deals if d.street == 3}))

    @property
    def bring_in(self) -> PSAction | None:
        for a in self.actions:
            if a.verb == "brings in":
                return a
        return None

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        """The seat's up cards as dealt (3rd to 6th street)."""
        out: list[Card] = []
        for d in self.deals:
            if d.seat == seat and d.street <= 6:
                out.append((d.cards if d.street == 3 else d.new)[-1])
        return tuple(out)


# ---------------------------------------------- reading amounts and cards (the reader's)
class BadLine(Exception):
    """A line that cannot be read (inside the reader; it becomes a :class:`ReadError`)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


_CARD = {str(c): c for c in CARDS}
_CARD.update({str(c)[0] + str(c)[1].upper(): c for c in CARDS})  # "AS": as re-exported


CARDS_SEEN: dict[str, tuple[Card, ...]] = {}


def read_cards(text: str, line: int) -> tuple[Card, ...]:
    """The cards written ``Kc 4d Qd`` (cached: the same few strings come back)."""
    cards = CARDS_SEEN.get(text)
    if cards is None:
        try:
            cards = tuple(map(_CARD.__getitem__, text.split()))
        except KeyError as e:
            raise BadLine(line, f"cannot read the card {e.args[0]!r} in [{text}]") from None
        if len(CARDS_SEEN) < 200_000:
            CARDS_SEEN[text] = cards
    return cards


CHIPS_SEEN: dict[str, int] = {}
CENTS_SEEN: dict[str, int] = {}


class Chips:
    """Amounts in chips: whole numbers."""

    @staticmethod
    def parse(text: str, line: int) -> int:
        amount = CHIPS_SEEN.get(text)
        if amount is None:
            t = text.lstrip("$€£").replace(",", "")
            if not (t.isascii() and t.isdigit()):
                raise BadLine(line, f"cannot read the amount {text!r}")
            amount = int(t)
            if len(CHIPS_SEEN) < 200_000:
                CHIPS_SEEN[text] = amount
        return amount


class Cents(Chips):
    """Amounts in a currency: ``$0.04`` is 4 cents, ``$1`` is 100."""

    @staticmethod
    def parse(text: str, line: int) -> int:
        amount = CENTS_SEEN.get(text)
        if amount is None:
            t = text.lstrip("$€£").replace(",", "")
            whole, dot, frac = t.partition(".")
            if not (whole.isascii() and whole.isdigit()) or (
                dot and (not (frac.isascii() and frac.isdigit()) or len(frac) > 2)
            ):
                raise BadLine(line, f"cannot read the amount {text!r}")
            amount = int(whole) * 100 + (int(frac.ljust(2, "0")) if dot else 0)
            if len(CENTS_SEEN) < 200_000:
                CENTS_SEEN[text] = amount
        return amount


def decode(data: bytes) -> str:
    """A file's text: UTF-16 or UTF-8 (with or without a byte-order mark), else cp1252."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


# ------------------------------------------------------------- the header's date
_DATE = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2})[ -]+(\d{1,2}):(\d{2}):(\d{2})\s*\(?([A-Za-z]*)\)?")
#: The zones PokerStars names in its headers (it says CET, PT... all year round, and
#: means the local time with its summer time).
ZONES = {
    "ET": "America/New_York",
    "CT": "America/Chicago",
    "MT": "America/Denver",
    "PT": "America/Los_Angeles",
    "AKT": "America/Anchorage",
    "HT": "Pacific/Honolulu",
    "BRT": "America/Sao_Paulo",
    "ART": "America/Argentina/Buenos_Aires",
    "WET": "Europe/Lisbon",
    "CET": "Europe/Paris",
    "EET": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata",
    "CCT": "Asia/Shanghai",
    "JST": "Asia/Tokyo",
    "AWST": "Australia/Perth",
    "ACST": "Australia/Adelaide",
    "AEST": "Australia/Sydney",
    "NZT": "Pacific/Auckland",
    "UTC": "UTC",
    "GMT": "UTC",
}


def _zone(name: str) -> tzinfo | None:
    if name in ("UTC", "GMT"):
        return UTC
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(ZONES[name])
    except (ImportError, KeyError, OSError, ValueError):  # unknown, or no zone data here
        return None


def eastern() -> tzinfo | None:
    """PokerStars' own time zone, ET (None where this machine has no zone data)."""
    return _zone("ET")


def read_header_date(text: str) -> tuple[datetime | None, str]:
    """The time a header's date says, and the local zone PokerStars adds before
    the ET time (``""`` when it writes ET only).

    The time keeps the local zone's offset on that day, so that the header can be
    written again as it was:

    >>> t, zone = read_header_date("2023/02/05 10:25:51 PT [2023/02/05 13:25:51 ET]")
    >>> zone, t.isoformat()
    ('PT', '2023-02-05T10:25:51-08:00')
    >>> read_header_date("2009/06/14 11:45:00 ET")[0].isoformat()
    '2009-06-14T11:45:00-04:00'
    >>> read_header_date("2008/08/17 - 01:14:43 (ET)")[0].isoformat()
    '2008-08-17T01:14:43-04:00'
    >>> read_header_date("yesterday")
    (None, '')
    """
    stamps = []
    for m in _DATE.finditer(text):
        y, mo, d, h, mi, se = (int(x) for x in m.groups()[:6])
        try:
            stamps.append((datetime(y, mo, d, h, mi, se), m.group(7).upper()))
        except ValueError:
            return None, ""
    if not stamps:
        return None, ""
    et = next((t for t, z in stamps if z == "ET"), None)
    local, name = stamps[0]
    if et is None:  # one time, in a zone of its own
        zone = _zone(name) or UTC
        return local.replace(tzinfo=zone), "" if name in ("ET", "") else name
    ny = eastern()
    if ny is None:  # no zone data: ET taken as UTC-5
        ny = timezone(timedelta(hours=-5))
    moment = et.replace(tzinfo=ny).astimezone(UTC)
    if name == "ET" or len(stamps) == 1:
        return et.replace(tzinfo=ny), ""
    offset = local - moment.replace(tzinfo=None)
    try:
        return moment.astimezone(timezone(offset)), name
    except ValueError:  # an offset no zone has
        return et.replace(tzinfo=ny), ""


def _stamp(t: datetime) -> str:
    # As PokerStars writes it: the hour without a leading zero.
    return f"{t.year}/{t.month:02d}/{t.day:02d} {t.hour}:{t.minute:02d}:{t.second:02d}"


def header_date(t: datetime, zone: str = "") -> str:
    """The date of a header as PokerStars writes it: ET, after the local time in
    ``zone`` when there is one (naive times are taken to be UTC).

    >>> from datetime import datetime, UTC
    >>> header_date(datetime(2026, 11, 26, 7, 15, tzinfo=UTC))
    '2026/11/26 2:15:00 ET'
    >>> header_date(datetime(2026, 11, 26, 7, 15, tzinfo=UTC), "CET")
    '2026/11/26 8:15:00 CET [2026/11/26 2:15:00 ET]'
    """
    if t.tzinfo is None:
        t = t.replace(tzinfo=UTC)
    ny = eastern()
    if ny is None:  # no zone data here: say UTC rather than a wrong ET
        return f"{_stamp(t.astimezone(UTC))} UTC"
    et = f"{_stamp(t.astimezone(ny))} ET"
    if not zone or zone == "ET":
        return et
    local = _zone(zone) or t.tzinfo  # a zone we do not know: the offset it was read with
    return f"{_stamp(t.astimezone(local))} {zone} [{et}]"
