"""Honest after a fault: the real server (``python -m stud8 serve`` on a database) is
killed with SIGKILL in the middle of a hand and started again on the same port and
database. While it is down, the page whose turn it was has its action buttons
disabled and its clock stands still; when it is back, the page that stayed open says
"Hand #N was cancelled: every chip returned" in the dealer log and as the notice, and
so does the other player's page opened again later (a reload of the table after the
restart); a page opened afterwards says it once, not again. A tournament's table
tells its hand cut short the same way, to the page that watched it."""

from __future__ import annotations

import re
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import httpx
from playwright.sync_api import Page

from server.roomdb import free_port
from server.roomprocess import (
    OPERATOR,
    bearer,
    open_table,
    register,
    running_server_on,
    sit_and_go_of_bots,
)
from stud8.server.books.hands import HandStore
from stud8.server.storage import create_engine_for

from .roomkit import (
    BUY_IN,
    LAPTOP,
    PHONE,
    Players,
    Room,
    Stage,
    screenshot,
    sit,
    state,
    wait_state,
    wait_turn,
)


@dataclass
class Address:
    """What the players' pages need of a room run as a process: its address."""

    url: str


def in_play(url: str) -> list[str]:
    """The hands noted and not ended, of the tournaments' tables."""
    engine = create_engine_for(url)
    try:
        return [h.hand_id for h in HandStore(engine).in_progress() if h.table.startswith("T")]
    finally:
        engine.dispose()


def told(number: str) -> str:
    return f"Hand #{number} was cancelled: every chip returned"


def test_a_hand_cut_short_by_a_sigkill_is_told_cancelled_to_who_saw_it(
    stage: Stage, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    port = free_port()
    env = {"STUD8_BETWEEN_HANDS": "1", "STUD8_SHOWDOWN_SECONDS": "1"}
    with running_server_on(port, url, tmp_path, env=env) as first:
        with httpx.Client(base_url=first.base, timeout=10) as http:
            boss = register(http, OPERATOR)
            open_table(http, boss, "t1", bots=0, action_seconds=30)
        players = Players(stage.browser, cast(Room, Address(first.base)))
        stage.casts.append(players)
        ann = players.new("ann", LAPTOP)
        sit(ann)
        bob = players.new("bob", PHONE)
        sit(bob)
        page = wait_turn([ann, bob], timeout=30)
        other = bob if page is ann else ann
        number = state(page, "s.hand.id")
        wait_state(other, f"s.hand && s.hand.id === '{number}'")
        assert state(page, "s.hand.pot") > 0  # the antes and the bring-in are in
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(10)

        # the server is gone: nothing can be sent, the clock stands still
        wait_state(page, "s.offline")
        assert page.locator("button.act").count() > 0
        assert page.locator("button.act:not([disabled])").count() == 0
        page.wait_for_selector(".offline-note")
        clock = page.locator(".seat.to-act .clock")
        assert "stopped" in (clock.get_attribute("class") or "")
        secs = clock.locator(".secs").inner_text()
        mine = page.locator(".my-clock").inner_text()
        assert re.fullmatch(r"\d+s", secs), secs  # it shows where it stands
        time.sleep(2.5)
        assert clock.locator(".secs").inner_text() == secs
        assert page.locator(".my-clock").inner_text() == mine
        assert "clock stands at" in (clock.get_attribute("title") or "")
        screenshot(page, f"sigkill-lost-{'laptop' if page is ann else 'phone'}")
        # the other player's page is closed meanwhile: he comes back after the restart
        other.goto("about:blank")

    with running_server_on(port, url, tmp_path, env=env) as second:
        # the page that stayed open reconnects, and is told
        line = told(number)
        wait_state(page, f"s.log.includes({line!r}) && !s.offline", timeout=40_000)
        assert page.locator("#notice").inner_text() == line
        assert page.locator("#log li", has_text=line).count() == 1
        lines: list[str] = state(page, "s.log")
        assert lines.index(line) > lines.index(f"Hand #{number} starts")
        screenshot(page, f"sigkill-told-{'laptop' if page is ann else 'phone'}")
        # the other comes back to the table later: told too, from his last hand
        other.goto(second.base + "/#/table/t1")
        wait_state(other, f"s.log.includes({line!r})", timeout=20_000)
        other.wait_for_selector(f"#notice:has-text({line!r})")
        screenshot(other, f"sigkill-told-later-{'laptop' if other is ann else 'phone'}")
        # their chips came back: both play on with every chip of their buy-in
        for p in (ann, bob):
            seat = state(p, "s.mySeat")
            assert seat is not None
            hs = f"s.hand && s.hand.seats[{seat}]"
            chips = f"({hs}) ? {hs}.stack + {hs}.contributed : s.seats[{seat}].chips"
            assert state(p, chips) == BUY_IN
        # told once: the table opened again afterwards does not say it again
        again: Page = page
        again.reload()
        again.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")
        time.sleep(0.5)
        assert not state(again, f"s.log.includes({line!r})")
    # Chromium logs each try to reconnect while the server was down: nothing else
    errors = [e for e in players.console.errors if "ERR_CONNECTION_REFUSED" not in e]
    assert not errors, errors


def test_a_tournament_hand_cut_short_by_a_sigkill_is_told_to_the_page_that_watched_it(
    stage: Stage, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    port = free_port()
    # slow bots: a hand lasts many seconds, so the kill falls inside the one watched
    env = {"STUD8_BOT_DELAY": "0.6", "STUD8_BETWEEN_HANDS": "0.5"}
    with running_server_on(port, url, tmp_path, env=env) as first:
        with httpx.Client(base_url=first.base, timeout=10) as http:
            boss = register(http, OPERATOR)
            open_table(http, boss, "t1", bots=0)  # the lobby the pages land on
            tid = sit_and_go_of_bots(http, bearer(boss), "Told SNG")
        players = Players(stage.browser, cast(Room, Address(first.base)))
        stage.casts.append(players)
        ann = players.new("ann", LAPTOP)
        ann.goto(first.base + f"/#/table/T{tid}-1")
        # the page shows the hand the room has in play (noted, not ended)
        wait_state(ann, "s.hand && s.hand.id", timeout=30_000)
        deadline = time.monotonic() + 30
        while (shown := state(ann, "s.hand && s.hand.id")) not in in_play(url):
            assert time.monotonic() < deadline, "the page never showed the hand in play"
            time.sleep(0.05)
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(10)
        assert in_play(url) == [shown]  # the hand the kill cut short
        wait_state(ann, "s.offline")

    with running_server_on(port, url, tmp_path, env=env):
        line = told(shown)
        wait_state(ann, f"s.log.includes({line!r}) && !s.offline", timeout=40_000)
        assert ann.locator("#notice").inner_text() == line
        assert ann.locator("#log li", has_text=line).count() == 1
        screenshot(ann, "sigkill-told-tournament")
    errors = [e for e in players.console.errors if "ERR_CONNECTION_REFUSED" not in e]
    assert not errors, errors
