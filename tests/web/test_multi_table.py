"""Several tables in one page (issue 28, item 5): the lobby's "Open beside" adds a table
to the one open, #/tables/A,B,... tiles two to four tables, each a whole table view of
its own (its socket, state, dealer's log named for it, timers, sound, chat). The table
where my decision waits is marked (a frame, its header's mark, its name said) and
brought forward (the keyboard on its passive action); a key acts at the focused table
only. A reload restores every table and its dealer's log; closing a tile leaves the
others playing (the same connections); a phone stacks the tables. Screenshots of two and
four tables at 1366x768, 1920x1080 and 390x844 go to artifacts/screenshots/multi-*.png."""

from __future__ import annotations

import itertools
from typing import Any

from playwright.sync_api import Page, ViewportSize
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from stud8.server.table.spec import TableSpec

from .roomkit import LAPTOP, PHONE, Players, Stage, screenshot, sit, start_room

DESKTOP: ViewportSize = {"width": 1920, "height": 1080}
SPEC = TableSpec(bots=3, bot_delay=0.2, between_hands=1.0, showdown_seconds=1.0)
TILE_BUY_IN = 200  # four tables of 200 from the 1000 a new account has

# every act a table's socket sends, by table: [table, type, kind]
SPY = """() => {
  window.sentActs = window.sentActs || [];
  for (const [id, p] of Object.entries(window.stud8tables)) {
    if (p.socket.spied) continue;
    const send = p.socket.send.bind(p.socket);
    p.socket.send = (t, d) => { window.sentActs.push([id, t, d && d.kind]); return send(t, d); };
    p.socket.spied = true;
  }
  if (!window.said) {  // what each table's live region said, in order
    window.said = [];
    for (const el of document.querySelectorAll('.tile [aria-live="polite"][id$="tile-announce"]')) {
      new MutationObserver(() => window.said.push(el.textContent))
        .observe(el, {childList: true, characterData: true, subtree: true});
    }
  }
}"""

# the table brought forward: marked, my decision waiting there, the keyboard its (the
# focus in it, or nowhere: after a dialog closed, say)
FORWARD_READY = """() => {
  const t = document.querySelector('.tile.my-turn.forward');
  if (!t) return false;
  const p = window.stud8tables[t.dataset.table];
  return p.drawn() && p.state.turn && p.state.sentFor !== p.state.turn
    && (t.contains(document.activeElement) || document.activeElement === document.body)
    && !!t.querySelector('button.act:not([disabled])');
}"""

TILES = """() => [...document.querySelectorAll('.tile')].map((t) => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
  const log = t.querySelector('[role="log"]');
  return {table: t.dataset.table, tile: box(t), felt: box(t.querySelector('.felt')),
          under: box(t.querySelector('.under')), zoom: t.querySelector('.tile-view').style.zoom,
          log: log.getAttribute('aria-label'),
          lines: [...log.querySelectorAll('li')].map((l) => l.textContent)};
})"""

# the lines of the hand on a table: from its "Hand #N starts" on
HAND_LINES = (
    "(() => { const i = s.log.map((l) => l.startsWith('Hand #')).lastIndexOf(true);"
    " return i < 0 ? [] : s.log.slice(i); })()"
)

# each table's dealer's log on the page as its state has it, its hand's first line in it
LOGS_SHOWN = """(ids) => ids.every((id) => {
  const p = window.stud8tables[id];
  const log = document.querySelector(`.tile[data-table="${id}"] [role="log"]`);
  const lines = [...log.querySelectorAll('li')].map((l) => l.textContent);
  return p.drawn() && lines.length > 0 && lines.join("\\n") === p.state.log.join("\\n")
    && lines.some((l) => /^Hand #\\S+ starts/.test(l));
})"""

DUPLICATE_IDS = """() => { const seen = new Map();
  for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) || 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([id]) => id); }"""


def probe(page: Page, table: str, expr: str) -> Any:
    return page.evaluate(
        f"(() => {{ const s = window.stud8tables['{table}'].state; return {expr}; }})()"
    )


def wait_tables(page: Page, tables: list[str], expr: str, timeout: float = 20_000) -> None:
    page.wait_for_function(
        f"""(ids) => window.stud8tables && ids.every((id) => {{ const p = window.stud8tables[id];
          const s = p && p.state; return !!s && !!({expr}) && p.drawn(); }})""",
        arg=tables,
        timeout=timeout,
    )


def sit_in_tile(page: Page, table: str) -> None:
    # the felt is drawn again at each of the bots' acts: a click where the button is (as
    # a player's), not Playwright's wait for the same element to stand still; the last
    # free seat, as the bots sit from seat 1 up (the first free one could be taken by a
    # bot as ann clicks it: then no dialog opened, seen in a run)
    page.wait_for_selector(f'.tile[data-table="{table}"] button.sit-here')
    x, y = page.evaluate(
        """(id) => {
          const free = document.querySelectorAll(`.tile[data-table="${id}"] button.sit-here`);
          const r = free[free.length - 1].getBoundingClientRect();
          return [r.x + r.width / 2, r.y + r.height / 2]; }""",
        table,
    )
    page.mouse.click(x, y)
    page.fill("#md-amount", str(TILE_BUY_IN))
    page.click("#md-ok")
    try:
        wait_tables(page, [table], "s.mySeat !== null")
    except PlaywrightTimeout:
        told = page.evaluate(
            "['#toast', '#md-title'].map((sel) => document.querySelector(sel).textContent)"
        )
        raise AssertionError(f"not seated at {table}: {told}") from None


class Acting:
    """Acts at the tables brought forward, and checks each: marked, its turn said with its
    name (since my last act there, once the live region is watched), its act sent alone."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.said_from: dict[str, int] = {}  # table -> where its turn's words may start

    def watch(self) -> None:
        """The spies on a new page: each act from here, each word said from here."""
        self.page.evaluate(SPY)
        self.said_from = {}

    def act(self, tables: list[str]) -> str:
        return act_at_forward(self.page, tables, self.said_from)


# what each tile shows (said when no table comes forward)
DUMP = """() => [...document.querySelectorAll('.tile')].map((t) => {
  const s = window.stud8tables[t.dataset.table].state;
  return [t.className, s.turn && s.turn.seat, s.mySeat, s.sentFor === s.turn,
          t.contains(document.activeElement)]; })"""


def wait_forward(page: Page) -> None:
    try:
        page.wait_for_function(FORWARD_READY, timeout=30_000)
    except PlaywrightTimeout:
        raise AssertionError(f"no table came forward: {page.evaluate(DUMP)}") from None


def act_at_forward(page: Page, tables: list[str], said_from: dict[str, int]) -> str:
    """Wait for a table to come forward, press its passive action's key, and check that
    the act went to that table only (and that its turn was said with its name)."""
    wait_forward(page)
    forward: str = page.evaluate("document.querySelector('.tile.my-turn.forward').dataset.table")
    tile = page.locator(f'.tile[data-table="{forward}"]')
    assert "your turn" in (tile.get_attribute("aria-label") or ""), tile.get_attribute("aria-label")
    assert tile.locator(".turn-mark").is_visible()
    # the others may wait for me too (marked), but none is forward
    assert page.locator(".tile.forward").count() == 1
    said: list[str] = page.evaluate("window.said")
    if forward in said_from:  # a turn that came after the watching started
        since = said[said_from[forward] :]
        assert any(line.startswith(f"Table {forward}: Your turn") for line in since), (
            forward,
            since,
        )
    keys = page.evaluate(
        '(id) => [...document.querySelectorAll(`.tile[data-table="${id}"] button.act`)]'
        ".filter((b) => !b.disabled).map((b) => b.dataset.key).filter(Boolean)",
        forward,
    )
    key = "c" if "c" in keys else "b"
    assert key in keys, keys
    before = len(page.evaluate("window.sentActs"))
    said_from[forward] = len(page.evaluate("window.said"))  # its next turn is said after
    page.keyboard.press(key)  # the key's handlers run before press() returns
    sent = page.evaluate("window.sentActs")[before:]
    acts = [s for s in sent if s[1] == "act"]
    assert len(acts) == 1 and acts[0][0] == forward, (forward, sent)
    assert acts[0][2] in ("check", "call", "bring_in"), acts
    assert forward in tables
    return forward


def assert_tiled(page: Page, tables: list[str], viewport: ViewportSize) -> None:
    """The tables side by side (two) or 2x2 (four), each in its tile, on the screen."""
    tiles = page.evaluate(TILES)
    assert [t["table"] for t in tiles] == tables
    for t in tiles:
        box = t["tile"]
        assert box["x"] >= 0 and box["right"] <= viewport["width"] + 0.5, t
        assert box["bottom"] <= viewport["height"] + 0.5, t  # nothing to scroll to
        for part in ("felt", "under"):  # the felt and the action bar inside the tile
            inner = t[part]
            assert inner["x"] >= box["x"] - 0.5 and inner["right"] <= box["right"] + 0.5, (part, t)
            assert inner["y"] >= box["y"] - 0.5 and inner["bottom"] <= box["bottom"] + 0.5, (
                part,
                t,
            )
        assert t["felt"]["width"] > 0.4 * box["width"], t  # the table scaled to its tile
        assert t["log"] == f"Dealer log, table {t['table']}"
    columns = sorted({round(t["tile"]["x"]) for t in tiles})
    rows = sorted({round(t["tile"]["y"]) for t in tiles})
    assert len(columns) == 2 and len(rows) == (1 if len(tables) == 2 else 2), (columns, rows)


def assert_stacked(page: Page, tables: list[str]) -> None:
    tiles = page.evaluate(TILES)
    assert [t["table"] for t in tiles] == tables
    for above, below in itertools.pairwise(tiles):
        assert round(above["tile"]["x"]) == round(below["tile"]["x"]), (above, below)
        assert below["tile"]["y"] >= above["tile"]["bottom"] - 0.5, (above, below)
    for t in tiles:
        assert t["zoom"] == "", t  # a phone's table at its own size
        assert t["tile"]["width"] >= PHONE["width"] - 20, t


def shoot(page: Page, name: str, tables: list[str]) -> None:
    """Screenshots at the three sizes (the page back at the laptop's after)."""
    for viewport in (LAPTOP, DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.wait_for_function("() => Object.values(window.stud8tables).every((p) => p.drawn())")
        if viewport is PHONE:
            assert_stacked(page, tables)
        else:
            assert_tiled(page, tables, viewport)
        screenshot(page, f"{name}-{viewport['width']}x{viewport['height']}")
    page.set_viewport_size(LAPTOP)


def test_two_tables_open_beside_each_deals_and_the_key_acts_where_the_turn_is(stage: Stage) -> None:
    players: Players = stage.start(start_room(SPEC, tables=2))
    ann = players.new("ann")
    sit(ann, TILE_BUY_IN)  # at t1, in its own page as ever
    ann.click("#to-lobby")
    ann.locator('button.beside[data-table="t2"]').click()  # t2 beside t1
    ann.wait_for_selector('.tile[data-table="t2"]')
    assert ann.evaluate("location.hash") == "#/tables/t1,t2"
    wait_tables(ann, ["t1"], "s.mySeat !== null")  # still seated at t1
    sit_in_tile(ann, "t2")
    acting = Acting(ann)
    acting.watch()
    wait_tables(ann, ["t1", "t2"], "s.hand !== null && s.log.length > 0")
    assert ann.evaluate(DUPLICATE_IDS) == []
    logs = ann.locator('[role="log"]')
    assert [logs.nth(i).get_attribute("aria-label") for i in range(2)] == [
        "Dealer log, table t1",
        "Dealer log, table t2",
    ]
    # each table its own: its seats, its hand, its log
    hands = [probe(ann, t, "s.hand.id") for t in ("t1", "t2")]
    assert hands[0] != hands[1]
    assert probe(ann, "t1", "s.tableId") == "t1" and probe(ann, "t2", "s.tableId") == "t2"

    acted = [acting.act(["t1", "t2"]) for _ in range(8)]
    assert set(acted) == {"t1", "t2"}, acted  # both tables came forward, each acted at alone

    # a key pressed with the focus at a table where nothing waits acts nowhere
    alone = f"""() => ({FORWARD_READY})() && !!document.querySelector('.tile:not(.my-turn)')
      && [document.querySelector('.tile:not(.my-turn)').dataset.table,
          document.querySelector('.tile.forward').dataset.table]"""
    found = None
    for _ in range(20):  # acting where it waits until one table waits and the other does not
        wait_forward(ann)
        found = ann.evaluate(alone)
        if found:
            break
        acting.act(["t1", "t2"])
    assert found
    other, forward = found
    ann.locator(f'.tile[data-table="{other}"] button.mute').focus()
    before = len(ann.evaluate("window.sentActs"))
    ann.keyboard.press("c")
    # nothing at the table forward (its turn came there meanwhile: an act there is right)
    sent = ann.evaluate("window.sentActs")[before:]
    assert [s for s in sent if s[1] == "act" and s[0] != other] == [], sent
    before = len(ann.evaluate("window.sentActs"))
    # the focus back at the table whose turn it is: the key acts there
    tile = f'.tile[data-table="{forward}"]'
    passive = f"{tile} button.act-call, {tile} button.act-check, {tile} button.act-bring_in"
    ann.locator(passive).first.focus()
    key = "b" if ann.locator(f'.tile[data-table="{forward}"] button.act-bring_in').count() else "c"
    ann.keyboard.press(key)
    acts = [s for s in ann.evaluate("window.sentActs")[before:] if s[1] == "act"]
    assert [a[0] for a in acts] == [forward], acts

    shoot(ann, "multi-2", ["t1", "t2"])
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors


def test_four_tables_deal_a_reload_restores_them_and_closing_one_keeps_the_others(
    stage: Stage,
) -> None:
    tables = ["t1", "t2", "t3", "t4"]
    players: Players = stage.start(start_room(SPEC, tables=4))
    ann = players.new("ann")
    ann.goto(players.room.url + "/#/tables/" + ",".join(tables))
    ann.wait_for_selector('.tile[data-table="t4"]')
    for table in tables:
        sit_in_tile(ann, table)
    acting = Acting(ann)
    acting.watch()
    wait_tables(ann, tables, "s.hand !== null && s.log.length > 0")
    assert ann.evaluate(DUPLICATE_IDS) == []
    assert_tiled(ann, tables, LAPTOP)
    acted = [acting.act(tables) for _ in range(8)]
    assert len(set(acted)) >= 2, acted

    # a reload while my decision waits at a table (its hand cannot go on without me):
    # the same four tables, each with its seat, its hand and its dealer's log
    ann.wait_for_function(FORWARD_READY, timeout=30_000)
    waiting = ann.evaluate("document.querySelector('.tile.forward').dataset.table")
    hand_before = probe(ann, waiting, f"[s.hand.id, {HAND_LINES}]")
    ann.reload()
    ann.wait_for_selector('.tile[data-table="t4"]')
    assert ann.evaluate("location.hash") == "#/tables/t1,t2,t3,t4"
    wait_tables(ann, tables, "s.mySeat !== null && s.hand !== null")
    ann.wait_for_function(LOGS_SHOWN, arg=tables, timeout=20_000)
    hand_after = probe(ann, waiting, f"[s.hand.id, {HAND_LINES}]")
    assert hand_after[0] == hand_before[0]
    assert hand_after[1][: len(hand_before[1])] == hand_before[1], (hand_before, hand_after)
    for t in ann.evaluate(TILES):
        assert t["log"] == f"Dealer log, table {t['table']}"
    acting.watch()
    acting.act(tables)

    shoot(ann, "multi-4", tables)

    # closing t2: the others play on, on the same connections
    ann.evaluate(
        "window.kept = Object.fromEntries("
        "Object.entries(window.stud8tables).map(([id, p]) => [id, p.socket]))"
    )
    seqs = {t: probe(ann, t, "s.seq") for t in ("t1", "t3", "t4")}
    ann.locator('.tile[data-table="t2"] button.close-tile').click()
    ann.wait_for_selector('.tile[data-table="t2"]', state="detached")
    assert ann.evaluate("location.hash") == "#/tables/t1,t3,t4"
    assert ann.locator(".tile").count() == 3 and ann.locator('.tile[data-table="t2"]').count() == 0
    same = ann.evaluate(
        "['t1', 't3', 't4'].every((id) => window.stud8tables[id].socket === window.kept[id])"
    )
    assert same
    assert ann.evaluate("window.kept.t2.closed") is True  # t2's connection closed with its tile
    for table, seq in seqs.items():
        ann.wait_for_function(
            f"() => window.stud8tables['{table}'].state.seq > {seq}", timeout=20_000
        )
    acting.act(["t1", "t3", "t4"])

    # a phone: one under the other; the table whose turn comes next is scrolled into sight
    ann.set_viewport_size(PHONE)
    assert_stacked(ann, ["t1", "t3", "t4"])
    acting.act(["t1", "t3", "t4"])
    ann.wait_for_function(FORWARD_READY, timeout=30_000)
    seen = ann.evaluate(
        """() => { const b = document.activeElement.getBoundingClientRect();
          return b.top >= 0 && b.bottom <= innerHeight; }"""
    )
    assert seen, "the focused action is off the screen"
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors
