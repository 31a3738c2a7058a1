"""Read PokerStars hand histories of the Seven Card Stud family: Stud Hi/Lo, Seven
Card Stud (high only) and Razz.

A file holds many hands, one after the other, each starting with its
``PokerStars Hand #...`` (or ``Game #``) header. The reader takes CRLF or LF, a
byte-order mark, trailing spaces, chat and join/leave/connect lines between the
actions (chat text may hold ``***``), headers re-exported by other tools (in
capitals), cash and tournament headers, and mixed-game headers (``8-Game (7 Card
Stud Hi/Lo Limit, $400/$800 USD)``, ``HORSE (7 Card Stud Hi/Lo Limit)``, ``Triple
Stud (Razz Limit, 4/8)``: a mixed stud table's, ours too).

:func:`read_file` / :func:`parse_text` give, in file order, a
:class:`PokerStarsHand` for each hand of those games (its ``game`` says which), a
:class:`Skipped` for a hand of another game (or a cancelled one), and a
:class:`ReadError` for a hand that is corrupt or truncated, naming the file and
line; the reading goes on with the next hand. Amounts are integers: cents at a
cash table with a currency, chips in a tournament or at a play-money table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

from stud8.core.cards import Card
from stud8.formats.pokerstars import (
    CENTS_SEEN,
    CHIPS_SEEN,
    BadLine,
    Cents,
    Chips,
    PokerStarsHand,
    PSAction,
    PSAnte,
    PSCollect,
    PSDeal,
    PSNote,
    PSSeat,
    PSShow,
    PSSummarySeat,
    ReadError,
    Skipped,
    decode,
    read_cards,
)

__all__ = ["iter_hands", "parse_text", "read_file"]

_STREET_NAMES = {"3rd street": 3, "4th street": 4, "5th street": 5, "6th street": 6, "river": 7}


# --------------------------------------------------------------------- regexes
_HEADER = re.compile(
    r"^PokerStars (?:Home Game |Zoom |Fast Poker )?(?:Hand|Game) #(\w[\w-]*):\s*(.*)$", re.I
)
_ANTE_START = "posts the ante "
_HEADER_AT = re.compile(r"PokerStars (?:Home Game |Zoom |Fast Poker )?(?:Hand|Game) #\w")
_GAME = re.compile(r"(7 Card Stud Hi/Lo|7 Card Stud|Razz)(?: (Limit|Pot Limit|No Limit))?", re.I)
# the games of the Seven Card Stud family read (RULES.md section 8), by their names here
_GAMES = {"7 card stud hi/lo": "7 Card Stud Hi/Lo", "7 card stud": "7 Card Stud", "razz": "Razz"}
_STAKES = re.compile(r"([$€£]?)([\d.,]+)/[$€£]?([\d.,]+)(?: ([A-Z]{3}))?\)")
_LEVEL = re.compile(r"(?:Level (\S+) )?\(([\d.,]+)/([\d.,]+)\)", re.I)
_TOURNAMENT = re.compile(r"^Tournament #(\d+),\s*(.*)$", re.I)
_CLUB = re.compile(r"^\{[^}]*\}\s*")
_BUY_IN = re.compile(r"^((?:[$€£]?[\d.]+(?:\+[$€£]?[\d.]+)*(?: [A-Z]{3})?)|Freeroll)\s", re.I)
_MIXED = re.compile(r"(Triple Stud|[\w'-]+) \((?:7 Card Stud|Razz)", re.I)
_TABLE = re.compile(r"^Table '(.*)' (\d+)-max", re.I)
_SEAT = re.compile(r"^Seat (\d+): (.+) \((\S+) in chips(?:, [^)]*)?\)(.*)$")
_MARKER = re.compile(
    r"^\*\*\* (3rd STREET|4th STREET|5th STREET|6th STREET|RIVER|SHOW DOWN|SUMMARY) \*\*\*"
    r"(?: \[(\w\w)\])?$",
    re.I,
)
_MARKER_STREETS = {"3RD STREET": 3, "4TH STREET": 4, "5TH STREET": 5, "6TH STREET": 6, "RIVER": 7}
_SHOW = re.compile(r"^\[([^\]]*)\](?: \((.*)\))?$")
_UNCALLED = re.compile(r"^Uncalled bet \((\S+)\) returned to (.+)$")
_COLLECT = re.compile(r"^(.+) collected (\S+) from (pot|main pot|side pot(?:-(\d+))?)$")
_TIMEOUT = re.compile(r"^(.+) has timed out(?: while (?:being )?disconnected)?$")
_NOISE = re.compile(
    r'^(?:.+ said, ".*"|.+ joins the table at seat #\d+|.+ leaves the table'
    r"|.+ is (?:dis)?connected|.+ has returned|.+ was removed from the table.*"
    r"|.+ will be allowed to play.*|.+ is sitting out|.+ sits out|No low hand qualified"
    r"|.+ finished the tournament.*|.+ wins the .*|.+ re-buys.*|.+ takes the add-on.*"
    r"|.+ is (?:feeling|sitting) .*|.+ has reconnected"
    # the dealer's words in a fixed-limit round: its cap reached; an open pair on 4th
    # street in Stud high (the big bet may be bet)
    r"|Betting is capped|Pair on board - a double bet is allowed)$"
)
# The lines of the play itself: one of these that cannot be read is an error, never
# a table line (any other line of a known site's hand is informational, see _other).
_PLAY_START = ("*** ", "Seat ", "Dealt to ", "Total pot", "Board ", "Uncalled bet")
_PLAY_WORDS = frozenset(
    ("bets", "calls", "raises", "checks", "folds", "brings", "posts", "collected", "shows")
)
_TOTAL = re.compile(
    r"^Total pot (\S+)(?: Main pot (\S+)\.)?((?: Side pot(?:-\d+)? \S+\.)*)"
    r" \| Rake (\S+)(?: \|.*)?$"
)
_SIDE = re.compile(r"Side pot(?:-(\d+))? (\S+)\.")
_BOARD = re.compile(r"^Board \[([^\]]*)\]$")
_SUM_FOLDED = re.compile(r"^folded on the (3rd Street|4th Street|5th Street|6th Street|River)")
_SUM_WON = re.compile(r"^showed \[([^\]]*)\] and won \((\S+)\)(?: with (.*))?$")
_SUM_LOST = re.compile(r"^showed \[([^\]]*)\] and lost(?: with (.*))?$")
_SUM_MUCKED = re.compile(r"^mucked(?: \[([^\]]*)\])?$")
_SUM_COLLECTED = re.compile(r"^collected \((\S+)\)")
_SUM_POSITION = re.compile(r"^\((?:button|small blind|big blind|bring-in)\) ")


# ---------------------------------------------------------------------- read
def read_file(path: str | Path) -> list[PokerStarsHand | Skipped | ReadError]:
    """Every hand of a PokerStars file, in order (see :func:`parse_text`)."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        return [ReadError(name, 0, f"cannot read the file: {e.strerror or e}")]
    return parse_text(decode(data), file=name)


def parse_text(text: str, *, file: str = "<text>") -> list[PokerStarsHand | Skipped | ReadError]:
    """Every hand of a PokerStars text, in order: a :class:`PokerStarsHand` for each
    Stud Hi/Lo hand, :class:`Skipped` for another game, :class:`ReadError` for a
    corrupt or truncated hand (the others are still read)."""
    return list(iter_hands(text, file=file))


def iter_hands(
    text: str, *, file: str = "<text>"
) -> Iterator[PokerStarsHand | Skipped | ReadError]:
    """The hands of a text one by one (see :func:`parse_text`)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    heads = []
    at = text.find("PokerStars ")
    while at >= 0:
        if (at == 0 or text[at - 1] == "\n") and _HEADER_AT.match(text, at):
            heads.append(at)
        at = text.find("PokerStars ", at + 11)
    if not heads:
        lines = text.split("\n")
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is not None:
            yield ReadError(
                file, first + 1, "no PokerStars hand found (no 'PokerStars Hand #' line)"
            )
        return
    before = text.count("\n", 0, heads[0])  # lines before the hand
    heads.append(len(text))
    for a, b in pairwise(heads):
        lines = text[a:b].split("\n")
        yield _parse_hand(lines, before, file)
        before += len(lines) - 1


def _parse_hand(lines: list[str], before: int, file: str) -> PokerStarsHand | Skipped | ReadError:
    header = _HEADER.match(lines[0].lstrip("\ufeff").rstrip())
    if header is None:
        return ReadError(file, before + 1, f"cannot read the header {lines[0].rstrip()!r}")
    hand_id, rest = header.group(1), header.group(2)
    try:
        return _Parser(lines, before, file, hand_id, rest).parse()
    except BadLine as e:
        return ReadError(file, e.line, e.message, hand_id)


_CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP"}
_STRUCTURES = {"limit": "Limit", "pot limit": "Pot Limit", "no limit": "No Limit"}
# Lines of a player that say nothing of the play: the writer writes the first two
# itself; the others are kept as table lines (PSNote).
_QUIET = frozenset(("doesn't show hand", "is all-in"))
_TABLE_LINES = frozenset(("is sitting out", "sits out", "has returned", "stands up"))


class _Parser:
    """Reads the lines of one hand, in one pass."""

    def __init__(self, lines: list[str], before: int, file: str, hand_id: str, rest: str) -> None:
        self.lines = lines
        self.before = before  # the number of the file's lines before the hand
        self.file = file
        self.hand_id = hand_id
        self.rest = rest
        self.money: type[Chips] = Chips
        self.names: dict[int, str] = {}
        self.by_name: dict[str, int] = {}
        self.longest_first: list[str] = []
        self.seats: list[PSSeat] = []
        self.antes: list[PSAnte] = []
        self.deals: list[PSDeal] = []
        self.actions: list[PSAction] = []
        self.uncalled: list[tuple[int, int]] = []
        self.shows: list[PSShow] = []
        self.mucks: list[int] = []
        self.collected: list[PSCollect] = []
        self.summary: list[PSSummarySeat] = []
        self.community: Card | None = None
        self.street = 0
        self.section = "seats"
        self.showdown = False
        self.cancelled = False
        self.total: int | None = None
        self.pots: tuple[int, ...] = ()
        self.rake = 0
        self.down_shown: list[int] = []
        self.dealt: set[tuple[int, int]] = set()
        self.notes: list[PSNote] = []

    # ------------------------------------------------------------- header
    def _header(self) -> dict[str, object] | str:
        """The header's facts, or the reason to skip the hand."""
        line = self.before + 1
        body, sep, date = self.rest.rpartition(" - ")
        if not sep or not date[:4].isdigit():
            body, date = self.rest, ""
        tournament = buy_in = level = ""
        # a Home Game names its club first: "{Dazzle's Room} Tournament #743144019, ..."
        body = _CLUB.sub("", body, count=1)
        t = _TOURNAMENT.match(body)
        stakes: tuple[str, str] | None = None
        currency = ""
        if t:
            tournament, tail = t.group(1), t.group(2)
            game_text, sep, level_text = tail.rpartition(" - ")
            if not sep:
                game_text, level_text = tail, ""
            b = _BUY_IN.match(game_text)
            buy_in = b.group(1) if b else ""
            lv = _LEVEL.search(level_text)
            if lv:
                level = lv.group(1) or ""
                stakes = (lv.group(2), lv.group(3))
        else:
            game_text = body.strip()
        g = _GAME.search(game_text)
        if not g:
            return f"not a Seven Card Stud Hi/Lo, Seven Card Stud or Razz hand: {game_text.strip()}"
        if not tournament:
            s = _STAKES.search(game_text)
            if s:
                stakes = (s.group(2), s.group(3))
                currency = s.group(4) or _CURRENCIES.get(s.group(1), "")
        if stakes is None:
            raise BadLine(line, "cannot find the stakes (small bet/big bet) in the header")
        self.money = Cents if currency else Chips
        mixed = _MIXED.search(game_text)
        return {
            "game": _GAMES[g.group(1).lower()],
            "structure": _STRUCTURES[(g.group(2) or "Limit").lower()],
            "mixed": mixed.group(1) if mixed else "",
            "small_bet": self.money.parse(stakes[0], line),
            "big_bet": self.money.parse(stakes[1], line),
            "currency": currency.upper(),
            "tournament": tournament,
            "buy_in": buy_in,
            "level": level,
            "date": date.strip(),
        }

    # --------------------------------------------------------------- body
    def parse(self) -> PokerStarsHand | Skipped:
        head = self._header()
        if isinstance(head, str):
            return Skipped(self.file, self.before + 1, self.hand_id, head)
        lines = self.lines
        table: re.Match[str] | None = None
        last = self.before + 1
        by_name = self.by_name
        actions = self.actions
        seen = CENTS_SEEN if self.money is Cents else CHIPS_SEEN
        parse = self.money.parse
        street = 0
        betting = False  # in the betting streets
        before = self.before
        for idx in range(1, len(lines)):
            line = lines[idx].rstrip()
            if not line:
                continue
            n = last = before + idx + 1
            if table is None:
                table = _TABLE.match(line)
                if table is None:
                    raise BadLine(n, f"expected the line Table '...' N-max, got {line!r}")
                continue
            if betting:
                # The common lines of the betting streets, inline: "name: verb ...".
                k = line.find(": ")
                seat = by_name.get(line[:k]) if k > 0 else None
                if seat is not None:
                    rest = line[k + 2 :]
                    if rest == "checks" or rest == "folds":
                        actions.append(PSAction(street, seat, rest, None, None, False, n))
                        continue
                    all_in = rest.endswith(" and is all-in")
                    tail = rest[:-14] if all_in else rest
                    if tail.startswith(("calls ", "bets ")):
                        verb, _, text = tail.partition(" ")
                        amount = seen.get(text)
                        if amount is None:
                            amount = parse(text, n)
                        actions.append(PSAction(street, seat, verb, amount, None, all_in, n))
                        continue
                    self._action(seat, rest, n)
                    continue
                if line.startswith("Dealt to "):
                    rest = line[9:]
                    j = rest.find(" [")
                    seat = by_name.get(rest[:j]) if j > 0 else None
                    if seat is not None:
                        self._dealt(seat, rest[j + 1 :], n)
                    else:
                        self._deal(rest, n)
                    continue
            elif line.startswith(_ANTE_START, line.find(": ") + 2):
                k = line.find(": ")
                seat = by_name.get(line[:k])
                if seat is not None and self.section == "seats":
                    rest = line[k + 17 :]
                    all_in = rest.endswith(" and is all-in")
                    text = rest[:-14] if all_in else rest
                    amount = seen.get(text)
                    if amount is None:
                        amount = parse(text, n)
                    self.antes.append(PSAnte(seat, amount, all_in, n))
                    continue
            if line.startswith("*** "):
                marker = _MARKER.match(line)
                if marker is not None:
                    self._marker(marker, n)
                    street = self.street
                    betting = self.section == "streets"
                    continue
            section = self.section
            if section == "summary":
                self._summary_line(line, n)
                continue
            if section == "seats" and line.startswith("Seat "):
                self._seat(line, n)
                continue
            if line.startswith("Dealt to "):
                self._deal(line[9:], n)
                continue
            k = line.find(": ")
            if k > 0:
                seat = by_name.get(line[:k])
                if seat is None:
                    for name in self.longest_first:
                        if line.startswith(name + ": "):
                            seat, k = by_name[name], len(name)
                            break
                if seat is not None:
                    self._action(seat, line[k + 2 :], n)
                    continue
            self._other(line, n)
        if self.cancelled:
            return Skipped(self.file, self.before + 1, self.hand_id, "the hand was cancelled")
        if table is None:
            raise BadLine(last, "the hand is truncated: no Table line")
        if self.street < 3:
            raise BadLine(last, "the hand is truncated: no *** 3rd STREET ***")
        if self.total is None:
            raise BadLine(last, "the hand is truncated: no summary with the Total pot")
        return PokerStarsHand(
            hand_id=self.hand_id,
            file=self.file,
            line=self.before + 1,
            game=str(head["game"]),
            structure=str(head["structure"]),
            mixed=str(head["mixed"]),
            small_bet=int(head["small_bet"]),  # type: ignore[call-overload]
            big_bet=int(head["big_bet"]),  # type: ignore[call-overload]
            currency=str(head["currency"]),
            tournament=str(head["tournament"]),
            buy_in=str(head["buy_in"]),
            level=str(head["level"]),
            table=table.group(1),
            max_seats=int(table.group(2)),
            date=str(head["date"]),
            seats=tuple(self.seats),
            hero=self.down_shown[0] if len(self.down_shown) == 1 else None,
            antes=tuple(self.antes),
            deals=tuple(self.deals),
            community=self.community,
            actions=tuple(self.actions),
            uncalled=tuple(self.uncalled),
            showdown=self.showdown,
            shows=tuple(self.shows),
            mucks=tuple(self.mucks),
            collected=tuple(self.collected),
            total_pot=self.total,
            pots=self.pots,
            rake=self.rake,
            summary=tuple(self.summary),
            notes=tuple(self.notes),
            _names=self.names,
        )

    def _seat(self, line: str, n: int) -> None:
        m = _SEAT.match(line)
        if m is None:
            raise BadLine(n, f"cannot read the seat line {line!r}")
        seat, name = int(m.group(1)), m.group(2)
        if seat in self.names or name in self.by_name:
            raise BadLine(n, f"seat {seat} ({name}) is listed twice")
        self.seats.append(
            PSSeat(seat, name, self.money.parse(m.group(3), n), "sitting out" in m.group(4))
        )
        self.names[seat] = name
        self.by_name[name] = seat
        self.longest_first.append(name)
        self.longest_first.sort(key=len, reverse=True)

    def _marker(self, m: re.Match[str], n: int) -> None:
        what = m.group(1).upper()
        street = _MARKER_STREETS.get(what)
        if street is not None:
            if self.section not in ("seats", "streets") or street != max(self.street + 1, 3):
                raise BadLine(n, f"*** {m.group(1)} *** is out of order")
            self.street = street
            self.section = "streets"
            if m.group(2):
                self.community = read_cards(m.group(2), n)[0]
        elif what == "SHOW DOWN":
            if self.section != "streets":
                raise BadLine(n, "*** SHOW DOWN *** is out of order")
            self.section = "showdown"
            self.showdown = True
        else:  # SUMMARY
            if self.section == "summary":
                raise BadLine(n, "a second *** SUMMARY ***")
            self.section = "summary"

    def _seat_named(self, rest: str, n: int) -> tuple[int, str]:
        """The seat whose name starts ``rest`` (followed by a space) and the rest."""
        for name in self.longest_first:
            if rest.startswith(name) and rest[len(name) : len(name) + 1] == " ":
                return self.by_name[name], rest[len(name) + 1 :]
        raise BadLine(n, f"no seated player starts {rest!r}")

    def _deal(self, rest: str, n: int) -> None:
        if self.street < 3:
            raise BadLine(n, "a card is dealt before *** 3rd STREET ***")
        j = rest.find(" [")
        seat = self.by_name.get(rest[:j]) if j > 0 else None
        if seat is not None:
            groups = rest[j + 1 :]
        else:
            seat, groups = self._seat_named(rest, n)
        self._dealt(seat, groups, n)

    def _dealt(self, seat: int, groups: str, n: int) -> None:
        """The cards of a ``Dealt to`` line: ``[Kc 4d] [Qd]`` or ``[5d Ks 2h]``."""
        parts = groups[1:-1].split("] [") if groups[:1] == "[" and groups[-1:] == "]" else ()
        if not 1 <= len(parts) <= 2:
            raise BadLine(n, f"cannot read the cards {groups!r}")
        first = read_cards(parts[0], n)
        new = read_cards(parts[1], n) if len(parts) == 2 else ()
        if self.street == 3:
            if new or len(first) not in (1, 3):
                raise BadLine(n, f"3rd street deals one up card or three cards, got {groups!r}")
            if len(first) == 3:
                self.down_shown.append(seat)
        elif len(new) > 1:
            raise BadLine(n, f"one new card a street, got {groups!r}")
        key = (self.street, seat)
        if key in self.dealt:
            names = ("3rd street", "4th street", "5th street", "6th street", "7th street")
            raise BadLine(
                n, f"a second Dealt to line for {self.names[seat]} on {names[key[0] - 3]}"
            )
        self.dealt.add(key)
        self.deals.append(PSDeal(self.street, seat, first, new, n))

    def _action(self, seat: int, rest: str, n: int) -> None:
        all_in = rest.endswith(" and is all-in")
        if all_in:
            rest = rest[:-14]
        verb, _, arg = rest.partition(" ")
        parse = self.money.parse
        if verb in ("checks", "folds", "calls", "bets", "raises") or rest.startswith("brings in"):
            if self.section != "streets":
                raise BadLine(n, f"an action outside the betting streets: {rest!r}")
            if verb == "checks" and not arg:
                self.actions.append(PSAction(self.street, seat, "checks", None, None, all_in, n))
            elif verb == "folds":
                self.actions.append(PSAction(self.street, seat, "folds", None, None, all_in, n))
            elif verb in ("calls", "bets") and arg:
                amount = parse(arg, n)
                self.actions.append(PSAction(self.street, seat, verb, amount, None, all_in, n))
            elif verb == "raises":
                by_text, sep, to_text = arg.partition(" to ")
                if not sep:
                    raise BadLine(n, f"cannot read the raise {rest!r}")
                by, to = parse(by_text, n), parse(to_text, n)
                self.actions.append(PSAction(self.street, seat, "raises", by, to, all_in, n))
            elif rest.startswith("brings in for "):
                amount = parse(rest[14:], n)
                self.actions.append(
                    PSAction(self.street, seat, "brings in", amount, None, all_in, n)
                )
            else:
                raise BadLine(n, f"cannot read the action {rest!r}")
        elif rest.startswith("posts the ante "):
            if self.section != "seats":
                raise BadLine(n, "an ante after the deal")
            self.antes.append(PSAnte(seat, parse(rest[15:], n), all_in, n))
        elif verb == "shows":
            m = _SHOW.match(arg)
            if m is None:
                raise BadLine(n, f"cannot read the shown cards {rest!r}")
            self.shows.append(PSShow(seat, read_cards(m.group(1), n), m.group(2) or "", n))
        elif rest == "mucks hand":
            self.mucks.append(seat)
        elif rest in _TABLE_LINES:
            self._note(f"{self.names[seat]}: {rest}", n)
        elif rest not in _QUIET:
            raise BadLine(n, f"cannot read the action {rest!r} of {self.names[seat]}")

    def _other(self, line: str, n: int) -> None:
        """A line that does not start with a seated player's name and a colon."""
        if line.endswith('"') and ' said, "' in line:
            self._note(line, n)  # chat
            return
        if line.startswith("Uncalled bet ("):
            m = _UNCALLED.match(line)
            if m is None or m.group(2) not in self.by_name:
                raise BadLine(n, f"cannot read the line {line!r}")
            self.uncalled.append((self.by_name[m.group(2)], self.money.parse(m.group(1), n)))
            return
        if " collected " in line:
            m = _COLLECT.match(line)
            if m is not None and m.group(1) in self.by_name:
                label = m.group(3)
                pot = 0 if label in ("pot", "main pot") else int(m.group(4) or 1)
                amount = self.money.parse(m.group(2), n)
                self.collected.append(PSCollect(self.by_name[m.group(1)], amount, pot, label, n))
                return
        if " has timed out" in line:
            m = _TIMEOUT.match(line)
            if m is not None and m.group(1) in self.by_name and self.section == "streets":
                seat = self.by_name[m.group(1)]
                self.actions.append(PSAction(self.street, seat, "timed out", None, None, False, n))
                return
        if line == "Hand cancelled":
            self.cancelled = True
            return
        if _NOISE.match(line):
            if line != "No low hand qualified":  # the writer writes it itself
                self._note(line, n)
            return
        if self._is_play(line):
            raise BadLine(n, f"cannot read the line {line!r}")
        # The room's informational lines come and go (new tournament messages, dealer
        # notices): a line that is no part of the play is kept as a table line, and the
        # play around it is checked as ever (so a lost action still shows).
        self._note(line, n)

    def _is_play(self, line: str) -> bool:
        """Whether a line is of the play (a street, a seat, a deal, a total, an action
        of a seated player), which must be read, not passed over."""
        if line.startswith(_PLAY_START) or " collected " in line:
            return True
        for name in self.longest_first:
            if line.startswith(name) and line[len(name) : len(name) + 1] in (" ", ":"):
                word = line[len(name) + 1 :].lstrip(": ").partition(" ")[0]
                return word in _PLAY_WORDS
        return False

    def _note(self, text: str, n: int) -> None:
        """A table line, kept with where it stands (see :class:`PSNote`)."""
        self.notes.append(
            PSNote(text, self.section, self.street, len(self.antes), len(self.actions), n)
        )

    # ------------------------------------------------------------ summary
    def _summary_line(self, line: str, n: int) -> None:
        if line.startswith("Total pot "):
            m = _TOTAL.match(line)
            if m is None:
                raise BadLine(n, f"cannot read the total pot line {line!r}")
            parse = self.money.parse
            self.total = parse(m.group(1), n)
            self.rake = parse(m.group(4), n)
            if m.group(2) is not None:
                pots = [parse(m.group(2), n)]
                for i, (number, amount) in enumerate(_SIDE.findall(m.group(3)), start=1):
                    if number and int(number) != i:
                        raise BadLine(n, f"side pot-{number} is out of order")
                    pots.append(parse(amount, n))
                self.pots = tuple(pots)
            return
        if line.startswith("Board ["):
            m = _BOARD.match(line)
            if m is None:
                raise BadLine(n, f"cannot read the board {line!r}")
            cards = read_cards(m.group(1), n)
            if len(cards) != 1 or (self.community is not None and cards[0] != self.community):
                raise BadLine(n, f"the board {line!r} is not the community card of 7th street")
            self.community = cards[0]
            return
        if not line.startswith("Seat "):
            return
        number, _, rest = line[5:].partition(": ")
        if not number.isdigit() or int(number) not in self.names:
            raise BadLine(n, f"cannot read the summary line {line!r}")
        seat = int(number)
        name = self.names[seat]
        if not rest.startswith(name + " "):
            raise BadLine(n, f"seat {seat} is {name}, not {rest!r}")
        text = rest[len(name) + 1 :]
        while True:
            p = _SUM_POSITION.match(text)
            if p is None:
                break
            text = text[p.end() :]
        out = self._summary_outcome(text, n)
        self.summary.append(PSSummarySeat(seat, out[0], out[1], out[2], out[3], text, n))

    def _summary_outcome(
        self, text: str, n: int
    ) -> tuple[str, int | None, tuple[Card, ...], int | None]:
        parse = self.money.parse
        m = _SUM_FOLDED.match(text)
        if m:
            return "folded", _STREET_NAMES[m.group(1).lower()], (), None
        m = _SUM_WON.match(text)
        if m:
            return "won", None, read_cards(m.group(1), n), parse(m.group(2), n)
        m = _SUM_LOST.match(text)
        if m:
            return "lost", None, read_cards(m.group(1), n), None
        m = _SUM_MUCKED.match(text)
        if m:
            return "mucked", None, read_cards(m.group(1) or "", n), None
        m = _SUM_COLLECTED.match(text)
        if m:
            return "collected", None, (), parse(m.group(1), n)
        return "", None, (), None
