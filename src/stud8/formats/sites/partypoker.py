"""PartyPoker: ``***** Hand History for Game N *****``, ``$0.50/$1 USD 7 Card Stud Hi-Lo - date``.

Amounts are written ``[$0.50 USD]`` and are what the player adds (``raises
[$17 USD]`` after a bring-in of $3 raises to $20). Only the player's own cards
are dealt in the open (``Dealt to Hero [  Td 5s 3c ]``): the others' up cards
are unknown until the showdown, so the record's bring-in (``NAME opens`` /
``bring-ins``) and openers decide, and their unseen up cards are filled in to
agree. At the end ``NAME shows [ Ad, Qd, ... ]``, ``NAME doesn't show [ ... ]``
(the cards of a player who conceded, listed anyway), ``NAME wins $8.45 USD from
the main pot`` and ``NAME wins Lo ($90.50 USD) from the main pot``. No total pot
nor rake is written: the total is the sum of the bets, the rake what is left
over after the wins.
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

_HEADER = re.compile(r"^\*{5} Hand History [Ff]or Game (\d+) \*{5}")
_GAME = re.compile(
    r"^([$€£]?)([\d,.]+)/[$€£]?([\d,.]+)(?: (USD|EUR|GBP))?(?: (FL|PL|NL))? (.*?) - (.*)$"
)
# A tournament's game line, in the forms PartyPoker writes (the stakes in chips):
#   "FL 7 Card Stud Hi-Lo  $5 USD Buy-in + $0.50 Entry Fee Trny: 123 Level: 3
#    Stakes-Antes(100/200 - 20) - DATE" (Blinds-Antes, Blinds, no space after "Trny:");
#   a sit & go's "7 Card Stud Hi-Lo $1 USD Buy-in  - DATE", whose number, level and
#   stakes follow as lines of their own ("Trny:123 Level:3", "Stakes-Antes(...)");
#   and the short "7 Card Stud Hi-Lo Trny:123" (no buy-in, level, stakes nor date).
_TOURNEY = re.compile(r"\bBuy-in\b|\bTrny: ?\d")
_TOURNEY_GAME = re.compile(r"^(?:(FL|PL|NL)\s+)?(.*?)\s*(?:[$€£]\s?[\d,.]+|Trny:|-\s|$)")
_BUY_IN = re.compile(r"([$€£]\s?[\d,.]+)\s*(?:USD|EUR|GBP)?\s*Buy-in")
_FEE = re.compile(r"\+\s*([$€£]?\s?[\d,.]+)\s*(?:USD|EUR|GBP)?\s*Entry Fee")
_TRNY = re.compile(r"Trny: ?(\d+)(?:\s+Level: ?(\d+))?")
_STAKES = re.compile(r"(?:Blinds|Stakes)(?:-Antes)?\(([\d, ]+)/([\d, ]+)")
_TOURNEY_DATE = re.compile(r"\)?\s+-\s+(\w+day, .*|\w+ \d.*\d{4})$")
_SEAT = re.compile(r"^Seat (\d+): (.+) \( ?([$€£]?[\d,.]+)(?: USD| EUR| GBP)? ?\)")
_STREET = {
    "** Dealing Fourth street **": 4,
    "** Dealing Fifth street **": 5,
    "** Dealing Sixth street **": 6,
    "** Dealing River **": 7,
}
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]*)\]$")
_AMOUNT = re.compile(r"\[([$€£]?[\d,.]+)(?: [A-Z]{3})?\]")
_WINS = re.compile(
    r"^(.+?) wins (?:Lo \()?([$€£]?[\d,.]+)(?: [A-Z]{3})?\)? (?:chips )?from the "
    r"(main pot|side pot ?#?-?(\d*))"
)
# Lines the reader knows that say nothing the play does not: who acts first, the
# button, the players' count, the hand a show makes, no low.
_KNOWN = re.compile(
    r"^Seat \d+ is the button$|^Total number of players\b|^There was no qualifying low hand$"
    r"|^Trny: ?\d+(?:\s+Level: ?\d+)?$|^(?:Blinds|Stakes)(?:-Antes)?\([\d, ]+/[\d, ]+"
)
_KNOWN_SAID = re.compile(r"^opens$|^shows.* for (?:high|low)\.?$")
_SHOWS = re.compile(r"^(.+?) (shows|doesn't show) \[([^\]]*)\]")


def detect(text: str) -> bool:
    return bool(_HEADER.search(text) or re.search(r"^\*{5} Hand History [Ff]or Game", text, re.M))


def read(text: str, file: str) -> list[Item]:
    return read_hands(text, file, lambda t: bool(_HEADER.match(t)), _parse, "PartyPoker")


def _parse(lines: list[str], before: int, file: str) -> PokerStarsHand | Skipped:
    n0 = before + 1
    head = _HEADER.match(lines[0].strip())
    if head is None:
        raise BadLine(n0, f"cannot read the header {lines[0].strip()!r}")
    if len(lines) < 2:
        raise BadLine(n0, "the hand is truncated after its header")
    g = _GAME.match(lines[1].strip())
    if g is None:
        if _TOURNEY.search(lines[1]):
            return _parse_tourney(lines, n0, file, head.group(1), lines[1].strip())
        raise BadLine(n0 + 1, f"cannot read the game line {lines[1].strip()!r}")
    stud = stud_game(g.group(6))  # 7 Card Stud Hi-Lo, 7 Card Stud, Razz
    if stud is None:
        return Skipped(file, n0, head.group(1), f"not a Stud-family hand: {g.group(6)}")
    b = HandBuilder(file=file, line=n0, hand_id=head.group(1))
    b.game = stud
    tournament = re.search(r"Tourn\w*\D*(\d+)", lines[1] + (lines[2] if len(lines) > 2 else ""))
    b.tournament = tournament.group(1) if tournament else ""
    cents = bool(g.group(1) or g.group(4)) and not b.tournament
    b.currency = (
        (g.group(4) or {"$": "USD", "€": "EUR", "£": "GBP"}.get(g.group(1), "")) if cents else ""
    )
    b.small_bet = money(g.group(2), n0 + 1, cents)
    b.big_bet = money(g.group(3), n0 + 1, cents)
    b.structure = {"PL": "Pot Limit", "NL": "No Limit"}.get(g.group(5) or "", "Limit")
    b.date = pokerstars_date(g.group(7))
    return _play(b, lines, n0, before, cents)


def _parse_tourney(
    lines: list[str], n0: int, file: str, hand_id: str, header: str
) -> PokerStarsHand | Skipped:
    g = _TOURNEY_GAME.match(header)
    game = g.group(2) if g else header
    stud = stud_game(game)
    if stud is None:
        return Skipped(file, n0, hand_id, f"not a Stud-family hand: {game}")
    b = HandBuilder(file=file, line=n0, hand_id=hand_id)
    b.game = stud
    b.structure = {"PL": "Pot Limit", "NL": "No Limit"}.get(
        (g.group(1) if g else "") or "", "Limit"
    )
    buy_in, fee = _BUY_IN.search(header), _FEE.search(header)
    if buy_in:
        b.buy_in = buy_in.group(1).replace(" ", "") + (
            f"+{fee.group(1).replace(' ', '')}" if fee else ""
        )
    date = _TOURNEY_DATE.search(header)
    b.date = pokerstars_date(date.group(1)) if date else ""
    # the number, level and stakes: in the game line, else in lines of their own
    for text in [header] + [t.strip() for t in lines[2:12]]:
        trny, stakes = _TRNY.search(text), _STAKES.search(text)
        if trny and not b.tournament:
            b.tournament, b.level = trny.group(1), trny.group(2) or ""
        if stakes and not b.small_bet:
            b.small_bet = money(stakes.group(1).replace(" ", ""), n0 + 1, False)
            b.big_bet = money(stakes.group(2).replace(" ", ""), n0 + 1, False)
    b.tournament = b.tournament or "0"  # a sit & go that names no number
    _read_play(b, lines, n0, n0 - 1, False)
    if b.small_bet:
        return b.build()
    # No stakes written: the small bet is the first completion, or 4th street's bet.
    first = next((a for a in b.actions if a.verb in ("bets", "raises")), None)
    if first is None:
        return Skipped(
            file,
            n0,
            hand_id,
            "a PartyPoker tournament hand that names no stakes and has no completion nor "
            "bet: its limits cannot be known",
        )
    small = first.to if first.to is not None else first.amount or 0
    if first.street >= 5:
        small //= 2
    b.small_bet, b.big_bet = small, 2 * small
    return b.build()


def _play(b: HandBuilder, lines: list[str], n0: int, before: int, cents: bool) -> PokerStarsHand:
    _read_play(b, lines, n0, before, cents)
    return b.build()


def _read_play(b: HandBuilder, lines: list[str], n0: int, before: int, cents: bool) -> None:
    """The table, seats and play after the game line (cash and tournament alike)."""
    street = 3
    for i, raw in enumerate(lines[2:], start=n0 + 2):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("Table "):
            b.table = re.sub(r"\s+", " ", line[6:]).split(" (")[0]
            continue
        if line == "** Dealing **":  # 3rd street's deal
            continue
        if line in _STREET:
            street = _STREET[line]
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
            if street == 3 and len(held) == 3:
                b.hero = seat
            continue
        m = _WINS.match(line)
        if m and m.group(1) in b.by_name:
            pot = int(m.group(4) or 1) if m.group(3).startswith("side") else 0
            b.collect(b.by_name[m.group(1)], money(m.group(2), i, cents), i, pot)
            continue
        m = _SHOWS.match(line)
        if m and m.group(1) in b.by_name:
            seat = b.by_name[m.group(1)]
            hand = [c for c in cards(m.group(3), i) if c is not None]
            if m.group(2) == "shows":
                b.show(seat, hand, i)
            else:
                b.reveal(seat, hand, i)
                b.muck(seat)
            continue
        _action(b, line, i, cents)
    if not b.collected:
        raise BadLine(before + len(lines), "the hand is truncated: nobody wins the pot")


def _action(b: HandBuilder, line: str, n: int, cents: bool) -> None:
    said = speaker(b, line)
    if said is None:
        if not _KNOWN.match(line):
            table_line(b, line, n, play=("** ", "Dealt to "))
        return
    seat, rest = said
    if _KNOWN_SAID.match(rest):
        return
    verb = rest.split(" ")[0]
    amount = _AMOUNT.search(rest)
    if verb == "folds":
        b.fold(seat, n)
    elif verb == "checks":
        b.check(seat, n)
    elif verb in ("posts", "bring-ins", "completes", "bets", "raises", "calls", "is"):
        if amount is None:
            if verb == "is":
                table_line(b, line, n, said=rest)  # "is all-In", "is sitting out"
                return
            raise BadLine(n, f"cannot read the amount in {line!r}")
        adds = money(amount.group(1), n, cents)
        if verb == "posts":
            b.ante(seat, adds, n)
        elif verb == "bring-ins":
            b.bring_in(seat, adds, n)
        elif verb == "calls":
            b.call(seat, adds, n)
        else:
            b.put(seat, adds, n)
    else:
        table_line(b, line, n, said=rest)


SITE = Site("partypoker", "PartyPoker", detect, read)
