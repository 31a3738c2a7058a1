"""The table's layout with a full table: 8 seats, seven cards each (three down, four
up), at the common screen sizes. No card leaves the felt, no up card's rank and suit
is covered by anything, no two seats overlap, and the player's own down cards are
marked as such (not only by a tint). A screenshot of each size goes to
artifacts/screenshots/ (layout-WIDTHxHEIGHT.png)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize

from stud8.server.table.spec import TableSpec

from .roomkit import Stage, overlaps, screenshot, sit, start_room, wait_state

SIZES: tuple[ViewportSize, ...] = (
    {"width": 1920, "height": 1080},
    {"width": 1366, "height": 768},
    {"width": 1024, "height": 768},
    {"width": 390, "height": 844},
    {"width": 360, "height": 740},
)
NAMES = ("ann", "maximilian_longname", "bo", "christabel_x", "dmitri", "eve_the_great", "f", "gus")
# seat -> (down cards, up cards); ann (seat 1) sees her own down cards
CARDS = {
    1: ("Ah Td 2c", "Ks Qh Jd 9c"),
    2: ("- - -", "Th 9s 8d 7c"),
    3: ("- - -", "6h 5s 4d 3c"),
    4: ("- - -", "2h As Kd Qc"),
    5: ("- - -", "Jh Ts 9d 8h"),
    6: ("- - -", "7h 6s 5d 4h"),
    7: ("- - -", "3h 2s Ad Kh"),
    8: ("- - -", "Qs Js Tc 8s"),
}

FULL_TABLE = """([data, showdown]) => {
  const s = window.stud8.state;
  s.seats = {};
  const hand = {id: 'layout', street: 7, pot: 960, to_act: 5, bring_in_seat: 3, community: null,
    seats: {}, awards: [], rake: 0, showdown: [], revealed: 0, over: false, finished: false,
    cancelled: false};
  for (const [seat, name, down, up] of data) {
    s.seats[seat] = {seat, player: name, chips: 12345, bot: seat % 3 === 0, sitting_out: false,
      connected: seat !== 6, in_hand: true, leaving: false};
    hand.seats[seat] = {stack: 12345, bet: seat % 2 ? 120 : 0, contributed: 120, folded: false,
      all_in: seat === 7, up, down, shown: null, low: null, showIndex: -1, muck: false,
      timedOut: null};
  }
  if (showdown) {  // every seat shows its seven cards; the results are up
    hand.over = hand.finished = true;
    hand.to_act = null;
    for (const [seat, , , up, shown] of data) {
      const hs = hand.seats[seat];
      hs.shown = shown;
      hs.low = seat % 2 ? 'low' : null;
      hs.bet = 0;
      hs.showIndex = hand.showdown.length;
      hand.showdown.push({kind: 'show', seat});
    }
    hand.revealed = hand.showdown.length;
    hand.awards = [{k: 'award', pot: 0, seat: 3, amount: 480, half: 'high'},
                   {k: 'award', pot: 0, seat: 6, amount: 480, half: 'low'}];
  }
  s.hand = hand;
  s.mySeat = 1;
  s.turn = null;
  s.timer = showdown ? null : {seat: 5, phase: 'action', endsAt: Date.now() + 60000, seconds: 60};
  window.stud8.redraw();
}"""

# Every card's corners inside the felt's rounded shape; each face card's index
# (rank and suit, its top left) on top where it is drawn (nothing covers it).
MEASURE = """() => {
  const felt = document.querySelector('.felt');
  const f = felt.getBoundingClientRect();
  const cs = getComputedStyle(felt);
  const radius = (v) => {
    const parts = v.split(' ');
    const one = (p, size) => p.endsWith('%') ? parseFloat(p) / 100 * size : parseFloat(p);
    return [one(parts[0], f.width), one(parts[1] || parts[0], f.height)];
  };
  const [rx, ry] = radius(cs.borderTopLeftRadius);
  const inside = (x, y) => {
    if (x < f.left - 0.5 || x > f.right + 0.5) return false;
    if (y < f.top - 0.5 || y > f.bottom + 0.5) return false;
    const cx = x < f.left + rx ? f.left + rx : x > f.right - rx ? f.right - rx : x;
    const cy = y < f.top + ry ? f.top + ry : y > f.bottom - ry ? f.bottom - ry : y;
    if (cx === x || cy === y) return true;
    return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.02;
  };
  const out = [], covered = [], marks = [];
  for (const card of document.querySelectorAll('.felt svg.card')) {
    card.scrollIntoView({block: 'center', inline: 'center'});
    const r = card.getBoundingClientRect();
    const label = card.getAttribute('aria-label');
    const corners = [[r.left, r.top], [r.right, r.top], [r.left, r.bottom], [r.right, r.bottom]];
    const felt2 = felt.getBoundingClientRect();
    const dx = felt2.left - f.left, dy = felt2.top - f.top;
    if (!corners.every(([x, y]) => inside(x - dx, y - dy))) out.push(label);
    if (card.classList.contains('face')) {
      for (const fx of [0.1, 0.25, 0.38]) for (const fy of [0.08, 0.25, 0.45]) {
        const el = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
        if (!el || !card.contains(el)) {
          const by = el ? (el.className.baseVal ?? el.className) : 'nothing';
          covered.push(`${label} at ${fx},${fy} by ${by}`);
        }
      }
    }
    if (card.classList.contains('own-down')) {
      const mark = card.querySelector('.down-mark');
      marks.push(!!mark && mark.getBoundingClientRect().height > 0);
    }
  }
  const seats = [...document.querySelectorAll('.felt .seat')].map((el) => {
    const r = el.getBoundingClientRect();
    return {seat: el.dataset.seat, x: r.x, y: r.y, width: r.width, height: r.height};
  });
  return {out, covered, marks, seats, cards: document.querySelectorAll('.felt svg.card').length};
}"""


@pytest.fixture
def full_table(stage: Stage) -> Page:
    players = stage.start(start_room(TableSpec(bots=0)))
    ann = players.new("ann")
    sit(ann)
    wait_state(ann, "s.seq !== null && s.rules !== null")
    return ann


# the showdown: each seat's down cards as it shows them (seat -> three cards)
SHOWN_DOWN = {
    1: "Ah Td 2c",
    2: "3s 4s 5c",
    3: "6c 7d 8c",
    4: "9h 9d Tc",
    5: "Js Qd Kc",
    6: "Ac 2d 3d",
    7: "4c 5h 6d",
    8: "7s 8d 9s",
}


@pytest.mark.parametrize("showdown", [False, True], ids=["in-play", "showdown"])
def test_eight_seats_of_seven_cards_fit_the_felt_at_every_common_size(
    full_table: Page, showdown: bool
) -> None:
    """In play (three down cards, four up, a bet, the clock) and at a showdown
    (seven cards face up at every seat, the hands named, the winners marked)."""
    ann = full_table
    data = []
    for seat, (down, up) in CARDS.items():
        downs = [None if c == "-" else c for c in down.split()]
        shown = SHOWN_DOWN[seat].split()[:2] + up.split() + SHOWN_DOWN[seat].split()[2:]
        data.append([seat, NAMES[seat - 1], downs, up.split(), shown])
    problems: list[str] = []
    for size in SIZES:
        ann.set_viewport_size(size)
        ann.evaluate(FULL_TABLE, [data, showdown])
        wait_state(ann, "s.hand && s.hand.id === 'layout'")
        ann.wait_for_timeout(150)  # the viewport's new layout settled
        found: dict[str, Any] = ann.evaluate(MEASURE)
        where = f"{size['width']}x{size['height']}"
        screenshot(ann, f"layout-{where}{'-showdown' if showdown else ''}")
        assert found["cards"] == 56, found
        problems += [f"{where}: {label} leaves the felt" for label in found["out"]]
        problems += [f"{where}: {what} is covered" for what in found["covered"]]
        if not showdown and found["marks"] != [True, True, True]:
            problems.append(f"{where}: own down cards not marked: {found['marks']}")
        seats = found["seats"]
        for i, a in enumerate(seats):
            for b in seats[i + 1 :]:
                if overlaps(a, b):
                    problems.append(f"{where}: seats {a['seat']} and {b['seat']} overlap")
    assert not problems, "\n".join(problems)
