"""The replayer's equity panel in real Chromium against a real server on 127.0.0.1: a
stored hand stepped street by street (the operator: exact from 4th street, 3rd street
sampled and said so; a royal flush made on 5th street is 100% from there on), a
multiway hand as an observer (estimated from random deals, and said so), a file's hand
(sent back to the server); the figures on the page are the server's, the graph has a
line a hand, on a laptop and a phone."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from playwright.sync_api import Page

from server.equityhands import ROYAL, RULES, heads_up
from server.replayhands import side_pot_hand
from sharedhh import SHARED_HH
from stud8.core.rules import Game
from stud8.formats.record import HandRecord
from stud8.server.books.memory import MemoryBooks
from stud8.server.runtime import memory_app
from stud8.server.settings import Settings
from stud8.server.table.spec import TableSpec
from stud8.tools.equity import warm_up

from .roomkit import LAPTOP, PHONE, Players, Stage, screenshot, serve

STARS = SHARED_HH / "pokerstars_stud8_7-StudHL-USD-0.04-0.08-200911.txt"
SIZES = {"desktop": LAPTOP, "phone": PHONE}


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    warm_up()  # the kernels loaded before a page waits on them


def start(stage: Stage, *records: HandRecord) -> Players:
    settings = Settings(default_tables=1, starting_chips=1000, signups=1000)
    app = memory_app(settings, spec=TableSpec(bots=0), operators={"oper": "secret-oper"})
    books: MemoryBooks = app.state.books
    for record in records:
        books.hands.add(record)
    return stage.start(serve(app, books.audit))


def percent(p: float | None) -> str:
    """As the page writes a chance (replayequity.js, percent)."""
    if p is None:
        return "–"
    x = p * 100
    if 0 < x < 0.05:
        return "<0.1%"
    if 99.95 < x < 100:
        return ">99.9%"
    tenth = round(x * 10) / 10
    return f"{round(x)}%" if tenth == int(tenth) else f"{x:.1f}%"


def loaded(page: Page) -> dict[str, Any]:
    page.wait_for_function("() => window.stud8equity && window.stud8equity.data")
    data: dict[str, Any] = page.evaluate("window.stud8equity.data")
    return data


def shown(page: Page) -> dict[str, Any]:
    """The panel as drawn: the street it names, each row's cells, the method's line,
    and the graph's lines (seat: its points)."""
    result: dict[str, Any] = page.evaluate(
        """() => {
      const panel = document.querySelector('#rp-equity');
      const rows = {};
      for (const tr of panel.querySelectorAll('tbody tr')) {
        rows[tr.dataset.seat] = [...tr.querySelectorAll('td')].map((td) => td.textContent);
      }
      const lines = {};
      for (const g of panel.querySelectorAll('svg g[data-seat]')) {
        const points = g.querySelector('polyline').getAttribute('points');
        lines[g.dataset.seat] = points.split(' ').length;
      }
      const method = panel.querySelector('.rp-eq-method');
      return { title: panel.querySelector('h2').textContent, rows, lines,
               method: method ? method.textContent : null,
               street: window.stud8equity.street };
    }"""
    )
    return result


def next_street(page: Page) -> None:
    before = page.evaluate("window.stud8replay.at")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("(n) => window.stud8replay.at !== n", arg=before)


def expected_rows(street: dict[str, Any], hi_lo: bool = True) -> dict[str, list[str]]:
    rows = {}
    for s in street["seats"]:
        cells = [s["share"], s["win"], s["low"], s["scoop"]] if hi_lo else [s["share"], s["win"]]
        rows[str(s["seat"])] = [percent(c) for c in cells]
    return rows


@pytest.mark.parametrize("size", SIZES)
def test_the_operator_steps_through_a_hand_s_equity_street_by_street(
    stage: Stage, size: str
) -> None:
    players = start(stage, heads_up(*ROYAL, "royal1"))
    page = players.new("oper", SIZES[size], existing=True)
    page.goto(players.room.url + "/#/replay/royal1")
    page.wait_for_function("() => window.stud8replay && window.stud8replay.steps > 0")
    data = loaded(page)
    assert data["everything"] is True and [s["street"] for s in data["streets"]] == [3, 4, 5, 6, 7]
    before = shown(page)
    assert "from 3rd street" in before["title"] and before["rows"] == {}
    assert set(before["lines"]) == {"1", "2"}  # the whole hand's graph from the start
    for street in data["streets"]:
        next_street(page)
        now = shown(page)
        assert now["street"] == street["street"]
        assert f"end of {street['street']}" in now["title"], now
        assert now["rows"] == expected_rows(street), (street["street"], now)
        if street["street"] == 3:  # heads-up, every card known: 18 billion outcomes
            assert now["method"] == "≈ from 100,000 random deals", now
        else:
            assert now["method"].startswith("exact"), now
        if street["street"] == 3:
            screenshot(page, f"replay-equity-3rd-{size}")
    # 7th street: the royal flush, made on 5th, takes it all
    assert now["rows"]["1"] == ["100%", "100%", "0%", "100%"]
    assert now["rows"]["2"] == ["0%", "0%", "0%", "0%"]
    assert now["lines"] == {"1": 5, "2": 5}
    screenshot(page, f"replay-equity-river-{size}")
    assert players.console.errors == []


def test_an_observer_sees_estimates_said_as_such_and_a_file_s_hand_has_its_equity(
    stage: Stage,
) -> None:
    players = start(stage, side_pot_hand())
    page = players.open(LAPTOP)  # nobody logged in
    page.goto(players.room.url + "/#/replay/sidepots1")
    page.wait_for_function("() => window.stud8replay && window.stud8replay.steps > 0")
    data = loaded(page)
    assert data["viewer"] is None and data["everything"] is False
    next_street(page)  # 3rd street: dan's down cards unknown, four hands: sampled
    now = shown(page)
    third = data["streets"][0]
    assert third["method"] == "sampled"
    assert now["method"] == "≈ from 100,000 random deals"
    assert now["rows"] == expected_rows(third)
    assert set(now["lines"]) == {"1", "2", "3", "4"}
    assert "the hands shown" in (page.text_content("#rp-equity") or "")
    screenshot(page, "replay-equity-observer-sampled")
    page.keyboard.press("End")
    page.wait_for_function("() => window.stud8replay.at === window.stud8replay.steps")
    river = shown(page)
    assert river["rows"] == expected_rows(data["streets"][-1])
    # a file's hand: the server counts the cards the file shows (the hero's own)
    ann = players.new("ann", LAPTOP)
    ann.goto(players.room.url + "/#/replay")
    ann.set_input_files("#rp-file", str(STARS))
    ann.wait_for_selector("button.rp-hand")
    file_data = loaded(ann)
    hand = ann.evaluate("window.stud8replay.replay")
    assert file_data["hand_id"] == hand["hand_id"] and file_data["viewer"] == hand["viewer"]
    next_street(ann)
    drawn = shown(ann)
    assert drawn["rows"] == expected_rows(file_data["streets"][0])
    screenshot(ann, "replay-equity-file")
    # another hand of the file: its own figures
    ann.locator("button.rp-hand").nth(2).click()
    ann.wait_for_function(
        "(id) => window.stud8equity && window.stud8equity.data"
        " && window.stud8equity.data.hand_id !== id",
        arg=hand["hand_id"],
    )
    assert players.console.errors == []


def test_a_razz_hand_shows_the_pot_and_the_low_that_wins_it(stage: Stage) -> None:
    """Razz (RULES.md 8): no 8-or-better low, no scoop: the pot and the chance to win
    it with the best ace-to-five low, which the wheel takes at the river."""
    razz = replace(RULES, game=Game.RAZZ)
    players = start(stage, heads_up("As 2d 3c 4h 5s Kd Kc", "Qh Qs 8c 9d Jc 2s 7d", "razz1", razz))
    page = players.new("oper", LAPTOP, existing=True)
    page.goto(players.room.url + "/#/replay/razz1")
    page.wait_for_function("() => window.stud8replay && window.stud8replay.steps > 0")
    data = loaded(page)
    assert data["game"] == "razz"
    next_street(page)
    heads = page.locator("#rp-equity thead th").all_text_contents()
    assert heads == ["Hand", "Pot", "Win (low)"]
    assert shown(page)["rows"] == expected_rows(data["streets"][0], hi_lo=False)
    page.keyboard.press("End")
    page.wait_for_function("() => window.stud8replay.at === window.stud8replay.steps")
    assert shown(page)["rows"] == {"1": ["100%", "100%"], "2": ["0%", "0%"]}
    screenshot(page, "replay-equity-razz")
    assert players.console.errors == []
