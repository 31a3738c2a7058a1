"""PHH (PokerKit's authors' format) for Stud Hi/Lo ``F7S/8``, Stud ``F7S`` and Razz ``FR``.

A PHH hand is a TOML document (https://github.com/uoftcprg/phh-std). How a stud
hand is written here, as PokerKit 0.7 reads it:

* Players ``p1`` ... ``pN`` are the seats in ascending order (``seats`` holds
  the real seat numbers); money is in integer chip units.
* Cards: ``d dh p1 AsKd7c`` on 3rd street (three cards in dealing order: down,
  down, up), then ``d dh p1 9h`` for each of 4th, 5th and 6th street (up) and
  7th street (down); the community card is ``d db 5c``. Up or down is not
  written: it follows from the street, as PokerKit's hole-dealing statuses
  have it. A hidden card is ``??``. No burn card is written: stud8 burns none,
  and PokerKit burns an unknown card by itself.
* ``pN pb`` bring-in, ``pN cbr 8`` complete, bet or raise to 8 (the street
  total), ``pN cc`` check or call, ``pN f`` fold, ``pN sm CARDS`` shows (all of
  the player's own cards, in dealing order), ``pN sm`` mucks. Shows stand where
  PokerKit asks for them: after the last betting round; when the betting ends
  early because all but one are all-in, at once (the cards so far, everyone
  live) and again after the 7th-street down card.
* When a fold leaves one player with chips against all-in players, stud8 deals
  the hand out but PokerKit still has him act: he checks (``pN cc``), and the
  reader accepts that check.
* A timeout is the action it led to with the commentary ``# timed out``; all-in
  protection (a stud8 rule with no PHH action) is the no-op
  ``# pN timed out: all-in protection``, which PokerKit cannot replay.
* Table options that are not the default are kept in the user-defined field
  ``_stud8_rules`` (PokerKit ignores fields starting with ``_``).

Reading replays the hand through the engine: the rules from ``antes``,
``bring_in``, ``small_bet`` and ``big_bet``, the deck from the dealt cards (an
unknown card is filled with a card the file never names).
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NoReturn

from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import CARDS, Card, Deck
from stud8.core.errors import IllegalActionError, Stud8Error
from stud8.core.events import TimedOut
from stud8.core.hand import Hand, HandSetup
from stud8.core.rules import TableRules
from stud8.formats.concede import weakest_fill
from stud8.formats.phh.pokerkit import alone_with_chips, full_raise
from stud8.formats.phh.write import (
    CODES,
    GAME_OF_VARIANT,
    TIMED_OUT,
    VARIANT,
    PhhError,
    PhhReplayError,
    hand_to_phh,
    rule_options_names,
)

__all__ = [
    "VARIANT",
    "PhhAction",
    "PhhError",
    "PhhHand",
    "hand_to_phh",
    "phh_to_hand",
    "read_phh",
    "read_phh_file",
]

_PROTECTION = re.compile(r"p(\d+) timed out: all-in protection")
_CARD_TEXT: dict[str, Card | None] = {"??": None}
for _c in CARDS:
    _CARD_TEXT[str(_c)] = _CARD_TEXT[str(_c)[0].lower() + _c.suit] = _c

# ------------------------------------------------------------------ reading


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One entry of ``actions``: ``verb`` is ``dh``, ``db``, ``pb``, ``cbr``, ``cc``,
    ``f``, ``sm`` or ``noop``; ``player`` is 0-based (None for the dealer)."""

    line: int
    text: str
    verb: str
    player: int | None = None
    cards: tuple[Card | None, ...] = ()
    amount: int | None = None
    comment: str = ""


@dataclass(frozen=True, slots=True)
class PhhHand:
    """One PHH hand as read. Money is in chip units: ``unit`` chips make one unit
    of the file's money (1 unless the file writes decimals)."""

    source: str
    line: int
    variant: str
    fields: Mapping[str, Any]
    unit: int = 1
    antes: tuple[int, ...] = ()
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    starting_stacks: tuple[int, ...] = ()
    actions: tuple[PhhAction, ...] = ()
    finishing_stacks: tuple[int, ...] | None = None
    winnings: tuple[int, ...] | None = None
    seats: tuple[int, ...] | None = None
    players: tuple[str, ...] | None = None
    hand_id: str = ""
    unknown_stacks: frozenset[int] = frozenset()  # players whose stack is inf

    def error(self, message: str, line: int | None = None) -> PhhError:
        return PhhError(message, source=self.source, line=self.line if line is None else line)


_ACTIONS_KEY = re.compile(r"^[ \t]*actions[ \t]*=[ \t]*\[", re.M)
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|\]')
_KEY = re.compile(r"^[ \t]*([A-Za-z0-9_-]+)[ \t]*=", re.M)
_TOML_LINE = re.compile(r"at line (\d+)")
_SECTION = re.compile(r"^\[[^\]\n]*\][ \t]*\r?$", re.M)


def _action_lines(text: str, first: int) -> list[int]:
    """The line of each string of the ``actions`` array."""
    m = _ACTIONS_KEY.search(text)
    if m is None:
        return []
    pos, line, lines = m.end(), first + text.count("\n", 0, m.end()), []
    for t in _TOKEN.finditer(text, pos):
        line += text.count("\n", pos, t.start())
        pos = t.start()
        token = t.group()
        if token == "]":
            break
        if token[0] in "\"'":
            lines.append(line)
    return lines


_SIMPLE_KEY = re.compile(r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*(.*?)[ \t]*")
_SIMPLE_VALUE = re.compile(r'-?(?:0|[1-9][0-9]*)|"[^"\\\x00-\x1f\x7f]*"|true|false')
_SIMPLE_ITEM = re.compile(r'[ \t]*("[^"\\\x00-\x1f\x7f]*"|-?(?:0|[1-9][0-9]*))[ \t]*,?[ \t]*')
_SIMPLE_PAIR = re.compile(
    r'[ \t]*([A-Za-z0-9_]+)[ \t]*=[ \t]*("[^",\\\x00-\x1f\x7f]*"|-?\d+|true|false)[ \t]*'
)


def _simple(word: str) -> Any:
    return word[1:-1] if word[0] == '"' else word == "true" if word[0] in "tf" else int(word)


def _simple_toml(text: str, first: int) -> tuple[dict[str, Any], list[int]] | None:
    """The common, simple PHH layout (ours) read fast, with the line of each
    action; ``None`` for anything else (then :mod:`tomllib` reads the text)."""
    data: dict[str, Any] = {}
    lines = text.split("\n")
    action_lines: list[int] = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\r")
        i += 1
        if not line or line[0] == "#":
            continue
        m = _SIMPLE_KEY.fullmatch(line)
        if m is None or m.group(1) in data:
            return None
        key, value = m.groups()
        if _SIMPLE_VALUE.fullmatch(value):
            data[key] = _simple(value)
        elif value == "[":  # one item a line, up to a closing "]"
            items = []
            while i < len(lines) and lines[i].rstrip("\r") != "]":
                item = _SIMPLE_ITEM.fullmatch(lines[i].rstrip("\r"))
                if item is None:
                    return None
                items.append(_simple(item.group(1)))
                if key == "actions":
                    action_lines.append(first + i)
                i += 1
            if i == len(lines):
                return None
            i += 1
            data[key] = items
        elif value[:1] == "[" and value[-1:] == "]":
            words = [w.strip() for w in value[1:-1].split(",")] if value != "[]" else []
            if not all(_SIMPLE_VALUE.fullmatch(w) and "," not in w for w in words):
                return None
            data[key] = [_simple(w) for w in words]
        elif value[:1] == "{" and value[-1:] == "}":
            pairs = [_SIMPLE_PAIR.fullmatch(w) for w in value[1:-1].split(",")]
            if not all(pairs):
                return None
            data[key] = {p.group(1): _simple(p.group(2)) for p in pairs if p}
        else:
            return None
    return data, action_lines


def _key_line(text: str, first: int, key: str) -> int:
    for m in _KEY.finditer(text):
        if m.group(1) == key:
            return first + text.count("\n", 0, m.start())
    return first


def _cards(word: str, fail: Callable[[str], NoReturn]) -> tuple[Card | None, ...]:
    if len(word) % 2:
        fail(f"cannot read the cards {word!r}: two characters a card, like AsKd or ??")
    try:
        return tuple(_CARD_TEXT[word[i : i + 2]] for i in range(0, len(word), 2))
    except KeyError:
        fail(f"cannot read the cards {word!r}: a card is a rank (23456789TJQKA) and a suit (cdhs)")


def _parse_action(text: str, line: int, players: int, hand: PhhHand) -> tuple[Any, ...]:
    """``(verb, player, cards, amount as Decimal, comment)`` of one action string."""

    def fail(why: str) -> NoReturn:
        raise hand.error(f"cannot read action {text!r}: {why}", line)

    body, _, comment = text.partition("#")
    words = body.split()

    def player(word: str) -> int:
        index = word[1:]
        if (
            word[:1] != "p"
            or not (index.isascii() and index.isdigit())
            or index[0] == "0"
            or int(index) > players
        ):
            fail(f"{word!r} is not a player (p1 to p{players})")
        return int(index) - 1

    amount: Decimal | None = None
    cards: tuple[Card | None, ...] = ()
    match words:
        case []:
            return "noop", None, (), None, comment.strip()
        case ["d", "db", c]:
            return "db", None, _cards(c, fail), None, comment.strip()
        case ["d", "dh", p, c]:
            return "dh", player(p), _cards(c, fail), None, comment.strip()
        case [p, ("pb" | "cc" | "f" | "sm") as verb]:
            return verb, player(p), (), None, comment.strip()
        case [p, "sm", c]:
            cards = () if c == "-" else _cards(c, fail)
            return "sm", player(p), cards, None, comment.strip()
        case [p, "cbr", a]:
            try:
                amount = Decimal(a)
            except ArithmeticError:
                fail(f"the amount {a!r} is not a number")
            if not amount.is_finite() or amount <= 0:
                fail(f"the amount {a!r} must be a positive number")
            return "cbr", player(p), (), amount, comment.strip()
        case [_, "sd", *_]:
            fail("standing pat or discarding has no place in stud")
    fail("expected d dh pN CARDS, d db CARDS, pN pb, pN cbr AMOUNT, pN cc, pN f or pN sm [CARDS]")


#: The chips of a player whose stack the file does not know (``inf``): more than
#: anybody can bet in a hand, so that he is never all-in.
UNKNOWN_STACK = 10**15
MAX_AMOUNT = 10**15  # chips (or currency units) in one amount of a hand


def _is_inf(value: object) -> bool:
    return isinstance(value, (Decimal, float)) and value == Decimal("Infinity")


def _money(value: object) -> Decimal | int | None:
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        return None
    if isinstance(value, Decimal) and not value.is_finite():
        return None
    return value


def read_phh(text: str, *, source: str = "<phh>", first_line: int = 1) -> PhhHand:
    """Read one PHH hand (a ``.phh`` file). A text that is not valid TOML, lacks a
    field or has an action that cannot be read raises :class:`PhhError` naming
    ``source`` and the line."""
    text = text.removeprefix("\ufeff")
    fast = _simple_toml(text, first_line)
    try:
        data, lines = fast if fast else (tomllib.loads(text, parse_float=Decimal), [])
    except tomllib.TOMLDecodeError as error:
        m = _TOML_LINE.search(str(error))
        line = first_line + (int(m.group(1)) - 1 if m else text.count("\n"))
        cut = "" if m else " (the file may be truncated)"
        raise PhhError(f"not valid TOML: {error}{cut}", source=source, line=line) from None
    hand = PhhHand(source, first_line, "", data)

    def need(key: str) -> Any:
        if key not in data:
            raise hand.error(f"the field {key!r} is missing")
        return data[key]

    variant = need("variant")
    if not isinstance(variant, str):
        raise hand.error(
            f"variant must be a string, got {variant!r}", _key_line(text, first_line, "variant")
        )
    if variant not in GAME_OF_VARIANT:
        return PhhHand(source, first_line, variant, data)
    raw: dict[str, Any] = {}
    for key in ("antes", "starting_stacks", "finishing_stacks", "winnings"):
        if key not in data and key in ("finishing_stacks", "winnings"):
            continue
        values = need(key)
        # An unknown stack is inf (the specification's way): starting or finishing.
        unknown_ok = key in ("starting_stacks", "finishing_stacks")
        ok = isinstance(values, list) and all(
            _money(v) is not None or (unknown_ok and _is_inf(v)) for v in values
        )
        if not ok or not values:
            line = _key_line(text, first_line, key)
            raise hand.error(f"{key} must be a list of numbers, got {values!r}", line)
        raw[key] = values
    for key in ("bring_in", "small_bet", "big_bet"):
        if _money(need(key)) is None:
            raise hand.error(
                f"{key} must be a number, got {data[key]!r}", _key_line(text, first_line, key)
            )
        raw[key] = data[key]
    n = len(raw["starting_stacks"])
    for key in ("antes", "finishing_stacks", "winnings"):
        if key in raw and len(raw[key]) != n:
            line = _key_line(text, first_line, key)
            raise hand.error(f"{key} has {len(raw[key])} values for {n} players", line)
    strings = need("actions")
    if not isinstance(strings, list) or not all(isinstance(a, str) for a in strings):
        raise hand.error(
            "actions must be a list of strings", _key_line(text, first_line, "actions")
        )
    lines = lines or _action_lines(text, first_line)
    if len(lines) != len(strings):
        lines = [_key_line(text, first_line, "actions")] * len(strings)
    parsed = [_parse_action(a, ln, n, hand) for a, ln in zip(strings, lines, strict=True)]
    numbers = [v for vs in raw.values() for v in (vs if isinstance(vs, list) else [vs])]
    numbers += [p[3] for p in parsed if p[3] is not None]
    places = max(
        (-int(v.as_tuple().exponent) for v in numbers if isinstance(v, Decimal) and v.is_finite()),
        default=0,
    )
    if places > 6:
        raise hand.error("amounts with more than 6 decimal places cannot be played in chips")
    unit = 10 ** max(places, 0)

    def chips(v: int | Decimal) -> int:
        if _is_inf(v):
            return UNKNOWN_STACK
        # refused before it is multiplied out: 1e999999 would be a million digits
        if not -MAX_AMOUNT < v < MAX_AMOUNT:
            raise hand.error(f"an amount of {v} is too large (the limit is {MAX_AMOUNT:.0e})")
        return int(v * unit)

    seats = data.get("seats")
    players = data.get("players")
    ident = data.get("hand", "")
    return PhhHand(
        source=source,
        line=first_line,
        variant=variant,
        fields=data,
        unit=unit,
        antes=tuple(chips(v) for v in raw["antes"]),
        bring_in=chips(raw["bring_in"]),
        small_bet=chips(raw["small_bet"]),
        big_bet=chips(raw["big_bet"]),
        starting_stacks=tuple(chips(v) for v in raw["starting_stacks"]),
        actions=tuple(
            PhhAction(ln, a, p[0], p[1], p[2], None if p[3] is None else chips(p[3]), p[4])
            for a, ln, p in zip(strings, lines, parsed, strict=True)
        ),
        finishing_stacks=tuple(chips(v) for v in raw["finishing_stacks"])
        if "finishing_stacks" in raw
        else None,
        winnings=tuple(chips(v) for v in raw["winnings"]) if "winnings" in raw else None,
        seats=tuple(seats)
        if isinstance(seats, list) and all(type(s) is int for s in seats) and len(seats) == n
        else None,
        players=tuple(str(p) for p in players) if isinstance(players, list) else None,
        hand_id=str(ident),
        unknown_stacks=frozenset(i for i, v in enumerate(raw["starting_stacks"]) if _is_inf(v)),
    )


def read_phh_file(text: str, *, source: str = "<phh>") -> list[PhhHand | PhhError]:
    """Every hand of a file: one (``.phh``), or one per ``[section]`` (``.phhs``).
    A hand that cannot be read is its :class:`PhhError`; the others are still read."""
    text = text.removeprefix("\ufeff")
    heads = list(_SECTION.finditer(text))
    if not heads:
        try:
            return [read_phh(text, source=source)]
        except PhhError as error:
            return [error]
    out: list[PhhHand | PhhError] = []
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = text[head.end() : end]
        first = 1 + text.count("\n", 0, head.end())
        try:
            out.append(read_phh(body, source=source, first_line=first))
        except PhhError as error:
            out.append(error)
    return out


# ----------------------------------------------------------------- replaying


def _rules(phh: PhhHand) -> TableRules:
    if phh.variant not in GAME_OF_VARIANT:
        raise phh.error(f"variant {phh.variant!r} is not a stud game stud8 plays ({CODES})")
    if len(set(phh.antes)) != 1:
        raise phh.error(f"stud8 plays one ante for everyone; antes are {list(phh.antes)}")
    options: dict[str, Any] = {}
    given = phh.fields.get("_stud8_rules", {})
    if not isinstance(given, dict):
        raise phh.error(f"_stud8_rules must be a table, got {given!r}")
    names = rule_options_names()
    for key, value in given.items():
        if key not in names:
            raise phh.error(f"_stud8_rules: no table option {key!r}")
        options[key] = None if value == "none" else value
    try:
        return TableRules(
            game=GAME_OF_VARIANT[phh.variant],
            ante=phh.antes[0],
            bring_in=phh.bring_in,
            small_bet=phh.small_bet,
            big_bet=phh.big_bet,
            **options,
        )
    except (Stud8Error, TypeError) as error:
        raise phh.error(f"these table rules cannot be played: {error}") from None


def _deck(phh: PhhHand, rng: random.Random | None = None) -> Deck:
    """The deck in stud8's dealing order, unknown cards filled with unused ones."""
    n = len(phh.starting_stacks)
    got: list[list[Card | None]] = [[] for _ in range(n)]
    board: list[Card | None] = []
    known: dict[Card, int] = {}

    def note(card: Card | None, line: int) -> None:
        if card is not None:
            if card in known and known[card] != line:
                raise phh.error(f"{card} is dealt twice (also on line {known[card]})", line)
            known[card] = line

    for a in phh.actions:
        if a.verb in ("dh", "db"):
            for c in a.cards:
                note(c, a.line)
            (board if a.player is None else got[a.player]).extend(a.cards)
    for a in phh.actions:
        if a.verb == "sm" and a.player is not None:
            mine = got[a.player]
            if len(a.cards) > len(mine):
                raise phh.error(
                    f"p{a.player + 1} shows {len(a.cards)} cards, dealt {len(mine)}", a.line
                )
            for j, c in enumerate(a.cards):
                if c is not None and mine[j] is None:
                    note(c, a.line)
                    mine[j] = c
                elif c is not None and c != mine[j]:
                    raise phh.error(f"p{a.player + 1} shows {c}, dealt {mine[j]}", a.line)
    # Who kept his cards to the end without showing them conceded: the weakest
    # cards left take his unknown places (stud8.formats.concede).
    folded = {a.player for a in phh.actions if a.verb == "f"}
    shown = {a.player for a in phh.actions if a.verb == "sm" and a.cards}
    community = board[0] if board else None
    for i in range(n):
        if i in folded or i in shown or None not in got[i]:
            continue
        own = got[i][:6] if community is not None else got[i]
        used = set(known) | {c for g in got for c in g if c is not None}
        left = [c for c in CARDS if c not in used]
        fill = iter(weakest_fill(own, left, community, game=GAME_OF_VARIANT[phh.variant]))
        for j, c in enumerate(own):
            if c is None:
                got[i][j] = next(fill)
    order: list[Card | None] = []
    for i in range(n):
        if len(got[i]) < 3:
            raise phh.error(f"p{i + 1} is dealt {len(got[i])} cards; 3rd street deals 3")
    order += [got[i][k] for k in range(3) for i in range(n)]
    for k in (3, 4, 5):
        order += [got[i][k] for i in range(n) if len(got[i]) > k]
    order += board[:1] if board else [got[i][6] for i in range(n) if len(got[i]) > 6]
    placed = set(order)
    spare = [c for c in CARDS if c not in placed]
    if rng is not None:  # another way to fill the unknown cards
        rng.shuffle(spare)
    unused = iter(spare)
    cards = [next(unused) if c is None else c for c in order[:52]]
    return Deck((*cards, *unused))


def _seats(phh: PhhHand, rules: TableRules) -> tuple[int, ...]:
    s = phh.seats
    if s and list(s) == sorted(set(s)) and s[0] >= 1 and s[-1] <= rules.max_seats:
        return s
    return tuple(range(1, len(phh.starting_stacks) + 1))


@dataclass(frozen=True, slots=True)
class _Departure:
    line: int
    message: str


#: How many other ways to fill the unknown cards are tried when the first departs.
FILL_ATTEMPTS = 100


def _replay(phh: PhhHand) -> tuple[Hand, _Departure | None]:
    """The hand replayed through the engine, and where the file departs from it.

    Unknown cards can decide who brings in or acts first (an unknown up card):
    the file decides, and the replay departs only if no filling of the unknown
    cards lets the hand go as the file says (FILL_ATTEMPTS other fillings are
    tried, the same every time)."""
    hand, departure = _replay_with(phh, None)
    unknown = any(None in a.cards for a in phh.actions if a.verb in ("dh", "db"))
    if departure is None or not unknown:
        return hand, departure
    for attempt in range(FILL_ATTEMPTS):
        other, again = _replay_with(phh, random.Random(f"stud8-phh-fill/{attempt}"))
        if again is None:
            return other, None
    return hand, departure


def _replay_with(phh: PhhHand, rng: random.Random | None) -> tuple[Hand, _Departure | None]:
    rules = _rules(phh)
    seats = _seats(phh, rules)
    deck = _deck(phh, rng)
    try:
        hand = Hand(
            HandSetup(
                rules=rules,
                stacks=tuple(zip(seats, phh.starting_stacks, strict=True)),
                deck=deck,
                hand_id=phh.hand_id,
            )
        )
    except Stud8Error as error:
        raise phh.error(f"the hand cannot start: {error}") from None
    dealt = dict.fromkeys(seats, 0)
    board = 0
    last = phh.line
    name = {seat: f"p{i + 1} (seat {seat})" for i, seat in enumerate(seats)}
    simple = {"pb": ActionKind.BRING_IN, "f": ActionKind.FOLD}
    timed = {"f": "fold", "cc": "check", "pb": "bring_in", "cbr": ""}
    for a in phh.actions:
        last = a.line
        seat = None if a.player is None else seats[a.player]
        if a.verb == "dh" and seat is not None:
            engine = hand.cards(seat)
            k = dealt[seat]
            if len(engine) < k + len(a.cards):
                why = "he has folded" if hand.is_folded(seat) else "it deals no card now"
                return hand, _Departure(
                    a.line, f"the file deals {name[seat]} a card; the engine does not ({why})"
                )
            for j, c in enumerate(a.cards):
                if c is not None and c != engine[k + j]:
                    return hand, _Departure(
                        a.line, f"the file deals {name[seat]} {c}; the engine {engine[k + j]}"
                    )
            dealt[seat] = k + len(a.cards)
        elif a.verb == "db":
            board += len(a.cards)
            if hand.community_card is None or board > 1:
                return hand, _Departure(
                    a.line, "the file deals a community card; the engine deals none now"
                )
        elif a.verb in ("pb", "cbr", "cc", "f") and seat is not None:
            if a.verb == "cc" and hand.to_act is None and alone_with_chips(hand, seat):
                continue  # PokerKit has him check; stud8 has dealt the hand out
            if hand.to_act != seat:
                who = "nobody" if hand.to_act is None else name[hand.to_act]
                return hand, _Departure(
                    a.line, f"{name[seat]} acts ({a.text}); the engine has {who} to act"
                )
            try:
                if a.comment == TIMED_OUT:
                    before = list(hand.decisions)
                    new = hand.time_out()
                    if any(isinstance(e, TimedOut) and e.outcome == timed[a.verb] for e in new):
                        continue
                    # stud8's timeout rule does something else: the action written stands
                    hand = Hand.replay(hand.setup, before)
                legal = {x.kind: x for x in hand.legal_actions()}
                amount = a.amount
                if a.verb == "cc":
                    kind = ActionKind.CHECK if ActionKind.CHECK in legal else ActionKind.CALL
                elif a.verb == "cbr":
                    sized = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)
                    kind = next((k for k in sized if k in legal), ActionKind.RAISE)
                    options = [x for x in hand.legal_actions() if x.kind is kind]
                    amount = full_raise(hand, options, amount)
                else:
                    kind = simple[a.verb]
                hand.apply(make_action(kind, amount))
            except IllegalActionError as error:
                return hand, _Departure(a.line, f"{a.text!r} is not legal: {error}")
        elif a.verb == "noop" and (m := _PROTECTION.fullmatch(a.comment)):
            p = int(m.group(1)) - 1
            if not 0 <= p < len(seats) or hand.to_act != seats[p]:
                return hand, _Departure(a.line, f"p{p + 1} times out, but is not to act")
            hand.time_out()
    if not hand.is_over:
        who = "nobody" if hand.to_act is None else name[hand.to_act]
        return hand, _Departure(last, f"the hand is not over after the last action: {who} to act")
    for seat in seats:
        if dealt[seat] != len(hand.cards(seat)):
            what = f"the engine deals {name[seat]} {len(hand.cards(seat))} cards"
            return hand, _Departure(last, f"{what}, the file {dealt[seat]}")
    if (hand.community_card is not None) != (board == 1):
        return hand, _Departure(last, "the engine deals a community card, the file does not")
    return hand, None


def phh_to_hand(phh: PhhHand) -> Hand:
    """The hand replayed through stud8's engine; a hand that departs from the
    rules, or does not end, raises :class:`PhhError` with the line."""
    hand, departure = _replay(phh)
    if departure is not None:
        raise PhhReplayError(departure.message, source=phh.source, line=departure.line)
    return hand


# ----------------------------------------------------------------- verifying
