"""Private notes and colour tags on players (issue 28, item 6), in Chromium against a
real room: set from an opponent's seat, shown on it, still there after a reload, at
1366x768 and 390x844; the opponent never sees them; hostile text is shown as text."""

from __future__ import annotations

import pytest
from playwright.sync_api import ViewportSize, expect

from stud8.server.table.spec import TableSpec

from .roomkit import LAPTOP, PHONE, Stage, screenshot, sit, start_room, wait_state

SPEC = TableSpec(bots=0)


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_note_and_a_tag_on_an_opponents_seat(stage: Stage, size: ViewportSize) -> None:
    players = stage.start(start_room(SPEC))
    ann, bob = players.new("ann", size), players.new("bob", size)
    sit(ann, 150)
    sit(bob, 150)
    wait_state(ann, "Object.values(s.seats).length === 2")
    tag = ann.locator('.note-tag[data-player="bob"]')
    tag.click()
    ann.check('#note-dialog input[value="purple"]')
    ann.fill("#nd-text", "<b>limps</b> any ace")
    ann.click("#nd-save")
    expect(tag).to_have_class("note-tag note-purple has-note")
    expect(tag).to_have_attribute("title", "<b>limps</b> any ace")  # text, not markup
    ann.reload()
    ann.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")
    expect(tag).to_have_class("note-tag note-purple has-note")
    expect(tag).to_have_attribute("title", "<b>limps</b> any ace")
    screenshot(ann, f"note-{size['width']}")
    # bob sees no tag on himself, and ann's note is no part of his page
    expect(bob.locator('.note-tag[data-player="bob"]')).to_have_count(0)
    assert "limps" not in bob.content()
    assert players.console.errors == [], players.console.errors
