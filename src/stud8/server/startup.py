"""The start-up steps of ``stud8 serve`` before its room opens, in this order.

1. **The hold** (:func:`hold_room`): the room takes its exclusive hold on the
   database (:mod:`stud8.server.storage.hold`) before it migrates or recovers
   anything, so a second room on a held database is refused with nothing changed
   (exit :data:`EXIT_HELD`, one line naming the holder);
2. **the port** (:func:`bind_port`): bound and listening before the crash recovery,
   so a room that could not serve never refunds a hand (exit :data:`EXIT_PORT`);
3. then the room opens (:func:`stud8.server.runtime.open_room`: the migrations, one
   process at a time, the recovery, the tables) and uvicorn serves on that socket.
"""

from __future__ import annotations

import logging
import socket

from stud8.server.settings import Settings
from stud8.server.storage.hold import EXIT_HELD, DatabaseHeld, Hold, HoldKind, hold_database
from stud8.server.storage.trouble import database_trouble

log = logging.getLogger("stud8.server")

__all__ = [
    "EXIT_HELD",
    "EXIT_PORT",
    "bind_port",
    "database_trouble_exit",
    "hold_and_bind",
    "hold_room",
]

# ``stud8 serve``'s exit codes (README, "Running the room"); 1: the room could not open
EXIT_PORT = 4  # the port cannot be listened on (in use, not allowed)


def hold_room(settings: Settings) -> Hold:
    """The room's hold on its database (:mod:`stud8.server.storage.hold`): a room in
    one process holds it alone, a node of several shares it with the nodes of other
    names. :class:`~stud8.server.storage.hold.DatabaseHeld` (naming the holder) if
    it is held already."""
    if settings.redis_url is not None:
        return hold_database(settings.database_url, HoldKind.NODE, node=settings.node_name)
    return hold_database(settings.database_url)


def bind_port(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (as uvicorn binds it), or OSError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
        sock.set_inheritable(True)
    except BaseException:
        sock.close()
        raise
    return sock


def hold_and_bind(settings: Settings) -> tuple[Hold, socket.socket] | int:
    """Steps 1 and 2 (see the module): the hold and the listening socket, or the exit
    code of the step that failed, said in one line in the log."""
    try:
        hold = hold_room(settings)
    except DatabaseHeld as exc:
        log.error("stud8 serve: not started: %s", exc)
        return EXIT_HELD
    except Exception as exc:
        return database_trouble_exit(exc, settings.database_url)
    try:
        return hold, bind_port(settings.host, settings.port)
    except OSError as exc:
        hold.release()
        where = f"{settings.host}:{settings.port}"
        log.error("stud8 serve: cannot listen on %s: %s", where, exc.strerror or exc)
        return EXIT_PORT


def database_trouble_exit(exc: Exception, url: str) -> int:
    """A database that cannot be reached or written: one line, its exit code
    (:mod:`stud8.server.storage.trouble`); anything else is a bug, raised."""
    trouble = database_trouble(exc, url)
    if trouble is None:
        raise exc
    line, code = trouble
    log.error("stud8 serve: not started: %s", line)
    return code
