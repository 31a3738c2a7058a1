"""Where each log-in session was last seen from, kept in the database for every node.

A node knows only the addresses of the websockets open on it; the operator's console
on any node must show every address of an account (``GET /api/v1/admin/accounts/{name}``).
So the session's row keeps its client's ``address`` (and ``seen_at``): written at its
log-in, and again when one of its websockets opens from another address. A node
remembers what it wrote last for each session (:data:`REMEMBERED` at most), so a
player's reconnections from where he was cost no write for :data:`REWRITE_SECONDS`
(then it is written again: another node may have written another address for the
session since, which this one does not know); and it writes what it was
told in batches, one transaction at a time off the event loop (:meth:`flush`), so a
storm of connections is a few writes, not one thread's job each.

A write that fails (the database busy a moment) is logged and dropped: the address
is the operator's information, never a reason to refuse a log-in or a socket.

>>> import asyncio, tempfile
>>> from stud8.server.accounts.accounts import Accounts
>>> from stud8.server.books.ledger import Ledger
>>> from stud8.server.storage import create_engine_for, upgrade
>>> engine = create_engine_for(f"sqlite:///{tempfile.mkdtemp()}/room.db")
>>> upgrade(engine)
>>> accounts = Accounts(engine, Ledger(engine))
>>> _ = accounts.register("ann", "Tr1cky-Ostrich-7")
>>> token = accounts.login("ann", "Tr1cky-Ostrich-7")
>>> now = [0.0]
>>> seen = SessionAddresses(engine, clock=lambda: now[0])
>>> async def twice(address: str) -> list[bool]:
...     noted = [seen.note(token, address), seen.note(token, address)]
...     await seen.flush()
...     return noted + [seen.note(token, address)]
>>> asyncio.run(twice("10.0.0.1")), seen.written
([True, True, False], 1)
>>> asyncio.run(twice("10.0.0.2")), seen.written
([True, True, False], 2)
>>> now[0] += REWRITE_SECONDS  # another node may have written another since
>>> seen.note(token, "10.0.0.2")
True
>>> engine.dispose()
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import Engine, bindparam, update

from stud8.server.accounts.accounts import token_digest
from stud8.server.storage.models import LoginSession

__all__ = ["ADDRESS_CHARS", "REMEMBERED", "REWRITE_SECONDS", "SessionAddresses"]

log = logging.getLogger("stud8.server")

ADDRESS_CHARS = 64  # an IPv6 address with its zone fits
REMEMBERED = 10_000  # sessions whose last address this node remembers
REWRITE_SECONDS = 60.0  # how long what this node wrote is taken as still there


class SessionAddresses:
    """The sessions' last addresses (see the module). :meth:`note` and :meth:`flush`
    are called on the event loop."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.monotonic) -> None:
        self.engine = engine
        self.written = 0  # sessions' addresses written (for the tests and the curious)
        self._clock = clock
        # token digest -> (the address this node wrote last, when)
        self._written: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self._pending: dict[str, str] = {}
        self._writing: asyncio.Future[None] | None = None

    def note(self, token: str, address: str) -> bool:
        """The session of ``token`` was seen from ``address``: to be written (by the
        next :meth:`flush`) unless this node wrote that address for it last, less
        than :data:`REWRITE_SECONDS` ago."""
        digest = token_digest(token)
        address = address[:ADDRESS_CHARS]
        last = self._written.get(digest)
        if last is not None and last[0] == address and self._clock() - last[1] < REWRITE_SECONDS:
            self._written.move_to_end(digest)
            return False
        self._pending[digest] = address
        return True

    async def flush(self) -> None:
        """Write what was noted (in one transaction a batch); return once it is."""
        if self._writing is None or self._writing.done():
            self._writing = asyncio.ensure_future(self._write_pending())
        await asyncio.shield(self._writing)

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, {}
            try:
                await asyncio.to_thread(self._write, batch)
            except Exception as exc:  # the database busy or away: the next time, then
                log.info("%d sessions' addresses were not kept: %r", len(batch), exc)
                continue
            self.written += len(batch)
            now = self._clock()
            for digest, address in batch.items():
                self._written[digest] = (address, now)
                self._written.move_to_end(digest)
            while len(self._written) > REMEMBERED:
                self._written.popitem(last=False)

    def _write(self, batch: dict[str, str]) -> None:
        now = datetime.now(UTC)
        rows = [{"b_digest": d, "b_address": a, "b_seen_at": now} for d, a in batch.items()]
        change = (
            update(LoginSession)
            .where(LoginSession.token_hash == bindparam("b_digest"))
            .values(address=bindparam("b_address"), seen_at=bindparam("b_seen_at"))
        )
        with self.engine.begin() as conn:
            conn.execute(change, rows)
