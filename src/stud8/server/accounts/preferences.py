"""An account's settings (:class:`~stud8.server.wire.account.AccountSettings`), kept
so they follow it from browser to browser.

Two keepers with the same blocking calls: :class:`StoredPreferences` on the room's
database (``account_settings``: one row per account, the settings as JSON, written
and read by msgspec) and :class:`MemoryPreferences` for a room in memory. An
account that never kept any has the defaults.

>>> book = MemoryPreferences()
>>> book.settings_of("ann") == AccountSettings()
True
>>> book.keep("ann", AccountSettings(four_colour=True)); book.settings_of("ann").four_colour
True
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Protocol

import msgspec
from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from stud8.server.storage.db import reads_of
from stud8.server.storage.models import AccountSettingsRow
from stud8.server.wire.account import AccountSettings

__all__ = [
    "KEPT_ACCOUNTS",
    "KeptSettings",
    "MemoryPreferences",
    "Preferences",
    "StoredPreferences",
]

KEPT_ACCOUNTS = 10_000  # accounts whose settings a room in one process keeps at hand


class Preferences(Protocol):
    """The accounts' settings (see the module). Blocking calls."""

    def settings_of(self, account: str) -> AccountSettings:
        """``account``'s settings (the defaults if he kept none)."""
        ...

    def keep(self, account: str, settings: AccountSettings) -> None:
        """Keep ``account``'s settings (they replace his last)."""
        ...


class MemoryPreferences:
    """The settings of a room in memory (see the module)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._settings: dict[str, AccountSettings] = {}

    def settings_of(self, account: str) -> AccountSettings:
        with self._lock:
            return self._settings.get(account, AccountSettings())

    def keep(self, account: str, settings: AccountSettings) -> None:
        with self._lock:
            self._settings[account] = settings


class StoredPreferences:
    """The settings in the room's database (see the module)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reads = reads_of(engine)

    def settings_of(self, account: str) -> AccountSettings:
        query = select(AccountSettingsRow.settings).where(AccountSettingsRow.account == account)
        with self._reads.connect() as conn:
            kept = conn.execute(query).scalar()
        if kept is None:
            return AccountSettings()
        return msgspec.json.decode(kept, type=AccountSettings)

    def keep(self, account: str, settings: AccountSettings) -> None:
        text = msgspec.json.encode(settings).decode()
        values = {"settings": text, "updated_at": datetime.now(UTC)}
        mine = AccountSettingsRow.account == account
        with self.engine.begin() as conn:
            if conn.execute(update(AccountSettingsRow).where(mine).values(**values)).rowcount:
                return
            try:
                with conn.begin_nested():
                    conn.execute(insert(AccountSettingsRow).values(account=account, **values))
            except IntegrityError:  # kept at the same moment by another request
                conn.execute(update(AccountSettingsRow).where(mine).values(**values))


class KeptSettings:
    """The settings of the accounts read lately (the least recently used forgotten).

    A read stores what it read only if nothing was kept for the account meanwhile, and
    a change is kept once it is in the database: a read that began before a change
    and ends after it never leaves the old settings behind.

    >>> kept = KeptSettings(limit=2)
    >>> kept.kept("ann", AccountSettings(sounds=False))
    >>> kept.read("ann", AccountSettings())  # read before the change: not kept
    >>> kept.get("ann").sounds
    False
    """

    def __init__(self, limit: int = KEPT_ACCOUNTS) -> None:
        self._limit = limit
        self._settings: OrderedDict[str, AccountSettings] = OrderedDict()

    def get(self, account: str) -> AccountSettings | None:
        found = self._settings.get(account)
        if found is not None:
            self._settings.move_to_end(account)
        return found

    def read(self, account: str, settings: AccountSettings) -> None:
        """``settings`` were read from the keeper: kept unless a change came first."""
        if account not in self._settings:
            self._store(account, settings)

    def kept(self, account: str, settings: AccountSettings) -> None:
        """``settings`` are the account's now (written)."""
        self._store(account, settings)

    def _store(self, account: str, settings: AccountSettings) -> None:
        self._settings[account] = settings
        self._settings.move_to_end(account)
        while len(self._settings) > self._limit:
            self._settings.popitem(last=False)
