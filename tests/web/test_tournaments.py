"""Tournaments in the browser (issue 17, item 4), in real Chromium against a real room
on a database: the tournament lobby (a tab beside the cash tables), one tournament's
structure, entrants, prize pool and payouts; register and unregister against the bank
balance; an operator creates a sit-and-go and fills it with bots; the players play it
to the end at their table (the level, its stakes, the time or hands to the next level,
players left, the average stack, their place) and see their final place and prize; a
player moved when a table breaks is told so and followed to his new table. Desktop
and phone sizes; no console errors; screenshots in artifacts/screenshots/."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from stud8.server.accounts.accounts import Accounts
from stud8.server.runtime import open_room
from stud8.server.settings import Settings
from stud8.server.tournaments import manager
from stud8.tournament import STRUCTURES, Start, TournamentDefinition
from stud8.tournament.director import Director
from stud8.tournament.events import Register, Seated

from .roomkit import (
    LAPTOP,
    PHONE,
    Room,
    Stage,
    act_once,
    overlaps,
    screenshot,
    serve,
    state,
    wait_state,
)
from .test_hand_names import RECORD_BUSTS, busts_shown, check_hand_names

OPERATOR = "oper"
BANK = 1000
BUY_IN, FEE = 100, 10


def start_tournament_room(directory: Path) -> Room:
    """The room as ``stud8 serve`` runs it, on a SQLite file, with its tournaments
    (their tables at a quick pace) and an operator ``oper`` (password secret-oper)."""
    settings = Settings(
        database_url=f"sqlite:///{directory / 'room.db'}",
        default_tables=1,
        bots_per_table=0,
        starting_chips=BANK,
        signups=1000,
    )
    env = {"STUD8_BETWEEN_HANDS": "0.4", "STUD8_BOT_DELAY": "0", "STUD8_SHOWDOWN_SECONDS": "0.6"}
    opened = open_room(settings, env)
    Accounts(opened.engine, opened.ledger, opening_chips=0).register(
        OPERATOR, "secret-" + OPERATOR, role="operator"
    )
    return serve(opened.app, lambda: opened.ledger.audit().ok, opened.close)


BALANCE = "header .bank-balance"  # the bank balance: in the page's header, once


def bank_shown(page: Page) -> int:
    page.wait_for_function(
        "(sel) => /^[0-9,]+$/.test((document.querySelector(sel) || {}).textContent || '')",
        arg=BALANCE,
    )
    return int(page.locator(BALANCE).inner_text().replace(",", ""))


def wait_bank(page: Page, amount: int) -> None:
    page.wait_for_function(
        "([sel, n]) => { const el = document.querySelector(sel);"
        " return !!el && Number(el.textContent.replace(/,/g, '')) === n; }",
        arg=[BALANCE, amount],
    )


def bank_once(page: Page) -> None:
    """The bank balance shows once on the page (the header's), filled in: not again in
    the page's own text (it once showed twice on the tournament pages)."""
    bank_shown(page)
    assert page.locator(".bank-balance").count() == 1
    text = page.locator("body").inner_text()
    said = re.findall(r"(?<!time )\bbank\b", text, flags=re.IGNORECASE)  # not "time bank"
    assert len(said) == 1, text


def create(op: Page, **fields: Any) -> int:
    """The operator creates a tournament with the form; its id."""
    op.click("#tab-tournaments")
    op.click("details.create-tournament summary")
    for name, value in fields.items():
        selector = f"#nt-{name}"
        if op.locator(selector).evaluate("(el) => el.tagName") == "SELECT":
            op.select_option(selector, str(value))
        else:
            op.fill(selector, str(value))
    op.click("#nt-submit")
    op.wait_for_url("**/#/tournament/*")
    op.wait_for_selector("#t-phase")
    return int(op.url.rsplit("/", 1)[1])


def open_tournament(page: Page, tid: int) -> None:
    page.click("#tab-tournaments")
    page.click(f'button.open-tournament[data-tournament="{tid}"]')
    page.wait_for_selector("#t-phase")


def tournament_of(page: Page) -> dict[str, Any]:
    info: dict[str, Any] = state(page, "s.tournament")
    return info


def strip_text(page: Page) -> str:
    return page.locator("#tournament").inner_text()


def fill_with_bots(op: Page, count: int, policy: str = "rules") -> None:
    op.fill("#t-bot-count", str(count))
    op.select_option("#t-bot-policy", policy)
    op.click("#t-add-bots")
    op.wait_for_selector(f"#toast:has-text('Registered {count} bot')")


DESKTOP: ViewportSize = {"width": 1280, "height": 800}
DROP_A_FILE = """() => {
  const files = new DataTransfer();
  files.items.add(new File(["PokerStars Hand #1"], "hands.txt", { type: "text/plain" }));
  const drop = { dataTransfer: files, bubbles: true, cancelable: true };
  document.body.dispatchEvent(new DragEvent("drop", drop));
}"""


def assert_toast_clear_of_the_strip(page: Page, shot: str) -> None:
    """A toast at a tournament's table (a file dropped on it is refused with one)
    covers neither the strip nor its text."""
    page.evaluate(DROP_A_FILE)
    page.wait_for_selector("#toast:not([hidden]):has-text('Hand replayer')")
    page.wait_for_timeout(100)  # a frame or more: the toast is placed each frame
    toast = page.locator("#toast").bounding_box()
    strip = page.locator("#tournament").bounding_box()
    assert toast is not None and strip is not None
    assert not overlaps(toast, strip), (toast, strip)
    for part in page.locator("#tournament > *").all():
        text = part.bounding_box()
        assert text is None or not overlaps(toast, text), (toast, text)
    screenshot(page, shot)


def at_table(page: Page) -> bool:
    return bool(page.evaluate("() => !!(window.stud8 && window.stud8.state.tournament)"))


def play_to_the_end(pages: list[Page], timeout: float = 240) -> dict[str, list[Any]]:
    """Each page acts when it is its turn (check, call or bring in), until every page
    shows its end (busted, or the tournament over); what the strips showed, sampled."""
    seen: dict[str, list[Any]] = {"levels": [], "left": [], "stakes": [], "places": []}
    done: set[int] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(done) < len(pages):
        for i, page in enumerate(pages):
            if i in done:
                continue
            if page.locator("#t-end .t-end").count():
                done.add(i)
                continue
            if not at_table(page):
                continue
            info = tournament_of(page)
            if info and info["phase"] == "running":
                shown = strip_text(page)
                seen["levels"].append(info["level"])
                seen["left"].append(info["players_left"])
                seen["stakes"].append(shown)
                place = page.locator("#tournament .t-place b")
                if place.count():
                    seen["places"].append(place.inner_text())
            act_once(page, [])
        time.sleep(0.1)
    assert len(done) == len(pages), "the tournament did not end in time"
    return seen


def assert_within(page: Page, width: int) -> None:
    """Nothing wider than the screen: the page does not scroll sideways."""
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width + 1, scroll
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('#tournament > *, #t-end .t-end, #t-notice p')]"
        ".map((el) => { const r = el.getBoundingClientRect(); return [r.left, r.right]; })"
    )
    for left, right in boxes:
        assert left >= -0.5 and right <= width + 0.5, (left, right)


def test_a_sit_and_go_from_the_lobby_to_the_last_place(stage: Stage, tmp_path: Path) -> None:
    players = stage.start(start_tournament_room(tmp_path))
    op = players.new(OPERATOR, existing=True)
    ann = players.new("ann")
    bob = players.new("bob", viewport=PHONE)

    # the operator creates a hyper sit-and-go for 4, its levels 2 hands long
    tid = create(
        op,
        name="Hyper SNG",
        structure="hyper",
        max_entrants=4,
        buy_in=BUY_IN,
        fee=FEE,
        starting_chips=300,
        level_hands=2,
    )
    assert op.locator("#t-phase").inner_text() == "Registering"
    levels = op.locator("table.t-levels tbody tr").all_inner_texts()
    assert levels[0].split() == ["1", "5", "10", "20", "40", "2", "hands"], levels[0]

    # ann sees it in the tournament lobby, with what it costs and her bank
    ann.click("#tab-tournaments")
    row = ann.locator(f'tr[data-tournament="{tid}"]')
    row.wait_for()
    assert "Hyper SNG" in row.inner_text() and "100 + 10 fee" in row.inner_text()
    assert ann.locator('section[data-group="registering"] tr[data-tournament]').count() == 1
    screenshot(ann, "tournament-lobby")
    bank_once(ann)
    open_tournament(ann, tid)
    bank_once(ann)
    assert "Buy-in 100 + fee 10 = 110 chips" in ann.locator("#t-entry").inner_text()
    assert bank_shown(ann) == BANK
    ann.click("#t-register")
    wait_bank(ann, BANK - BUY_IN - FEE)
    ann.wait_for_selector("#t-unregister")
    # unregistering gives the buy-in and the fee back
    ann.click("#t-unregister")
    wait_bank(ann, BANK)
    ann.wait_for_selector("#t-register")
    ann.click("#t-register")
    wait_bank(ann, BANK - BUY_IN - FEE)
    ann.wait_for_selector("table.t-entrants tr.me")
    screenshot(ann, "tournament-registered")
    bank_once(ann)

    # bob, on a phone, registers too; then the operator fills it with bots
    bob.click("#tab-tournaments")
    bob.locator(f'tr[data-tournament="{tid}"]').wait_for()
    bank_once(bob)
    screenshot(bob, "tournament-lobby-phone")
    open_tournament(bob, tid)
    bank_once(bob)
    bob.click("#t-register")
    wait_bank(bob, BANK - BUY_IN - FEE)
    bank_once(bob)
    screenshot(bob, "tournament-registered-phone")
    bob.click("#tab-cash")  # he waits in the cash lobby
    bob.wait_for_selector('tr[data-table="t1"]')
    op.wait_for_selector("table.t-entrants tr:has-text('bob')")
    fill_with_bots(op, 2)

    # the tournament starts: ann's page (on the tournament) takes her to her table;
    # bob's lobby offers him his seat
    ann.wait_for_url("**/#/table/*", timeout=15_000)
    bob.wait_for_selector(".t-call:has-text('Hyper SNG') button.take-seat", timeout=15_000)
    screenshot(bob, "tournament-take-your-seat-phone")
    bob.click("button.take-seat")
    for page in (ann, bob):
        wait_state(page, "s.tournament && s.tournament.phase === 'running' && s.mySeat !== null")
        page.evaluate(RECORD_BUSTS)
    info = tournament_of(ann)
    assert info["players_left"] == 4 and info["prize_pool"] == 4 * BUY_IN
    strip = strip_text(ann)
    assert "Level 1" in strip and "20/40, ante 5, bring-in 10" in strip, strip
    assert "Next level (by hands): 30/60, ante 5, bring-in 10" in strip, strip
    assert "Players left 4/4" in strip and "Avg stack 300" in strip, strip
    # no cash-table buttons: no buy-in, top-up or leaving; sitting out only
    for page in (ann, bob):
        assert page.locator("#seat-controls button[data-cmd='top_up']").count() == 0
        assert page.locator("#seat-controls button[data-cmd='leave']").count() == 0
        assert page.locator("button.sit-here").count() == 0
        assert page.locator("#seat-controls button[data-cmd='sit_out']").count() == 1
    screenshot(ann, "tournament-table-desktop")
    screenshot(bob, "tournament-table-phone")
    for page in (ann, bob):
        bank_once(page)
    assert_within(bob, PHONE["width"])

    seen = play_to_the_end([ann, bob])
    assert max(seen["levels"]) > 1, seen["levels"]
    assert any("Level 2" in s for s in seen["stakes"]), "the strip never showed level 2"
    assert seen["places"], "no place shown"

    # each sees his final place (and prize) as the room has it
    detail = op.evaluate("(id) => fetch('/api/v1/tournaments/' + id).then((r) => r.json())", tid)
    places = {e["player"]: e for e in detail["entrants"]}
    # (the strips are sampled: a page may not have seen every count of players left,
    # e.g. when a bot and then both people went out in two quick hands, so what the
    # pages saw is not checked against the places; the bots may still be playing)
    # two places differ, unless both went out in one hand with as many chips at its
    # deal: they share it (as the room's standings say)
    if places["ann"]["place"] == places["bob"]["place"]:
        assert places["ann"]["shared"] == places["bob"]["shared"] > 1, places
    for name, page in (("ann", ann), ("bob", bob)):
        end = page.locator("#t-end .t-end").inner_text()
        place = places[name]["place"]
        assert place is not None
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
        assert f"You finished {place}{suffix}" in end, (name, end)
        if places[name]["prize"]:
            assert f"prize {places[name]['prize']}" in end, (name, end)
    # the hand that busts a player stays on the table as it was played: he keeps his
    # name on his seat and in the dealer's lines, and is said out after its showdown
    # and results (his seat once read "Seat 3", his show "seat 3 shows", said after
    # "bot2 is out of the tournament"); each page saw every player out go out
    out = {e["player"] for e in detail["entrants"] if e["place"] is not None and e["place"] > 1}
    assert out, detail["entrants"]
    for page in (ann, bob):
        busts = [b for b in busts_shown(page, out) if b["within"]]
        assert busts, page.evaluate("window.__busts")
        for bust in busts:
            check_hand_names(bust, bust["name"])
    screenshot(ann, "tournament-end-desktop")
    screenshot(bob, "tournament-end-phone")
    assert_within(bob, PHONE["width"])

    # the lobby: finished, the places and the prizes (both people may be out while
    # two bots still play heads-up: their hands, at the bots' pace, on a busy
    # machine, not a margin; CI once took more than 20 s)
    op.wait_for_selector("#t-phase:text-is('Finished')", timeout=180_000)
    assert op.locator(".t-results ol.results-list li").count() == 4
    screenshot(op, "tournament-finished-lobby")
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors


def seed_seating_at(table: int, definition: TournamentDefinition, entrants: int) -> int:
    """A seed of the director's random source that seats the first and the last
    entrant (ann and the last bot registered) at ``table``."""
    last = f"p{entrants - 1}"
    for seed in range(1000):
        director = Director(definition, rng=random.Random(seed))
        tables: dict[str, int] = {}
        for n in range(entrants):
            for x in director.handle(Register(now=0.0, player=f"p{n}")):
                if isinstance(x, Seated):
                    tables[x.player] = x.table
        if tables.get("p0") == table and tables.get(last) == table:
            return seed
    raise AssertionError("no seed")


def test_a_player_whose_table_breaks_is_told_and_follows_his_seat(
    stage: Stage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 5 entrants, 4 a table: tables of 3 and 2; at the first bust the 4 left fit at
    # one table, and table 2 breaks. Ann sits there with a calling station (the
    # director's seed is chosen so): the two check their hands down for the antes and
    # the bring-in, so neither bleeds out before one of the three random bots of
    # table 1, raising at will, busts (and if the calling station busts, table 2
    # breaks as well). Ann folding to a random bot there busted first in one CI run.
    structure = STRUCTURES["hyper"]
    definition = TournamentDefinition(
        name="x", structure=structure, table_size=4, max_entrants=5, start=Start.WHEN_FULL
    )
    seed = seed_seating_at(2, definition, 5)
    monkeypatch.setattr(manager, "secrets", SimpleNamespace(randbits=lambda bits: seed))
    players = stage.start(start_tournament_room(tmp_path))
    op = players.new(OPERATOR, existing=True)
    ann = players.new("ann")
    tid = create(
        op,
        name="Two tables",
        structure="hyper",
        max_entrants=5,
        table_size=4,
        buy_in=0,
        fee=0,
        starting_chips=1000,
        level_hands=4,
    )
    open_tournament(ann, tid)
    assert "Free to enter" in ann.locator("#t-entry").inner_text()
    ann.click("#t-register")
    ann.wait_for_selector("#t-unregister")
    fill_with_bots(op, 3, "random")  # table 1: their fights bust one soon
    op.wait_for_selector("#t-add-bots:not([disabled])")
    fill_with_bots(op, 1, "calling-station")  # the last entrant: ann's table
    ann.wait_for_url(f"**/#/table/T{tid}-2", timeout=15_000)
    wait_state(ann, "s.tournament && s.tournament.table_number === 2 && s.mySeat !== null")
    expect(ann.locator("#table-name")).to_have_text("Two tables · table 2")

    # ann checks and calls (never bets, as the calling station) until she is moved
    deadline = time.monotonic() + 240
    moved = False
    while time.monotonic() < deadline:
        if ann.locator("#t-notice .moved").count():
            moved = True
            break
        if ann.locator("#t-end .t-end").count():
            break
        act_once(ann, [])
        time.sleep(0.05)
    assert moved, "ann was never moved (busted first?)"
    notice = ann.locator("#t-notice .moved").inner_text()
    assert notice.startswith(f"You are moved to table T{tid}-1"), notice
    screenshot(ann, "tournament-moved-notice")
    # the client follows her to her new table, where she is seated, and says why
    ann.wait_for_url(f"**/#/table/T{tid}-1", timeout=10_000)
    wait_state(ann, "s.tournament && s.tournament.table_number === 1 && s.mySeat !== null")
    ann.wait_for_selector("#t-notice .moved")
    arrived = ann.locator("#t-notice .moved").inner_text()
    assert arrived == f"You were moved here from table T{tid}-2 (your table was broken)", arrived
    # the table named one way, by the header and the page's title; the strip names the tournament
    expect(ann.locator("#table-name")).to_have_text("Two tables · table 1")
    assert ann.title().endswith("Two tables · table 1 · stud8") and "· table" not in strip_text(ann)
    screenshot(ann, "tournament-moved-arrived")
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors


def test_a_scheduled_tournament_is_cancelled_and_an_operator_watches_the_clock(
    stage: Stage, tmp_path: Path
) -> None:
    players = stage.start(start_tournament_room(tmp_path))
    op = players.new(OPERATOR, existing=True)
    ann = players.new("ann", viewport=PHONE)
    # a scheduled tournament, in an hour: ann registers; the operator cancels it
    op.click("#tab-tournaments")
    op.click("details.create-tournament summary")
    when = op.evaluate(
        "() => { const d = new Date(Date.now() + 3600e3); d.setSeconds(0, 0);"
        " return new Date(d - d.getTimezoneOffset() * 60e3).toISOString().slice(0, 16); }"
    )
    op.select_option("#nt-start", "at_time")
    op.fill("#nt-starts_at", when)
    op.fill("#nt-name", "Evening event")
    op.fill("#nt-buy_in", "50")
    op.fill("#nt-fee", "5")
    op.fill("#nt-max_entrants", "20")
    op.click("#nt-submit")
    op.wait_for_url("**/#/tournament/*")
    scheduled = int(op.url.rsplit("/", 1)[1])
    # and one that costs more than a bank holds, its name as typed (markup shown as text)
    dear = create(op, name="<b>High</b> roller", buy_in=5000, fee=100)
    assert op.locator(".tourney-head h2").inner_text().startswith("<b>High</b> roller")
    ann.click("#tab-tournaments")
    row = ann.locator(f'section[data-group="registering"] tr[data-tournament="{scheduled}"]')
    assert "Scheduled:" in row.inner_text() and "Scheduled" in row.locator(".status").inner_text()
    assert "<b>High</b> roller" in ann.locator(f'tr[data-tournament="{dear}"]').inner_text()
    screenshot(ann, "tournament-lobby-phone")
    assert_within(ann, PHONE["width"])
    # the bank is checked: the register button is off, and says how short it is
    open_tournament(ann, dear)
    ann.wait_for_selector("#t-register[disabled]")
    assert "Your bank is 4,100 short" in ann.locator("#t-entry").inner_text()
    ann.click("#t-back")
    open_tournament(ann, scheduled)
    ann.click("#t-register")
    wait_bank(ann, BANK - 55)
    screenshot(ann, "tournament-scheduled-phone")
    assert_within(ann, PHONE["width"])
    open_tournament(op, scheduled)
    op.wait_for_selector("table.t-entrants tr:has-text('ann')")
    op.click("#t-cancel")
    op.wait_for_selector("#t-cancel.armed")
    op.click("#t-cancel")
    op.wait_for_selector("#t-phase:has-text('Cancelled')")
    wait_bank(ann, BANK)  # the buy-in and the fee came back
    ann.wait_for_selector("#t-entry:has-text('cancelled')")

    # a hyper sit-and-go of bots (3-minute levels): the operator watches its table
    tid = create(op, name="Bots only", structure="hyper", max_entrants=2, buy_in=0, fee=0)
    fill_with_bots(op, 2)
    op.wait_for_selector("button.watch-table")
    op.click("button.watch-table")
    op.wait_for_url(f"**/#/table/T{tid}-1")
    wait_state(op, "s.tournament && s.tournament.phase === 'running' && s.mySeat === null")
    clock = op.locator("#tournament .t-clock")
    first = clock.inner_text()
    minutes, seconds = (int(x) for x in first.split(":"))
    assert 150 <= minutes * 60 + seconds <= 180, first
    assert "Next level in" in strip_text(op) and "30/60, ante 5, bring-in 10" in strip_text(op)
    op.wait_for_function(
        "(t) => { const el = document.querySelector('#tournament .t-clock');"
        " return el && el.textContent !== t; }",
        arg=first,
    )
    assert op.locator("#seat-controls .watching").count() == 1
    assert op.locator("button.sit-here").count() == 0
    screenshot(op, "tournament-watching")
    # the toast said on the tournament's page ("Registered 2 bots"), if still shown,
    # and one said at the table stay off the strip, at a laptop's and a phone's size
    shown = op.locator("#toast:not([hidden])")
    if shown.count():
        toast, strip = shown.bounding_box(), op.locator("#tournament").bounding_box()
        assert toast is not None and strip is not None and not overlaps(toast, strip)
    op.set_viewport_size(DESKTOP)
    assert_toast_clear_of_the_strip(op, "tournament-toast-desktop")
    op.set_viewport_size(PHONE)
    assert_toast_clear_of_the_strip(op, "tournament-toast-phone")
    op.set_viewport_size(LAPTOP)
    # another operator's page cancels it: the watcher is told
    boss = players.new(OPERATOR, existing=True)
    boss.goto(f"{players.room.url}/#/tournament/{tid}")
    boss.click("#t-cancel")
    boss.wait_for_selector("#t-cancel.armed")
    boss.click("#t-cancel")
    op.wait_for_selector("#t-end:has-text('The tournament was cancelled')", timeout=15_000)
    screenshot(op, "tournament-cancelled-table")
    boss.click("#tab-tournaments")
    finished = boss.locator('section[data-group="finished"] tr[data-tournament]')
    finished.nth(1).wait_for()  # the list is loaded
    assert finished.count() == 2
    assert boss.locator('section[data-group="registering"] tr[data-tournament]').count() == 1
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors
