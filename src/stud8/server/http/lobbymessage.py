"""The operator's message to everyone, pushed to every table viewer of this node.

The message is kept in the room's database (``lobby_messages``,
:class:`~stud8.server.books.moderation.Moderation`), so it survives a restart and
every node reads the same one. :class:`LobbyMessageWatch` reads it every
:data:`WATCH_SECONDS` (the one way a node hears of a message posted through
another), and at once when this node's console posts or withdraws one
(:meth:`LobbyMessageWatch.poke`); at each change it sends
:class:`~stud8.server.wire.server.LobbyMessageShown` to every websocket of this node,
and the edge says it after each welcome while it is shown. The lobby (a page that
polls ``GET /api/v1/tables``) reads it from the lobby's answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from stud8.server.books.moderation import LobbyMessage, Moderation
from stud8.server.edge import Edge
from stud8.server.wire.rest import LobbyNotice
from stud8.server.wire.server import LobbyMessageShown

__all__ = ["WATCH_SECONDS", "LobbyMessageWatch", "notice_of"]

log = logging.getLogger("stud8.server")

WATCH_SECONDS = 2.0  # how late another node's message may reach this node's tables


def notice_of(message: LobbyMessage | None) -> LobbyNotice | None:
    """The lobby's message as the wire has it (``GET /api/v1/tables``'s ``message``)."""
    if message is None:
        return None
    return LobbyNotice(message.id, message.text, message.posted_by, message.posted_at.isoformat())


class LobbyMessageWatch:
    """This node's watch on the lobby's message (see the module)."""

    def __init__(self, moderation: Moderation, edge: Edge, *, seconds: float = WATCH_SECONDS):
        self.moderation = moderation
        self.edge = edge
        self.seconds = seconds
        self.shown: LobbyNotice | None = None  # what this node's viewers were told
        self._poked = asyncio.Event()
        self._stopping = False

    def poke(self) -> None:
        """Read the message now (this node's console changed it)."""
        self._poked.set()

    async def look(self) -> bool:
        """Read the message; if it changed, tell every viewer. Whether it changed."""
        now = notice_of(await asyncio.to_thread(self.moderation.message))
        if now == self.shown:
            return False
        self.shown = now
        told = self.edge.show_lobby_message(
            LobbyMessageShown(now).encode(None), shown=now is not None
        )
        log.info("the lobby message %s (%d viewers told)", "shown" if now else "withdrawn", told)
        return True

    async def run(self) -> None:
        """Look now, then every ``seconds`` or when poked, until :meth:`stop`."""
        while not self._stopping:
            self._poked.clear()
            try:
                await self.look()
            except Exception:  # the database away: the next look tries again
                log.exception("the lobby message could not be read")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self.seconds)

    def stop(self) -> None:
        """End :meth:`run` after its look in hand (not cancelled: a read in its
        thread would outlive the room's engine)."""
        self._stopping = True
        self._poked.set()
