"""What the web app needs of the room: :class:`RoomServices`.

The room (:mod:`stud8.server.runtime`: on a database, or in memory) builds one
and hands it to :func:`stud8.server.http.app.create_app`; every endpoint finds it as
``request.app.state.room``. ``startup`` and ``shutdown`` are the room's own work
around serving (tables opened and restored; hands in play cancelled, the writer
drained), run by the app's lifespan.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Engine

from stud8.formats.record import HandRecord
from stud8.server.accounts.auth import Auth
from stud8.server.accounts.notes import MemoryNotes, Notes, StoredNotes
from stud8.server.accounts.preferences import (
    KeptSettings,
    MemoryPreferences,
    Preferences,
    StoredPreferences,
)
from stud8.server.accounts.seen import SessionAddresses
from stud8.server.books.chat import MemoryChat
from stud8.server.books.fairness import FairnessReports
from stud8.server.books.invitations import Invitations, MemoryInvitations
from stud8.server.books.journal import Journal
from stud8.server.books.ledger import Ledger
from stud8.server.books.moderation import Moderation
from stud8.server.books.writer import RoomWriter
from stud8.server.edge import Edge
from stud8.server.http.addresses import Proxies
from stud8.server.http.guard import AccountGuard, Guard
from stud8.server.http.lobbymessage import LobbyMessageWatch
from stud8.server.http.sessions import OpenSockets
from stud8.server.room.lobby import Lobby
from stud8.server.settings import Settings
from stud8.server.wire.admin import NodeLine

__all__ = ["ChatBook", "HandTexts", "NodeConsole", "RoomServices"]


class HandTexts(Protocol):
    """Where ``GET /api/v1/hands`` reads: :class:`~stud8.server.books.hands.HandStore`
    (a database) or :class:`~stud8.server.books.memory_hands.MemoryHandStore`."""

    def pokerstars_for(
        self,
        player: str,
        hand_ids: Sequence[str] | None = None,
        limit: int = 50,
        *,
        table: str | None = None,
    ) -> str: ...

    def pokerstars_for_operator(
        self,
        hand_ids: Sequence[str] | None = None,
        *,
        player: str | None = None,
        table: str | None = None,
        limit: int = 50,
    ) -> str: ...

    def record(self, hand_id: str) -> HandRecord | None: ...

    def ids_for(
        self, player: str | None, limit: int = 50, *, table: str | None = None
    ) -> list[tuple[str, str, bool]]: ...


class ChatBook(Protocol):
    """The tables' chat as kept, and who is silenced:
    :class:`~stud8.server.books.chat.ChatStore` (a database) or
    :class:`~stud8.server.books.chat.MemoryChat`."""

    def lines(
        self, table_id: str, *, hand_id: str | None = None, limit: int = 500
    ) -> list[Any]: ...

    def silence(self, name: str, *, undo: bool = False, until: datetime | None = None) -> str: ...

    def silenced(self) -> list[str]: ...

    def silence_of(self, name: str) -> tuple[bool, datetime | None]: ...


class NodeConsole(Protocol):
    """The room's nodes as the operator's console sees and drains them (a room on
    several nodes: :class:`~stud8.server.cluster.console.ClusterConsole`)."""

    async def nodes(self) -> list[NodeLine]: ...

    async def owners(self, table_ids: Sequence[str]) -> dict[str, str | None]:
        """The node holding each table's lease (None: nobody)."""
        ...

    async def drain(self, name: str, *, undo: bool = False) -> bool:
        """Ask node ``name`` to drain (or call it off); False if it is not live."""
        ...

    async def tournament_owners(self, tournament_ids: Sequence[int]) -> dict[int, str | None]:
        """The node holding each tournament's lease (None: nobody)."""
        ...


@dataclass(slots=True)
class RoomServices:
    """The room as the web app serves it (see the module)."""

    settings: Settings
    auth: Auth
    lobby: Lobby
    edge: Edge
    hands: HandTexts
    # private tables' codes and who they admitted (the room's database, or memory)
    invitations: Invitations = field(default_factory=MemoryInvitations)
    # awaited before reading the hands, so a hand just finished is in the answer
    flush: Callable[[], Awaitable[None]] | None = None
    # the room's writer, whose queue and lag the metrics read (None: a room in memory)
    writer: RoomWriter | None = None
    # a player's bank balance (chips not at a table), read off the loop; None: not kept
    bank: Callable[[str], int] | None = None
    startup: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    shutdown: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    # the limits on log-ins and sign-ups: counted here, or shared by the nodes of a room
    guard_for: Callable[[Settings], AccountGuard] = Guard
    guard: AccountGuard = field(init=False)
    sockets: OpenSockets = field(default_factory=OpenSockets)  # the open table websockets
    chat: ChatBook = field(default_factory=MemoryChat)  # the tables' chat, who is silenced
    # the operator's acts and their log, and the books read for him (None: a room in
    # memory, which keeps neither: /api/v1/admin/... answer 404)
    moderation: Moderation | None = None
    journal: Journal | None = None
    # each account's private notes on players and its settings (the database, or memory)
    notes: Notes = field(default_factory=MemoryNotes)
    preferences: Preferences = field(default_factory=MemoryPreferences)
    # the settings read lately, at hand for a room in one process (http/preferences.py)
    kept_settings: KeptSettings = field(default_factory=KeptSettings)
    proxies: Proxies = field(init=False)  # whose X-Forwarded-For says the client's address
    # the lobby's message watched, and pushed to this node's viewers (None: in memory)
    message_watch: LobbyMessageWatch | None = None
    # the room's nodes (None: a room in one process)
    nodes: NodeConsole | None = None
    # the fairness reports run for the console, kept for every node (None: in memory)
    fairness: FairnessReports | None = None
    fairness_running: bool = False  # a report runs on this node now
    # where each log-in session was last seen from, kept for every node (None: in memory)
    seen: SessionAddresses | None = None
    # a node's players sent to the node that runs their table: the table's websocket
    # address there (None: served here); None: every table served here (one process,
    # or a node without a public address)
    route: Callable[[str], Awaitable[str | None]] | None = None
    # the websocket origins of the room's nodes its pages may connect to besides their
    # own (their public addresses: a redirect followed), None: their own only
    socket_origins: Callable[[], tuple[str, ...]] | None = None

    def keep_console(self, engine: Engine, ledger: Ledger) -> None:
        """The operator's console on the room's database: his acts and their log
        (:class:`Moderation`), the books read for him (:class:`Journal`)."""
        self.moderation = Moderation(engine, ledger)
        self.journal = Journal(engine)
        self.fairness = FairnessReports(engine)
        self.seen = SessionAddresses(engine)
        self.shutdown.append(self.seen.flush)  # the addresses noted last, written
        self.message_watch = LobbyMessageWatch(self.moderation, self.edge)

    async def seen_from(self, token: str, address: str) -> None:
        """The session of ``token`` was seen from ``address``: kept for every node's
        console, returning once written (nothing in memory; never raises: see
        :mod:`~.accounts.seen`)."""
        if self.seen is not None and self.seen.note(token, address):
            await self.seen.flush()

    def keep_accounts_own(self, engine: Engine) -> None:
        """Each account's notes and settings on the room's database."""
        self.notes = StoredNotes(engine)
        self.preferences = StoredPreferences(engine)

    def __post_init__(self) -> None:
        self.guard = self.guard_for(self.settings)
        self.proxies = Proxies(self.settings.forwarded_allow_ips)
