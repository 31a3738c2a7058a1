"""Load benchmark of the room: a real server and websocket players in other processes.

Starts ``python -m stud8 serve`` on 127.0.0.1 (a free port, accounts and chips in
memory), creates ``players / 8`` tables through the operator REST API, and starts
the player pool (``_room_clients.py``) in separate processes: every player
registers, logs in, sits with a buy-in and acts on his turns after a random 0.2 to
1 second (``--instant``: at once) with a random legal action weighted towards
check and call. After a warm-up, the measuring window lasts ``--seconds``; then
everybody leaves and the chips are checked.

Prints hands per second, the time from a player sending his action to the last
seat of his table receiving the resulting event (p50/p90/p99/max), the server's
memory (RSS) and CPU, the round trip of a ping to the server (answered by the
connection, not a table: the server's own stalls), the clients' own loop lag, and
the chips: ``stud8 admin audit`` on the server's database with ``--sqlite``, and in
any case the conservation of chips from what the clients saw (buy-ins + top-ups =
cash-outs + rake, and every hand's stacks before and after).

    python benchmarks/bench_room.py                       # 1,000 players, 180 s
    python benchmarks/bench_room.py --players 80 --seconds 20
    python benchmarks/bench_room.py --instant --seconds 60
    python benchmarks/bench_room.py --sqlite              # the ledger, audited

Everything it starts it stops, also on Ctrl-C or an error.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing as mp
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect as ws_connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _room_clients import PASSWORD, PoolConfig, pool_main

OPERATOR = "benchop"
SEATS = 8
TARGET_P99_MS = 50.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in kB."""
    out: dict[str, int] = {}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    return out


def proc_cpu(pid: int) -> float:
    """User + system CPU seconds of a process."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, round(q / 100 * len(sorted_values)) - 1))
    return sorted_values[i]


def serve_command(port: int, database: str | None) -> list[str]:
    base = [sys.executable, "-m", "stud8", "serve", "--host", "127.0.0.1", "--port", str(port)]
    help_text = subprocess.run(
        [sys.executable, "-m", "stud8", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    ).stdout
    if database is not None:
        base += ["--database", database]
    elif "--memory" in help_text:
        base.append("--memory")
    else:
        raise RuntimeError("this stud8 serve has no --memory: use --sqlite")
    if "--tables" in help_text:
        base += ["--tables", "0"]
    return base


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


def operator_token(http: httpx.Client) -> str:
    r = http.post("/api/v1/register", json={"name": OPERATOR, "password": PASSWORD})
    if r.status_code not in (201, 409):
        raise RuntimeError(f"cannot register the operator: {r.status_code} {r.text}")
    r = http.post("/api/v1/login", json={"name": OPERATOR, "password": PASSWORD})
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


def admin_audit(database: str) -> str:
    """``stud8 admin audit`` on the server's database (everybody has left by now)."""
    done = subprocess.run(
        [sys.executable, "-m", "stud8", "admin", "audit", "--database", database],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    verdict = "balanced" if done.returncode == 0 else f"NOT balanced (exit {done.returncode})"
    return f"`stud8 admin audit`: {verdict}\n{done.stdout.strip()}\n{done.stderr.strip()}".strip()


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


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
    parser.add_argument("--deflate", action="store_true", help="permessage-deflate on")
    parser.add_argument(
        "--sqlite",
        action="store_true",
        help="the server on a SQLite file (in a temporary directory) with its ledger, "
        "audited at the end with `stud8 admin audit`; default: accounts and chips in memory",
    )
    parser.add_argument("--buy-in", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.players < SEATS or args.players % SEATS:
        parser.error(f"--players must be a positive multiple of {SEATS}")
    if args.seconds <= 0 or args.seconds > 3600 or args.workers < 1:
        parser.error("--seconds is 0 to 3600 and --workers at least 1")
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
    database = f"sqlite:///{workdir}/bench.db" if args.sqlite else None
    env = {
        **os.environ,
        "STUD8_OPERATORS": OPERATOR,
        "STUD8_DEFAULT_TABLES": "0",
        "STUD8_STARTING_CHIPS": "1000000",
    }
    ctx = mp.get_context("spawn")
    workers: list[Any] = []
    server: subprocess.Popen[bytes] | None = None
    with open(log_path, "wb") as log:
        try:
            server = subprocess.Popen(
                serve_command(port, database),
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=workdir,
                start_new_session=True,  # Ctrl-C reaches it through us only
            )
            with httpx.Client(
                base_url=f"http://127.0.0.1:{port}", timeout=60, trust_env=False
            ) as http:
                return run(args, http, server, ctx, workers, tables, between, log_path, database)
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
            if server is not None:
                stop_process(server)
            print(f"server log: {log_path}")


def run(
    args: argparse.Namespace,
    http: httpx.Client,
    server: subprocess.Popen[bytes],
    ctx: Any,
    workers: list[Any],
    tables: list[str],
    between: float | None,
    log_path: Path,
    database: str | None,
) -> int:
    wait_for_server(http, server, log_path)
    token = operator_token(http)
    spec: dict[str, Any] = {"seats": SEATS, "max_buy_in": max(400, args.buy_in)}
    if between is not None:
        spec["between_hands"] = between
    setup = time.monotonic()
    for table_id in tables:
        r = http.post(
            "/api/v1/tables",
            json={**spec, "table_id": table_id},
            headers={"Authorization": f"Bearer {token}"},
        )
        if r.status_code != 201:
            raise RuntimeError(f"cannot create table {table_id}: {r.status_code} {r.text}")
    mode = "instant" if args.instant else f"{args.min_delay:g} to {args.max_delay:g} s to act"
    mode += ", SQLite ledger" if database is not None else ", in memory"
    print(
        f"server pid {server.pid} on 127.0.0.1; {len(tables)} tables of {SEATS}, "
        f"{args.players} players ({mode}), {args.workers} client process(es)",
        flush=True,
    )
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
                if server.poll() is not None:
                    raise RuntimeError(f"the server exited ({server.returncode})") from None
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
    start = time.monotonic() + args.warmup
    t0.value, t_end.value = start, start + args.seconds
    go.set()
    time.sleep(max(0.0, start - time.monotonic()))
    hands0, cpu0, wall0 = hands_played(http), proc_cpu(server.pid), time.monotonic()
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
            if server.poll() is not None:
                raise RuntimeError(f"the server exited ({server.returncode})")
            if n % 10 == 0:
                rss.append(proc_status(server.pid).get("VmRSS", 0))
            n += 1
            sent = time.monotonic()
            probe.send(f'{{"t":"ping","d":{{"id":"p{n}"}}}}')
            while True:
                text = probe.recv(timeout=30)
                if isinstance(text, str) and text.startswith('{"t":"pong"') and f'"p{n}"' in text:
                    break
            pings.append((time.monotonic() - sent) * 1000.0)
            time.sleep(
                max(0.0, min(0.1 - (time.monotonic() - sent), t_end.value - time.monotonic()))
            )
    hands1, cpu1, wall1 = hands_played(http), proc_cpu(server.pid), time.monotonic()
    status = proc_status(server.pid)
    load1 = os.getloadavg()
    results = [get(leave_seconds + 60)[2] for _ in workers]
    audit = try_audit(http, operator_token(http))
    if audit is None and database is not None:
        audit = admin_audit(database)
    for w in workers:
        w.join(30)

    latencies = sorted(x for r in results for x in r["latencies"])
    lags = sorted(x for r in results for x in r["lags"])
    pings.sort()
    window = wall1 - wall0
    server_hands = hands1 - hands0
    client_hands = sum(r["hands"] for r in results)
    p99 = percentile(latencies, 99)
    print()
    print(f"== {args.players} players at {len(tables)} tables, {mode}, {args.seconds:g} s ==")
    print(
        f"hands per second: {server_hands / window:.1f} "
        f"({server_hands} hands in {window:.1f} s by the lobby; {client_hands} seen by clients)"
    )
    print(
        f"actions: {sum(r['actions'] for r in results)} sent, {len(latencies)} measured "
        f"({len(latencies) / window:.0f}/s), {sum(r['incomplete'] for r in results)} not seen "
        f"by every seat, {sum(r['rejects'] for r in results)} rejects "
        f"({sum(r['act_rejects'] for r in results)} of actions, the rest top-ups in a hand), "
        f"{sum(r['timeouts'] for r in results)} timeouts"
    )
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
    print(
        f"server CPU: {100 * (cpu1 - cpu0) / window:.0f}% of one core; clients' CPU "
        f"{sum(r['cpu'] for r in results):.0f} s in total; client loop lag ms "
        f"p50 {percentile(lags, 50):.1f} p99 {percentile(lags, 99):.1f} "
        f"max {lags[-1] if lags else float('nan'):.1f}"
    )
    print(
        f"server ping round trip (a watcher, 10/s), ms: p50 {percentile(pings, 50):.1f} "
        f"p99 {percentile(pings, 99):.1f} max {pings[-1] if pings else float('nan'):.1f}"
    )
    print(
        f"machine: {os.cpu_count()} cores; load average {load0:.2f} at the start, "
        f"{load1[0]:.2f} (1 min) {load1[1]:.2f} (5 min) at the end (other jobs included)"
    )
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
    if audit is not None and audit.startswith("`stud8 admin audit`: NOT"):
        balanced = False
    print(
        f"chips seen by the clients: in {chips_in} (buy-ins and top-ups) = out {chips_out} "
        f"(cash-outs) + rake {rake}: {'balanced' if chips_in == chips_out + rake else 'OFF'} "
        f"by {chips_in - chips_out - rake}; {hands_checked} hands each conserved their "
        f"stacks, {hand_errors} did not; {not_left} players still seated"
        + ("" if balanced else "  <-- NOT BALANCED")
    )
    return 0 if balanced and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
