"""A PokerStars hand as a stud8 record: replayed, with all the file says besides.

:func:`record_of_pokerstars` replays the hand through the engine (it must
reproduce) and keeps, beside the play, what PokerStars text says of the table:
the header's date and local zone, the tournament and the mixed game, the seats
sitting out or not dealt in, the table's other lines where they stood, the rake
the site took and the hands shown of the players' own accord. Written again
(:func:`~stud8.formats.pokerstars_write.to_pokerstars`), the hand reads as it did.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from stud8.core.events import AntePosted, Event, StreetStarted
from stud8.core.hand import Hand
from stud8.formats import HandHistoryError
from stud8.formats.pokerstars import PokerStarsHand, PSNote, read_header_date
from stud8.formats.pokerstars_write import ENDING_EVENTS
from stud8.formats.record import HandRecord, SeatRecord, TableLine, Tournament, VoluntaryShow
from stud8.formats.verify import verify_pokerstars

__all__ = ["record_of_pokerstars"]


def record_of_pokerstars(hand: PokerStarsHand) -> HandRecord:
    """The stud8 record of a PokerStars hand; :class:`HandHistoryError` if it does
    not reproduce (the first problem says where)."""
    verdict = verify_pokerstars(hand)
    if not verdict.reproduced or verdict.hand is None:
        raise HandHistoryError(
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
            raise HandHistoryError(
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
