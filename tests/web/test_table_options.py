"""The operator's form offers every option of RULES.md (made from the room's own
definition of them, ``GET /api/v1/tables/options``), each at its default: a table
opened with every option away from its default deals (its bots play a hand), and
the lobby's details of the table say each option as chosen, on a laptop and a
phone, and so does the table's own rules panel."""

from __future__ import annotations

import time
from typing import Any

import httpx
from playwright.sync_api import Page

from server.http.test_table_options import ALL_CHOSEN
from stud8.server.table.spec import RULE_OPTIONS, TableSpec

from .roomkit import LAPTOP, PHONE, Stage, screenshot, start_room


def choose(op: Page, name: str, value: Any, kind: str) -> None:
    field = f"#ct-{name}"
    if kind == "choice":
        op.select_option(field, str(value))
    elif kind == "bool":
        op.set_checked(field, bool(value))
    else:  # a number or a rate; blank: none (null)
        op.fill(field, "" if value is None else str(value))


def lobby_table(url: str, table_id: str) -> dict[str, Any]:
    tables = httpx.get(f"{url}/api/v1/tables").json()["tables"]
    return next(t for t in tables if t["table_id"] == table_id)


def test_the_form_opens_a_table_with_every_option_and_the_lobby_says_them(
    stage: Stage,
) -> None:
    players = stage.start(start_room(TableSpec(bots=0), operators=["oper"]))
    op = players.new("oper", existing=True, viewport=LAPTOP)
    op.click("details.create-table summary")
    op.wait_for_selector(f"#ct-{RULE_OPTIONS[-1].name}")
    for option in RULE_OPTIONS:  # each at its default
        field = op.locator(f"#ct-{option.name}")
        if option.kind == "bool":
            assert field.is_checked() is option.default, option.name
        else:
            shown = "" if option.default is None else str(option.default)
            assert field.input_value() == shown, option.name
    for option in RULE_OPTIONS:
        choose(op, option.name, ALL_CHOSEN[option.name], option.kind)
    op.fill("#ct-table_id", "every")
    op.fill("#ct-bots", "2")
    op.fill("#ct-bot_delay", "0")
    op.fill("#ct-between_hands", "0.1")
    screenshot(op, "table-options-form")
    op.click("#create-submit")
    op.wait_for_selector('tr[data-table="every"]')

    url = players.room.url
    deadline = time.monotonic() + 20
    while (table := lobby_table(url, "every"))["hands_played"] < 1:
        assert time.monotonic() < deadline, table
        time.sleep(0.1)
    assert table["rules"] == ALL_CHOSEN

    for page, name in ((op, "laptop"), (players.login("oper", PHONE), "phone")):
        page.wait_for_selector('tr[data-table="every"] details.table-rules')
        page.click('tr[data-table="every"] details.table-rules summary')
        details = page.locator('tr[data-table="every"] ul.table-rules-list')
        items = details.locator("li").all_inner_texts()
        assert len(items) == len(RULE_OPTIONS), items
        assert details.locator("li.chosen").count() == len(RULE_OPTIONS)
        text = details.inner_text()
        assert "Raise cap\nnone" in text or "Raise cap none" in text, text
        assert "6th street" in text or "7th street" in text, text
        time.sleep(5.5)  # the lobby draws its rows again every 5 s: the details stay open
        assert page.locator('tr[data-table="every"] details.table-rules[open]').count() == 1
        screenshot(page, f"table-options-lobby-{name}")
        if name == "phone":  # the form's rule fields on a phone
            page.click("details.create-table summary")
            page.wait_for_selector(f"#ct-{RULE_OPTIONS[-1].name}")
            page.locator("#ct-game").scroll_into_view_if_needed()
            screenshot(page, "table-options-form-phone")
        # at the table, its rules panel names every option as the lobby says them
        page.click('button.observe[data-table="every"]')
        page.wait_for_selector("#rules-options ul.table-rules-list li", state="attached")
        page.click("#rules-panel summary")
        panel = page.locator("#rules-options ul.table-rules-list")
        assert panel.locator("li").all_inner_texts() == items
        assert panel.locator("li.chosen").count() == len(RULE_OPTIONS)
        # the next hand (a mixed table tells its game at each) leaves the open list
        # as it is: the same nodes, not drawn again under the reader
        mark = "document.querySelector('#rules-options ul.table-rules-list')"
        page.evaluate(f"{mark}.kept = true")
        played = lobby_table(url, "every")["hands_played"]
        deadline = time.monotonic() + 20
        while lobby_table(url, "every")["hands_played"] < played + 2:
            assert time.monotonic() < deadline, "the bots played no more hands"
            time.sleep(0.1)
        assert page.evaluate(f"{mark}.kept === true")
        panel.scroll_into_view_if_needed()
        screenshot(page, f"table-options-panel-{name}")
    assert players.console.errors == [], players.console.errors
