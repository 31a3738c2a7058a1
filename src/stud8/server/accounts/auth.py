"""Accounts as the web layer needs them: register, log in, log out, who a token is.

:class:`Auth` is the protocol the app codes against; :class:`MemoryAuth` keeps the
accounts in memory (the tests' rooms; :class:`~stud8.server.accounts.database.AccountsAuth`
is the room's, on its database). Passwords are kept as salted scrypt hashes; tokens are
random URL-safe strings.

>>> import asyncio
>>> auth = MemoryAuth(operators={"boss": "boss-pw-1"})
>>> asyncio.run(auth.register("ann", "secret-1"))
Account(name='ann', operator=False)
>>> token = asyncio.run(auth.login("ann", "secret-1"))
>>> asyncio.run(auth.account_for_token(token))
Account(name='ann', operator=False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from stud8.server.accounts.accounts import (
    AccountError,
    InvalidCredentialsError,
    LoginRefusedError,
    NameTakenError,
    NoSuchAccountError,
    validate_name,
    validate_password,
)


@dataclass(frozen=True, slots=True)
class Account:
    name: str
    operator: bool = False


class Auth(Protocol):
    """What the app needs of the accounts."""

    async def register(self, name: str, password: str) -> Account:
        """Open an account (with its play chips); AccountError if the name is taken or
        the name or password is not acceptable."""
        ...

    async def login(self, name: str, password: str) -> str:
        """A new session token; AccountError if the name or password is wrong."""
        ...

    async def logout(self, token: str) -> None:
        """End the session (an unknown token is ignored)."""
        ...

    async def account_for_token(self, token: str) -> Account | None:
        """The account a session token belongs to; None if there is none."""
        ...

    async def change_password(self, name: str, old: str, new: str) -> None:
        """Replace the password (``old`` must be right); every session of the account
        ends. AccountError if ``old`` is wrong or ``new`` not acceptable."""
        ...

    async def ban(self, name: str) -> Account:
        """The account may no longer log in; every session of it ends.
        :class:`NoSuchAccountError` if there is none."""
        ...

    async def live_tokens(self, tokens: Iterable[str]) -> set[str]:
        """Those of ``tokens`` whose session is still live (not ended, expired or
        banned): the open websockets of the others are closed."""
        ...

    async def banned(self, names: Iterable[str]) -> set[str]:
        """Those of ``names`` (case-folded) whose account is banned: the sockets of a
        session a ban ended elsewhere are closed saying so (4403), not as a logout."""
        ...

    async def find(self, name: str) -> Account | None:
        """The account of that name (any case), if there is one."""
        ...


def check_credentials(name: str, password: str) -> None:
    """The rules of :mod:`stud8.server.accounts.accounts` (one set for every room)."""
    try:
        validate_name(name)
        validate_password(password, name)
    except AccountError as exc:
        raise InvalidCredentialsError(str(exc)) from None


def _hash(password: str, salt: bytes) -> bytes:
    return hashlib.scrypt(password.encode(), salt=salt, n=2**12, r=8, p=1)


class MemoryAuth:
    """Accounts in memory. ``on_register(name)`` runs for each new account (to give
    it play chips); ``operators`` (name: password) are the operators' accounts,
    made now: nobody becomes an operator by registering."""

    def __init__(
        self,
        *,
        operators: Mapping[str, str] | None = None,
        on_register: Callable[[str], None] | None = None,
    ) -> None:
        self._on_register = on_register
        self._passwords: dict[str, tuple[bytes, bytes]] = {}
        self._accounts: dict[str, Account] = {}
        self._tokens: dict[str, str] = {}
        self._banned: set[str] = set()
        for name, password in (operators or {}).items():
            self.add(name, password, operator=True)

    def add(self, name: str, password: str, *, operator: bool = False) -> Account:
        """A new account now (``register`` is this, for a player)."""
        check_credentials(name, password)
        if name.lower() in (n.lower() for n in self._accounts):
            raise NameTakenError(f"the name {name!r} is taken")
        salt = secrets.token_bytes(16)
        self._passwords[name] = (salt, _hash(password, salt))
        account = Account(name, operator)
        self._accounts[name] = account
        if self._on_register is not None:
            self._on_register(name)
        return account

    async def register(self, name: str, password: str) -> Account:
        return self.add(name, password)

    def _check(self, name: str, password: str) -> str:
        """The account's name as registered, if ``password`` is its password."""
        found = next((n for n in self._accounts if n.casefold() == name.casefold()), None)
        stored = self._passwords.get(found) if found is not None else None
        if stored is None or not hmac.compare_digest(_hash(password, stored[0]), stored[1]):
            raise LoginRefusedError("wrong name or password")
        assert found is not None
        return found

    async def login(self, name: str, password: str) -> str:
        found = self._check(name, password)
        if found in self._banned:
            raise LoginRefusedError("this account is banned")
        token = secrets.token_urlsafe(32)
        self._tokens[token] = found
        return token

    async def logout(self, token: str) -> None:
        self._tokens.pop(token, None)

    async def account_for_token(self, token: str) -> Account | None:
        name = self._tokens.get(token)
        return None if name is None else self._accounts[name]

    def _end_sessions(self, name: str) -> None:
        for token in [t for t, n in self._tokens.items() if n == name]:
            del self._tokens[token]

    async def change_password(self, name: str, old: str, new: str) -> None:
        found = self._check(name, old)
        check_credentials(found, new)
        salt = secrets.token_bytes(16)
        self._passwords[found] = (salt, _hash(new, salt))
        self._end_sessions(found)

    async def ban(self, name: str) -> Account:
        found = next((n for n in self._accounts if n.casefold() == name.casefold()), None)
        if found is None:
            raise NoSuchAccountError(f"no account {name!r}")
        self._banned.add(found)
        self._end_sessions(found)
        return self._accounts[found]

    async def live_tokens(self, tokens: Iterable[str]) -> set[str]:
        return {token for token in tokens if token in self._tokens}

    async def banned(self, names: Iterable[str]) -> set[str]:
        keys = {name.casefold() for name in self._banned}
        return {name.casefold() for name in names} & keys

    async def find(self, name: str) -> Account | None:
        found = next((n for n in self._accounts if n.casefold() == name.casefold()), None)
        return None if found is None else self._accounts[found]
