"""Bovada / Bodog / Ignition: ``Bovada Hand #N TBL#T 7CARD HiLo Fixed Limit - date``.

The seats are anonymous (``Seat+1``; ``Seat+2 [ME]`` is the player whose file it
is) and every card is listed, even the folded players': ``Seat+1 : Card dealt
to a spot [6d Ad 2s]``. The header names no stakes: the small bet is the first
completion or bet of 3rd or 4th street, the big bet twice it. The low card may
complete at once (``Bets`` as the first action). At the end ``Showdown [...]``
lists a best hand, not the cards dealt (the deal lines give those), ``Hand
result $X`` is what a seat collects and the summary ``Total Pot($X) | Rake ($Y)``.
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
    stud_game,
    table_line,
    total_line,
)

_HEADER = re.compile(r"^(?:Bovada|Bodog|Ignition) Hand #(\d+)\s*(.*?)(?: - (\d{4}-\d\d-\d\d .*))?$")
_SEAT = re.compile(r"^Seat\+(\d+)(?: \[ME\])?: ([$€£]?[\d,.]+) in chips")
_LINE = re.compile(r"^(Seat\+\d+)( \[ME\])? : (.*)$")
_STREET = re.compile(r"^\*\*\* (3RD|4TH|5TH|6TH) STREET \*\*\*|^\*\*\* RIVER \*\*\*", re.I)
_TOTAL = re.compile(r"^Total Pot\s*\((\S+)\)\s*\|\s*Rake \((\S+)\)", re.I)
_AMOUNT = r"([$€£]?[\d,.]+)"
_VERB = re.compile(
    r"^(Ante chip|Bring_in chip|Bring-in chip|Bring in chip|Big blind/Bring in|Bets|Calls?|Raises"
    r"|All-in\(raise\)"
    r"|All-in|Hand result(?:-Side pot)?|Return uncalled portion of bet)\s+"
    + _AMOUNT
    + r"(?: to "
    + _AMOUNT
    + ")?",
    re.I,
)


def detect(text: str) -> bool:
    return bool(re.search(r"^(?:Bovada|Bodog|Ignition) Hand #\d+", text, re.M))


def read(text: str, file: str) -> list[Item]:
    return read_hands(
        text,
        file,
        lambda t: t.startswith(("Bovada Hand #", "Bodog Hand #", "Ignition Hand #")),
        _parse,
        "Bovada",
    )


def _parse(lines: list[str], before: int, file: str) -> PokerStarsHand | Skipped:
    n0 = before + 1
    head = _HEADER.match(lines[0].strip())
    if head is None:
        raise BadLine(n0, f"cannot read the header {lines[0].strip()!r}")
    game = head.group(2)
    stud = stud_game(game)  # 7CARD HiLo, 7CARD (Stud high), RAZZ
    if stud is None:
        return Skipped(file, n0, head.group(1), f"not a Stud-family hand: {game}")
    b = HandBuilder(file=file, line=n0, hand_id=head.group(1))
    b.game = stud
    table = re.search(r"TBL#(\d+)", game)
    b.table = table.group(1) if table else ""
    tournament = re.search(r"(?:Tournament|TOURNAMENT)\s*#?(\d+)", game)
    b.tournament = tournament.group(1) if tournament else ""
    cents = not b.tournament
    b.currency = "USD" if cents else ""
    b.date = pokerstars_date(head.group(3) or "")
    in_summary = False
    street = 3
    shown: list[tuple[int, int]] = []
    levels: dict[int, int] = {}
    dealt_now: set[int] = set()  # the seats dealt a card on this street
    for i, raw in enumerate(lines[1:], start=n0 + 1):
        line = raw.strip()
        if not line:
            continue
        if in_summary:
            m = _TOTAL.match(line)
            if m:
                total_line(b, m, i, cents)
            continue
        if line.startswith("*** SUMMARY ***"):
            in_summary = True
            continue
        if line == "*** HOLE CARDS ***":  # the older files' 3rd street
            continue
        m = _STREET.match(line)
        if m:
            street = int(m.group(1)[0]) if m.group(1) else 7
            dealt_now = set()
            if street > 3:
                b.new_street(street, i)
            continue
        m = _SEAT.match(line)
        if m:
            seat = int(m.group(1))
            b.seat(seat, f"Seat+{seat}", money(m.group(2), i, cents), i)
            if "[ME]" in line:
                b.hero = seat
            continue
        m = _LINE.match(line)
        if m is None:
            table_line(b, line, i, play=("*** ", "Seat+", "Total Pot"))
            continue
        seat = b.seat_of(m.group(1), i)
        rest = m.group(3).strip()
        if rest.startswith("Card dealt to a spot ["):
            if seat in dealt_now and street < 7:
                # Some files write no street lines: a second card to the same
                # player starts the next street.
                street += 1
                dealt_now = set()
                b.new_street(street, i)
            dealt_now.add(seat)
            b.dealt(seat, street, cards(rest[22:].split("]")[0], i), i)
            continue
        if rest == "Folds":
            b.fold(seat, i)
        elif rest == "Checks":
            b.check(seat, i)
        elif rest.startswith("Showdown") or rest.startswith("Shows"):
            shown.append((seat, i))
        elif rest.startswith(("Mucks", "Does not show")):
            b.muck(seat)
        else:
            v = _VERB.match(rest)
            if v is None:  # table events: sit down, stand, enter, leave, the dealer's
                table_line(b, line, i, said=rest)
                continue
            verb = v.group(1).lower()
            amount = money(v.group(2), i, cents)
            if verb == "ante chip":
                b.ante(seat, amount, i)
            elif verb.startswith(("bring", "big blind/bring")):  # (the older files' words)
                b.bring_in(seat, amount, i)
            elif verb in ("calls", "call"):
                b.call(seat, amount, i)
            elif verb.startswith("hand result"):
                b.collect(seat, amount, i, 1 if "side" in verb else 0)
            elif verb.startswith("return uncalled"):
                b.return_uncalled(seat, amount)
            elif verb == "all-in":
                b.put(seat, amount, i)
            else:  # Bets, Raises X to Y, All-in(raise) X to Y
                to = money(v.group(3), i, cents) if v.group(3) else amount
                if street == 3 or (street == 4 and b.current == 0):
                    levels.setdefault(street, to)
                b.raise_to(seat, to, i)
    if not in_summary:
        raise BadLine(before + len(lines), "the hand is truncated: no *** SUMMARY ***")
    for seat, n in shown:
        held = b.slots.get(seat, [])
        if len(held) == 7 and all(c is not None for c in held):
            b.show(seat, [c for c in held if c is not None], n)
    bring_in = next((a.amount for a in b.actions if a.verb == "brings in"), None) or 0
    small = levels.get(3) or levels.get(4) or 2 * bring_in or 2
    b.small_bet, b.big_bet = small, 2 * small
    return b.build()


SITE = Site("bovada", "Bovada / Bodog / Ignition", detect, read)
