"""The operator's console, #/admin (issue 27 item 1), in Debian's Chromium against a
room on a database (SQLite) on 127.0.0.1, at 1366x768 and 390x844: its sections
are tabs a screen reader and a test find by name; the operator sees who sits
where, the tables, an account whole and acts on it (credit, silence, ban, unban,
each in the moderation log), the journal (and its CSV), the audit, the rake, the
nodes, a short fairness report; his lobby message reaches a player's table and
lobby until withdrawn. A player has no Console tab, and the page, opened by hand,
says operators only (every endpoint answers him 403)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from stud8.server.accounts.accounts import Accounts
from stud8.server.runtime import open_room
from stud8.server.settings import Settings

from .roomkit import LAPTOP, PHONE, Room, Stage, screenshot, serve, sit

SECTIONS = ["Players", "Tables", "Accounts", "Journal", "Rake", "Moderation", "Nodes", "Fairness"]


def room_with_operator(directory: Path) -> Room:
    settings = Settings(
        database_url=f"sqlite:///{directory / 'room.db'}",
        default_tables=1,
        bots_per_table=0,
        starting_chips=1000,
        signups=1000,
    )
    opened = open_room(settings, {"STUD8_BETWEEN_HANDS": "1", "STUD8_BOT_DELAY": "0"})
    accounts = Accounts(opened.engine, opened.ledger, opening_chips=1000)
    accounts.register("boss", "secret-boss", role="operator")
    return serve(opened.app, lambda: opened.ledger.audit().ok, opened.close)


def tab(page: Page, name: str) -> None:
    page.get_by_role("tab", name=name).click()
    expect(page.get_by_role("heading", name=name, level=2)).to_be_visible()


def fits(page: Page) -> None:
    """Nothing is wider than the window (no sideways scrolling of the page)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, width  # type: ignore[index]


def test_the_console_at_desktop_and_phone_sizes(stage: Stage, tmp_path: Path) -> None:
    players = stage.start(room_with_operator(tmp_path))
    ann = players.new("ann", PHONE)
    # a player: no Console tab, and the page itself refuses him
    expect(ann.locator("#tab-admin")).to_have_count(0)
    players.console.expect_refusal("GET", "/api/v1/admin/")
    sit(ann)

    boss = players.new("boss", LAPTOP, existing=True)
    boss.click("#tab-admin")
    expect(boss.get_by_role("tablist", name="console sections")).to_be_visible()
    assert boss.get_by_role("tab").all_inner_texts() == SECTIONS
    # Players: ann sits at t1 (and watches it: her socket)
    row = boss.locator('table[aria-label="players online"] tr', has_text="ann")
    expect(row).to_contain_text("t1")
    screenshot(boss, "admin-players-desktop")
    tab(boss, "Tables")
    expect(boss.locator('table[aria-label="tables now"] tbody tr')).to_contain_text("4/8")
    expect(boss.locator('table[aria-label="tournaments"]')).to_be_visible()
    screenshot(boss, "admin-tables-desktop")

    # Accounts: find ann, credit her, silence her for a time, ban and unban her
    tab(boss, "Accounts")
    boss.fill("#find-name", "ann")
    boss.click("#find")
    expect(boss.locator("#account-name")).to_contain_text("ann")
    expect(boss.locator("#account-bank")).to_have_text("800")  # 1000 less her buy-in
    expect(boss.locator(".account-card")).to_contain_text("seat")

    def act(name: str, reason: str, amount: str = "", minutes: str = "") -> None:
        boss.fill("#act-reason", reason)
        boss.fill("#act-amount", amount)
        boss.fill("#act-minutes", minutes)
        boss.click(f'button[data-act="{name}"]')

    act("credit", "a prize", amount="50")
    expect(boss.locator("#account-bank")).to_have_text("850")
    act("silence", "spam", minutes="30")
    expect(boss.locator("#account-chat")).to_contain_text("silenced until")
    # the ban ends ann's session: her page's next requests are 401 until she logs in
    players.console.expect_refusal("GET", "/api/v1/me")
    players.console.expect_refusal("GET", "/api/v1/tables")
    players.console.expect_refusal("GET", "/api/v1/notes")  # her table's view reads her notes
    act("ban", "collusion")
    expect(boss.locator("#account-name .role")).to_have_text("banned")
    screenshot(boss, "admin-account-banned-desktop")
    act("unban", "appeal won")
    expect(boss.locator("#account-name .role")).to_have_text("player")
    log = boss.locator('table[aria-label="moderation of ann"] tbody tr')
    expect(log).to_have_count(4)
    expect(log.first).to_contain_text("appeal won")
    # a refused act says why and changes nothing
    boss.fill("#act-reason", "")
    players.console.expect_refusal("POST", "/api/v1/admin/accounts/")
    act("debit", "", amount="5")
    expect(boss.locator("#act-error")).to_contain_text("reason")
    expect(boss.locator("#account-bank")).to_have_text("850")

    # Moderation: the log, and the lobby message to everyone
    tab(boss, "Moderation")
    expect(boss.locator('table[aria-label="moderation log"] tbody tr')).to_have_count(4)
    boss.fill("#message-text", "The room restarts at 23:00")
    boss.click("#message-post")
    expect(boss.locator("#message-now")).to_contain_text("restarts at 23:00")
    # ann (banned, then unbanned: her session ended) logs in again, at the table
    ann.reload()
    # (waited for, not counted at once: the page asks /api/v1/me before it draws the form)
    expect(ann.locator("#login-form")).to_be_visible()
    ann.fill("#name", "ann")
    ann.fill("#password", "secret-ann")
    ann.click("#login")
    expect(ann.locator("#room-message")).to_contain_text("restarts at 23:00")  # the lobby
    ann.click('button.observe[data-table="t1"]')
    ann.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")
    expect(ann.locator("#room-message")).to_contain_text("restarts at 23:00")
    screenshot(ann, "admin-message-at-table-phone")
    bob = players.new("bob")
    expect(bob.locator("#room-message")).to_contain_text("restarts at 23:00")
    screenshot(bob, "admin-message-in-lobby-desktop")
    boss.click("#message-withdraw")
    expect(boss.locator("#message-now")).to_have_text("No message is shown.")
    expect(ann.locator("#room-message")).to_have_count(0, timeout=10_000)
    expect(bob.locator("#room-message")).to_have_count(0, timeout=10_000)

    # Journal: the transactions with their entries, the audit, the CSV
    tab(boss, "Journal")
    expect(boss.locator("#audit-out")).to_contain_text("The books balance")
    journal = boss.locator('table[aria-label="journal"] tbody tr')
    credited = journal.filter(has_text="a prize")
    expect(credited).to_have_count(1)
    expect(credited).to_contain_text("bank:ann +50")
    boss.select_option("#j-kind", "buy_in")
    boss.get_by_role("button", name="Show").click()
    expect(journal).to_have_count(1)
    expect(journal.first).to_contain_text("table:t1:ann")
    with boss.expect_download() as got:
        boss.click("#journal-csv")
    csv = Path(got.value.path()).read_text()
    assert csv.splitlines()[0] == "transaction,at,kind,hand_id,memo,account,amount"
    assert "buy_in" in csv and "credit" not in csv
    labels_above_figures(boss, "#audit-out dl.figures")
    screenshot(boss, "admin-journal-desktop")

    tab(boss, "Rake")
    expect(boss.locator("#rake-total")).to_have_text("0")
    boss.get_by_role("radio", name="Table").check()
    expect(boss.locator('table[aria-label="rake by table"]')).to_be_visible()

    tab(boss, "Nodes")
    expect(boss.locator("#nodes-out")).to_contain_text("one process")
    expect(boss.locator('table[aria-label="nodes"] tbody tr')).to_contain_text("this room")

    tab(boss, "Fairness")
    expect(boss.locator("#fairness-out")).to_contain_text("No report")
    boss.fill("#fairness-deals", "5000")
    boss.click("#fairness-run")
    expect(boss.locator("#fairness-verdict")).to_contain_text(
        re.compile(r"(PASS|FAIL): 5,000 deals"), timeout=60_000
    )
    screenshot(boss, "admin-fairness-desktop")

    # the phone: the tabs wrap, nothing scrolls sideways but the wide tables' own boxes
    phone = players.new("boss", PHONE, existing=True)
    phone.goto(players.room.url + "/#/admin/accounts")
    expect(phone.get_by_role("heading", name="Accounts", level=2)).to_be_visible()
    phone.fill("#find-name", "ann")
    phone.click("#find")
    expect(phone.locator("#account-bank")).to_have_text("850")
    labels_above_figures(phone, ".account-card dl.figures")
    fits(phone)
    screenshot(phone, "admin-account-phone")
    # the keyboard moves between the tabs
    phone.get_by_role("tab", name="Accounts").focus()
    phone.keyboard.press("ArrowRight")
    expect(phone.get_by_role("heading", name="Journal", level=2)).to_be_visible()
    fits(phone)
    labels_above_figures(phone, "#audit-out dl.figures")
    screenshot(phone, "admin-journal-phone")
    for name in ("Players", "Tables", "Fairness"):
        tab(phone, name)
        fits(phone)
    screenshot(phone, "admin-fairness-phone")
    assert not players.console.errors, players.console.errors


def test_a_player_opening_the_console_is_told_operators_only(stage: Stage, tmp_path: Path) -> None:
    players = stage.start(room_with_operator(tmp_path))
    ann = players.new("ann")
    players.console.expect_refusal("GET", "/api/v1/admin/")
    ann.goto(players.room.url + "/#/admin/players")
    expect(ann.locator("#admin-refused")).to_contain_text("operators only")
    expect(ann.locator("#players-out")).to_contain_text("operators only")
    screenshot(ann, "admin-refused-player-desktop")
    assert not players.console.errors, players.console.errors


def labels_above_figures(page: Page, where: str) -> None:
    """Each label of the figures stands right above its own figure (the audit's grid
    once wrapped after seven cells: "Tables" at a row's end, its 200 the next row's
    first cell). The figures come with their own request after the section is shown
    (the audit's: it may answer after its heading is drawn), so they are waited for."""
    expect(page.locator(where + " dt").first).to_be_visible()
    pairs = page.evaluate(
        """(where) => [...document.querySelectorAll(where + ' dt')].map((dt) => {
            const a = dt.getBoundingClientRect(), b = dt.nextElementSibling.getBoundingClientRect();
            return [dt.textContent, a.left, a.bottom, b.left, b.top];
        })""",
        where,
    )
    assert pairs, where
    for label, dt_left, dt_bottom, dd_left, dd_top in pairs:
        assert abs(dt_left - dd_left) < 1 and 0 <= dd_top - dt_bottom < 12, (label, pairs)
