"""Absolute Poker (and UltimateBet): ``Stage #N: Seven Card Hi/Lo  Normal $0.02/$0.04 - ...``.

``Seat 1 - NAME ($0.17 in chips)``, ``NAME - Ante $0.01``, then on each street
every player's ``NAME - Pocket [H H Js 10d]`` (``H`` a hidden card; a player
who folded keeps getting his old pocket line, which says nothing new),
``NAME - Bring-In $X``, ``- Bets``, ``- Raises $X to $Y``, ``- Calls``,
``- All-In $X``; at the end ``NAME - Shows [...]``, ``NAME Collects $X from main
pot`` and ``Total Pot($X) | Rake ($Y)``.
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
    stud_game,
    table_line,
    total_line,
)

_HEADER = re.compile(r"^Stage #(\w+):\s*(.*?)(?: - (\d{4}-\d\d-\d\d .*))?$")
_STAKES = re.compile(r"([$€£]?)([\d,.]+)/[$€£]?([\d,.]+)")
_SEAT = re.compile(r"^Seat (\d+) - (.+) \(([$€£]?[\d,.]+) in chips\)")
_STREET = re.compile(r"^\*\*\* (3RD STREET|4TH STREET|5TH STREET|6TH STREET|RIVER) \*\*\*", re.I)
_POCKET = re.compile(r"^(.+) - Pocket \[([^\]]*)\]")
_ACTION = re.compile(
    r"^(.+) - (Ante|Bring-In|Bets|Calls|Raises|All-In(?: \(Raise\))?|Folds|Checks|Completes|Mucks"
    r"|Shows)(?: \[([^\]]*)\])?(?: ([$€£]?[\d,.]+)(?: to ([$€£]?[\d,.]+))?)?"
)
_COLLECTS = re.compile(r"^(.+) Collects (\S+) from (main pot|side pot(?: #?(\d+))?)")
_TOTAL = re.compile(r"^Total Pot\s*\((\S+)\)\s*\|\s*Rake \((\S+)\)", re.I)


def detect(text: str) -> bool:
    return bool(re.search(r"^Stage #\w+: .*(Seven Card|Stud|Razz)", text, re.M))


def read(text: str, file: str) -> list[Item]:
    return read_hands(text, file, lambda t: t.startswith("Stage #"), _parse, "Absolute Poker")


def _parse(lines: list[str], before: int, file: str) -> PokerStarsHand | Skipped:
    n0 = before + 1
    head = _HEADER.match(lines[0].strip())
    if head is None:
        raise BadLine(n0, f"cannot read the header {lines[0].strip()!r}")
    game = head.group(2)
    stud = stud_game(game)  # Seven Card Hi/Lo, Seven Card Stud, Razz
    if stud is None:
        return Skipped(file, n0, head.group(1), f"not a Stud-family hand: {game}")
    b = HandBuilder(file=file, line=n0, hand_id=head.group(1))
    b.game = stud
    stakes = _STAKES.search(game)
    if stakes is None:
        raise BadLine(n0, "cannot find the stakes in the header")
    tournament = re.search(r"Tourn\w*(?: ID)? ?#?(\d+)?", game, re.I)
    if tournament:
        b.tournament = tournament.group(1) or head.group(1)
    cents = bool(stakes.group(1)) and not b.tournament
    b.currency = {"$": "USD", "€": "EUR", "£": "GBP"}.get(stakes.group(1), "") if cents else ""
    b.small_bet = money(stakes.group(2), n0, cents)
    b.big_bet = money(stakes.group(3), n0, cents)
    b.date = pokerstars_date(head.group(3) or "")
    in_summary = False
    street = 0
    for i, raw in enumerate(lines[1:], start=n0 + 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("Table: ") or line.startswith("Table #"):
            # "Table: TORONTO AVE (Real Money) Seat #6 is the dealer"
            name = line.split(": ", 1)[-1]
            b.table = re.sub(
                r"\s*(?:\((?:Real|Play) Money\))?\s*(?:Seat #\d+ is the.*)?$", "", name
            )
            continue
        if in_summary:
            m = _TOTAL.match(line)
            if m:
                total_line(b, m, i, cents)
            continue
        if line.startswith("*** SUMMARY ***"):
            in_summary = True
            continue
        if line.startswith("*** SHOW DOWN ***"):
            b.showdown = True
            continue
        m = _STREET.match(line)
        if m:
            word = m.group(1).upper()
            street = 7 if word == "RIVER" else int(word[0])
            if street > 3:
                b.new_street(street, i)
            continue
        m = _SEAT.match(line)
        if m:
            seat_line(b, m, i, cents)
            continue
        m = _POCKET.match(line)
        if m:
            seat = b.seat_of(m.group(1), i)
            held = cards(m.group(2), i)
            if seat in b.folded or len(held) < street:
                continue  # a folded player's old cards again
            b.dealt(seat, street, held, i)
            if street == 3 and all(c is not None for c in held):
                b.hero = seat
            continue
        m = _COLLECTS.match(line)
        if m:
            pot = int(m.group(4) or 1) if m.group(3).startswith("side") else 0
            b.collect(b.seat_of(m.group(1), i), money(m.group(2), i, cents), i, pot)
            continue
        m = _ACTION.match(line)
        if m and m.group(1) in b.by_name:
            _act(b, b.by_name[m.group(1)], m, i, cents)
            continue
        if " - " in line and line.split(" - ")[0] in b.by_name:
            raise BadLine(i, f"cannot read the action {line!r}")
        table_line(b, line, i, play=("*** ",))
    if not in_summary:
        raise BadLine(before + len(lines), "the hand is truncated: no *** SUMMARY ***")
    return b.build()


def _act(b: HandBuilder, seat: int, m: re.Match[str], n: int, cents: bool) -> None:
    verb = m.group(2)
    amount = money(m.group(4), n, cents) if m.group(4) else None
    to = money(m.group(5), n, cents) if m.group(5) else None
    if verb == "Folds":
        b.fold(seat, n)
    elif verb == "Checks":
        b.check(seat, n)
    elif verb == "Mucks":
        b.muck(seat)
    elif verb == "Shows":
        b.show(seat, [c for c in cards(m.group(3) or "", n) if c is not None], n)
    elif amount is None:
        raise BadLine(n, f"{verb} without an amount")
    elif verb == "Ante":
        b.ante(seat, amount, n)
    elif verb == "Bring-In":
        b.bring_in(seat, amount, n)
    elif verb == "Calls":
        b.call(seat, amount, n)
    elif verb.startswith("All-In"):
        b.put(seat, amount, n)
    else:  # Bets, Completes, Raises X to Y
        b.raise_to(seat, to if to is not None else amount, n)


SITE = Site("absolute", "Absolute Poker", detect, read)
