"""Hand histories: the native record, PokerStars text and PHH.

- :mod:`stud8.formats.record`: :class:`~stud8.formats.record.HandRecord`, everything
  about one finished hand, stored losslessly as one JSON line
  (:mod:`stud8.formats.jsonlog` holds the JSON codec).
- PokerStars Seven Card Stud Hi/Lo text: :mod:`stud8.formats.pokerstars` (the hands
  as a file tells them), :mod:`stud8.formats.pokerstars.read` (the reader) and
  :mod:`stud8.formats.pokerstars.write` (the writer).
- :mod:`stud8.formats.verify`: replays a PokerStars hand through the engine and
  says whether it reproduces, or exactly where it departs.

This module holds only the error the readers and writers of the layer raise, so
that importing it stays cheap and every module of the layer can use it.
"""

from __future__ import annotations

from stud8.core.errors import Stud8Error

__all__ = ["HandHistoryError", "ReplayError", "TamperedRecordError", "UnwritableError"]


class HandHistoryError(Stud8Error):
    """A hand history that cannot be read or written: names the file and line.

    >>> str(HandHistoryError("not JSON", file="hands.jsonl", line=3))
    'hands.jsonl:3: not JSON'
    >>> isinstance(HandHistoryError("x"), ValueError)
    True
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None) -> None:
        where = ""
        if file is not None:
            where = f"{file}:{line}: " if line is not None else f"{file}: "
        elif line is not None:
            where = f"line {line}: "
        super().__init__(where + message)
        self.message = message
        self.file = file
        self.line = line


class ReplayError(HandHistoryError):
    """A hand that was read but does not reproduce in the engine (it departs from
    the rules, or from its own amounts): the message says where."""


class TamperedRecordError(ReplayError):
    """A stud8 hand record whose decisions replay, but whose stored events, pots,
    rake or final stacks contradict the replay (a card or an award changed after
    it was written): ``stud8 hh verify`` reports it as tampered."""


class UnwritableError(HandHistoryError):
    """A hand that reproduces but that a format cannot express (PHH's stud variants
    are fixed-limit: a pot- or no-limit hand has no PHH): nothing is wrong with the
    hand, ``stud8 hh convert`` says so with its own exit code."""
