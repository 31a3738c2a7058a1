"""Everleaf Gaming: ``Everleaf Gaming Game #N``, ``$0.05/$0.10 7 Card Stud - 2011/07/08 - 0:08:53``.

Learnt from the public descriptions of the format (the header lines fpdb's Everleaf
importer documents, and the shapes of its stud lines): after the header, ``Table
NAME``, ``Total number of players: N`` and ``Seat N: NAME (  $ 0.54 USD )`` (``€
2.50 EURO``; no symbol: chips), the antes ``NAME: posts ante [$ 0.01 USD]``, then
``** Dealing down cards **`` opens 3rd street and each later street is
``**** dealing 4th street ****`` ... ``**** dealing river ****`` (the older files)
or ``** Dealing 4th Street **`` ... ``** Dealing River **`` (the newer ones).

The newer files deal the cards in the open: ``Dealt to NAME [ 5d, Qs, 7s ].`` (the
player's own three on 3rd street, an opponent's up card alone, then one card a
street; the 7th only to its owner). The older ones deal nothing in the open: the
up cards nobody showed are filled in to agree with the bring-in and the openers.

``NAME posts bring-in $0.02.``; ``NAME completes to $0.05.`` (the total);
``NAME: bets [$ 0.10 USD]``, ``NAME raises [$ 0.20 USD]`` and ``NAME calls [$ 0.10
USD]`` say what the player adds. At the end ``NAME shows [ 5d, 8d, ... ] a flush``
(the up cards in their places, 3rd to 6th), ``NAME does not show cards`` and
``NAME wins $ 0.98 USD from main pot`` (``from side pot #1``; a hand split high and
low has a line a half). Everleaf writes no uncalled bet (its wins leave it out),
no total pot and no rake: the total is the sum of the bets, the rake what the wins
leave of it. Its times are UTC (as fpdb reads them).
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
    speaker,
    stud_game,
    table_line,
)

_HEADER = re.compile(r"^Everleaf Gaming Game #(\d+)\s*$")
_GAME = re.compile(
    r"^(?:Blinds )?\s*([$€£]?)\s?([\d,.]+)/\s?[$€£]?\s?([\d,.]+) (?:(NL|PL) )?(.*?)"
    r" - (\d{4}/\d\d/\d\d - \d\d?:\d\d:\d\d)$"
)
_SEAT = re.compile(
    r"^Seat (\d+): (.+?) \(\s*([$€£]?\s?[\d,.]+)(?:\s*(?:USD|EURO?|GBP|Chips))?\s*\)$"
)
_NEW_PLAYER = re.compile(r"^Seat \d+: .+ \(\s*new player\s*\)$")
_STREETS = {
    "** Dealing down cards **": 3,
    "**** dealing 4th street ****": 4,
    "**** dealing 5th street ****": 5,
    "**** dealing 6th street ****": 6,
    "**** dealing river ****": 7,
    "** Dealing 4th Street **": 4,
    "** Dealing 5th Street **": 5,
    "** Dealing 6th Street **": 6,
    "** Dealing River **": 7,
}
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]*)\]\.?$")
_BRACKET = re.compile(r"^\[\s*([$€£]?\s?[\d,.]+)(?:\s*(?:USD|EURO?|GBP|Chips))?\s*\]$")
_WINS = re.compile(
    r"^wins ([$€£]?\s?[\d,.]+)(?: (?:USD|EURO?|GBP|chips|Chips))? from "
    r"(main pot|side pot ?#?(\d*))"
)
_SHOWS = re.compile(r"^shows \[([^\]]*)\]")
_PLAY = ("*", "Seat ", "Dealt to ")  # the markers of the play: streets, seats, deals


def detect(text: str) -> bool:
    return bool(re.search(r"^Everleaf Gaming Game #\d+", text, re.M))


def read(text: str, file: str) -> list[Item]:
    return read_hands(text, file, lambda t: bool(_HEADER.match(t.strip())), _parse, "Everleaf")


def _parse(lines: list[str], before: int, file: str) -> PokerStarsHand | Skipped:
    n0 = before + 1
    head = _HEADER.match(lines[0].strip())
    if head is None:
        raise BadLine(n0, f"cannot read the header {lines[0].strip()!r}")
    body = [(i, raw.strip()) for i, raw in enumerate(lines[1:], start=n0 + 1)]
    body = [(i, t) for i, t in body if t and not t.startswith("***** Hand history for game")]
    if not body:
        raise BadLine(n0, "the hand is truncated after its header")
    n1, game_line = body[0]
    g = _GAME.match(game_line)
    if g is None:
        raise BadLine(n1, f"cannot read the game line {game_line!r}")
    stud = stud_game(g.group(5))  # 7 Card Stud, 7 Card Stud Hi/Lo, Razz
    if stud is None:
        return Skipped(file, n0, head.group(1), f"not a Stud-family hand: {g.group(5)}")
    b = HandBuilder(file=file, line=n0, hand_id=head.group(1))
    b.game = stud
    cents = bool(g.group(1))
    b.currency = {"$": "USD", "€": "EUR", "£": "GBP"}.get(g.group(1), "")
    b.small_bet, b.big_bet = money(g.group(2), n1, cents), money(g.group(3), n1, cents)
    b.structure = {"PL": "Pot Limit", "NL": "No Limit"}.get(g.group(4) or "", "Limit")
    b.date = pokerstars_date(g.group(6), zone="UTC")
    for i, line in body[1:]:
        _line(b, line, i, cents)
    if not b.collected:
        raise BadLine(before + len(lines), f"the hand is truncated: it stops {b.read_so_far()}")
    bet = b.uncalled_bet()  # the wins leave out a bet nobody called: it went back
    if bet is not None:
        b.return_uncalled(*bet)
    return b.build()


def _line(b: HandBuilder, line: str, n: int, cents: bool) -> None:
    if line.startswith("Table ") and not b.seats:
        b.table = line[6:].strip()
        return
    if line.startswith("Total number of players"):
        return
    street = _STREETS.get(line)
    if street is not None:
        if street > 3:
            b.new_street(street, n)
        return
    m = _SEAT.match(line)
    if m and not b.antes:
        b.seat(int(m.group(1)), m.group(2), money(m.group(3), n, cents), n)
        return
    if _NEW_PLAYER.match(line):
        return  # seated, not dealt in until the next hand
    m = _DEALT.match(line)
    if m:
        seat = b.seat_of(m.group(1), n)
        held = cards(m.group(2), n)
        b.dealt(seat, b.street, held, n)
        if b.street == 3 and len(held) == 3 and all(c is not None for c in held):
            b.hero = seat
        return
    said = speaker(b, line, (": ", " "))
    if said is None:
        table_line(b, line, n, play=_PLAY)
        return
    _said(b, said[0], said[1], line, n, cents)


def _said(b: HandBuilder, seat: int, rest: str, line: str, n: int, cents: bool) -> None:
    verb, _, arg = rest.partition(" ")

    def amount() -> int:
        m = _BRACKET.match(arg.strip())
        if m is None:
            raise BadLine(n, f"cannot read the amount in {line!r}")
        return money(m.group(1), n, cents)

    if verb == "folds" and not arg:
        b.fold(seat, n)
    elif verb == "checks" and not arg:
        b.check(seat, n)
    elif rest.startswith("posts ante "):
        arg = rest[11:]
        b.ante(seat, amount(), n)
    elif rest.startswith("posts bring-in "):
        b.bring_in(seat, money(rest[15:].rstrip("."), n, cents), n)
    elif rest.startswith("completes to "):
        b.raise_to(seat, money(rest[13:].rstrip("."), n, cents), n)
    elif verb == "calls":
        b.call(seat, amount(), n)
    elif verb in ("bets", "raises"):
        b.put(seat, amount(), n)
    elif verb == "shows":
        m = _SHOWS.match(rest)
        if m is None:
            raise BadLine(n, f"cannot read the shown cards in {line!r}")
        b.showdown = True
        b.ended = True
        b.show(seat, [c for c in cards(m.group(1), n) if c is not None], n)
    elif rest == "does not show cards":
        b.ended = True
        b.muck(seat)
    elif verb == "wins":
        m = _WINS.match(rest)
        if m is None:
            raise BadLine(n, f"cannot read the win {line!r}")
        pot = int(m.group(3) or 1) if m.group(2).startswith("side") else 0
        b.ended = True
        b.collect(seat, money(m.group(1), n, cents), n, pot)
    else:
        table_line(b, line, n, said=rest)


SITE = Site("everleaf", "Everleaf Gaming", detect, read)
