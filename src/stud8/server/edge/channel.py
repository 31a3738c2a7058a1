"""One table as this node's edge sees it: the :class:`TableChannel`.

The channel is the only follower of its table on this node, however many of the
table's viewers are connected here (lila-ws's way): it follows the table's events
through the bus (:mod:`stud8.server.bus`), encodes each once per visibility class
(:mod:`stud8.server.edge.projection`), keeps the texts of the recent ones, and hands
each viewer's connection the text of his class. It keeps the little it needs to
know without asking the table: who sits where, who plays in the hand in play,
whose turn it is and what he may do (from the events; the turn's clock carries the
legal actions).

A viewer who joins gets what he missed: the channel's own recent texts if it has
every event after his last, else what the table answers (its history, or a
snapshot seen as he may see it); then the live events, in order, with no gap and
no repeat; then his ``turn`` if it is his turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from stud8.core.actions import LegalAction
from stud8.core.events import Event
from stud8.server.bus import Following, Listed, TableBus
from stud8.server.edge.projection import Encoded, encode, snapshot_for
from stud8.server.table.events import (
    HandFinished,
    HandStarted,
    Numbered,
    SeatLeft,
    SeatTaken,
    TimerStarted,
)
from stud8.server.table.snapshot import TableSnapshot
from stud8.server.wire.server import TurnMessage

__all__ = ["TableChannel", "Viewer"]

log = logging.getLogger("stud8.server")

# Events whose texts the channel keeps, for viewers who come back after a short
# drop; one who missed more is caught up from the table's own history.
RECENT = 200
CATCH_UP_TRIES = 20  # a table moving between nodes answers within a few seconds
CATCH_UP_PAUSE = 1.0


@dataclass(eq=False, slots=True)
class Viewer:
    """One connection's place at the channel: who it is and where its texts go."""

    player: str | None
    everything: bool
    push: Callable[[str], None]
    live: bool = False
    # told when the table starts again from a snapshot (it moved to another node,
    # which does not know who is connected)
    renewed: Callable[[], None] | None = None


@dataclass(slots=True)
class _Turn:
    seat: int
    legal: tuple[LegalAction, ...]


@dataclass(eq=False, slots=True)
class TableChannel:
    """This node's edge of one table (see the module)."""

    bus: TableBus
    table_id: str
    listed: Listed
    viewers: list[Viewer] = field(default_factory=list)
    recent: deque[Encoded] = field(default_factory=lambda: deque(maxlen=RECENT))
    last_seq: int = 0
    seats: dict[int, str] = field(default_factory=dict)  # who sits where
    hand_seats: dict[int, str] = field(default_factory=dict)  # who plays in the hand
    turn: _Turn | None = None
    closed: bool = False
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    _early: list[Numbered] = field(default_factory=list)  # before the first snapshot
    _following: Following | None = None
    _resync: asyncio.Task[None] | None = None  # catching up after a gap
    _held: list[Numbered] = field(default_factory=list)  # what came meanwhile

    async def start(self) -> None:
        """Follow the table, then learn where it stands (events that come meanwhile
        are kept and taken after)."""
        self._following = self.bus.follow(
            self.table_id, self._deliver, self._table_closed, self._lost
        )
        caught = await self.bus.catch_up(self.table_id, None)
        assert caught.snapshot is not None
        self._learn(caught.snapshot)
        early, self._early = self._early, []
        for item in early:
            if item.seq > self.last_seq:
                self._take(item)
        self._ready.set()

    def stop(self) -> None:
        if self._following is not None:
            self._following.close()
            self._following = None
        if self._resync is not None:
            self._resync.cancel()
            self._resync = None

    # ------------------------------------------------------------ the viewers
    def seat_of(self, player: str | None) -> int | None:
        return next((n for n, who in self.seats.items() if who == player), None)

    async def join(self, viewer: Viewer, last_seen: int | None) -> None:
        """Give ``viewer`` what he missed since ``last_seen`` (or a snapshot), then
        the live events; his turn if it is his."""
        await self._ready.wait()
        self.viewers.append(viewer)
        while not self.closed:
            if last_seen is not None and self._has_after(last_seen):
                self._replay(viewer, last_seen)
                break
            caught = await self.bus.catch_up(self.table_id, last_seen)
            if caught.events is not None:
                after = last_seen if last_seen is not None else 0
                for item in caught.events:
                    if item.seq > self.last_seq:
                        break  # not here yet: it comes with the live events
                    viewer.push(encode(item).text_for(viewer.player, viewer.everything))
                    after = item.seq
            else:
                snap = caught.snapshot
                assert snap is not None
                message = snapshot_for(snap, viewer.player, viewer.everything)
                viewer.push(message.encode(snap.seq))
                after = snap.seq
            if self._has_after(after):  # what came while the table answered
                self._replay(viewer, after)
                break
            last_seen = None  # too much came meanwhile: a fresh snapshot
        viewer.live = True
        self._send_turn(viewer)

    def leave(self, viewer: Viewer) -> None:
        if viewer in self.viewers:
            self.viewers.remove(viewer)

    def _has_after(self, seen: int) -> bool:
        """Whether the channel has every event after ``seen`` (seen itself too old
        or from the future: no)."""
        if seen > self.last_seq:
            return False
        if seen == self.last_seq:
            return True
        return bool(self.recent) and self.recent[0].seq <= seen + 1

    def _replay(self, viewer: Viewer, seen: int) -> None:
        player, everything = viewer.player, viewer.everything
        for encoded in self.recent:
            if encoded.seq > seen:
                viewer.push(encoded.text_for(player, everything))

    def _send_turn(self, viewer: Viewer) -> None:
        turn = self.turn
        if turn is None or viewer.player is None:
            return
        if self.hand_seats.get(turn.seat) == viewer.player:
            viewer.push(TurnMessage(turn.seat, turn.legal).encode(self.last_seq))

    # ------------------------------------------------------------ the table's events
    def _deliver(self, item: Numbered) -> None:
        if not self._ready.is_set():
            self._early.append(item)
            return
        if item.seq <= self.last_seq:
            return  # seen already
        if self._resync is not None:
            self._held.append(item)
            return
        if item.seq != self.last_seq + 1:
            # a gap: the bus lost some (between nodes), or the table moved to another
            # node and numbers its events anew; the table tells what was missed
            self._held.append(item)
            self._lost()
            return
        self._take(item)

    def _table_closed(self) -> None:
        self.closed = True
        self._following = None

    def _lost(self) -> None:
        """Events may have been lost: catch up from the table (once at a time)."""
        if self._resync is None and self._ready.is_set() and not self.closed:
            self._resync = asyncio.get_running_loop().create_task(self._catch_up())

    async def _catch_up(self) -> None:
        try:
            for attempt in range(CATCH_UP_TRIES):
                try:
                    caught = await self.bus.catch_up(self.table_id, self.last_seq)
                except LookupError as exc:  # moving: its new owner answers soon
                    log.info("table %s: catching up, try %d: %s", self.table_id, attempt, exc)
                    await asyncio.sleep(CATCH_UP_PAUSE)
                    continue
                if caught.events is not None:
                    for item in caught.events:
                        if item.seq > self.last_seq:
                            self._take(item)
                else:
                    assert caught.snapshot is not None
                    self._renew(caught.snapshot)
                break
            else:
                log.error("table %s: could not catch up; its viewers reconnect", self.table_id)
                self._table_closed()
                return
        finally:
            self._resync = None
        held, self._held = self._held, []
        for item in sorted(held, key=lambda i: i.seq):
            self._deliver(item)

    def _renew(self, snap: TableSnapshot) -> None:
        """Too much was missed: start again from a snapshot, as a viewer who joins."""
        self._learn(snap)
        self.recent.clear()
        for viewer in self.viewers:
            if viewer.live:
                viewer.push(snapshot_for(snap, viewer.player, viewer.everything).encode(snap.seq))
                self._send_turn(viewer)
                if viewer.renewed is not None:
                    viewer.renewed()

    def _learn(self, snap: TableSnapshot) -> None:
        self.last_seq = snap.seq
        self.seats = {s.seat: s.player for s in snap.seats}
        self.hand_seats = dict(snap.hand_seats)
        hand = snap.hand
        self.turn = None
        if hand is not None and hand.to_act is not None and snap.turn is not None:
            self.turn = _Turn(hand.to_act, hand.legal_actions)

    def _take(self, item: Numbered) -> None:
        encoded = encode(item)
        self.recent.append(encoded)
        self.last_seq = item.seq
        event = item.event
        turn_to: str | None = None
        if isinstance(event, Event):  # the hand moved on: a turn told before is over
            self.turn = None
        elif isinstance(event, TimerStarted):
            if item.legal is not None:
                self.turn = _Turn(event.seat, item.legal)
                turn_to = self.hand_seats.get(event.seat)
        elif isinstance(event, HandStarted):
            self.hand_seats = dict(item.seats or {})
        elif isinstance(event, HandFinished):
            self.turn = None
        elif isinstance(event, SeatTaken):
            self.seats[event.seat] = event.player
        elif isinstance(event, SeatLeft):
            self.seats.pop(event.seat, None)
        if encoded.whole is None:  # the same text for everyone: most events
            text = encoded.text
            for viewer in self.viewers:
                if viewer.live:
                    viewer.push(text)
        else:
            for viewer in self.viewers:
                if viewer.live:
                    viewer.push(encoded.text_for(viewer.player, viewer.everything))
        if turn_to is not None:
            assert self.turn is not None
            turn_text = TurnMessage(self.turn.seat, self.turn.legal).encode(item.seq)
            for viewer in self.viewers:
                if viewer.live and viewer.player == turn_to:
                    viewer.push(turn_text)
