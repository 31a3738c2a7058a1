"""The accounts' guard: how often an address may sign up, and how many wrong
passwords an account and an address may send, before they are refused for a while.

Failed log-ins are counted per account (``login_failures``, default 5 a minute) and
per address (``address_failures``, default 20 in 15 minutes). Past either limit a
log-in is refused with 429 and ``Retry-After`` (the seconds until the oldest failure
counted ages out) *before* the password is checked, so nothing more is learnt (an
attempt counts from when it is made, and is taken back if the password was right).
The real owner of an attacked account is not shut out for long: an account's
refusal lasts at most ``login_period`` (a minute), and it does not apply at all
from an address he has logged in from before (where only the address's limit
applies). Sign-ups are counted per address (``signups``, default 5 an hour), and so are
the files sent to the hand replayer (``replay_files``, default 30 a minute) and the
hands its equity is asked of (``equity_requests``, default 60 a minute).
Invitation codes tried (a private table's, :mod:`stud8.server.http.invitations`)
are limited as log-ins are: per account and per address, with the same numbers,
and a code that works is not counted; so a code cannot be found by guessing. The
refusals are logged (``stud8.server.guard``), once each time a limit is reached, so
the operator sees an attack without a line per attempt.

:class:`Guard` counts in this process. A room on several nodes counts in Redis
instead (:class:`stud8.server.http.sharedguard.SharedGuard`, the same limits), so
that spreading the attempts over N nodes does not give an attacker N times as many;
both are an :class:`AccountGuard`.

>>> import asyncio
>>> from stud8.server.settings import Settings
>>> t = [0.0]
>>> guard = Guard(Settings(login_failures=2), now=lambda: t[0])
>>> attempt = lambda name, address: asyncio.run(guard.login_attempt(name, address))
>>> attempt("ann", "10.0.0.9"), attempt("ANN", "10.0.0.8")
(0.0, 0.0)
>>> attempt("ann", "10.0.0.7")
60.0
>>> t[0] = 30.0; attempt("ann", "10.0.0.7")
30.0
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

from stud8.server.edge.ratelimit import Throttle
from stud8.server.settings import Settings

__all__ = ["AccountGuard", "Guard"]

log = logging.getLogger("stud8.server.guard")

KNOWN_ADDRESSES = 100_000  # (account, address) pairs that logged in, remembered


class AccountGuard(Protocol):
    """What the accounts' endpoints ask before and after a log-in or a sign-up."""

    async def login_attempt(self, name: str, address: str) -> float: ...

    async def login_undone(self, name: str, address: str) -> None: ...

    async def login_succeeded(self, name: str, address: str) -> None: ...

    async def signup_attempt(self, address: str) -> float: ...

    async def signup_failed(self, address: str) -> None: ...

    def replay_attempt(self, address: str) -> float: ...

    def equity_attempt(self, address: str) -> float: ...

    async def code_attempt(self, account: str, address: str) -> float: ...

    async def code_worked(self, account: str, address: str) -> None: ...


class Guard:
    """The limits on log-ins and sign-ups of one room, counted in this process (see
    the module)."""

    def __init__(self, settings: Settings, *, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._accounts = Throttle(settings.login_failures, settings.login_period, now=now)
        self._addresses = Throttle(settings.address_failures, settings.address_period, now=now)
        self._signups = Throttle(settings.signups, settings.signup_period, now=now)
        self._replays = Throttle(settings.replay_files, settings.replay_period, now=now)
        self._equities = Throttle(settings.equity_requests, settings.equity_period, now=now)
        self._known: dict[tuple[str, str], float] = {}  # (account, address): last log-in
        self._code_accounts = Throttle(settings.login_failures, settings.login_period, now=now)
        self._code_addresses = Throttle(settings.address_failures, settings.address_period, now=now)

    # ------------------------------------------------------------ log-ins
    # An attempt counts as a failure from the moment it is made (and is taken back
    # if the password was right): a burst of attempts at once, all checking their
    # passwords together, cannot slip past the limit before the first has failed.
    async def login_attempt(self, name: str, address: str) -> float:
        """0.0 if ``address`` may try a password for ``name`` now (the attempt is
        counted), else the seconds to wait."""
        key = name.casefold()
        known = (key, address) in self._known
        wait = max(self._addresses.wait(address), 0.0 if known else self._accounts.wait(key))
        if wait:
            log.debug("log-in for %r from %s refused: too many wrong passwords", name, address)
            return wait
        self._addresses.note(address)
        if not known:  # from a known address only the address's limit applies
            self._accounts.note(key)
        if not known and self._accounts.wait(key):
            log.warning(
                "log-in: %d attempts for %r in %.0f s (the last from %s): refused for up "
                "to %.0f s, but from the addresses it logged in from before",
                self._accounts.limit,
                name,
                self._accounts.period,
                address,
                self._accounts.period,
            )
        if self._addresses.wait(address):
            log.warning(
                "log-in: %d attempts from %s in %.0f s (the last for %r): the address is "
                "refused for up to %.0f s",
                self._addresses.limit,
                address,
                self._addresses.period,
                name,
                self._addresses.period,
            )
        return 0.0

    async def login_undone(self, name: str, address: str) -> None:
        """The attempt could not be checked (the database was busy): it does not count."""
        key = name.casefold()
        if (key, address) not in self._known:
            self._accounts.unnote(key)
        self._addresses.unnote(address)

    async def login_succeeded(self, name: str, address: str) -> None:
        """The password was right: the attempt is not a failure, the address known."""
        key = name.casefold()
        await self.login_undone(name, address)
        if len(self._known) >= KNOWN_ADDRESSES:
            for pair in list(self._known)[: KNOWN_ADDRESSES // 10]:
                del self._known[pair]
        self._known.pop((key, address), None)
        self._known[(key, address)] = self._now()

    # ------------------------------------------------------------ sign-ups
    async def signup_attempt(self, address: str) -> float:
        """0.0 if ``address`` may open an account now (counted), else the seconds to wait."""
        wait = self._signups.wait(address)
        if wait:
            log.debug("sign-up from %s refused: too many", address)
            return wait
        self._signups.note(address)
        if self._signups.wait(address):
            log.warning(
                "sign-up: %d accounts from %s in %.0f s: no more from there for up to %.0f s",
                self._signups.limit,
                address,
                self._signups.period,
                self._signups.period,
            )
        return 0.0

    async def signup_failed(self, address: str) -> None:
        """No account was made (a bad name, a name taken): the attempt does not count."""
        self._signups.unnote(address)

    # ------------------------------------------------------------ the replayer's files
    def replay_attempt(self, address: str) -> float:
        """0.0 if ``address`` may send the replayer a file now (counted), else the
        seconds to wait (each file is read and replayed: work for the room)."""
        return _attempt(self._replays, address, "a file for the replayer from %s")

    def equity_attempt(self, address: str) -> float:
        """0.0 if ``address`` may ask the replayer's equity of a hand now (counted),
        else the seconds to wait (a street not asked before is counted: seconds of a
        core)."""
        return _attempt(self._equities, address, "the equity of a hand for %s")

    # ------------------------------------------------------------ invitation codes
    async def code_attempt(self, account: str, address: str) -> float:
        """0.0 if ``account`` may try an invitation code from ``address`` now (the
        attempt is counted), else the seconds to wait."""
        key = account.casefold()
        wait = max(self._code_accounts.wait(key), self._code_addresses.wait(address))
        if wait:
            log.debug("invitation code from %r at %s refused: too many", account, address)
            return wait
        self._code_accounts.note(key)
        self._code_addresses.note(address)
        if self._code_accounts.wait(key) or self._code_addresses.wait(address):
            log.warning(
                "invitation codes: too many tried by %r or from %s: refused for a while",
                account,
                address,
            )
        return 0.0

    async def code_worked(self, account: str, address: str) -> None:
        """The code admitted him (or could not be checked): the attempt does not count."""
        self._code_accounts.unnote(account.casefold())
        self._code_addresses.unnote(address)


def _attempt(throttle: Throttle, address: str, what: str) -> float:
    """0.0 if ``address`` may do one more of what ``throttle`` counts (counted), else
    the seconds to wait (``what``: the refusal's words for the log, %s the address)."""
    wait = throttle.wait(address)
    if wait:
        log.debug(what + " refused: too many", address)
        return wait
    throttle.note(address)
    return 0.0
