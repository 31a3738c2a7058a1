"""An account's private notes on players: a colour tag and a text per player.

A note is its author's alone: every call names the author, and nothing reads a
note by the player it is about, so no account reads another's notes. Two keepers
with the same blocking calls (the web app runs them in a worker thread):
:class:`StoredNotes` on the room's database (``player_notes``: every node of a room
sees the same) and :class:`MemoryNotes` for a room in memory. What a note may hold
is checked before it gets here (:mod:`stud8.server.wire.account`); the keepers
enforce the number of notes an account may keep (``MAX_NOTES``).

>>> book = MemoryNotes()
>>> book.write("ann", PlayerNote("bob", NoteColour.RED, "raises light"))
>>> [n.text for n in book.notes_of("ann")], book.notes_of("bob")
(['raises light'], [])
>>> book.delete("ann", "bob"); book.notes_of("ann")
[]
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Protocol

from sqlalchemy import Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from stud8.server.storage.db import reads_of
from stud8.server.storage.models import PlayerNoteRow
from stud8.server.wire.account import PlayerNote
from stud8.server.wire.limits import MAX_NOTES, NoteColour

__all__ = ["MemoryNotes", "Notes", "StoredNotes", "TooManyNotes"]


class TooManyNotes(ValueError):
    """A note on one more player than an account may keep notes on."""

    def __init__(self) -> None:
        super().__init__(f"you keep notes on {MAX_NOTES} players, the most there may be")


class Notes(Protocol):
    """The room's private notes (see the module). Blocking calls."""

    def notes_of(self, author: str) -> list[PlayerNote]:
        """Every note ``author`` wrote, in player name order."""
        ...

    def write(self, author: str, note: PlayerNote) -> None:
        """Keep ``author``'s note (it replaces his note on the same player);
        :class:`TooManyNotes` for a new one past ``MAX_NOTES``."""
        ...

    def delete(self, author: str, player: str) -> None:
        """Forget ``author``'s note on ``player`` (none: nothing to do)."""
        ...


class MemoryNotes:
    """The notes of a room in memory (see the module)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # called from worker threads
        self._notes: dict[str, dict[str, PlayerNote]] = {}

    def notes_of(self, author: str) -> list[PlayerNote]:
        with self._lock:
            kept = self._notes.get(author, {})
            return [kept[p] for p in sorted(kept)]

    def write(self, author: str, note: PlayerNote) -> None:
        with self._lock:
            kept = self._notes.setdefault(author, {})
            if note.player not in kept and len(kept) >= MAX_NOTES:
                raise TooManyNotes
            kept[note.player] = note

    def delete(self, author: str, player: str) -> None:
        with self._lock:
            self._notes.get(author, {}).pop(player, None)


class StoredNotes:
    """The notes in the room's database (see the module)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reads = reads_of(engine)  # lookups take no lock (see reads_of)

    def notes_of(self, author: str) -> list[PlayerNote]:
        query = (
            select(PlayerNoteRow.player, PlayerNoteRow.colour, PlayerNoteRow.text)
            .where(PlayerNoteRow.author == author)
            .order_by(PlayerNoteRow.player)
        )
        with self._reads.connect() as conn:
            rows = conn.execute(query).all()
        return [
            PlayerNote(row.player, None if row.colour is None else NoteColour(row.colour), row.text)
            for row in rows
        ]

    def write(self, author: str, note: PlayerNote) -> None:
        colour = None if note.colour is None else note.colour.value
        values = {"colour": colour, "text": note.text, "updated_at": datetime.now(UTC)}
        mine = (PlayerNoteRow.author == author, PlayerNoteRow.player == note.player)
        with self.engine.begin() as conn:
            if conn.execute(update(PlayerNoteRow).where(*mine).values(**values)).rowcount:
                return
            count = select(func.count()).where(PlayerNoteRow.author == author)
            if (conn.execute(count).scalar() or 0) >= MAX_NOTES:
                raise TooManyNotes
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(PlayerNoteRow).values(author=author, player=note.player, **values)
                    )
            except IntegrityError:  # written at the same moment by another request
                conn.execute(update(PlayerNoteRow).where(*mine).values(**values))

    def delete(self, author: str, player: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                delete(PlayerNoteRow).where(
                    PlayerNoteRow.author == author, PlayerNoteRow.player == player
                )
            )
