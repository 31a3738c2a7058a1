"""The room's database: tables (:mod:`.models`), engines (:mod:`.db`) and the
Alembic migrations (:func:`upgrade`)."""

from stud8.server.storage.db import DEFAULT_URL, create_engine_for, normalize_url, upgrade
from stud8.server.storage.models import Account, Base, Entry, Transaction

__all__ = [
    "DEFAULT_URL",
    "Account",
    "Base",
    "Entry",
    "Transaction",
    "create_engine_for",
    "normalize_url",
    "upgrade",
]
