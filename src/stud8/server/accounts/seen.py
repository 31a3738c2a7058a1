"""Where each log-in session was last seen from, kept in the database for every node.

A node knows only the addresses of the websockets open on it; the operator's console
on any node must show every address of an account (``GET /api/v1/admin/accounts/{name}``).
So the session's row keeps its client's ``address`` (and ``seen_at``): written at its
log-in, and again when one of its websockets opens from another address. A node
remembers what it wrote last for each session (:data:`REMEMBERED` at most), so a
player's reconnections from where he was cost no write.

A write that fails (the database busy a moment) is logged and dropped: the address
is the operator's information, never a reason to refuse a log-in or a socket.

>>> import tempfile
>>> from stud8.server.accounts.accounts import Accounts
>>> from stud8.server.books.ledger import Ledger
>>> from stud8.server.storage import create_engine_for, upgrade
>>> engine = create_engine_for(f"sqlite:///{tempfile.mkdtemp()}/room.db")
>>> upgrade(engine)
>>> accounts = Accounts(engine, Ledger(engine))
>>> _ = accounts.register("ann", "Tr1cky-Ostrich-7")
>>> token = accounts.login("ann", "Tr1cky-Ostrich-7")
>>> seen = SessionAddresses(engine)
>>> seen.seen(token, "10.0.0.1"), seen.seen(token, "10.0.0.1"), seen.seen(token, "10.0.0.2")
(True, False, True)
>>> engine.dispose()
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from datetime import UTC, datetime

from sqlalchemy import Engine, update

from stud8.server.accounts.accounts import token_digest
from stud8.server.storage.models import LoginSession

__all__ = ["ADDRESS_CHARS", "REMEMBERED", "SessionAddresses"]

log = logging.getLogger("stud8.server")

ADDRESS_CHARS = 64  # an IPv6 address with its zone fits
REMEMBERED = 10_000  # sessions whose last address this node remembers


class SessionAddresses:
    """The sessions' last addresses (see the module)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._written: OrderedDict[str, str] = OrderedDict()  # token digest -> address

    def seen(self, token: str, address: str) -> bool:
        """The session of ``token`` was seen from ``address``: written unless it is
        the address this node wrote last for it; whether it was written."""
        digest = token_digest(token)
        address = address[:ADDRESS_CHARS]
        if self._written.get(digest) == address:
            self._written.move_to_end(digest)
            return False
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    update(LoginSession)
                    .where(LoginSession.token_hash == digest)
                    .values(address=address, seen_at=datetime.now(UTC))
                )
        except Exception as exc:  # the database busy or away: the next time, then
            log.warning("a session's address was not kept: %s", exc.__class__.__name__)
            return False
        self._written[digest] = address
        self._written.move_to_end(digest)
        while len(self._written) > REMEMBERED:
            self._written.popitem(last=False)
        return True
