"""A seat and what is around it, in the browser: watching a table without sitting,
sitting out and coming back, topping up between hands only, leaving; the hand
history panel and the download of one's hands (the room on a database, as ``stud8
serve`` runs it); the waiting list of a full table, and the seat it offers when a
player who sat out too long is stood up."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from stud8.server.table.spec import TableSpec

from .roomkit import (
    BUY_IN,
    HAND_OVER,
    Stage,
    play,
    screenshot,
    sit,
    start_db_room,
    start_room,
    state,
    wait_state,
)


def folds(page: Page, kinds: list[str]) -> str | None:
    return "fold" if "fold" in kinds else None


def test_watch_sit_out_top_up_leave_and_the_hand_histories(stage: Stage, tmp_path: Path) -> None:
    players = stage.start(start_db_room(tmp_path, between_hands=1.0))
    ann, bob = players.new("ann"), players.new("bob")
    ann_seat, bob_seat = sit(ann), sit(bob)
    # carol watches: she sees the hand, nobody's down cards, and has no buttons
    carol = players.new("carol")
    carol.click('button.observe[data-table="t1"]')
    wait_state(carol, "s.hand && s.hand.street === 3")
    carol.wait_for_selector(".seat.to-act")
    assert carol.locator("svg.card.back").count() == 4
    assert carol.locator("svg.own-down").count() == 0
    assert carol.locator("#seat-controls .watching").inner_text() == "Watching"
    assert carol.locator("button.act, label.pre").count() == 0
    assert carol.locator("button.sit-here").count() == 6  # she may take an empty seat

    # during a hand: no top-up; ann asks to sit out from the next hand on
    wait_state(ann, "s.hand && s.hand.street === 3")
    top_up = ann.locator("#seat-controls button[data-cmd='top_up']")
    assert top_up.is_disabled() and top_up.get_attribute("title") == "between hands only"
    ann.click("#seat-controls button[data-cmd='sit_out']")
    ann.wait_for_selector("#seat-controls button[data-cmd='come_back']")
    first = state(ann, "s.hand.id")
    play([ann, bob], HAND_OVER, choose=folds)  # the hand ends at once: the bring-in wins
    # between hands (and no hand without ann): she tops up 100 through the dialog
    wait_state(ann, "s.hand.finished")
    ann.wait_for_selector("#seat-controls button[data-cmd='top_up']:not([disabled])")
    chips = state(ann, f"s.seats[{ann_seat}].chips")
    ann.click("#seat-controls button[data-cmd='top_up']")
    ann.wait_for_selector("#money-dialog[open]")
    assert ann.locator("#md-range").inner_text() == f"1 to {400 - chips} chips"
    ann.fill("#md-amount", "100")
    ann.click("#md-ok")
    wait_state(ann, f"s.seats[{ann_seat}].chips === {chips + 100}")
    expect(ann.locator(f'.seat[data-seat="{ann_seat}"] .stack')).to_have_text(str(chips + 100))
    assert state(ann, "s.hand.id") == first  # no hand was dealt while she sat out
    ann.click("#seat-controls button[data-cmd='come_back']")
    wait_state(ann, f"s.hand && s.hand.id !== '{first}'")

    # the hand histories of this table, readable, and all of mine as a .txt file
    ann.click("#history-panel summary")
    ann.wait_for_selector("#hist-list .hh")
    ann.click("#hist-list .hh summary")
    text = ann.locator("#hist-list .hh pre").first.inner_text()
    assert text.startswith("PokerStars Hand #") and "Table 't1' 8-max" in text, text
    assert f"Seat {ann_seat}: ann" in text and "*** 3rd STREET ***" in text
    assert ann.locator("#hist-list .hh summary").first.inner_text().startswith("#")
    screenshot(ann, "hand-histories")
    with ann.expect_download() as info:
        ann.click("#hist-download")
    download = info.value
    assert download.suggested_filename == "stud8-hands-ann.txt"
    saved = Path(download.path()).read_text()
    assert saved.startswith("PokerStars Hand #") and "Dealt to ann" in saved

    # ann leaves during the hand: she plays it out and goes; her chips go home
    ann.click("#seat-controls button[data-cmd='leave']")
    ann.wait_for_selector("#seat-controls .status:has-text('Leaving after this hand')")
    play([ann, bob], HAND_OVER, choose=folds)
    wait_state(ann, "s.mySeat === null")
    ann.wait_for_selector("#toast:has-text('chips went back to your account')")
    expect(ann.locator("#seat-controls .watching")).to_have_count(1)
    wait_state(bob, f"!s.seats[{ann_seat}] && !!s.seats[{bob_seat}]")
    # and sits down again from the table: an empty seat's Sit asks for the buy-in
    ann.click('.seat[data-seat="5"] button.sit-here')
    ann.wait_for_selector("#money-dialog[open]")
    assert ann.locator("#md-title").inner_text() == "Sit in seat 5"
    assert ann.locator("#md-range").inner_text() == "40 to 400 chips"
    ann.fill("#md-amount", "150")
    ann.click("#md-ok")
    wait_state(ann, "s.mySeat === 5 && s.seats[5].chips === 150")
    assert players.room.audit()
    assert players.console.errors == []


def test_the_waiting_list_of_a_full_table(stage: Stage) -> None:
    """Two seats, no hand dealt during the test (a long pause between hands); a player
    sat out for a second is stood up."""
    spec = TableSpec(bots=0, seats=2, between_hands=60, offer_seconds=20, sit_out_seconds=1)
    players = stage.start(start_room(spec))
    ann, bob = players.new("ann"), players.new("bob")
    sit(ann), sit(bob)
    carol = players.new("carol")
    carol.wait_for_selector('tr[data-table="t1"] button.wait')  # full: no Sit, a list
    carol.click('tr[data-table="t1"] button.wait')
    carol.wait_for_selector("#seat-controls .wait-place")
    assert carol.locator(".wait-place").inner_text() == "You are 1st on the waiting list"
    dave = players.new("dave")
    dave.wait_for_selector('tr[data-table="t1"] td.waiting:text-is("1")')  # one waiting
    dave.click('button.observe[data-table="t1"]')
    dave.click("#seat-controls button[data-cmd='join_waitlist']")
    dave.wait_for_selector("#seat-controls .wait-place:has-text('2nd')")
    wait_state(carol, "s.waiting.join() === 'carol,dave'")

    # bob sits out, and after a second he is stood up: his chips go home, and his seat
    # is held for carol, who is asked; dave sees it held
    bob.click("#seat-controls button[data-cmd='sit_out']")
    bob.wait_for_selector("#toast:has-text('You sat out too long and were stood up')")
    assert "200 chips went back to your account" in bob.locator("#toast").inner_text()
    wait_state(
        ann,
        "s.log.includes('bob sat out too long and is stood up (200 chips back to the account)')",
    )
    carol.wait_for_selector("#offer .offer")
    prompt = carol.locator("#offer .offer-text").inner_text()
    assert prompt.startswith("Seat 2 is yours for ") and prompt.endswith(" s:"), prompt
    assert 15 <= int(carol.locator(".offer-secs").inner_text()) <= 20
    dave.wait_for_selector('.seat[data-seat="2"]:has-text("held for carol")')
    assert dave.locator("#offer .offer").count() == 0
    screenshot(carol, "waiting-list-offer")
    carol.fill("#offer .offer-buyin", str(BUY_IN))
    carol.click("#offer .offer-sit")
    wait_state(carol, "s.mySeat === 2")
    carol.wait_for_selector("#offer .offer", state="detached")
    dave.wait_for_selector("#seat-controls .wait-place:has-text('1st')")
    # dave leaves the list
    dave.click("#seat-controls button[data-cmd='leave_waitlist']")
    wait_state(ann, "s.waiting.length === 0")
    assert players.room.audit()
    assert players.console.errors == []
