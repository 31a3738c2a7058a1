"""The hand-history formats stud8 reads and writes, in one registry.

A :class:`Reader` says whether a text is in its format (:attr:`Reader.sniff`),
checks every hand of it against the engine (:attr:`Reader.check`, one
:class:`HandCheck` a hand) and turns its hands into stud8 records
(:attr:`Reader.records`). A :class:`Writer` writes records in its format.
``stud8 hh verify`` and ``stud8 hh convert`` go through this registry only, so a
new site's format is one module with a ``READER`` (and a ``WRITER`` if we write it)
named in :data:`READER_MODULES` / :data:`WRITER_MODULES`:

>>> [r.name for r in readers()][-3:]
['pokerstars', 'phh', 'json']
>>> [r.name for r in readers()][0]
'fulltilt'
>>> reader_for('{"v": 1}').name, reader_for('variant = "F7S/8"').name
('json', 'phh')
>>> sorted(writers())
['json', 'phh', 'pokerstars']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from stud8.formats import HandHistoryError

if TYPE_CHECKING:  # the formats' modules import this one
    from stud8.formats.record import HandRecord

__all__ = [
    "READER_MODULES",
    "WRITER_MODULES",
    "HandCheck",
    "Reader",
    "Status",
    "View",
    "Writer",
    "read_text",
    "reader_for",
    "readers",
    "writers",
]

#: The modules that hold a ``READER`` (or several, ``READERS``), in the order their
#: formats are tried: the other sites' first (their text may mention PokerStars).
READER_MODULES = (
    "stud8.formats.site_readers",
    "stud8.formats.pokerstars.record",
    "stud8.formats.phh.verify",
    "stud8.formats.record",
)
#: The modules that hold a ``WRITER``.
WRITER_MODULES = (
    "stud8.formats.pokerstars.record",
    "stud8.formats.phh.verify",
    "stud8.formats.record",
)


class Status(Enum):
    """What became of one hand."""

    REPRODUCED = "reproduced"  # the engine plays it exactly as the file tells it
    MISMATCHED = "mismatched"  # it departs from the engine (the detail says where)
    SKIPPED = "skipped"  # another game, or a cancelled hand
    UNREADABLE = "unreadable"  # the file, or the hand's text, cannot be read
    TAMPERED = "tampered"  # a stud8 record whose stored events contradict its replay


@dataclass(frozen=True, slots=True)
class HandCheck:
    """One hand's outcome (or a whole file's, when it cannot be read at all)."""

    status: Status
    file: str
    line: int | None = None
    hand_id: str = ""
    detail: str = ""
    #: The whole file cannot be read (missing, not a hand history...): no hand in it.
    whole_file: bool = False

    @property
    def where(self) -> str:
        """``file:line: hand N`` (as much of it as is known)."""
        place = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{place}: hand {self.hand_id}" if self.hand_id else place


@dataclass(frozen=True, slots=True)
class Reader:
    """A format stud8 reads. ``site`` names who writes it (the summary's column)."""

    name: str
    site: str
    sniff: Callable[[str], bool]
    check: Callable[[str, str], Iterator[HandCheck]]  # (text, file name)
    records: Callable[[str, str], Iterator[HandRecord | HandHistoryError]]
    #: The seat whose down cards the file shows (a player's own history), if any.
    hero: Callable[[str], int | None] | None = None
    #: What a conversion should say of the file's hands (``hh convert`` prints them).
    notes: Callable[[str, str], list[str]] | None = None


@dataclass(frozen=True, slots=True)
class View:
    """Whose view a hand is written in: ``seat`` (a player's; None with
    ``everything`` False: an observer's), or every card."""

    seat: int | None = None
    everything: bool = True


@dataclass(frozen=True, slots=True)
class Writer:
    """A format stud8 writes: one hand (``write``), and the hands of one file
    (``join``, which frames them as the format wants)."""

    name: str
    write: Callable[[HandRecord, View], str]
    join: Callable[[Sequence[str]], str]


@cache
def readers() -> tuple[Reader, ...]:
    """The formats stud8 reads, in the order they are tried."""
    out: list[Reader] = []
    for name in READER_MODULES:
        module = importlib.import_module(name)
        out.extend(getattr(module, "READERS", None) or (module.READER,))
    return tuple(out)


@cache
def writers() -> dict[str, Writer]:
    """The formats stud8 writes, by name."""
    out = {}
    for module in WRITER_MODULES:
        writer: Writer = importlib.import_module(module).WRITER
        out[writer.name] = writer
    return out


def reader_for(text: str) -> Reader:
    """The reader of a text's format; :class:`HandHistoryError` if none knows it."""
    for reader in readers():
        if reader.sniff(text):
            return reader
    names = ", ".join(r.site for r in readers())
    raise HandHistoryError(f"cannot tell the format: not a hand history stud8 reads ({names})")


#: The largest file read (a hand history of this size holds millions of hands).
MAX_FILE_BYTES = 1 << 30


def read_text(path: str | Path) -> str:
    """A file's text, whatever its encoding (UTF-8 or UTF-16, with or without a
    byte-order mark, else Windows-1252); :class:`HandHistoryError` if it cannot
    be read."""
    from stud8.formats.sites._text import decode  # (the sites import the formats)

    name = str(path)
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            raise HandHistoryError(f"too large ({size} bytes)", file=name)
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise HandHistoryError("is a directory, not a file", file=name) from None
    except OSError as e:
        raise HandHistoryError(f"cannot read it: {e.strerror or e}", file=name) from None
    return decode(data)
