"""Checking a PHH hand: replay it in stud8 and compare the recorded stacks."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, time, tzinfo
from fractions import Fraction
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from stud8.core.errors import Stud8Error
from stud8.core.evaluate import best_razz_low, evaluate_hi_lo
from stud8.core.events import PotAwarded
from stud8.core.hand import Hand
from stud8.core.pots import Pot, build_pots, settle_pot, settle_razz_pot, take_rake
from stud8.core.rules import Game, OddChipHalf
from stud8.core.showdown import high_only, odd_chip_keys
from stud8.formats import HandHistoryError
from stud8.formats.phh import (
    PhhError,
    PhhHand,
    _replay,
    hand_to_phh,
    phh_to_hand,
    read_phh_file,
)
from stud8.formats.phh.write import CODES, GAME_OF_VARIANT
from stud8.formats.record import HandRecord, VoluntaryShow
from stud8.formats.registry import HandCheck, Reader, Status, View, Writer

__all__ = ["READER", "WRITER", "PhhVerdict", "record_of_phh", "verify_phh"]


@dataclass(frozen=True, slots=True)
class PhhVerdict:
    """What :func:`verify_phh` found: ``status`` is ``reproduced``, ``mismatched``
    or ``skipped``; ``detail`` says where it departs, or why it was skipped."""

    status: str
    source: str
    line: int
    hand_id: str
    detail: str = ""
    hand: Hand | None = None

    @property
    def reproduced(self) -> bool:
        return self.status == "reproduced"

    def __str__(self) -> str:
        name = f" hand {self.hand_id}:" if self.hand_id else ""
        tail = f": {self.detail}" if self.detail else ""
        return f"{self.source}:{self.line}:{name} {self.status}{tail}"


def verify_phh(phh: PhhHand) -> PhhVerdict:
    """Replay the hand in stud8 and check every action, then the recorded
    ``finishing_stacks`` (or ``winnings`` when there are none; both are optional:
    without them the replay alone is checked).

    By the specification both are after the rake: when they hold fewer chips than
    the replay pays and the file keeps no rake of its own (``_stud8_rules``), the
    difference is the rake, taken from the pots as stud8 takes it (the main pot
    first), and the stacks must then be the replay's to the chip. A player whose
    stack is unknown (``inf``) is not compared."""

    def verdict(status: str, detail: str = "", hand: Hand | None = None) -> PhhVerdict:
        return PhhVerdict(status, phh.source, phh.line, phh.hand_id, detail, hand)

    if phh.variant not in GAME_OF_VARIANT:
        return verdict(
            "skipped", f"variant {phh.variant!r} is not a stud game stud8 plays ({CODES})"
        )
    hand, departure = _replay(phh)
    if departure is not None:
        return verdict("mismatched", f"line {departure.line}: {departure.message}", hand)
    assert hand.result is not None
    recorded, what = phh.finishing_stacks, "finishing stack"
    if recorded is None:
        recorded, what = phh.winnings, "winnings"
    if recorded is None:
        return verdict("reproduced", "", hand)
    known = [i for i in range(len(hand.seats)) if i not in phh.unknown_stacks]
    ours = _outcome(phh, hand, what)
    missing = sum(ours[hand.seats[i]] - recorded[i] for i in known)
    rake_note = ""
    every_stack_known = len(known) == len(hand.seats)
    if missing > 0 and every_stack_known and not hand.result.rake and not known_rake(phh):
        raked = _with_rake(hand, missing)
        if raked is not None:
            ours = _outcome(phh, raked, what)
            plural = "finishing stacks" if what == "finishing stack" else what
            hand, rake_note = raked, f"a rake of {missing} (the {plural} are after it)"
    wrong = []
    for i in known:
        seat = hand.seats[i]
        if ours[seat] != recorded[i]:
            diff = ours[seat] - recorded[i]
            wrong.append(
                f"p{i + 1} (seat {seat}) {what} {recorded[i]}, stud8 {ours[seat]} "
                f"({abs(diff)} {'more' if diff > 0 else 'less'})"
            )
    if wrong:
        return verdict("mismatched", "; ".join(wrong), hand)
    return verdict("reproduced", rake_note, hand)


def known_rake(phh: PhhHand) -> bool:
    """Whether the file says how the rake is taken (stud8's own table options)."""
    given = phh.fields.get("_stud8_rules", {})
    return isinstance(given, dict) and any(k.startswith("rake") for k in given)


def _outcome(phh: PhhHand, hand: Hand, what: str) -> dict[int, int]:
    """The finishing stacks (or winnings) of the replay, the players who mucked
    unknown cards conceding."""
    assert hand.result is not None
    if what == "winnings":
        won = dict.fromkeys(hand.seats, 0)
        for e in hand.events:
            if isinstance(e, PotAwarded):
                won[e.seat] += e.amount
        return won
    conceded = _conceded(phh, hand)
    return _stacks_if_conceded(hand, conceded) if conceded else dict(hand.result.stacks)


def _with_rake(hand: Hand, rake: int) -> Hand | None:
    """The hand replayed with ``rake`` chips raked (None if it cannot be)."""
    rules = replace(hand.rules, rake_percent=Fraction(100), rake_cap=rake, rake_third_street=True)
    try:
        raked = Hand.replay(replace(hand.setup, rules=rules), hand.decisions)
    except (Stud8Error, ValueError):
        return None
    if raked.result is None or raked.result.rake != rake:
        return None
    return raked


def _conceded(phh: PhhHand, hand: Hand) -> frozenset[int]:
    """Seats that reached the showdown with down cards the file does not know and
    did not show them: they mucked, so they concede (their filler cards must not
    win anything)."""
    if hand.result is None or not hand.result.showdown:
        return frozenset()
    seats = hand.seats
    unknown = {
        seats[a.player]
        for a in phh.actions
        if a.verb == "dh" and a.player is not None and None in a.cards
    }
    shown = {
        seats[a.player] for a in phh.actions if a.verb == "sm" and a.player is not None and a.cards
    }
    return frozenset(s for s in hand.live_seats() if s in unknown and s not in shown)


def _stacks_if_conceded(hand: Hand, conceded: frozenset[int]) -> dict[int, int]:
    """The final stacks when ``conceded`` seats give up their claim at the
    showdown: each pot goes to the best of the hands shown (RULES.md section 5)."""
    contributions = {s: hand.contributed(s) for s in hand.seats}
    contenders = [s for s in hand.live_seats() if s not in conceded]
    if not contenders:
        raise PhhError("every player at the showdown mucked unknown cards")
    common = (hand.community_card,) if hand.community_card is not None else ()
    game = hand.rules.game
    evaluate = high_only if game is Game.STUD_HIGH else evaluate_hi_lo
    values = {s: evaluate(hand.cards(s) + common) for s in contenders}
    razz = {s: best_razz_low(hand.cards(s) + common) for s in contenders if game is Game.RAZZ}
    hi_key, lo_key = odd_chip_keys(
        hand.rules.odd_chip,
        {s: hand.cards(s) for s in contenders},
        hand.community_card,
        razz=game is Game.RAZZ,
    )
    to_low = hand.rules.odd_chip_half is OddChipHalf.LOW
    starting = dict(hand.setup.stacks)
    stacks = {s: starting[s] - contributions[s] for s in hand.seats}
    pots = build_pots(contributions, frozenset(hand.live_seats()))
    rake = hand.result.rake if hand.result is not None else 0
    for index, pot in enumerate(take_rake(pots, rake)):
        eligible = tuple(s for s in pot.eligible if s not in conceded) or tuple(contenders)
        if game is Game.RAZZ:
            result = settle_razz_pot(index, Pot(pot.amount, eligible), razz, lo_key)
        else:
            result = settle_pot(
                index, Pot(pot.amount, eligible), values, hi_key, lo_key, odd_chip_to_low=to_low
            )
        for seat, chips in result.won_by().items():
            stacks[seat] += chips
    return stacks


def record_of_phh(phh: PhhHand) -> HandRecord:
    """The stud8 record of a PHH hand (replayed through the engine)."""
    hand: Hand = phh_to_hand(phh)
    players = phh.players or ()
    names = {seat: name for seat, name in zip(hand.seats, players, strict=False) if name}
    table = phh.fields.get("table")
    record = HandRecord.from_hand(
        hand, names=names, table=str(table) if table else "", started_at=_started_at(phh)
    )
    # Cards shown when they need not be: after an uncontested pot, or by a player
    # who folded (the known ones; ?? stays unknown).
    assert hand.result is not None
    shows = []
    for a in phh.actions:
        if a.verb != "sm" or a.player is None or not any(a.cards):
            continue
        seat = hand.seats[a.player]
        if not hand.result.showdown or hand.is_folded(seat):
            shows.append(VoluntaryShow(seat, tuple(c for c in a.cards if c is not None)))
    return replace(record, shows=tuple(shows)) if shows else record


_ET = ZoneInfo("America/New_York")


def _started_at(phh: PhhHand) -> datetime | None:
    """When the hand was played, from PHH's optional ``year``, ``month``, ``day``,
    ``time`` and ``time_zone`` (an IANA name); None without a whole date (a wrong
    one is no reason to refuse the hand). Without a known zone the time is read in
    ET, the zone of the PokerStars text it is written to, so that the day the file
    gives is the day written."""
    f = phh.fields
    parts = [f.get("year"), f.get("month"), f.get("day")]
    numbers = [x for x in parts if isinstance(x, int) and not isinstance(x, bool)]
    if len(numbers) != 3:
        return None
    year, month, day = numbers
    at = f.get("time")
    clock = at if isinstance(at, time) else time(0, 0)
    zone_name = f.get("time_zone")
    zone: tzinfo = _ET
    if isinstance(zone_name, str) and zone_name:
        try:
            zone = ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError):
            zone = _ET
    try:
        return datetime.combine(date(year, month, day), clock.replace(tzinfo=None), zone)
    except (ValueError, OverflowError):
        return None


# ------------------------------------------------------------- the registry's entries
_VARIANT_KEY = re.compile(r"^[ \t\ufeff]*variant[ \t]*=", re.M)


def _sniff(text: str) -> bool:
    return _VARIANT_KEY.search(text) is not None


def _check(text: str, file: str) -> Iterator[HandCheck]:
    for phh in read_phh_file(text, source=file):
        if isinstance(phh, PhhError):
            yield HandCheck(Status.UNREADABLE, file, phh.line, "", phh.message)
            continue
        try:
            v = verify_phh(phh)
        except PhhError as e:
            yield HandCheck(Status.UNREADABLE, file, e.line, phh.hand_id, e.message)
            continue
        yield HandCheck(Status(v.status), file, phh.line, phh.hand_id, v.detail)


def _records(text: str, file: str) -> Iterator[HandRecord | HandHistoryError]:
    for phh in read_phh_file(text, source=file):
        if isinstance(phh, PhhError):
            yield phh
            continue
        try:
            yield record_of_phh(phh)
        except HandHistoryError as e:
            yield e
        except (Stud8Error, ValueError) as e:
            yield HandHistoryError(str(e), file=file, line=phh.line)


def _write(record: HandRecord, view: View) -> str:
    hand = record.replay()
    viewer = None if view.everything else view.seat
    return hand_to_phh(
        hand,
        names=record.names,
        hand_id=record.hand_id,
        table=record.table,
        viewer=viewer,
        shows=[(v.seat, v.cards) for v in record.shows],
    )


def _join(texts: Sequence[str]) -> str:
    if len(texts) == 1:
        return texts[0]
    # several hands: a .phhs file, one [section] a hand
    return "\n".join(f"[{i}]\n{t}" for i, t in enumerate(texts, start=1))


READER = Reader("phh", "PHH", _sniff, _check, _records)
WRITER = Writer("phh", _write, _join)
