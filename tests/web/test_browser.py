"""The browser client (src/stud8/web) in Debian's Chromium against a real room server
on 127.0.0.1: two players register, sit and play a hand to showdown through the
buttons; a reload mid-hand resumes at the same seat and moment; a dropped connection
comes back by itself; the phone-size layout has no overlapping controls; no console
errors. Screenshots go to artifacts/screenshots/ for a person to look at."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, ConsoleMessage, FloatRect, Page, ViewportSize
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from stud8.core.cards import Deck
from stud8.server.app import create_app
from stud8.server.auth import MemoryAuth
from stud8.server.bank import MemoryBank
from stud8.server.lobby import TableSpec
from stud8.server.settings import Settings

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
BUY_IN = 200


@dataclass
class Room:
    """A running server in a thread of its own: its address and its bank."""

    url: str
    bank: MemoryBank
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        assert not self.thread.is_alive(), "the server did not stop"


def start_room(spec: TableSpec) -> Room:
    bank = MemoryBank()
    auth = MemoryAuth(on_register=lambda name: bank.issue(name, 1000))
    seeds = itertools.count(1)
    app = create_app(
        Settings(default_tables=1),
        auth=auth,
        bank=bank,
        deck_source=lambda: Deck.seeded(next(seeds)),
        default_spec=spec,
    )
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, name="stud8-room", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    return Room(f"http://127.0.0.1:{port}", bank, server, thread)


@pytest.fixture
def room() -> Iterator[Room]:
    """Table t1, no bots, the 10 + 20 second clock, a pause of 2.5 s between hands."""
    r = start_room(TableSpec(bots=0, between_hands=2.5))
    try:
        yield r
    finally:
        r.stop()


@dataclass
class Console:
    """Every console error and uncaught exception of the pages it watches."""

    errors: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> Page:
        def on_console(msg: ConsoleMessage) -> None:
            if msg.type == "error":
                self.errors.append(f"console: {msg.text}")

        page.on("console", on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        return page


@pytest.fixture
def pages(browser: Browser) -> Iterator[tuple[Console, list[Page]]]:
    """A console watcher and a list to put pages in (each its own browser context)."""
    console = Console()
    opened: list[Page] = []
    yield console, opened
    for page in opened:
        page.context.close()


def new_player(
    browser: Browser,
    room: Room,
    console: Console,
    opened: list[Page],
    name: str,
    viewport: ViewportSize | None = None,
) -> Page:
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 860})
    page = console.watch(context.new_page())
    opened.append(page)
    page.set_default_timeout(10_000)
    page.goto(room.url + "/")
    page.fill("#name", name)
    page.fill("#password", "secret-" + name)
    page.click("#register")
    page.wait_for_selector('tr[data-table="t1"]')
    return page


def sit(page: Page, buy_in: int = BUY_IN) -> int:
    page.fill('input.buyin[data-table="t1"]', str(buy_in))
    page.click('button.sit[data-table="t1"]')
    page.wait_for_function("() => window.stud8 && window.stud8.state.mySeat !== null")
    seat = page.evaluate("window.stud8.state.mySeat")
    assert isinstance(seat, int)
    return seat


def state(page: Page, expr: str) -> Any:
    return page.evaluate(f"(() => {{ const s = window.stud8.state; return {expr}; }})()")


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


PASSIVE = ("check", "call", "bring_in")  # never folds or raises: the hand reaches showdown


def act_once(page: Page, seen: list[str]) -> bool:
    """If it is this page's turn, check that the buttons are exactly the legal actions
    and click the passive one. True if it clicked."""
    buttons = page.locator("button.act:not([disabled])")
    if buttons.count() == 0:
        return False
    try:
        kinds = [b.get_attribute("data-kind") for b in buttons.all()]
        legal = state(page, "s.turn ? s.turn.legal.map(a => a.kind) : []")
        assert kinds == legal, (kinds, legal)
        labels = page.locator("button.act .label").all_inner_texts()
        for kind in PASSIVE:
            if kind in kinds:
                seen.extend(labels)
                page.click(f"button.act-{kind}:not([disabled])", timeout=2_000)
                return True
    except PlaywrightTimeout:
        return False  # the bar was redrawn under us: try again
    raise AssertionError(f"no passive action among {kinds}")


def play(pages: list[Page], until: str, seen: list[str], timeout: float = 60) -> None:
    """Click through both pages until the JS condition `until` holds on the first page."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if state(pages[0], until):
            return
        if not any(act_once(p, seen) for p in pages):
            time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {until}")


def hand_picture(page: Page) -> Any:
    """What the player sees of the hand: the seat, street, pot, cards and who acts."""
    return state(
        page,
        "{seat: s.mySeat, hand: s.hand.id, street: s.hand.street, pot: s.hand.pot,"
        " to_act: s.hand.to_act, cards: Object.entries(s.hand.seats).map(([n, x]) =>"
        " [Number(n), x.stack, x.bet, x.up.join(' '), x.down.map(c => c || '?').join(' ')])}",
    )


def test_two_players_play_a_hand_to_showdown_through_the_buttons(
    browser: Browser, room: Room, pages: tuple[Console, list[Page]]
) -> None:
    console, opened = pages
    ann = new_player(browser, room, console, opened, "ann")
    ann_seat = sit(ann)
    bob = new_player(browser, room, console, opened, "bob")
    row = bob.locator('tr[data-table="t1"]').inner_text()
    assert "Stud Hi/Lo" in row and "4/8" in row and "1/8" in row and "ann" in row
    screenshot(bob, "lobby")
    bob_seat = sit(bob)
    assert ann_seat != bob_seat
    # the hand starts: each sees his own down cards face up, the other's as backs
    ann.wait_for_selector(".seat.to-act", timeout=15_000)
    mine = ann.locator(f'.seat[data-seat="{ann_seat}"] svg.card.own-down')
    theirs = ann.locator(f'.seat[data-seat="{bob_seat}"] svg.card.back')
    assert mine.count() == 2 and theirs.count() == 2
    assert "(down card)" in (mine.first.get_attribute("aria-label") or "")
    assert ann.locator(".badge.bring-in").count() == 1  # the bring-in is marked
    assert "Pot" in ann.locator(".pot").inner_text()

    seen: list[str] = []
    play([ann, bob], "s.hand && s.hand.street >= 5", seen)
    # the action clock runs down on the seat to act
    clock = ann.locator(".seat.to-act .clock .secs")
    clock.wait_for()
    first = int(clock.inner_text().split("s")[0])
    assert 1 <= first <= 10
    screenshot(ann, "hand-in-progress")

    play([ann, bob], "s.hand && s.hand.over && s.hand.awards.length > 0", seen)
    assert any(label.startswith("Bring in 2") for label in seen), seen
    assert "Check" in seen and any(label.startswith("Call") for label in seen), seen
    for page in (ann, bob):
        page.wait_for_selector(".results")
        assert "wins" in page.locator(".results").inner_text()
        # both hands are shown with their names; chips are kept
        assert page.locator(".hand-name").count() == 2
        stacks = [int(t) for t in page.locator(".plate .stack").all_inner_texts()]
        assert sum(stacks) == 2 * BUY_IN
        assert page.locator(".seat.winner").count() >= 1
    assert ann.locator(f'.seat[data-seat="{bob_seat}"] svg.card.back').count() == 0
    screenshot(ann, "showdown")
    # the four-colour deck: diamonds turn blue, clubs green
    ann.check("#four-colour")
    ann.wait_for_selector('svg.card text[fill="#1760c4"], svg.card text[fill="#17803a"]')
    ann.uncheck("#four-colour")
    assert room.bank.audit()
    assert console.errors == []


def test_a_reload_mid_hand_resumes_at_the_same_seat_and_moment(
    browser: Browser, room: Room, pages: tuple[Console, list[Page]]
) -> None:
    console, opened = pages
    ann = new_player(browser, room, console, opened, "ann")
    bob = new_player(browser, room, console, opened, "bob")
    ann_seat, _ = sit(ann), sit(bob)
    seen: list[str] = []
    # (the turn message may come a moment before the event that names the player to act)
    play(
        [ann, bob],
        "s.hand && s.hand.street === 4 && s.turn !== null && s.hand.to_act === s.mySeat",
        seen,
    )
    before = hand_picture(ann)
    assert before["to_act"] == ann_seat
    ann.reload()
    ann.wait_for_function("() => window.stud8 && window.stud8.state.hand !== null")
    ann.wait_for_selector("button.act")  # his turn again, with his buttons
    assert hand_picture(ann) == before
    assert ann.locator(f'.seat[data-seat="{ann_seat}"] svg.card.own-down').count() == 2
    # the keyboard: c checks
    assert ann.locator('button.act[data-key="c"] .label').inner_text() == "Check"
    ann.keyboard.press("c")
    ann.wait_for_function("() => window.stud8.state.log.some(l => l === 'ann checks')")
    before = hand_picture(ann)

    # a dropped connection: the banner says so, and it comes back by itself
    ann.evaluate("window.stud8.socket.drop()")
    banner = ann.locator("#banner")
    banner.wait_for(state="visible")
    assert "reconnect" in banner.inner_text().lower()
    banner.wait_for(state="hidden")
    assert hand_picture(ann) == before
    play([ann, bob], "s.hand && s.hand.over && s.hand.awards.length > 0", seen)
    assert "wins" in ann.locator(".results").inner_text()
    assert room.bank.audit()
    assert console.errors == []


def overlaps(a: FloatRect, b: FloatRect) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_phone_layout_has_no_overlapping_controls(
    browser: Browser, room: Room, pages: tuple[Console, list[Page]]
) -> None:
    console, opened = pages
    phone: ViewportSize = {"width": 375, "height": 667}
    ann = new_player(browser, room, console, opened, "ann", viewport=phone)
    bob = new_player(browser, room, console, opened, "bob", viewport=phone)
    screenshot(ann, "phone-lobby")
    sit(ann), sit(bob)
    seen: list[str] = []
    play([ann, bob], "s.turn !== null", seen)
    controls = ann.locator(
        "header button, header input, button.act, input.amount, .plate, .pot"
    ).all()
    boxes = [box for c in controls if c.is_visible() and (box := c.bounding_box()) is not None]
    assert len(boxes) >= 2 + 3 + 2  # header, at least two buttons, seats and the pot
    assert_apart(boxes, phone)
    screenshot(ann, "phone-table")
    # at the showdown, seven cards a seat still fit on the screen
    play([ann, bob], "s.hand && s.hand.over && s.hand.awards.length > 0", seen)
    ann.wait_for_selector(".results")
    seats = [box for c in ann.locator(".seat").all() if (box := c.bounding_box()) is not None]
    assert len(seats) == 8
    assert_apart(seats, phone)
    assert ann.locator(".results .shown-hand").count() == 2  # the hands' names
    for row in ann.locator(".seat .cards").all():
        box = row.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= phone["width"]
    screenshot(ann, "phone-showdown")
    assert console.errors == []


def assert_apart(boxes: list[FloatRect], viewport: ViewportSize) -> None:
    """Every box on the screen's width, and no two overlapping."""
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5, box
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not overlaps(a, b), (a, b)
