"""The lobby sorted and filtered (issue 28, item 6): each column's header sorts the
tables both ways (a click, or the keyboard; the sorted header says aria-sort), the
filters keep a game, a stakes, tables not full, not empty, or with enough players;
the choice is kept with the account (it survives a reload and follows the account to
another browser); each row counts those watching the table (an eye, "N watching"),
up when a second browser opens the table and down when it leaves; the phone's rows
label each cell."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Page, Response, ViewportSize

from stud8.server.table.spec import TableSpec

from .roomkit import LAPTOP, PHONE, Players, Stage, screenshot, start_room

SMALL_PHONE: ViewportSize = {"width": 360, "height": 740}
LOBBY_POLL = 15_000  # ms: the lobby reloads every 5 s, the observers told within 1 s
# the tables beside t1 (Stud Hi/Lo 4/8, nobody seated): (id, game, stakes, seats, bots)
TABLES = (
    ("hilo2", "stud_hi_lo", (0, 1, 2, 4), 8, 3),
    ("stud", "stud_high", (1, 2, 4, 8), 8, 2),
    ("razz", "razz", (2, 5, 10, 20), 2, 2),  # full: its two bots
)
SORTED = ("table", "game", "stakes", "players", "waiting", "hands_per_hour", "average_pot")

# each row's values as the page shows them, in the order of the rows
ROWS_JS = """() => [...document.querySelectorAll('#tables tr[data-table]')].map((tr) => {
  const cell = (c) => tr.querySelector('td.' + c);
  const first = (c) => cell(c).childNodes[0].textContent.trim();
  const [small, big] = first('stakes').split('/').map(Number);
  const [taken, seats] = cell('seats').textContent.split('/').map(Number);
  const watching = tr.querySelector('.watching').getAttribute('aria-label');
  const nums = [...tr.querySelectorAll('td.num')].map((td) => Number(td.textContent));
  return { id: tr.dataset.table, table: tr.dataset.table.toLowerCase(), game: first('game'),
           stakes: [big, small], players: [taken, -seats],
           waiting: Number(cell('waiting').textContent),
           hands_per_hour: nums[0], average_pot: nums[1], observers: parseInt(watching, 10),
           watching };
})"""


def rows(page: Page) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = page.evaluate(ROWS_JS)
    return got


def shown(page: Page) -> set[str]:
    return {row["id"] for row in rows(page)}


def open_tables(players: Players) -> None:
    """The operator opens the tables of TABLES through the REST API."""
    with httpx.Client(base_url=players.room.url) as http:
        r = http.post("/api/v1/login", json={"name": "oper", "password": "secret-oper"})
        headers = {"Authorization": f"Bearer {r.json()['token']}"}
        for table_id, game, (ante, bring_in, small, big), seats, bots in TABLES:
            body = {
                "table_id": table_id,
                "game": game,
                "ante": ante,
                "bring_in": bring_in,
                "small_bet": small,
                "big_bet": big,
                "seats": seats,
                "bots": bots,
                "bot_delay": 0.2,
                "between_hands": 1,
                "showdown_seconds": 0,
                "min_buy_in": 10 * big,
                "max_buy_in": 50 * big,
            }
            r = http.post("/api/v1/tables", json=body, headers=headers)
            assert r.status_code == 201, r.text


def sort_by(page: Page, column: str, way: str, *, keyboard: bool = False) -> None:
    button = page.locator(f'th button.sort[data-sort="{column}"]')
    if keyboard:
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()
    page.wait_for_selector(f'th[aria-sort="{way}"] button[data-sort="{column}"]')


def assert_sorted(page: Page, column: str, descending: bool) -> None:
    values = [row[column] for row in rows(page)]
    assert values == sorted(values, reverse=descending), (column, values)
    # only the sorted header says how it is sorted
    assert page.locator("th[aria-sort]").count() == 1


def log_in(players: Players, name: str, viewport: ViewportSize | None = None) -> Page:
    """``name`` logs in afresh (a new browser): his lobby, whatever its filters show."""
    page = players.open(viewport)
    page.fill("#name", name)
    page.fill("#password", "secret-" + name)
    page.click("#login")
    page.wait_for_selector("#f-count:not(:empty)")
    return page


def settings_put(containing: str = "") -> Callable[[Response], bool]:
    """The answer to a ``PUT /api/v1/settings`` whose body contains ``containing``."""

    def matches(r: Response) -> bool:
        request = r.request
        put = request.method == "PUT" and r.url.endswith("/api/v1/settings")
        return put and containing in (request.post_data or "")

    return matches


def test_the_lobby_sorts_filters_keeps_the_choice_and_counts_who_watches(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0), operators=["oper"]))
    open_tables(players)
    bob = players.new("bob")
    bob.wait_for_selector('tr[data-table="razz"]')
    assert bob.locator('tr[data-table="razz"] .watching').get_attribute("aria-label") == (
        "0 watching"
    )

    # a second browser opens the Razz table (full: she waits for a seat): one watching
    ann = players.new("ann")
    ann.click('button.wait[data-table="razz"]')
    ann.wait_for_selector("#seat-controls .wait-place")
    bob.wait_for_selector(
        'tr[data-table="razz"] [role="img"][aria-label="1 watching"]', timeout=LOBBY_POLL
    )
    bob.wait_for_selector('tr[data-table="razz"] td.waiting:text-is("1")', timeout=LOBBY_POLL)

    # each column sorts both ways, by a click or the keyboard
    for i, column in enumerate((*SORTED, "observers")):
        sort_by(bob, column, "ascending", keyboard=i % 2 == 1)
        assert_sorted(bob, column, descending=False)
        sort_by(bob, column, "descending", keyboard=i % 2 == 0)
        assert_sorted(bob, column, descending=True)
    assert rows(bob)[0]["id"] == "razz"  # the most watched first
    sort_by(bob, "waiting", "ascending")
    sort_by(bob, "waiting", "descending", keyboard=True)
    assert rows(bob)[0]["id"] == "razz"  # the only one with a waiting list
    # the keyboard stays on the header it sorted
    assert bob.evaluate("document.activeElement.dataset.sort") == "waiting"

    # the filters: a game, two, a stakes, not full, not empty, enough players
    everything = {"t1", "hilo2", "stud", "razz"}
    assert shown(bob) == everything
    bob.check('input[name="f-game"][value="razz"]')
    bob.wait_for_function("() => document.querySelectorAll('#tables tr[data-table]').length === 1")
    assert shown(bob) == {"razz"}
    assert bob.locator("#f-count").inner_text() == "1 of 4 tables"
    bob.check('input[name="f-game"][value="stud_high"]')
    assert shown(bob) == {"razz", "stud"}
    bob.uncheck('input[name="f-game"][value="razz"]')
    bob.uncheck('input[name="f-game"][value="stud_high"]')
    assert shown(bob) == everything
    bob.select_option("#f-stakes", "2/4")
    assert shown(bob) == {"hilo2"}
    bob.select_option("#f-stakes", "4/8")
    assert shown(bob) == {"t1", "stud"}
    bob.select_option("#f-stakes", "")
    bob.check("#f-hide-full")
    assert shown(bob) == everything - {"razz"}
    bob.check("#f-hide-empty")
    assert shown(bob) == {"hilo2", "stud"}
    bob.select_option("#f-min-players", "3")
    assert shown(bob) == {"hilo2"}
    bob.select_option("#f-min-players", "0")
    bob.check('input[name="f-game"][value="stud_hi_lo"]')
    assert shown(bob) == {"hilo2"}
    screenshot(bob, "lobby-filtered-1366")
    bob.click("#f-clear")
    assert shown(bob) == everything
    assert bob.locator("th[aria-sort]").count() == 1  # the sort stays: only the filters go

    # nothing matches: the lobby says so and offers to clear them
    bob.check('input[name="f-game"][value="razz"]')
    bob.check("#f-hide-full")
    bob.wait_for_selector("#tables td.none button.clear-filters")
    bob.click("#tables button.clear-filters")
    assert shown(bob) == everything

    # a choice survives a reload, and follows bob to another browser
    bob.check('input[name="f-game"][value="stud_hi_lo"]')
    bob.select_option("#f-stakes", "4/8")
    with bob.expect_response(settings_put("average_pot")):  # the choice kept
        sort_by(bob, "average_pot", "ascending")
    bob.reload()
    bob.wait_for_selector("#f-count:not(:empty)")
    assert shown(bob) == {"t1"}
    assert bob.is_checked('input[name="f-game"][value="stud_hi_lo"]')
    assert bob.input_value("#f-stakes") == "4/8"
    assert bob.locator('th[aria-sort="ascending"] button[data-sort="average_pot"]').count() == 1
    elsewhere = log_in(players, "bob")
    assert shown(elsewhere) == {"t1"}
    assert elsewhere.input_value("#f-stakes") == "4/8"
    with elsewhere.expect_response(settings_put()):
        elsewhere.click("#f-clear")
    with httpx.Client(base_url=players.room.url) as http:
        r = http.post("/api/v1/login", json={"name": "bob", "password": "secret-bob"})
        kept = http.get(
            "/api/v1/settings", headers={"Authorization": f"Bearer {r.json()['token']}"}
        ).json()["lobby"]
    assert kept["games"] == [] and kept["stakes"] == "" and kept["sort"] == "average_pot"

    # she goes back to the lobby: nobody watches the Razz table
    ann.click("#to-lobby")
    ann.wait_for_selector('tr[data-table="razz"]')
    elsewhere.wait_for_selector(
        'tr[data-table="razz"] [role="img"][aria-label="0 watching"]', timeout=LOBBY_POLL
    )

    # the lobby on a laptop and two phones: every cell of a phone's row says what it is
    cat = players.new("cat", PHONE)
    dan = players.new("dan", SMALL_PHONE)
    for page, name, viewport in (
        (elsewhere, "lobby-sorted-1366", LAPTOP),
        (cat, "lobby-390", PHONE),
        (dan, "lobby-360", SMALL_PHONE),
    ):
        screenshot(page, name)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], (name, width)
    for page in (cat, dan):
        labels = page.evaluate(
            """() => [...document.querySelectorAll('tr[data-table="stud"] td[data-label]')]
              .map((td) => getComputedStyle(td, '::before').content)"""
        )
        assert labels == [
            '"Table"',
            '"Game"',
            '"Stakes"',
            '"Seats"',
            '"Waiting"',
            '"Players"',
            '"Hands/h"',
            '"Avg pot"',
            '"Watching"',
        ], labels
        # the sort is there on a phone too: its headers are a strip of buttons
        assert page.locator("th button.sort:visible").count() == 8
    assert players.console.errors == [], players.console.errors
