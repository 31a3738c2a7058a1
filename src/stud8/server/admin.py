"""Operator commands on the room's database (``stud8 admin ...``).

``stud8 admin audit [--database URL]`` checks the chip ledger
(:meth:`stud8.server.books.ledger.Ledger.audit`): every transaction balanced, every
cached balance equal to its entries, nothing negative, every pot empty, and the
chips issued equal to the chips held (banks + tables + rake + tournaments' prize
pools and fees); and the books against the hands and the seats
(:mod:`stud8.server.books.consistency`): every finished hand has exactly one
settlement or one refund, each settlement's amounts are its record's and leave each
player's table account at his final stack, and every stored seat has its table
account (and every table account holding chips its seat). It prints the report
(``--json``: as one JSON object)
and exits 0 if the books balance, 1 if not, 2 if the database has no schema.
It only reads, takes no hold, and runs beside a live room.

``stud8 admin migrate`` brings the schema up to date as its own step (one process at
a time: the migration lock); ``stud8 admin backup FILE`` copies the database while
the room serves, and ``stud8 admin restore FILE`` fills an empty database from such a
copy (:mod:`stud8.server.storage.backup`).

``stud8 admin credit/debit/ban/silence/log``, the acts written to the moderation
log, are :mod:`stud8.server.moderate`'s.

``stud8 admin create-operator NAME`` makes an operator's account (the database is
migrated first, so it may come before the first ``stud8 serve``): the password is
asked for twice at a terminal, read from the first line of standard input
otherwise, or made up and printed when that is empty. ``--promote`` makes an
existing account an operator instead. Registering never makes an operator.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from stud8.server.accounts.accounts import AccountError, Accounts
from stud8.server.books.consistency import hands_and_seats
from stud8.server.books.hands import HandStore
from stud8.server.books.ledger import AuditReport, Ledger
from stud8.server.storage import create_engine_for
from stud8.server.storage.backup import BackupError, backup, restore
from stud8.server.storage.db import current_revision, normalize_url, shown_url, upgrade_once
from stud8.server.storage.hold import EXIT_HELD, DatabaseHeld, HoldKind, hold_database

if TYPE_CHECKING:  # the tools extra (numpy, scipy) only when the report runs
    from stud8.tools.fairness.report import FairnessReport
    from stud8.tools.fairness.run import Progress


class NoSchemaError(RuntimeError):
    """The database was never migrated (no room ever ran on it)."""


def audit(url: str) -> tuple[AuditReport, int]:
    """The audit of the database at ``url``: the ledger's, with the books checked
    against the hands and the seats (:mod:`stud8.server.books.consistency`), and how
    many hands are still noted as in progress (a running server's, or a dead one's
    until the next start recovers them)."""
    with room_database(url) as engine:
        report = Ledger(engine).audit()
        more = hands_and_seats(engine)
        report = replace(report, problems=(*report.problems, *more))
        return report, len(HandStore(engine).in_progress())


def run_audit(url: str, *, as_json: bool = False) -> int:
    """``stud8 admin audit``: print the report (``as_json``: as one JSON object, every
    field of the report, ``ok`` and ``unfinished``); the exit code."""
    try:
        report, unfinished = audit(url)
    except NoSchemaError as exc:
        print(json.dumps({"ok": False, "error": str(exc)}) if as_json else f"audit: {exc}")
        return 2
    if as_json:
        fields = dataclasses.asdict(report)
        print(json.dumps({"ok": report.ok, **fields, "unfinished": unfinished}, indent=2))
        return 0 if report.ok else 1
    print(report)
    if unfinished:
        print(f"{unfinished} hand(s) in progress or unfinished (recovered at the next start)")
    return 0 if report.ok else 1


def run_migrate(url: str) -> int:
    """``stud8 admin migrate``: bring the schema up to date, as its own step (before
    starting the new version's rooms). It takes the hold a migration needs (refused
    while a room in one process serves on the database; beside a room's nodes on
    PostgreSQL) and the migration lock (nodes starting meanwhile wait for it). The
    exit code: 0 done, 3 the database is held."""
    try:
        with hold_database(url, HoldKind.MIGRATE):
            engine = create_engine_for(url)
            try:
                before = current_revision(engine)
                upgrade_once(engine)
                after = current_revision(engine)
            finally:
                engine.dispose()
    except DatabaseHeld as exc:
        print(f"migrate: not done: {exc}")
        return EXIT_HELD
    if before == after:
        print(f"migrate: the schema is up to date ({after})")
    else:
        print(f"migrate: the schema went from {before or 'nothing'} to {after}")
    return 0


def run_backup(url: str, file: Path) -> int:
    """``stud8 admin backup FILE``: a consistent copy of the database while the room
    serves (:mod:`stud8.server.storage.backup`). The exit code: 0 done, 1 not."""
    try:
        print(backup(url, file))
    except BackupError as exc:
        print(f"backup: {exc}")
        return 1
    return 0


def run_restore(file: Path, url: str) -> int:
    """``stud8 admin restore FILE``: a backup into an empty database. The exit code:
    0 done, 1 refused (nothing changed), 3 the database is held by a room."""
    try:
        print(restore(file, url))
    except DatabaseHeld as exc:
        print(f"restore: not done: {exc}")
        return EXIT_HELD
    except BackupError as exc:
        print(f"restore refused, nothing changed: {exc}")
        return 1
    return 0


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


@contextmanager
def room_database(url: str) -> Iterator[Engine]:
    """An engine on the room's database (which must have the schema); disposed after."""
    parsed = make_url(normalize_url(url))  # (a URL the room cannot use: DatabaseUrlError)
    file = parsed.database if parsed.get_backend_name() == "sqlite" else None
    if file not in (None, "", ":memory:") and not Path(str(file)).exists():  # do not create it
        raise NoSchemaError(f"there is no database file {file}")
    engine = create_engine_for(url)
    try:
        if current_revision(engine) is None:
            raise NoSchemaError(f"{url} has no stud8 schema (no room has run on it)")
        yield engine
    finally:
        engine.dispose()


def check_keeps_fairness(url: str) -> None:
    """Refuse (:class:`NoSchemaError`), before a long run, a database that cannot keep
    fairness reports: no stud8 schema, or one older than the reports' table (a room
    not yet restarted on this version, which brings it up to date)."""
    from sqlalchemy import inspect

    from stud8.server.storage.models import FairnessReportRow

    with room_database(url) as engine:
        if not inspect(engine).has_table(FairnessReportRow.__tablename__):
            raise NoSchemaError(
                f"{shown_url(url)} keeps no fairness reports yet: start the room on it once "
                "with this version of stud8 (it brings the schema up to date)"
            )


def keep_fairness(url: str, reports: Sequence[dict[str, Any]], run_by: str) -> int:
    """``stud8 admin rng-report --database URL --keep``: the reports kept in the room's
    database, the last one the console's last report on every node; how many."""
    from stud8.server.books.fairness import FairnessReports

    with room_database(url) as engine:
        kept = FairnessReports(engine)
        for report in reports:
            kept.keep(report, run_by)
    return len(reports)


def run_create_operator(
    url: str, name: str, password: Callable[[], str | None], *, promote: bool = False
) -> int:
    """``stud8 admin create-operator``: the exit code (0 made, 1 refused). ``password``
    gives the new account's password (None: make one up and print it)."""
    engine = create_engine_for(url)
    try:
        upgrade_once(engine)
        accounts = Accounts(engine, Ledger(engine))
        found = accounts.get(name)
        if promote:
            if found is None:
                print(f"create-operator: no account {name!r} to promote")
                return 1
            accounts.make_operator(name)
            print(f"{found.name} is now an operator")
            return 0
        if found is not None:
            print(
                f"create-operator: {found.name!r} exists ({found.role}); "
                "--promote makes it an operator"
            )
            return 1
        chosen = password()
        made_up = chosen is None
        if chosen is None:
            chosen = secrets.token_urlsafe(12)
        player = accounts.register(name, chosen, role="operator")
    except AccountError as exc:
        print(f"create-operator refused, nothing changed: {exc}")
        return 1
    finally:
        engine.dispose()
    print(f"operator {player.name} created" + (f", password: {chosen}" if made_up else ""))
    return 0


def rng_report(url: str, *, alpha: float, progress: Progress | None = None) -> FairnessReport:
    """``stud8 admin rng-report --database URL``: the fairness tests on the hands the
    room stored (:mod:`stud8.tools.fairness`); :class:`NoSchemaError` without a room."""
    from stud8.server.books.dealt import count_stored, stored_deals
    from stud8.tools.fairness.run import run_stored

    with room_database(url) as engine:
        stored = count_stored(engine)
        shown = shown_url(normalize_url(url))
        # closed here, before the engine is disposed, even if the report stops early
        # (a record it cannot read): else its connection outlives the pool
        deals = stored_deals(engine)
        with closing(deals):
            return run_stored(
                deals,
                stored.hands,
                description=f"the hands stored in {shown}",
                left_out=stored.without_record,
                alpha=alpha,
                progress=progress,
            )
