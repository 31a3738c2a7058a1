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
from pathlib import Path

from stud8 import __version__

Runner = Callable[[argparse.Namespace], int]


# ------------------------------------------------------------------------------ play
def _add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help="play at a fixed-limit table in the terminal, against bots",
        description="Sit down at a fixed-limit table with bots (Stud Hi/Lo, Seven Card Stud "
        "or Razz) and play hand after hand. Type an action at the prompt (h for help, q to "
        "quit).",
    )
    p.add_argument(
        "--game",
        choices=("hilo", "stud", "razz"),
        default="hilo",
        help="Stud Hi/Lo (default), Seven Card Stud (high only) or Razz (ace-to-five low)",
    )
    p.add_argument(
        "--bots", type=int_range(1, 7), default=5, metavar="N", help="bots at the table, 1-7"
    )
    p.add_argument(
        "--stack", type=int_range(1, None), default=200, metavar="CHIPS", help="starting stack"
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
        type=int_range(1, None),
        default=None,
        metavar="N",
        help="stop after N hands (default: until you quit or bust)",
    )
    p.add_argument(
        "--bot-kind",
        choices=("rules", "calling-station", "random", "equity"),
        default="rules",
        help="how the bots play (default: rules)",
    )
    p.add_argument(
        "--save",
        type=Path,
        default=None,
        metavar="FILE",
        help="add every hand played to this JSON-lines file "
        "(default: $STUD8_HOME/hands.jsonl, ~/.local/share/stud8/hands.jsonl)",
    )
    p.add_argument("--no-save", action="store_true", help="do not keep the hands played")
    p.set_defaults(run=_run_play)


def _run_play(args: argparse.Namespace) -> int:
    from stud8.play import PlayOptions, play
    from stud8.terminal.hh import hands_file
    from stud8.tools.simulate import GAMES

    options = PlayOptions(
        game=GAMES[args.game],
        bots=args.bots,
        stack=args.stack,
        stakes=args.stakes,
        seed=args.seed,
        hands=args.hands,
        bot_kind=args.bot_kind,
        save_to=None if args.no_save else (args.save or hands_file()),
    )
    return play(options)


# -------------------------------------------------------------------------------- hh
def _add_hh(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "hh",
        help="verify, convert and show hand histories (PokerStars text, PHH, stud8 JSON)",
        description="Hand histories: PokerStars text, PHH (PokerKit) and stud8's JSON lines.",
    )
    hh = p.add_subparsers(title="hand-history commands", metavar="COMMAND")
    v = hh.add_parser(
        "verify",
        help="replay every Stud Hi/Lo, Seven Card Stud or Razz hand through the engine",
        description="Replay every hand of the Stud family (Stud Hi/Lo, Seven Card Stud, Razz) "
        "of the files through the engine and check "
        "it; a line per hand that does not reproduce or cannot be read, a summary per file, "
        "site and in all. Exit: 0 all reproduced; 1 a hand does not; 4 a file (or a hand's "
        "text) cannot be read; 5 both.",
    )
    v.add_argument("files", nargs="+", type=Path, metavar="FILE")
    v.add_argument("--json", action="store_true", help="one JSON document on standard output")
    v.add_argument("--no-progress", action="store_true", help="no progress bar")
    v.set_defaults(run=_run_hh_verify)
    c = hh.add_parser(
        "convert",
        help="write the hands of a file in another format",
        description="Every hand of a file in another format. Exit codes as hh verify's, and 8: "
        "a hand the format cannot express (PHH is fixed-limit: a pot- or no-limit hand).",
    )
    c.add_argument("file", type=Path, metavar="FILE")
    c.add_argument("--to", choices=("pokerstars", "phh", "json"), required=True)
    c.add_argument(
        "--seat",
        type=int,
        default=None,
        help="as this seat saw it (default: the hero of a player's own history, else every card)",
    )
    c.add_argument("--all-cards", action="store_true", help="every card (the operator's view)")
    c.set_defaults(run=_run_hh_convert)
    s = hh.add_parser("show", help="show the last hands played with `stud8 play`")
    s.add_argument("--file", type=Path, default=None, help="default: the hands `stud8 play` saved")
    s.add_argument("--last", type=int_range(1, None), default=1, metavar="N")
    s.add_argument("--seat", type=int, default=None, help="as this seat saw it (default: yours)")
    s.set_defaults(run=_run_hh_show)
    p.set_defaults(run=lambda args: show_help(p))


def _run_hh_verify(args: argparse.Namespace) -> int:
    from stud8.terminal.hh import verify

    files, progress = list(args.files), not args.no_progress
    return verify(files, sys.stdout, sys.stderr, as_json=args.json, progress=progress)


def _run_hh_convert(args: argparse.Namespace) -> int:
    from stud8.terminal.hh import convert, file_viewer

    seat = args.seat
    if seat is None and not args.all_cards:
        # A PokerStars file shows one player's cards: keep to his view, so that no
        # card the file does not know is written.
        seat = file_viewer(args.file)
    everything = args.all_cards or seat is None
    return convert(args.file, args.to, sys.stdout, sys.stderr, seat=seat, everything=everything)


def _run_hh_show(args: argparse.Namespace) -> int:
    from stud8.terminal.hh import hands_file, show

    return show(args.file or hands_file(), sys.stdout, sys.stderr, last=args.last, seat=args.seat)


def _stakes(text: str) -> tuple[int, int, int, int]:
    from stud8.play import parse_stakes

    try:
        return parse_stakes(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def int_range(low: int, high: int | None) -> Callable[[str], int]:
    """An argument's type: a whole number from ``low`` to ``high`` (None: no top);
    the admin commands' too (:mod:`stud8.terminal.admin_commands`)."""

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


def show_help(parser: argparse.ArgumentParser) -> int:
    """A group of commands run without its subcommand: its help, on stderr, exit 2."""
    parser.print_help(sys.stderr)
    return 2


# ---------------------------------------------------------------------------- equity
def _add_equity(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "equity",
        help="each player's equity in a Stud Hi/Lo pot (exact or Monte Carlo)",
        description="Each player's expected share of the pot, high and low wins and "
        "ties, and scoops, from the cards so far. Write an unknown down card as ??. "
        "Exact when that is quick, else Monte Carlo.",
    )
    p.add_argument("hands", nargs="*", metavar="CARDS", help='a player\'s cards: "As 2s ?? 3s"')
    p.add_argument("--dead", default="", metavar="CARDS", help="cards out of play")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="count every outcome")
    how.add_argument(
        "--trials", type=int_range(1, None), metavar="N", help="Monte Carlo with N deals"
    )
    p.add_argument("--seed", type=int, default=None, help="seed the Monte Carlo deals")
    p.add_argument(
        "--community",
        metavar="yes|no|CARD",
        default=None,
        help="7th street is a community card (default: when the deck runs short)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--warm-up",
        action="store_true",
        help="compile the equity kernels now (numba: 10-40 s once after an install, "
        "then cached), so that the first count does not wait",
    )
    p.set_defaults(run=_run_equity)


def _run_equity(args: argparse.Namespace) -> int:
    from stud8.tools.equity_report import run_equity, run_warm_up

    if args.warm_up:
        if args.hands:
            print("stud8 equity: error: --warm-up takes no cards", file=sys.stderr)
            return 2
        return run_warm_up()
    return run_equity(
        args.hands,
        dead=args.dead,
        exact=args.exact,
        trials=args.trials,
        seed=args.seed,
        community=args.community,
        as_json=args.json,
    )


# -------------------------------------------------------------------------- simulate
def _add_simulate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "simulate",
        help="play bots against each other for many hands and report their results",
        description="Play N fixed-limit hands of a game (Stud Hi/Lo, Seven Card Stud or "
        "Razz) between bots and report each "
        "one's result in big bets per 100 hands with a 95% confidence interval, and the "
        "hands per second. Every stack is reset to --stack before each hand, so the hands "
        "are independent. The same --seed gives the same hands, whatever --jobs.",
    )
    p.add_argument(
        "--hands", type=int_range(1, None), default=10_000, metavar="N", help="default 10000"
    )
    p.add_argument(
        "--players",
        type=int_range(2, 8),
        default=None,
        metavar="P",
        help="players at the table, 2-8 (default: as many as --bots names, else 6)",
    )
    p.add_argument(
        "--bots",
        default="rules",
        metavar="NAME[,NAME...]",
        help="one bot for every seat, in seat order, or one for all: "
        "rules, equity, calling-station, random (default: rules)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for a reproducible run")
    p.add_argument(
        "--stakes",
        type=_stakes,
        default=(1, 2, 4, 8),
        metavar="A/B/S/L",
        help="ante/bring-in/small bet/big bet (default 1/2/4/8)",
    )
    p.add_argument(
        "--stack",
        type=int_range(1, None),
        default=None,
        metavar="CHIPS",
        help="every seat's stack at the start of every hand (default: 100 big bets)",
    )
    p.add_argument(
        "--jobs",
        type=int_range(1, 256),
        default=1,
        metavar="J",
        help="processes to play in (default 1)",
    )
    p.add_argument("--out", type=Path, default=None, metavar="DIR", help="write every hand here")
    p.add_argument(
        "--format",
        choices=("json", "pokerstars", "phh"),
        default=None,
        help="how --out writes the hands (default json: hands.jsonl; pokerstars: "
        "hands.txt; phh: hands.phhs)",
    )
    p.add_argument(
        "--chart",
        type=Path,
        default=None,
        metavar="FILE.png",
        help="draw each seat's winnings over the hands (needs matplotlib)",
    )
    p.add_argument(
        "--equity-trials",
        type=int_range(1, None),
        default=None,
        metavar="N",
        help="Monte Carlo deals per decision of the equity bot (default 400)",
    )
    p.add_argument(
        "--game",
        choices=("hilo", "stud", "razz"),
        default="hilo",
        help="Stud Hi/Lo (default), Seven Card Stud (high only) or Razz (ace-to-five low)",
    )
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(run=_run_simulate)


def _run_simulate(args: argparse.Namespace) -> int:
    from stud8.tools.simulate_report import run_simulate

    return run_simulate(
        hands=args.hands,
        players=args.players,
        bots=args.bots,
        seed=args.seed,
        stakes=args.stakes,
        stack=args.stack,
        jobs=args.jobs,
        out=args.out,
        fmt=args.format,
        chart=args.chart,
        equity_trials=args.equity_trials,
        as_json=args.json,
        game=args.game,
    )


# ------------------------------------------------------------------------ tournament
def _add_tournament(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("tournament", help="tournaments: simulate one with bots")
    p.set_defaults(run=lambda _args: show_help(p))
    tournament = p.add_subparsers(title="tournament commands", metavar="COMMAND")
    s = tournament.add_parser(
        "simulate",
        help="play a whole tournament with bots and print the places and prizes",
        description="Play a whole fixed-limit tournament with bots, offline: the "
        "tournament director seats, balances and breaks tables and places the players "
        "as it does in the room (docs/tournaments.md). Prints the places and prizes; "
        "--json prints them with every level's and every table's history.",
    )
    s.add_argument("--players", type=int_range(2, 10_000), default=18, metavar="N")
    s.add_argument(
        "--table-size", type=int_range(2, 8), default=8, metavar="S", help="seats a table, 2-8"
    )
    s.add_argument(
        "--structure",
        choices=("regular", "turbo", "hyper"),
        default="turbo",
        help="the ready structure (default turbo)",
    )
    s.add_argument(
        "--bots",
        default="rules",
        metavar="NAME[,NAME...]",
        help="bots dealt out to the players in turn: rules, equity, calling-station, "
        "random (default: rules)",
    )
    s.add_argument("--seed", type=int, default=None, help="seed for a reproducible run")
    s.add_argument(
        "--game",
        choices=("stud-hi-lo", "stud", "razz"),
        default="stud-hi-lo",
        help="default stud-hi-lo",
    )
    s.add_argument("--buy-in", type=int_range(0, None), default=100, metavar="CHIPS")
    s.add_argument("--fee", type=int_range(0, None), default=0, metavar="CHIPS")
    s.add_argument(
        "--equity-trials",
        type=int_range(1, None),
        default=None,
        metavar="N",
        help="Monte Carlo deals per decision of the equity bot (default 400)",
    )
    s.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="write every event and decision (tournament.jsonl) and the result (result.json)",
    )
    s.add_argument(
        "--format",
        choices=("json", "pokerstars"),
        default="json",
        help="with --out: pokerstars writes every hand as PokerStars tournament text too "
        "(hands.txt, as the room writes them: trackers import it)",
    )
    s.add_argument("--json", action="store_true", help="print the result as one JSON object")
    s.set_defaults(run=_run_tournament_simulate)


def _run_tournament_simulate(args: argparse.Namespace) -> int:
    from stud8.tools.tournament_report import run_tournament_simulate

    return run_tournament_simulate(
        players=args.players,
        table_size=args.table_size,
        structure=args.structure,
        bots=args.bots,
        seed=args.seed,
        game=args.game,
        buy_in=args.buy_in,
        fee=args.fee,
        equity_trials=args.equity_trials,
        out=args.out,
        hands_format=args.format,
        as_json=args.json,
    )


# ----------------------------------------------------------------------------- serve
def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from stud8.server.settings.sources import add_flags  # the standard library only

    p = sub.add_parser(
        "serve",
        help="run the online room (needs the server extra)",
        description="Serve the room: the REST API and the table websockets (docs/protocol.md), "
        "with a few ready tables with bots. Each setting comes from its flag, else its STUD8_* "
        "variable, else the --config file, else its default (docs/settings.md).",
    )
    add_flags(p)
    p.add_argument(
        "--memory",
        action="store_true",
        help="a throwaway room: everything (accounts, chips, tournaments) on a temporary "
        "database deleted at exit",
    )
    p.set_defaults(run=_run_serve)


def _run_serve(args: argparse.Namespace) -> int:
    from stud8.server.logs import configure_logging
    from stud8.server.runtime import serve
    from stud8.server.settings import LogFormat
    from stud8.server.settings.sources import SettingsError, flag_values, load

    try:
        settings = load(flags=flag_values(args), config=args.config)
    except SettingsError as exc:
        print(f"stud8 serve: {exc}", file=sys.stderr)
        return 2
    if settings.redis_url is not None and args.memory:
        print("stud8 serve: --memory keeps one process's chips: not with --redis", file=sys.stderr)
        return 2
    configure_logging(json_lines=settings.log_format is LogFormat.JSON)
    return serve(settings, memory=args.memory)


# ----------------------------------------------------------------------------- admin
def _add_admin(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from stud8.terminal.admin_commands import add_admin  # its own module: cli.py's length

    add_admin(sub)


# ------------------------------------------------------------------------- the command
SUBCOMMANDS: tuple[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None], ...] = (
    _add_play,
    _add_hh,
    _add_equity,
    _add_simulate,
    _add_tournament,
    _add_serve,
    _add_admin,
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
    from stud8.terminal.errors import run_reporting_errors

    try:
        return run_reporting_errors(run, args, argv)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
