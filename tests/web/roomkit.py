"""Helpers of the browser tests: a room server on 127.0.0.1 in a thread, players in
their own browser contexts, reading the client's state, clicking through hands,
screenshots and layout checks."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Browser, ConsoleMessage, Page, ViewportSize
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from starlette.applications import Starlette

from stud8.core.cards import Deck
from stud8.server.books.memory import MemoryBooks
from stud8.server.http.websocket import uvicorn_options
from stud8.server.runtime import memory_app, open_room
from stud8.server.settings import Settings
from stud8.server.table.spec import TableSpec

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
BUY_IN = 200
LAPTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}


@dataclass
class Room:
    """A running server in a thread of its own: its address, and what to audit."""

    url: str
    server: uvicorn.Server
    thread: threading.Thread
    audit: Callable[[], bool]
    on_stop: Callable[[], None] = lambda: None
    stopped: bool = False

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        self.server.should_exit = True
        self.thread.join(15)
        self.on_stop()
        assert not self.thread.is_alive(), "the server did not stop"


def serve(
    app: Starlette,
    audit: Callable[[], bool],
    on_stop: Callable[[], None] = lambda: None,
    port: int = 0,
) -> Room:
    config = uvicorn.Config(  # the room's websocket protocol, as stud8 serve runs it
        app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", **uvicorn_options()
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="stud8-room", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    return Room(f"http://127.0.0.1:{port}", server, thread, audit, on_stop)


def start_room(
    spec: TableSpec,
    *,
    decks: Sequence[str] = (),
    operators: Sequence[str] = (),
    tables: int = 1,
) -> Room:
    """Table t1 (to t`tables`) of `spec` in a room in memory
    (:func:`~stud8.server.runtime.memory_app`) (with its hand histories). `decks` (card
    strings, dealing order) are dealt in turn, over and over; without them, seeded decks."""
    seeds = itertools.count(1)
    cycle = itertools.cycle(decks)

    def deck() -> Deck:
        return Deck.from_cards(next(cycle)) if decks else Deck.seeded(next(seeds))

    settings = Settings(default_tables=tables, starting_chips=1000, signups=1000)
    made = {name: "secret-" + name for name in operators}  # as Players.new logs them in
    app = memory_app(settings, spec=spec, deck_source=deck, operators=made)
    books: MemoryBooks = app.state.books
    return serve(app, books.audit)


def start_db_room(directory: Path, *, between_hands: float = 1.0, port: int = 0) -> Room:
    """The room as ``stud8 serve`` runs it, on a SQLite file in `directory` (new, or
    the one a room stopped before left: a restart): table t1 (no bots), and
    ``GET /api/v1/hands``; on `port` (0: any free one)."""
    settings = Settings(
        database_url=f"sqlite:///{directory / 'room.db'}",
        default_tables=1,
        bots_per_table=0,
        starting_chips=1000,
        signups=1000,
    )
    env = {"STUD8_BETWEEN_HANDS": str(between_hands), "STUD8_BOT_DELAY": "0"}
    opened = open_room(settings, env)
    return serve(opened.app, lambda: opened.ledger.audit().ok, opened.close, port)


@dataclass
class Console:
    """Every console error and uncaught exception of the pages it watches."""

    errors: list[str] = field(default_factory=list)
    # requests a test makes fail on purpose (Chromium logs every 4xx answer as an error)
    refused: list[tuple[str, str]] = field(default_factory=list)

    def expect_refusal(self, method: str, url_part: str) -> None:
        self.refused.append((method, url_part))

    def watch(self, page: Page) -> Page:
        failed: list[tuple[str, str]] = []
        page.on(
            "response",
            lambda r: failed.append((r.request.method, r.url)) if r.status >= 400 else None,
        )

        def expected(msg: ConsoleMessage) -> bool:
            url = msg.location.get("url", "")
            if "Failed to load resource" not in msg.text:
                return False
            methods = {m for m, u in failed if u == url}
            return any(part in url and method in methods for method, part in self.refused)

        def on_console(msg: ConsoleMessage) -> None:
            if msg.type == "error" and not expected(msg):
                self.errors.append(f"console: {msg.text} ({msg.location.get('url', '')})")

        page.on("console", on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        return page


@dataclass
class Players:
    """The browser, the room, a console watcher, and the pages opened (closed at the end)."""

    browser: Browser
    room: Room
    console: Console = field(default_factory=Console)
    opened: list[Page] = field(default_factory=list)

    def open(self, viewport: ViewportSize | None = None) -> Page:
        context = self.browser.new_context(viewport=viewport or LAPTOP, accept_downloads=True)
        page = self.console.watch(context.new_page())
        self.opened.append(page)
        page.set_default_timeout(10_000)
        page.goto(self.room.url + "/")
        return page

    def new(
        self,
        name: str,
        viewport: ViewportSize | None = None,
        table: str = "t1",
        *,
        existing: bool = False,
    ) -> Page:
        """A player who registers (or logs in, ``existing``: an operator made with the
        room) and sees the lobby."""
        page = self.open(viewport)
        page.fill("#name", name)
        page.fill("#password", "secret-" + name)
        page.click("#login" if existing else "#register")
        page.wait_for_selector(f'tr[data-table="{table}"]')
        return page

    def login(self, name: str, viewport: ViewportSize | None = None) -> Page:
        """A registered player who logs in afresh (a new browser) and sees the lobby."""
        page = self.open(viewport)
        page.fill("#name", name)
        page.fill("#password", "secret-" + name)
        page.click("#login")
        page.wait_for_selector('tr[data-table="t1"]')
        return page

    def close(self) -> None:
        for page in self.opened:
            page.context.close()


def sit(page: Page, buy_in: int = BUY_IN, table: str = "t1") -> int:
    page.fill(f'input.buyin[data-table="{table}"]', str(buy_in))
    page.click(f'button.sit[data-table="{table}"]')
    page.wait_for_function("() => window.stud8 && window.stud8.state.mySeat !== null")
    seat = page.evaluate("window.stud8.state.mySeat")
    assert isinstance(seat, int)
    return seat


def state(page: Page, expr: str) -> Any:
    return page.evaluate(f"(() => {{ const s = window.stud8.state; return {expr}; }})()")


def wait_state(page: Page, expr: str, timeout: float = 10_000) -> None:
    """Wait until the state makes `expr` true and the page has drawn that state.

    The client draws in the next animation frame after a message, so the state alone can be
    ahead of what the page shows.
    """
    page.wait_for_function(
        "() => { const c = window.stud8; const s = c && c.state;"
        f" return !!s && !!({expr}) && c.drawn(); }}",
        timeout=timeout,
    )


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def my_turn(page: Page) -> bool:
    return bool(state(page, "s.turn !== null && s.turn.seat === s.mySeat && s.sentFor !== s.turn"))


def wait_turn(pages: list[Page], timeout: float = 15) -> Page:
    """The page whose turn it is (waiting until there is one)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            if my_turn(page):
                page.wait_for_function(  # this turn drawn: its buttons, nothing left to draw
                    "() => window.stud8.drawn()"
                    " && !!document.querySelector('button.act:not([disabled])')"
                )
                return page
        time.sleep(0.05)
    raise AssertionError("nobody's turn came")


PASSIVE = ("check", "call", "bring_in")  # never folds or raises: the hand reaches showdown
Chooser = Callable[[Page, list[str]], str | None]


_BAR_JS = """() => {
  const s = window.stud8 && window.stud8.state;
  const buttons = [...document.querySelectorAll('button.act:not([disabled])')];
  return { kinds: buttons.map((b) => b.dataset.kind),
           labels: buttons.map((b) => b.querySelector('.label').textContent),
           legal: s && s.turn ? s.turn.legal.map((a) => a.kind) : [] };
}"""


def act_once(page: Page, seen: list[str], choose: Chooser | None = None) -> bool:
    """If it is this page's turn, check that the buttons are exactly the legal actions
    and click one (`choose`'s, else the passive one). True if it clicked."""
    bar: dict[str, list[str]] = page.evaluate(_BAR_JS)
    kinds = bar["kinds"]
    if not kinds:
        return False
    assert kinds == bar["legal"], bar
    chosen = choose(page, kinds) if choose else None
    for kind in ([chosen] if chosen else []) + list(PASSIVE):
        if kind in kinds:
            try:
                page.click(f"button.act-{kind}:not([disabled])", timeout=2_000)
            except PlaywrightTimeout:
                return False  # the bar was redrawn under us: try again
            seen.extend(bar["labels"])
            return True
    raise AssertionError(f"no passive action among {kinds}")


def play(
    pages: list[Page],
    until: str,
    seen: list[str] | None = None,
    timeout: float = 60,
    choose: Chooser | None = None,
) -> None:
    """Click through the pages until the JS condition `until` holds on the first page."""
    seen = [] if seen is None else seen
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if state(pages[0], until):
            return
        if not any(act_once(p, seen, choose) for p in pages):
            time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {until}")


HAND_OVER = "s.hand && s.hand.over && s.hand.awards.length > 0"
SHOWDOWN_SHOWN = HAND_OVER + " && s.hand.revealed >= s.hand.showdown.length"


# ------------------------------------------------------------------ layout
def overlaps(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


# What must never overlap: each is (selector, group); boxes of one group (a seat and
# its own clock and bet) may touch each other.
LAYOUT_PARTS = (
    "header button, header input, header .status, button.act, .sizer .preset, .sizer .slider,"
    " .sizer .amount, label.pre, .seat, .seat .clock, .seat .bet, .pot, .side-pot, .results,"
    " .notice"
)

_BOXES_JS = """(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.offsetParent !== null || getComputedStyle(el).position === 'fixed')
  .map((el) => {
    const r = el.getBoundingClientRect();
    const seat = el.closest('.seat');
    const group = seat ? 'seat' + seat.dataset.seat : 'alone' + Math.random();
    return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height, group,
            what: el.className || el.tagName};
  })
  .filter((b) => b.width > 0 && b.height > 0)"""


def layout_boxes(page: Page) -> list[dict[str, Any]]:
    boxes: list[dict[str, Any]] = page.evaluate(_BOXES_JS, LAYOUT_PARTS)
    return boxes


def assert_apart(boxes: list[dict[str, Any]], viewport: ViewportSize) -> None:
    """Every box on the screen's width, and no two of different groups overlapping."""
    for box in boxes:
        assert box["x"] >= -0.5 and box["x"] + box["width"] <= viewport["width"] + 0.5, box
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a["group"] != b["group"]:
                assert not overlaps(a, b), (a, b)


@dataclass
class Stage:
    """What one test runs: its rooms and players; the fixture closes and stops them all."""

    browser: Browser
    rooms: list[Room] = field(default_factory=list)
    casts: list[Players] = field(default_factory=list)

    def start(self, room: Room) -> Players:
        self.rooms.append(room)
        players = Players(self.browser, room)
        self.casts.append(players)
        return players

    def close(self) -> None:
        for players in self.casts:
            players.close()
        for room in self.rooms:
            room.stop()
