"""The room's graceful stop as the players see it, on a real ``stud8 serve`` (SQLite):
SIGTERM mid-hand puts "The room is closing after this hand." in the banner of every
player at the table, at a laptop's size and a phone's, above the table and under
nothing the player needs (his cards, his hand's words, his buttons); the hand is
played out to its end and the process exits 0; then, while the page tries to
reconnect, the banner still says the room closed."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, ConsoleMessage, Page, ViewportSize

from server.roomprocess import OPERATOR, open_table, register, running_server
from stud8.server.http.stopping import CLOSING

from .roomkit import LAPTOP, PHONE, act_once, overlaps, sit, state

# what the banner must never cover: the player's seat and cards, what his hand is
# and his action bar (its buttons and the pre-action boxes)
MINE = ".seat.mine, .seat.mine .card, #my-hand, #actions, button.act, label.pre"

_BOX_JS = """(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.offsetParent !== null || getComputedStyle(el).position === 'fixed')
  .map((el) => { const r = el.getBoundingClientRect();
                 return {x: r.x, y: r.y, width: r.width, height: r.height,
                         what: el.id || el.getAttribute('class') || el.tagName}; })
  .filter((b) => b.width > 0 && b.height > 0)"""


def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(_BOX_JS, selector)
    return found


def player(browser: Browser, base: str, name: str, size: ViewportSize, said: list[str]) -> Page:
    """A player who registers in the browser and sees the lobby; its console's errors,
    the client's own warnings (an unknown kind of event or message: "stud8: ...") and
    its uncaught errors go in `said`."""
    page = browser.new_context(viewport=size).new_page()
    page.set_default_timeout(15_000)

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type == "error" or (msg.type == "warning" and msg.text.startswith("stud8:")):
            said.append(f"{name} {msg.type}: {msg.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: said.append(f"{name} page error: {exc}"))
    page.goto(base + "/")
    page.fill("#name", name)
    page.fill("#password", "secret-" + name)
    page.click("#register")
    page.wait_for_selector('tr[data-table="t1"]')
    return page


IN_HAND = "s.hand && !s.hand.over && !!s.hand.seats[s.mySeat]"


def assert_banner_clear(page: Page, size: ViewportSize) -> None:
    """The banner says the room is closing, on the screen, and covers none of MINE."""
    banner = boxes(page, "#banner")
    assert len(banner) == 1 and page.text_content("#banner") == CLOSING, banner
    box = banner[0]
    assert box["y"] >= -0.5 and box["y"] + box["height"] <= size["height"], box
    assert box["x"] >= -0.5 and box["x"] + box["width"] <= size["width"] + 0.5, box
    mine = boxes(page, MINE)
    assert any(str(b["what"]).startswith("card face") for b in mine), mine  # his cards
    for part in mine:
        assert not overlaps(box, part), (box, part)


def test_sigterm_mid_hand_shows_the_closing_notice_at_both_sizes(
    browser: Browser, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    said: list[str] = []
    # bots that think a little: the hand lasts while the players look at the banner
    env = {"STUD8_BOT_DELAY": "0.3", "STUD8_BETWEEN_HANDS": "0.5"}
    with running_server(url, tmp_path, **env) as server:
        with httpx.Client(base_url=server.base, timeout=10) as http:
            open_table(http, register(http, OPERATOR), "t1", bots=2, showdown_seconds=0)
        sizes = {"ann": LAPTOP, "bob": PHONE}
        pages = {name: player(browser, server.base, name, sizes[name], said) for name in sizes}
        try:
            for page in pages.values():
                sit(page)
            both = list(pages.values())
            # a hand both are dealt into, in play: bob may have sat just after a hand of
            # ann's and the bots' began, and ann, not acting, would hold it for her whole
            # clock (10 + 20 s): she plays it out (passively) until the next one
            acted: list[str] = []
            deadline = time.monotonic() + 120
            while not all(state(page, IN_HAND) for page in both):
                assert time.monotonic() < deadline, "no hand dealt to both"
                if not any(act_once(page, acted) for page in both):
                    time.sleep(0.05)
            server.process.send_signal(signal.SIGTERM)
            for name, page in pages.items():
                page.wait_for_selector("#banner:not([hidden])")
                page.wait_for_function("() => window.stud8.drawn()")
                assert_banner_clear(page, sizes[name])
            # the hand goes on to its end (they act in it), and the room exits 0
            seen: list[str] = []
            deadline = time.monotonic() + 90
            while server.process.poll() is None:
                assert time.monotonic() < deadline, "the room did not stop"
                if not any(act_once(page, seen) for page in both):
                    time.sleep(0.05)
            assert server.process.wait(10) == 0
            for page in both:
                assert state(page, "s.hand && s.hand.over && s.hand.awards.length > 0")
                # the room gone, the banner still says why (not "Connection lost", which
                # reads as the player's own network), while the page tries again
                page.wait_for_function(
                    "(closing) => { const t = document.querySelector('#banner').textContent;"
                    " return t.startsWith(closing) && t.includes('Reconnecting'); }",
                    arg=CLOSING,
                )
            log = server.log.read_text()
            assert "1 hand(s) in play finish" in log and "1 hand(s) finished in" in log, log
        finally:
            for page in pages.values():
                page.context.close()
    # nothing the client did not understand, no error of its own (the sockets that fail
    # once the room is going or gone are the browser's word, not the page's)
    assert [s for s in said if "error: WebSocket connection to " not in s] == [], said
