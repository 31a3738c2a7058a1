"""The ``stud8`` command's last word on an error: one line, never a traceback.

What a subcommand did not turn into its own message (a missing extra, an engine or
format error, a database URL the room cannot use, a file that cannot be read) is
said in one line on stderr, naming the subcommand, with a non-zero exit.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

# The modules of each extra (pyproject's optional dependencies), to say which one to
# install when one is missing.
EXTRAS = {
    **dict.fromkeys(("numpy", "numba", "llvmlite", "matplotlib", "scipy"), "tools"),
    **dict.fromkeys(
        (
            "sqlalchemy",
            "alembic",
            "psycopg",
            "argon2",
            "starlette",
            "uvicorn",
            "websockets",
            "redis",
            "hiredis",
        ),
        "server",
    ),
}
GROUPS = ("hh", "admin", "tournament")  # the commands that have subcommands


def command_words(argv: Sequence[str] | None) -> list[str]:
    """The subcommand's words (``hh verify``), for messages.

    >>> command_words(["hh", "verify", "x.txt"]), command_words(["equity", "--exact"])
    (['hh', 'verify'], ['equity'])
    """
    words = []
    for word in sys.argv[1:] if argv is None else argv:
        if word.startswith("-"):
            break
        words.append(word)
        if word not in GROUPS:
            break
    return words


def run_reporting_errors(
    run: Callable[[argparse.Namespace], int], args: argparse.Namespace, argv: Sequence[str] | None
) -> int:
    """Run the subcommand; an error that escapes it becomes one line on stderr and
    the exit code (2 for bad input, 1 for a file that cannot be read or written)."""
    command = " ".join(["stud8", *command_words(argv)])
    try:
        return run(args)
    except ImportError as e:
        extra = EXTRAS.get((e.name or "").split(".")[0])
        if extra is None:
            raise
        print(
            f"{command}: needs the {extra} extra ({e.name} is not installed): "
            f"pip install 'stud8[{extra}]'",
            file=sys.stderr,
        )
        return 2
    except ValueError as e:  # the engine's and the formats' errors, a bad database URL
        print(f"{command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise
    except Exception as e:
        line = _database_trouble(e, args)
        if line is not None:  # a database that cannot be reached or written
            print(f"{command}: {line[0]}", file=sys.stderr)
            return line[1]
        if not isinstance(e, OSError):
            raise
        where = f" {e.filename}" if e.filename else ""
        print(f"{command}: error:{where}: {e.strerror or e}", file=sys.stderr)
        return 1


def _database_trouble(e: Exception, args: argparse.Namespace) -> tuple[str, int] | None:
    """One line and an exit code for a database's bad day (``stud8 admin ...``), if
    the room's code ran (:mod:`stud8.server.storage.trouble`)."""
    if "sqlalchemy" not in sys.modules:
        return None
    from stud8.server.storage.trouble import database_trouble

    return database_trouble(e, getattr(args, "database", None) or "the database")
