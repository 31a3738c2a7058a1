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


def run_drain(redis_url: str, node: str, *, undo: bool = False, wait: float = 0.0) -> int:
    """``stud8 admin drain NODE``: ask a node of a room on several nodes to hand its
    tables over between hands (:mod:`stud8.server.cluster.node`), or with ``undo``
    to take tables again; with ``wait``, until it runs no table. The exit code."""
    import asyncio

    from redis.asyncio import Redis
    from redis.exceptions import RedisError

    from stud8.server.cluster.nodes import Nodes, cancel_drain, request_drain

    async def main() -> int:
        async with Redis.from_url(redis_url) as redis:
            if undo:
                await cancel_drain(redis, node)
                print(f"node {node} may take tables again")
                return 0
            live = {n.name: n for n in await Nodes(redis, "admin", url="").live()}
            await request_drain(redis, node)
            if node not in live:
                print(f"node {node} is not running now; it will drain when it starts")
                return 0
            print(f"node {node} is draining ({live[node].tables} table(s))")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + wait
            while loop.time() < deadline:
                now = {n.name: n for n in await Nodes(redis, "admin", url="").live()}
                if node not in now or now[node].tables == 0:
                    print(f"node {node} runs no table now")
                    return 0
                await asyncio.sleep(0.5)
            if wait > 0:
                print(f"node {node} still runs tables after {wait:g} s (a hand takes a while)")
                return 1
            return 0

    try:
        return asyncio.run(main())
    except (RedisError, OSError) as exc:
        print(f"drain: cannot reach Redis at {redis_url}: {exc}")
        return 2
