"""The showdown stays on the screen: on a laptop and on a phone, once the hands are
turned over (in show order) the results (the winning high and low named, each pot's
halves) stay readable at least 4 seconds, and the next hand is not dealt before
(the server's pause between hands covers it: the table's showdown_seconds)."""

from __future__ import annotations

import time
from typing import Any

from stud8.server.table.spec import TableSpec

from .roomkit import LAPTOP, PHONE, SHOWDOWN_SHOWN, Stage, play, screenshot, sit, start_room
from .test_browser import SPLIT_DECK, bets_on_seventh

# For each hand: when its results first and last showed (the page's clock, ms), when
# its hands were turned over (seat, ms), and when the next hand's cards replaced it.
RECORD = """() => {
  window.__shown = {};
  const tick = () => {
    const s = window.stud8 && window.stud8.state;
    const h = s && s.hand;
    if (h) {
      const r = window.__shown[h.id]
        || (window.__shown[h.id] = {first: null, last: null, reveals: []});
      const now = performance.now();
      const results = document.querySelector('.results');
      if (results && results.offsetParent !== null && results.textContent.trim()) {
        if (r.first === null) r.first = now;
        r.last = now;
      }
      for (const el of document.querySelectorAll('.seat .cards.shown')) {
        const seat = Number(el.closest('.seat').dataset.seat);
        if (!r.reveals.some((x) => x.seat === seat)) r.reveals.push({seat, t: now});
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def test_the_showdown_stays_at_least_four_seconds_and_the_next_deal_waits(stage: Stage) -> None:
    room = start_room(TableSpec(bots=0, between_hands=0.5), decks=[SPLIT_DECK])
    players = stage.start(room)
    ann = players.new("ann", viewport=LAPTOP)
    assert sit(ann) == 1
    bob = players.new("bob", viewport=PHONE)
    assert sit(bob) == 2
    rules = ann.evaluate("window.stud8.state.rules")
    assert rules["showdown_seconds"] == 5 and rules["reveal_seconds"] == 0.65
    for page in (ann, bob):
        page.evaluate(RECORD)
    ann.wait_for_function("() => window.stud8.state.hand !== null")
    first = ann.evaluate("window.stud8.state.hand.id")
    play([ann, bob], SHOWDOWN_SHOWN, choose=bets_on_seventh, timeout=90)
    for page in (ann, bob):
        page.wait_for_selector(".results")
    # while the results show: the winners named, each half of the pot paid
    checked = time.monotonic()
    for page, where in ((ann, "laptop"), (bob, "phone")):
        results = page.locator(".results").inner_text()
        assert "Main pot 22" in results, results
        assert "High" in results and "ann, Flush, ace high: 11" in results, results
        assert "Low" in results and "bob, 7-5-4-3-2 low: 11" in results, results
        screenshot(page, f"showdown-{where}")
    assert ann.locator(".hand-name .win").count() == 2  # marked at the seats, on a laptop
    assert time.monotonic() - checked < 3.5, "too slow to check the results in time"
    # the next hand comes, and the results were on the screen at least 4 s before it
    for page in (ann, bob):
        page.wait_for_function(
            f"() => window.stud8.state.hand && window.stud8.state.hand.id !== '{first}'",
            timeout=20_000,
        )
        shown: dict[str, Any] = page.evaluate("window.__shown")[first]
        assert shown["first"] is not None, shown
        assert shown["last"] - shown["first"] >= 4000, shown
        # turned over one at a time in show order (bob bet last: he shows first)
        reveals = shown["reveals"]
        assert [r["seat"] for r in reveals] == [2, 1], reveals
        assert reveals[1]["t"] - reveals[0]["t"] >= 500, reveals
        assert shown["first"] >= reveals[-1]["t"], shown
    assert players.room.audit()
    assert players.console.errors == []
