"""The cards the room dealt, read back from its stored hands for the fairness report
(``stud8 admin rng-report --database URL``, :mod:`stud8.tools.fairness`).

Each stored record holds the whole deck of its hand and every card dealt, by seat and
street (:class:`~stud8.formats.record.HandRecord`). They are read table by table, each
table's hands in the order it dealt them (the order they were stored), so that
consecutive hands of a table are consecutive deals; a hand cancelled by a restart
has no record and is counted apart.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from sqlalchemy import Engine, func, select

from stud8.server.storage.db import reads_of
from stud8.server.storage.models import StoredHand

__all__ = ["StoredDeals", "count_stored", "stored_deals"]

_READ_AT_ONCE = 1000  # rows fetched from the database at a time


@dataclass(frozen=True, slots=True)
class StoredDeals:
    """How many stored hands have a record (``hands``) and how many have none."""

    hands: int
    without_record: int


def count_stored(engine: Engine) -> StoredDeals:
    with reads_of(engine).connect() as conn:
        with_record = conn.scalar(
            select(func.count()).select_from(StoredHand).where(StoredHand.record.is_not(None))
        )
        every = conn.scalar(select(func.count()).select_from(StoredHand))
    return StoredDeals(int(with_record or 0), int(every or 0) - int(with_record or 0))


def stored_deals(engine: Engine) -> Generator[tuple[str, str], None, None]:
    """(table, record's JSON) of every stored hand with a record, table by table, each
    table's in the order stored; read a thousand rows at a time (the fairness report
    decodes of each only its deck and its cards dealt)."""
    query = (
        select(StoredHand.table_id, StoredHand.record)
        .where(StoredHand.record.is_not(None))
        .order_by(StoredHand.table_id, StoredHand.id)
        .execution_options(yield_per=_READ_AT_ONCE)
    )
    # the rows' cursor closed however the reading ends (a reader that stops early
    # leaves PostgreSQL's server-side cursor open otherwise)
    with reads_of(engine).connect() as conn, conn.execute(query) as rows:
        for table, text in rows:
            if text is not None:  # (the query's own condition)
                yield str(table), text
