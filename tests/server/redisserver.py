"""A throwaway Redis server on 127.0.0.1 for the tests of a room on several nodes.

Debian's ``redis-server`` (``.ci/run`` installs it): started on a free port with no
persistence, stopped after. Without the program the tests skip, saying why, except
under CI (``CI=true``), where its absence is a failure: CI must run them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis

from server.roomdb import free_port

NO_REDIS = "redis-server is not installed (apt-get install redis-server; .ci/run does)"


class RedisServer:
    """A redis-server process; :meth:`stop` and :meth:`start` (again, same port)."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        program = shutil.which("redis-server")
        if program is None:
            if os.environ.get("CI"):
                raise RuntimeError(NO_REDIS)
            pytest.skip(NO_REDIS)
        self.process = subprocess.Popen(
            [
                program,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
                "--logfile",
                "redis.log",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url)
        try:
            for _ in range(500):
                try:
                    if client.ping():
                        return
                except redis.ConnectionError:
                    time.sleep(0.01)
            raise RuntimeError(f"redis-server did not start on port {self.port}")
        finally:
            client.close()

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextmanager
def redis_server(workdir: Path) -> Iterator[RedisServer]:
    server = RedisServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()
