"""One writer per database: the room's writes, batched, off the event loop.

No table may have the event loop stopped by the database. So every write of the
running room (a hand's note, a hand's end: its settlement or refund with its record
and the removal of its note, a buy-in with its seat, a top-up, a cash-out with the
seat freed) is a *job* handed to the :class:`RoomWriter`, which writes them in order
from one thread of its own:

- the jobs handed over in one turn of the event loop are released together when
  that turn ends (``loop.call_soon``), and the thread takes every job released so
  far and writes them as **one transaction** (up to :data:`MAX_BATCH` jobs), each
  batch written first without a savepoint (each is two round trips more per job on
  PostgreSQL); if a job is refused (a :class:`~stud8.server.books.ledger.LedgerError`,
  a fenced table's :class:`~stud8.server.table.books.BooksFenced`, a duplicate key)
  the transaction is rolled back and the batch written again, each job in a
  savepoint of its own, so the refused job is undone alone and the others commit
  (a batch of one job: its transaction is its savepoint);
- the thread keeps its connection from one batch to the next (taking one from the
  pool pings the server first: a round trip more per batch); a connection found
  broken is dropped and the batch tried again on a new one;
- jobs are written in the order they were handed over, so a cash-out always sees
  the settlements of the hands before it;
- on a room of several nodes a job may be *fenced* (:class:`Fenced`: its table or
  tournament must still be this node's, :mod:`stud8.server.books.fencing`): the
  batch's fences are checked first, in its transaction, one locked read for all of
  them (not one per job: a round trip each); a job whose table is no longer ours is
  refused with :class:`~stud8.server.table.books.BooksFenced` and not run, the
  others go on (the check wrote nothing);
- a job is awaited (:meth:`RoomWriter.call`) until its batch has committed: its
  result, or the exception that undid it. A batch that cannot be written (the
  database is gone) fails every job in it, and nothing of it is written.

Crash safety is the ledger's and the hand notes': a hand is noted (durably)
before its cards are dealt, and the note is removed in the transaction that
settles it and stores its record (:mod:`stud8.server.books.room`). A crash before
that leaves the note, the ledger without the hand, and the table accounts as they
were before it: the restart refunds it (:mod:`stud8.server.books.recovery`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from stud8.server.books.ledger import LedgerError, retryable
from stud8.server.table.books import BooksFenced

log = logging.getLogger("stud8.server")

T = TypeVar("T")
Work = Callable[[Connection], Any]

MAX_BATCH = 500  # jobs in one transaction
ATTEMPTS = 8  # a batch hitting a lock or a serialization conflict is tried again


class Fences(Protocol):
    """What this node holds (its tables' or its tournaments' epochs), checked in a
    write's transaction (:mod:`stud8.server.books.fencing`)."""

    def refusals(self, conn: Connection, keys: Sequence[Any]) -> dict[Any, BooksFenced]:
        """In ``conn``'s transaction: the ``keys`` this node no longer holds, each
        with its refusal; the rows of all of them locked until the transaction ends
        (so no takeover passes between the check and the commit)."""
        ...


@dataclass(frozen=True, slots=True)
class Fenced:
    """A job's writes are this node's to make only while ``fences`` holds ``key``."""

    fences: Fences
    key: Hashable


@dataclass(slots=True)
class Job:
    """Some writes that succeed or fail together (one savepoint)."""

    work: Work
    what: str
    future: asyncio.Future[Any]
    fence: Fenced | None = None


MAX_REMEMBERED_FAILURES = 1_000  # failed writes remembered, to count their retries


@dataclass(slots=True)
class WriterStats:
    batches: int = 0
    jobs: int = 0
    failed: int = 0
    retries: int = 0  # writes asked again after a database error (the tables retry)
    largest: int = 0
    sizes: list[int] = field(default_factory=list)  # the last batches' sizes


class Writes(Protocol):
    """What writes through the room's writer: :class:`RoomWriter` itself, or a
    tournament's fenced writer on a node of several
    (:class:`~stud8.server.books.fencing.FencedWriter`)."""

    async def call(self, work: Callable[[Connection], T], *, what: str) -> T: ...

    async def drain(self) -> None: ...


class _Broken(Exception):
    """The thread's connection broke (its cause: the database's error)."""


class RoomWriter:
    """The room's database writes, in order, batched, from one thread."""

    def __init__(self, engine: Engine, *, max_batch: int = MAX_BATCH) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self.stats = WriterStats()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: list[Job] = []  # this turn of the loop's (loop thread only)
        self._released = False
        # each turn's jobs handed to the thread; None: stop once all before it is written
        self._ready: queue.SimpleQueue[list[Job] | None] = queue.SimpleQueue()
        self._stopping = False
        self._thread: threading.Thread | None = None
        # what failed on a database error (not a refusal), until it is asked again
        self._failed: set[str] = set()
        self._conn: Connection | None = None  # the thread's, kept between batches

    # ------------------------------------------------------------ the loop's side
    async def call(
        self, work: Callable[[Connection], T], *, what: str, fence: Fenced | None = None
    ) -> T:
        """Write ``work`` and wait until its batch is committed; its result, or
        the exception it raised (the job alone is undone). With ``fence``, ``work``
        runs only if this node still holds its key (else
        :class:`~stud8.server.table.books.BooksFenced`, nothing written). The same
        ``what`` asked again after a database error is counted a retry
        (``stats.retries``)."""
        if what in self._failed:
            self._failed.discard(what)
            self.stats.retries += 1
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._add(Job(work, what, future, fence))
        try:
            return await future
        except (LedgerError, BooksFenced):
            raise  # refused: not tried again
        except Exception:
            if len(self._failed) >= MAX_REMEMBERED_FAILURES:
                self._failed.clear()  # (writes that were never asked again)
            self._failed.add(what)
            raise

    async def drain(self) -> None:
        """Wait until everything handed over so far is written."""
        await self.call(lambda _conn: None, what="drain")

    def _add(self, job: Job) -> None:
        if self._stopping:
            raise RuntimeError("the room's writer is closed")
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
        self._pending.append(job)
        if not self._released:
            self._released = True
            loop.call_soon(self._release)
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="stud8-writer", daemon=True)
            self._thread.start()

    def _release(self) -> None:
        self._released = False
        jobs, self._pending = self._pending, []
        self._ready.put(jobs)  # a queue in C: the thread wakes without a Python lock

    def close(self) -> None:
        """Write what is left and stop the thread (blocking; after the loop's
        last job)."""
        if self._stopping:
            return
        self._stopping = True
        jobs, self._pending = self._pending, []
        self._ready.put(jobs)
        self._ready.put(None)
        if self._thread is not None:
            self._thread.join()

    def waiting(self) -> int:
        """The writes handed over and not taken by the thread yet, read as it stands:
        this turn's jobs and the turns waiting for the thread (about: a turn counts one)."""
        return len(self._pending) + self._ready.qsize()

    def describe(self) -> str:
        """Where the writer stands (for a log when something waits on it too long)."""
        thread = self._thread
        alive = "none" if thread is None else ("alive" if thread.is_alive() else "dead")
        return (
            f"thread {alive}; {len(self._pending)} job(s) not handed over yet "
            f"(release {'scheduled' if self._released else 'not scheduled'}); about "
            f"{self._ready.qsize()} turn(s) waiting for the thread; {self.stats.batches} "
            f"batch(es), {self.stats.jobs} job(s) written, {self.stats.failed} failed"
            f"{'; closed' if self._stopping else ''}"
        )

    # ------------------------------------------------------------ the thread
    def _run(self) -> None:
        ready = self._ready
        while True:
            handed = ready.get()
            stop = handed is None
            jobs = handed or []
            while not stop and not ready.empty():  # every turn released so far
                more = ready.get_nowait()
                if more is None:
                    stop = True
                else:
                    jobs.extend(more)
            for start in range(0, len(jobs), self.max_batch):
                self._write(jobs[start : start + self.max_batch])
            if stop:
                self._let_go()
                return

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A transaction on the thread's connection (made again if it broke)."""
        if self._conn is None or self._conn.invalidated or self._conn.closed:
            self._let_go()
            self._conn = self.engine.connect()
        conn = self._conn
        try:
            with conn.begin():
                yield conn
        except DBAPIError as exc:
            if exc.connection_invalidated:
                self._let_go()  # the next transaction takes a new one
                raise _Broken from exc
            raise

    def _let_go(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _write(self, jobs: list[Job]) -> None:
        outcomes: list[tuple[Job, Any, BaseException | None]]
        if len(jobs) == 1:
            outcomes = [self._alone(jobs[0])]
        else:
            outcomes = self._together(jobs)
        stats = self.stats
        stats.batches += 1
        stats.jobs += len(jobs)
        stats.largest = max(stats.largest, len(jobs))
        stats.sizes = [*stats.sizes[-99:], len(jobs)]
        for job, result, error in outcomes:
            if error is not None:
                stats.failed += 1
            self._settle(job, result, error)

    def _alone(self, job: Job) -> tuple[Job, Any, BaseException | None]:
        """A batch of one job: its own transaction is its savepoint (most batches
        are one job; a savepoint and its release are two more statements)."""
        duplicates = 0
        for attempt in range(ATTEMPTS):
            try:
                with self._transaction() as conn:
                    refused = _refusals(conn, [job]).get(0)
                    if refused is not None:
                        return job, None, refused
                    return job, job.work(conn), None
            except (LedgerError, BooksFenced) as exc:  # refused: nothing was written
                return job, None, exc
            except _Broken as broken:
                if attempt == 0:  # (what the pool's ping on checkout did)
                    continue
                cause = cast(DBAPIError, broken.__cause__)
                log.error("the room's writer could not write %s: %s", job.what, cause)
                return job, None, cause
            except IntegrityError as exc:
                # another connection made the same row first: the next try sees it
                duplicates += 1
                if duplicates == 3:
                    return job, None, exc
            except DBAPIError as exc:
                if attempt < ATTEMPTS - 1 and retryable(exc):
                    time.sleep(0.01 * (attempt + 1))
                    continue
                log.error("the room's writer could not write %s: %s", job.what, exc)
                return job, None, exc
            except Exception as exc:  # a bug in a job: log it, never kill the writer
                log.exception("the room's writer failed on %s", job.what)
                return job, None, exc
        return job, None, RuntimeError(f"{job.what}: not written after {ATTEMPTS} tries")

    def _together(self, jobs: list[Job]) -> list[tuple[Job, Any, BaseException | None]]:
        """Several jobs in one transaction: without savepoints, and if one is
        refused, again each in a savepoint of its own."""
        outcomes: list[tuple[Job, Any, BaseException | None]] = []
        alone = False  # each job in its savepoint
        for attempt in range(ATTEMPTS):
            outcomes = []
            try:
                with self._transaction() as conn:
                    refused = _refusals(conn, jobs)
                    for at, job in enumerate(jobs):
                        if at in refused:  # not run: nothing of it to undo
                            outcomes.append((job, None, refused[at]))
                        elif alone:
                            outcomes.append(self._one(conn, job))
                        else:
                            outcomes.append((job, job.work(conn), None))
                break
            except (LedgerError, BooksFenced, IntegrityError):
                alone = True  # rolled back: written again, each job undone alone
                continue
            except _Broken as broken:
                if attempt == 0:  # (what the pool's ping on checkout did)
                    continue
                cause = cast(DBAPIError, broken.__cause__)
                log.error("the room's writer could not write %d job(s): %s", len(jobs), cause)
                outcomes = [(job, None, cause) for job in jobs]
                break
            except DBAPIError as exc:
                if attempt < ATTEMPTS - 1 and retryable(exc):
                    time.sleep(0.01 * (attempt + 1))
                    continue
                log.error("the room's writer could not write %d job(s): %s", len(jobs), exc)
                outcomes = [(job, None, exc) for job in jobs]
                break
            except Exception as exc:  # a bug in a job: log it, never kill the writer
                log.exception("the room's writer failed on a batch of %d job(s)", len(jobs))
                outcomes = [(job, None, exc) for job in jobs]
                break
        return outcomes

    @staticmethod
    def _one(conn: Connection, job: Job) -> tuple[Job, Any, BaseException | None]:
        result: Any = None
        for attempt in range(3):
            try:
                with conn.begin_nested():
                    result = job.work(conn)
            except (LedgerError, BooksFenced) as exc:  # refused: this job alone is undone
                return job, None, exc
            except IntegrityError as exc:
                # another connection made the same row first (an account opened by
                # a sign-up at the same moment, on PostgreSQL): the next try sees it
                if attempt == 2:
                    return job, None, exc
                continue
            return job, result, None
        raise AssertionError("unreachable")

    def _settle(self, job: Job, result: Any, error: BaseException | None) -> None:
        future, loop = job.future, self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(_resolve, future, result, error)


def _refusals(conn: Connection, jobs: Sequence[Job]) -> dict[int, BooksFenced]:
    """The fenced jobs whose key this node no longer holds (by their place in
    ``jobs``), each kind of fence checked in one read for the whole batch; the
    checked rows stay locked until the batch commits."""
    keys: dict[int, tuple[Fences, dict[Hashable, list[int]]]] = {}
    for at, job in enumerate(jobs):
        if job.fence is not None:
            fences = job.fence.fences
            _, places = keys.setdefault(id(fences), (fences, {}))
            places.setdefault(job.fence.key, []).append(at)
    refused: dict[int, BooksFenced] = {}
    # always in the same order (by kind of fence, then by key: see refusals), so two
    # writers locking the same rows cannot deadlock
    for fences, places in sorted(keys.values(), key=lambda f: type(f[0]).__name__):
        for key, refusal in fences.refusals(conn, list(places)).items():
            for at in places[key]:
                refused[at] = refusal
    return refused


def _resolve(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(cast(object, result))
