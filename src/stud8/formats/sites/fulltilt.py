"""Full Tilt Poker: ``Full Tilt Poker Game #N: Table T - $2/$4 Ante $0.40 - Limit Stud H/L - ...``.

Close to PokerStars text: ``Dealt to`` lines, ``completes it to``, ``raises to
$X`` (the total), ``, and is all in``, ``Uncalled bet of $X returned to``, ``wins
the pot ($X)`` / ``wins the high pot`` / ``wins the low pot`` / ``wins side pot
#N``, and a summary ``Total pot $X | Rake $Y``. Tournament headers name the
tournament and the level; mixed games add the game's name (``(10-Game)``).
"""

from __future__ import annotations

import re

from stud8.formats.pokerstars import BadLine, PokerStarsHand, Skipped
from stud8.formats.sites import Site
from stud8.formats.sites._build import HandBuilder
from stud8.formats.sites._dates import pokerstars_date
from stud8.formats.sites._text import (
    Item,
    cards,
    money,
    read_hands,
    seat_line,
    speaker,
    stud_game,
    table_line,
    total_line,
)

_HEADER = re.compile(r"^Full Tilt Poker (?:Game|Hand) #(\d+):\s*(.*)$")
_STAKES = re.compile(r"([$€£]?)([\d,.]+)/[$€£]?([\d,.]+)(?: Ante [$€£]?([\d,.]+))?")
_TOURNAMENT = re.compile(r"\((\d+)\), Table (\S+)|Tournament #?(\d+)", re.I)
_TABLE = re.compile(r"Table (.+?) - ")
_SEAT = re.compile(r"^Seat (\d+): (.+) \(([$€£]?[\d,.]+)\)(, is sitting out)?$")
_STREET = re.compile(r"^\*\*\* (3RD|4TH|5TH|6TH|7TH) STREET \*\*\*$")
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]*)\](?: \[([^\]]*)\])?$")
_LOW_WITH = re.compile(r"^.+ is (?:low|high) with \[[^\]]*\]$")
_UNCALLED = re.compile(r"^Uncalled bet of (\S+) returned to (.+)$")
_WINS = re.compile(
    r"^(.+?) (?:wins|ties for) (?:the )?(?:high |low )?(?:main pot|pot|side pot(?: #(\d+))?)"
    r"(?: \((\S+)\)| ([$€£]?[\d,.]+))?"
)
_TOTAL = re.compile(r"^Total pot (\S+)(?: Main pot \S+\.)?.*\| Rake (\S+)")
_SHOWS = re.compile(r"^(.+?) shows \[([^\]]*)\]")
_MUCKS = re.compile(r"^(.+?) mucks(?: \[([^\]]*)\])?$")


def detect(text: str) -> bool:
    return bool(re.search(r"^Full Tilt Poker (?:Game|Hand) #\d+:", text, re.M))


def read(text: str, file: str) -> list[Item]:
    return read_hands(text, file, lambda t: t.startswith("Full Tilt Poker "), _parse, "Full Tilt")


def _parse(lines: list[str], before: int, file: str) -> PokerStarsHand | Skipped:
    head = _HEADER.match(lines[0].strip())
    if head is None:
        raise BadLine(before + 1, f"cannot read the header {lines[0].strip()!r}")
    rest = head.group(2)
    # Limit Stud H/L, Limit Stud Hi, Limit Razz: in a field after the table's name
    stud = stud_game(" - ".join(rest.split(" - ")[1:]))
    if stud is None:
        return Skipped(file, before + 1, head.group(1), f"not a Stud-family hand: {rest}")
    b = HandBuilder(file=file, line=before + 1, hand_id=head.group(1))
    b.game = stud
    stakes = _STAKES.search(rest)
    if stakes is None:
        raise BadLine(before + 1, "cannot find the stakes in the header")
    tour = _TOURNAMENT.search(rest)
    if tour is not None:
        b.tournament = tour.group(1) or tour.group(3) or ""
    cents = bool(stakes.group(1)) and not b.tournament
    b.currency = {"$": "USD", "€": "EUR", "£": "GBP"}.get(stakes.group(1), "") if cents else ""
    b.small_bet = money(stakes.group(2), before + 1, cents)
    b.big_bet = money(stakes.group(3), before + 1, cents)
    table = _TABLE.search(rest)
    b.table = table.group(1) if table else ""
    mixed = re.search(r"\(([\w-]+ ?Game|HORSE|HOSE)\)", rest)
    b.mixed = mixed.group(1) if mixed else ""
    parts = rest.split(" - ")
    b.date = pokerstars_date(" ".join(parts[-2:])) if len(parts) >= 2 else ""
    in_summary = False
    for i, raw in enumerate(lines[1:], start=before + 2):
        line = raw.strip()
        if not line:
            continue
        if in_summary:
            m = _TOTAL.match(line)
            if m:
                total_line(b, m, i, cents)
            continue
        if line == "*** SUMMARY ***":
            in_summary = True
            continue
        if line == "*** SHOW DOWN ***":
            b.showdown = True
            continue
        m = _STREET.match(line)
        if m:
            street = int(m.group(1)[0])
            if street > 3:
                b.new_street(street, i)
            continue
        m = _SEAT.match(line)
        if m and not b.antes and not b.actions:
            seat_line(b, m, i, cents)
            continue
        m = _DEALT.match(line)
        if m:
            seat = b.seat_of(m.group(1), i)
            shown = cards(m.group(2), i) + (cards(m.group(3), i) if m.group(3) else [])
            b.dealt(seat, b.street, shown, i)
            if b.street == 3 and len(shown) == 3:
                b.hero = seat
            continue
        m = _UNCALLED.match(line)
        if m:
            b.return_uncalled(b.seat_of(m.group(2), i), money(m.group(1), i, cents))
            continue
        if _action(b, line, i, cents):
            continue
        m = _WINS.match(line)
        if m and m.group(1) in b.by_name:
            amount = m.group(3) or m.group(4)
            if amount is None:
                raise BadLine(i, f"cannot read the amount won in {line!r}")
            side = " side pot" in line.split(" (")[0]
            pot = int(m.group(2) or 1) if side else 0
            b.collect(b.by_name[m.group(1)], money(amount, i, cents), i, pot)
            continue
        m = _SHOWS.match(line)
        if m and m.group(1) in b.by_name:
            shown_cards = [c for c in cards(m.group(2), i) if c is not None]
            b.show(b.by_name[m.group(1)], shown_cards, i)
            continue
        m = _MUCKS.match(line)
        if m and m.group(1) in b.by_name:
            b.muck(b.by_name[m.group(1)])
            continue
        if not _LOW_WITH.match(line):  # who brings in, and why: the play says it
            # "sits down", "adds", "has 15 seconds", chat...
            table_line(b, line, i, play=("*** ", "Dealt to ", "Uncalled bet"))
    if not in_summary:
        raise BadLine(before + len(lines), "the hand is truncated: no *** SUMMARY ***")
    return b.build()


def _action(b: HandBuilder, line: str, n: int, cents: bool) -> bool:
    said = speaker(b, line)
    if said is not None:
        seat, rest = said[0], said[1].removesuffix(", and is all in")
        verb, _, arg = rest.partition(" ")
        if rest == "folds":
            b.fold(seat, n)
        elif rest == "checks":
            b.check(seat, n)
        elif verb == "antes":
            b.ante(seat, money(arg, n, cents), n)
        elif rest.startswith("brings in for "):
            b.bring_in(seat, money(rest[14:], n, cents), n)
        elif rest.startswith("completes it to "):
            b.raise_to(seat, money(rest[16:], n, cents), n)
        elif verb == "bets":
            b.raise_to(seat, money(arg, n, cents), n)
        elif rest.startswith("raises to "):
            b.raise_to(seat, money(rest[10:], n, cents), n)
        elif verb == "calls":
            b.call(seat, money(arg, n, cents), n)
        else:
            return False
        return True
    return False


SITE = Site("fulltilt", "Full Tilt Poker", detect, read)
