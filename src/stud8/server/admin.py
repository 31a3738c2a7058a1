"""Operator commands on the room's database (``stud8 admin ...``).

``stud8 admin audit [--database URL]`` checks the chip ledger
(:meth:`stud8.server.books.ledger.Ledger.audit`): every transaction balanced, every
cached balance equal to its entries, nothing negative, every pot empty, and the
chips issued equal to the chips held (banks + tables + rake). It prints the report
and exits 0 if the books balance, 1 if not, 2 if the database has no schema.
It only reads.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import make_url

from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import AuditReport, Ledger
from stud8.server.storage import create_engine_for
from stud8.server.storage.db import current_revision


class NoSchemaError(RuntimeError):
    """The database was never migrated (no room ever ran on it)."""


def audit(url: str) -> tuple[AuditReport, int]:
    """The ledger's audit of the database at ``url``, and how many hands are
    still noted as in progress (a running server's, or a dead one's until the
    next start recovers them)."""
    parsed = make_url(url)
    file = parsed.database if parsed.get_backend_name() == "sqlite" else None
    if file not in (None, "", ":memory:") and not Path(str(file)).exists():  # do not create it
        raise NoSchemaError(f"there is no database file {file}")
    engine = create_engine_for(url)
    try:
        if current_revision(engine) is None:
            raise NoSchemaError(f"{url} has no stud8 schema (no room has run on it)")
        return Ledger(engine).audit(), len(HandStore(engine).in_progress())
    finally:
        engine.dispose()


def run_audit(url: str) -> int:
    """``stud8 admin audit``: print the report; the exit code."""
    try:
        report, unfinished = audit(url)
    except NoSchemaError as exc:
        print(f"audit: {exc}")
        return 2
    print(report)
    if unfinished:
        print(f"{unfinished} hand(s) in progress or unfinished (recovered at the next start)")
    return 0 if report.ok else 1
