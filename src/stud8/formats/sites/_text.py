"""What the sites' readers share: cards and amounts as sites write them, and the
cutting of a file into hands (each read on its own: a bad hand spoils no other)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Protocol

from stud8.core.cards import Card
from stud8.formats.pokerstars import BadLine, PokerStarsHand, ReadError, Skipped

__all__ = [
    "Item",
    "card",
    "cards",
    "decode",
    "money",
    "read_hands",
    "seat_line",
    "speaker",
    "split_hands",
    "stud_game",
    "table_line",
    "total_line",
]

Item = PokerStarsHand | Skipped | ReadError

_RANKS = {"10": "T", "1": "A"}
_HIDDEN = frozenset(("", "x", "h", "-", "null", "xx", "?", "??"))


def card(text: str, line: int) -> Card | None:
    """One card as a site writes it: ``Td``, ``10d``, ``tD``, iPoker's ``D10`` or
    ``CA`` (suit first); None for a card written hidden (``X``, ``H``, ``-``, ``null``)."""
    t = text.strip()
    if t.lower() in _HIDDEN:
        return None
    if len(t) >= 2 and t[0] in "CDHScdhs" and t[1:].upper() in _RANK_WORDS:
        rank, suit = t[1:], t[0]  # iPoker: suit first
    else:
        rank, suit = t[:-1], t[-1:]
    rank = _RANKS.get(rank, rank).upper()
    try:
        return Card.parse(rank + suit.lower())
    except ValueError:
        raise BadLine(line, f"cannot read the card {text!r}") from None


_RANK_WORDS = frozenset(("2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K", "A"))


def cards(text: str, line: int, sep: str | None = None) -> list[Card | None]:
    return [card(t, line) for t in text.replace(",", " ").split(sep)] if text.strip() else []


_MONEY = re.compile(r"^[^\d-]*(-?[\d,]*\d(?:\.\d+)?|-?\.\d+)\D*$")


def money(text: str, line: int, cents: bool) -> int:
    """An amount: ``$1.25``, ``1,725.59``, ``€0.05``, ``[$0.50 USD]``; in cents when
    ``cents``, else whole chips. Money is never a float: read as digits."""
    m = _MONEY.match(text.strip())
    if m is None:
        raise BadLine(line, f"cannot read the amount {text!r}")
    t = m.group(1).replace(",", "")
    whole, _, frac = t.partition(".")
    sign = -1 if whole.startswith("-") else 1
    whole = whole.lstrip("-") or "0"
    if cents:
        if len(frac) > 2 and frac[2:].strip("0"):
            raise BadLine(line, f"the amount {text!r} has a fraction of a cent")
        return sign * (int(whole) * 100 + int((frac[:2] or "0").ljust(2, "0")))
    if frac.strip("0"):
        raise BadLine(line, f"the amount {text!r} is not a whole number of chips")
    return sign * int(whole)


def decode(data: bytes) -> str:
    """A file's text: UTF-16 (with a byte-order mark, or without one when every
    other byte is zero), UTF-8 (with or without a mark), else cp1252 (a site
    that declares UTF-8 but writes cp1252)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    head = data[:200]
    if len(head) >= 4 and head[1::2].count(0) > len(head) // 3:
        return data.decode("utf-16-le", errors="replace")
    if len(head) >= 4 and head[0::2].count(0) > len(head) // 3:
        return data.decode("utf-16-be", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def split_hands(lines: list[str], starts: Callable[[str], bool]) -> Iterator[tuple[int, int]]:
    """The (first, end) line indexes of each hand: a hand starts at a line for
    which ``starts`` holds and runs to the next one."""
    heads = [i for i, line in enumerate(lines) if starts(line)]
    for k, first in enumerate(heads):
        yield first, heads[k + 1] if k + 1 < len(heads) else len(lines)


def read_hands(
    text: str,
    file: str,
    starts: Callable[[str], bool],
    parse: Callable[[list[str], int, str], PokerStarsHand | Skipped],
    site: str,
) -> list[Item]:
    """Every hand of a text: ``parse(lines, before, file)`` reads one (``before``:
    the number of the file's lines before it); a :class:`BadLine` (or any slip on
    a corrupt hand) becomes a :class:`ReadError` naming the file and line."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[Item] = []
    for first, end in split_hands(lines, starts):
        try:
            out.append(parse(lines[first:end], first, file))
        except BadLine as e:
            out.append(ReadError(file, e.line, e.message))
        except (ValueError, KeyError, IndexError) as e:  # corrupt input the parser missed
            out.append(ReadError(file, first + 1, f"cannot read this {site} hand: {e}"))
    if not out:
        first_line = next((i + 1 for i, t in enumerate(lines) if t.strip()), 1)
        out.append(ReadError(file, first_line, f"no {site} hand found"))
    return out


# --------------------------------------------------------------- the game
_RAZZ = re.compile(r"razz", re.I)
_DEUCE_TO_SEVEN = re.compile(r"2-?7\s*razz", re.I)  # another low (KingsClub's "2-7 Razz")
_FIVE_CARD = re.compile(r"\b(?:5|five)[- ]?card[- ]?stud|\b5[- ]?stud", re.I)
_HI_LO = re.compile(
    r"hi[- /_]?lo|(?<![a-z])h[/-]?l(?![a-z])|stud ?[/-]?8|\b8 or better|eight or better",
    re.I,
)
_STUD = re.compile(r"stud|\b7[- ]?card(?![a-z])|seven card", re.I)


def stud_game(name: str) -> str | None:
    """The game a site's name for it says, as PokerStars names the three games of
    the family (``7 Card Stud Hi/Lo``, ``7 Card Stud``, ``Razz``), or None for
    any other game (five-card stud, hold'em...). The sites' words: hi/lo is
    ``Hi/Lo``, ``HiLo``, ``Hi-Lo``, ``H/L``, ``HL``, ``Stud 8``, ``7stud8``,
    ``8 or better``; high is the plain name (``Stud Hi``, ``7Stud``, ``7CARD``).

    >>> [stud_game(n) for n in ("7CARD HiLo", "7CARD", "Limit Stud Hi", "7Stud H/L",
    ...  "7stud8", "Seven Card Razz", "5 Card Stud", "Omaha Hi/Lo", "7-Stud H/L8",
    ...  "7CARD_HL", "2-7 Razz", "7stud", "SEVEN_CARD_STUD_HI_LO", "Hold'em No Limit")]
    ['7 Card Stud Hi/Lo', '7 Card Stud', '7 Card Stud', '7 Card Stud Hi/Lo', \
'7 Card Stud Hi/Lo', 'Razz', None, None, '7 Card Stud Hi/Lo', '7 Card Stud Hi/Lo', None, \
'7 Card Stud', '7 Card Stud Hi/Lo', None]
    """
    if _DEUCE_TO_SEVEN.search(name):
        return None
    if _RAZZ.search(name):
        return "Razz"
    if _FIVE_CARD.search(name) or not _STUD.search(name):
        return None
    return "7 Card Stud Hi/Lo" if _HI_LO.search(name) else "7 Card Stud"


# ------------------------------------------------- lines every site writes alike
class _Seats(Protocol):
    """What the line helpers need of a :class:`~stud8.formats.sites._build.HandBuilder`."""

    by_name: dict[str, int]
    total: int | None
    rake: int | None

    def note(self, text: str, line: int) -> None: ...

    def seat(
        self, seat: int, name: str, stack: int, line: int, *, sitting_out: bool = False
    ) -> None: ...


def speaker(b: _Seats, line: str, seps: tuple[str, ...] = (" ",)) -> tuple[int, str] | None:
    """The seat of the player a line starts with (the longest name that fits, then one
    of ``seps``) and the rest of the line; None for a line of nobody's (table talk).

    >>> class B:
    ...     by_name = {"Bob": 1, "Bob B": 2}
    >>> speaker(B(), "Bob B calls 2"), speaker(B(), "Bob: folds", (": ", " "))
    ((2, 'calls 2'), (1, 'folds'))
    """
    for name in sorted(b.by_name, key=len, reverse=True):
        for sep in seps:
            if line.startswith(name + sep):
                return b.by_name[name], line[len(name) + len(sep) :].strip()
    return None


def seat_line(b: _Seats, m: re.Match[str], line: int, cents: bool) -> None:
    """A seat line read by a site's pattern: groups 1 to 3 the seat, the name and the
    chips; a fourth group, if any, says the player is sitting out."""
    out = m.re.groups >= 4 and bool(m.group(4))
    b.seat(int(m.group(1)), m.group(2), money(m.group(3), line, cents), line, sitting_out=out)


def total_line(b: _Seats, m: re.Match[str], line: int, cents: bool) -> None:
    """A summary's ``Total pot X ... Rake Y`` read by a site's pattern (groups 1, 2)."""
    b.total = money(m.group(1), line, cents)
    b.rake = money(m.group(2), line, cents) if m.group(2) else 0


# ------------------------------------------------- the lines a site's reader does not know
#: The verbs of the play: a seated player's line whose first word is one of these
#: (any case) is an action, a card, a show or a win, never a table line.
PLAY_WORDS = frozenset(
    [
        "ante",
        "antes",
        "posts",
        "post",
        "brings",
        "bring",
        "bring-in",
        "bring-ins",
        "brings-in",
        "bets",
        "bet",
        "calls",
        "call",
        "raises",
        "raise",
        "completes",
        "complete",
        "checks",
        "check",
        "folds",
        "fold",
        "allin",
        "all-in",
        "shows",
        "show",
        "mucks",
        "muck",
        "wins",
        "win",
        "collects",
        "collected",
        "receives",
        "received",
        "dealt",
    ]
)


def table_line(
    b: _Seats,
    line: str,
    n: int,
    *,
    play: tuple[str, ...] = (),
    prefix: str = "",
    said: str | None = None,
) -> None:
    """A line of a hand that the site's reader does not know. Sites add lines to
    their histories as they please (a notice of the room's, a player who joins or
    sits out, chat): such a line is **informational** and is kept as a table line
    (``b.note``), never a reason to refuse a hand the reader otherwise understands.
    A line **of the play** that the reader cannot read is refused
    (:class:`BadLine`), since passing over it would lose an action, a card or a
    pot: a line that starts with one of the site's markers of the play (``play``:
    its street and summary markers, its seat and deal lines...), or whose speaker,
    a seated player (after the site's ``prefix``, e.g. ``Player ``), says one of
    :data:`PLAY_WORDS` first (``said``: what the speaker says, where the reader has
    already found whose line it is). A seated player's ``NAME: words``, which
    PokerStars text would read as his action, is kept as PokerStars writes chat
    (``NAME said, "words"``).

    >>> class B:
    ...     by_name = {"Bob": 1}
    ...     notes: list[str] = []
    ...     def note(self, text: str, line: int) -> None:
    ...         self.notes.append(text)
    >>> b = B()
    >>> table_line(b, "Bob: nice hand", 3); table_line(b, "The room closes at 2 AM", 4)
    >>> b.notes
    ['Bob said, "nice hand"', 'The room closes at 2 AM']
    >>> table_line(b, "Bob bets a lot", 5)
    Traceback (most recent call last):
    ...
    stud8.formats.pokerstars.BadLine: cannot read the line 'Bob bets a lot'
    """
    who = _whose(b, line, prefix)
    if said is not None:
        of_the_play = _play_word(said)
    else:
        of_the_play = bool(play and line.startswith(play)) or (
            who is not None and _play_word(who[1])
        )
    if of_the_play:
        raise BadLine(n, f"cannot read the line {line!r}")
    if who is not None and who[1].startswith(":"):  # (Bovada's "Seat+3 : ..." is not chat)
        # "NAME: words" is an action in PokerStars text: chat is kept as it says chat
        b.note(f'{who[0]} said, "{who[1][1:].strip()}"', n)
    else:
        b.note(line, n)


def _whose(b: _Seats, line: str, prefix: str) -> tuple[str, str] | None:
    """The seated player whose line it is (after ``prefix``) and what follows his name."""
    if not line.startswith(prefix):
        return None
    rest = line[len(prefix) :]
    for name in sorted(b.by_name, key=len, reverse=True):
        if rest.startswith(name) and rest[len(name) : len(name) + 1] in (" ", ":"):
            return name, rest[len(name) :]
    return None


def _play_word(said: str) -> bool:
    word = said.lstrip(": ").partition(" ")[0]
    return word.lower().rstrip(".,:") in PLAY_WORDS
