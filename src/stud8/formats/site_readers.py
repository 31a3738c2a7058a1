"""The other sites' hand histories (:mod:`stud8.formats.sites`) in the registry
of formats (:mod:`stud8.formats.registry`): one reader a site, which reads the
site's text into PokerStars hands and verifies them with the site's own rules."""

from __future__ import annotations

from collections.abc import Iterator

from stud8.formats import HandHistoryError
from stud8.formats.pokerstars import PokerStarsHand, ReadError, Skipped
from stud8.formats.pokerstars.record import record_of_pokerstars
from stud8.formats.record import HandRecord
from stud8.formats.registry import HandCheck, Reader, Status
from stud8.formats.sites import Site, sites, verify_hand

__all__ = ["READERS", "site_reader"]


def site_reader(site: Site) -> Reader:
    """The registry's reader of one site's hand histories."""

    def sniff(text: str) -> bool:
        return site.detect(text.lstrip("\ufeff")[:4000])

    def check(text: str, file: str) -> Iterator[HandCheck]:
        for item in site.read(text, file):
            if isinstance(item, Skipped):
                yield HandCheck(Status.SKIPPED, file, item.line, item.hand_id, item.reason)
            elif isinstance(item, ReadError):
                yield HandCheck(Status.UNREADABLE, file, item.line, item.hand_id, item.message)
            else:
                verdict = verify_hand(site, item)
                status = Status.REPRODUCED if verdict.reproduced else Status.MISMATCHED
                detail = "; ".join(verdict.problems)
                yield HandCheck(status, file, item.line, item.hand_id, detail)

    def records(text: str, file: str) -> Iterator[HandRecord | HandHistoryError]:
        for item in site.read(text, file):
            if isinstance(item, Skipped):
                continue
            if isinstance(item, ReadError):
                yield item.error()
                continue
            try:
                yield record_of_pokerstars(item, site)
            except HandHistoryError as e:
                yield e

    def hero(text: str) -> int | None:
        for item in site.read(text, "<text>"):
            if isinstance(item, PokerStarsHand):
                return item.hero
        return None

    def notes(text: str, file: str) -> list[str]:
        return [
            _filled_note(item)
            for item in site.read(text, file)
            if isinstance(item, PokerStarsHand) and item.filled_in
        ]

    return Reader(site.name, site.title, sniff, check, records, hero, notes)


def _filled_note(hand: PokerStarsHand) -> str:
    names = ", ".join(
        f"{hand.name(seat)} ({'3rd' if street == 3 else f'{street}th'} street)"
        for seat, street in hand.filled_in
    )
    return (
        f"{hand.file}:{hand.line}: hand {hand.hand_id}: up cards the site does not show, "
        f"filled in to agree with its bring-in and openers, are written as dealt: {names}"
    )


READERS = tuple(site_reader(s) for s in sites())
