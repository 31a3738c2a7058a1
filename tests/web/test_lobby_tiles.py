"""The lobby's Sit, Join waiting list and Observe while tables are tiled (issue 28): the
table opens beside the ones open (#/tables/A,B,...), its buy-in taken there, the others
still playing; a single table only watched is replaced as before. At the four-table
limit the oldest table only watched makes room (said); when I play at all four, nothing
is closed: I am told to leave one first. A real room of five tables on 127.0.0.1,
Chromium, at 1366x768 and 390x844."""

from __future__ import annotations

from playwright.sync_api import Page

from stud8.server.table.spec import TableSpec

from .roomkit import PHONE, Stage, screenshot, start_room
from .test_lobby_sort import open_tables
from .test_multi_table import TILE_BUY_IN, probe, wait_tables

SPEC = TableSpec(bots=2, bot_delay=0.2, between_hands=1.0, showdown_seconds=1.0)


def lobby(page: Page) -> None:
    """Back to the lobby, its rows drawn (they say who sits where)."""
    page.click("#to-lobby")
    page.wait_for_selector('tr[data-table="t5"] button.observe')


def sit_from_lobby(page: Page, table: str) -> None:
    page.fill(f'input.buyin[data-table="{table}"]', str(TILE_BUY_IN))
    page.click(f'button.sit[data-table="{table}"]')


def hash_is(page: Page, hash_: str) -> None:
    page.wait_for_function("(h) => location.hash === h", arg=hash_)


def seated(page: Page, tables: list[str]) -> None:
    wait_tables(page, tables, "s.mySeat !== null")


def test_sit_and_observe_in_the_lobby_open_beside_the_tiled_tables(stage: Stage) -> None:
    players = stage.start(start_room(SPEC, tables=5))
    ann = players.new("ann", table="t5")
    # a table only watched, then another: replaced, as ever (nothing to keep open)
    ann.click('button.observe[data-table="t4"]')
    hash_is(ann, "#/table/t4")
    lobby(ann)
    sit_from_lobby(ann, "t1")
    # its own page (the query it sat with is dropped from the address once it is seated)
    ann.wait_for_function("() => /^#\\/table\\/t1(\\?buyin=200)?$/.test(location.hash)")
    ann.wait_for_function("() => window.stud8 && window.stud8.state.mySeat !== null")

    # seated at t1: Observe t2 opens it beside t1
    lobby(ann)
    ann.click('button.observe[data-table="t2"]')
    hash_is(ann, "#/tables/t1,t2")
    seated(ann, ["t1"])
    wait_tables(ann, ["t2"], "s.seq !== null")
    assert probe(ann, "t2", "s.mySeat") is None

    # Sit at t3: a third tile, the buy-in taken there; then Observe t4: the fourth
    lobby(ann)
    sit_from_lobby(ann, "t3")
    hash_is(ann, "#/tables/t1,t2,t3")
    seated(ann, ["t1", "t3"])
    assert probe(ann, "t3", "s.seats[s.mySeat].chips") == TILE_BUY_IN
    lobby(ann)
    ann.click('button.observe[data-table="t4"]')
    hash_is(ann, "#/tables/t1,t2,t3,t4")
    seated(ann, ["t1", "t3"])

    # at the limit: Sit at t5 closes t2, the oldest only watched, and says so
    lobby(ann)
    sit_from_lobby(ann, "t5")
    hash_is(ann, "#/tables/t1,t3,t4,t5")
    seated(ann, ["t1", "t3", "t5"])
    assert "Table t2 closed to make room" in ann.locator("#toast").inner_text()
    screenshot(ann, "lobby-tiles-four-1366")

    # Sit at t2 again: t4 (watched) makes room; now I play at all four
    lobby(ann)
    sit_from_lobby(ann, "t2")
    hash_is(ann, "#/tables/t1,t3,t5,t2")
    seated(ann, ["t1", "t3", "t5", "t2"])
    # Observe t4 would hide a seat of mine: refused, said, nothing closed
    lobby(ann)
    ann.click('button.observe[data-table="t4"]')
    ann.wait_for_function(
        "() => document.querySelector('#toast').textContent.includes('leave one first')"
    )
    assert ann.evaluate("location.hash") == "#/"
    screenshot(ann, "lobby-tiles-refused-1366")
    ann.evaluate("history.back()")  # the tiles, each seat still mine
    hash_is(ann, "#/tables/t1,t3,t5,t2")
    seated(ann, ["t1", "t3", "t5", "t2"])

    # a phone: the same, the tiles stacked
    bob = players.new("bob", viewport=PHONE, table="t5")
    sit_from_lobby(bob, "t1")
    bob.wait_for_function("() => window.stud8 && window.stud8.state.mySeat !== null")
    lobby(bob)
    bob.click('button.observe[data-table="t2"]')
    hash_is(bob, "#/tables/t1,t2")
    seated(bob, ["t1"])
    screenshot(bob, "lobby-tiles-phone")
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors


def test_join_waiting_list_in_the_lobby_opens_beside_my_table(stage: Stage) -> None:
    players = stage.start(start_room(SPEC, operators=["oper"]))
    open_tables(players)  # razz: two seats, both its bots'
    ann = players.new("ann")
    sit_from_lobby(ann, "t1")
    ann.wait_for_function("() => window.stud8 && window.stud8.state.mySeat !== null")
    ann.click("#to-lobby")
    ann.click('button.wait[data-table="razz"]')
    hash_is(ann, "#/tables/t1,razz")
    seated(ann, ["t1"])
    wait_tables(ann, ["razz"], "s.waiting.includes('ann')")  # the wait asked, in its tile
    assert probe(ann, "razz", "s.mySeat") is None
    assert players.console.errors == [], players.console.errors
