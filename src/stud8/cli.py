"""The ``stud8`` command.

One function adds each subcommand's arguments and one runs it; a subcommand
imports what it needs when it runs, so that ``stud8 --help`` and ``import stud8.cli``
stay fast. To add a subcommand, write ``_add_<name>`` and ``_run_<name>`` and list
it in :data:`SUBCOMMANDS`.

>>> main(["--version"])
stud8 0.1.0
0
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from stud8 import __version__

Runner = Callable[[argparse.Namespace], int]


# ------------------------------------------------------------------------------ play
def _add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help="play at a fixed-limit table in the terminal, against bots",
        description="Sit down at a fixed-limit Stud Hi/Lo table with bots and play hand "
        "after hand. Type an action at the prompt (h for help, q to quit).",
    )
    p.add_argument(
        "--bots", type=_int_range(1, 7), default=5, metavar="N", help="bots at the table, 1-7"
    )
    p.add_argument(
        "--stack", type=_int_range(1, None), default=200, metavar="CHIPS", help="starting stack"
    )
    p.add_argument(
        "--stakes",
        type=_stakes,
        default=(1, 2, 4, 8),
        metavar="A/B/S/L",
        help="ante/bring-in/small bet/big bet (default 1/2/4/8)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed the shuffles and the bots for a reproducible game "
        "(default: a cryptographic shuffle)",
    )
    p.add_argument(
        "--hands",
        type=_int_range(1, None),
        default=None,
        metavar="N",
        help="stop after N hands (default: until you quit or bust)",
    )
    p.add_argument(
        "--bot-kind",
        choices=("rules", "calling-station", "random"),
        default="rules",
        help="how the bots play (default: rules)",
    )
    p.set_defaults(run=_run_play)


def _run_play(args: argparse.Namespace) -> int:
    from stud8.play import PlayOptions, play

    options = PlayOptions(
        bots=args.bots,
        stack=args.stack,
        stakes=args.stakes,
        seed=args.seed,
        hands=args.hands,
        bot_kind=args.bot_kind,
    )
    return play(options)


def _stakes(text: str) -> tuple[int, int, int, int]:
    from stud8.play import parse_stakes

    try:
        return parse_stakes(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _int_range(low: int, high: int | None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {span}, got {value}")
        return value

    return parse


# ------------------------------------------------------------------------- the command
SUBCOMMANDS: tuple[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None], ...] = (
    _add_play,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stud8",
        description="Seven Card Stud Hi/Lo (Stud 8 or better): play, tools and an online room.",
    )
    parser.add_argument("--version", action="version", version=f"stud8 {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``stud8`` command; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version, or a usage error
        return e.code if isinstance(e.code, int) else 0 if e.code is None else 2
    run: Runner | None = getattr(args, "run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return run(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
