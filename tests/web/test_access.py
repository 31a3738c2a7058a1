"""Issue 16, item 11 for the player's own screens: a hand played with the keyboard
alone (tab order, Enter and Space on buttons, the focus visible, the shortcuts
documented in titles), the screen reader's labels (every card, every seat, the
turn and the results in live regions), and the lobby and the table at phone sizes
(390x844, 360x740), all without a console error."""

from __future__ import annotations

import re

from playwright.sync_api import Page, ViewportSize, expect

from stud8.server.table.spec import TableSpec

from .roomkit import (
    HAND_OVER,
    LAPTOP,
    Stage,
    assert_apart,
    layout_boxes,
    screenshot,
    sit,
    start_room,
    state,
    wait_state,
)
from .roomkit import play as click_through

SMALL: ViewportSize = {"width": 360, "height": 740}
PHONE: ViewportSize = {"width": 390, "height": 844}
CARD = re.compile(
    r"^(A face-down card|(Ace|King|Queen|Jack|Ten|Nine|Eight|Seven|Six|Five|Four|Three|Two) of "
    r"(spades|hearts|diamonds|clubs), face (up|down \(down card, only you see it\)))$"
)
FOCUSED = "() => { const e = document.activeElement; return e ? e.outerHTML.slice(0, 90) : ''; }"


def tab_to(page: Page, selector: str, limit: int = 40) -> None:
    """Press Tab until the focus is on `selector` (the page's own tab order)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(sel) => document.activeElement.matches(sel)", selector):
            return
    raise AssertionError(f"Tab never reached {selector} (at {page.evaluate(FOCUSED)})")


def focus_shows(page: Page) -> bool:
    """The focused element has a visible focus ring."""
    return bool(
        page.evaluate(
            """() => { const s = getComputedStyle(document.activeElement);
              return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; }"""
        )
    )


def test_a_hand_with_the_keyboard_alone_and_the_screen_readers_labels(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0, between_hands=1.0, showdown_seconds=1.0)))
    bob = players.new("bob")
    sit(bob)
    # ann: registers, sits and plays with the keyboard only
    ann = players.open(LAPTOP)
    tab_to(ann, "#name")
    ann.keyboard.type("ann")
    ann.keyboard.press("Tab")
    ann.keyboard.type("secret-ann")
    tab_to(ann, "#register")
    assert focus_shows(ann)
    ann.keyboard.press("Enter")
    ann.wait_for_selector('tr[data-table="t1"]')
    tab_to(ann, 'input.buyin[data-table="t1"]')
    ann.keyboard.press("Control+A")
    ann.keyboard.type("120")
    ann.wait_for_timeout(5_500)  # the lobby's rows are drawn again: the focus stays
    assert ann.evaluate("document.activeElement.matches('input.buyin')"), ann.evaluate(FOCUSED)
    ann.keyboard.press("Tab")
    assert ann.evaluate("document.activeElement.matches('button.sit')"), ann.evaluate(FOCUSED)
    assert focus_shows(ann)
    ann.keyboard.press("Space")
    wait_state(ann, "s.mySeat !== null")
    seat = state(ann, "s.mySeat")

    turns = 0
    said: list[str] = []
    deadline = 120
    while not state(ann, HAND_OVER) and deadline:
        deadline -= 1
        if state(ann, "s.turn && s.turn.seat === s.mySeat && s.sentFor !== s.turn"):
            ann.wait_for_function(
                "() => window.stud8.drawn() && document.querySelector('button.act:not([disabled])')"
            )
            # her turn: the focus is on the passive action, visibly; the shortcuts are
            # documented in the bar's and the buttons' titles
            passive = "button.act-check, button.act-call, button.act-bring_in"
            assert ann.evaluate(f"document.activeElement.matches('{passive}')"), ann.evaluate(
                FOCUSED
            )
            assert focus_shows(ann)
            bar = ann.locator(".actions.your-turn")
            assert "Keys: F fold, C check or call" in (bar.get_attribute("title") or "")
            for b in ann.locator("button.act[data-key]").all():
                key = b.get_attribute("data-key") or ""
                assert b.get_attribute("aria-keyshortcuts") == key
                assert (b.get_attribute("title") or "").endswith(f"(key {key.upper()})")
            said.append(ann.locator("#announce").inner_text())
            kinds = state(ann, "s.turn.legal.map((a) => a.kind)")
            if turns % 3 == 0:
                ann.keyboard.press("Enter")  # the focused button
            elif turns % 3 == 1:
                ann.keyboard.press("c" if ("call" in kinds or "check" in kinds) else "b")
            else:  # Tab along the bar to the check or call, and Space
                target = "button.act-check, button.act-call, button.act-bring_in"
                if not ann.evaluate("(s) => document.activeElement.matches(s)", target):
                    tab_to(ann, target, limit=12)
                ann.keyboard.press("Space")
            turns += 1
            wait_state(ann, "!s.turn || s.turn.seat !== s.mySeat || s.sentFor === s.turn")
        bar_bob = bob.evaluate("() => !!document.querySelector('button.act:not([disabled])')")
        if bar_bob and state(bob, "s.turn && s.turn.seat === s.mySeat && s.sentFor !== s.turn"):
            kinds = state(bob, "s.turn.legal.map((a) => a.kind)")
            kind = next(k for k in ("check", "call", "bring_in") if k in kinds)
            bob.click(f"button.act-{kind}:not([disabled])")
        ann.wait_for_timeout(200)
    assert state(ann, HAND_OVER), "the hand did not end"
    assert turns >= 2 and all(s.startswith("Your turn: ") for s in said), said
    assert not any(line.startswith("ann folds") for line in state(ann, "s.log")), "never a fold"
    announce = ann.locator("#announce")
    assert announce.get_attribute("aria-live") == "polite"
    expect(announce).to_contain_text(re.compile(r"wins|shows"), timeout=10_000)

    # every card, seat and result says what it is
    labels = ann.evaluate(
        "() => [...document.querySelectorAll('.felt svg.card')]"
        ".map((c) => c.getAttribute('aria-label'))"
    )
    assert labels and all(CARD.match(label or "") for label in labels), labels
    seats = ann.evaluate(
        """() => [...document.querySelectorAll('.seat:not(.empty)')].map((s) =>
             [s.getAttribute('role'), s.getAttribute('aria-label')])"""
    )
    assert all(role == "group" and re.search(r", \d+ chips", label) for role, label in seats), seats
    mine = ann.locator(f'.seat[data-seat="{seat}"]').get_attribute("aria-label") or ""
    assert mine.startswith(f"ann (you), seat {seat}, ") and "big bets" in mine, mine
    if ann.locator(".results").count():
        assert ann.locator(".results").get_attribute("role") == "status"
    assert ann.locator("#banner").get_attribute("aria-live") == "assertive"
    screenshot(ann, "keyboard-hand")
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors


def test_the_lobby_and_the_table_at_phone_sizes(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0, between_hands=1.0, showdown_seconds=1.0)))
    ann, bob = players.new("ann", PHONE), players.new("bob", SMALL)
    for page, size in ((ann, PHONE), (bob, SMALL)):
        where = f"{size['width']}x{size['height']}"
        screenshot(page, f"phone-lobby-{where}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], (where, width)
        assert_apart(layout_boxes(page), size)
        # each row's buttons say which table they are for
        for b in page.locator('tr[data-table="t1"] button').all():
            assert (b.get_attribute("aria-label") or "").endswith("table t1"), b.inner_text()
    sit(ann), sit(bob)
    turn_seen = {"ann": False, "bob": False}

    def look(page: Page, kinds: list[str]) -> None:
        size = PHONE if page is ann else SMALL
        where = f"{size['width']}x{size['height']}"
        # nothing runs off the screen's width, nothing overlaps, the bar is in sight
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], where
        assert_apart(layout_boxes(page), size)
        for box in page.locator("button.act:not([disabled])").all():
            b = box.bounding_box()
            assert b is not None and b["y"] + b["height"] <= size["height"] + 0.5, (where, b)
        assert page.locator("#my-hand strong").inner_text()
        name = "ann" if page is ann else "bob"
        if not turn_seen[name]:
            turn_seen[name] = True
            screenshot(page, f"phone-turn-{where}")
        return None

    click_through([ann, bob], HAND_OVER, choose=lambda p, k: look(p, k), timeout=90)
    assert all(turn_seen.values()), turn_seen
    for page, size in ((ann, PHONE), (bob, SMALL)):
        where = f"{size['width']}x{size['height']}"
        wait_state(page, HAND_OVER)
        results = page.locator(".results")
        expect(results).to_be_visible(timeout=10_000)  # once every hand is turned over
        assert results.get_attribute("role") == "status"
        screenshot(page, f"phone-results-{where}")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], where
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors
