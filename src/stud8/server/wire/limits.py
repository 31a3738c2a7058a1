"""The protocol's limits, each defined once (``docs/protocol.md`` shows them from here).

The accounts enforce the name and password limits from here
(:mod:`stud8.server.accounts.accounts`), and the REST schemas give them
(:mod:`stud8.server.wire.schemas`), so what is documented is what is enforced.

>>> NAME_CHARS, PASSWORD_CHARS
((3, 20), (8, 1024))
>>> import re; bool(re.fullmatch(NAME_PATTERN, "ann_1")), bool(re.fullmatch(NAME_PATTERN, "a b"))
(True, False)
"""

from __future__ import annotations

from enum import StrEnum

MAX_MESSAGE_BYTES = 4096  # a client's websocket message
MAX_FRAME_BYTES = 4 * MAX_MESSAGE_BYTES  # a message the server reads at all (larger: 1009)
MAX_ID_CHARS = 64  # a command id
MAX_JSON_DEPTH = 16  # arrays and objects nested in a client's message
MAX_BODY_BYTES = 16 * 1024  # a REST request's body
NAME_CHARS = (3, 20)  # an account's name, fewest and most characters
NAME_PATTERN = f"[A-Za-z0-9_-]{{{NAME_CHARS[0]},{NAME_CHARS[1]}}}"  # letters, digits, '_' or '-'
PASSWORD_CHARS = (8, 1024)  # a password, fewest and most characters
MAX_REPLAY_BYTES = 1 << 20  # a hand history file sent to the replayer
MAX_REPLAY_HANDS = 200  # the hands of such a file read, at most
CHAT_CHARS = 200  # characters in a chat message (after its outer spaces are trimmed)
CHAT_RATE = (5, 10.0)  # chat messages a player may send a table in so many seconds
TABLE_NAME_CHARS = 40  # characters in a table's name (after its outer spaces are trimmed)
TOURNAMENT_NAME_CHARS = 60  # characters in a tournament's name (the same)
NOTE_CHARS = 500  # characters in a private note on a player (after its outer spaces are trimmed)
MAX_NOTES = 1000  # players an account may keep a note on
MAX_STAKES_BUY_INS = 100  # stakes an account may keep a default buy-in for
# the stakes a buy-in is kept for: game, structure and the bets (ante/bring-in/small/big)
STAKES_PATTERN = "[a-z0-9_]{1,20}:[a-z0-9_]{1,20}:[0-9]{1,9}/[0-9]{1,9}/[0-9]{1,9}/[0-9]{1,9}"


class NoteColour(StrEnum):
    """The colour tags a player may put on another: a fixed palette (the client draws
    each, and a player who knows the palette knows what his colours mean)."""

    RED = "red"
    ORANGE = "orange"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    PURPLE = "purple"


LIMITS: dict[str, tuple[int | str, str]] = {
    "MAX_MESSAGE_BYTES": (MAX_MESSAGE_BYTES, "bytes in a client's websocket message"),
    "MAX_FRAME_BYTES": (
        MAX_FRAME_BYTES,
        "bytes of a websocket message the server reads at all: a larger one closes the "
        "socket (1009) before it is read",
    ),
    "MAX_ID_CHARS": (MAX_ID_CHARS, "characters in a command id"),
    "MAX_JSON_DEPTH": (MAX_JSON_DEPTH, "arrays and objects nested in a client's message"),
    "MAX_BODY_BYTES": (
        MAX_BODY_BYTES,
        "bytes in a REST request's body: a larger one is refused (413) before it is read",
    ),
    "NAME_CHARS": (
        f"{NAME_CHARS[0]} to {NAME_CHARS[1]}",
        "characters in an account's name: letters, digits, '_' or '-' (unique in any case)",
    ),
    "PASSWORD_CHARS": (
        f"{PASSWORD_CHARS[0]} to {PASSWORD_CHARS[1]}",
        "characters in a password; not a common password, not the name",
    ),
    "MAX_REPLAY_BYTES": (
        MAX_REPLAY_BYTES,
        "bytes in a hand history file sent to the replayer (POST /api/v1/replays): a "
        "larger one is refused (413) before it is read",
    ),
    "MAX_REPLAY_HANDS": (
        MAX_REPLAY_HANDS,
        "hands of such a file read and replayed: the rest are left out (and counted)",
    ),
    "CHAT_CHARS": (
        CHAT_CHARS,
        "characters in a chat message: 1 to this many, after its outer spaces are trimmed; "
        "no control characters (no new lines)",
    ),
    "TABLE_NAME_CHARS": (
        TABLE_NAME_CHARS,
        "characters in a table's name: 1 to this many, after its outer spaces are trimmed; "
        "one line, no control characters, as a chat message",
    ),
    "TOURNAMENT_NAME_CHARS": (
        TOURNAMENT_NAME_CHARS,
        "characters in a tournament's name, by the same rule",
    ),
    "NOTE_CHARS": (
        NOTE_CHARS,
        "characters in a private note on a player: at most this many, after its outer "
        "spaces are trimmed (empty: a colour tag only); one line, no control characters, "
        "as a chat message",
    ),
    "MAX_NOTES": (MAX_NOTES, "players an account may keep a note or a colour tag on"),
    "NOTE_COLOURS": (
        ", ".join(NoteColour),
        "the colour tags a note may carry (or none)",
    ),
    "MAX_STAKES_BUY_INS": (
        MAX_STAKES_BUY_INS,
        "stakes an account's settings may keep a default buy-in for; each named "
        "game:structure:ante/bring_in/small_bet/big_bet",
    ),
    "CHAT_RATE": (
        f"{CHAT_RATE[0]} in {CHAT_RATE[1]:g} s",
        "chat messages a player may send one table (all his connections together); "
        "one more is refused, and nothing is said",
    ),
}
