"""The native record of a finished hand: everything needed to replay it exactly.

A :class:`HandRecord` holds the table (name, rules, currency), the seats with
their players and starting stacks, the whole deck order, every event with its
optional time, the decisions, the pots, the rake and the final stacks. It is
stored as one JSON line per hand, losslessly:

>>> from stud8.core import BringIn, Deck, Fold, Hand, TableRules
>>> rules = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
>>> hand = Hand.start(rules=rules, stacks={1: 100, 2: 100, 3: 100}, deck=Deck.seeded(1),
...                   hand_id="42")
>>> for action in (BringIn(), Fold(), Fold()):
...     _ = hand.apply(action)
>>> record = HandRecord.from_hand(hand, names={1: "ann", 2: "bob", 3: "cy"}, table="Dawn")
>>> HandRecord.loads(record.dumps()) == record
True
>>> record.replay().result.stacks == hand.result.stacks
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from stud8.core.actions import Action
from stud8.core.cards import Card, Deck, parse_cards
from stud8.core.errors import Stud8Error
from stud8.core.events import (
    Event,
    HandCancelled,
    PotAwarded,
    decisions_from_events,
)
from stud8.core.hand import Hand, HandSetup
from stud8.core.pots import PotResult
from stud8.core.rules import TableRules
from stud8.formats import HandHistoryError, ReplayError, TamperedRecordError
from stud8.formats.jsonlog import (
    CodecError,
    decode_decision,
    decode_deck,
    decode_event,
    decode_pot,
    decode_rules,
    decode_time,
    encode_decision,
    encode_deck,
    encode_event,
    encode_pot,
    encode_rules,
    encode_time,
)
from stud8.formats.registry import HandCheck, Reader, Status, View, Writer

__all__ = [
    "FORMAT_VERSION",
    "READER",
    "WRITER",
    "HandRecord",
    "SeatRecord",
    "TableLine",
    "Tournament",
    "VoluntaryShow",
    "read_file",
    "write_file",
]

FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat: its number, the player's name, his starting stack and whether he
    was sitting out (a player sitting out may still be dealt in and post)."""

    seat: int
    name: str
    stack: int
    sitting_out: bool = False


@dataclass(frozen=True, slots=True)
class Tournament:
    """The tournament a hand was played in, as its site names it: the number,
    the buy-in as written (``$0.98+$0.12 USD``, ``Freeroll``) and the level (``V``)."""

    number: str
    buy_in: str = ""
    level: str = ""


@dataclass(frozen=True, slots=True)
class TableLine:
    """A line of the table that is not part of the play (``ann is sitting out``,
    chat, a player joining), written before ``events[before]`` (at the end of the
    showdown when ``before`` is past the betting)."""

    before: int
    text: str


@dataclass(frozen=True, slots=True)
class VoluntaryShow:
    """Cards a player showed when he need not have: the winner of an uncontested
    pot, or a player who mucked and showed afterwards. No chips move."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandRecord:
    """Everything about one finished (or cancelled) hand. Money in integer chips.

    ``currency`` says what a chip is: ``""`` for play chips, ``"USD"`` (or another
    ISO code) when a chip is a cent. ``times[i]`` is the time of ``events[i]``
    (None where unknown). ``decisions`` are the players' decisions in order
    (``None`` for a timeout).
    """

    hand_id: str
    table: str
    started_at: datetime | None
    currency: str
    rules: TableRules
    seats: tuple[SeatRecord, ...]
    deck: Deck
    events: tuple[Event, ...]
    times: tuple[datetime | None, ...]
    decisions: tuple[tuple[int, Action | None], ...]
    pots: tuple[PotResult, ...]
    rake: int
    final_stacks: tuple[tuple[int, int], ...]
    # What a site's history says beyond the play (all optional):
    time_zone: str = ""  # the local zone of the site's header ("PT"; "" for ET only)
    tournament: Tournament | None = None
    mixed: str = ""  # the mixed game the hand is part of ("HORSE", "8-Game")
    idle: tuple[SeatRecord, ...] = ()  # seats listed but not dealt in
    table_lines: tuple[TableLine, ...] = ()
    shows: tuple[VoluntaryShow, ...] = ()

    def __post_init__(self) -> None:
        if len(self.times) != len(self.events):
            raise HandHistoryError(
                f"hand {self.hand_id}: {len(self.times)} times for {len(self.events)} events"
            )

    # ---------------------------------------------------------------- make
    @classmethod
    def from_hand(
        cls,
        hand: Hand,
        *,
        names: Mapping[int, str] | None = None,
        table: str = "",
        started_at: datetime | None = None,
        times: Sequence[datetime | None] = (),
        currency: str = "",
    ) -> HandRecord:
        """The record of a finished or cancelled hand.

        ``names`` gives each seat's player (default ``Seat N``); ``times`` the time
        of each event in ``hand.events`` (it may be shorter: the rest are unknown).
        """
        if not hand.is_over:
            raise HandHistoryError(f"hand {hand.hand_id}: a record is made of a finished hand")
        events = tuple(hand.events)
        if len(times) > len(events):
            raise HandHistoryError(
                f"hand {hand.hand_id}: {len(times)} times given for {len(events)} events"
            )
        names = names or {}
        setup = hand.setup
        seats = tuple(SeatRecord(s, names.get(s, f"Seat {s}"), c) for s, c in setup.stacks)
        result = hand.result
        if result is not None:
            pots, rake = result.pots, result.rake
            final = tuple(sorted(result.stacks.items()))
        else:  # cancelled: everyone has his chips back
            pots, rake, final = (), 0, setup.stacks
        return cls(
            hand_id=hand.hand_id,
            table=table,
            started_at=started_at,
            currency=currency,
            rules=setup.rules,
            seats=seats,
            deck=setup.deck,
            events=events,
            times=tuple(times) + (None,) * (len(events) - len(times)),
            decisions=tuple(decisions_from_events(events)),
            pots=pots,
            rake=rake,
            final_stacks=final,
        )

    # ----------------------------------------------------------- questions
    @property
    def setup(self) -> HandSetup:
        """What the engine starts the hand from."""
        return HandSetup(
            rules=self.rules,
            stacks=tuple((s.seat, s.stack) for s in self.seats),
            deck=self.deck,
            hand_id=self.hand_id,
        )

    @property
    def names(self) -> dict[int, str]:
        return {s.seat: s.name for s in self.seats}

    @property
    def cancelled(self) -> bool:
        return any(isinstance(e, HandCancelled) for e in self.events)

    @property
    def awards(self) -> tuple[PotAwarded, ...]:
        """Who won what: one entry per pot, half and seat."""
        return tuple(e for e in self.events if isinstance(e, PotAwarded))

    def replay(self) -> Hand:
        """The hand again, from the setup and the decisions; checks that it gives
        exactly the recorded events, pots, rake and final stacks
        (:class:`~stud8.formats.TamperedRecordError` if not;
        :class:`~stud8.formats.HandHistoryError` if the decisions do not replay)."""
        try:
            hand = Hand.replay(self.setup, self.decisions)
            if self.cancelled:
                reason = next(e.reason for e in self.events if isinstance(e, HandCancelled))
                hand.cancel(reason)
        except Stud8Error as e:
            raise ReplayError(f"hand {self.hand_id}: the replay fails: {e}") from e
        got = hand.events
        for i, (want, have) in enumerate(zip(self.events, got, strict=False)):
            if want != have:
                raise TamperedRecordError(
                    f"hand {self.hand_id}: event {i} differs: recorded {want!r}, "
                    f"the replay gives {have!r}"
                )
        if len(got) != len(self.events):
            raise TamperedRecordError(
                f"hand {self.hand_id}: the record has {len(self.events)} events, "
                f"the replay {len(got)}"
            )
        result = hand.result
        if result is not None and (
            result.pots != self.pots
            or result.rake != self.rake
            or tuple(sorted(result.stacks.items())) != self.final_stacks
        ):
            raise TamperedRecordError(
                f"hand {self.hand_id}: the replay's pots, rake or stacks differ from the record"
            )
        for show in self.shows:
            if show.seat not in self.names:
                raise ReplayError(f"hand {self.hand_id}: seat {show.seat} shows, not dealt in")
            held = hand.cards(show.seat) + (
                (hand.community_card,) if hand.community_card is not None else ()
            )
            if not show.cards or not set(show.cards) <= set(held):
                raise ReplayError(
                    f"hand {self.hand_id}: seat {show.seat} shows {' '.join(map(str, show.cards))}"
                    ", not the cards he was dealt"
                )
        return hand

    # ---------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object (what :meth:`dumps` writes)."""
        events = []
        last: datetime | None = None
        stamp: str | None = None
        for event, t in zip(self.events, self.times, strict=True):
            obj = encode_event(event)
            if t is not None:
                if t is not last:  # the events of one action share their time
                    last, stamp = t, encode_time(t)
                obj["t"] = stamp
            events.append(obj)
        return {
            "v": FORMAT_VERSION,
            "hand_id": self.hand_id,
            "table": self.table,
            "started_at": encode_time(self.started_at),
            "currency": self.currency,
            "rules": encode_rules(self.rules),
            "seats": [[s.seat, s.name, s.stack] for s in self.seats],
            "deck": encode_deck(self.deck),
            "events": events,
            "decisions": [encode_decision(d) for d in self.decisions],
            "pots": [encode_pot(p) for p in self.pots],
            "rake": self.rake,
            "final_stacks": [list(p) for p in self.final_stacks],
            **self._extras_json(),
        }

    def _extras_json(self) -> dict[str, Any]:
        """The optional fields that are set (a record without them is as before)."""
        out: dict[str, Any] = {}
        if self.time_zone:
            out["time_zone"] = self.time_zone
        if self.tournament is not None:
            t = self.tournament
            out["tournament"] = {"number": t.number, "buy_in": t.buy_in, "level": t.level}
        if self.mixed:
            out["mixed"] = self.mixed
        if any(s.sitting_out for s in self.seats):
            out["sitting_out"] = [s.seat for s in self.seats if s.sitting_out]
        if self.idle:
            out["idle"] = [[s.seat, s.name, s.stack, s.sitting_out] for s in self.idle]
        if self.table_lines:
            out["table_lines"] = [[t.before, t.text] for t in self.table_lines]
        if self.shows:
            out["shows"] = [[v.seat, " ".join(map(str, v.cards))] for v in self.shows]
        return out

    def dumps(self) -> str:
        """One line of JSON (no newline)."""
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, obj: Any) -> HandRecord:
        """The record a JSON object holds; :class:`HandHistoryError` if it is not one."""
        if not isinstance(obj, dict):
            raise HandHistoryError(f"a hand record is a JSON object, got {type(obj).__name__}")
        try:
            version = obj.get("v")
            if version != FORMAT_VERSION:
                raise CodecError(f"unknown record version {version!r} (this is {FORMAT_VERSION})")
            raw_events = obj["events"]
            if not isinstance(raw_events, list):
                raise CodecError("events must be a list")
            seats = []
            for item in obj["seats"]:
                if (
                    not isinstance(item, list)
                    or len(item) != 3
                    or type(item[0]) is not int
                    or type(item[1]) is not str
                    or type(item[2]) is not int
                ):
                    raise CodecError(f"a seat is [seat, name, stack], got {item!r}")
                seats.append(SeatRecord(item[0], item[1], item[2]))
            out_now = obj.get("sitting_out", [])
            if not isinstance(out_now, list) or not all(type(x) is int for x in out_now):
                raise CodecError(f"sitting_out must be a list of seats, got {out_now!r}")
            seats = [
                SeatRecord(s.seat, s.name, s.stack, True) if s.seat in out_now else s for s in seats
            ]
            rake = obj["rake"]
            if type(rake) is not int:
                raise CodecError(f"rake must be a whole number, got {rake!r}")
            for key in ("hand_id", "table", "currency"):
                if type(obj[key]) is not str:
                    raise CodecError(f"{key} must be a string, got {obj[key]!r}")
            return cls(
                hand_id=obj["hand_id"],
                table=obj["table"],
                started_at=decode_time(obj["started_at"], "started_at"),
                currency=obj["currency"],
                rules=decode_rules(obj["rules"]),
                seats=tuple(seats),
                deck=decode_deck(obj["deck"]),
                events=tuple(decode_event(e) for e in raw_events),
                times=tuple(
                    decode_time(e.get("t"), "event time") if isinstance(e, dict) else None
                    for e in raw_events
                ),
                decisions=tuple(decode_decision(d) for d in obj["decisions"]),
                pots=tuple(decode_pot(p) for p in obj["pots"]),
                rake=rake,
                final_stacks=tuple(
                    (p[0], p[1]) for p in _pairs_of(obj["final_stacks"], "final_stacks")
                ),
                **_extras_of(obj),
            )
        except HandHistoryError:
            raise
        except KeyError as e:
            raise HandHistoryError(f"the hand record has no {e.args[0]!r}") from None
        except (Stud8Error, TypeError, ValueError) as e:
            raise HandHistoryError(f"not a valid hand record: {e}") from None

    @classmethod
    def loads(cls, text: str) -> HandRecord:
        """The record in one line of JSON."""
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise HandHistoryError(f"not JSON: {e}") from None
        return cls.from_json(obj)


def _extras_of(obj: dict[str, Any]) -> dict[str, Any]:
    """The optional fields of a record's JSON object (see ``HandRecord._extras_json``)."""
    out: dict[str, Any] = {}
    for key in ("time_zone", "mixed"):
        if key in obj:
            if type(obj[key]) is not str:
                raise CodecError(f"{key} must be a string, got {obj[key]!r}")
            out[key] = obj[key]
    t = obj.get("tournament")
    if t is not None:
        if not isinstance(t, dict) or not all(
            type(t.get(k, "")) is str for k in ("number", "buy_in", "level")
        ):
            raise CodecError(f"tournament must be {{number, buy_in, level}}, got {t!r}")
        out["tournament"] = Tournament(
            str(t.get("number", "")), str(t.get("buy_in", "")), str(t.get("level", ""))
        )
    idle = obj.get("idle", [])
    if not isinstance(idle, list) or not all(
        isinstance(i, list)
        and len(i) == 4
        and type(i[0]) is int
        and type(i[1]) is str
        and type(i[2]) is int
        and type(i[3]) is bool
        for i in idle
    ):
        raise CodecError(f"idle must be a list of [seat, name, stack, sitting out], got {idle!r}")
    if idle:
        out["idle"] = tuple(SeatRecord(*i) for i in idle)
    lines = obj.get("table_lines", [])
    if not isinstance(lines, list) or not all(
        isinstance(x, list) and len(x) == 2 and type(x[0]) is int and type(x[1]) is str
        for x in lines
    ):
        raise CodecError(f"table_lines must be a list of [event index, text], got {lines!r}")
    if lines:
        out["table_lines"] = tuple(TableLine(b, t) for b, t in lines)
    shows = obj.get("shows", [])
    if not isinstance(shows, list) or not all(
        isinstance(x, list) and len(x) == 2 and type(x[0]) is int and type(x[1]) is str
        for x in shows
    ):
        raise CodecError(f"shows must be a list of [seat, cards], got {shows!r}")
    if shows:
        out["shows"] = tuple(VoluntaryShow(seat, parse_cards(cards)) for seat, cards in shows)
    return out


def _pairs_of(v: Any, what: str) -> list[list[int]]:
    if not isinstance(v, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p) for p in v
    ):
        raise CodecError(f"{what} must be a list of [seat, chips] pairs")
    return v


def write_file(path: str | Path, records: Iterable[HandRecord], *, append: bool = False) -> int:
    """Write the records as JSON lines (UTF-8); returns how many were written."""
    n = 0
    with open(path, "a" if append else "w", encoding="utf-8", newline="\n") as f:
        for record in records:
            f.write(record.dumps())
            f.write("\n")
            n += 1
    return n


def read_file(path: str | Path) -> list[HandRecord]:
    """Every record of a JSON lines file (blank lines are skipped).

    A line that is not a valid record raises :class:`HandHistoryError` naming the
    file and the line number.
    """
    name = str(path)
    out = []
    with open(path, encoding="utf-8-sig") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                out.append(HandRecord.loads(line))
            except HandHistoryError as e:
                raise HandHistoryError(e.message, file=name, line=number) from None
    return out


# ------------------------------------------------------------- the registry's entries
def _sniff(text: str) -> bool:
    first = next((line for line in text.splitlines() if line.strip()), "")
    return first.lstrip("\ufeff \t").startswith("{")


def _lines(text: str, file: str) -> Iterator[tuple[int, HandRecord | HandHistoryError]]:
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, HandRecord.loads(line)
        except HandHistoryError as e:
            yield number, HandHistoryError(e.message, file=file, line=number)
        except (ValueError, RecursionError) as e:  # a JSON nested too deep
            yield number, HandHistoryError(f"not a hand record: {e}", file=file, line=number)


def _unnamed(error: HandHistoryError, rec: HandRecord) -> str:
    """The error's message without its leading ``hand N:`` (the check names the hand
    already: ``file:line: hand N: tampered: ...``)."""
    return error.message.removeprefix(f"hand {rec.hand_id}: ")


def _check(text: str, file: str) -> Iterator[HandCheck]:
    for number, rec in _lines(text, file):
        if isinstance(rec, HandHistoryError):
            yield HandCheck(Status.UNREADABLE, file, number, "", rec.message)
            continue
        try:
            rec.replay()
        except TamperedRecordError as e:
            yield HandCheck(Status.TAMPERED, file, number, rec.hand_id, _unnamed(e, rec))
        except HandHistoryError as e:
            yield HandCheck(Status.MISMATCHED, file, number, rec.hand_id, _unnamed(e, rec))
        else:
            yield HandCheck(Status.REPRODUCED, file, number, rec.hand_id)


def _records(text: str, file: str) -> Iterator[HandRecord | HandHistoryError]:
    for _, rec in _lines(text, file):
        yield rec


def _write(record: HandRecord, view: View) -> str:
    return record.dumps()


def _join(texts: Sequence[str]) -> str:
    return "".join(t + "\n" for t in texts)


READER = Reader("json", "stud8", _sniff, _check, _records)
WRITER = Writer("json", _write, _join)
