"""Running the tests: the shuffle's own deals on every core, or the room's stored hands.

>>> from stud8.tools.fairness import Shuffle
>>> report = run_offline(3000, Shuffle.NAIVE, seed=1, jobs=1)
>>> report.source.deals, report.verdict.value
(3000, 'fail')
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from stud8.core.events import CardDealt, CommunityCardDealt
from stud8.formats import HandHistoryError
from stud8.formats.jsonlog import CodecError, decode_deck, decode_event
from stud8.formats.record import FORMAT_VERSION
from stud8.tools.fairness import DEFAULT_ALPHA, DEFAULT_DEALS, Shuffle
from stud8.tools.fairness.report import FairnessReport, Source, judge
from stud8.tools.fairness.shuffles import Dealer
from stud8.tools.fairness.tally import Tally

__all__ = ["DEFAULT_DEALS", "Progress", "default_jobs", "run_offline", "run_stored"]

BLOCK = 25_000  # deals a process counts before it reports (the progress bar's step)
BATCH = 5_000  # deals counted at once (numpy arrays of this many rows)

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` as deals (or hands) are counted."""


class ProgressLine:
    """A bar redrawn in place on a terminal; elsewhere a plain line every ``every``
    seconds (a log file or a pipe gets no carriage returns)."""

    def __init__(self, out: TextIO, what: str, *, every: float = 10.0) -> None:
        self.out, self.what, self.every = out, what, every
        self.tty = out.isatty()
        self.start = time.perf_counter()
        self.last = -math.inf if not self.tty else 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        gap = 0.1 if self.tty else self.every
        if done < total and now - self.last < gap:
            return
        self.last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = f", {(total - done) / rate:.0f} s left" if rate and done < total else ""
        figures = f"{done:,}/{total:,} {self.what} ({rate:,.0f}/s{left})"
        if self.tty:
            width = 30
            filled = width * done // max(total, 1)
            self.out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {figures}   ")
        else:
            self.out.write(f"rng-report: {figures}\n")
        self.out.flush()

    def close(self) -> None:
        if self.tty:
            self.out.write("\r" + " " * 79 + "\r")
            self.out.flush()


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _load() -> tuple[float, ...]:
    try:
        return tuple(round(x, 2) for x in os.getloadavg())
    except OSError:  # pragma: no cover - no load average here
        return ()


def _block(task: tuple[Shuffle, int, int]) -> Tally:
    """One process's block of consecutive deals, counted."""
    shuffle, count, seed = task
    dealer = Dealer(shuffle, seed)
    tally = Tally.empty()
    while count > 0:
        n = min(BATCH, count)
        tally.add_decks(dealer.deal(n))
        count -= n
    return tally


def _worker_signals() -> None:
    """A forked worker takes the default SIGTERM and SIGINT, not handlers it inherited
    (a room's, a test's), so that the pool can always end it."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_offline(
    deals: int = DEFAULT_DEALS,
    shuffle: Shuffle = Shuffle.ROOM,
    *,
    seed: int = 1,
    jobs: int | None = None,
    alpha: float = DEFAULT_ALPHA,
    progress: Progress | None = None,
) -> FairnessReport:
    """Deal ``deals`` decks from ``shuffle`` in ``jobs`` processes (default: every
    core) and test them. Each process's block is a chain of consecutive deals; the
    broken shuffles' blocks are seeded from ``seed`` and their number."""
    jobs = jobs or default_jobs()
    sizes = [BLOCK] * (deals // BLOCK) + ([deals % BLOCK] if deals % BLOCK else [])
    tasks = [(shuffle, size, seed * 1_000_003 + i) for i, size in enumerate(sizes)]
    load = _load()
    begin = time.perf_counter()
    tally = Tally.empty()
    done = 0

    def count(block: Tally) -> None:
        nonlocal done
        tally.merge(block)
        done += block.deals
        if progress is not None:
            progress(done, deals)

    used = min(jobs, len(tasks)) or 1
    if used <= 1:
        for task in tasks:
            count(_block(task))
    else:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with context.Pool(processes=used, initializer=_worker_signals) as pool:
            for block in pool.imap_unordered(_block, tasks):
                count(block)
            # every block is in: the workers end by themselves (leaving the block
            # terminates them, which hung once a forked worker waited on the task queue)
            pool.close()
            pool.join()
    seconds = time.perf_counter() - begin
    source = Source(
        kind="offline",
        description=shuffle.description,
        deals=deals,
        seconds=seconds,
        processes=used,
        load=load,
        load_after=_load(),
    )
    return judge(source, tally, alpha)


@dataclass(frozen=True, slots=True)
class StoredDeal:
    """What the tests read of a stored hand: its deck (card codes in dealing order) and
    its cards as dealt, in order: (seat, card code, street), the community card at
    seat 0; a card the record hides is code -1 (it cannot be checked)."""

    hand_id: str
    deck: bytes
    dealt: list[tuple[int, int, int]]


_DEALT_KINDS = (CardDealt.kind, CommunityCardDealt.kind)


def deal_of_json(text: str) -> StoredDeal:
    """The deal of a stored record's JSON (:mod:`stud8.formats.record`), its deck and
    its deal events decoded by the format's own decoders and nothing else (reading
    the whole record costs three times as much); :class:`HandHistoryError` if it
    cannot be read."""
    try:
        obj = json.loads(text)
        if not isinstance(obj, dict) or obj.get("v") != FORMAT_VERSION:
            raise CodecError(f"not a version {FORMAT_VERSION} hand record")
        hand_id, events = obj["hand_id"], obj["events"]
        if not isinstance(hand_id, str) or not isinstance(events, list):
            raise CodecError("a record has a hand_id and a list of events")
        deck = bytes(card.code for card in decode_deck(obj["deck"]).cards)
        dealt = []
        for item in events:
            if isinstance(item, dict) and item.get("k") in _DEALT_KINDS:
                event = decode_event(item)
                if isinstance(event, CardDealt):
                    code = -1 if event.card is None else event.card.code
                    dealt.append((event.seat, code, event.street))
                elif isinstance(event, CommunityCardDealt):
                    dealt.append((0, event.card.code, 7))
    except (ValueError, KeyError, CodecError) as exc:
        raise HandHistoryError(f"a stored hand's record cannot be read: {exc}") from None
    return StoredDeal(hand_id, deck, dealt)


def run_stored(
    hands: Iterable[tuple[str, str]],
    total: int,
    *,
    description: str,
    left_out: int = 0,
    alpha: float = DEFAULT_ALPHA,
    progress: Progress | None = None,
) -> FairnessReport:
    """Test the stored hands, ``(table, record's JSON)`` in the order each table dealt them
    (``total`` of them, for the progress): their decks as the offline decks (the
    consecutive hands of a table as consecutive deals), their 3rd street by the
    table's seat, and every card as dealt."""
    load = _load()
    begin = time.perf_counter()
    tally = Tally.empty()
    rows: list[bytes] = []
    table: str | None = None

    def flush() -> None:
        if rows:
            decks = np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(len(rows), 52)
            tally.add_decks(decks, deal_seats=False)
            rows.clear()

    for done, (at, text) in enumerate(hands, start=1):
        if at != table:
            flush()
            tally.break_chain()
            table = at
        deal = deal_of_json(text)
        rows.append(deal.deck)
        tally.add_dealt(deal.hand_id, deal.deck, deal.dealt)
        if len(rows) >= BATCH:
            flush()
        if progress is not None:
            progress(done, total)
    flush()
    source = Source(
        kind="stored",
        description=description,
        deals=tally.deals,
        seconds=time.perf_counter() - begin,
        load=load,
        load_after=_load(),
        left_out=left_out,
    )
    return judge(source, tally, alpha)
