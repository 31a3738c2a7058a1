"""Private tables' invitations: each table's code, and the accounts it admitted.

A private table (``TableSpec.private``) is seen, watched and played only by the
accounts admitted to it, and by operators. Its creator is admitted when it opens,
and gets an **invitation code** (``secrets.token_urlsafe``: 128 random bits, so a
code cannot be guessed; the room also limits how often one may be tried,
:mod:`stud8.server.http.guard`). Whoever redeems the code is admitted for good:
he keeps his access when the creator renews the code (the old one stops working)
or revokes it (no code works until a new one is made). A closed table's code is
revoked.

Two keepers with the same calls (blocking; the web app runs them in a worker
thread): :class:`StoredInvitations` on the room's database (``table_invitations``
and ``table_guests``: every node of a room sees the same), and
:class:`MemoryInvitations` for a room in memory.

>>> book = MemoryInvitations(new_code=iter(["c1", "c2"]).__next__)
>>> book.invite("t9", "ann")
'c1'
>>> book.redeem("c1", "bob"), book.redeem("nope", "cy")
('t9', None)
>>> book.renew("t9"), book.redeem("c1", "cy"), sorted(book.admitted("bob"))
('c2', None, ['t9'])
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from stud8.server.storage.db import reads_of
from stud8.server.storage.models import TableGuest, TableInvitation

__all__ = [
    "CODE_BYTES",
    "Invitation",
    "Invitations",
    "MemoryInvitations",
    "StoredInvitations",
    "new_code",
]

CODE_BYTES = 16  # 128 random bits: a code is 22 URL-safe characters


def new_code() -> str:
    """A fresh invitation code (URL-safe: it goes in a link)."""
    return secrets.token_urlsafe(CODE_BYTES)


@dataclass(frozen=True, slots=True)
class Invitation:
    """A private table's invitation: who opened the table, and its code (None: revoked)."""

    table_id: str
    creator: str
    code: str | None


class Invitations(Protocol):
    """The invitations of a room's private tables (see the module). Blocking calls."""

    def invite(self, table_id: str, creator: str) -> str:
        """A new private table: its creator is admitted; its first code."""
        ...

    def invitation(self, table_id: str) -> Invitation | None:
        """The table's invitation, or None (not a private table of this room)."""
        ...

    def renew(self, table_id: str) -> str:
        """A new code for the table (the old one no longer admits anybody)."""
        ...

    def revoke(self, table_id: str) -> None:
        """No code admits anybody to the table (those admitted keep their access)."""
        ...

    def redeem(self, code: str, account: str) -> str | None:
        """Admit ``account`` to the table of ``code``: its id, or None if no table has it."""
        ...

    def admitted(self, account: str) -> frozenset[str]:
        """The private tables ``account`` was admitted to (closed ones too)."""
        ...


class MemoryInvitations:
    """The invitations of a room in memory (see the module)."""

    def __init__(self, *, new_code: Callable[[], str] = new_code) -> None:
        self._new_code = new_code
        self._lock = threading.Lock()  # called from worker threads
        self._tables: dict[str, Invitation] = {}
        self._codes: dict[str, str] = {}  # code: table id
        self._guests: dict[str, set[str]] = {}  # account: table ids

    def invite(self, table_id: str, creator: str) -> str:
        with self._lock:
            self._tables[table_id] = Invitation(table_id, creator, None)
            self._guests.setdefault(creator, set()).add(table_id)
        return self.renew(table_id)

    def invitation(self, table_id: str) -> Invitation | None:
        return self._tables.get(table_id)

    def renew(self, table_id: str) -> str:
        code = self._new_code()
        with self._lock:
            old = self._tables[table_id]
            self._codes.pop(old.code or "", None)
            self._tables[table_id] = Invitation(table_id, old.creator, code)
            self._codes[code] = table_id
        return code

    def revoke(self, table_id: str) -> None:
        with self._lock:
            old = self._tables.get(table_id)
            if old is not None:
                self._codes.pop(old.code or "", None)
                self._tables[table_id] = Invitation(table_id, old.creator, None)

    def redeem(self, code: str, account: str) -> str | None:
        with self._lock:
            table_id = self._codes.get(code)
            if table_id is not None:
                self._guests.setdefault(account, set()).add(table_id)
            return table_id

    def admitted(self, account: str) -> frozenset[str]:
        with self._lock:
            return frozenset(self._guests.get(account, ()))


class StoredInvitations:
    """The invitations in the room's database (see the module)."""

    def __init__(self, engine: Engine, *, new_code: Callable[[], str] = new_code) -> None:
        self.engine = engine
        self._reads = reads_of(engine)  # lookups take no lock (see reads_of)
        self._new_code = new_code

    def invite(self, table_id: str, creator: str) -> str:
        code = self._new_code()
        with self.engine.begin() as conn:
            conn.execute(
                insert(TableInvitation).values(table_id=table_id, creator=creator, code=code)
            )
            conn.execute(insert(TableGuest).values(table_id=table_id, account=creator))
        return code

    def invitation(self, table_id: str) -> Invitation | None:
        query = select(TableInvitation.creator, TableInvitation.code).where(
            TableInvitation.table_id == table_id
        )
        with self._reads.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else Invitation(table_id, row.creator, row.code)

    def renew(self, table_id: str) -> str:
        code = self._new_code()
        self._set_code(table_id, code)
        return code

    def revoke(self, table_id: str) -> None:
        self._set_code(table_id, None)

    def _set_code(self, table_id: str, code: str | None) -> None:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(TableInvitation)
                .where(TableInvitation.table_id == table_id)
                .values(code=code)
            )
            if done.rowcount == 0:
                raise KeyError(table_id)

    def redeem(self, code: str, account: str) -> str | None:
        query = select(TableInvitation.table_id).where(TableInvitation.code == code)
        with self.engine.begin() as conn:
            table_id = conn.execute(query).scalar()
            if table_id is None:
                return None
            known = select(TableGuest.id).where(
                TableGuest.table_id == table_id, TableGuest.account == account
            )
            if conn.execute(known).first() is None:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(TableGuest).values(table_id=table_id, account=account))
                except IntegrityError:  # admitted at the same moment by another request
                    pass
            return str(table_id)

    def admitted(self, account: str) -> frozenset[str]:
        query = select(TableGuest.table_id).where(TableGuest.account == account)
        with self._reads.connect() as conn:
            return frozenset(conn.execute(query).scalars())
