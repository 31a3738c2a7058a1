"""A graceful stop: on SIGTERM the hands in play finish, and then the room stops.

``stud8 serve`` (one process) takes SIGTERM (``systemctl stop``, ``docker stop``,
``kill``) as: deal no new hand at any table, tell every player "the room is closing
after this hand" (a ``notice`` message, which the browser shows), let the hands in
play finish, at the cash tables and the tournaments', for up to ``stop_seconds``
(120 by default), and only then stop serving
as before: a hand still in play then is cancelled and refunded (the usual stop),
the players stay seated for the next start, and the process exits 0. SIGINT (Ctrl-C),
or a second SIGTERM, stops at once, as uvicorn always did.

:class:`GracefulStop` takes uvicorn's signal handling for SIGTERM: uvicorn reads
its server's ``handle_exit`` when it installs its handlers, and this one is put
there (the server is composed with it, not subclassed).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from types import FrameType
from typing import Any

from stud8.server.http.services import RoomServices
from stud8.server.tournaments.manager import Tournaments
from stud8.server.wire.server import NoticeMessage

log = logging.getLogger("stud8.server")

__all__ = ["CLOSING", "GracefulStop", "StopReport"]

CLOSING = "The room is closing after this hand."


class StopReport:
    """What a graceful stop did: the hands finished, those left to cancel, how long."""

    def __init__(self) -> None:
        self.in_play = 0
        self.finished = 0
        self.seconds = 0.0


class GracefulStop:
    """SIGTERM for ``server`` (a ``uvicorn.Server``): the hands finish first (see the module)."""

    def __init__(
        self,
        server: Any,
        room: RoomServices,
        seconds: float,
        tournaments: Tournaments | None = None,
    ) -> None:
        self.server = server
        self.room = room
        self.tournaments = tournaments
        self.seconds = seconds
        self.report: StopReport | None = None
        self._uvicorn_exit = server.handle_exit
        self._task: asyncio.Task[None] | None = None
        server.handle_exit = self.handle_exit

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """The signal handler uvicorn installs (called on the event loop's thread)."""
        if sig != signal.SIGTERM or self._task is not None or not self.server.started:
            self._uvicorn_exit(sig, frame)  # at once: SIGINT, a second SIGTERM, starting
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._uvicorn_exit(sig, frame)
            return
        self._task = loop.create_task(self.close(), name="graceful stop")

    async def close(self) -> None:
        """Finish the hands in play (up to ``seconds``), then let uvicorn stop."""
        report = self.report = StopReport()
        started = time.monotonic()
        tournaments = self.tournaments
        try:
            tables = [entry.table for entry in self.room.lobby.tables.values()]

            def in_play() -> int:
                cash = sum(1 for table in tables if table.hand is not None)
                return cash + (tournaments.hands_in_play() if tournaments is not None else 0)

            report.in_play = in_play()
            log.warning(
                "SIGTERM: the room is closing: no new hand; %d hand(s) in play finish "
                "(at most %g s)",
                report.in_play,
                self.seconds,
            )
            self.room.edge.notice(NoticeMessage(CLOSING).encode(None))
            waits = [table.hand_over() for table in tables]
            if tournaments is not None:
                waits.append(tournaments.finish_hands())
            ended = asyncio.gather(*waits)
            with contextlib.suppress(TimeoutError):  # the hands left are cancelled next
                await asyncio.wait_for(ended, self.seconds)
            left = in_play()
            report.finished = report.in_play - left
            report.seconds = time.monotonic() - started
            log.warning(
                "the room closed its tables: %d hand(s) finished in %.1f s%s",
                report.finished,
                report.seconds,
                f"; {left} still in play are cancelled and refunded" if left else "",
            )
        except Exception:  # never keep the room from stopping
            log.exception("the graceful stop failed: stopping now")
        finally:
            self.server.should_exit = True
