"""PokerStars Seven Card Stud Hi/Lo hands as a file tells them: the data model.

The reader (:mod:`stud8.formats.pokerstars_read`) gives these; the verifier
(:mod:`stud8.formats.verify`) replays them through the engine; the writer
(:mod:`stud8.formats.pokerstars_write`) prints engine hands in the same text.
Amounts are integers: cents at a table with a currency, chips in a tournament or
at a play-money table. Seats are the seat numbers of the file.

The end of the module holds the reader's small helpers for amounts and cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stud8.core.cards import CARDS, Card
from stud8.core.record import fast_init
from stud8.formats import HandHistoryError

__all__ = [
    "PSAction",
    "PSAnte",
    "PSCollect",
    "PSDeal",
    "PSSeat",
    "PSShow",
    "PSSummarySeat",
    "PokerStarsHand",
    "ReadError",
    "Skipped",
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
    """A hand that is not a Seven Card Stud Hi/Lo hand (or was cancelled)."""

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
    game: str  # "7 Card Stud Hi/Lo"
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
