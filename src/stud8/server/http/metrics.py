"""The room measured: ``GET /metrics`` in the Prometheus text format.

On the room's own port ``/metrics`` answers operators only (their session's bearer
token, as the operators' REST calls); with ``--metrics-port`` it is also served to
anybody on ``--metrics-host`` (127.0.0.1 by default), for a Prometheus that has no
session: keep that address private. One :class:`RoomMetrics` per app, with its own
registry (several rooms in one process, as in the tests, do not mix).

What it reports (``stud8_`` names): the tables this process runs, dealing or
paused (``stud8_tables{state=...}``), the players seated at them, the open table
websockets, the hands played and the actions taken (counters), the seconds from a
player's action to the table's answer (a histogram), the writer's jobs waiting and
how long a write handed over now takes to commit (``stud8_writer_lag_seconds``,
measured at each scrape), its batches, jobs and failed jobs, the books' alarms
(``stud8_books_alarms_total``: :mod:`stud8.server.books.alarms`); on a node of several,
the tables whose lease it holds, the messages its bus published and read and those
it lost, and its requests to the other nodes: answered (and the seconds there and
back, ``stud8_bus_request_seconds``: the bus's lag) or not in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    Metric,
    SummaryMetricFamily,
)
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import Response

from stud8.server.books.alarms import BooksAlarms
from stud8.server.http.requests import operator_of
from stud8.server.http.services import RoomServices

log = logging.getLogger("stud8.server")

__all__ = ["MetricsListener", "RoomMetrics", "metrics"]

LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
LAG_PROBE_SECONDS = 5.0  # a scrape waits this long at most for the writer


class _RoomCollector(Collector):
    """The values read off the room at each scrape."""

    def __init__(self, room: RoomServices, metrics: RoomMetrics) -> None:
        self.room = room
        self.metrics = metrics
        self._hands: dict[str, int] = {}  # each table's hands played, at the last scrape
        self._hands_total = 0

    def collect(self) -> Iterator[Metric]:
        room = self.room
        lobby = room.lobby
        directory = lobby.bus.directory()  # this process's tables
        statuses = [directory[t].status for t in list(lobby.tables) if t in directory]
        tables = GaugeMetricFamily("stud8_tables", "tables this process runs", labels=["state"])
        paused = sum(1 for s in statuses if s.paused is not None)
        tables.add_metric(["dealing"], len(statuses) - paused)
        tables.add_metric(["paused"], paused)
        yield tables
        yield GaugeMetricFamily(
            "stud8_seated_players",
            "players (bots too) seated at the tables this process runs",
            value=sum(len(s.players) for s in statuses),
        )
        yield GaugeMetricFamily(
            "stud8_connections", "open table websockets", value=room.sockets.count()
        )
        for status in statuses:  # a counter: a closed table's hands stay counted
            before = self._hands.get(status.table_id, 0)
            self._hands_total += max(0, status.hands_played - before)
            self._hands[status.table_id] = status.hands_played
        yield CounterMetricFamily(
            "stud8_hands", "hands played at the tables of this process", value=self._hands_total
        )
        writer = room.writer
        if writer is not None:
            yield GaugeMetricFamily(
                "stud8_writer_queue",
                "writes handed to the writer, not written yet",
                writer.waiting(),
            )
            yield GaugeMetricFamily(
                "stud8_writer_lag_seconds",
                "seconds a write handed over at the scrape took to commit",
                value=self.metrics.writer_lag,
            )
            stats = writer.stats
            for name, what, value in (
                ("stud8_writer_batches", "transactions the writer committed", stats.batches),
                ("stud8_writer_jobs", "writes the writer did", stats.jobs),
                ("stud8_database_errors", "writes refused or failed", stats.failed),
                (
                    "stud8_database_retries",
                    "writes tried again after a database error",
                    stats.retries,
                ),
            ):
                yield CounterMetricFamily(name, what, value=value)
        alarms = self.metrics.alarms
        if alarms is not None:  # a room on a database: its books' self-check
            yield CounterMetricFamily(
                "stud8_books_alarms",
                "the books' alarms (a table's stacks and ledger differ)",
                value=alarms.count,
            )
        node: Any = self.metrics.node
        if node is not None:
            yield GaugeMetricFamily(
                "stud8_node_leases", "tables whose lease this node holds", value=len(lobby.tables)
            )
            lost = getattr(node.bus, "lost_messages", 0)
            yield CounterMetricFamily(
                "stud8_bus_lost_messages", "bus messages undecodable or failed", value=lost
            )
            counts: Any = getattr(node.bus, "counts", None)  # (bus/requests.BusCounts)
            if counts is not None:
                carried = CounterMetricFamily(
                    "stud8_bus_messages",
                    "messages this node's bus published to Redis (out) and read (in)",
                    labels=["direction"],
                )
                carried.add_metric(["out"], counts.published)
                carried.add_metric(["in"], counts.received)
                yield carried
                yield CounterMetricFamily(
                    "stud8_bus_events_unpublished",
                    "events of this node's tables not published: no other node followed them",
                    value=counts.unpublished,
                )
                yield SummaryMetricFamily(
                    "stud8_bus_request_seconds",
                    "this node's requests to the nodes running their tables, answered: "
                    "the seconds there and back (the bus's lag)",
                    count_value=counts.answered,
                    sum_value=counts.answer_seconds,
                )
                yield CounterMetricFamily(
                    "stud8_bus_unanswered",
                    "this node's requests to other nodes not answered in time",
                    value=counts.unanswered,
                )


class RoomMetrics:
    """A room's metrics (see the module); ``node``: a cluster node's, or None."""

    def __init__(self, room: RoomServices, node: object | None = None) -> None:
        self.room = room
        self.node = node
        self.registry = CollectorRegistry(auto_describe=True)
        self.actions = Counter(
            "stud8_actions", "players' actions the tables took", registry=self.registry
        )
        self.latency = Histogram(
            "stud8_action_seconds",
            "seconds from a player's action message to the table's answer",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.writer_lag = 0.0
        self.alarms: BooksAlarms | None = None  # the books' alarms (a room on a database)
        self.registry.register(_RoomCollector(room, self))

    def action(self, seconds: float) -> None:
        self.actions.inc()
        self.latency.observe(seconds)

    async def exposition(self) -> bytes:
        """The metrics as Prometheus reads them (the writer's lag measured now)."""
        writer = self.room.writer
        if writer is not None:
            started = time.monotonic()
            try:
                await asyncio.wait_for(writer.drain(), LAG_PROBE_SECONDS)
                self.writer_lag = time.monotonic() - started
            except (TimeoutError, RuntimeError):  # stuck (it says so) or closed
                self.writer_lag = time.monotonic() - started
        return generate_latest(self.registry)


async def metrics(request: Request) -> Response:
    """``GET /metrics``: the room's metrics, to operators (see the module)."""
    await operator_of(request)
    body = await request.app.state.metrics.exposition()
    return Response(body, media_type=CONTENT_TYPE_LATEST)


class MetricsListener:
    """``/metrics`` to anybody on a separate address (``--metrics-port``): a small
    HTTP/1.1 server of its own on the event loop, one answer a connection."""

    def __init__(self, metrics: RoomMetrics, host: str, port: int) -> None:
        self.metrics = metrics
        self.host = host
        self.port = port
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, self.host, self.port)
        bound = self._server.sockets[0].getsockname()
        self.port = bound[1]
        log.info("metrics on http://%s:%d/metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            words = head.split(b"\r\n", 1)[0].split(b" ")
            method, path = (words[0], words[1]) if len(words) > 1 else (b"", b"")
            if method != b"GET" or path.split(b"?")[0] != b"/metrics":
                status, kind, body = b"404 Not Found", b"text/plain", b"only /metrics here\n"
            else:
                status, kind = b"200 OK", CONTENT_TYPE_LATEST.encode()
                body = await self.metrics.exposition()
            writer.write(
                b"HTTP/1.1 "
                + status
                + b"\r\nContent-Type: "
                + kind
                + b"\r\nContent-Length: "
                + str(len(body)).encode()
                + b"\r\nConnection: close\r\n\r\n"
                + body
            )
            await writer.drain()
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            pass  # a client gone or too slow: nothing to answer
        finally:
            writer.close()
