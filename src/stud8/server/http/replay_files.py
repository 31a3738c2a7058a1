"""A hand history file read for the replayer: its bytes into :class:`Replays`.

The file is read as ``stud8 hh`` reads it (the registry of formats: PokerStars
text, the other sites', PHH, stud8's JSON lines; UTF-8, UTF-16 or Windows-1252),
each hand replayed through the engine, and nothing is stored. What the replay shows
is only what the file knows: a player's own history shows his down cards (its hero)
and the others' only where shown; cards nobody saw, which the readers fill in so
that the engine can replay the hand, stay hidden (a PHH file's ``??``, an up card a
site does not write). A file that is not a hand history, or whose hands all fail,
is a :class:`BadFile` with the reason, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice

from stud8.core.cards import Card
from stud8.core.errors import Stud8Error
from stud8.core.events import CardDealt
from stud8.formats import HandHistoryError
from stud8.formats.phh import PhhError, read_phh_file
from stud8.formats.phh.verify import record_of_phh
from stud8.formats.pokerstars import PokerStarsHand, ReadError, Skipped
from stud8.formats.pokerstars.read import iter_hands
from stud8.formats.pokerstars.record import record_of_pokerstars
from stud8.formats.record import HandRecord
from stud8.formats.registry import reader_for
from stud8.formats.sites import decode, sites
from stud8.server.wire.limits import MAX_REPLAY_HANDS
from stud8.server.wire.replay import Replay, Replays, replay_of

__all__ = ["BadFile", "read_replays"]

# Control characters a text file does not hold (tab, line feed, form feed and
# carriage return aside): a file with them is not a hand history's text.
_CONTROL = frozenset(range(32)) - {9, 10, 12, 13}


class BadFile(ValueError):
    """A file the replayer cannot read: the message says why."""


def _text_of(data: bytes, name: str) -> str:
    if not data.strip():
        raise BadFile(f"{name} is empty: drop a hand history (PokerStars text or PHH)")
    text = decode(data)
    sample = text[:65536]
    controls = sum(1 for ch in sample if ord(ch) in _CONTROL)
    if "\x00" in sample or controls > 2 + len(sample) // 100:  # a stray one is forgiven
        raise BadFile(f"{name} is not text (a binary file?): it is not a hand history")
    return text


Item = tuple[HandRecord, Replay] | HandHistoryError


def _play(
    record: HandRecord,
    *,
    viewer: int | None = None,
    everything: bool = False,
    unknown: Callable[[CardDealt], bool] | None = None,
) -> Item:
    return record, replay_of(record, viewer=viewer, everything=everything, unknown=unknown)


def _phh(text: str, name: str) -> Iterator[Item]:
    for phh in read_phh_file(text, source=name):
        if isinstance(phh, PhhError):
            yield phh
            continue
        named = frozenset(
            c for a in phh.actions if a.verb in ("dh", "db", "sm") for c in a.cards if c is not None
        )

        def unknown(e: CardDealt, named: frozenset[Card] = named) -> bool:
            return e.card not in named

        try:
            yield _play(record_of_phh(phh), everything=True, unknown=unknown)
        except HandHistoryError as e:
            yield e
        except (Stud8Error, ValueError) as e:
            yield HandHistoryError(str(e), file=name, line=phh.line)


def _pokerstars(format: str, text: str, name: str) -> Iterator[Item]:
    """PokerStars text, or another site's read into PokerStars hands: the hero's
    down cards (a player's own history), and no up card the site did not write."""
    site = next((s for s in sites() if s.name == format), None)
    hands = iter_hands(text, file=name) if site is None else iter(site.read(text, name))
    for item in hands:
        if isinstance(item, Skipped):
            yield HandHistoryError(f"hand {item.hand_id}: skipped: {item.reason}", line=item.line)
            continue
        if isinstance(item, ReadError):
            yield item.error()
            continue
        assert isinstance(item, PokerStarsHand)
        filled = frozenset(item.filled_in)

        def unknown(e: CardDealt, filled: frozenset[tuple[int, int]] = filled) -> bool:
            return e.face_up and (e.seat, e.street) in filled

        try:
            yield _play(record_of_pokerstars(item, site), viewer=item.hero, unknown=unknown)
        except HandHistoryError as e:
            yield e


def _items(format: str, text: str, name: str) -> Iterator[Item]:
    if format == "phh":
        return _phh(text, name)
    if format == "json":
        return _json(text, name)
    return _pokerstars(format, text, name)


def _json(text: str, name: str) -> Iterator[Item]:
    """stud8's own records: the deck is the real one (every card is known), and each
    record must replay to its own events (a record changed by hand is refused)."""
    for record in reader_for(text).records(text, name):
        if isinstance(record, HandHistoryError):
            yield record
            continue
        try:
            record.replay()
        except HandHistoryError as e:
            yield HandHistoryError(e.message, file=name)
            continue
        yield _play(record, everything=True)


def read_replays(data: bytes, name: str = "the file", limit: int = MAX_REPLAY_HANDS) -> Replays:
    """The hands of a file to replay (see the module); :class:`BadFile` if none."""
    text = _text_of(data, name)
    try:
        format = reader_for(text).name
    except HandHistoryError as e:
        raise BadFile(f"{name}: {e}") from None
    hands: list[Replay] = []
    problems: list[str] = []
    items = _items(format, text, name)
    more = False
    try:
        for item in islice(items, limit):
            if isinstance(item, HandHistoryError):
                problems.append(str(item))
            else:
                hands.append(item[1])
        more = next(items, None) is not None
    except (Stud8Error, ValueError, RecursionError) as e:  # the rest cannot be read
        problems.append(f"{name}: the rest cannot be read: {e}")
    if not hands:
        first = f": {problems[0]}" if problems else ""
        raise BadFile(f"{name}: no hand of it can be replayed{first}")
    return Replays(format=format, hands=hands, problems=problems[:50], more=more)
