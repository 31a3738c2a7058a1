"""The open table websockets of each session, account and address: so that a
logout, a change of password or a ban closes them at once, and so that one account
or one address cannot hold more than its share of sockets.

:class:`OpenSockets` is told of each websocket when it is served (its session
token, its account, its address and how to close it) and forgets it when it ends.
The endpoints close a session's or an account's sockets the moment they end it
(:mod:`stud8.server.http.accounts`); :meth:`OpenSockets.sweep`, run every
:data:`SWEEP_SECONDS` by the app, asks the accounts which sessions are still live
and closes the sockets of the others: a ban by ``stud8 admin ban`` or through
another node's console, a session that expired, a logout on another server. A
socket of a banned account is closed as the node that banned him closes it
(:data:`BANNED`, 4403: the client says why and does not ask him to log in again),
any other with :data:`ENDED` (4401).

>>> closed = []
>>> sockets = OpenSockets()
>>> a = sockets.add("tok-a", "Ann", "10.0.0.1", lambda code, why: closed.append(("a", code)))
>>> b = sockets.add("tok-b", "ann", "10.0.0.2", lambda code, why: closed.append(("b", code)))
>>> sockets.of_account("ANN"), sockets.of_address("10.0.0.1")
(2, 1)
>>> sockets.close_session("tok-a", 4401, "logged out"); closed
1
[('a', 4401)]
>>> sockets.close_account("ann", 4403, "banned"); closed
1
[('a', 4401), ('b', 4403)]

The sweep: cal's session ended elsewhere (an expiry), dan was banned by another node:

>>> _ = sockets.add("tok-c", "cal", "10.0.0.3", lambda code, why: closed.append(("c", code)))
>>> _ = sockets.add("tok-d", "Dan", "10.0.0.4", lambda code, why: closed.append(("d", code)))
>>> async def live(tokens): return set()
>>> async def banned(names): return {"dan"} & set(names)
>>> asyncio.run(sockets.sweep(live, banned)); closed[2:]
2
[('c', 4401), ('d', 4403)]
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

__all__ = ["BANNED", "ENDED", "SWEEP_SECONDS", "OpenSocket", "OpenSockets"]

SWEEP_SECONDS = 1.0  # a session ended elsewhere closes its sockets within this
BANNED = (4403, "banned by an operator")  # every socket of a banned account
ENDED = (4401, "the session ended: log in again")  # a session ended elsewhere

log = logging.getLogger("stud8.server")

Close = Callable[[int, str], None]
# the accounts' answer about some tokens or names: those of them that are live, or banned
Names = Callable[[list[str]], Awaitable[set[str]]]


@dataclass(eq=False, slots=True)
class OpenSocket:
    token: str | None  # None: an observer
    account: str | None  # casefolded
    address: str
    close: Close
    closed: bool = field(default=False)
    table_id: str | None = None  # the table it plays or watches (the operator's console)
    name: str | None = None  # the account's name as registered


class OpenSockets:
    """The room's open table websockets (see the module)."""

    def __init__(self) -> None:
        self._all: set[OpenSocket] = set()
        self._by_token: dict[str, set[OpenSocket]] = {}
        self._by_account: dict[str, set[OpenSocket]] = {}
        self._by_address: dict[str, set[OpenSocket]] = {}

    def add(
        self,
        token: str | None,
        account: str | None,
        address: str,
        close: Close,
        table_id: str | None = None,
    ) -> OpenSocket:
        key = account.casefold() if account else None
        socket = OpenSocket(token, key, address, close, table_id=table_id, name=account)
        self._all.add(socket)
        if socket.token is not None:
            self._by_token.setdefault(socket.token, set()).add(socket)
        if socket.account is not None:
            self._by_account.setdefault(socket.account, set()).add(socket)
        self._by_address.setdefault(address, set()).add(socket)
        return socket

    def remove(self, socket: OpenSocket) -> None:
        self._all.discard(socket)
        for index, key in (
            (self._by_token, socket.token),
            (self._by_account, socket.account),
            (self._by_address, socket.address),
        ):
            if key is not None and key in index:
                index[key].discard(socket)
                if not index[key]:
                    del index[key]

    def of_account(self, name: str) -> int:
        return len(self._by_account.get(name.casefold(), ()))

    def watching(self) -> dict[str, tuple[str, set[str]]]:
        """Every account with an open socket: (its name, the tables its sockets are
        at), by case-folded name."""
        found: dict[str, tuple[str, set[str]]] = {}
        for key, sockets in self._by_account.items():
            names = [s.name for s in sockets if s.name]
            tables = {s.table_id for s in sockets if s.table_id is not None}
            found[key] = (names[0] if names else key, tables)
        return found

    def addresses_of(self, name: str) -> list[str]:
        """The addresses of the account's open sockets."""
        return sorted({s.address for s in self._by_account.get(name.casefold(), ())})

    def count(self) -> int:
        """The open table websockets."""
        return len(self._all)

    def of_address(self, address: str) -> int:
        return len(self._by_address.get(address, ()))

    def tokens(self) -> list[str]:
        return list(self._by_token)

    def _close(self, sockets: Iterable[OpenSocket], code: int, reason: str) -> int:
        count = 0
        for socket in list(sockets):
            if not socket.closed:
                socket.closed = True
                count += 1
                with contextlib.suppress(Exception):
                    socket.close(code, reason)
            self.remove(socket)
        return count

    def close_session(self, token: str, code: int, reason: str) -> int:
        """Close every socket opened with ``token``; how many."""
        return self._close(self._by_token.get(token, ()), code, reason)

    def close_account(self, name: str, code: int, reason: str) -> int:
        """Close every socket of the account ``name``; how many."""
        return self._close(self._by_account.get(name.casefold(), ()), code, reason)

    def close_all(self, code: int, reason: str) -> int:
        return self._close(self._all, code, reason)

    async def sweep(self, live_tokens: Names, banned: Names | None = None) -> int:
        """Close the sockets whose session is no longer live (those of an account
        ``banned`` says is banned with :data:`BANNED`, the others :data:`ENDED`);
        how many."""
        tokens = self.tokens()
        if not tokens:
            return 0
        live = await live_tokens(tokens)
        ended = [token for token in tokens if token not in live]
        if not ended:
            return 0
        out: set[str] = set()
        if banned is not None:  # asked only when a session ended: seldom
            accounts = {s.account for t in ended for s in self._by_token.get(t, ()) if s.account}
            out = await banned(sorted(accounts))
        closed = 0
        for token in ended:
            sockets = self._by_token.get(token, set())
            of_banned = any(s.account in out for s in sockets)
            closed += self.close_session(token, *(BANNED if of_banned else ENDED))
        return closed

    async def sweep_regularly(self, live_tokens: Names, banned: Names | None = None) -> None:
        """:meth:`sweep` every :data:`SWEEP_SECONDS` until cancelled."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep(live_tokens, banned)
            except Exception as exc:  # the database may be away a moment: next time
                log.warning(
                    "could not check the open sockets' sessions: %s", exc.__class__.__name__
                )
