"""KingsClub: ``#39969428: Limit Seven Card Stud Hi-Lo - 40/80``, then the date and ``Table '...'``.

KingsClub deals 3rd street without a marker and then names each street after
the one before it: the ``*** 3RD STREET ***`` line opens the betting on 4th
street, ``*** 6TH STREET ***`` on 7th. Amounts carry no currency sign and may
have cents (``1,725.59``): they are US dollars. Hidden cards are ``X``; a
call is written as the caller's total on the street (``calls 40`` after a
bring-in of 10 adds 30). A player shows his seven cards in any order
(``Hero shows [4s Qh Qs ...]`` after being dealt ``[Qh 4s Qs]``). The summary
gives each seat's stack and net, ``Rake 1`` and ``NAME wins pot (659)``; the
total pot is not written.
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

_HEADER = re.compile(r"^#(\d+): (.*?) - ([\d,.]+)/([\d,.]+)\s*(.*)$")
_SEAT = re.compile(r"^Seat (\d+): (.+) \(([\d,.]+)\)$")
_STREET = re.compile(r"^\*\*\* (3RD|4TH|5TH|6TH|7TH) STREET \*\*\*$", re.I)
_DEALT = re.compile(r"^Dealt to (.+?): \[([^\]]*)\]$")
_WINS = re.compile(
    r"^(.+) wins (?:the )?(?:(?:hi|lo|high|low) )?(?:main )?(pot|side pot ?#?(\d*))"
    r" \(([\d,.]+)\)$",
    re.I,
)


def detect(text: str) -> bool:
    return bool(re.search(r"^#\d+: .*(?:Stud|Razz).* - [\d,.]+/[\d,.]+", text, re.M))


def read(text: str, file: str) -> list[Item]:
    return read_hands(text, file, lambda t: bool(re.match(r"#\d+: ", t)), _parse, "KingsClub")


def _parse(lines: list[str], before: int, file: str) -> PokerStarsHand | Skipped:
    n0 = before + 1
    head = _HEADER.match(lines[0].strip())
    if head is None:
        raise BadLine(n0, f"cannot read the header {lines[0].strip()!r}")
    stud = stud_game(head.group(2))  # Seven Card Stud Hi-Lo, Seven Card Stud, Razz
    if stud is None:
        return Skipped(file, n0, head.group(1), f"not a Stud-family hand: {head.group(2)}")
    b = HandBuilder(file=file, line=n0, hand_id=head.group(1))
    b.game = stud
    b.structure = "Limit" if head.group(2).lower().startswith("limit") else b.structure
    tournament = re.search(r"Tournament #?(\d+)", lines[0])
    b.tournament = tournament.group(1) if tournament else ""
    cents = not b.tournament
    b.currency = "USD" if cents else ""
    b.small_bet = money(head.group(3), n0, cents)
    b.big_bet = money(head.group(4), n0, cents)
    in_summary = False
    shown = False
    for i, raw in enumerate(lines[1:], start=n0 + 1):
        line = raw.strip()
        if not line:
            continue
        if re.match(r"^\d{4}-\d\d-\d\d \d", line) and not b.date:
            b.date = pokerstars_date(line)
            continue
        if line.startswith("Table '"):
            b.table = line[7:].rstrip("'")
            continue
        if line == "*** SUMMARY ***":
            in_summary = True
            continue
        if in_summary:
            m = _WINS.match(line)
            if m:
                pot = int(m.group(3) or 1) if m.group(2).lower().startswith("side") else 0
                b.collect(b.seat_of(m.group(1), i), money(m.group(4), i, cents), i, pot)
            elif line.startswith("Rake "):
                b.rake = money(line[5:], i, cents)
            continue
        m = _STREET.match(line)
        if m:
            named = int(m.group(1)[0])
            if named not in (b.street, b.street + 1):
                raise BadLine(i, f"*** {m.group(1)} STREET *** after street {b.street}")
            b.new_street(b.street + 1, i)
            continue
        m = _SEAT.match(line)
        if m:
            seat_line(b, m, i, cents)
            continue
        m = _DEALT.match(line)
        if m:
            seat = b.seat_of(m.group(1), i)
            held = cards(m.group(2), i)
            b.dealt(seat, b.street, held, i)
            if b.street == 3 and len(held) == 3 and all(c is not None for c in held):
                b.hero = seat
            continue
        _action(b, line, i, cents)
        shown = shown or " shows [" in line
    if not in_summary:
        raise BadLine(before + len(lines), "the hand is truncated: no *** SUMMARY ***")
    b.showdown = shown or None
    return b.build()


def _action(b: HandBuilder, line: str, n: int, cents: bool) -> None:
    said = speaker(b, line, (": ", " "))
    if said is None:
        table_line(b, line, n, play=("*** ", "Seat ", "Dealt to "))
        return
    seat, rest = said
    verb, _, arg = rest.partition(" ")
    arg = arg.removesuffix(" and is all-in")
    if rest.startswith("posts ante "):
        b.ante(seat, money(rest[11:], n, cents), n)
    elif rest.startswith("brings in for "):
        b.bring_in(seat, money(rest[14:], n, cents), n)
    elif verb == "folds":
        b.fold(seat, n)
    elif verb == "checks":
        b.check(seat, n)
    elif verb == "calls":  # KingsClub writes what the caller has in on the street
        b.call(seat, money(arg, n, cents) - b.street_in.get(seat, 0), n)
    elif verb in ("bets", "completes"):
        b.raise_to(seat, money(arg.removeprefix("to "), n, cents), n)
    elif verb == "raises":
        b.raise_to(seat, money(arg.rpartition(" to ")[2] or arg, n, cents), n)
    elif verb == "shows":
        b.show(seat, [c for c in cards(arg.strip("[]"), n) if c is not None], n)
    elif verb == "mucks":
        b.muck(seat)
    else:
        table_line(b, line, n, said=rest)


SITE = Site("kingsclub", "KingsClub", detect, read)
