"""``stud8 hh``: verify, convert and show hand histories.

Three formats are read, told apart by their content: PokerStars text, PHH
(PokerKit's TOML) and stud8's own JSON lines (one hand record a line); and
other sites' hand histories (:mod:`stud8.formats.sites`), read into the same
hands as PokerStars text and verified with each site's own rules.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import TextIO

from stud8.core.hand import Hand
from stud8.formats import HandHistoryError
from stud8.formats.phh import PhhError, PhhHand, hand_to_phh, phh_to_hand, read_phh_file
from stud8.formats.phh_verify import verify_phh
from stud8.formats.pokerstars import PokerStarsHand, ReadError, Skipped
from stud8.formats.pokerstars_read import parse_text
from stud8.formats.pokerstars_write import to_pokerstars
from stud8.formats.record import HandRecord
from stud8.formats.sites import Site, detect, site_named, verify_hand
from stud8.formats.sites import decode as decode_site_text
from stud8.formats.verify import verify_pokerstars

FORMATS = ("pokerstars", "phh", "json")


def hands_file() -> Path:
    """Where ``stud8 play`` keeps the hands played: ``$STUD8_HOME/hands.jsonl``
    (default ``~/.local/share/stud8``, or under ``$XDG_DATA_HOME``)."""
    home = os.environ.get("STUD8_HOME")
    if home:
        return Path(home) / "hands.jsonl"
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "stud8" / "hands.jsonl"


def sniff(text: str) -> str:
    """The format of a hand-history file's text: ``pokerstars``, ``phh``, ``json``
    or the name of another site (:data:`stud8.formats.sites.SITES`)."""
    for line in text.lstrip("\ufeff").splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("{"):
            return "json"
        if stripped.upper().startswith("POKERSTARS"):
            return "pokerstars"
        if stripped.startswith("***"):
            site = detect(text)  # OnGame's "***** History for hand"
            return site.name if site is not None else "pokerstars"
        break
    site = detect(text)  # before the loose tests: a site's chat may say "PokerStars"
    if site is not None:
        return site.name
    if "PokerStars" in text[:5000] or "POKERSTARS" in text[:5000]:
        return "pokerstars"
    if "variant" in text and "=" in text:
        return "phh"
    raise HandHistoryError("cannot tell the format: not PokerStars text, PHH or stud8 JSON lines")


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
        if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data[:400]:
            return decode_site_text(data)  # UTF-16, with or without a byte-order mark
        return data.decode("utf-8-sig")
    except OSError as e:
        raise HandHistoryError(f"cannot read it: {e.strerror or e}", file=str(path)) from None
    except UnicodeDecodeError as e:
        # Other sites write cp1252, whatever they declare.
        text = decode_site_text(data)
        if detect(text) is not None:
            return text
        raise HandHistoryError(f"not UTF-8 text (byte {e.start})", file=str(path)) from None


# ------------------------------------------------------------------------ verify
@dataclass(frozen=True, slots=True)
class Check:
    """One hand's outcome: ``reproduced``, ``mismatched`` or ``skipped``."""

    status: str
    where: str  # the file and line or hand
    detail: str = ""


def _json_records(text: str, file: str) -> Iterator[HandRecord | HandHistoryError]:
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield HandRecord.loads(line)
        except HandHistoryError as e:
            yield HandHistoryError(e.message, file=file, line=number)
        except ValueError as e:
            yield HandHistoryError(str(e), file=file, line=number)


def check_file(path: Path) -> Iterator[Check]:
    """Replay every hand of the file through the engine and say how each went."""
    file = str(path)
    try:
        text = _read_text(path)
        kind = sniff(text)
    except HandHistoryError as e:
        yield Check("mismatched", file, e.message if e.file else str(e))
        return
    if kind not in ("phh", "json"):
        site = _site(kind)
        items = parse_text(text, file=file) if site is None else site.read(text, file)
        for item in items:
            if isinstance(item, Skipped):
                yield Check("skipped", f"{file}:{item.line}", item.reason)
            elif isinstance(item, ReadError):
                yield Check("mismatched", f"{file}:{item.line}", item.message)
            else:
                verdict = verify_pokerstars(item) if site is None else verify_hand(site, item)
                where = f"{file}:{item.line}"
                if verdict.reproduced:
                    yield Check("reproduced", where)
                else:
                    yield Check("mismatched", where, "; ".join(verdict.problems))
    elif kind == "phh":
        for phh in read_phh_file(text, source=file):
            if isinstance(phh, PhhError):
                yield Check("mismatched", file, str(phh))
                continue
            v = verify_phh(phh)
            yield Check(v.status, f"{file}:{phh.line}" if phh.line else file, v.detail)
    else:
        for rec in _json_records(text, file):
            if isinstance(rec, HandHistoryError):
                yield Check("mismatched", f"{file}:{rec.line}", rec.message)
                continue
            try:
                rec.replay()
            except HandHistoryError as e:
                yield Check("mismatched", f"{file}: hand {rec.hand_id}", e.message)
            else:
                yield Check("reproduced", f"{file}: hand {rec.hand_id}")


def verify(paths: list[Path], out: TextIO) -> int:
    """``stud8 hh verify``: a line per hand that does not reproduce, then the
    summary; 0 only if nothing mismatched."""
    counts = {"reproduced": 0, "mismatched": 0, "skipped": 0}
    for path in paths:
        for check in check_file(path):
            counts[check.status] += 1
            if check.status != "reproduced":
                out.write(f"{check.where}: {check.status}: {check.detail}\n")
    total = sum(counts.values())
    out.write(
        f"hands: {total}  reproduced: {counts['reproduced']}  "
        f"mismatched: {counts['mismatched']}  skipped: {counts['skipped']}\n"
    )
    return 1 if counts["mismatched"] else 0


def _site(kind: str) -> Site | None:
    """The other site a format name stands for (None: PokerStars text)."""
    return None if kind == "pokerstars" else site_named(kind)


# ----------------------------------------------------------------------- convert
def _record_of_pokerstars(hand: PokerStarsHand, site: Site | None = None) -> HandRecord:
    verdict = verify_pokerstars(hand) if site is None else verify_hand(site, hand)
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
    names = {s.seat: s.name for s in hand.seats}
    return HandRecord.from_hand(engine, names=names, table=hand.table, currency=hand.currency)


def _record_of_phh(phh: PhhHand) -> HandRecord:
    hand: Hand = phh_to_hand(phh)
    players = phh.players or ()
    names = {seat: name for seat, name in zip(hand.seats, players, strict=False) if name}
    table = phh.fields.get("table")
    return HandRecord.from_hand(hand, names=names, table=str(table) if table else "")


def _filled_note(hand: PokerStarsHand) -> str:
    names = ", ".join(
        f"{hand.name(seat)} ({'3rd' if street == 3 else f'{street}th'} street)"
        for seat, street in hand.filled_in
    )
    return (
        f"{hand.file}:{hand.line}: hand {hand.hand_id}: up cards the site does not show, "
        f"filled in to agree with its bring-in and openers, are written as dealt: {names}"
    )


def file_viewer(path: Path) -> int | None:
    """The seat a PokerStars (or another site's) file was written for (its hero)."""
    try:
        text = _read_text(path)
        kind = sniff(text)
        if kind in ("phh", "json"):
            return None
    except HandHistoryError:
        return None
    site = _site(kind)
    items = parse_text(text, file=str(path)) if site is None else site.read(text, str(path))
    for item in items:
        if isinstance(item, PokerStarsHand):
            return item.hero
    return None


def load_records(
    path: Path, notes: list[str] | None = None
) -> Iterator[HandRecord | HandHistoryError]:
    """Every hand of the file as a stud8 record (or the error that stops one);
    ``notes`` gets a line for each hand whose unseen up cards were filled in."""
    file = str(path)
    text = _read_text(path)
    kind = sniff(text)
    if kind == "json":
        yield from _json_records(text, file)
        return
    if kind != "phh":
        site = _site(kind)
        items = parse_text(text, file=file) if site is None else site.read(text, file)
        for item in items:
            if isinstance(item, Skipped):
                continue
            if isinstance(item, ReadError):
                yield HandHistoryError(item.message, file=file, line=item.line)
                continue
            if item.filled_in and notes is not None:
                notes.append(_filled_note(item))
            try:
                yield _record_of_pokerstars(item, site)
            except HandHistoryError as e:
                yield e
        return
    for phh in read_phh_file(text, source=file):
        if isinstance(phh, PhhError):
            yield phh
            continue
        try:
            yield _record_of_phh(phh)
        except HandHistoryError as e:
            yield e
        except ValueError as e:
            yield HandHistoryError(str(e), file=file, line=phh.line)


def render(record: HandRecord, to: str, *, seat: int | None, everything: bool) -> str:
    """One hand in the target format."""
    if to == "json":
        return record.dumps() + "\n"
    if to == "pokerstars":
        return to_pokerstars(record, seat=seat, everything=everything) + "\n\n\n"
    hand = record.replay()
    viewer = None if everything else seat
    return (
        hand_to_phh(
            hand, names=record.names, hand_id=record.hand_id, table=record.table, viewer=viewer
        )
        + "\n"
    )


def convert(
    path: Path, to: str, out: TextIO, err: TextIO, *, seat: int | None, everything: bool
) -> int:
    """``stud8 hh convert``: every hand of the file in another format."""
    failed = 0
    written = 0
    notes: list[str] = []
    try:
        records = list(load_records(path, notes))
    except HandHistoryError as e:
        err.write(f"{e}\n")
        return 1
    for note in notes:
        err.write(f"note: {note}\n")
    for rec in records:
        if isinstance(rec, HandHistoryError):
            err.write(f"{rec}\n")
            failed += 1
            continue
        try:
            text = render(rec, to, seat=seat, everything=everything)
            written += 1
            if to == "phh" and len(records) > 1:  # several hands: a .phhs file, one section each
                text = f"[{written}]\n{text}\n"
            out.write(text)
        except HandHistoryError as e:
            err.write(f"{e}\n")
            failed += 1
    return 1 if failed else 0


# -------------------------------------------------------------------------- show
def show(path: Path, out: TextIO, err: TextIO, *, last: int, seat: int | None) -> int:
    """``stud8 hh show``: the last hands played, as PokerStars text from the
    player's seat (the seat named "You" in hands saved by ``stud8 play``)."""
    if not path.exists():
        err.write(f"no hands saved yet ({path} does not exist): play some with `stud8 play`\n")
        return 1
    records = [r for r in load_records(path) if isinstance(r, HandRecord)]
    if not records:
        err.write(f"no hands in {path}\n")
        return 1
    for rec in records[-last:]:
        viewer = seat
        if viewer is None:
            viewer = next((s for s, name in rec.names.items() if name == "You"), None)
        out.write(to_pokerstars(rec, seat=viewer) + "\n\n\n")
    return 0
