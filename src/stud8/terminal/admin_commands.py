"""``stud8 admin ...``: the operator's commands on the room (its database, its nodes).

Each imports the server's code only when it runs, so ``stud8 --help`` needs no
server extra.
"""

from __future__ import annotations

import argparse
import sys

from stud8.cli import int_range, show_help
from stud8.terminal.rng_report import add_rng_report

_AT_LEAST_ONE = int_range(1, None)  # chips, minutes, lines: whole, 1 or more


def add_admin(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("admin", help="operator commands on the room's database")
    p.set_defaults(run=lambda _args: show_help(p))
    admin = p.add_subparsers(title="admin commands", metavar="COMMAND")
    a = admin.add_parser(
        "audit",
        help="check that the chip ledger balances (exit 0) or not (exit 1)",
        description="Check the chip ledger: all balances + chips on tables + rake collected "
        "+ tournaments' prize pools and fees = all chips ever issued, every transaction "
        "balanced.",
    )
    _database_flag(a, "database URL (default: STUD8_DATABASE_URL, or sqlite:///stud8.db)")
    a.add_argument(
        "--json", action="store_true", help="the report as one JSON object (for scripts)"
    )
    a.set_defaults(run=_run_admin_audit)
    g = admin.add_parser(
        "migrate",
        help="bring the database's schema up to date (before starting a new version)",
        description="Bring the schema up to date as its own step, one process at a time "
        "(nodes starting meanwhile wait). Refused (exit 3) while a room in one process "
        "serves on the database.",
    )
    _database_flag(g)
    g.set_defaults(run=_run_admin_migrate)
    k = admin.add_parser(
        "backup",
        help="a consistent copy of the database into FILE, while the room serves",
        description="Copy the database into FILE (a new file) while the room serves: "
        "SQLite's online backup, or pg_dump -Fc for PostgreSQL.",
    )
    k.add_argument("file", metavar="FILE", help="the backup file to make (must not exist)")
    _database_flag(k)
    k.set_defaults(run=_run_admin_backup)
    r = admin.add_parser(
        "restore",
        help="fill an EMPTY database from a backup FILE (refuses one that is not empty)",
        description="Restore a backup made by 'stud8 admin backup' into an empty database "
        "of the same kind (SQLite, or PostgreSQL with pg_restore). A database that is not "
        "empty is refused, nothing changed.",
    )
    r.add_argument("file", metavar="FILE", help="the backup file")
    _database_flag(r)
    r.set_defaults(run=_run_admin_restore)
    d = admin.add_parser(
        "drain",
        help="move a node's tables to the other nodes between hands, then stop giving it any",
        description="A room on several nodes: node NAME hands its tables over to the other "
        "nodes, each between two hands (no hand is cancelled), and takes no new ones. "
        "--undo lets it take tables again (after its upgrade and restart).",
    )
    d.add_argument("node", metavar="NAME", help="the node's name (stud8 serve --node NAME)")
    d.add_argument("--redis", default=None, metavar="URL", help="the room's Redis (STUD8_REDIS)")
    d.add_argument("--undo", action="store_true", help="let the node take tables again")
    d.add_argument(
        "--wait",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="wait until the node runs no table (at most this long; 0: do not wait)",
    )
    d.set_defaults(run=_run_admin_drain)
    for verb, text in (
        ("credit", "give a player's bank chips (issued through the ledger)"),
        ("debit", "take chips from a player's bank (back to the ledger's issuance)"),
    ):
        m = admin.add_parser(verb, help=text, description=text[0].upper() + text[1:] + ".")
        m.add_argument("name", help="the player's name")
        m.add_argument("amount", type=_AT_LEAST_ONE, help="whole chips, 1 or more")
        m.add_argument(
            "--reason", required=True, help="why (kept with the transaction and in the log)"
        )
        _by_and_database(m)
        m.set_defaults(run=_run_admin_move, debit=verb == "debit")
    o = admin.add_parser(
        "create-operator",
        help="make an operator's account (registering never makes one)",
        description="Make an operator's account on the room's database (migrated first). "
        "The password is asked for at a terminal, else read from the first line of "
        "standard input; an empty one is made up and printed.",
    )
    o.add_argument("name", help="the operator's name")
    o.add_argument(
        "--promote", action="store_true", help="make an existing account an operator instead"
    )
    _database_flag(o)
    o.set_defaults(run=_run_admin_create_operator)
    b = admin.add_parser(
        "ban",
        help="ban an account (no more log-ins, its sessions end), or --undo it",
        description="Ban an account: it may no longer log in; its sessions end, and a room "
        "serving on the database closes its websockets within a second or two. --undo lets "
        "it log in again. Written to the moderation log with its reason.",
    )
    b.add_argument("name", help="the account's name")
    b.add_argument("--undo", action="store_true", help="lift the ban")
    b.add_argument("--reason", required=True, help="why (kept in the moderation log)")
    _by_and_database(b)
    b.set_defaults(run=_run_admin_ban)
    q = admin.add_parser(
        "silence",
        help="silence a player (for N minutes or for good), or --undo it",
        description="Silence a player: his chat messages are refused, with a clear reason, "
        "at every table of the room on the database (at once: each message is checked), "
        "for --minutes N (it ends by itself) or for good. Written to the moderation log.",
    )
    q.add_argument("name", help="the player's name")
    when = q.add_mutually_exclusive_group()
    when.add_argument(
        "--minutes", type=_AT_LEAST_ONE, default=None, metavar="N", help="for N minutes"
    )
    when.add_argument("--undo", action="store_true", help="let him chat again")
    q.add_argument("--reason", required=True, help="why (kept in the moderation log)")
    _by_and_database(q)
    q.set_defaults(run=_run_admin_silence)
    g = admin.add_parser(
        "log",
        help="the moderation log: who banned, silenced, credited or debited whom, when, why",
        description="The moderation log, newest first: every ban and unban, silence and "
        "unsilence, credit and debit, lobby message, by whom, when and why.",
    )
    g.add_argument("--player", default=None, metavar="NAME", help="only the acts on NAME")
    g.add_argument("--limit", type=_AT_LEAST_ONE, default=50, metavar="N", help="the last N (50)")
    g.add_argument("--json", action="store_true", help="as one JSON object (for scripts)")
    _database_flag(g)
    g.set_defaults(run=_run_admin_log)
    add_rng_report(admin)  # its own module (stud8.terminal.rng_report)


def _by_and_database(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--by", default=None, metavar="NAME", help="who acts, for the log (default: your login)"
    )
    _database_flag(parser)


def _database_flag(parser: argparse.ArgumentParser, text: str = "as for audit") -> None:
    parser.add_argument("--database", default=None, metavar="URL", help=text)


def _run_admin_audit(args: argparse.Namespace) -> int:
    from stud8.server.admin import run_audit

    return run_audit(_database(args), as_json=args.json)


def _database(args: argparse.Namespace) -> str:
    """``--database``, else the room's (STUD8_DATABASE_URL, else its default)."""
    from stud8.server.settings import Settings

    return Settings.from_env().with_overrides(database_url=args.database).database_url


def _run_admin_migrate(args: argparse.Namespace) -> int:
    from stud8.server.admin import run_migrate

    return run_migrate(_database(args))


def _run_admin_backup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stud8.server.admin import run_backup

    return run_backup(_database(args), Path(args.file))


def _run_admin_restore(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stud8.server.admin import run_restore

    return run_restore(Path(args.file), _database(args))


def _run_admin_drain(args: argparse.Namespace) -> int:
    from stud8.server.admin import run_drain
    from stud8.server.settings import Settings

    try:
        settings = Settings.from_env().with_overrides(redis_url=args.redis)
    except ValueError as exc:
        print(f"stud8 admin drain: {exc}", file=sys.stderr)
        return 2
    if settings.redis_url is None:
        print(
            "stud8 admin drain: give the room's Redis (--redis URL or STUD8_REDIS)", file=sys.stderr
        )
        return 2
    return run_drain(settings.redis_url, args.node, undo=args.undo, wait=args.wait)


def _run_admin_move(args: argparse.Namespace) -> int:
    from stud8.server.moderate import run_move

    return run_move(
        _database(args), args.name, args.amount, args.reason, debit=args.debit, by=args.by
    )


def _read_password() -> str | None:
    import getpass

    if sys.stdin is None:
        return None
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n") or None
    first = getpass.getpass("password (empty: make one up): ")
    if first and getpass.getpass("again: ") != first:
        raise SystemExit("the passwords differ: nothing done")
    return first or None


def _run_admin_create_operator(args: argparse.Namespace) -> int:
    from stud8.server.admin import run_create_operator

    return run_create_operator(_database(args), args.name, _read_password, promote=args.promote)


def _run_admin_ban(args: argparse.Namespace) -> int:
    from stud8.server.moderate import run_ban

    return run_ban(_database(args), args.name, args.reason, undo=args.undo, by=args.by)


def _run_admin_silence(args: argparse.Namespace) -> int:
    from stud8.server.moderate import run_silence

    return run_silence(
        _database(args), args.name, args.reason, minutes=args.minutes, undo=args.undo, by=args.by
    )


def _run_admin_log(args: argparse.Namespace) -> int:
    from stud8.server.moderate import run_log

    return run_log(_database(args), player=args.player, limit=args.limit, as_json=args.json)
