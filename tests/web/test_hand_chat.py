"""The chat of a past hand under it in the table's hand history panel (issue 16's
leftover), on demand: each line kept with the hand it fell in, read back with
``GET /api/v1/tables/{id}/chat?hand=ID``; a line said between hands or in another hand
is not shown; a hostile line is text. In Chromium against a real room, desktop and phone."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from stud8.server.table.spec import TableSpec

from .roomkit import HAND_OVER, PHONE, Stage, play, screenshot, sit, start_room, state, wait_state
from .test_chat import IMG, open_chat, say, wait_line


def entry_of(page: Page, hand_id: str) -> Locator:
    """The hand's entry in the panel (the button's selector is relative to it)."""
    button = page.locator(f'button.hh-chat-show[data-hand="{hand_id}"]')
    return page.locator("#hist-list details.hh").filter(has=button)


def hand_chat(page: Page, hand_id: str) -> list[str]:
    """Open the hand's entry in the panel and its chat: the lines shown."""
    entry = entry_of(page, hand_id)
    button = entry.locator("button.hh-chat-show")
    # its left end: a narrow summary has its Replay link in the middle
    entry.locator("summary").click(position={"x": 4, "y": 6})
    expect(entry).to_have_attribute("open", "")
    expect(button).to_have_text("Show this hand's chat")
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")
    return entry.locator(".hh-chat-lines li").all_text_contents()


def test_a_past_hand_shows_its_own_chat_on_demand(stage: Stage) -> None:
    spec = TableSpec(bots=0, between_hands=2.0, showdown_seconds=1.0)
    players = stage.start(start_room(spec))
    ann, bob = players.new("ann"), players.new("bob", PHONE)
    sit(ann)
    sit(bob)
    open_chat(ann)
    open_chat(bob)
    # the first hand: two lines in it, one hostile
    wait_state(ann, "s.hand && !s.hand.over", timeout=20_000)
    first = state(ann, "s.hand.id")
    say(ann, "good luck")
    say(bob, IMG)
    wait_line(ann, IMG)
    play([ann, bob], HAND_OVER, timeout=60)
    # between hands: kept with no hand
    wait_state(ann, "s.hand && s.hand.over")
    say(ann, "between hands")
    wait_line(bob, "between hands")
    # the second hand: its own line
    wait_state(ann, f"s.hand && s.hand.id !== '{first}' && !s.hand.over", timeout=20_000)
    second = state(ann, "s.hand.id")
    say(bob, "second hand line")
    wait_line(ann, "second hand line")
    play([ann, bob], HAND_OVER, timeout=60)
    wait_state(ann, "s.hand && s.hand.finished", timeout=20_000)

    ann.click("#history-panel summary")
    ann.wait_for_selector(f'#hist-list button.hh-chat-show[data-hand="{second}"]', state="attached")
    lines = hand_chat(ann, first)
    assert [re.sub(r"^\d\d:\d\d:\d\d ", "", text) for text in lines] == [
        "ann: good luck",
        f"bob: {IMG}",
    ], lines
    assert ann.evaluate("window.pwned === undefined && !document.querySelector('#hist-list img')")
    assert hand_chat(ann, second)[-1].endswith("bob: second hand line")
    screenshot(ann, "hand-chat-desktop")
    # hidden again on demand
    entry = entry_of(ann, first)
    entry.locator("button.hh-chat-show").click()
    expect(entry.locator("button.hh-chat-show")).to_have_text("Show this hand's chat")
    expect(entry.locator(".hh-chat-lines")).to_be_hidden()

    # on a phone: the same, through bob's panel
    bob.click("#history-panel summary")
    bob.wait_for_selector(f'#hist-list button.hh-chat-show[data-hand="{first}"]', state="attached")
    assert len(hand_chat(bob, first)) == 2
    entry_of(bob, first).locator(".hh-chat-lines").scroll_into_view_if_needed()
    screenshot(bob, "hand-chat-phone")
    assert players.console.errors == [], players.console.errors
