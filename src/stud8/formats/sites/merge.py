"""Merge Gaming Network (Carbon Poker) XML: ``<game gametype="43">`` is 7-Stud H/L8.

Seats are numbered from 0 and events name players by seat. Rounds ``BLINDS``
(antes), ``BRING_IN``, ``THIRD_STREET`` to ``SEVENTH_STREET``, then ``SHOWDOWN``
or ``END_OF_FOLDED_GAME``; a round's ``<cards>`` list everything the player
holds so far (``null`` or nothing for a card unseen), after its events. Event
amounts are what the player adds, a completion's too. In a mixed game
(``gametype="77"``, the HORSE tournaments; ``75``, a HORSE cash table)
``multigametype`` 43 or 45 is Stud Hi/Lo; a tournament (the last field of
``data`` is ``true``) writes no stakes, so the small bet is the first completion
or bet of the small-bet streets. ``<winner amount=...>`` is what a player takes
from pot ``potnumber``: it includes a bet nobody called
(the file writes no uncalled bet), which the reader gives back as PokerStars
writes it. No rake is written: it is what the bets leave over after the wins.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from stud8.formats.pokerstars import BadLine, PokerStarsHand, Skipped
from stud8.formats.sites import Site
from stud8.formats.sites._build import HI_LO, HandBuilder
from stud8.formats.sites._dates import pokerstars_date
from stud8.formats.sites._text import Item, card, money
from stud8.formats.sites._xml import read_games

# gametype, or multigametype in a mixed game (77): the Stud family's codes
_GAMES = {
    **dict.fromkeys(("38", "39", "41", "42"), "7 Card Stud"),
    **dict.fromkeys(("43", "45"), HI_LO),
    **dict.fromkeys(("46", "47", "49"), "Razz"),
}
_STREETS = {
    "BRING_IN": 3,
    "THIRD_STREET": 3,
    "FOURTH_STREET": 4,
    "FIFTH_STREET": 5,
    "SIXTH_STREET": 6,
    "SEVENTH_STREET": 7,
}


def detect(text: str) -> bool:
    return bool(re.search(r"<game id=\"[\d-]+\" starttime=\"\d+\"[^>]*gametype=\"\d+\"", text))


def read(text: str, file: str) -> list[Item]:
    return read_games(text, file, _parse, "Merge")


def _parse(game: ET.Element, n: int, file: str, header: str) -> PokerStarsHand | Skipped:
    hand_id = game.get("id", "")
    # a mixed game (gametype 77 in tournaments, 75 at cash tables) names the game
    # of the hand in multigametype, as fpdb reads it
    mixed = game.get("multigametype") is not None
    kind = game.get("multigametype") if mixed else game.get("gametype")
    stud = _GAMES.get(kind or "")
    if stud is None:
        return Skipped(file, n, hand_id, f"not a Stud-family hand (gametype {kind})")
    players = game.find("players")
    if players is None:  # (before the rest: a hostile file of empty games reads fast)
        raise BadLine(n, "the game has no <players>")
    b = HandBuilder(file=file, line=n, hand_id=hand_id)
    b.game = stud
    description = re.findall(r'<description type="([^"]*)" [^>]*stakes="([^"]*)"', header)
    game_name, stakes_text = description[-1] if description else ("", "")
    # "Limit $0.25/$0.50": the small and the big bet; "No Limit ($0.01/$0.02/$0.10)" or
    # "Pot Limit (...)": the ante, the bring-in and the minimum bet (the antes and the
    # bring-in are read from the game itself)
    stakes = re.search(r"([$€£]?)([\d,.]+)/[$€£]?([\d,.]+)(?:/[$€£]?([\d,.]+))?", stakes_text)
    if stakes_text.startswith(("No Limit", "Pot Limit")):
        b.structure = "No Limit" if stakes_text.startswith("No") else "Pot Limit"
    data = (game.get("data") or "").split("|")
    # data: date|table or tournament name|tournament or table id|game id|in a tournament
    b.tournament = data[2] if len(data) > 4 and data[4] == "true" else ""
    cents = game.get("realmoney") == "true" and not b.tournament
    symbol = stakes.group(1) if stakes else "$"
    b.currency = {"$": "USD", "€": "EUR", "£": "GBP"}.get(symbol, "USD") if cents else ""
    if stakes is not None and stakes.group(4) is not None:
        b.small_bet = b.big_bet = money(stakes.group(4), n, cents)
    elif stakes is not None:
        b.small_bet, b.big_bet = money(stakes.group(2), n, cents), money(stakes.group(3), n, cents)
    elif not b.tournament:
        raise BadLine(n, "no <description stakes=...> before the game")
    b.mixed = game_name.removesuffix(" Tournament") if mixed else ""
    b.table = data[1] if len(data) > 1 else ""
    b.date = pokerstars_date(game.get("starttime", ""))
    b.max_seats = int(game.get("seats") or 8)
    for p in players.iter("player"):
        seat = int(p.get("seat", "-1"))
        b.seat(seat, p.get("nickname") or f"seat {seat}", money(p.get("balance", ""), n, cents), n)
    returned = False
    for rnd in game.iter("round"):
        name = rnd.get("id", "")
        street = _STREETS.get(name)
        if street is not None and street > b.street:
            b.new_street(street, n)
        for el in rnd:
            if el.tag == "event":
                _event(b, el, n, cents)
            elif el.tag == "cards":
                seat = b.check_seat(int(el.get("player", "-1")), n)
                held = [card(c, n) for c in (el.get("cards") or "").split(",")]
                kind = el.get("type")
                if kind in ("SHOWN", "MUCKED"):
                    shown = [c for c in held if c is not None]
                    if kind == "SHOWN":
                        b.show(seat, shown, n)
                    else:
                        b.reveal(seat, shown, n)
                else:  # (listed after the round's events: a player who folded in it too)
                    b.cards(seat, held, n)
                    if kind == "HOLE" and len(held) >= 3:
                        b.hero = seat
            elif el.tag == "winner":
                seat = b.check_seat(int(el.get("player", "-1")), n)
                amount = money(el.get("amount", ""), n, cents)
                if el.get("uncalled") == "true":
                    b.return_uncalled(seat, amount)
                    returned = True
                else:
                    b.collect(seat, amount, n, max(0, int(el.get("potnumber") or 1) - 1))
    if not any(r.get("id", "").startswith("END_OF") for r in game.iter("round")):
        raise BadLine(n, "the game is truncated: no END_OF_GAME round")
    if not returned:
        b.keep_uncalled_in_wins()
    if stakes is None:  # a tournament names no stakes: the completion is the small bet
        first = next((a for a in b.actions if a.verb in ("bets", "raises")), None)
        if first is None:
            raise BadLine(n, "a tournament game with no bet names no stakes")
        small = first.to if first.to is not None else first.amount or 0
        if first.street >= 5:
            small //= 2
        b.small_bet, b.big_bet = small, 2 * small
    return b.build()


#: The events of the table, no part of the play (every other event type is of the play:
#: one the reader does not know is refused).
_TABLE_EVENTS = {
    "SIT_OUT": "sits out",
    "SIT_IN": "has returned",
    "LEAVE": "leaves the table",
    "JOIN": "joins the table",
    "CHAT": "said",
}
_PLAY_EVENTS = frozenset(
    ("FOLD", "CHECK", "MUCK", "ANTE", "BRING_IN", "CALL", "BET", "RAISE", "COMPLETE", "ALL_IN")
)


def _event(b: HandBuilder, el: ET.Element, n: int, cents: bool) -> None:
    kind = el.get("type", "")
    if kind == "SHOW":
        return  # the cards shown are the round's <cards type="SHOWN">
    if kind in _TABLE_EVENTS:  # kept as table lines, as the PokerStars text says them
        who = el.get("player", "")  # a chat names its player by name, the others by seat
        if kind != "CHAT" and who.isdigit() and int(who) in b.seats:
            who = b.seats[int(who)].name
        text = el.get("text", "")
        b.note(f'{who} said, "{text}"' if kind == "CHAT" else f"{who} {_TABLE_EVENTS[kind]}", n)
        return
    if kind not in _PLAY_EVENTS:
        raise BadLine(n, f"cannot read the event type {kind!r}")
    seat = b.check_seat(int(el.get("player", "-1")), n)
    amount = money(el.get("amount", ""), n, cents) if el.get("amount") else None
    if kind == "FOLD":
        b.fold(seat, n)
    elif kind == "CHECK":
        b.check(seat, n)
    elif kind == "MUCK":
        b.muck(seat)
    elif amount is None:
        raise BadLine(n, f"a {kind} event without an amount")
    elif kind == "ANTE":
        b.ante(seat, amount, n)
    elif kind == "BRING_IN":
        b.bring_in(seat, amount, n)
    elif kind == "CALL":
        b.call(seat, amount, n)
    else:  # BET, RAISE, COMPLETE, ALL_IN
        b.put(seat, amount, n)


SITE = Site("merge", "Merge Gaming Network", detect, read)
