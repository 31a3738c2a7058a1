"""The tournament director: events in, decisions out; pure and deterministic.

A :class:`Director` holds a tournament's whole state: the entries and their chips,
the tables and their seats, the hand in play at each table (with every dealt seat's
chips at the deal), the level clock, the eliminations and the random source it draws
seats from. :meth:`Director.handle` takes one event (:mod:`stud8.tournament.events`)
and returns the decisions it leads to; bad input raises a :class:`DirectorError`
(a ValueError) and changes nothing. The state goes to JSON and back
(:meth:`Director.to_dict`, :meth:`Director.from_dict`) between any two events.

Seating, balancing and breaking follow the Poker TDA rules 7, 8, 10 and 11 as
:mod:`stud8.tournament.seating` details; placing and prizes are
:mod:`stud8.tournament.placing`'s; docs/tournaments.md has them all.

The director's chips are the chips as of each table's last finished hand: a hand in
play changes nothing until it is reported finished, so a hand cut short
(:class:`~stud8.tournament.events.HandCancelled`) simply leaves every player with what
he had when it was dealt (the big rooms' policy), and the table is dealt again.

>>> import random
>>> from stud8.tournament import STRUCTURES, TournamentDefinition
>>> from stud8.tournament.events import DealHand, HandFinished, Register
>>> d = TournamentDefinition(structure=STRUCTURES["turbo"], max_entrants=2, buy_in=10)
>>> td = Director(d, rng=random.Random(1))
>>> _ = td.handle(Register(now=0, player="ann"))
>>> deal = [x for x in td.handle(Register(now=1, player="bob")) if isinstance(x, DealHand)][0]
>>> deal.seats
((2, 2, 1500), (3, 1, 1500))
>>> out = td.handle(HandFinished(now=40, table=1, hand=1, stacks=((2, 3000), (3, 0))))
>>> out[-1].results[0]
Result(entry=2, player='bob', place=1, shared=1, prize=20)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from stud8.tournament.definition import (
    Break,
    Level,
    Start,
    TournamentDefinition,
    TournamentError,
)
from stud8.tournament.events import (
    Busted,
    Cancelled,
    DealHand,
    Decision,
    Event,
    FinalTable,
    Finished,
    HandCancelled,
    HandFinished,
    HandRestored,
    LevelStarted,
    Moved,
    MoveReason,
    Register,
    Registered,
    RegistrationClosed,
    Result,
    Resume,
    Seated,
    Started,
    TableBroken,
    TableOpened,
    Tick,
    Unregister,
    Unregistered,
)
from stud8.tournament.placing import results_of
from stud8.tournament.seating import (
    TableState,
    balance_move,
    break_table,
    draw_seats,
    late_seat,
    tables_needed,
)
from stud8.tournament.snapshot import state_from_dict, state_to_dict

__all__ = ["Director", "DirectorError", "EntryState", "Phase"]

MAX_NAME = 64


class DirectorError(TournamentError):
    """An event the director cannot take (the message says why); nothing changed."""


class Phase(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(slots=True)
class EntryState:
    """One buy-in: a player may have several (re-entries), one alive at a time."""

    entry: int
    player: str
    chips: int
    table: int | None = None
    seat: int | None = None
    out: bool = False

    def to_list(self) -> list[Any]:
        return [self.entry, self.player, self.chips, self.table, self.seat, self.out]


class Director:
    """A tournament's director; see the module docstring."""

    def __init__(self, definition: TournamentDefinition, *, rng: random.Random) -> None:
        if not isinstance(definition, TournamentDefinition):
            raise DirectorError(f"a director needs a TournamentDefinition, got {definition!r}")
        if not isinstance(rng, random.Random):
            raise DirectorError(f"a director draws from a random.Random, got {rng!r}")
        self.definition = definition
        self.rng = rng
        self.phase = Phase.REGISTERING
        self.entries: dict[int, EntryState] = {}
        self.next_entry = 1
        self.busted = 0  # entries out
        self.tables: dict[int, TableState] = {}
        self.next_table = 1
        self.step = 0  # index into the structure's steps
        self.elapsed = 0.0  # seconds into the current step
        self.last_now: float | None = None
        self.hands_dealt = 0
        self.registration_open = True
        self.final_table = False
        self.closing: list[int] = []  # tables to break once their hand is over
        # eliminations, first out first; each a tie group in seat order, worst first
        # within a hand: (hand, entries)
        self.eliminations: list[tuple[int, tuple[int, ...]]] = []
        self.results: tuple[Result, ...] = ()

    # ------------------------------------------------------------------ reading
    @property
    def alive(self) -> list[EntryState]:
        """The entries still in (not busted), in order of entry."""
        return [e for e in self.entries.values() if not e.out]

    @property
    def players_left(self) -> int:
        """How many entries are still in (kept as a count: read at every event)."""
        return len(self.entries) - self.busted

    @property
    def prize_pool(self) -> int:
        return self.definition.buy_in * len(self.entries)

    @property
    def chips_in_play(self) -> int:
        return sum(e.chips for e in self.entries.values())

    @property
    def level(self) -> int:
        """The current level's number (from 1); during a break, the next level's."""
        steps = self.definition.structure.steps
        n = self.definition.structure.level_number(self.step)
        return n + 1 if isinstance(steps[self.step], Break) else n

    @property
    def on_break(self) -> bool:
        return self.phase is Phase.RUNNING and isinstance(self._step, Break)

    @property
    def _step(self) -> Level | Break:
        return self.definition.structure.steps[self.step]

    def next_deadline(self) -> float | None:
        """When time alone will next change something (a level or a break ending, a
        scheduled start), in the events' time; None if nothing is due."""
        d = self.definition
        if self.phase is Phase.REGISTERING and d.start is Start.AT_TIME:
            assert d.starts_at is not None
            return d.starts_at.timestamp()
        if self.phase is not Phase.RUNNING or self.last_now is None:
            return None
        seconds = self._step.seconds
        if seconds is None or self._at_last_level():
            return None
        return self.last_now + max(0.0, seconds - self.elapsed)

    def _at_last_level(self) -> bool:
        return self.step == len(self.definition.structure.steps) - 1

    # ------------------------------------------------------------------ handling
    def handle(self, event: Event) -> tuple[Decision, ...]:
        """Take one event; the decisions it leads to, in order."""
        self._check(event)
        out: list[Decision] = []
        if isinstance(event, Resume):
            self.last_now = event.now  # the time the room was down is not counted
        self._advance(event.now, out)
        if isinstance(event, Register):
            self._register(event.player, out)
        elif isinstance(event, Unregister):
            self._unregister(event.player, out)
        elif isinstance(event, HandFinished):
            self._finish_hand(event, out)
        elif isinstance(event, HandCancelled):
            self._cancel_hand(event, out)
        self._schedule(out)
        return tuple(out)

    def _check(self, event: object) -> None:
        """Refuse a bad event before anything changes."""
        if not isinstance(event, (Tick, Resume, Register, Unregister, HandFinished, HandCancelled)):
            raise DirectorError(f"not a tournament event: {event!r}")
        now = event.now
        if not isinstance(now, (int, float)) or isinstance(now, bool) or now != now:
            raise DirectorError(f"an event's time is a number of seconds, got {now!r}")
        if self.last_now is not None and now < self.last_now and not isinstance(event, Resume):
            raise DirectorError(f"time went backwards: {now} after {self.last_now}")
        if self.phase in (Phase.FINISHED, Phase.CANCELLED) and not isinstance(
            event, (Tick, Resume)
        ):
            raise DirectorError(f"the tournament is {self.phase.value}")
        if isinstance(event, (Register, Unregister)):
            self._check_registration(event)
        elif isinstance(event, (HandFinished, HandCancelled)):
            self._check_hand(event)

    def _check_registration(self, event: Register | Unregister) -> None:
        player = event.player
        if (
            not isinstance(player, str)
            or not 1 <= len(player) <= MAX_NAME
            or not player.isprintable()
        ):
            raise DirectorError(
                f"a player's name is 1 to {MAX_NAME} printable characters, got {player!r}"
            )
        mine = [e for e in self.entries.values() if e.player == player]
        live = [e for e in mine if not e.out]
        d = self.definition
        if isinstance(event, Unregister):
            if self.phase is not Phase.REGISTERING or self._start_due(event.now):
                raise DirectorError(f"{player} cannot unregister: the tournament has started")
            if not live:
                raise DirectorError(f"{player} is not registered")
            return
        if live:
            raise DirectorError(f"{player} is already registered (entry {live[0].entry})")
        if self.phase is Phase.REGISTERING and self._start_due(event.now):
            if len(self.entries) < d.min_entrants:
                raise DirectorError(
                    f"{player} cannot register: too few entrants, the tournament does not start"
                )
            if not d.late_registration:
                raise DirectorError(f"{player} cannot register: the tournament has started")
        if self.phase is Phase.RUNNING:
            if not self._registration_open_at(event.now):
                raise DirectorError(f"{player} cannot register: late registration is closed")
            if mine and len(mine) > d.reentries:
                raise DirectorError(
                    f"{player} cannot re-enter: {len(mine) - 1} re-entries of {d.reentries} used"
                )
        if len(self.entries) >= d.max_entrants:
            raise DirectorError(
                f"{player} cannot register: the tournament is full ({d.max_entrants})"
            )

    def _start_due(self, now: float) -> bool:
        d = self.definition
        return d.starts_at is not None and now >= d.starts_at.timestamp()

    def _registration_open_at(self, now: float) -> bool:
        if not self.registration_open:
            return False
        step, _ = self._clock_at(now)
        last_open = self._index_of_level(self.definition.late_registration)
        return last_open is not None and step <= last_open

    def _index_of_level(self, number: int) -> int | None:
        if number < 1:
            return None
        n = 0
        for i, s in enumerate(self.definition.structure.steps):
            if isinstance(s, Level):
                n += 1
                if n == number:
                    return i
        return None  # pragma: no cover - the definition checks late_registration

    def _check_hand(self, event: HandFinished | HandCancelled) -> None:
        if self.phase is not Phase.RUNNING:
            raise DirectorError("no hand is in play: the tournament is not running")
        table = self.tables.get(event.table) if isinstance(event.table, int) else None
        if table is None:
            raise DirectorError(f"there is no table {event.table!r}")
        if table.hand is None or table.hand != event.hand:
            playing = "no hand" if table.hand is None else f"hand {table.hand}"
            raise DirectorError(
                f"table {table.number} is playing {playing}, not hand {event.hand!r}"
            )
        if isinstance(event, HandCancelled):
            return
        stacks = event.stacks
        if not isinstance(stacks, tuple) or not all(
            isinstance(p, tuple) and len(p) == 2 for p in stacks
        ):
            raise DirectorError(
                f"hand {event.hand}: stacks are (seat, chips) pairs, got {stacks!r}"
            )
        seats = [s for s, _ in stacks]
        if sorted(seats) != sorted(table.dealt) or len(set(seats)) != len(seats):
            raise DirectorError(
                f"hand {event.hand}: stacks for seats {seats}, but seats "
                f"{sorted(table.dealt)} were dealt"
            )
        for seat, chips in stacks:
            if not isinstance(chips, int) or isinstance(chips, bool) or chips < 0:
                raise DirectorError(
                    f"hand {event.hand}, seat {seat}: chips {chips!r} are not a whole number"
                )
        before = sum(c for _, c in table.dealt.values())
        after = sum(c for _, c in stacks)
        if after != before:
            raise DirectorError(
                f"hand {event.hand}: the stacks sum to {after}, but {before} were dealt "
                "(tournament chips are neither made nor lost)"
            )

    # ------------------------------------------------------------------ the clock
    def _clock_at(self, now: float) -> tuple[int, float]:
        """The step and the seconds into it at ``now``, time alone passing."""
        step, elapsed = self.step, self.elapsed
        if self.phase is not Phase.RUNNING or self.last_now is None:
            return step, elapsed
        elapsed += max(0.0, now - self.last_now)
        steps = self.definition.structure.steps
        while step < len(steps) - 1:
            seconds = steps[step].seconds
            if seconds is None or elapsed < seconds:
                break
            elapsed -= seconds
            step += 1
        return step, elapsed

    def _advance(self, now: float, out: list[Decision]) -> None:
        if self.phase is Phase.REGISTERING:
            self.last_now = now
            d = self.definition
            if self._start_due(now):
                if len(self.entries) < d.min_entrants:
                    self.phase = Phase.CANCELLED
                    out.append(
                        Cancelled(reason=f"{len(self.entries)} registered, {d.min_entrants} needed")
                    )
                else:
                    self._start(out)
            return
        step, elapsed = self._clock_at(now)
        self.last_now = now
        if self.phase is not Phase.RUNNING:
            return
        while self.step < step:
            self._next_step(out)
        self.elapsed = elapsed

    def _next_step(self, out: list[Decision]) -> None:
        self.step += 1
        self.elapsed = 0.0
        for t in self.tables.values():
            t.hands_in_level = 0
        if isinstance(self._step, Level):
            lv = self.definition.level(self.level)
            out.append(LevelStarted(level=self.level, stakes=lv.stakes))
        else:
            lv = self.definition.level(self.level)
            out.append(
                LevelStarted(level=self.level, stakes=lv.stakes, break_minutes=self._step.minutes)
            )
        self._maybe_close_registration(out)

    def _maybe_close_registration(self, out: list[Decision]) -> None:
        if not self.registration_open or self.phase is not Phase.RUNNING:
            return
        last_open = self._index_of_level(self.definition.late_registration)
        if last_open is None or self.step > last_open:
            self.registration_open = False
            out.append(RegistrationClosed(entries=len(self.entries), prize_pool=self.prize_pool))

    # ------------------------------------------------------------- registration
    def _new_entry(self, player: str) -> EntryState:
        entry = EntryState(
            entry=self.next_entry, player=player, chips=self.definition.starting_chips
        )
        self.entries[entry.entry] = entry
        self.next_entry += 1
        return entry

    def _register(self, player: str, out: list[Decision]) -> None:
        entry = self._new_entry(player)
        out.append(Registered(player=player, entry=entry.entry))
        if self.phase is Phase.RUNNING:
            self._seat_late(entry, out)
        elif self.definition.is_sit_and_go and len(self.entries) == self.definition.max_entrants:
            self._start(out)

    def _unregister(self, player: str, out: list[Decision]) -> None:
        entry = next(e for e in self.entries.values() if e.player == player and not e.out)
        del self.entries[entry.entry]
        out.append(Unregistered(player=player, entry=entry.entry))

    def _seat_late(self, entry: EntryState, out: list[Decision]) -> None:
        tables = [t for n, t in sorted(self.tables.items()) if n not in self.closing]
        where = late_seat(tables, self.rng)
        if where is None:
            table = self._open_table(out)
            seat = self.rng.randint(1, table.size)
        else:
            table, seat = where
        table.sit(seat, entry.entry)
        entry.table, entry.seat = table.number, seat
        out.append(
            Seated(
                entry=entry.entry,
                player=entry.player,
                table=table.number,
                seat=seat,
                chips=entry.chips,
            )
        )

    def _open_table(self, out: list[Decision]) -> TableState:
        table = TableState(number=self.next_table, size=self.definition.table_size)
        self.tables[table.number] = table
        self.next_table += 1
        out.append(TableOpened(table=table.number))
        return table

    def _start(self, out: list[Decision]) -> None:
        self.phase = Phase.RUNNING
        self.step, self.elapsed = 0, 0.0
        tables = draw_seats(sorted(self.entries), self.definition.table_size, self.rng)
        out.append(Started(entries=len(self.entries), prize_pool=self.prize_pool))
        for table in tables:
            self.tables[table.number] = table
            out.append(TableOpened(table=table.number))
        self.next_table = len(tables) + 1
        for table in tables:
            for seat, e in sorted(table.seats.items()):
                entry = self.entries[e]
                entry.table, entry.seat = table.number, seat
                out.append(
                    Seated(
                        entry=e,
                        player=entry.player,
                        table=table.number,
                        seat=seat,
                        chips=entry.chips,
                    )
                )
        out.append(LevelStarted(level=1, stakes=self.definition.level(1).stakes))
        self._maybe_close_registration(out)

    # ------------------------------------------------------------------ hands
    def _finish_hand(self, event: HandFinished, out: list[Decision]) -> None:
        table = self.tables[event.table]
        dealt = table.dealt
        busted: list[tuple[int, int, int]] = []  # (chips at the deal, seat, entry)
        for seat, chips in event.stacks:
            e, before = dealt[seat]
            entry = self.entries[e]
            entry.chips = chips
            if chips == 0:
                busted.append((before, seat, e))
        table.hand = None
        table.dealt = {}
        table.hands_in_level += 1
        self._place_busted(table, event.hand, busted, out)
        if self.players_left <= 1:
            self._finish(out)
            return
        lv = self._step
        if (
            isinstance(lv, Level)
            and lv.hands is not None
            and not self._at_last_level()
            and table.hands_in_level >= lv.hands
        ):
            self._next_step(out)

    def _place_busted(
        self, table: TableState, hand: int, busted: list[tuple[int, int, int]], out: list[Decision]
    ) -> None:
        if not busted:
            return
        for _, seat, e in busted:
            table.leave(seat)
            entry = self.entries[e]
            entry.out, entry.table, entry.seat = True, None, None
            self.busted += 1
        # fewer chips at the deal, worse place; equal chips share (in seat order)
        groups: dict[int, list[int]] = {}
        for before, _seat, e in sorted(busted):
            groups.setdefault(before, []).append(e)
        worst_first = [tuple(groups[c]) for c in sorted(groups)]
        for group in worst_first:
            self.eliminations.append((hand, group))
        better = self.players_left
        for group in reversed(worst_first):  # best first
            place = better + 1 if not self.registration_open else None
            for e in group:
                out.append(
                    Busted(
                        entry=e,
                        player=self.entries[e].player,
                        table=table.number,
                        hand=hand,
                        place=place,
                        shared=len(group),
                    )
                )
            better += len(group)

    def _cancel_hand(self, event: HandCancelled, out: list[Decision]) -> None:
        table = self.tables[event.table]
        seats = tuple((s, e, c) for s, (e, c) in sorted(table.dealt.items()))
        # the director's chips were never changed by the hand: they are the chips at the deal
        assert all(self.entries[e].chips == c for _, e, c in seats)
        table.hand = None
        table.dealt = {}
        out.append(HandRestored(table=table.number, hand=event.hand, seats=seats))

    def _finish(self, out: list[Decision]) -> None:
        self.phase = Phase.FINISHED
        self.registration_open = False
        winner = self.alive[0]
        for t in self.tables.values():
            t.hand, t.dealt = None, {}
        self.results = results_of(
            winner=winner.entry,
            eliminations=[g for _, g in self.eliminations],
            players={e.entry: e.player for e in self.entries.values()},
            pool=self.prize_pool,
            shares=self.definition.payouts,
        )
        out.append(Finished(results=self.results, prize_pool=self.prize_pool))

    # ------------------------------------------------------------- tables
    def _schedule(self, out: list[Decision]) -> None:
        """Break, balance, then deal every table that may play."""
        if self.phase is not Phase.RUNNING:
            return
        self._break_tables(out)
        self._balance(out)
        if len(self.tables) == 1 and not self.final_table:
            self.final_table = True
            (table,) = self.tables.values()
            out.append(FinalTable(table=table.number, players=table.players))
        if self.on_break:
            return
        counts = [t.players for n, t in self.tables.items() if n not in self.closing]
        longest = max(counts, default=0)
        for n, table in sorted(self.tables.items()):
            if table.in_hand or n in self.closing or table.players < 2:
                continue
            if table.players + 2 <= longest:
                continue  # halted (TDA 11D): it waits for a player from a table in a hand
            self._deal(table, out)

    def _break_tables(self, out: list[Decision]) -> None:
        """Break the tables the players no longer need, in a predetermined order, the
        highest-numbered first (TDA 10); one in a hand closes: it is not dealt again,
        and breaks when its hand is over."""
        excess = len(self.tables) - tables_needed(self.players_left, self.definition.table_size)
        victims = sorted(self.tables, reverse=True)[: max(0, excess)]
        self.closing = sorted(n for n in victims if self.tables[n].in_hand)
        others = [t for n, t in sorted(self.tables.items()) if n not in victims]
        for n in victims:
            victim = self.tables[n]
            if victim.in_hand:
                continue
            for from_seat, e, table, seat in break_table(victim, others, self.rng):
                victim.seats.pop(from_seat)
                self._move(e, victim.number, from_seat, table, seat, MoveReason.BREAK, out)
            del self.tables[n]
            out.append(TableBroken(table=n))

    def _balance(self, out: list[Decision]) -> None:
        while True:
            tables = [t for n, t in sorted(self.tables.items()) if n not in self.closing]
            move = balance_move(tables)
            if move is None:
                return
            source, from_seat, target, to_seat = move
            e = source.leave(from_seat)
            self._move(e, source.number, from_seat, target, to_seat, MoveReason.BALANCE, out)

    def _move(
        self,
        e: int,
        from_table: int,
        from_seat: int,
        table: TableState,
        seat: int,
        reason: MoveReason,
        out: list[Decision],
    ) -> None:
        table.sit(seat, e)
        entry = self.entries[e]
        entry.table, entry.seat = table.number, seat
        out.append(
            Moved(
                entry=e,
                player=entry.player,
                from_table=from_table,
                from_seat=from_seat,
                to_table=table.number,
                to_seat=seat,
                reason=reason,
            )
        )

    def _deal(self, table: TableState, out: list[Decision]) -> None:
        self.hands_dealt += 1
        table.hand = self.hands_dealt
        table.dealt = {s: (e, self.entries[e].chips) for s, e in sorted(table.seats.items())}
        seats = tuple((s, e, c) for s, (e, c) in table.dealt.items())
        out.append(DealHand(table=table.number, hand=table.hand, level=self.level, seats=seats))

    # ------------------------------------------------------------- (de)serialising
    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; :meth:`from_dict` gives it back."""
        return state_to_dict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Director:
        """A director from :meth:`to_dict`'s data (read back from JSON), checked: a
        record that does not hold together raises a DirectorError."""
        td = state_from_dict(cls, data)
        if td.phase is Phase.FINISHED:
            td._finish([])
        return td
