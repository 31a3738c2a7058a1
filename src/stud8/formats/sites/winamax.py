"""Winamax: ``Winamax Poker - CashGame - HandId: #N - 7-Card Stud Hi/Lo fixed limit (5€/25€/50€)``.

Close to PokerStars text (``Dealt to NAME [X X 8h] [Ks]``, ``X`` a hidden card;
``brings in 10€``, ``raises 25€ to 50€``), with the stakes as ante/small
bet/big bet and amounts in euros (``2026.03€``). Winamax writes no uncalled bet:
a bet nobody called stays in the pot it pays the bettor (``collected 114€ from
pot(HI)`` and ``from pot(LO)``, even when nobody could have a low), and its
``Total pot 228€ | Rake 2€`` is that pot after the rake. The reader returns the
bet and takes it off what the bettor collected, as PokerStars writes it.
"""

from __future__ import annotations

import re

from stud8.formats.pokerstars import BadLine, PokerStarsHand, Skipped
from stud8.formats.sites import Site
from stud8.formats.sites._build import HandBuilder
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

_HEADER = re.compile(r"^Winamax Poker - (.*?)HandId: #([\w-]+) - (.*) - (\d{4}/\d\d/\d\d .*)$")
_STAKES = re.compile(r"\(([\d,.]+)[€$]?/([\d,.]+)[€$]?/([\d,.]+)[€$]?\)")
_TABLE = re.compile(r"^Table: '(.*)' (\d+)-max")
_SEAT = re.compile(r"^Seat (\d+): (.+) \(([\d,.]+)[€$]?(?:, .*)?\)$")
_STREET = re.compile(r"^\*\*\* (3rd|4th|5th|6th|7th) STREET \*\*\*$", re.I)
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]*)\](?: \[([^\]]*)\])?$")
_COLLECT = re.compile(r"^(.+) collected ([\d,.]+)[€$]? from (?:main |side )?pot(?:\((HI|LO)\))?")
_TOTAL = re.compile(r"^Total pot ([\d,.]+)[€$]?(?: \| (?:No rake|Rake ([\d,.]+)[€$]?))?")
_SHOWS = re.compile(r"^(.+) shows \[([^\]]*)\]")


def detect(text: str) -> bool:
    return "Winamax Poker - " in text and "HandId: #" in text


def read(text: str, file: str) -> list[Item]:
    return read_hands(text, file, lambda t: t.startswith("Winamax Poker - "), _parse, "Winamax")


def _parse(lines: list[str], before: int, file: str) -> PokerStarsHand | Skipped:
    n0 = before + 1
    head = _HEADER.match(lines[0].strip())
    if head is None:
        raise BadLine(n0, f"cannot read the header {lines[0].strip()!r}")
    game = head.group(3)
    stud = stud_game(game)  # 7-Card Stud Hi/Lo (or 7stud8), 7-Card Stud, Razz
    if stud is None:
        return Skipped(file, n0, head.group(2), f"not a Stud-family hand: {game}")
    b = HandBuilder(file=file, line=n0, hand_id=head.group(2))
    b.game = stud
    kind = head.group(1)
    tournament = re.search(r'Tournament "([^"]*)"', kind)
    b.tournament = tournament.group(1) if tournament else ""
    cents = not b.tournament
    b.currency = "EUR" if cents else ""
    stakes = _STAKES.search(game)
    if stakes is None:
        raise BadLine(n0, "cannot find the stakes in the header")
    b.small_bet = money(stakes.group(2), n0, cents)
    b.big_bet = money(stakes.group(3), n0, cents)
    b.structure = (
        "No Limit" if "no limit" in game else "Pot Limit" if "pot limit" in game else "Limit"
    )
    b.date = head.group(4)
    in_summary = False
    file_total: int | None = None
    for i, raw in enumerate(lines[1:], start=n0 + 1):
        line = raw.strip()
        if not line:
            continue
        m = _TABLE.match(line)
        if m:
            b.table, b.max_seats = m.group(1), int(m.group(2))
            continue
        if line == "*** SUMMARY ***":
            in_summary = True
            continue
        if in_summary:
            m = _TOTAL.match(line)
            if m:
                file_total = money(m.group(1), i, cents)
                b.rake = money(m.group(2), i, cents) if m.group(2) else 0
            continue
        if line.startswith("*** SHOW DOWN ***"):
            b.showdown = True
            continue
        m = _STREET.match(line)
        if m:
            street = int(m.group(1)[0])
            if street > 3:
                b.new_street(street, i)
            continue
        if line.startswith("*** "):
            continue  # *** ANTE/BLINDS ***
        m = _SEAT.match(line)
        if m and not b.antes:
            seat_line(b, m, i, cents)
            continue
        m = _DEALT.match(line)
        if m:
            seat = b.seat_of(m.group(1), i)
            held = cards(m.group(2), i) + (cards(m.group(3), i) if m.group(3) else [])
            b.dealt(seat, b.street, held, i)
            if b.street == 3 and all(c is not None for c in held):
                b.hero = seat
            continue
        m = _COLLECT.match(line)
        if m and m.group(1) in b.by_name:
            b.collect(b.by_name[m.group(1)], money(m.group(2), i, cents), i)
            continue
        m = _SHOWS.match(line)
        if m and m.group(1) in b.by_name:
            b.show(b.by_name[m.group(1)], [c for c in cards(m.group(2), i) if c], i)
            continue
        _action(b, line, i, cents)
    if file_total is None:
        raise BadLine(before + len(lines), "the hand is truncated: no Total pot in a summary")
    back = b.keep_uncalled_in_wins()
    b.total = file_total + (b.rake or 0) - back
    return b.build()


def _action(b: HandBuilder, line: str, n: int, cents: bool) -> None:
    said = speaker(b, line)
    if said is None:
        table_line(b, line, n, play=("Seat ", "Dealt to ", "Total pot"))
        return
    seat, rest = said[0], said[1].removesuffix(" and is all-in")
    verb, _, arg = rest.partition(" ")
    if rest.startswith("posts ante "):
        b.ante(seat, money(rest[11:], n, cents), n)
    elif rest.startswith("brings in "):
        b.bring_in(seat, money(rest[10:], n, cents), n)
    elif verb == "folds":
        b.fold(seat, n)
    elif verb == "checks":
        b.check(seat, n)
    elif verb == "calls":
        b.call(seat, money(arg, n, cents), n)
    elif verb in ("bets", "completes"):
        b.raise_to(seat, money(arg.removeprefix("to "), n, cents), n)
    elif verb == "raises":
        b.raise_to(seat, money(arg.rpartition(" to ")[2], n, cents), n)
    else:
        table_line(b, line, n, said=rest)


SITE = Site("winamax", "Winamax", detect, read)
