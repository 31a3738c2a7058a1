"""Load benchmark of the room: a real server and websocket players in other processes.

Starts ``python -m stud8 serve`` on 127.0.0.1 (a free port, accounts and chips in
memory, or on a database), creates ``players / 8`` tables through the operator REST
API, and starts the player pool (``_room_clients.py``) in separate processes: every
player registers, logs in, sits with a buy-in and acts on his turns after a random
0.2 to 1 second (``--instant``: at once) with a random legal action weighted towards
check and call. After a warm-up, the measuring window lasts ``--seconds``; then
everybody leaves and the chips are checked.

Prints hands and actions per second, the time from a player sending his action to
the last seat of his table receiving the resulting event (p50/p90/p99/max), the
server's memory (RSS) and CPU, and its CPU per action (its CPU time over the window,
all threads, divided by the actions measured in it: the figure to compare two
servers by), the round trip of a ping to the server (answered by the connection,
not a table: the server's own stalls), the clients' own loop lag and CPU, their CPU
per action and per message (and says which was the limit: the clients, or the
server's event loop at saturation), and the chips: ``stud8 admin
audit`` on the server's database with ``--sqlite`` or ``--database``, and in any
case the conservation of chips from what the clients saw (buy-ins + top-ups =
cash-outs + rake, and every hand's stacks before and after). The last line is
``RESULT {json}``, the figures for tables side by side.

The players' websocket client is picows (``pip install -e '.[bench]'``: frames
parsed in C; the default when it is installed) or, with ``--client websockets`` (and
for ``--deflate``), the websockets library, in pure Python. On this project's
2-core machine (1,000 players, ``--instant``, SQLite, one client process, back to
back, the machine busy with other jobs: load average 3.5 to 7) the clients' CPU per
action went from 0.50 to 0.54 ms (websockets, before this client) to 0.16 ms with
picows (3.1 to 3.3x; 5 us a message, 31 messages read an action of which 31%
decoded), and 0.43 to 0.46 ms with websockets: one client process now offers about
twice the load the server's event loop can take (0.27 ms per action), so the
server, not the clients, saturates (its loop on a CPU or waiting for one 93% of the
window, idle 7%; with websockets idle 23%); ``--workers 2`` is no longer needed for
that (``docs/scaling.md``, "The load generator").

``--database URL`` runs the server on that database; a PostgreSQL database is
wiped first (``DROP SCHEMA public CASCADE``: give it a scratch database only) and
the server migrates it. ``--server-python`` is the interpreter that runs the
server (and its ``stud8 admin audit``): another checkout's virtualenv measures
that checkout's server under the very same load. ``--profile FILE`` records the
server with py-spy during the window (collapsed stacks) and prints a summary.

    python benchmarks/bench_room.py                       # 1,000 players, 180 s
    python benchmarks/bench_room.py --players 80 --seconds 20
    python benchmarks/bench_room.py --instant --seconds 60
    python benchmarks/bench_room.py --sqlite              # the ledger, audited
    python benchmarks/bench_room.py --database postgresql://postgres@127.0.0.1/scratch
    python benchmarks/bench_room.py --server-python ../old/.venv/bin/python
    python benchmarks/bench_room.py --instant --profile server.txt
    python benchmarks/bench_room.py --instant --client websockets --workers 2
    python benchmarks/bench_room.py --database postgresql://... --nodes 2          # relaying
    python benchmarks/bench_room.py --database postgresql://... --nodes 2 --route  # routing

With ``--nodes 2 --route`` every node has a public address, so the node a player
reached sends him to the one that runs his table (``redirect``, followed once with the
same token, as the browser's client does); it prints how many were sent, and how many
players could not sit.

Everything it starts it stops, also on Ctrl-C or an error.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing as mp
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.sync.client import connect as ws_connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _room_clients import CLIENTS, PASSWORD, PoolConfig, default_client, pool_main

OPERATOR = "benchop"
SEATS = 8
TARGET_P99_MS = 50.0
BUSY_CORE = 0.9  # a process using this much of a core over the window is saturated
PROFILE_RATE = 100  # py-spy samples per second
PROFILE_TOP = 25


@dataclass(frozen=True, slots=True)
class Database:
    """Where the server keeps accounts and chips: ``kind`` is memory, sqlite or
    postgresql (or another SQLAlchemy backend's name)."""

    kind: str
    url: str | None  # None: in memory
    label: str  # for the output, without a password


def database_for(url: str | None) -> Database:
    if url is None:
        return Database("memory", None, "accounts and chips in memory")
    parsed = make_url(url)
    kind = parsed.get_backend_name()
    shown = parsed.render_as_string(hide_password=True)
    if kind == "sqlite":
        return Database(kind, url, f"SQLite {parsed.database}")
    if kind == "postgresql":
        return Database(kind, url, f"PostgreSQL {shown}")
    return Database(kind, url, f"{kind} {shown}")


def wipe_postgres(url: str) -> None:
    """Empty the scratch PostgreSQL database at ``url`` (its ``public`` schema, with
    the tables and ``alembic_version``): the server migrates it at start."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        with contextlib.suppress(ImportError):
            import psycopg  # noqa: F401  # psycopg 3, as the server uses

            parsed = parsed.set(drivername="postgresql+psycopg")
    engine = create_engine(parsed)
    try:
        with engine.begin() as connection:
            others = connection.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            ).scalar_one()
            if others:
                print(
                    f"note: {others} other session(s) on this database; wiping it anyway "
                    "(waiting at most 30 s for their locks)",
                    flush=True,
                )
            connection.execute(text("SET LOCAL lock_timeout = '30s'"))
            connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _keyed(path: str) -> dict[str, str]:
    """A /proc file of ``key: value`` lines (``status``, ``io``) as a dict ({}: gone)."""
    try:
        text = Path(path).read_text()
    except OSError:
        return {}
    pairs = (line.partition(":") for line in text.splitlines())
    return {key: value.strip() for key, _, value in pairs}


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in kB."""
    status = _keyed(f"/proc/{pid}/status")
    return {key: int(status[key].split()[0]) for key in ("VmRSS", "VmHWM") if key in status}


def _stat(path: str) -> list[str] | None:
    """The fields of a /proc stat file after the command's name (None: gone)."""
    try:
        return Path(path).read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _cpu_seconds(path: str, *, user: bool = True) -> float:
    """System CPU seconds in a /proc stat file, and user ones too with ``user``."""
    fields = _stat(path)
    if fields is None:
        return 0.0
    ticks = int(fields[12]) + (int(fields[11]) if user else 0)
    return ticks / os.sysconf("SC_CLK_TCK")


def proc_cpu(pid: int | None) -> float:
    """User + system CPU seconds of a process (all its threads)."""
    return 0.0 if pid is None else _cpu_seconds(f"/proc/{pid}/stat")


def proc_system_cpu(pid: int | None) -> float:
    """System (kernel) CPU seconds of a process, all its threads: the socket writes
    and reads, which any server pays (``bench_fanout_floor.py``)."""
    return 0.0 if pid is None else _cpu_seconds(f"/proc/{pid}/stat", user=False)


def main_thread_cpu(pid: int | None) -> float:
    """User + system CPU seconds of a process's main thread (the event loop; the
    others are the database writer's and the worker pools')."""
    return 0.0 if pid is None else _cpu_seconds(f"/proc/{pid}/task/{pid}/stat")


def main_thread_waits(pid: int | None) -> float:
    """Seconds a process's main thread has spent runnable but waiting for a CPU (the
    scheduler's run queue, ``/proc/PID/task/PID/schedstat``): its share of the window
    is the CPU it would have used had the machine's other jobs not held the cores."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()
    except OSError:
        return 0.0
    return int(fields[1]) / 1e9 if len(fields) > 1 else 0.0


def main_thread_sleeps(pid: int | None) -> int:
    """How many times a process's main thread went to sleep of its own accord (its
    voluntary context switches: the event loop blocking in epoll with nothing to do)."""
    if pid is None:
        return 0
    return int(_keyed(f"/proc/{pid}/task/{pid}/status").get("voluntary_ctxt_switches", 0))


def proc_syscalls(pid: int | None) -> tuple[int, int]:
    """A process's read and write system calls so far (``/proc/PID/io``'s syscr and
    syscw, all threads): the event loop's sockets (uvloop reads and writes them);
    libpq's ``send`` and ``recv`` to the database are not counted there."""
    if pid is None:
        return (0, 0)
    counts = _keyed(f"/proc/{pid}/io")
    return (int(counts.get("syscr", 0)), int(counts.get("syscw", 0)))


def syscalls_of(pids: Iterable[int | None]) -> tuple[int, int]:
    """:func:`proc_syscalls` of several processes (the nodes), added up."""
    reads = writes = 0
    for pid in pids:
        r, w = proc_syscalls(pid)
        reads, writes = reads + r, writes + w
    return (reads, writes)


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, round(q / 100 * len(sorted_values)) - 1))
    return sorted_values[i]


def serve_command(python: str, port: int, database: str | None, cwd: str) -> list[str]:
    base = [python, "-m", "stud8", "serve", "--host", "127.0.0.1", "--port", str(port)]
    help_text = subprocess.run(
        [python, "-m", "stud8", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=cwd,
    ).stdout
    if database is not None:
        base += ["--database", database]
    elif "--memory" in help_text:
        base.append("--memory")
    else:
        raise RuntimeError("this stud8 serve has no --memory: use --sqlite or --database")
    if "--tables" in help_text:
        base += ["--tables", "0"]
    return base


def server_identity(python: str, cwd: str) -> str:
    """Which stud8 the server's interpreter imports, and its checkout's commit."""
    done = subprocess.run(
        [python, "-c", "import stud8; print(stud8.__file__)"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=cwd,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{python} cannot import stud8:\n{done.stderr.strip()}")
    package = Path(done.stdout.strip()).parent
    commit = ""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        described = subprocess.run(
            ["git", "-C", str(package), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if described.returncode == 0:
            commit = f" at {described.stdout.strip()}"
    return f"{package}{commit}"


def start_redis(workdir: str, helpers: list[subprocess.Popen[bytes]]) -> str:
    """A throwaway redis-server on 127.0.0.1 for the nodes (stopped with the helpers)."""
    port = free_port()
    redis = subprocess.Popen(
        [
            "redis-server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            workdir,
            "--logfile",
            "redis.log",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    helpers.append(redis)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return f"redis://127.0.0.1:{port}/0"
        time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def owners(redis_url: str, tables: list[str]) -> Counter[str]:
    """How many of ``tables`` each node runs (the room's directory in Redis)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        entries = client.hmget("stud8:tables", tables)
    finally:
        client.close()
    return Counter(
        e.split(b"\n", 1)[0].decode() if isinstance(e, bytes) else "none" for e in entries
    )


def wait_for_server(http: httpx.Client, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited ({server.returncode}):\n{log.read_text()}")
        with contextlib.suppress(httpx.HTTPError):
            if http.get("/api/v1/tables").status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError("the server did not start within 60 s")


def operator_password(log: Path) -> str | None:
    """The one-time password a room that makes its operators at the start (issue 19:
    registering never makes one) wrote to its log; None from an older room."""
    found = re.search(
        rf"operator '{OPERATOR}' made, with the one-time password (\S+)",
        log.read_text(encoding="utf-8", errors="replace"),
    )
    return found.group(1) if found else None


def operator_token(http: httpx.Client, log: Path) -> str:
    password = operator_password(log)
    if password is None:  # an older room: the operator registers
        password = PASSWORD
        r = http.post("/api/v1/register", json={"name": OPERATOR, "password": PASSWORD})
        if r.status_code not in (201, 409):
            raise RuntimeError(f"cannot register the operator: {r.status_code} {r.text}")
    r = http.post("/api/v1/login", json={"name": OPERATOR, "password": password})
    r.raise_for_status()
    token = r.json()["token"]
    assert isinstance(token, str)
    return token


def hands_played(http: httpx.Client) -> int:
    tables = http.get("/api/v1/tables").json()["tables"]
    return sum(int(t["hands_played"]) for t in tables)


def try_audit(http: httpx.Client, token: str) -> str | None:
    """The server's audit, if it has an endpoint for it."""
    for path in ("/api/v1/admin/audit", "/api/v1/audit"):
        with contextlib.suppress(httpx.HTTPError):
            r = http.get(path, headers={"Authorization": f"Bearer {token}"})
            if r.status_code == 200:
                return f"{path}: {r.text}"
    return None


def admin_audit(python: str, database: str, cwd: str) -> tuple[str, bool]:
    """``stud8 admin audit`` on the server's database (everybody has left by now),
    run by the server's interpreter; and whether it found the books balanced."""
    done = subprocess.run(
        [python, "-m", "stud8", "admin", "audit", "--database", database],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=cwd,
    )
    ok = done.returncode == 0
    verdict = "balanced" if ok else f"NOT balanced (exit {done.returncode})"
    report = f"`stud8 admin audit`: {verdict}\n{done.stdout.strip()}\n{done.stderr.strip()}"
    return report.strip(), ok


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def find_py_spy(server_python: str) -> str | None:
    """py-spy on PATH, or next to this interpreter or the server's."""
    found = shutil.which("py-spy")
    if found:
        return found
    for python in (sys.executable, server_python):
        candidate = Path(os.path.abspath(python)).parent / "py-spy"  # the venv's bin
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def start_profiler(
    py_spy: str, pid: int, seconds: float, output: Path, log: Path
) -> subprocess.Popen[bytes]:
    """py-spy recording ``pid`` for ``seconds`` (collapsed stacks, a thread's name
    first, full file names), without pausing it."""
    command = [
        py_spy,
        "record",
        "-p",
        str(pid),
        "-d",
        str(max(1, round(seconds))),
        "-r",
        str(PROFILE_RATE),
        "-f",
        "raw",
        "-o",
        str(output),
        "--nonblocking",
        "--threads",
        "--full-filenames",
    ]
    with open(log, "wb") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)


_LABEL = re.compile(r"^(process \d+:|thread \(|Thread 0x)")
_FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*?)(?::\d+)?\)$")
_LIB = re.compile(r"/lib/python3\.\d+/")


def _short_path(path: str) -> str:
    """A source file's path from its package root (site-packages, src/, the stdlib)."""
    for marker in ("site-packages/", "/src/"):
        if marker in path:
            return path.rsplit(marker, 1)[1]
    lib = list(_LIB.finditer(path))
    if lib:
        return path[lib[-1].end() :]
    return "/".join(path.split("/")[-3:])


def _frame_key(frame: str) -> str:
    """``function (path/file.py:LINE)`` as ``file.py:function``, the line dropped."""
    m = _FRAME.match(frame)
    if m is None:
        return frame
    return f"{_short_path(m['file'])}:{m['func']}"


def _thread_name(labels: list[str]) -> str:
    """``thread (0x7f..): MainThread`` as ``MainThread``; other labels as they are."""
    names = [label.split("): ", 1)[1] if "): " in label else label for label in labels]
    return " / ".join(names) or "(all threads)"


def summarize_profile(path: Path, top: int = PROFILE_TOP) -> str:
    """A py-spy raw (collapsed stacks) profile in short: the threads' shares, and the
    ``top`` functions by self and by inclusive samples, as percents of all samples.

    Each line is ``frame;frame;...;frame COUNT``; the leading frames may name the
    process and thread (``process 1:"python ..."``, ``thread (0x1): MainThread``,
    ``Thread 0x1 (idle)``), the others are ``function (file.py:LINE)``."""
    self_samples: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = stack.split(";")
        labels: list[str] = []
        while frames and _LABEL.match(frames[0]):
            labels.append(frames.pop(0))
        total += count
        threads[_thread_name(labels)] += count
        keys = [_frame_key(f) for f in frames]
        if keys:
            self_samples[keys[-1]] += count
        for key in set(keys):
            inclusive[key] += count
    if not total:
        return f"profile {path}: no samples"

    def pct(n: int) -> str:
        return f"{100 * n / total:5.1f}%"

    lines = [f"profile {path}: {total} samples ({PROFILE_RATE}/s per busy thread)"]
    lines.append(
        "  threads: " + ", ".join(f"{name} {pct(n).strip()}" for name, n in threads.most_common(8))
    )
    lines.append(f"  top {top} by self samples:")
    lines += [f"    {pct(n)}  {key}" for key, n in self_samples.most_common(top)]
    lines.append(f"  top {top} by inclusive samples:")
    lines += [f"    {pct(n)}  {key}" for key, n in inclusive.most_common(top)]
    return "\n".join(lines)


def finite(x: float, digits: int) -> float | None:
    """``x`` rounded for JSON, None for NaN or infinity."""
    return round(x, digits) if math.isfinite(x) else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000, help="a multiple of 8 (1000)")
    parser.add_argument("--seconds", type=float, default=180.0, help="measuring window (180)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before it (5)")
    parser.add_argument("--instant", action="store_true", help="players act at once")
    parser.add_argument("--min-delay", type=float, default=0.2)
    parser.add_argument("--max-delay", type=float, default=1.0)
    parser.add_argument(
        "--between-hands",
        type=float,
        default=None,
        help="the tables' pause between hands (the server's default; 0 with --instant)",
    )
    parser.add_argument("--workers", type=int, default=1, help="client processes (1)")
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="permessage-deflate on (the websockets client: picows does not compress)",
    )
    parser.add_argument(
        "--client",
        choices=CLIENTS,
        default=None,
        help="the players' websocket library: picows (frames in C; pip install -e "
        "'.[bench]') or websockets (pure Python, 3 to 4 times the clients' CPU); "
        "default: picows if it is installed (and no --deflate), else websockets",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--sqlite",
        action="store_true",
        help="the server on a SQLite file (in a temporary directory) with its ledger, "
        "audited at the end with `stud8 admin audit`; default: accounts and chips in memory",
    )
    where.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="the server on this database (sqlite:///FILE, postgresql://...), audited at "
        "the end; a PostgreSQL database is WIPED first (DROP SCHEMA public CASCADE), "
        "the server migrates it: a scratch database only",
    )
    parser.add_argument(
        "--server-python",
        metavar="PATH",
        default=sys.executable,
        help="the interpreter that runs the server and its `stud8 admin audit` (another "
        "checkout's venv measures that server under the same load); default: this one",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        type=Path,
        default=None,
        help="record the server with py-spy during the window into FILE (collapsed "
        "stacks) and print a summary",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=0,
        metavar="N",
        help="a room on N nodes (stud8 serve --redis --node), on --database postgresql://... "
        "and a throwaway redis-server; the players of each table connect to the nodes in "
        "turn. 0 (default): one process without Redis",
    )
    parser.add_argument(
        "--route",
        action="store_true",
        help="with --nodes 2 or more: each node has a public address (--public-url), so a "
        "node that does not run a table sends its players to the one that does (they "
        "follow the redirect, as the browser does); default: the nodes relay",
    )
    parser.add_argument("--buy-in", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.players < SEATS or args.players % SEATS:
        parser.error(f"--players must be a positive multiple of {SEATS}")
    if args.seconds <= 0 or args.seconds > 3600 or args.workers < 1:
        parser.error("--seconds is 0 to 3600 and --workers at least 1")
    if args.nodes < 0 or args.nodes > 16:
        parser.error("--nodes is 0 to 16")
    if args.nodes and not (args.database or "").startswith("postgresql"):
        parser.error("--nodes needs --database postgresql://... (one database for the nodes)")
    if args.route and args.nodes < 2:
        parser.error("--route needs --nodes 2 or more (one node has nobody to send players to)")
    if args.nodes and shutil.which("redis-server") is None:
        parser.error("--nodes needs redis-server (apt-get install redis-server)")
    server_python = shutil.which(args.server_python) or args.server_python
    if not (Path(server_python).is_file() and os.access(server_python, os.X_OK)):
        parser.error(f"--server-python {args.server_python} is not an executable")
    args.server_python = os.path.abspath(server_python)
    if args.profile is not None:
        args.profile = args.profile.resolve()
    if args.client is None:
        args.client = "websockets" if args.deflate else default_client()
    if args.client == "picows":
        if args.deflate:
            parser.error("--deflate needs --client websockets (picows does not compress)")
        try:
            import picows  # noqa: F401
        except ImportError:
            parser.error("--client picows: picows is not installed (pip install -e '.[bench]')")
    if args.instant:
        args.min_delay = args.max_delay = 0.0
    between = (
        args.between_hands if args.between_hands is not None else (0.0 if args.instant else None)
    )
    n_tables = args.players // SEATS
    tables = [f"b{i}" for i in range(1, n_tables + 1)]

    workdir = tempfile.mkdtemp(prefix="stud8-bench-")
    log_path = Path(workdir) / "server.log"
    port = free_port()
    ports = [port] + [free_port() for _ in range(max(0, args.nodes - 1))]
    url = f"sqlite:///{workdir}/bench.db" if args.sqlite else args.database
    db = database_for(url)
    env = {
        **os.environ,
        "STUD8_OPERATORS": OPERATOR,
        "STUD8_DEFAULT_TABLES": "0",
        "STUD8_STARTING_CHIPS": "1000000",
        # every player comes from 127.0.0.1: lift the limits on one address (issue 19)
        "STUD8_SIGNUPS": "1000000",
        "STUD8_ADDRESS_FAILURES": "1000000",
        "STUD8_ADDRESS_SOCKETS": "1000000",
        "STUD8_ADDRESS_RATE": "1000000",
        "STUD8_ADDRESS_BURST": "1000000",
    }
    ctx = mp.get_context("spawn")
    workers: list[Any] = []
    helpers: list[subprocess.Popen[bytes]] = []  # py-spy, redis-server
    servers: list[subprocess.Popen[bytes]] = []
    with open(log_path, "wb") as log:
        try:
            identity = server_identity(args.server_python, workdir)
            print(f"server: {args.server_python} (stud8 {identity})", flush=True)
            if db.kind == "postgresql" and db.url is not None:
                print(f"wiping the scratch database {db.label} ...", flush=True)
                wipe_postgres(db.url)
            elif db.kind == "sqlite" and not args.sqlite:
                print(f"note: {db.label} is used as it is (not wiped)", flush=True)
            extra: list[list[str]] = [[]]
            if args.nodes:
                redis_url = args.redis_url = start_redis(workdir, helpers)
                print(f"redis-server for the nodes: {redis_url}", flush=True)
                extra = [["--redis", redis_url, "--node", f"n{i + 1}"] for i in range(args.nodes)]
                if args.route:
                    for node_args, node_port in zip(extra, ports, strict=True):
                        node_args += ["--public-url", f"http://127.0.0.1:{node_port}"]
            for i, (node_port, node_args) in enumerate(zip(ports, extra, strict=False)):
                out = log if i == 0 else open(Path(workdir) / f"node{i + 1}.log", "wb")  # noqa: SIM115
                servers.append(
                    subprocess.Popen(
                        serve_command(args.server_python, node_port, db.url, workdir) + node_args,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        env=env,
                        cwd=workdir,
                        start_new_session=True,  # Ctrl-C reaches it through us only
                    )
                )
                if i == 0:  # the first node migrates the database before the others start
                    with httpx.Client(
                        base_url=f"http://127.0.0.1:{node_port}", timeout=60, trust_env=False
                    ) as first:
                        wait_for_server(first, servers[0], log_path)
            for node_port, node in zip(ports, servers, strict=False):
                with httpx.Client(
                    base_url=f"http://127.0.0.1:{node_port}", timeout=60, trust_env=False
                ) as each:
                    wait_for_server(each, node, log_path)
            with httpx.Client(
                base_url=f"http://127.0.0.1:{port}", timeout=60, trust_env=False
            ) as http:
                return run(
                    args,
                    http,
                    servers,
                    ports,
                    ctx,
                    workers,
                    helpers,
                    tables,
                    between,
                    log_path,
                    db,
                )
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130
        finally:
            for w in workers:
                if w.is_alive():
                    w.terminate()
                w.join(10)
                if w.is_alive():
                    w.kill()
                    w.join(5)
            for server in servers:
                stop_process(server)
            for helper in helpers:
                stop_process(helper)
            print(f"server log: {log_path}")


def run(
    args: argparse.Namespace,
    http: httpx.Client,
    servers: list[subprocess.Popen[bytes]],
    ports: list[int],
    ctx: Any,
    workers: list[Any],
    helpers: list[subprocess.Popen[bytes]],
    tables: list[str],
    between: float | None,
    log_path: Path,
    db: Database,
) -> int:
    workdir = str(log_path.parent)
    server = servers[0]
    wait_for_server(http, server, log_path)
    token = operator_token(http, log_path)
    # no pause for a showdown's results (nobody watches them): the load stays what
    # it was before tables had one, comparable with earlier runs
    spec: dict[str, Any] = {
        "seats": SEATS,
        "max_buy_in": max(400, args.buy_in),
        "showdown_seconds": 0,
    }
    if between is not None:
        spec["between_hands"] = between
    setup = time.monotonic()
    for table_id in tables:
        r = http.post(
            "/api/v1/tables",
            json={**spec, "table_id": table_id},
            headers={"Authorization": f"Bearer {token}"},
        )
        if r.status_code == 400 and "showdown_seconds" in r.text:
            # a server from before tables had a showdown pause (an old commit
            # measured beside this one): it has none to turn off
            del spec["showdown_seconds"]
            r = http.post(
                "/api/v1/tables",
                json={**spec, "table_id": table_id},
                headers={"Authorization": f"Bearer {token}"},
            )
        if r.status_code != 201:
            raise RuntimeError(f"cannot create table {table_id}: {r.status_code} {r.text}")
    mode = "instant" if args.instant else f"{args.min_delay:g} to {args.max_delay:g} s to act"
    if args.nodes:
        placed = dict(sorted(owners(args.redis_url, tables).items()))
        print(f"{args.nodes} node(s) on ports {ports}; tables per node: {placed}")
    print(
        f"server pid {server.pid} on 127.0.0.1, database: {db.label}; "
        f"{len(tables)} tables of {SEATS}, {args.players} players ({mode}), "
        f"{args.workers} client process(es) on {args.client}",
        flush=True,
    )
    mode += f", {db.kind}"
    out = ctx.Queue()
    go = ctx.Event()
    t0 = ctx.Value("d", 0.0)
    t_end = ctx.Value("d", 0.0)
    leave_seconds = 60.0
    for w in range(args.workers):
        config = PoolConfig(
            port=int(http.base_url.port or 0),
            tables=tuple(tables[w :: args.workers]),
            seats=SEATS,
            worker=w,
            min_delay=args.min_delay,
            max_delay=args.max_delay,
            buy_in=args.buy_in,
            leave_seconds=leave_seconds,
            deflate=args.deflate,
            seed=args.seed * 1000 + w,
            ports=tuple(ports) if args.nodes else (),
            client=args.client,
        )
        proc = ctx.Process(target=pool_main, args=(config, out, go, t0, t_end), daemon=True)
        proc.start()
        workers.append(proc)

    def get(timeout: float) -> tuple[Any, ...]:
        deadline = time.monotonic() + timeout
        while True:
            try:
                item: tuple[Any, ...] = out.get(timeout=1.0)
            except Exception:  # queue.Empty
                if time.monotonic() > deadline:
                    raise RuntimeError("the client processes did not answer in time") from None
                if any(s.poll() is not None for s in servers):
                    raise RuntimeError("a server exited") from None
                if all(not w.is_alive() for w in workers):
                    raise RuntimeError("the client processes died") from None
                continue
            if item[0] == "error":
                raise RuntimeError(f"client process {item[1]}: {item[2]}")
            return item

    registered = 0.0
    for _ in workers:
        _, _, _, reg = get(120 + 0.5 * args.players)
        registered = max(registered, reg)
    print(
        f"all {args.players} players registered and seated in "
        f"{time.monotonic() - setup:.1f} s (accounts {registered:.1f} s)",
        flush=True,
    )
    py_spy = find_py_spy(args.server_python) if args.profile is not None else None
    if args.profile is not None and py_spy is None:
        print("--profile: py-spy is not on PATH nor next to python: no profile", flush=True)
    profile_log = Path(workdir) / "py-spy.log"
    start = time.monotonic() + args.warmup
    t0.value, t_end.value = start, start + args.seconds
    go.set()
    time.sleep(max(0.0, start - time.monotonic()))
    # the window: the CPU counters at its start, then py-spy (its start-up takes no
    # CPU of the server's), then the lobby's count of hands
    cpu0, wall0 = sum(proc_cpu(s.pid) for s in servers), time.monotonic()
    loop_cpu0 = sum(main_thread_cpu(s.pid) for s in servers)
    loop_wait0 = sum(main_thread_waits(s.pid) for s in servers)
    loop_sleeps0 = sum(main_thread_sleeps(s.pid) for s in servers)
    reads0, writes0 = syscalls_of(s.pid for s in servers)
    system_cpu0 = sum(proc_system_cpu(s.pid) for s in servers)
    worker_cpu0 = [proc_cpu(w.pid) for w in workers]
    profiler: subprocess.Popen[bytes] | None = None
    if py_spy is not None:
        profiler = start_profiler(py_spy, server.pid, args.seconds, args.profile, profile_log)
        helpers.append(profiler)
    hands0 = hands_played(http)
    load0 = os.getloadavg()[0]
    rss: list[int] = []
    pings: list[float] = []
    # a watcher of one table pings the server 10 times a second: its answer comes
    # from the connection itself, not the table, so this is the server's own delay
    with ws_connect(
        f"ws://127.0.0.1:{http.base_url.port}/ws/v1/tables/{tables[0]}",
        compression=None,
        proxy=None,
        max_queue=None,
    ) as probe:
        n = 0
        while time.monotonic() < t_end.value:
            if any(s.poll() is not None for s in servers):
                raise RuntimeError("a server exited")
            if n % 10 == 0:
                rss.append(proc_status(server.pid).get("VmRSS", 0))
            n += 1
            sent = time.monotonic()
            probe.send(f'{{"t":"ping","d":{{"id":"p{n}"}}}}')
            while True:
                msg = probe.recv(timeout=30)
                if isinstance(msg, str) and msg.startswith('{"t":"pong"') and f'"p{n}"' in msg:
                    break
            pings.append((time.monotonic() - sent) * 1000.0)
            time.sleep(
                max(0.0, min(0.1 - (time.monotonic() - sent), t_end.value - time.monotonic()))
            )
    cpu1, wall1 = sum(proc_cpu(s.pid) for s in servers), time.monotonic()
    loop_cpu1 = sum(main_thread_cpu(s.pid) for s in servers)
    loop_wait1 = sum(main_thread_waits(s.pid) for s in servers)
    loop_sleeps1 = sum(main_thread_sleeps(s.pid) for s in servers)
    reads1, writes1 = syscalls_of(s.pid for s in servers)
    system_cpu1 = sum(proc_system_cpu(s.pid) for s in servers)
    worker_cpu1 = [proc_cpu(w.pid) for w in workers]
    hands1 = hands_played(http)
    status = proc_status(server.pid)
    load1 = os.getloadavg()
    results = [get(leave_seconds + 60)[2] for _ in workers]
    audit = try_audit(http, operator_token(http, log_path))
    audit_ok: bool | None = None
    if audit is None and db.url is not None:
        audit, audit_ok = admin_audit(args.server_python, db.url, workdir)
    for w in workers:
        w.join(30)
    profile_summary: str | None = None
    if profiler is not None:
        try:
            profiler.wait(60)
        except subprocess.TimeoutExpired:
            stop_process(profiler)
        if args.profile.is_file() and args.profile.stat().st_size:
            profile_summary = summarize_profile(args.profile)
        else:
            profile_summary = (
                f"py-spy wrote no profile (exit {profiler.returncode}):\n"
                + profile_log.read_text(errors="replace").strip()
            )

    latencies = sorted(x for r in results for x in r["latencies"])
    lags = sorted(x for r in results for x in r["lags"])
    pings.sort()
    window = wall1 - wall0
    server_hands = hands1 - hands0
    client_hands = sum(r["hands"] for r in results)
    measured = len(latencies)
    server_cpu = cpu1 - cpu0
    server_share = server_cpu / window
    cpu_per_action = 1000.0 * server_cpu / measured if measured else float("nan")
    worker_cpu = [b - a for a, b in zip(worker_cpu0, worker_cpu1, strict=True)]
    client_cpu = sum(worker_cpu)
    rate_limited = sum(r["rate_limited"] for r in results)
    time_banks = sum(r["time_banks"] for r in results)
    p99 = percentile(latencies, 99)
    print()
    nodes = f", {args.nodes} node(s) with Redis" if args.nodes else ", one process"
    if args.nodes:
        nodes += ", routing" if args.route else ", relaying"
    redirected = sum(r["redirected"] for r in results)
    not_seated = sum(r["not_seated"] for r in results)
    print(
        f"== {args.players} players at {len(tables)} tables, {mode}{nodes}, {args.seconds:g} s =="
    )
    print(f"server: {args.server_python}; database: {db.label}")
    print(
        f"hands per second: {server_hands / window:.1f} "
        f"({server_hands} hands in {window:.1f} s by the lobby; {client_hands} seen by clients)"
    )
    print(f"actions per second: {measured / window:.1f} ({measured} measured in {window:.1f} s)")
    print(
        f"actions: {sum(r['actions'] for r in results)} sent, {measured} measured "
        f"({measured / window:.0f}/s), {sum(r['incomplete'] for r in results)} not seen "
        f"by every seat, {sum(r['rejects'] for r in results)} rejects "
        f"({sum(r['act_rejects'] for r in results)} of actions, {rate_limited} actions "
        "rate-limited and sent again, the rest top-ups in a hand), "
        f"{time_banks} turns into the time bank, {sum(r['timeouts'] for r in results)} timeouts"
    )
    print(f"players who could not sit: {not_seated}", end="")
    print(f"; sent by a node to their table's owner: {redirected}" if args.nodes else "")
    print(
        "action -> every seat latency, ms: "
        f"p50 {percentile(latencies, 50):.1f}  p90 {percentile(latencies, 90):.1f}  "
        f"p99 {p99:.1f}  max {latencies[-1] if latencies else float('nan'):.1f}  "
        f"(target p99 < {TARGET_P99_MS:g}: {'met' if p99 < TARGET_P99_MS else 'NOT met'}); "
        f"{sum(1 for x in latencies if x >= TARGET_P99_MS)} over {TARGET_P99_MS:g} ms"
    )
    print(
        f"server memory: RSS {status.get('VmRSS', 0) / 1024:.1f} MiB at the end, "
        f"peak {status.get('VmHWM', 0) / 1024:.1f} MiB "
        f"(sampled max {max(rss, default=0) / 1024:.1f} MiB)"
    )
    loop_cpu = loop_cpu1 - loop_cpu0
    loop_per_action = 1000 * loop_cpu / measured if measured else float("nan")
    system_per_action = 1000 * (system_cpu1 - system_cpu0) / measured if measured else float("nan")
    if measured and server_cpu:
        print(
            f"actions per CPU-second of the server{'s' if len(servers) > 1 else ''} "
            f"together: {measured / server_cpu:.0f}"
        )
    print(
        f"server CPU per action: {cpu_per_action:.3f} ms "
        f"({server_cpu:.2f} s CPU over {measured} actions; all threads), of which the "
        f"event loop's thread {loop_per_action:.3f} ms, the other threads (the database "
        f"writer) {cpu_per_action - loop_per_action:.3f} ms; in the kernel (system time, "
        f"all threads: the sockets' reads and writes) {system_per_action:.3f} ms"
    )
    print(
        f"server CPU: {100 * server_share:.0f}% of one core; clients' CPU "
        f"{client_cpu:.1f} s in the window ("
        + ", ".join(f"worker {i} {100 * c / window:.0f}%" for i, c in enumerate(worker_cpu))
        + f"), {sum(r['cpu'] for r in results):.0f} s in all; client loop lag ms "
        f"p50 {percentile(lags, 50):.1f} p99 {percentile(lags, 99):.1f} "
        f"max {lags[-1] if lags else float('nan'):.1f}"
    )
    client_per_action = 1000 * client_cpu / measured if measured else float("nan")
    messages = sum(r["messages"] for r in results)
    decoded = sum(r["decoded"] for r in results)
    print(
        f"clients ({args.client}, {args.workers} process(es)): CPU per action "
        f"{client_per_action:.3f} ms ({client_cpu:.2f} s over {measured} actions), "
        f"{messages / measured if measured else float('nan'):.1f} websocket messages read "
        f"per action ({100 * decoded / messages if messages else 0:.0f}% of them decoded, "
        f"the rest told by their first bytes), "
        f"{1e6 * client_cpu / messages if messages else float('nan'):.1f} us of CPU a message"
    )
    print(
        f"server ping round trip (a watcher, 10/s), ms: p50 {percentile(pings, 50):.1f} "
        f"p99 {percentile(pings, 99):.1f} max {pings[-1] if pings else float('nan'):.1f}"
    )
    cores = os.cpu_count() or 1
    print(
        f"machine: {cores} cores; load average {load0:.2f} at the start, "
        f"{load1[0]:.2f} (1 min) {load1[1]:.2f} (5 min) at the end (other jobs included)"
    )
    busy_workers = [c / window >= BUSY_CORE for c in worker_cpu]
    if all(busy_workers) and server_share < BUSY_CORE:
        print(
            f"LIMIT: the load generator, not the server: every client process used "
            f"{BUSY_CORE:.0%}+ of a core while the server used {server_share:.0%}; "
            f"try more --workers (now {args.workers})"
        )
    elif any(busy_workers) and server_share < BUSY_CORE:
        print(
            "note: some client processes were saturated (>= "
            f"{BUSY_CORE:.0%} of a core): the load generator may be part of the limit"
        )
    loop_share = (loop_cpu1 - loop_cpu0) / window
    # the event loop's thread waiting in the run queue: runnable, no core free for it
    loop_waits = (loop_wait1 - loop_wait0) / window / len(servers)
    print(
        f"server's event loop: on a CPU {loop_share / len(servers):.0%} of the window, "
        f"runnable but waiting for one {loop_waits:.0%} (the machine's other jobs and "
        f"the clients), idle {max(0.0, 1 - loop_share / len(servers) - loop_waits):.0%}"
    )

    def per_action(count: int) -> float:
        return count / measured if measured else float("nan")

    loop_sleeps = loop_sleeps1 - loop_sleeps0
    sleeps_per_action = per_action(loop_sleeps)
    reads_per_action = per_action(reads1 - reads0)
    writes_per_action = per_action(writes1 - writes0)
    print(
        f"server's event loop: went to sleep {loop_sleeps} times in the window "
        f"({sleeps_per_action:.2f} an action: the loop blocking with nothing to do)"
    )
    print(
        f"server's system calls per action: {reads_per_action:.2f} reads, "
        f"{writes_per_action:.2f} writes (/proc/PID/io: the event loop's sockets, the "
        "players' and Redis's; the database's driver sends and receives, not counted)"
    )
    if loop_share >= BUSY_CORE * len(servers):
        print(
            f"LIMIT: the server: its event loop's thread used {loop_share:.0%} of a core "
            f"(all its threads {server_share:.0%}), the busiest client process "
            f"{max(worker_cpu) / window:.0%}: {measured / window:.0f} actions a second is "
            "its saturation figure (on this machine, with its other jobs)"
        )
    elif loop_share / len(servers) + loop_waits >= BUSY_CORE and not any(busy_workers):
        print(
            f"LIMIT: the server's event loop, short of a CPU: it ran "
            f"{loop_share / len(servers):.0%} of the window and waited for a core "
            f"{loop_waits:.0%}, while no client process was saturated (the busiest "
            f"{max(worker_cpu) / window:.0%}): the server is saturated on what this busy "
            "machine gives it; its figure on a full core is higher"
        )
    elif not any(busy_workers) and max(load0, load1[0]) >= cores:
        print(
            f"note: neither the server's event loop ({loop_share:.0%} of a core) nor a "
            f"client process (at most {max(worker_cpu) / window:.0%}) was saturated: "
            "the machine's other jobs held the CPU (see the load average), or the tables "
            "themselves set the pace (few tables, the rate limit, the players' delay)"
        )
    if (server_cpu + client_cpu) / window >= BUSY_CORE * cores:
        print(
            f"note: the server and the clients used {(server_cpu + client_cpu) / window:.1f} "
            f"of the {cores} cores: the machine itself is a limit"
        )
    elif max(load0, load1[0]) >= cores:
        print(
            f"note: the machine was busy (load average up to {max(load0, load1[0]):.1f} on "
            f"{cores} cores, the server and the clients using "
            f"{(server_cpu + client_cpu) / window:.1f}): other jobs share the cores, so "
            "latencies and rates include waiting for a CPU; compare CPU per action"
        )
    if time_banks:
        print(
            f"note: {time_banks} turns ran out of their action clock: tables waited for "
            "a player (seconds without play), so the figures understate the server"
        )
    if profiler is not None:
        print("note: py-spy sampled the server during the window (it takes CPU too)")
    errors = [e for r in results for e in r["errors"]]
    if errors:
        print("client errors:", *errors[:10], sep="\n  ")
    # the chips
    ledgers: dict[str, dict[str, int]] = {}
    for r in results:
        ledgers.update(r["ledgers"])
    chips_in = sum(lg["chips_in"] for lg in ledgers.values())
    chips_out = sum(lg["chips_out"] for lg in ledgers.values())
    rake = sum(lg["rake"] for lg in ledgers.values())
    hand_errors = sum(lg["hand_errors"] for lg in ledgers.values())
    hands_checked = sum(lg["hands"] for lg in ledgers.values())
    not_left = sum(r["not_left"] for r in results)
    if audit is not None:
        print(f"audit: {audit}")
    else:
        print("audit: the server has no audit endpoint (accounts and chips in memory)")
    balanced = chips_in == chips_out + rake and not hand_errors and not not_left
    if audit_ok is False:
        balanced = False
    print(
        f"chips seen by the clients: in {chips_in} (buy-ins and top-ups) = out {chips_out} "
        f"(cash-outs) + rake {rake}: {'balanced' if chips_in == chips_out + rake else 'OFF'} "
        f"by {chips_in - chips_out - rake}; {hands_checked} hands each conserved their "
        f"stacks, {hand_errors} did not; {not_left} players still seated"
        + ("" if balanced else "  <-- NOT BALANCED")
    )
    if profile_summary is not None:
        print(profile_summary)
    result = {
        "database": db.kind,
        "server_python": args.server_python,
        "players": args.players,
        "instant": args.instant,
        "seconds": args.seconds,
        "window_s": finite(window, 2),
        "hands_per_s": finite(server_hands / window, 2),
        "actions_per_s": finite(measured / window, 1),
        "actions": measured,
        "cpu_ms_per_action": finite(cpu_per_action, 4),
        "loop_cpu_ms_per_action": finite(loop_per_action, 4),
        "system_cpu_ms_per_action": finite(system_per_action, 4),
        "server_cpu_percent": finite(100 * server_share, 1),
        "loop_cpu_percent": finite(100 * loop_share / len(servers), 1),
        "loop_wait_percent": finite(100 * loop_waits, 1),
        "loop_sleeps_per_action": finite(sleeps_per_action, 3),
        "reads_per_action": finite(reads_per_action, 2),
        "writes_per_action": finite(writes_per_action, 2),
        "p50_ms": finite(percentile(latencies, 50), 2),
        "p90_ms": finite(percentile(latencies, 90), 2),
        "p99_ms": finite(p99, 2),
        "max_ms": finite(latencies[-1] if latencies else float("nan"), 2),
        "ping_p99_ms": finite(percentile(pings, 99), 2),
        "rss_mib": finite(status.get("VmRSS", 0) / 1024, 1),
        "rss_peak_mib": finite(status.get("VmHWM", 0) / 1024, 1),
        "audit_balanced": audit_ok,
        "chips_balanced": balanced,
        "client_cpu_s": finite(client_cpu, 2),
        "client": args.client,
        "client_cpu_ms_per_action": finite(client_per_action, 4),
        "client_messages_per_action": finite(messages / measured if measured else math.nan, 1),
        "rate_limited": rate_limited,
        "time_banks": time_banks,
        "workers": args.workers,
        "nodes": args.nodes,
        "route": args.route,
        "redirected": redirected,
        "not_seated": not_seated,
        "actions_per_cpu_s": finite(measured / server_cpu if server_cpu else float("nan"), 1),
        "profiled": profiler is not None,
    }
    print("RESULT " + json.dumps(result), flush=True)
    return 0 if balanced and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
