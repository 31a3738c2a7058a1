"""Databases, ports and in-process servers for the tests that run the room.

``STUD8_TEST_POSTGRES_URL`` names a scratch PostgreSQL database the tests may wipe
(``.ci/run`` starts one); without it the PostgreSQL cases skip, saying why.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from sqlalchemy import text
from starlette.types import ASGIApp

from stud8.server.http.websocket import uvicorn_options
from stud8.server.storage import Base, create_engine_for

log = logging.getLogger("stud8.tests")

POSTGRES_URL = os.environ.get("STUD8_TEST_POSTGRES_URL", "")
NO_POSTGRES = "STUD8_TEST_POSTGRES_URL is not set (the CI script sets it to a scratch database)"


def fresh_database(kind: str, tmp_path: Path, name: str = "room.db") -> str:
    """The URL of an empty database: a new SQLite file, or the scratch PostgreSQL
    database wiped (the test skips when there is none)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / name}"
    if not POSTGRES_URL:
        pytest.skip(NO_POSTGRES)
    engine = create_engine_for(POSTGRES_URL)
    with engine.begin() as connection:
        Base.metadata.drop_all(connection)
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    engine.dispose()
    return POSTGRES_URL


def free_port() -> int:
    """A port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@asynccontextmanager
async def serving(
    app: ASGIApp,
    *,
    room_protocol: bool = True,
    stop_seconds: float = 10,
    stuck: Callable[[], str] | None = None,
    port: int = 0,
) -> AsyncIterator[int]:
    """``app`` on 127.0.0.1 (an ephemeral port, or ``port``) in this event loop, its lifespan run;
    yields the port, and stops the server after (within ``stop_seconds``; if not,
    the log says where its tasks wait, and what ``stuck()`` says). The websockets are
    served by the room's own protocol, as ``stud8 serve`` serves them
    (``room_protocol=False``: uvicorn's, so the edge writes through the plain ASGI
    ``send``)."""
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
        **uvicorn_options(room_protocol=room_protocol),  # as stud8 serve runs it
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    port = 0
    try:
        while not server.started:
            assert not task.done(), "the server did not start"
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield port
    finally:
        server.should_exit = True
        try:
            await asyncio.wait_for(asyncio.shield(task), stop_seconds)
        except TimeoutError:
            # say where the stop hangs: every task's stack, in the test's captured log
            why = f"the server on port {port} did not stop in {stop_seconds:g} s"
            log_tasks(why if stuck is None else f"{why}: {stuck()}")
            task.cancel()
            raise


def log_tasks(why: str) -> None:
    """Log (a warning) ``why`` and where each task of this event loop waits: its
    chain of awaits, outermost first (a task's own stack shows only its top)."""
    lines = []
    for each in asyncio.all_tasks():
        lines.append(f"{each.get_name()}:")
        awaited: Any = each.get_coro()
        while awaited is not None:
            frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "ag_frame", None)
            if frame is not None:
                code = frame.f_code
                lines.append(f"  {code.co_filename}:{frame.f_lineno} {code.co_name}")
            awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "ag_await", None)
            if type(awaited).__name__ == "async_generator_asend":  # on, into its generator
                awaited = next(
                    (g for g in gc.get_referents(awaited) if hasattr(g, "ag_frame")), None
                )
    log.warning("%s; its tasks:\n%s", why, "\n".join(lines))


def database_activity(url: str) -> str:
    """What each connection to the PostgreSQL database at ``url`` is doing (its
    state, what it waits for, its query): a stop that hangs may wait for a lock."""
    engine = create_engine_for(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT pid, state, wait_event_type, wait_event, "
                    "now() - xact_start, left(query, 200) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            ).all()
        return "\n".join(" | ".join(str(v) for v in row) for row in rows) or "no connection"
    except Exception as exc:  # a diagnosis must not hide the failure it diagnoses
        return f"(not read: {exc})"
    finally:
        engine.dispose()
