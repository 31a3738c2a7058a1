"""The tables' chat, kept on the hands' time line, and the players silenced.

:class:`ChatStore` keeps (on the room's database)

- ``chat_lines``: every line said at a table, with the hand in play when it was
  said (none between hands) and its time, so a hand is read back with its chat
  (:meth:`ChatStore.lines`, ``GET /api/v1/tables/{table_id}/chat``);
- ``silenced_players``: the players an operator has silenced (``stud8 admin
  silence NAME``, or ``POST /api/v1/accounts/{name}/silence``): their lines are
  refused (:class:`ChatSilenced`, nothing kept, nothing shown), for good or until
  a time (``until``): a silence for a time ends by itself, as each line is checked
  against the clock.

A line is written by the table's books (:meth:`stud8.server.books.room.RoomBooks.chat_said`,
one job of the room's writer: the silence checked and the line kept in one
transaction). :class:`MemoryChat` is the same in memory (the tests' room,
:func:`~stud8.server.runtime.memory_app`).

>>> from datetime import UTC, datetime
>>> from stud8.server.table.books import ChatLine
>>> chat = MemoryChat()
>>> at = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
>>> chat.say(ChatLine(table_id="t1", hand_id="h1", player="ann", text="nh", said_at=at))
>>> [(line.player, line.text, line.hand_id) for line in chat.lines("t1", hand_id="h1")]
[('ann', 'nh', 'h1')]
>>> chat.silence("ann")
"ann is silenced: the player's chat messages are refused"
>>> chat.say(ChatLine(table_id="t1", hand_id=None, player="ann", text="hey", said_at=at))
Traceback (most recent call last):
...
stud8.server.books.chat.ChatSilenced: you are silenced by an operator: ...
"""

from __future__ import annotations

from collections import deque
from datetime import UTC, datetime

from sqlalchemy import Connection, Engine, delete, insert, or_, select

from stud8.server.books.ledger import LedgerError
from stud8.server.storage.db import reads_of
from stud8.server.storage.models import ChatLineRow, SilencedPlayer, as_utc
from stud8.server.table.books import ChatLine

__all__ = ["MAX_LINES", "SILENCED", "ChatSilenced", "ChatStore", "MemoryChat"]

MAX_LINES = 500  # lines read back at once
SILENCED = "you are silenced by an operator: your chat messages are not shown"
_MEMORY_LINES = 20_000  # lines a room in memory keeps


class ChatSilenced(LedgerError):
    """The player is silenced: his line is refused (nothing kept)."""


def _silenced_text(name: str, undo: bool, until: datetime | None = None) -> str:
    if undo:
        return f"{name} may chat again"
    ending = f" until {until:%Y-%m-%d %H:%M} UTC" if until is not None else ""
    return f"{name} is silenced{ending}: the player's chat messages are refused"


def _in_force(
    conn: Connection, key: str | None, now: datetime
) -> list[tuple[str, datetime | None]]:
    """The silences in force at ``now`` (of ``key`` only, if given): (player, until)."""
    query = select(SilencedPlayer.player, SilencedPlayer.until).where(
        or_(SilencedPlayer.until.is_(None), SilencedPlayer.until > now)
    )
    if key is not None:
        query = query.where(SilencedPlayer.name_key == key)
    rows = conn.execute(query.order_by(SilencedPlayer.name_key)).all()
    return [(row[0], None if row[1] is None else as_utc(row[1])) for row in rows]


class ChatStore:
    """The chat and the silenced players on the room's database (see the module)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reads = reads_of(engine)  # its reads take no lock (see reads_of)

    @staticmethod
    def say_in(conn: Connection, line: ChatLine) -> None:
        """Keep ``line`` in ``conn``'s transaction; ChatSilenced if its player is."""
        if _in_force(conn, line.player.casefold(), as_utc(line.said_at)):
            raise ChatSilenced(SILENCED)
        conn.execute(
            insert(ChatLineRow).values(
                table_id=line.table_id,
                hand_id=line.hand_id,
                player=line.player,
                text=line.text,
                said_at=line.said_at,
            )
        )

    def silence(self, name: str, *, undo: bool = False, until: datetime | None = None) -> str:
        """Silence ``name`` (until ``until``, or for good; or, ``undo``, let him chat
        again); what was done."""
        with self.engine.begin() as conn:
            return self.silence_in(conn, name, undo=undo, until=until)

    @staticmethod
    def silence_in(
        conn: Connection, name: str, *, undo: bool = False, until: datetime | None = None
    ) -> str:
        """:meth:`silence` in ``conn``'s transaction (with the moderation log's row)."""
        key = name.casefold()
        conn.execute(delete(SilencedPlayer).where(SilencedPlayer.name_key == key))
        if not undo:
            conn.execute(
                insert(SilencedPlayer).values(
                    name_key=key, player=name, silenced_at=datetime.now(UTC), until=until
                )
            )
        return _silenced_text(name, undo, until)

    @staticmethod
    def in_force_in(conn: Connection, name: str) -> bool:
        """Whether ``name`` is silenced now, read in ``conn``'s transaction."""
        return bool(_in_force(conn, name.casefold(), datetime.now(UTC)))

    def silenced(self) -> list[str]:
        """The players silenced now, by name (a silence whose time is up is not)."""
        return [name for name, _ in self.silences()]

    def silences(self) -> list[tuple[str, datetime | None]]:
        """The silences in force now: (player, until; None for good), by name."""
        with self._reads.connect() as conn:
            return _in_force(conn, None, datetime.now(UTC))

    def silence_of(self, name: str) -> tuple[bool, datetime | None]:
        """Whether ``name`` is silenced now, and until when (None: for good)."""
        with self._reads.connect() as conn:
            found = _in_force(conn, name.casefold(), datetime.now(UTC))
        return (True, found[0][1]) if found else (False, None)

    def lines(
        self, table_id: str, *, hand_id: str | None = None, limit: int = MAX_LINES
    ) -> list[ChatLine]:
        """The table's last ``limit`` lines (of hand ``hand_id`` only, if given),
        oldest first."""
        rows_of = ChatLineRow.__table__.c
        query = select(ChatLineRow.__table__).where(rows_of.table_id == table_id)
        if hand_id is not None:
            query = query.where(rows_of.hand_id == hand_id)
        query = query.order_by(rows_of.id.desc()).limit(max(0, limit))
        with self._reads.connect() as conn:
            rows = conn.execute(query).all()
        return [
            ChatLine(
                table_id=row.table_id,
                hand_id=row.hand_id,
                player=row.player,
                text=row.text,
                said_at=as_utc(row.said_at),
            )
            for row in reversed(rows)
        ]


class MemoryChat:
    """The chat and the silenced players in memory (see the module)."""

    def __init__(self) -> None:
        self._lines: deque[ChatLine] = deque(maxlen=_MEMORY_LINES)
        # case-folded name: (name, until; None for good)
        self._silenced: dict[str, tuple[str, datetime | None]] = {}

    def _in_force(self, key: str, now: datetime) -> bool:
        found = self._silenced.get(key)
        return found is not None and (found[1] is None or found[1] > now)

    def say(self, line: ChatLine) -> None:
        if self._in_force(line.player.casefold(), as_utc(line.said_at)):
            raise ChatSilenced(SILENCED)
        self._lines.append(line)

    def silence(self, name: str, *, undo: bool = False, until: datetime | None = None) -> str:
        if undo:
            self._silenced.pop(name.casefold(), None)
        else:
            self._silenced[name.casefold()] = (name, until)
        return _silenced_text(name, undo, until)

    def silence_of(self, name: str) -> tuple[bool, datetime | None]:
        found = self._silenced.get(name.casefold())
        if found is None or not self._in_force(name.casefold(), datetime.now(UTC)):
            return False, None
        return True, found[1]

    def silenced(self) -> list[str]:
        now = datetime.now(UTC)
        return sorted(
            (name for key, (name, _) in self._silenced.items() if self._in_force(key, now)),
            key=str.casefold,
        )

    def lines(
        self, table_id: str, *, hand_id: str | None = None, limit: int = MAX_LINES
    ) -> list[ChatLine]:
        found = [
            line
            for line in self._lines
            if line.table_id == table_id and (hand_id is None or line.hand_id == hand_id)
        ]
        return found[-limit:] if limit > 0 else []
