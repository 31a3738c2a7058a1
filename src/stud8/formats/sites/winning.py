"""Winning Poker Network (Americas Cardroom, BlackChip, Ya Poker): two formats.

The old client (UTF-16): ``Game started at: ...``, ``Game ID: N 1/2 TABLE (Seven
Cards Stud HiLow)``, ``Player NAME ante (0.15)``, one line a card (``received a
card.`` hidden, ``received card: [6h]`` seen, in the order dealt), amounts in
brackets that are what the player adds (``raises (X)``), and street markers one
behind (``*** Third street ***`` opens the betting on 4th street). Its summary
gives ``Pot: 7.05. Rake 0.14. JP fee 0.06`` (the pot after the rake and the
jackpot fee, both taken from it) and a line a player ending ``Collects: X.``

The newer ACR client: ``Hand #N - 7Stud H/L(Fixed Limit) - $0.04/$0.08 - date``,
close to PokerStars text (``raises $0.04 to $0.04`` writes the total twice),
running ``Main pot $X | Rake $Y`` lines, and a summary whose ``Total pot`` is the
pot after the rake and whose seats say ``did not show and won $X`` or ``showed
[...] and won $X``.

Winning gives the odd chip of a split pot to the low half (RULES.md gives it to
the high half): :data:`SITE` carries that rule.
"""

from __future__ import annotations

import re

from stud8.core.rules import OddChipHalf
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

# ------------------------------------------------------------------ the old client
_GAME_ID = re.compile(r"^Game ID: (\d+) ([\d,.]+)/([\d,.]+) (.*) \(([^)]*)\)(?: \d+-max)?$")
_SEAT1 = re.compile(r"^Seat (\d+): (.+) \(([\d,.]+)\)\.?$")
_PLAYER = re.compile(
    r"^\*?Player (.+?) (ante|received a card\.|received card: \[(\S+)\]|bring in"
    r"|bets|calls|raises|allin|folds|checks|shows:|does not show|mucks)"
    r"(?: \(([\d,.]+)\))?(.*)$"
)
_MARKERS = {"Third": 4, "Fourth": 5, "Fifth": 6, "Sixth": 7}
_POT1 = re.compile(r"^Pot: ([\d,.]+)\.(?: Rake ([\d,.]+)\.?)?(?: JP fee ([\d,.]+))?")
_COLLECTS = re.compile(r"Collects: ([\d,.]+)\.")

# ------------------------------------------------------------------ the ACR client
# 2023: "Hand #N - 7Stud H/L(Fixed Limit) - $0.10/$0.20 - DATE"; 2026: "Hand #N - 7Stud H/L
# (Fixed Limit) - $0.04/$0.08, Ante $0.01 - DATE" (a space, and the ante named)
_HEADER2 = re.compile(
    r"^(?:Game )?Hand #(\d+) - (?:(.*?)Tournament #(\d+) - )?(.+?) ?\(([^)]*)\) - "
    r"(?:Level \S+ )?\(?([$]?)([\d,.]+)/[$]?([\d,.]+)\)?(?:, Ante [$]?[\d,.]+)?\s*- (.*)$"
)
_SEAT2 = re.compile(r"^Seat (\d+): (.+) \([$]?([\d,.]+)\)( is sitting out)?$")
_STREET2 = re.compile(r"^\*\*\* (3rd|4th|5th|6th|7th) STREET \*\*\*$", re.I)
_DEALT2 = re.compile(r"^Dealt to (.+?) \[([^\]]*)\](?: \[([^\]]*)\])?$")
_TOTAL2 = re.compile(
    r"^Total pot [$]?([\d,.]+)(?: \| Rake [$]?([\d,.]+))?(?: \| JP Fee [$]?([\d,.]+))?"
)
_POTS2 = re.compile(r"^(Main pot|Side pot\((\d+)\)) [$]?([\d,.]+) \| Rake [$]?([\d,.]+)$")
_COLLECT2 = re.compile(r"^(.+) collected [$]?([\d,.]+) from (main pot|side pot-(\d+))$")
_WON2 = re.compile(
    r"^Seat (\d+): .*?(?:showed \[([^\]]*)\] and )?(?:did not show and )?"
    r"(?:won|collected) [$]?([\d,.]+)"
)
_UNCALLED2 = re.compile(r"^Uncalled bet \([$]?([\d,.]+)\) returned to (.+)$")


def detect(text: str) -> bool:
    return bool(
        re.search(r"^Game ID: \d+ .*\((?:Seven Cards Stud|Hold'em|Omaha)", text, re.M)
    ) or bool(
        re.search(
            r"^(?:Game )?Hand #\d+ - .*(?:7Stud|Holdem|Omaha).*\((?:Fixed|No|Pot) Limit\)",
            text,
            re.M,
        )
    )


def read(text: str, file: str) -> list[Item]:
    if re.search(r"^Game started at: ", text, re.M):
        return read_hands(
            text, file, lambda t: t.startswith("Game started at: "), _parse_old, "Winning Poker"
        )
    return read_hands(
        text,
        file,
        lambda t: bool(re.match(r"(?:Game )?Hand #\d+ - ", t)),
        _parse_acr,
        "Winning Poker",
    )


def _parse_old(lines: list[str], before: int, file: str) -> PokerStarsHand | Skipped:
    n0 = before + 1
    if len(lines) < 2 or not lines[1].startswith("Game ID: "):
        raise BadLine(n0 + 1, "the hand is truncated: no Game ID line")
    g = _GAME_ID.match(lines[1].strip())
    if g is None:
        raise BadLine(n0 + 1, f"cannot read the game line {lines[1].strip()!r}")
    stud = stud_game(g.group(5))  # Seven Cards Stud HiLow, Seven Cards Stud, Razz
    if stud is None:
        return Skipped(file, n0, g.group(1), f"not a Stud-family hand: {g.group(5)}")
    b = HandBuilder(file=file, line=n0, hand_id=g.group(1))
    b.game = stud
    b.date = pokerstars_date(lines[0].strip()[17:])
    b.currency = "USD"
    b.small_bet, b.big_bet = money(g.group(2), n0 + 1, True), money(g.group(3), n0 + 1, True)
    b.table = g.group(4)
    dealt: dict[int, int] = {}
    in_summary = ended = False
    for i, raw in enumerate(lines[2:], start=n0 + 2):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("Game ended at: "):
            ended = True
            continue
        if line.startswith("------ Summary"):
            in_summary = True
            continue
        m = _POT1.match(line)
        if m and in_summary:
            b.rake = sum(money(x, i, True) for x in m.group(2, 3) if x)
            b.total = money(m.group(1), i, True) + b.rake
            continue
        m = re.match(r"^\*\*\* (\w+) street \*\*\*$", line)
        if m:
            if m.group(1) not in _MARKERS:
                raise BadLine(i, f"cannot read the street {line!r}")
            b.new_street(_MARKERS[m.group(1)], i)
            continue
        m = _SEAT1.match(line)
        if m and not b.antes:
            b.seat(int(m.group(1)), m.group(2), money(m.group(3), i, True), i)
            continue
        m = _PLAYER.match(line)
        if m is None:
            table_line(b, line, i, play=("*** ", "Seat ", "Pot:"), prefix="Player ")
            continue
        seat = b.seat_of(m.group(1), i)
        verb = m.group(2)
        amount = money(m.group(4), i, True) if m.group(4) else None
        if verb.startswith("received"):
            k = dealt.get(seat, 0)
            if k > 6:
                raise BadLine(i, f"an eighth card for {m.group(1)}")
            b.card(seat, k, cards(m.group(3), i)[0] if m.group(3) else None, i)
            dealt[seat] = k + 1
            if k == 2 and all(c is not None for c in b.slots[seat][:3]):
                b.hero = seat
        elif verb == "folds":
            b.fold(seat, i)
        elif verb == "checks":
            b.check(seat, i)
        elif verb == "shows:":
            shown = re.search(r"\[([^\]]*)\]", m.group(5))
            if shown:
                b.show(seat, [c for c in cards(shown.group(1), i) if c], i)
            _collects(b, seat, line, i)
        elif verb in ("does not show", "mucks"):
            b.muck(seat)
            _collects(b, seat, line, i)
        elif amount is None:
            raise BadLine(i, f"cannot read the amount in {line!r}")
        elif verb == "ante":
            b.ante(seat, amount, i)
        elif verb == "bring in":
            b.bring_in(seat, amount, i)
        elif verb == "calls":
            b.call(seat, amount, i)
        else:  # bets, raises, allin: what the player adds
            b.put(seat, amount, i)
    if not (in_summary and ended):
        last = before + max(i for i, t in enumerate(lines, start=1) if t.strip())
        raise BadLine(
            last,
            f"the hand is truncated: it stops {b.read_so_far()} (no summary, no 'Game ended at')",
        )
    return b.build()


def _collects(b: HandBuilder, seat: int, line: str, n: int) -> None:
    m = _COLLECTS.search(line)
    if m:
        amount = money(m.group(1), n, True)
        if amount:
            b.collect(seat, amount, n)


def _parse_acr(lines: list[str], before: int, file: str) -> PokerStarsHand | Skipped:
    n0 = before + 1
    head = _HEADER2.match(lines[0].strip())
    if head is None:
        raise BadLine(n0, f"cannot read the header {lines[0].strip()!r}")
    stud = stud_game(head.group(4))  # 7Stud H/L, 7Stud, Razz
    if stud is None:
        return Skipped(file, n0, head.group(1), f"not a Stud-family hand: {head.group(4)}")
    b = HandBuilder(file=file, line=n0, hand_id=head.group(1))
    b.game = stud
    b.tournament = head.group(3) or ""
    cents = not b.tournament
    b.currency = "USD" if cents else ""
    b.small_bet, b.big_bet = money(head.group(7), n0, cents), money(head.group(8), n0, cents)
    b.structure = {"Pot Limit": "Pot Limit", "No Limit": "No Limit"}.get(head.group(5), "Limit")
    b.date = head.group(9)
    if len(lines) > 1:
        table = re.match(r"^(.*?) (\d+)-max", lines[1].strip())
        if table:
            b.table, b.max_seats = table.group(1), int(table.group(2))
    in_summary = False
    file_total: int | None = None
    pots: dict[int, int] = {}  # the running pots after the rake, last seen
    collected = False
    for i, raw in enumerate(lines[2:], start=n0 + 2):
        line = raw.strip()
        if not line:
            continue
        m = _POTS2.match(line)
        if m:
            if m.group(1) == "Main pot":
                pots = {}
            pots[int(m.group(2) or 0)] = money(m.group(3), i, cents)
            continue
        m = _COLLECT2.match(line)
        if m and m.group(1) in b.by_name:
            pot = int(m.group(4) or 0)
            b.collect(b.by_name[m.group(1)], money(m.group(2), i, cents), i, pot)
            collected = True
            continue
        if line == "*** SUMMARY ***":
            in_summary = True
            continue
        if in_summary:
            m = _TOTAL2.match(line)
            if m:
                file_total = money(m.group(1), i, cents)
                b.rake = sum(money(x, i, cents) for x in m.group(2, 3) if x)
                continue
            m = _WON2.match(line)
            if m:
                seat = b.check_seat(int(m.group(1)), i)
                if m.group(2) and not any(sh.seat == seat for sh in b.shows):
                    b.show(seat, [c for c in cards(m.group(2), i) if c], i)
                if not collected:  # the body's "collected ... from" lines say it by pot
                    b.collect(seat, money(m.group(3), i, cents), i)
            continue
        m = _STREET2.match(line)
        if m:
            street = int(m.group(1)[0])
            if street > 3:
                b.new_street(street, i)
            continue
        if line.startswith("*** SHOW"):
            b.showdown = True
            continue
        m = _SEAT2.match(line)
        if m and not b.antes:
            seat_line(b, m, i, cents)
            continue
        m = _DEALT2.match(line)
        if m:
            seat = b.seat_of(m.group(1), i)
            held = cards(m.group(2), i) + (cards(m.group(3), i) if m.group(3) else [])
            b.dealt(seat, b.street, held, i)
            if b.street == 3 and len(held) == 3:
                b.hero = seat
            continue
        m = _UNCALLED2.match(line)
        if m:
            b.return_uncalled(b.seat_of(m.group(2), i), money(m.group(1), i, cents))
            continue
        _action2(b, line, i, cents)
    if file_total is None:
        raise BadLine(before + len(lines), "the hand is truncated: no Total pot in a summary")
    b.total = file_total + (b.rake or 0)
    if len(pots) > 1:
        b.pots = tuple(pots[k] for k in sorted(pots))
    return b.build()


def _action2(b: HandBuilder, line: str, n: int, cents: bool) -> None:
    said = speaker(b, line)
    if said is None:
        table_line(b, line, n, play=("*** ", "Seat ", "Dealt to ", "Total pot", "Main pot"))
        return
    seat, rest = said[0], said[1].removesuffix(" and is all-in")
    verb, _, arg = rest.partition(" ")
    if rest.startswith("posts ante "):
        b.ante(seat, money(rest[11:], n, cents), n)
    elif re.match(r"brings[- ]in(?: low)? ", rest):
        b.bring_in(seat, money(rest.rpartition(" ")[2], n, cents), n)
    elif verb == "folds":
        b.fold(seat, n)
    elif verb == "checks":
        b.check(seat, n)
    elif verb == "calls":
        b.call(seat, money(arg, n, cents), n)
    elif verb == "bets":
        b.raise_to(seat, money(arg, n, cents), n)
    elif verb == "raises":
        b.raise_to(seat, money(arg.rpartition(" to ")[2], n, cents), n)
    elif verb == "shows":
        b.showdown = True
        shown = re.search(r"\[([^\]]*)\]", arg)
        if shown:
            b.show(seat, [c for c in cards(shown.group(1), n) if c], n)
    elif verb in ("mucks", "does"):
        b.muck(seat)
    else:
        table_line(b, line, n, said=rest)


SITE = Site("winning", "Winning Poker Network", detect, read, {"odd_chip_half": OddChipHalf.LOW})
