"""The auto top-up in the browser (issue 28, item 7): a seated player ticks "Auto
top-up" in the seat controls; it is kept with his account (GET /api/v1/settings says
so) and the table hears it: after a hand he lost he is topped up to the buy-in he
chose, the dealer's log saying "ann adds N chips (auto top-up to 200)" and his stack
back at 200; unticked, it is off again. At 1366x768 and 390x844, against a real room
on 127.0.0.1, in Debian's Chromium, with no console errors."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from stud8.server.table.spec import TableSpec

from .roomkit import (
    LAPTOP,
    PHONE,
    Stage,
    assert_apart,
    layout_boxes,
    play,
    screenshot,
    sit,
    start_room,
    state,
    wait_state,
)

KEPT = """async (on) => {
  const r = await fetch('/api/v1/settings',
    {headers: {Authorization: 'Bearer ' + localStorage.getItem('stud8.token')}});
  return (await r.json()).auto_top_up === on; }"""


def test_auto_top_up_ticked_at_the_table_tops_up_after_a_lost_hand(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0)))
    ann = players.new("ann")
    bob = players.new("bob", viewport=PHONE)
    assert sit(ann, 200) == 1
    box = ann.get_by_role("checkbox", name="Auto top-up")
    expect(box).not_to_be_checked()
    box.check()
    ann.wait_for_function(KEPT, arg=True)
    assert sit(bob, 200) == 2
    expect(bob.get_by_role("checkbox", name="Auto top-up")).not_to_be_checked()
    screenshot(bob, "auto-top-up-phone")
    assert_apart(layout_boxes(bob), PHONE)

    def ann_folds(page: Page, kinds: list[str]) -> str | None:
        return "fold" if page is ann and "fold" in kinds else None

    play([ann, bob], "s.log.some((l) => l.startsWith('ann adds '))", choose=ann_folds)
    line = next(x for x in state(ann, "s.log") if x.startswith("ann adds "))
    assert re.fullmatch(r"ann adds \d+ chips? \(auto top-up to 200\)", line), line
    wait_state(ann, "s.seats[1].chips === 200")
    wait_state(bob, "s.log.some((l) => l.startsWith('ann adds '))")  # everyone is told
    screenshot(ann, "auto-top-up-laptop")
    assert_apart(layout_boxes(ann), LAPTOP)
    # a reload keeps it ticked (the account's), and unticking turns it off
    ann.reload()
    box = ann.get_by_role("checkbox", name="Auto top-up")
    expect(box).to_be_checked()
    box.uncheck()
    ann.wait_for_function(KEPT, arg=False)
    # what a short or empty bank is said as (the player is told in his notice too)
    said = ann.evaluate(
        """async () => {
          const { applyEvent, emptyTable } = await import('/store.js');
          const s = emptyTable('t1');
          s.player = 'ann'; s.mySeat = 1; s.seats = { 1: { seat: 1, player: 'ann', chips: 40 } };
          applyEvent(s, { k: 'top_up', seat: 1, amount: 30, chips: 70, auto: true, short: 130 }, 1);
          const partial = [s.log.at(-1), s.notice && s.notice.text];
          applyEvent(s, { k: 'top_up', seat: 1, amount: 0, chips: 70, auto: true, short: 130 }, 2);
          applyEvent(s, { k: 'top_up', seat: 1, amount: 50, chips: 120, auto: false, short: 0 }, 3);
          return [...partial, ...s.log.slice(-2)];
        }"""
    )
    assert said == [
        "ann adds 30 chips (auto top-up to 70; the bank held only 30, 130 short)",
        "ann adds 30 chips (auto top-up to 70; the bank held only 30, 130 short)",
        "Auto top-up for ann: the bank is empty, no chips added (130 short)",
        "ann tops up 50 to 120",
    ], said
    assert players.room.audit()
    assert players.console.errors == []
