"""Private tables in real Chromium against a real server, at desktop and phone sizes:
a player (the room lets players) opens a private table from the lobby and gets its
invitation link; an outsider's lobby never shows it and its plain address answers "No
such table"; an invited player, not logged in, opens the link, logs in, lands at the
table and sits; the two play a hand while the outsider's lobby still shows nothing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, ViewportSize

from stud8.server.books.memory import MemoryBooks
from stud8.server.runtime import memory_app
from stud8.server.settings import Settings
from stud8.server.table.spec import TableSpec

from .roomkit import (
    HAND_OVER,
    LAPTOP,
    PHONE,
    Room,
    Stage,
    play,
    screenshot,
    serve,
    wait_state,
)

SIZES = {"desktop": LAPTOP, "phone": PHONE}


def private_room(*, players_create_private: bool = True) -> Room:
    """A room in memory (that lets players open private tables); public table t1; the
    operator ``oper``."""
    settings = Settings(
        default_tables=1,
        starting_chips=1000,
        signups=1000,
        players_create_private=players_create_private,
    )
    spec = TableSpec(bots=0, between_hands=0.5, bot_delay=0.0, showdown_seconds=0.5)
    app = memory_app(settings, spec=spec, operators={"oper": "secret-oper"})
    books: MemoryBooks = app.state.books
    return serve(app, books.audit)


def lobby_ids(page: Page) -> list[str]:
    """The tables the page's lobby shows, drawn afresh from the server."""
    page.evaluate("location.hash = '#/'")
    page.reload()
    page.wait_for_selector('tr[data-table="t1"]')
    ids: list[str] = page.eval_on_selector_all(
        "tr[data-table]", "rows => rows.map((r) => r.dataset.table)"
    )
    return ids


@pytest.mark.parametrize("size", list(SIZES))
def test_a_private_table_is_invisible_without_its_link(stage: Stage, size: str) -> None:
    viewport: ViewportSize = SIZES[size]
    players = stage.start(private_room())
    ann = players.new("ann", viewport)
    # ann opens a private table: the form's Private choice is made for her (a player)
    ann.click("details.create-table summary")
    choice = ann.locator("#ct-private")
    assert choice.is_checked() and choice.is_disabled()
    assert "Private" in ann.locator("label[for='ct-private']").inner_text()
    assert ann.locator("#ct-table_id").count() == 0  # the room names a player's table
    ann.fill("#ct-name", "Ann's club")
    ann.fill("#ct-action_seconds", "30")
    ann.click("#create-submit")
    ann.wait_for_selector("section.invitation #invite-link")
    link = ann.input_value("#invite-link")
    club = ann.locator("section.invitation h3").inner_text().removeprefix("Invitation: ")
    assert re.fullmatch(r"p[0-9a-f]{12}", club), club
    match = re.fullmatch(re.escape(players.room.url) + r"/#/join/([A-Za-z0-9_-]{22})", link)
    assert match, link
    ann.click("#invite-copy")
    ann.wait_for_selector("#invite-copy:has-text('Copied')")
    row = ann.locator(f'tr[data-table="{club}"]')
    row.wait_for()
    assert row.locator(".private-tag").inner_text() == "Private"
    assert ann.locator('tr[data-table="t1"] .private-tag').count() == 0
    screenshot(ann, f"private-created-{size}")

    # eve, not invited: her lobby has no such table, and its plain address says so
    eve = players.new("eve", viewport)
    assert lobby_ids(eve) == ["t1"]
    assert club not in eve.content() and "Ann's club" not in eve.inner_text("body")
    screenshot(eve, f"private-outsider-lobby-{size}")
    eve.goto(f"{players.room.url}/#/table/{club}")
    eve.wait_for_selector("#banner:not([hidden])")
    assert eve.locator("#banner").inner_text() == f"No such table: {club}"
    assert eve.evaluate("window.stud8.state.seats") == {}
    screenshot(eve, f"private-outsider-table-{size}")
    # a made-up code: the link does not work
    players.console.expect_refusal("POST", "/api/v1/invitations")
    eve.goto(players.room.url + "/#/join/not-the-code")
    eve.wait_for_selector("#join-status:has-text('does not work')")
    assert lobby_ids(eve) == ["t1"]

    # bob opens the link logged out: he registers, then lands at the table and sits
    bob = players.open(viewport)
    bob.goto(link)
    bob.wait_for_selector(".invited")
    bob.fill("#name", "bob")
    bob.fill("#password", "secret-bob")
    screenshot(bob, f"private-invited-login-{size}")
    bob.click("#register")
    wait_state(bob, f"s.rules && s.rules.table_id === '{club}'")
    assert bob.locator("#table-name").inner_text() == "Ann's club"
    bob.click('.seat[data-seat="2"] button.sit-here')
    bob.wait_for_selector("#money-dialog[open]")
    bob.fill("#md-amount", "200")
    bob.click("#md-ok")
    wait_state(bob, "s.mySeat === 2")
    # ann sits too, from her lobby row, and they play a hand
    ann.evaluate("location.hash = '#/'")
    ann.fill(f'input.buyin[data-table="{club}"]', "200")
    ann.click(f'button.sit[data-table="{club}"]')
    wait_state(ann, "s.mySeat !== null")
    play([ann, bob], HAND_OVER)
    screenshot(bob, f"private-invited-seated-{size}")
    # bob keeps his access: the table is in his lobby; eve's still has nothing
    bob.evaluate("location.hash = '#/'")
    bob.wait_for_selector(f'tr[data-table="{club}"] .private-tag')
    assert lobby_ids(eve) == ["t1"]
    assert club not in eve.content() and "Ann's club" not in eve.inner_text("body")
    # ann renews the link from her row's Invite button (the old one stops working),
    # then closes her table there: bob is stood up with his chips
    ann.evaluate("location.hash = '#/'")
    ann.click(f'button.invite[data-table="{club}"]')
    ann.wait_for_selector("#invite-link")
    ann.click("#invite-renew")
    ann.wait_for_function(
        "(old) => { const el = document.querySelector('#invite-link');"
        " return !!el && el.value !== old; }",
        arg=link,
    )
    ann.click("#invite-close-table")
    ann.wait_for_selector("#invite-close-table.armed")
    screenshot(ann, f"private-invite-panel-{size}")
    ann.click("#invite-close-table")
    ann.wait_for_selector(f'tr[data-table="{club}"]', state="detached")
    bob.wait_for_selector(f'tr[data-table="{club}"]', state="detached", timeout=15_000)
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors


def test_an_operator_ticks_private_and_players_get_no_form_unless_the_room_lets_them(
    stage: Stage,
) -> None:
    players = stage.start(private_room(players_create_private=False))
    ann = players.new("ann")
    assert ann.locator("details.create-table").count() == 0  # players may not here
    op = players.new("oper", existing=True)
    op.click("details.create-table summary")
    choice = op.locator("#ct-private")
    assert not choice.is_checked() and choice.is_enabled()  # public unless ticked
    op.fill("#ct-table_id", "vip")
    choice.check()
    op.click("#create-submit")
    op.wait_for_selector("section.invitation #invite-link")
    assert op.locator("section.invitation h3").inner_text() == "Invitation: vip"
    op.wait_for_selector('tr[data-table="vip"] .private-tag')
    op.fill("#ct-table_id", "open")
    choice.uncheck()
    op.click("#create-submit")
    op.wait_for_selector('tr[data-table="open"]')
    assert op.locator('tr[data-table="open"] .private-tag').count() == 0
    screenshot(op, "private-operator-lobby")
    assert lobby_ids(ann) == ["t1", "open"]
    assert ann.locator("details.create-table").count() == 0
    assert players.console.errors == [], players.console.errors
