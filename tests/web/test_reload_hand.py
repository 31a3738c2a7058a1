"""The hand survives a reload, and a hand has one number everywhere.

A player who reloads in the middle of a hand, and a player and an observer who reload
during its showdown, see the same table and the same dealer lines as before (the
snapshot's log: the hand's events as each got them live); the opponent's reloaded
snapshot carries no card of another that he could not see. The hand's number is the
same in the log, the history panel, the replayer's title and link, the downloaded text
and the REST API."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from stud8.server.table.spec import TableSpec

from .roomkit import (
    LAPTOP,
    PHONE,
    SHOWDOWN_SHOWN,
    Players,
    Stage,
    play,
    screenshot,
    sit,
    start_room,
    state,
    wait_state,
)
from .test_browser import SPLIT_DECK

# the lines of the hand on the table: from its "Hand #N starts" on
HAND_LINES = (
    "(() => { const i = s.log.map((l) => l.startsWith('Hand #')).lastIndexOf(true);"
    " return i < 0 ? [] : s.log.slice(i); })()"
)
TABLE = """() => { const s = window.stud8.state; const h = s.hand;
  return h && { id: h.id, street: h.street, pot: h.pot, seats: Object.fromEntries(
    Object.entries(h.seats).map(([n, x]) =>
      [n, [x.player, x.stack, x.bet, x.folded, x.up, x.down]])) }; }"""


def frames(page: Page) -> list[str]:
    """Every websocket text the page receives from now on."""
    got: list[str] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: got.append(str(payload)))

    page.on("websocket", on_socket)
    return got


def reload(page: Page) -> None:
    page.reload()
    page.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")


def observer(players: Players) -> Page:
    page = players.new("cat", PHONE)
    page.click('button.observe[data-table="t1"]')
    page.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")
    return page


def test_a_reload_mid_hand_and_during_the_showdown_shows_the_same_table_and_lines(
    stage: Stage,
) -> None:
    # a long pause between hands: the showdown stays on the table while they reload
    room = start_room(TableSpec(bots=0, between_hands=25.0), decks=[SPLIT_DECK])
    players = stage.start(room)
    ann = players.new("ann", LAPTOP)
    assert sit(ann) == 1
    bob = players.new("bob", PHONE)
    assert sit(bob) == 2
    cat = observer(players)
    pages = [ann, bob]
    play(pages, "s.hand && !s.hand.over && s.hand.street >= 5", timeout=60)
    wait_state(bob, "s.hand && s.hand.street >= 5")
    before = {p: (state(p, HAND_LINES), p.evaluate(TABLE)) for p in (ann, bob)}
    assert len(before[ann][0]) > 5, before[ann][0]
    ann_down = [c for c in before[ann][1]["seats"]["1"][5] if c]
    assert len(ann_down) == 2, before[ann][1]

    # mid-hand: ann (a laptop) and bob (a phone) reload
    seen_by_bob = frames(bob)
    for page in (ann, bob):
        reload(page)
        wait_state(page, "s.hand && !s.hand.over")
        assert state(page, HAND_LINES) == before[page][0]
        assert page.evaluate(TABLE) == before[page][1]
    # bob's reloaded snapshot carries ann's up cards, never her down cards
    snapshot = next(f for f in seen_by_bob if f.startswith('{"t":"snapshot"'))
    assert '"log":[' in snapshot and '"k":"hand_start"' in snapshot
    for card in ann_down:
        assert f'"{card}"' not in snapshot, (card, snapshot)
    assert state(bob, "s.hand.seats[1].down.every((c) => c === null)")
    screenshot(ann, "reload-mid-hand-laptop")
    screenshot(bob, "reload-mid-hand-phone")
    log = ann.locator("#log")
    assert log.get_attribute("role") == "log"
    assert log.get_attribute("aria-label") == "Dealer log, table t1"

    # the showdown: bob (a phone) and cat (an observer) reload while it shows
    play(pages, SHOWDOWN_SHOWN, timeout=90)
    wait_state(ann, SHOWDOWN_SHOWN + " && s.hand.announced && s.hand.told")
    lines = state(ann, HAND_LINES)
    table = ann.evaluate(TABLE)
    assert any(" shows " in line for line in lines), lines
    for page in (bob, cat):
        reload(page)
        wait_state(page, SHOWDOWN_SHOWN + " && s.hand.announced && s.hand.told", timeout=20_000)
        page.wait_for_selector(".results")
        assert state(page, HAND_LINES) == lines
        shown = page.evaluate(TABLE)
        # the same table, but the cards nobody showed (a folded hand) stay hidden
        assert shown["id"] == table["id"] and shown["pot"] == table["pot"]
        for seat, seen in shown["seats"].items():
            assert seen[:5] == table["seats"][seat][:5]
    screenshot(bob, "reload-showdown-phone")
    screenshot(cat, "reload-showdown-observer-phone")
    screenshot(ann, "showdown-not-reloaded-laptop")

    # one number: the log's, the history panel's, the replayer's, the text's, the API's
    number = table["id"]
    assert re.fullmatch(r"\d{18}", number), number
    assert lines[0] == f"Hand #{number} starts"
    ann.click("#history-panel summary")
    ann.wait_for_selector("#hist-list .hh")
    summary = ann.locator("#hist-list .hh summary").first.inner_text()
    assert summary.startswith(f"#{number}"), summary
    ann.click("#hist-list .hh summary")
    text = ann.locator("#hist-list .hh pre").first.inner_text()
    assert text.startswith(f"PokerStars Hand #{number}:"), text
    link = ann.locator("#hist-list .replay-link").first
    assert link.get_attribute("href") == f"#/replay/{number}"
    with ann.expect_download() as info:
        ann.click("#hist-download")
    saved = Path(info.value.path()).read_text()
    assert f"PokerStars Hand #{number}:" in saved
    token = ann.evaluate("localStorage.getItem('stud8.token')")
    listed = ann.evaluate(
        "async (t) => (await (await fetch('/api/v1/hands/list?table=t1&limit=5',"
        " { headers: t ? { Authorization: 'Bearer ' + t } : {} })).json())",
        token,
    )
    entry = next(h for h in listed["hands"] if h["number"] == number)
    assert entry["hand_id"] == number
    screenshot(ann, "history-one-number-laptop")
    with ann.context.expect_page() as opened:
        link.click()
    replay = players.console.watch(opened.value)
    players.opened.append(replay)
    replay.wait_for_function("() => window.stud8replay && window.stud8replay.steps > 0")
    assert replay.locator("#rp-title").inner_text().startswith(f"Hand #{number} ")
    assert replay.locator("#rp-link").input_value().endswith(f"#/replay/{number}")
    screenshot(replay, "replayer-one-number-laptop")
    assert not players.console.errors, players.console.errors
