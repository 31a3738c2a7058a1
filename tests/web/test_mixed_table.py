"""A mixed table in the browser (a real room, Chromium): the lobby's row says it is
mixed and the game it plays now; at the table the title follows the game, names the
next one, and the dealer's log says the change before it comes ("The game changes to
Seven Card Stud after this hand") and when it does ("Now playing: Seven Card Stud");
a reload shows the game it plays now."""

from __future__ import annotations

from playwright.sync_api import Page

from stud8.server.table.spec import TableSpec

from .roomkit import PHONE, Stage, screenshot, start_room, state, wait_state
from .test_lobby_sort import log_in, open_tables, settings_put, shown

SPEC = TableSpec(
    rotation="stud_hi_lo+stud_high+razz",
    rotation_hands=2,
    bots=3,
    bot_delay=0.0,
    between_hands=1.0,
    showdown_seconds=0.0,
)


NAMES = {"stud_hi_lo": "Stud Hi/Lo", "stud_high": "7 Card Stud", "razz": "Razz"}  # the lobby's
WORDS = {"stud_hi_lo": "Stud Hi/Lo", "stud_high": "Seven Card Stud", "razz": "Razz"}  # the notices'


def title(page: Page) -> str:
    return page.locator("#table-info").inner_text()


def wait_title(page: Page, words: str) -> None:
    page.wait_for_function(
        "(w) => document.querySelector('#table-info').textContent.includes(w)",
        arg=words,
        timeout=60_000,
    )


def test_a_mixed_table_s_title_follows_its_game_and_the_log_tells_the_change(
    stage: Stage,
) -> None:
    players = stage.start(start_room(SPEC))
    page = players.new("ann")
    row = page.locator('tr[data-table="t1"]')
    assert "Triple Stud: " in row.inner_text(), row.inner_text()
    page.click('button.observe[data-table="t1"]')
    wait_state(page, "s.mixed !== null")
    first = state(page, "s.mixed.game")
    wait_title(page, f"Triple Stud: {NAMES[first]}")
    # the next change seen here: told in the log before it comes, then done
    wait_state(page, f"s.mixed.game !== '{first}'", timeout=60_000)
    # read at once (the table deals on): the title is set as the event comes
    now, after, shown = state(
        page, "[s.mixed.game, s.mixed.next_game, document.querySelector('#table-info').textContent]"
    )
    assert shown.startswith(f"Triple Stud: {NAMES[now]} Limit 4/8"), shown
    assert f"next: {NAMES[after]}" in shown, shown
    log: list[str] = state(page, "s.log")
    told = [
        i
        for i, line in enumerate(log)
        if line == f"The game changes to {WORDS[now]} after this hand"
    ]
    done = [i for i, line in enumerate(log) if line == f"Now playing: {WORDS[now]}"]
    assert told and done and told[-1] < done[-1], log  # said before it happens
    dealer = page.locator("#log").inner_text()
    assert f"Now playing: {WORDS[now]}" in dealer, dealer
    # the dealer's words follow the game: in Razz the highest up card brings in
    wait_title(page, "Triple Stud: Razz")
    page.wait_for_function(
        "() => window.stud8.state.log.some((l) => l.includes('highest up card'))",
        timeout=30_000,
    )
    screenshot(page, "mixed-table-razz")
    # a reload: the snapshot says the game now
    page.reload()
    wait_state(page, "s.mixed !== null")
    wait_title(page, f"Triple Stud: {NAMES[state(page, 's.mixed.game')]}")
    assert players.console.errors == [], players.console.errors


def test_the_lobby_finds_a_mixed_table_by_its_own_game_filter(stage: Stage) -> None:
    """The lobby's "Mixed stud" filter keeps the mixed tables (and a one-game filter
    leaves them out, whatever game they deal this orbit); the row names the games in
    their order, the one dealt now marked; the choice is kept with the account."""
    players = stage.start(start_room(SPEC, operators=["oper"]))
    open_tables(players)  # hilo2 (Hi/Lo), stud (Seven Card Stud), razz (Razz)
    page = players.new("ann")
    page.wait_for_selector('tr[data-table="razz"]')
    # read in one go (the rows are drawn again every few seconds, the game turns)
    games, now, title = page.evaluate(
        """() => { const tr = document.querySelector('tr[data-table="t1"]');
          return [tr.querySelector('.mixed-games').textContent,
                  tr.querySelector('b.now').textContent,
                  tr.querySelector('td.game').childNodes[0].textContent]; }"""
    )
    assert games.replace(" (now)", "") == "Mixed stud: Stud Hi/Lo → 7 Card Stud → Razz", games
    game = now.removesuffix(" (now)")
    assert game in NAMES.values() and title.startswith(f"Triple Stud: {game} "), (now, title)
    assert not page.locator('tr[data-table="razz"] .mixed-games').count()

    with page.expect_response(settings_put('"mixed":true')) as kept:
        page.check("#f-mixed")
    assert kept.value.status == 200  # the account keeps the choice
    page.wait_for_function("() => document.querySelectorAll('#tables tr[data-table]').length === 1")
    assert shown(page) == {"t1"}
    screenshot(page, "lobby-mixed-filter-1366")
    page.check('input[name="f-game"][value="razz"]')
    assert shown(page) == {"t1", "razz"}
    page.uncheck("#f-mixed")
    assert shown(page) == {"razz"}  # a Razz table only, even while t1 deals Razz
    page.check('input[name="f-game"][value="stud_hi_lo"]')
    page.check("#f-mixed")
    assert shown(page) == {"t1", "razz", "hilo2"}
    page.reload()
    page.wait_for_selector("#f-count:not(:empty)")
    assert page.is_checked("#f-mixed") and shown(page) == {"t1", "razz", "hilo2"}
    phone = log_in(players, "ann", PHONE)  # the choice follows the account
    assert phone.is_checked("#f-mixed") and shown(phone) == {"t1", "razz", "hilo2"}
    phone.locator('tr[data-table="t1"]').scroll_into_view_if_needed()
    screenshot(phone, "lobby-mixed-filter-phone")
    assert players.console.errors == [], players.console.errors
