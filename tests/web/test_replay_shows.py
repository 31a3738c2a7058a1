"""The replayer shows another site's voluntary show (the winner of an uncontested pot
shows his cards) as its last step: the seat's hidden down cards turn over there, not
before; back a step and they are hidden again. A real PokerStars Home Game hand,
dropped on the replayer, in Chromium against a real room."""

from __future__ import annotations

from playwright.sync_api import expect

from server.http.test_replay_shows import SHOWN, one_hand

from .roomkit import LAPTOP, PHONE, Stage, screenshot
from .test_replayer import drop_file, start, wait_step

FACE_DOWN_JS = (
    "(seat) => window.stud8replay.state.hand.seats[seat].down.filter((c) => c === null).length"
)


def test_another_site_s_voluntary_show_turns_the_cards_over_at_its_step(stage: Stage) -> None:
    players = start(stage)
    page = players.new("ann", LAPTOP)
    page.goto(players.room.url + "/#/replay")
    page.wait_for_selector("#rp-drop")
    drop_file(page, "#rp-drop", "home.txt", one_hand(SHOWN))
    page.wait_for_function("() => window.stud8replay && window.stud8replay.steps > 0")
    steps = page.evaluate("window.stud8replay.steps")
    page.keyboard.press("End")
    wait_step(page, steps)
    # the last step is the show: Player0 (seat 1) turns his down cards over
    expect(page.locator("#rp-step")).to_contain_text(
        "Player0 shows [Ad Ah 3d 2d 5s] (not called: a voluntary show)"
    )
    assert page.evaluate(FACE_DOWN_JS, 1) == 0
    assert page.evaluate("window.stud8replay.state.hand.seats[1].down") == ["Ad", "Ah"]
    seat = page.locator('#rp-table .seat[data-seat="1"]')
    for card in ("ace of diamonds", "ace of hearts"):  # shown to all: not "only you see it"
        expect(seat.locator(f'svg.card[aria-label*="{card}, face up" i]')).to_have_count(1)
    expect(seat.locator("svg.card.own-down")).to_have_count(0)
    expect(page.locator("#rp-log li").last).to_contain_text("Player0 shows [Ad Ah 3d 2d 5s]")
    screenshot(page, "replayer-voluntary-show")
    # a step back: the pot is won, the cards are not shown yet
    page.keyboard.press("ArrowLeft")
    wait_step(page, steps - 1)
    assert page.evaluate(FACE_DOWN_JS, 1) == 2
    expect(seat.locator('svg.card[aria-label*="ace of hearts" i]')).to_have_count(0)
    # on a phone too
    page.set_viewport_size(PHONE)
    page.keyboard.press("End")
    wait_step(page, steps)
    assert page.evaluate(FACE_DOWN_JS, 1) == 0
    screenshot(page, "replayer-voluntary-show-phone")
    assert players.console.errors == [], players.console.errors
