"""iPoker network XML: a ``<session>`` whose ``<general>`` names the game and
table, then one ``<game gamecode=...>`` a hand.

``<gametype>7 Card Stud Hi-Lo L €0.05/€0.10</gametype>``; seats with their
starting ``chips``, what each put in (``bet``) and took (``win``); rounds
numbered from 0 (antes), then 2 to 6 for 3rd street to the river, holding
``<cards type="Third Street" player=...>D7 D4 DK</cards>`` (suit first, ``X``
unseen) and ``<action no=... type=... sum=...>`` in an order of their own (the
``no`` attribute orders them). Types: 0 fold, 3 call, 4 check, 5 bet, 7 all-in,
15 ante, 16 bring-in, 23 raise. A call's or all-in's ``sum`` is what the player
adds, a bet's or raise's the street's new bet. Files declare UTF-8 and may write
the euro sign in cp1252: the text is decoded before the XML is read. The rake
is not written: it is what the bets leave over after the wins. A player still
in at the end whose seven cards are all listed showed them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from stud8.formats.pokerstars import BadLine, PokerStarsHand, Skipped
from stud8.formats.sites import Site
from stud8.formats.sites._build import HandBuilder
from stud8.formats.sites._dates import pokerstars_date
from stud8.formats.sites._text import Item, card, stud_game
from stud8.formats.sites._text import money as _money
from stud8.formats.sites._xml import read_games

_STREETS = {
    "Third Street": 3,
    "Fourth Street": 4,
    "Fifth Street": 5,
    "Sixth Street": 6,
    "River": 7,
    "Seventh Street": 7,
}
_GAMETYPE = re.compile(r"<gametype>\s*(.*?)\s*</gametype>", re.S)


def detect(text: str) -> bool:
    return "<session" in text and "<gametype>" in text and "<game gamecode=" in text


def read(text: str, file: str) -> list[Item]:
    return read_games(text, file, _parse, "iPoker")


def money(text: str, n: int, cents: bool) -> int:
    """iPoker writes ``€0.05``, and in some locales ``0,05``."""
    t = text.strip()
    if re.fullmatch(r"[^\d]*\d+,\d\d", t):
        t = t.replace(",", ".")
    return _money(t, n, cents)


def _parse(game: ET.Element, n: int, file: str, header: str) -> PokerStarsHand | Skipped:
    hand_id = game.get("gamecode", "")
    types = _GAMETYPE.findall(header)
    gametype = types[-1] if types else ""
    stud = stud_game(gametype)  # 7 Card Stud Hi-Lo, 7 Card Stud, Razz
    if stud is None:
        return Skipped(file, n, hand_id, f"not a Stud-family hand: {gametype}")
    b = HandBuilder(file=file, line=n, hand_id=hand_id)
    b.game = stud
    tournament = re.findall(r"<tournamentcode>\s*(\d+)", header)
    b.tournament = tournament[-1] if tournament else ""
    stakes = re.search(r"([$€£]?)([\d,.]+)/[$€£]?([\d,.]+)", gametype)
    if stakes is None:
        raise BadLine(n, f"no stakes in the game type {gametype!r}")
    cents = not b.tournament
    currency = re.findall(r"<tablecurrency>\s*(\w+)", header)
    b.currency = (currency[-1] if currency else "EUR") if cents else ""
    b.small_bet, b.big_bet = money(stakes.group(2), n, cents), money(stakes.group(3), n, cents)
    b.structure = {"PL": "Pot Limit", "NL": "No Limit"}.get(gametype.split()[-2], "Limit")
    table = re.findall(r"<tablename>\s*(.*?)\s*</tablename>", header)
    b.table = table[-1] if table else ""
    start = game.find("general/startdate")
    b.date = (
        pokerstars_date(start.text or "", zone="UTC", day_first=True) if start is not None else ""
    )
    for p in game.iterfind("general/players/player"):
        b.seat(int(p.get("seat", "-1")), p.get("name", ""), money(p.get("chips", ""), n, cents), n)
    wins = {
        p.get("name", ""): money(p.get("win", "0"), n, cents)
        for p in game.iterfind("general/players/player")
    }
    for rnd in game.iter("round"):
        number = int(rnd.get("no", "0"))
        street = number + 1 if number >= 2 else 3
        if street > b.street:
            b.new_street(min(street, 7), n)
        for el in rnd.iter("cards"):
            seat = b.seat_of(el.get("player", ""), n)
            held = [card(c, n) for c in (el.text or "").split()]
            kind = _STREETS.get(el.get("type", ""))
            if kind is None:
                continue
            if kind == 3:
                b.cards(seat, held, n)
                if len(held) == 3 and all(c is not None for c in held):
                    b.hero = seat if b.hero is None else b.hero
            elif held:
                b.card(seat, kind - 1, held[-1], n)
        actions = sorted(rnd.iter("action"), key=lambda a: int(a.get("no", "0")))
        for a in actions:
            _action(b, a, n, cents)
    for name, won in wins.items():
        if won:
            b.collect(b.seat_of(name, n), won, n)
    b.keep_uncalled_in_wins()
    for seat in sorted(b.dealt_in - b.folded):
        held = b.slots.get(seat, [])
        if len(b.dealt_in - b.folded) > 1 and len(held) == 7 and all(held):
            b.show(seat, [c for c in held if c is not None], n)
    return b.build()


def _action(b: HandBuilder, a: ET.Element, n: int, cents: bool) -> None:
    seat = b.seat_of(a.get("player", ""), n)
    kind = a.get("type", "")
    amount = money(a.get("sum", "0"), n, cents)
    if kind == "0":
        b.fold(seat, n)
    elif kind == "4":
        b.check(seat, n)
    elif kind == "15":
        b.ante(seat, amount, n)
    elif kind == "16":
        b.bring_in(seat, amount, n)
    elif kind == "3":
        b.call(seat, amount, n)
    elif kind == "7":
        b.put(seat, amount, n)
    elif kind in ("5", "23"):
        b.raise_to(seat, amount, n)
    else:
        raise BadLine(n, f"cannot read the action type {kind!r} of {a.get('player')}")


SITE = Site("ipoker", "iPoker", detect, read)
