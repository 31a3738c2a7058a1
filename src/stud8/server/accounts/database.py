"""The :class:`~stud8.server.accounts.auth.Auth` protocol over the database accounts.

:class:`AccountsAuth` adapts :class:`~stud8.server.accounts.accounts.Accounts` (blocking
SQLAlchemy calls, argon2id hashes) to what the web layer needs: every call runs
in a worker thread, never on the event loop; those that hash a password
(registering, logging in) in a small pool of their own (:data:`HASH_WORKERS`
threads), so a burst of sign-ups uses the cores without piling up argon2's
memory or starving the other calls of threads. A refusal is the
:class:`~stud8.server.accounts.accounts.AccountError` the accounts raised (each is of
one of the kinds the app answers: a taken name a ``NameTakenError``, a wrong password
or a ban a ``LoginRefusedError``, a bad name or password an
``InvalidCredentialsError``, an unknown name a ``NoSuchAccountError``), and a
:class:`~stud8.server.accounts.accounts.Player` becomes an
:class:`~stud8.server.accounts.auth.Account` (operator when his role is ``operator``).

Nobody becomes an operator by registering: operators are made by the room's
operator (``stud8 admin create-operator``, or named in ``STUD8_OPERATORS`` and
created at the start with a one-time password: :func:`stud8.server.runtime.open_room`).
Names that look like the room's bots (``bot`` followed by digits) are refused: the
bots' chips live in bank accounts of those names.

>>> import asyncio, tempfile
>>> from argon2 import PasswordHasher
>>> from stud8.server.accounts.accounts import Accounts
>>> from stud8.server.books.ledger import Ledger, bank
>>> from stud8.server.storage import create_engine_for, upgrade
>>> engine = create_engine_for(f"sqlite:///{tempfile.mkdtemp()}/room.db")
>>> upgrade(engine)
>>> ledger = Ledger(engine)
>>> accounts = Accounts(engine, ledger, hasher=PasswordHasher(time_cost=1, memory_cost=64))
>>> auth = AccountsAuth(accounts)
>>> asyncio.run(auth.register("ann", "correct horse"))
Account(name='ann', operator=False)
>>> accounts.register("root", "correct horse", role="operator").is_operator
True
>>> token = asyncio.run(auth.login("ann", "correct horse"))
>>> asyncio.run(auth.account_for_token(token))
Account(name='ann', operator=False)
>>> ledger.balance(bank("ann"))
10000
>>> engine.dispose()
"""

from __future__ import annotations

import asyncio
import functools
import os
import re
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from stud8.server.accounts.accounts import Accounts, NameTakenError, Player
from stud8.server.accounts.auth import Account

P = ParamSpec("P")
T = TypeVar("T")

# one hash per core at a time: argon2 is CPU and memory bound
HASH_WORKERS = max(1, min(4, os.cpu_count() or 1))
BOT_NAME = re.compile(r"bot\d+", re.IGNORECASE)


def _account(player: Player) -> Account:
    return Account(player.name, player.is_operator)


class AccountsAuth:
    """:class:`~stud8.server.accounts.auth.Auth` over the database :class:`Accounts`."""

    def __init__(self, accounts: Accounts, *, hash_workers: int = 0) -> None:
        self.accounts = accounts
        self._hashing = ThreadPoolExecutor(
            max_workers=hash_workers or HASH_WORKERS, thread_name_prefix="stud8-hash"
        )

    async def _call(self, method: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return await asyncio.to_thread(method, *args, **kwargs)

    async def _hashing_call(self, method: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._hashing, functools.partial(method, *args, **kwargs))

    async def register(self, name: str, password: str) -> Account:
        if isinstance(name, str) and BOT_NAME.fullmatch(name):
            raise NameTakenError(f"the name {name!r} is taken (by a bot)")
        player = await self._hashing_call(self.accounts.register, name, password)
        return _account(player)

    async def login(self, name: str, password: str) -> str:
        return await self._hashing_call(self.accounts.login, name, password)

    async def logout(self, token: str) -> None:
        await self._call(self.accounts.logout, token)

    async def account_for_token(self, token: str) -> Account | None:
        player = await self._call(self.accounts.player_for_token, token)
        return None if player is None else _account(player)

    async def change_password(self, name: str, old: str, new: str) -> None:
        await self._hashing_call(self.accounts.change_password, name, old, new)

    async def ban(self, name: str) -> Account:
        return _account(await self._call(self.accounts.ban, name))

    async def live_tokens(self, tokens: Iterable[str]) -> set[str]:
        return await self._call(self.accounts.live_tokens, list(tokens))

    async def banned(self, names: Iterable[str]) -> set[str]:
        return await self._call(self.accounts.banned, list(names))

    async def find(self, name: str) -> Account | None:
        player = await self._call(self.accounts.get, name)
        return None if player is None else _account(player)
