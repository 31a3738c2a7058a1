"""The browser client (src/stud8/web) in Debian's Chromium against a real room server
on 127.0.0.1: two players register, sit and play a hand to showdown through the
buttons, and the hands are turned over one at a time in the engine's show order with
their names and the halves they win; a reload mid-hand resumes at the same seat and
moment; a dropped connection comes back by itself; at phone and laptop size nothing
overlaps; no console errors. Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, ViewportSize

from stud8.server.table.spec import TableSpec

from .roomkit import (
    BUY_IN,
    HAND_OVER,
    LAPTOP,
    PHONE,
    SHOWDOWN_SHOWN,
    Stage,
    assert_apart,
    layout_boxes,
    play,
    screenshot,
    sit,
    start_room,
    state,
    wait_state,
    wait_turn,
)

# ann (seat 1): Ah Kh / 9h / 2h 5h Jc / Qd: a flush, ace high, and no low.
# bob (seat 2): 7c 5d / 4s / 3c 2d Ks / Kd: a pair of kings, and 7-5-4-3-2 low.
SPLIT_DECK = "Ah 7c Kh 5d 9h 4s 2h 3c 5h 2d Jc Ks Qd Kd"

RECORD_REVEALS = """() => {
  window.__reveals = [];
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('.seat .cards.shown')) {
      const seat = Number(el.closest('.seat').dataset.seat);
      if (window.__reveals.some((r) => r.seat === seat)) continue;
      window.__reveals.push({seat, t: performance.now()});
    }
  }).observe(document.body, {subtree: true, childList: true});
}"""


def bets_on_seventh(page: Page, kinds: list[str]) -> str | None:
    """bob bets on 7th street, so that he shows first (he made the last bet)."""
    street = state(page, "s.hand.street")
    return "bet" if street == 7 and "bet" in kinds and state(page, "s.player") == "bob" else None


def test_two_players_play_a_hand_to_showdown_through_the_buttons(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0, between_hands=3), decks=[SPLIT_DECK]))
    ann = players.new("ann")
    assert sit(ann) == 1
    bob = players.new("bob")
    row = bob.locator('tr[data-table="t1"]').inner_text()
    assert "Stud Hi/Lo Limit" in row and "4/8" in row and "1/8" in row and "ann" in row
    screenshot(bob, "lobby")
    assert sit(bob) == 2
    # the hand starts: each sees his own down cards face up, the other's as backs
    ann.wait_for_selector(".seat.to-act", timeout=15_000)
    mine = ann.locator('.seat[data-seat="1"] svg.card.own-down')
    assert mine.count() == 2 and ann.locator('.seat[data-seat="2"] svg.card.back').count() == 2
    label = mine.first.get_attribute("aria-label") or ""
    assert label.endswith(", face down (down card, only you see it)"), label
    assert ann.locator(".badge.bring-in").count() == 1  # bob's 4s is the low card
    # fixed limit: plain buttons with their amounts, no slider
    bob.wait_for_selector("button.act-bring_in")
    labels = bob.locator("button.act .label").all_inner_texts()
    assert labels == ["Bring in 2", "Complete to 4"], labels
    assert bob.locator(".sizer").count() == 0

    seen: list[str] = []
    play([ann, bob], "s.hand && s.hand.street >= 5", seen)
    clock = ann.locator(".seat.to-act .clock .secs")
    clock.wait_for()
    assert 1 <= int(clock.inner_text().rstrip("s")) <= 10  # the action clock runs down
    screenshot(ann, "hand-in-progress")

    play([ann, bob], "s.hand && s.hand.street === 7", seen, choose=bets_on_seventh)
    ann.evaluate(RECORD_REVEALS)
    play([ann, bob], HAND_OVER, seen, choose=bets_on_seventh)
    assert "Bet 8" in seen and "Call 8" in seen and "Check" in seen, seen
    for page in (ann, bob):
        wait_state(page, SHOWDOWN_SHOWN)
        page.wait_for_selector(".results")
    # turned over one at a time, in the engine's show order: bob bet last, he shows first
    reveals: list[dict[str, Any]] = ann.evaluate("window.__reveals")
    assert [r["seat"] for r in reveals] == [2, 1], reveals
    assert reveals[1]["t"] - reveals[0]["t"] >= 400, reveals
    for page in (ann, bob):
        # the winning high and low hands, named and marked
        assert (
            page.locator('.seat[data-seat="1"] .hand-name .hi.win')
            .inner_text()
            .startswith("Flush, ace high")
        )
        assert (
            page.locator('.seat[data-seat="2"] .hand-name .lo.win')
            .inner_text()
            .startswith("7-5-4-3-2 low")
        )
        assert page.locator('.seat[data-seat="2"] .hand-name .hi').inner_text() == "A pair of kings"
        assert page.locator(".hand-name .win").count() == 2
        # each half of the pot paid plainly: antes 2, bring-in and call 4, bet and call 16
        pot = page.locator('.results .pot-result[data-pot="0"]')
        assert pot.locator(".pot-head").inner_text() == "Main pot 22"
        assert pot.locator(".half-high").inner_text() == "High ann, Flush, ace high: 11"
        assert pot.locator(".half-low").inner_text() == "Low bob, 7-5-4-3-2 low: 11"
        assert page.locator(".no-low").count() == 0
        stacks = [int(t) for t in page.locator(".plate .stack").all_inner_texts()]
        assert sum(stacks) == 2 * BUY_IN
        assert page.locator(".seat.winner").count() == 2
    # the log says it in sentences: the hands' names read mid-sentence (the seats'
    # labels above keep their capitals)
    log = ann.locator("#log").inner_text()
    assert log.index("bob shows") < log.index("ann shows")
    assert "bob shows a pair of kings; 7-5-4-3-2 low" in log, log
    assert "ann shows a flush, ace high; no low" in log, log
    said = ann.evaluate(
        """async () => {
          const { handInSentence } = await import('/words.js');
          return ['Royal flush', 'Straight flush, nine high', 'Four of a kind, kings',
            'Full house, kings full of twos', 'Straight, six high', 'Three of a kind, jacks',
            'Two pair, aces and jacks', 'High card, ace', '9-6-4-3-A'].map(handInSentence);
        }"""
    )
    assert said == [
        "a royal flush",
        "a straight flush, nine high",
        "four of a kind, kings",
        "a full house, kings full of twos",
        "a straight, six high",
        "three of a kind, jacks",
        "two pair, aces and jacks",
        "ace high",
        "9-6-4-3-A",
    ]
    screenshot(ann, "showdown")
    # the four-colour deck: diamonds turn blue, clubs green
    ann.check("#four-colour")
    ann.wait_for_selector('svg.card text[fill="#1760c4"], svg.card text[fill="#17803a"]')
    ann.uncheck("#four-colour")
    assert players.room.audit()
    assert players.console.errors == []


def hand_picture(page: Page) -> Any:
    """What the player sees of the hand: the seat, street, pot, cards and who acts."""
    return state(
        page,
        "{seat: s.mySeat, hand: s.hand.id, street: s.hand.street, pot: s.hand.pot,"
        " to_act: s.hand.to_act, cards: Object.entries(s.hand.seats).map(([n, x]) =>"
        " [Number(n), x.stack, x.bet, x.up.join(' '), x.down.map(c => c || '?').join(' ')])}",
    )


def test_a_reload_mid_hand_resumes_at_the_same_seat_and_moment(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0, between_hands=1.5)))
    ann = players.new("ann")
    bob = players.new("bob")
    ann_seat, _ = sit(ann), sit(bob)
    # (the turn message may come a moment before the event that names the player to act)
    play(
        [ann, bob],
        "s.hand && s.hand.street === 4 && s.turn !== null && s.hand.to_act === s.mySeat",
    )
    before = hand_picture(ann)
    assert before["to_act"] == ann_seat
    ann.reload()
    ann.wait_for_function("() => window.stud8 && window.stud8.state.hand !== null")
    ann.wait_for_selector("button.act")  # his turn again, with his buttons
    assert hand_picture(ann) == before
    assert ann.locator(f'.seat[data-seat="{ann_seat}"] svg.card.own-down').count() == 2
    # the keyboard: c checks
    assert ann.locator('button.act[data-key="c"] .label').inner_text() == "Check"
    ann.keyboard.press("c")
    ann.wait_for_function("() => window.stud8.state.log.some(l => l === 'ann checks')")
    before = hand_picture(ann)

    # a dropped connection: the banner says so, and it comes back by itself
    ann.evaluate("window.stud8.socket.drop()")
    banner = ann.locator("#banner")
    banner.wait_for(state="visible")
    assert "reconnect" in banner.inner_text().lower()
    banner.wait_for(state="hidden")
    assert hand_picture(ann) == before
    play([ann, bob], HAND_OVER)
    ann.wait_for_selector(".results")
    assert players.room.audit()
    assert players.console.errors == []


def check_layout(page: Page, viewport: ViewportSize, parts: tuple[str, ...]) -> None:
    """Nothing overlaps, and the parts named are all on the screen."""
    boxes = layout_boxes(page)
    found = " ".join(str(b["what"]) for b in boxes)
    for part in parts:
        assert part in found, (part, found)
    assert_apart(boxes, viewport)


def test_nothing_overlaps_at_phone_and_laptop_size(stage: Stage) -> None:
    """ann on a phone, bob on a laptop, at a pot-limit table (the biggest action bar:
    the slider, the box and three presets)."""
    room = start_room(TableSpec(bots=0, between_hands=2.5, structure="pot_limit"))
    players = stage.start(room)
    ann = players.new("ann", viewport=PHONE)
    bob = players.new("bob", viewport=LAPTOP)
    screenshot(ann, "phone-lobby")
    sit(ann), sit(bob)
    # the bring-in's turn (3rd street), then the other's turn facing it: both bars
    for turn in range(2):
        to_act = wait_turn([ann, bob])
        waiting = bob if to_act is ann else ann
        to_act.wait_for_selector("button.act")
        waiting.wait_for_selector("label.pre")
        for page, size in ((ann, PHONE), (bob, LAPTOP)):
            # the turn's clock is drawn when its timer reaches the page, which under
            # load can be a moment after the buttons
            page.wait_for_selector(".seat.to-act .clock")
            mine = ("act-",) if page is to_act else ("pre",)
            check_layout(page, size, ("seat", "pot", "clock", *mine))
        if turn == 1:  # facing the bring-in: complete 4 to 8, with the slider
            assert to_act.locator(".sizer .slider").count() == 1
            check_layout(to_act, PHONE if to_act is ann else LAPTOP, ("slider", "amount", "preset"))
            screenshot(ann, "phone-table")
            screenshot(bob, "laptop-table")
        to_act.click("button.act-call, button.act-bring_in")
    # at the showdown, seven cards a seat and the results still fit
    play([ann, bob], SHOWDOWN_SHOWN)
    for page, size in ((ann, PHONE), (bob, LAPTOP)):
        page.wait_for_selector(".results")
        check_layout(page, size, ("results", "seat"))
        assert page.locator(".seat").count() == 8
        for row in page.locator(".seat .cards").all():
            box = row.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    screenshot(ann, "phone-showdown")
    assert room.audit()
    assert players.console.errors == []
