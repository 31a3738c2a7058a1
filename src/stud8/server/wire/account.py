"""What an account keeps for itself: its private notes on players and its settings.

A **note** is one player's colour tag (:class:`~stud8.server.wire.limits.NoteColour`,
or none) and text, kept on the server for the account that wrote it and read by
that account only: no endpoint takes another account's name, so no request can
reach another's notes. Its text is typed text, held to the one rule
(:func:`~stud8.server.wire.text.typed_text`), at most ``NOTE_CHARS`` characters; an
account keeps notes on at most ``MAX_NOTES`` players.

The **settings** (:class:`AccountSettings`) follow the account from browser to
browser: the four-colour deck, the sounds, the default buy-in per stakes (a stakes
key as the client makes it, ``game:structure:ante/bring_in/small_bet/big_bet``; a
stakes not kept buys in for the table's maximum), the auto top-up, and how the
lobby lists the tables (:class:`LobbyChoice`: sorted by which column, filtered how).

>>> checked_note(NoteBody(colour=NoteColour.RED, text="  calls down light "))
NoteBody(colour=<NoteColour.RED: 'red'>, text='calls down light')
>>> checked_settings(AccountSettings(buy_in={"stud_hi_lo:limit:1/2/4/8": 0}))
Traceback (most recent call last):
...
stud8.server.wire.codec.ProtocolError: settings: buy_in: the buy-in for ... not 0
"""

from __future__ import annotations

import re
from enum import Enum

import msgspec

from stud8.core.rules import Game
from stud8.server.wire.codec import ProtocolError
from stud8.server.wire.limits import (
    MAX_NOTES,
    MAX_STAKES_BUY_INS,
    NAME_PATTERN,
    NOTE_CHARS,
    STAKES_PATTERN,
    NoteColour,
)
from stud8.server.wire.rest import Done, Endpoint
from stud8.server.wire.text import TextRefused, typed_text

__all__ = [
    "ACCOUNT_ENDPOINTS",
    "AccountSettings",
    "LobbyChoice",
    "LobbyColumn",
    "NoteBody",
    "PlayerNote",
    "PlayerNotes",
    "checked_note",
    "checked_player",
    "checked_settings",
]

_NAME = re.compile(NAME_PATTERN)
_STAKES = re.compile(STAKES_PATTERN)
_BETS = re.compile("[0-9]{1,9}/[0-9]{1,9}")  # a lobby's stakes: small_bet/big_bet
MOST_SEATS = 10  # the lobby's "at least N players": no table has more seats
MOST_CHIPS = 2**53 - 1  # a buy-in a browser's number holds exactly


class NoteBody(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A note on a player as it is written: its colour tag (one of the palette, or
    null) and its text (empty: the tag only). Both empty: the note is deleted."""

    colour: NoteColour | None = None
    text: str = ""


class PlayerNote(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The account's note on ``player``: its colour tag and text."""

    player: str
    colour: NoteColour | None
    text: str


class PlayerNotes(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every note of the account, by player name (in name order)."""

    notes: list[PlayerNote]


class LobbyColumn(Enum):
    """A column of the lobby the tables are sorted by."""

    TABLE = "table"
    GAME = "game"
    STAKES = "stakes"
    PLAYERS = "players"
    WAITING = "waiting"
    HANDS_PER_HOUR = "hands_per_hour"
    AVERAGE_POT = "average_pot"
    OBSERVERS = "observers"


class LobbyChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How the lobby lists the tables: sorted by ``sort`` (null: as the room lists
    them), ``descending`` or not; only the ``games`` named, and the mixed tables if
    ``mixed`` (neither: every table; a mixed table is not one of its games' tables: it
    is found by ``mixed``), of the ``stakes`` ``small_bet/big_bet`` (empty: any), not
    full (``hide_full``), not empty (``hide_empty``), with at least ``min_players`` seated."""

    sort: LobbyColumn | None = None
    descending: bool = False
    games: list[Game] = msgspec.field(default_factory=list)
    mixed: bool = False
    stakes: str = ""
    hide_full: bool = False
    hide_empty: bool = False
    min_players: int = 0


class AccountSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The account's settings: the four-colour deck, the sounds (a beep at his turn),
    the default buy-in for each stakes (``game:structure:ante/bring_in/small_bet/big_bet``:
    chips; a stakes not here buys in for the table's maximum) and whether a seated
    player short of his buy-in is topped up to it between hands; the ``lobby``'s sort and
    filters. Every field has its default: a new account's settings are these."""

    four_colour: bool = False
    sounds: bool = True
    buy_in: dict[str, int] = msgspec.field(default_factory=dict)
    auto_top_up: bool = False
    lobby: LobbyChoice = msgspec.field(default_factory=LobbyChoice)


def checked_player(name: str) -> str:
    """``name`` if it can be a player's (an account's or a bot's); else ProtocolError."""
    if not _NAME.fullmatch(name):
        raise ProtocolError(f"note: no player can be named {name[:40]!r}")
    return name


def checked_note(body: NoteBody) -> NoteBody:
    """``body`` with its text trimmed, if its text is typed text of at most
    ``NOTE_CHARS`` characters (or empty); else ProtocolError."""
    text = body.text.strip()
    if text:
        try:
            text = typed_text(text, "note: text", NOTE_CHARS)
        except TextRefused as exc:
            raise ProtocolError(str(exc)) from None
    return NoteBody(colour=body.colour, text=text)


def checked_settings(settings: AccountSettings) -> AccountSettings:
    """``settings`` if each buy-in is kept for a stakes key and is a positive number
    of chips, for at most ``MAX_STAKES_BUY_INS`` stakes, and the lobby's filters can
    be met (each game once, stakes ``small_bet/big_bet``, at most ``MOST_SEATS``
    players); else ProtocolError."""
    if len(settings.buy_in) > MAX_STAKES_BUY_INS:
        raise ProtocolError(
            f"settings: buy_in: {len(settings.buy_in)} stakes (the limit is {MAX_STAKES_BUY_INS})"
        )
    for stakes, chips in settings.buy_in.items():
        if not _STAKES.fullmatch(stakes):
            raise ProtocolError(
                f"settings: buy_in: {stakes[:60]!r} names no stakes "
                "(game:structure:ante/bring_in/small_bet/big_bet)"
            )
        if not 0 < chips <= MOST_CHIPS:
            raise ProtocolError(
                f"settings: buy_in: the buy-in for {stakes} must be a positive number of "
                f"chips, not {chips}"
            )
    lobby = settings.lobby
    if len(set(lobby.games)) != len(lobby.games):
        raise ProtocolError("settings: lobby: games: each game at most once")
    if lobby.stakes and not _BETS.fullmatch(lobby.stakes):
        raise ProtocolError(
            f"settings: lobby: stakes: {lobby.stakes[:40]!r} is not small_bet/big_bet (or empty)"
        )
    if not 0 <= lobby.min_players <= MOST_SEATS:
        raise ProtocolError(
            f"settings: lobby: min_players must be 0 to {MOST_SEATS}, not {lobby.min_players}"
        )
    return settings


ACCOUNT_ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        "/api/v1/notes",
        "The account's private notes on players (nobody else ever reads them).",
        None,
        PlayerNotes,
        login=True,
    ),
    Endpoint(
        "PUT",
        "/api/v1/notes/{player}",
        "Write the account's note on a player: a colour tag of the palette (or null) and "
        f"a text of at most {NOTE_CHARS} characters (one line, as a chat message). Both "
        f"empty deletes it. 400 for a bad body, or for a note on more than {MAX_NOTES} "
        "players.",
        NoteBody,
        PlayerNote,
        login=True,
    ),
    Endpoint(
        "DELETE",
        "/api/v1/notes/{player}",
        "Delete the account's note on a player (none kept: done all the same).",
        None,
        Done,
        login=True,
    ),
    Endpoint(
        "GET",
        "/api/v1/settings",
        "The account's settings (a new account's are the defaults).",
        None,
        AccountSettings,
        login=True,
    ),
    Endpoint(
        "PUT",
        "/api/v1/settings",
        "Keep the account's settings (all of them: a field left out takes its default). "
        f"400 for a bad body, a stakes key that names none, or more than {MAX_STAKES_BUY_INS} "
        "stakes.",
        AccountSettings,
        AccountSettings,
        login=True,
    ),
)
