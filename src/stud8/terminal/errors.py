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
    except OSError as e:
        where = f" {e.filename}" if e.filename else ""
        print(f"{command}: error:{where}: {e.strerror or e}", file=sys.stderr)
        return 1
