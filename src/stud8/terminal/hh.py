"""``stud8 hh``: verify, convert and show hand histories.

The formats are those of :mod:`stud8.formats.registry` (PokerStars text, PHH,
stud8's JSON lines, and any other site's reader registered there), told apart by
their content, in whatever encoding the file has.

Exit codes of ``verify`` and ``convert``, bits that add up: 0 all is well; 1 a
hand does not reproduce (or cannot be converted); 4 a file, or a hand's text in
it, cannot be read (a missing file, not a hand history, a corrupt hand); 5 both;
8 (``convert`` only) a hand that reproduces but that the target format cannot
express (a pot- or no-limit hand has no PHH). A usage error is 2, as for every
command.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from stud8.core.errors import Stud8Error
from stud8.formats import HandHistoryError, ReplayError, UnwritableError
from stud8.formats.pokerstars.stakes import why_trackers_refuse
from stud8.formats.pokerstars.write import to_pokerstars
from stud8.formats.record import HandRecord
from stud8.formats.registry import (
    HandCheck,
    Reader,
    Status,
    View,
    read_text,
    reader_for,
    writers,
)

EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_UNREADABLE = 4
EXIT_UNWRITABLE = 8
#: A file at least this large gets a progress bar (on a terminal).
PROGRESS_BYTES = 256 * 1024


def hands_file() -> Path:
    """Where ``stud8 play`` keeps the hands played: ``$STUD8_HOME/hands.jsonl``
    (default ``~/.local/share/stud8``, or under ``$XDG_DATA_HOME``)."""
    home = os.environ.get("STUD8_HOME")
    if home:
        return Path(home) / "hands.jsonl"
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "stud8" / "hands.jsonl"


def sniff(text: str) -> str:
    """The name of a hand-history text's format (``pokerstars``, ``phh``,
    ``json``...); :class:`HandHistoryError` if no reader knows it."""
    return reader_for(text.lstrip("\ufeff")).name


def _open(path: Path) -> tuple[str, Reader]:
    text = read_text(path)
    try:
        return text, reader_for(text)
    except HandHistoryError as e:
        raise HandHistoryError(e.message, file=str(path)) from None


# ------------------------------------------------------------------------ verify
def check_file(path: Path) -> Iterator[HandCheck]:
    """Replay every hand of the file through the engine and say how each went (a
    file that cannot be read is one UNREADABLE check)."""
    file = str(path)
    try:
        text, reader = _open(path)
    except HandHistoryError as e:
        yield HandCheck(Status.UNREADABLE, file, None, "", e.message, whole_file=True)
        return
    yield from _guarded(reader, text, file)


def _guarded(reader: Reader, text: str, file: str) -> Iterator[HandCheck]:
    """The reader's checks; whatever it raises ends the file as unreadable, with
    the hands checked so far kept (no command ends in a traceback)."""
    checks = reader.check(text, file)
    while True:
        try:
            check = next(checks)
        except StopIteration:
            return
        except (Stud8Error, ValueError, RecursionError) as e:
            yield HandCheck(Status.UNREADABLE, file, None, "", f"cannot be read: {e}")
            return
        except Exception as e:  # a reader's bug must not end the command
            yield HandCheck(
                Status.UNREADABLE, file, None, "", f"stud8 failed on it ({type(e).__name__}: {e})"
            )
            return
        yield check


@dataclass(slots=True)
class Tally:
    """The hands of one file (or site, or of everything), by outcome, and the
    files that could not be read at all (no hand of theirs is counted)."""

    counts: dict[Status, int] = field(default_factory=lambda: dict.fromkeys(Status, 0))
    files: int = 0
    unread_files: int = 0

    def add(self, check: HandCheck) -> None:
        if check.whole_file:
            self.unread_files += 1
        else:
            self.counts[check.status] += 1

    def merge(self, other: Tally) -> None:
        for status, n in other.counts.items():
            self.counts[status] += n
        self.files += other.files
        self.unread_files += other.unread_files

    @property
    def hands(self) -> int:
        return sum(self.counts.values())

    def text(self) -> str:
        files = f"files: {self.files}" + (
            f" ({self.unread_files} cannot be read)" if self.unread_files else ""
        )
        # tampered records are named only when there are some
        shown = [s for s in Status if s is not Status.TAMPERED or self.counts[s]]
        return "  ".join(
            [files, f"hands: {self.hands}", *(f"{s.value}: {self.counts[s]}" for s in shown)]
        )

    def to_json(self) -> dict[str, int]:
        return {
            "files": self.files,
            "files_unreadable": self.unread_files,
            "hands": self.hands,
            **{s.value: n for s, n in self.counts.items()},
        }

    def exit_code(self) -> int:
        code = EXIT_OK
        if self.counts[Status.MISMATCHED] or self.counts[Status.TAMPERED]:
            code |= EXIT_MISMATCH
        if self.counts[Status.UNREADABLE] or self.unread_files:
            code |= EXIT_UNREADABLE
        return code


class Progress:
    """A progress bar on a terminal, for a big file: how far through the file the
    hands checked are. Nothing is drawn elsewhere (a pipe, a CI log)."""

    def __init__(self, stream: TextIO, name: str, lines: int) -> None:
        self.stream = stream
        self.name = name
        self.lines = max(lines, 1)
        self.last = 0.0
        self.drawn = False

    @staticmethod
    def wanted(stream: TextIO, size: int) -> bool:
        if size < PROGRESS_BYTES or os.environ.get("CI"):
            return False
        try:
            return stream.isatty()
        except (AttributeError, ValueError):
            return False

    def show(self, line: int | None, hands: int) -> None:
        now = time.monotonic()
        if line is None or now - self.last < 0.1:
            return
        self.last = now
        done = min(line / self.lines, 1.0)
        bar = "#" * int(30 * done)
        self.stream.write(f"\r{self.name} [{bar:<30}] {100 * done:3.0f}%  {hands} hands")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def verify(
    paths: list[Path],
    out: TextIO,
    err: TextIO | None = None,
    *,
    as_json: bool = False,
    progress: bool = True,
) -> int:
    """``stud8 hh verify``: a line per hand that does not reproduce (or cannot be
    read), then a summary per file, per site and in all; or one JSON document
    (``as_json``). Returns the exit code (see the module)."""
    total = Tally()
    by_site: dict[str, Tally] = {}
    files: list[dict[str, Any]] = []
    for path in paths:
        file = str(path)
        tally = Tally(files=1)
        problems: list[HandCheck] = []
        site = fmt = ""
        try:
            text, reader = _open(path)
        except HandHistoryError as e:
            checks: Iterator[HandCheck] = iter(
                [HandCheck(Status.UNREADABLE, file, None, "", e.message, whole_file=True)]
            )
            text = ""
        else:
            site, fmt = reader.site, reader.name
            checks = _guarded(reader, text, file)
        bar = None
        if progress and err is not None and Progress.wanted(err, len(text)):
            bar = Progress(err, path.name, text.count("\n"))
        try:
            for check in checks:
                tally.add(check)
                if bar is not None:
                    bar.show(check.line, tally.hands)
                if check.status is not Status.REPRODUCED:
                    problems.append(check)
                    if not as_json:
                        out.write(f"{check.where}: {check.status.value}: {check.detail}\n")
        finally:
            if bar is not None:
                bar.close()
        total.merge(tally)
        by_site.setdefault(site or "(not read)", Tally()).merge(tally)
        files.append(
            {
                "file": file,
                "site": site,
                "format": fmt,
                **tally.to_json(),
                "problems": [
                    {
                        "line": c.line,
                        "hand": c.hand_id,
                        "status": c.status.value,
                        "detail": c.detail,
                    }
                    for c in problems
                ],
            }
        )
    code = total.exit_code()
    if as_json:
        document = {
            "files": files,
            "sites": {site: t.to_json() for site, t in by_site.items()},
            "total": total.to_json(),
            "exit": code,
        }
        out.write(json.dumps(document, ensure_ascii=False, indent=1) + "\n")
        return code
    if len(paths) > 1:
        width = max(len(f["file"]) for f in files)
        for f in files:
            counts = "cannot be read" if f["files_unreadable"] else _counts(f)
            out.write(f"{f['file']:<{width}}  {f['site'] or '-':<10}  {counts}\n")
        if len(by_site) > 1:
            for site, t in by_site.items():
                out.write(f"site {site}: {t.text()}\n")
    out.write(total.text() + "\n")
    return code


def _counts(f: dict[str, Any]) -> str:
    return "  ".join(f"{k}: {f[k]}" for k in ("hands", *(s.value for s in Status)))


# ----------------------------------------------------------------------- convert
def file_viewer(path: Path) -> int | None:
    """The seat a file was written for (its hero), if it is one player's history."""
    try:
        text, reader = _open(path)
        return reader.hero(text) if reader.hero is not None else None
    except (HandHistoryError, Stud8Error, ValueError):
        return None


def load_records(path: Path) -> Iterator[HandRecord | HandHistoryError]:
    """Every hand of the file as a stud8 record (or the error that stops one);
    :class:`HandHistoryError` if the file cannot be read."""
    text, reader = _open(path)
    records = reader.records(text, str(path))
    while True:
        try:
            yield next(records)
        except StopIteration:
            return
        except (Stud8Error, ValueError, RecursionError) as e:
            yield HandHistoryError(f"cannot be read: {e}", file=str(path))
            return


def render(record: HandRecord, to: str, *, seat: int | None, everything: bool) -> str:
    """One hand in the target format."""
    return writers()[to].write(record, View(seat, everything))


def convert(
    path: Path, to: str, out: TextIO, err: TextIO, *, seat: int | None, everything: bool
) -> int:
    """``stud8 hh convert``: every hand of the file in another format (the hands
    that cannot be converted are named on ``err``). Returns the exit code."""
    writer = writers()[to]
    view = View(seat, everything)
    code = EXIT_OK
    texts: list[str] = []
    try:
        text, reader = _open(path)
        if reader.notes is not None:
            for note in reader.notes(text, str(path)):
                err.write(f"note: {note}\n")
        for rec in load_records(path):
            if isinstance(rec, HandHistoryError):
                err.write(f"{rec}\n")
                code |= EXIT_MISMATCH if isinstance(rec, ReplayError) else EXIT_UNREADABLE
                continue
            refused = why_trackers_refuse(rec.rules, rec.currency, rec.tournament is not None)
            if to == "pokerstars" and refused:
                err.write(f"note: {path}: hand {rec.hand_id}: {refused}\n")
            try:
                texts.append(writer.write(rec, view))
            except UnwritableError as e:  # the hand is fine; the format has no words for it
                err.write(f"hand {rec.hand_id}: cannot be written as {to}: {e.message}\n")
                code |= EXIT_UNWRITABLE
            except (HandHistoryError, Stud8Error, ValueError) as e:
                err.write(f"hand {rec.hand_id}: cannot be written as {to}: {e}\n")
                code |= EXIT_MISMATCH
    except HandHistoryError as e:
        err.write(f"{e}\n")
        return code | EXIT_UNREADABLE
    if texts:
        out.write(writer.join(texts))
    return code


# -------------------------------------------------------------------------- show
def show(path: Path, out: TextIO, err: TextIO, *, last: int, seat: int | None) -> int:
    """``stud8 hh show``: the last hands played, as PokerStars text from the
    player's seat (the seat named "You" in hands saved by ``stud8 play``)."""
    if not path.exists():
        err.write(f"no hands saved yet ({path} does not exist): play some with `stud8 play`\n")
        return 1
    records: list[HandRecord] = []
    try:
        for item in load_records(path):
            if isinstance(item, HandRecord):
                records.append(item)
            else:  # a hand that cannot be read: say so, never skip it in silence
                err.write(f"{item}\n")
    except HandHistoryError as e:
        err.write(f"{e}\n")
        return 1
    if not records:
        err.write(f"no hands in {path}\n")
        return 1
    for rec in records[-last:]:
        viewer = seat
        if viewer is None:
            viewer = next((s for s, name in rec.names.items() if name == "You"), None)
        out.write(to_pokerstars(rec, seat=viewer) + "\n\n\n")
    return 0
