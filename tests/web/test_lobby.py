"""The lobby for an operator: the create-table form opens a table of each game
(Stud Hi/Lo, Seven Card Stud, Razz) whose bots deal at once, and each row's Close
button closes a table (a first click asks, a second closes it: the players seated
there are paid out, the table leaves the lobby). A player sees no Close button."""

from __future__ import annotations

from playwright.sync_api import Page

from stud8.server.table.spec import TableSpec

from .roomkit import Stage, screenshot, sit, start_room, wait_state


def open_table(op: Page, table_id: str, game: str) -> None:
    op.fill("#ct-table_id", table_id)
    op.select_option("#ct-game", game)
    op.fill("#ct-bots", "3")
    op.fill("#ct-bot_delay", "0")
    op.click("#create-submit")
    op.wait_for_selector(f'tr[data-table="{table_id}"]')


def test_an_operator_opens_a_table_of_each_game_and_closes_one(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0), operators=["oper"]))
    op = players.new("oper", existing=True)
    op.click("details.create-table summary")
    op.wait_for_selector("#ct-game")  # the rule fields come from GET /api/v1/tables/options
    options = op.locator("#ct-game option").all_inner_texts()
    assert options == ["Stud Hi/Lo (8 or better)", "Seven Card Stud", "Razz"], options
    for table_id, game, name in (
        ("hilo", "stud_hi_lo", "Stud Hi/Lo Limit"),
        ("stud", "stud_high", "7 Card Stud Limit"),
        ("razz", "razz", "Razz Limit"),
    ):
        open_table(op, table_id, game)
        assert name in op.locator(f'tr[data-table="{table_id}"]').inner_text()
    # the bots play each game (watched from its table)
    for table_id, game in (("stud", "stud_high"), ("razz", "razz")):
        op.click(f'button.observe[data-table="{table_id}"]')
        wait_state(op, f"s.rules && s.rules.game === '{game}' && s.hand !== null", 15_000)
        heading = op.locator("#table-info").inner_text()
        assert heading.startswith("Razz" if game == "razz" else "7 Card Stud Limit"), heading
        op.click("#to-lobby")
        op.wait_for_selector('tr[data-table="razz"]')

    # ann sits at the Razz table; she sees no Close button
    ann = players.new("ann", table="razz")
    assert ann.locator("button.close-table").count() == 0
    sit(ann, table="razz")
    # the operator closes it: a first click asks, the second closes
    close = op.locator('button.close-table[data-table="razz"]')
    close.click()
    op.wait_for_selector('button.close-table.armed[data-table="razz"]')
    assert close.inner_text() == "Really close?"
    screenshot(op, "lobby-close-table")
    close.click()
    op.wait_for_selector('tr[data-table="razz"]', state="detached")
    op.wait_for_selector("#toast:has-text('Table razz is closed')")
    assert op.locator('tr[data-table="hilo"]').count() == 1
    # ann is stood up with her chips (the table closed)
    wait_state(ann, "s.mySeat === null")
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors
