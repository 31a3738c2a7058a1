"""OnGame (bwin, PartyPoker's later network): ``***** History for hand R5-78227816-62 *****``.

``Table: Taegu [78227816] (LIMIT SEVEN_CARD_STUD_HI_LO $0.25/$0.50, ante: $0.05,
Real money)``; streets are separated by ``---`` and ``Dealing 4th street``;
cards are comma-separated, ``-`` for a hidden one (``[-, -, Kd]``). The low
card ``small bring in $X`` (``big bring in $X``: he completes at once). A raise
``raises $1 to $1.37`` gives the street's new bet first, then what the raiser
has put in over the whole hand (antes apart): the first number counts. The
summary: ``Main pot: $5.14 won by Hero ($4.89)``, ``Rake taken: $0.25`` and the
seats, with the cards of those who showed.
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
)

# a tournament's hand names it: (TOURNAMENT: "NAME", ID, buy-in: $X) (fpdb's OnGame parser)
_HEADER = re.compile(
    r'^\*{5} History for hand (\S+)(?: \(TOURNAMENT:(?: "[^"]*",)? ?([-\w]+)?[^)]*\))? \*{5}$'
)
_TABLE = re.compile(r"^Table: (.*?) \[\d+\] \((\w+) (\w+) ([$€£]?)([\d,.]+)/[$€£]?([\d,.]+)(.*)\)$")
_SEAT = re.compile(r"^Seat (\d+): (.+) \(([$€£]?[\d,.]+)\)$")
_STREET = re.compile(r"^Dealing (4th|5th|6th) street$|^Dealing river$")
_DEALT = re.compile(r"^Dealing to (.+?): \[([^\]]*)\]$")
_POT = re.compile(r"^(Main pot|Side pot(?: (\d+))?): ([$€£]?[\d,.]+) won by (.*)$")
_WINNER = re.compile(r"(.+?) \(([$€£]?[\d,.]+)\)(?:, |$)")
_SUMMARY_SEAT = re.compile(r"^Seat (\d+): .*?, \[([^\]]*)\]")


def detect(text: str) -> bool:
    return "***** History for hand " in text and "Table: " in text


def read(text: str, file: str) -> list[Item]:
    return read_hands(
        text, file, lambda t: t.startswith("***** History for hand "), _parse, "OnGame"
    )


def _parse(lines: list[str], before: int, file: str) -> PokerStarsHand | Skipped:
    n0 = before + 1
    head = _HEADER.match(lines[0].strip())
    if head is None:
        raise BadLine(n0, f"cannot read the header {lines[0].strip()!r}")
    b = HandBuilder(file=file, line=n0, hand_id=head.group(1))
    cents = True
    in_summary = False
    street = 3
    for i, raw in enumerate(lines[1:], start=n0 + 1):
        line = raw.strip()
        if not line or line == "---" or line.startswith("***** End of hand"):
            continue
        if line.startswith("Start hand: "):
            b.date = pokerstars_date(line[12:])
            continue
        if line.startswith("Table: "):
            m = _TABLE.match(line)
            if m is None:
                raise BadLine(i, f"cannot read the table line {line!r}")
            stud = stud_game(m.group(3))  # SEVEN_CARD_STUD_HI_LO, SEVEN_CARD_STUD, RAZZ
            if stud is None:
                return Skipped(file, n0, b.hand_id, f"not a Stud-family hand: {m.group(3)}")
            b.game = stud
            b.table = m.group(1)
            b.structure = {"LIMIT": "Limit", "POT_LIMIT": "Pot Limit", "NO_LIMIT": "No Limit"}.get(
                m.group(2), "Limit"
            )
            tournament = re.search(r"[Tt]ournament (\d+)", m.group(7))
            b.tournament = tournament.group(1) if tournament else head.group(2) or ""
            cents = ("Real money" in m.group(7) or bool(m.group(4))) and not b.tournament
            b.currency = (
                {"$": "USD", "€": "EUR", "£": "GBP"}.get(m.group(4), "USD") if cents else ""
            )
            b.small_bet = money(m.group(5), i, cents)
            b.big_bet = money(m.group(6), i, cents)
            continue
        if line.startswith("Summary:"):
            in_summary = True
            continue
        if in_summary:
            _summary(b, line, i, cents)
            continue
        if line == "Dealing pocket cards":  # 3rd street's deal
            continue
        m = _STREET.match(line)
        if m:
            street = int(m.group(1)[0]) if m.group(1) else 7
            b.new_street(street, i)
            continue
        m = _SEAT.match(line)
        if m and not b.antes:
            seat_line(b, m, i, cents)
            continue
        m = _DEALT.match(line)
        if m:
            seat = b.seat_of(m.group(1), i)
            held = cards(m.group(2), i)
            b.dealt(seat, street, held, i)
            if street == 3 and len(held) == 3 and all(c is not None for c in held):
                b.hero = seat
            continue
        _action(b, line, i, cents)
    if not in_summary:
        raise BadLine(before + len(lines), "the hand is truncated: no Summary")
    return b.build()


def _summary(b: HandBuilder, line: str, n: int, cents: bool) -> None:
    m = _POT.match(line)
    if m:
        pot = 0 if m.group(1) == "Main pot" else int(m.group(2) or 1)
        for w in _WINNER.finditer(m.group(4)):
            b.collect(b.seat_of(w.group(1), n), money(w.group(2), n, cents), n, pot)
        return
    if line.startswith("Rake taken: "):
        b.rake = money(line[12:], n, cents)
        return
    m = _SUMMARY_SEAT.match(line)
    if m:
        b.show(b.check_seat(int(m.group(1)), n), [c for c in cards(m.group(2), n) if c], n)


def _action(b: HandBuilder, line: str, n: int, cents: bool) -> None:
    said = speaker(b, line)
    if said is None:
        if not line.startswith(("User: ", "Players in round: ")):  # the header's, known
            table_line(b, line, n, play=("Dealing ", "Seat ", "Summary"))
        return
    seat, rest = said[0], re.sub(r",? \[?all[- ]in\]?$", "", said[1], flags=re.I)
    verb, _, arg = rest.partition(" ")
    if rest.startswith("posts ante "):
        b.ante(seat, money(rest[11:], n, cents), n)
    elif rest.startswith("small bring in "):
        b.bring_in(seat, money(rest[15:], n, cents), n)
    elif rest.startswith("big bring in "):
        b.raise_to(seat, money(rest[13:], n, cents), n)
    elif verb == "folds":
        b.fold(seat, n)
    elif verb == "checks":
        b.check(seat, n)
    elif verb == "calls":
        b.call(seat, money(arg, n, cents), n)
    elif verb == "bets":
        b.raise_to(seat, money(arg, n, cents), n)
    elif verb == "raises":
        b.raise_to(seat, money(arg.partition(" to ")[0], n, cents), n)
    elif verb in ("shows", "mucks", "doesn't"):
        if verb == "mucks":
            b.muck(seat)
    else:
        table_line(b, line, n, said=rest)


SITE = Site("ongame", "OnGame", detect, read)
