"""A tournament move inside a tile (issue 28): a player whose tournament table is one
tile of several (#/tables/...) and who is moved when it breaks follows his seat in that
tile: the tile opens his new table (saying where he came from) in its place, and the
other tile plays on untouched (the same view, its connection kept). A real room on a
database, Chromium, as test_tournaments.py's table break."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from stud8.server.tournaments import manager
from stud8.tournament import STRUCTURES, Start, TournamentDefinition

from .roomkit import PHONE, Stage, screenshot
from .test_multi_table import probe, wait_tables
from .test_tournaments import (
    OPERATOR,
    create,
    fill_with_bots,
    open_tournament,
    seed_seating_at,
    start_tournament_room,
)

PASSIVE = ("check", "call", "bring_in")


def act_in_tile(page: Page, table: str) -> bool:
    """If my turn waits in the tile of `table`, its passive action. True if clicked."""
    tile = f'.tile[data-table="{table}"]'
    kinds: list[str] = page.evaluate(
        "(sel) => [...document.querySelectorAll(`${sel} button.act:not([disabled])`)]"
        ".map((b) => b.dataset.kind)",
        tile,
    )
    for kind in PASSIVE:
        if kind in kinds:
            try:
                page.click(f"{tile} button.act-{kind}:not([disabled])", timeout=2_000)
            except PlaywrightTimeout:  # the bar was drawn again under the click: try again
                return False
            return True
    assert not kinds, kinds
    return False


def notice(page: Page, table: str) -> str:
    el = page.locator(f'.tile[data-table="{table}"] [id$="t-notice"] .moved')
    return el.inner_text() if el.count() else ""


def test_a_player_moved_in_a_tile_follows_his_seat_there_and_the_other_tile_plays_on(
    stage: Stage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the break of test_tournaments.py: 5 entrants, tables of 3 and 2, ann at table 2
    # with a calling station; at the first bust table 2 breaks and ann is moved
    definition = TournamentDefinition(
        name="x",
        structure=STRUCTURES["hyper"],
        table_size=4,
        max_entrants=5,
        start=Start.WHEN_FULL,
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
    ann.click("#t-register")
    ann.wait_for_selector("#t-unregister")
    fill_with_bots(op, 3, "random")
    op.wait_for_selector("#t-add-bots:not([disabled])")
    fill_with_bots(op, 1, "calling-station")
    first, then = f"T{tid}-2", f"T{tid}-1"
    ann.wait_for_url(f"**/#/table/{first}", timeout=15_000)

    # the cash table t1 beside it: two tiles
    ann.click("#to-lobby")
    ann.locator('button.beside[data-table="t1"]').click()
    ann.wait_for_function("(h) => location.hash === h", arg=f"#/tables/{first},t1")
    wait_tables(ann, [first], "s.tournament && s.mySeat !== null")
    wait_tables(ann, ["t1"], "s.seq !== null")
    ann.evaluate("window.stud8tables.t1.kept = true")  # the same view after the move?

    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not notice(ann, first):
        if ann.locator(f'.tile[data-table="{first}"] [id$="t-end"] .t-end').count():
            break
        if not act_in_tile(ann, first):
            time.sleep(0.05)
    told = notice(ann, first)
    assert told.startswith(f"You are moved to table {then}"), told or "ann was never moved"

    # the tile follows her seat; the other tile is the same view, still connected
    ann.wait_for_function("(h) => location.hash === h", arg=f"#/tables/{then},t1", timeout=10_000)
    wait_tables(ann, [then], "s.tournament && s.tournament.table_number === 1 && s.mySeat !== null")
    ann.wait_for_function(
        "(id) => !!document.querySelector(`.tile[data-table=\"${id}\"] [id$='t-notice'] .moved`)",
        arg=then,
    )
    arrived = notice(ann, then)
    assert arrived == f"You were moved here from table {first} (your table was broken)", arrived
    assert ann.evaluate("window.stud8tables.t1.kept") is True
    assert ann.evaluate("Object.keys(window.stud8tables).sort()") == sorted([then, "t1"])
    assert ann.locator(".tile").count() == 2
    assert probe(ann, "t1", "s.offline") is False
    ann.wait_for_selector(f'.tile[data-table="{then}"] .tile-view [id$="table-name"]')
    name = ann.locator(f'.tile[data-table="{then}"] [id$="table-name"]').inner_text()
    assert name == "Two tables · table 1", name
    screenshot(ann, "tournament-moved-in-tile-1366")
    ann.set_viewport_size(PHONE)
    ann.wait_for_function("() => Object.values(window.stud8tables).every((p) => p.drawn())")
    screenshot(ann, "tournament-moved-in-tile-phone")
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors
