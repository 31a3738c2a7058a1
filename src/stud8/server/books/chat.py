"""The tables' chat, kept on the hands' time line, and the players silenced.

:class:`ChatStore` keeps (on the room's database)

- ``chat_lines``: every line said at a table, with the hand in play when it was
  said (none between hands) and its time, so a hand is read back with its chat
  (:meth:`ChatStore.lines`, ``GET /api/v1/tables/{table_id}/chat``);
- ``silenced_players``: the players an operator has silenced (``stud8 admin
  silence NAME``, or ``POST /api/v1/accounts/{name}/silence``): their lines are
  refused (:class:`ChatSilenced`, nothing kept, nothing shown).

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

from sqlalchemy import Connection, Engine, delete, insert, select

from stud8.server.books.ledger import LedgerError
from stud8.server.storage.db import reads_of
from stud8.server.storage.models import ChatLineRow, SilencedPlayer
from stud8.server.table.books import ChatLine

__all__ = ["MAX_LINES", "SILENCED", "ChatSilenced", "ChatStore", "MemoryChat"]

MAX_LINES = 500  # lines read back at once
SILENCED = "you are silenced by an operator: your chat messages are not shown"
_MEMORY_LINES = 20_000  # lines a room in memory keeps


class ChatSilenced(LedgerError):
    """The player is silenced: his line is refused (nothing kept)."""


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _silenced_text(name: str, undo: bool) -> str:
    if undo:
        return f"{name} may chat again"
    return f"{name} is silenced: the player's chat messages are refused"


class ChatStore:
    """The chat and the silenced players on the room's database (see the module)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reads = reads_of(engine)  # its reads take no lock (see reads_of)

    @staticmethod
    def say_in(conn: Connection, line: ChatLine) -> None:
        """Keep ``line`` in ``conn``'s transaction; ChatSilenced if its player is."""
        key = line.player.casefold()
        found = conn.execute(
            select(SilencedPlayer.id).where(SilencedPlayer.name_key == key)
        ).first()
        if found is not None:
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

    def silence(self, name: str, *, undo: bool = False) -> str:
        """Silence ``name`` (or, ``undo``, let him chat again); what was done."""
        key = name.casefold()
        with self.engine.begin() as conn:
            conn.execute(delete(SilencedPlayer).where(SilencedPlayer.name_key == key))
            if not undo:
                conn.execute(
                    insert(SilencedPlayer).values(
                        name_key=key, player=name, silenced_at=datetime.now(UTC)
                    )
                )
        return _silenced_text(name, undo)

    def silenced(self) -> list[str]:
        """The players silenced now, by name."""
        with self._reads.connect() as conn:
            rows = conn.execute(select(SilencedPlayer.player).order_by(SilencedPlayer.name_key))
            return [row[0] for row in rows]

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
                said_at=_aware(row.said_at),
            )
            for row in reversed(rows)
        ]


class MemoryChat:
    """The chat and the silenced players in memory (see the module)."""

    def __init__(self) -> None:
        self._lines: deque[ChatLine] = deque(maxlen=_MEMORY_LINES)
        self._silenced: dict[str, str] = {}  # case-folded name: name

    def say(self, line: ChatLine) -> None:
        if line.player.casefold() in self._silenced:
            raise ChatSilenced(SILENCED)
        self._lines.append(line)

    def silence(self, name: str, *, undo: bool = False) -> str:
        if undo:
            self._silenced.pop(name.casefold(), None)
        else:
            self._silenced[name.casefold()] = name
        return _silenced_text(name, undo)

    def silenced(self) -> list[str]:
        return sorted(self._silenced.values(), key=str.casefold)

    def lines(
        self, table_id: str, *, hand_id: str | None = None, limit: int = MAX_LINES
    ) -> list[ChatLine]:
        found = [
            line
            for line in self._lines
            if line.table_id == table_id and (hand_id is None or line.hand_id == hand_id)
        ]
        return found[-limit:] if limit > 0 else []
