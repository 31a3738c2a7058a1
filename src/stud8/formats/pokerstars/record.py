"""A PokerStars hand as a stud8 record: replayed, with all the file says besides.

:func:`record_of_pokerstars` replays the hand through the engine (it must
reproduce) and keeps, beside the play, what PokerStars text says of the table:
the header's date and local zone, the tournament and the mixed game, the seats
sitting out or not dealt in, the table's other lines where they stood, the rake
the site took and the hands shown of the players' own accord. Written again
(:func:`~stud8.formats.pokerstars.write.to_pokerstars`), the hand reads as it did.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING

from stud8.core.events import AntePosted, Event, StreetStarted
from stud8.core.hand import Hand
from stud8.formats import HandHistoryError, ReplayError
from stud8.formats.pokerstars import PokerStarsHand, PSNote, ReadError, Skipped, read_header_date
from stud8.formats.pokerstars.read import iter_hands
from stud8.formats.pokerstars.write import ENDING_EVENTS, HAND_SEPARATOR, to_pokerstars
from stud8.formats.record import HandRecord, SeatRecord, TableLine, Tournament, VoluntaryShow
from stud8.formats.registry import HandCheck, Reader, Status, View, Writer
from stud8.formats.verify import verify_pokerstars

if TYPE_CHECKING:
    from stud8.formats.sites import Site

__all__ = ["READER", "WRITER", "record_of_pokerstars"]


def record_of_pokerstars(hand: PokerStarsHand, site: Site | None = None) -> HandRecord:
    """The stud8 record of a PokerStars hand (or of another ``site``'s hand, read
    into one, replayed with the site's rules); :class:`ReplayError` if it does not
    reproduce (the first problem says where)."""
    if site is None:
        verdict = verify_pokerstars(hand)
    else:
        from stud8.formats.sites import verify_hand  # (the sites import this layer)

        verdict = verify_hand(site, hand)
    if not verdict.reproduced or verdict.hand is None:
        raise ReplayError(
            f"hand {hand.hand_id} does not reproduce: {'; '.join(verdict.problems)}",
            file=hand.file,
            line=hand.line,
        )
    engine = verdict.hand
    if hand.rake:
        # Keep the site's rake: replay at a table whose rake is exactly that amount.
        rules = replace(
            engine.rules, rake_percent=Fraction(100), rake_cap=hand.rake, rake_third_street=True
        )
        engine = Hand.replay(replace(engine.setup, rules=rules), engine.decisions)
        if engine.result is None or engine.result.rake != hand.rake:
            raise ReplayError(
                f"hand {hand.hand_id}: the rake of {hand.rake} cannot be kept",
                file=hand.file,
                line=hand.line,
            )
    started_at, zone = read_header_date(hand.date)
    record = HandRecord.from_hand(
        engine,
        names={s.seat: s.name for s in hand.seats},
        table=hand.table,
        currency=hand.currency,
        started_at=started_at,
    )
    dealt = set(hand.dealt_in)
    away = {s.seat for s in hand.seats if s.sitting_out}
    folded = {a.seat for a in hand.actions if a.verb == "folds"}
    events = record.events
    return replace(
        record,
        time_zone=zone,
        tournament=Tournament(hand.tournament, hand.buy_in, hand.level)
        if hand.tournament
        else None,
        mixed=hand.mixed,
        seats=tuple(replace(s, sitting_out=s.seat in away) for s in record.seats),
        idle=tuple(
            SeatRecord(s.seat, s.name, s.stack, s.sitting_out)
            for s in hand.seats
            if s.seat not in dealt
        ),
        table_lines=tuple(
            TableLine(_before(note, events, verdict.action_events), note.text)
            for note in hand.notes
        ),
        shows=tuple(
            VoluntaryShow(sh.seat, sh.cards)
            for sh in hand.shows
            if not hand.showdown or sh.seat in hand.mucks or sh.seat in folded
        ),
    )


def _before(note: PSNote, events: tuple[Event, ...], starts: tuple[int, ...]) -> int:
    """The index of the event a table line stood before."""
    end = next((i for i, e in enumerate(events) if type(e) in ENDING_EVENTS), len(events))
    if note.section == "seats":
        antes = [i for i, e in enumerate(events) if type(e) is AntePosted]
        if note.antes == 0 or not antes:
            return 0
        return antes[min(note.antes, len(antes)) - 1] + 1
    if note.section != "streets":
        return len(events)  # the end of the showdown
    at = starts[note.actions] if note.actions < len(starts) else end
    next_street = next(
        (i for i, e in enumerate(events) if type(e) is StreetStarted and e.street > note.street),
        len(events),
    )
    return min(at, next_street, end)


# ------------------------------------------------------------- the registry's entries
_HEADER = re.compile(
    r"^[ \t\ufeff]*POKERSTARS (?:HOME GAME |ZOOM |FAST POKER )?(?:HAND|GAME) #\w", re.I | re.M
)


def _sniff(text: str) -> bool:
    return _HEADER.search(text, 0, 20_000) is not None


def _check(text: str, file: str) -> Iterator[HandCheck]:
    for item in iter_hands(text, file=file):
        if isinstance(item, Skipped):
            yield HandCheck(Status.SKIPPED, file, item.line, item.hand_id, item.reason)
        elif isinstance(item, ReadError):
            yield HandCheck(Status.UNREADABLE, file, item.line, item.hand_id, item.message)
        else:
            verdict = verify_pokerstars(item)
            status = Status.REPRODUCED if verdict.reproduced else Status.MISMATCHED
            yield HandCheck(status, file, item.line, item.hand_id, "; ".join(verdict.problems))


def _records(text: str, file: str) -> Iterator[HandRecord | HandHistoryError]:
    for item in iter_hands(text, file=file):
        if isinstance(item, Skipped):
            continue
        if isinstance(item, ReadError):
            yield item.error()
            continue
        try:
            yield record_of_pokerstars(item)
        except HandHistoryError as e:
            yield e


def _write(record: HandRecord, view: View) -> str:
    return to_pokerstars(record, seat=view.seat, everything=view.everything)


def _join(texts: Sequence[str]) -> str:
    return HAND_SEPARATOR.join(texts)


def _hero(text: str) -> int | None:
    for item in iter_hands(text):
        if isinstance(item, PokerStarsHand):
            return item.hero
    return None


READER = Reader("pokerstars", "PokerStars", _sniff, _check, _records, _hero)
WRITER = Writer("pokerstars", _write, _join)
