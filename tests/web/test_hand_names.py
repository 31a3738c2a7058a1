"""The hand on the table keeps its players' names, in the browser: a player who leaves
the table at a hand's end (stood up, or busted out of a tournament) while its hands
are still being turned over keeps his name on his seat's plate and in the dealer's
lines ("bob shows ...", "bob wins ..."), never "Seat 2"; and the line saying he left
comes after the showdown and results of the hand he played, not before them. The
same for a viewer who reloaded the page during that hand (his snapshot names the
hand's players). The tournament's case is checked at the end of the sit-and-go in
test_tournaments.py (:func:`assert_last_hand_names`)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page

from stud8.server.table.spec import TableSpec

from .roomkit import (
    LAPTOP,
    PHONE,
    SHOWDOWN_SHOWN,
    Stage,
    play,
    screenshot,
    sit,
    start_room,
    wait_state,
)
from .test_browser import SPLIT_DECK, bets_on_seventh

# the hand on the table as the page shows it: each of its seats' player (as the hand
# has it) and the name on that seat's plate; the dealer's lines since the hand began
HAND_SHOWN = """() => {
  const s = window.stud8.state;
  const seats = Object.entries(s.hand.seats).map(([seat, hs]) => {
    const plate = document.querySelector(`.seat[data-seat="${seat}"] .plate .name`);
    return { seat: Number(seat), player: hs.player, label: plate ? plate.textContent : null };
  });
  // (a page loaded during the hand has its lines from then on)
  const start = Math.max(0, s.log.map((l) => l.startsWith('Hand #')).lastIndexOf(true));
  const drawn = [...document.querySelectorAll('#log li')].map((li) => li.textContent);
  const lines = drawn.slice(drawn.length - (s.log.length - start));
  return { hand: s.hand.id, seats, log: s.log.slice(start), lines };
}"""

# Each bust-out as the page showed it when its line was drawn: the hand on the table
# then (HAND_SHOWN), and who went out (window.__busts).
RECORD_BUSTS = (
    """() => {
  const shown = """
    + HAND_SHOWN
    + """;
  window.__busts = [];
  new MutationObserver(() => {
    const s = window.stud8 && window.stud8.state;
    if (!s || !s.hand) return;
    for (const line of s.log) {
      const out = line.match(/^(.+) is out of the tournament$/);
      if (!out || window.__busts.some((b) => b.name === out[1])) continue;
      // within: said while his hand was on the table (a page too slow to turn the
      // hands over before the next deal says it as that deal clears the table)
      const seen = shown();
      window.__busts.push({ name: out[1], within: seen.log.includes(line), ...seen });
    }
  }).observe(document.querySelector('#log'), { childList: true, subtree: true });
}"""
)

# the hand's lines all said (its hands turned over, its results), and drawn
TOLD = SHOWDOWN_SHOWN + " && s.hand.announced"


def first_index(lines: list[str], start: str) -> int:
    found = [i for i, line in enumerate(lines) if line.startswith(start)]
    assert found, (start, lines)
    return found[0]


def check_hand_names(shown: dict[str, Any], gone: str) -> list[str]:
    """The hand ``shown`` (HAND_SHOWN) names each of its players on his plate (``gone``
    too, who left at its end), no line says "seat N", and the line saying ``gone`` left
    comes after his show (or muck) and after the results; the hand's lines."""
    assert shown["lines"] == shown["log"], shown  # the dealer panel shows the log as it is
    labels = [seat["label"] for seat in shown["seats"]]
    assert gone in labels and not [x for x in labels if re.fullmatch(r"Seat \d+", x or "")], shown
    assert [seat["player"] for seat in shown["seats"]] == labels, shown  # the hand's players
    lines: list[str] = shown["log"]
    # (a seat the client cannot name is "seat N": the way the bug showed)
    assert not [line for line in lines if line.startswith("seat ")], lines
    showdown = (f"{gone} shows", f"{gone} mucks")
    shows = [i for i, line in enumerate(lines) if line.startswith(showdown)]
    results = [i for i, line in enumerate(lines) if " wins " in line]
    gone_lines = (f"{gone} is out of the tournament", f"{gone} leaves")
    left = [i for i, line in enumerate(lines) if line.startswith(gone_lines)]
    assert shows and results and len(left) == 1, lines
    assert max(shows + results) < left[0], lines
    return lines


def assert_last_hand_names(page: Page, gone: str) -> list[str]:
    """:func:`check_hand_names` of the hand on ``page`` once it has said all it says."""
    wait_state(page, TOLD)
    return check_hand_names(page.evaluate(HAND_SHOWN), gone)


def busts_shown(page: Page, names: set[str]) -> list[dict[str, Any]]:
    """What the page showed at each bust-out since :data:`RECORD_BUSTS`, once it has
    said each of ``names`` out (after the showdown of the hand that busted him)."""
    page.wait_for_function(
        "(names) => names.every((n) => window.__busts.some((b) => b.name === n))",
        arg=sorted(names),
    )
    busts: list[dict[str, Any]] = page.evaluate("window.__busts")
    return busts


def test_a_player_who_leaves_at_the_hand_s_end_keeps_his_name_on_it(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0, between_hands=0.5), decks=[SPLIT_DECK]))
    ann = players.new("ann", viewport=LAPTOP)
    assert sit(ann) == 1
    bob = players.new("bob", viewport=PHONE)
    assert sit(bob) == 2
    # carol watches; she reloads the page during the hand (a snapshot names its players)
    carol = players.new("carol", viewport=LAPTOP)
    carol.click('button.observe[data-table="t1"]')
    wait_state(carol, "s.hand && s.hand.street === 3")
    carol.reload()
    wait_state(carol, "s.hand && s.hand.street >= 3 && s.seq !== null")
    # bob leaves during the hand: he plays it to the showdown and is stood up at its end,
    # while the hands are turned over (he bets on 7th: he shows first, ann 0.65 s later)
    bob.click("#seat-controls button[data-cmd='leave']")
    bob.wait_for_selector("#seat-controls .status:has-text('Leaving after this hand')")
    play([ann, bob], SHOWDOWN_SHOWN, choose=bets_on_seventh, timeout=90)
    for page in (ann, bob, carol):
        wait_state(page, "!s.seats[2]")  # he has left the table
        lines = assert_last_hand_names(page, "bob")
        # bob bet last: he shows first
        assert first_index(lines, "bob shows") < first_index(lines, "ann shows"), lines
        assert first_index(lines, "bob wins 11 for low") < len(lines) - 1, lines
        assert lines[-1] == "bob leaves with 200", lines  # his 11 in, the low half back
        # his seat still shows his seven cards, his plate his name (not "Seat 2")
        assert page.locator('.seat[data-seat="2"] .cards.shown svg.card').count() == 7
        assert page.locator('.seat[data-seat="2"] .plate .name').inner_text() == "bob"
        results = page.locator(".results").inner_text()
        assert "bob, 7-5-4-3-2 low: 11" in results, results
    screenshot(ann, "left-at-hand-end-desktop")
    screenshot(bob, "left-at-hand-end-phone")
    screenshot(carol, "left-at-hand-end-reloaded")
    # carol reloads again now: the table's snapshot has no hand once it is finished, so
    # no cards are drawn without a name (a seat with cards names its player)
    carol.reload()
    wait_state(carol, "s.seq !== null && !s.seats[2]")
    named = carol.evaluate(
        "() => [...document.querySelectorAll('.seat')].filter((el) => el.querySelector('.cards'))"
        ".map((el) => el.querySelector('.plate .name').textContent)"
    )
    assert not [n for n in named if re.fullmatch(r"Seat \d+", n)], named
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors


def test_the_store_keeps_the_hand_s_names_and_says_the_seating_after_it(stage: Stage) -> None:
    """store.js as the page loads it: a bust-out and a new player sitting in the seat
    during the showdown; the hand's lines name its player, the seating lines wait for
    the hand to be told and keep their order; a top-up names the seat's player; the
    next hand names the new one."""
    players = stage.start(start_room(TableSpec(bots=0)))
    page = players.open()
    said = page.evaluate(
        """async () => {
          const st = await import('/store.js');
          const { tableHTML } = await import('/render.js');
          const s = st.emptyTable('t');
          let v = 0;
          const ev = (d) => st.applyEvent(s, d, ++v);
          // seat 3 as the table draws it: the name on its plate, its badges, its cards
          const seat3 = () => {
            const box = document.createElement('div');
            box.innerHTML = tableHTML(s, {});
            const el = box.querySelector('.seat[data-seat="3"]');
            const name = el.querySelector('.plate .name');
            return { name: name ? name.textContent : el.textContent.trim(),
                     badges: [...el.querySelectorAll('.badge')].map((b) => b.textContent),
                     cards: el.querySelectorAll('svg.card').length };
          };
          ev({ k: 'sit', seat: 1, player: 'ann', chips: 300, bot: false });
          ev({ k: 'sit', seat: 3, player: 'bot2', chips: 50, bot: true });
          ev({ k: 'hand_start', hand_id: 'h1', stacks: [[1, 300], [3, 50]] });
          ev({ k: 'ante', seat: 1, amount: 50 });
          ev({ k: 'ante', seat: 3, amount: 50, all_in: true });
          ev({ k: 'show', seat: 3, cards: 'Th Tc 2d 3s 9h 4c Jd', low: null });
          ev({ k: 'show', seat: 1, cards: 'As Ad 2c 3d 9s 4h Jc', low: null });
          ev({ k: 'award', seat: 1, pot: 0, half: 'whole', amount: 100 });
          ev({ k: 'end', stacks: [[1, 350], [3, 0]] });
          ev({ k: 'hand_finish', hand_id: 'h1', cancelled: false });
          s.hand.revealed = 1;  // the page has turned bot2's hand over, not ann's yet
          ev({ k: 'leave', seat: 3, player: 'bot2', chips: 0, reason: 'busted' });
          const busted = seat3();
          ev({ k: 'sit', seat: 3, player: 'cat', chips: 200, bot: false });
          ev({ k: 'top_up', seat: 3, amount: 100, chips: 300 });
          const during = { log: [...s.log], who: st.who(s, 3), telling: st.handTelling(s),
                           seat: seat3() };
          s.hand.revealed = 2;  // the page turned both hands over and said the results
          const shownDown = seat3();
          st.handTold(s);
          const told = { log: [...s.log], telling: st.handTelling(s) };
          ev({ k: 'hand_start', hand_id: 'h2', stacks: [[1, 350], [3, 300]] });
          return { busted, during, shownDown, told, next: st.who(s, 3),
                   last: s.log[s.log.length - 1] };
        }"""
    )
    during, told = said["during"], said["told"]
    # out of the tournament, bot2 keeps his seat's plate, badges and cards on the table
    assert said["busted"] == {"name": "bot2", "badges": ["bot", "all in"], "cards": 7}
    # cat sits there during the showdown: the plate stays the hand's until it is over
    assert during["who"] == "bot2" and during["telling"], during
    assert during["seat"] == said["busted"], during
    # then the seat is cat's, without the cards of the hand she did not play
    assert said["shownDown"] == {"name": "cat", "badges": [], "cards": 0}
    assert not any("bot2 is out" in line or "cat" in line for line in during["log"]), during
    assert told["log"][len(during["log"]) :] == [
        "bot2 is out of the tournament",
        "cat sits in seat 3 with 200",
        "cat tops up 100 to 300",
    ], told
    assert not told["telling"]
    assert said["next"] == "cat" and said["last"] == "Hand #h2 starts"
    assert players.console.errors == []
