"""The table's looks and feel (issue 28, item 10), in Chromium against a real room: the
showdown's hand names leave every card's rank and suit in sight; the DOWN tag of a
player's own down card is whole; on a big screen the cards and seats grow with the
felt; a hand history file's real money reads as its site prints it ($0.12) and its
table stays above the fold on a laptop; the tournament strip says a shared place as
"tied for 1st"; the table has a sound for the deal, a check, a bet, a fold and a win
(WebAudio, muted by a switch the account keeps), and chips that move to the pot and
to the winner, none of it moving under prefers-reduced-motion."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from stud8.server.table.spec import TableSpec

from .roomkit import (
    HAND_OVER,
    LAPTOP,
    PHONE,
    Players,
    Stage,
    play,
    screenshot,
    sit,
    start_room,
    state,
    wait_state,
)
from .test_layout import CARDS, FULL_TABLE, NAMES, SHOWN_DOWN
from .test_replayer import STARS, start

BIG: ViewportSize = {"width": 1920, "height": 1080}
SMALL_PHONE: ViewportSize = {"width": 360, "height": 740}
SIZES = (LAPTOP, BIG, PHONE, SMALL_PHONE)


def where(size: ViewportSize) -> str:
    return f"{size['width']}x{size['height']}"


def full_table_data() -> list[list[Any]]:
    data = []
    for seat, (down, up) in CARDS.items():
        downs = [None if c == "-" else c for c in down.split()]
        shown = SHOWN_DOWN[seat].split()[:2] + up.split() + SHOWN_DOWN[seat].split()[2:]
        data.append([seat, NAMES[seat - 1], downs, up.split(), shown])
    return data


def full_table(stage: Stage) -> Page:
    players = stage.start(start_room(TableSpec(bots=0)))
    ann = players.new("ann")
    sit(ann)
    wait_state(ann, "s.seq !== null && s.rules !== null")
    return ann


def draw_full_table(page: Page, size: ViewportSize, showdown: bool) -> None:
    page.set_viewport_size(size)
    page.evaluate(FULL_TABLE, [full_table_data(), showdown])
    wait_state(page, "s.hand && s.hand.id === 'layout'")
    page.wait_for_timeout(150)  # the viewport's new layout settled


# each shown card's index (its rank and its suit: the top left, 45% wide and 52% high)
# against the hand name of its seat, which may lie over the bottom quarter of a card only
NAME_OVER_INDEX = """() => {
  const hits = [];
  for (const seat of document.querySelectorAll('.felt .seat')) {
    const label = seat.querySelector('.hand-name');
    if (!label || label.offsetParent === null) continue;
    const l = label.getBoundingClientRect();
    for (const card of seat.querySelectorAll('.cards.shown svg.card')) {
      const c = card.getBoundingClientRect();
      const name = card.getAttribute('aria-label');
      const across = l.left < c.right && l.right > c.left;
      if (l.left < c.left + 0.45 * c.width && across && l.top < c.top + 0.52 * c.height
          && l.bottom > c.top)
        hits.push(`${name}'s index under "${label.textContent}"`);
      // and no more than the card's bottom quarter under it (its big suit stays in sight)
      if (across && l.top < c.top + 0.75 * c.height && l.bottom > c.top)
        hits.push(`${name} covered from ${((l.top - c.top) / c.height).toFixed(2)}`);
    }
  }
  return {hits, labels: document.querySelectorAll('.felt .hand-name').length};
}"""


def test_the_showdown_s_hand_names_leave_every_card_s_rank_and_suit_in_sight(
    stage: Stage,
) -> None:
    ann = full_table(stage)
    for size in (LAPTOP, BIG):
        draw_full_table(ann, size, showdown=True)
        found = ann.evaluate(NAME_OVER_INDEX)
        screenshot(ann, f"looks-showdown-{where(size)}")
        assert found["labels"] == 8, found
        assert found["hits"] == [], found["hits"]


# the DOWN tag's text: inside its card's left half (the next card covers the right
# half), and on top where it is drawn along its whole width
DOWN_TAG = """() => [...document.querySelectorAll('.felt svg.card.own-down')].map((card) => {
  card.scrollIntoView({block: 'center'});
  const c = card.getBoundingClientRect();
  const t = card.querySelector('.down-tag').getBoundingClientRect();
  const y = t.top + t.height / 2;
  const seen = [0.05, 0.25, 0.5, 0.75, 0.95].map((f) => {
    const el = document.elementFromPoint(t.left + f * t.width, y);
    return !!el && card.contains(el);
  });
  return {text: card.querySelector('.down-tag').textContent,
          inHalf: t.left >= c.left && t.right <= c.left + c.width / 2 + 0.5, seen, width: t.width};
})"""


def test_the_down_tag_of_my_down_cards_is_whole_at_every_size(stage: Stage) -> None:
    ann = full_table(stage)
    for size in SIZES:
        draw_full_table(ann, size, showdown=False)
        tags = ann.evaluate(DOWN_TAG)
        screenshot(ann, f"looks-down-tags-{where(size)}")
        assert len(tags) == 3, tags
        for tag in tags:
            assert tag["text"] == "DOWN" and tag["inHalf"], (where(size), tag)
            assert all(tag["seen"]), (where(size), tag)  # no card over any part of it


SIZES_JS = """() => {
  const card = document.querySelector('.felt svg.card').getBoundingClientRect();
  const name = getComputedStyle(document.querySelector('.felt .plate .name')).fontSize;
  const felt = document.querySelector('.felt').getBoundingClientRect();
  return {card: card.width, name: parseFloat(name), feltBottom: felt.bottom + scrollY,
          feltWidth: felt.width};
}"""


def test_the_cards_and_seats_grow_with_a_big_screen(stage: Stage) -> None:
    ann = full_table(stage)
    seen = {}
    for size in SIZES:
        draw_full_table(ann, size, showdown=False)
        seen[where(size)] = ann.evaluate(SIZES_JS)
    big, laptop = seen["1920x1080"], seen["1366x768"]
    # 1920x1080: cards of 60px and more (52 before), names in 18px type (13.6 before)
    assert big["card"] >= 60 and big["name"] >= 18, seen
    assert big["card"] >= 1.4 * laptop["card"] * 0.95, seen  # grown with the felt
    assert big["feltBottom"] <= 1080, seen  # the felt still whole on the screen
    assert 38 <= laptop["card"] <= 46 and 13 <= laptop["name"] <= 14.5, seen  # a laptop as it was
    for phone in ("390x844", "360x740"):
        assert 24 <= seen[phone]["card"] <= 32 and seen[phone]["name"] <= 12, seen


def test_a_cents_file_replays_in_dollars_with_its_table_above_the_fold(stage: Stage) -> None:
    players = start(stage)
    page = players.new("ann", LAPTOP)
    page.goto(players.room.url + "/#/replay")
    page.set_input_files("#rp-file", str(STARS))
    page.wait_for_selector("button.rp-hand")
    page.wait_for_function("() => window.stud8replay && window.stud8replay.replay")
    page.evaluate("window.scrollTo(0, 0)")
    top = page.evaluate(
        "() => { const r = document.querySelector('#rp-table .felt').getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, bar: document.querySelector('.rp-bar')"
        ".getBoundingClientRect().bottom}; }"
    )
    assert 0 <= top["top"] <= 120 and top["bottom"] <= LAPTOP["height"], top
    assert top["bar"] <= LAPTOP["height"], top  # the controls too
    title = page.text_content("#rp-title") or ""
    assert "$0.04/$0.08 USD" in title and "cents" not in title, title
    page.keyboard.press("End")
    page.wait_for_function("() => window.stud8replay.at === window.stud8replay.steps")
    screenshot(page, "looks-replayer-cents-1366x768")
    page.set_viewport_size(BIG)
    screenshot(page, "looks-replayer-cents-1920x1080")
    page.set_viewport_size(LAPTOP)
    # the first hand: rdiezchang bets $0.08 on 6th street, gets it back, wins $0.12
    assert page.locator("#rp-table .pot").inner_text() == "Pot $0.12"
    stacks = page.locator("#rp-table .plate .stack").all_inner_texts()
    assert stacks and all(s.startswith("$") and "." in s for s in stacks), stacks
    assert "$1.25" in stacks, stacks  # 1.16 - 0.03 + 0.12
    log = page.locator("#rp-log").inner_text()
    for line in (
        "rdiezchang bets $0.08",
        "The uncalled $0.08 goes back to rdiezchang",
        "rdiezchang wins $0.12",
    ):
        assert line in log, log
    assert "Antes: 4 × $0.01" in log, log
    results = page.locator("#rp-results").inner_text()
    assert "Main pot $0.12" in results and "rdiezchang: $0.12" in results, results
    assert players.console.errors == []


STRIP = """(places) => { const s = window.stud8.state; s.tournament = {tournament_id: 1,
  name: 'Sunday SNG', table_number: 3, phase: 'running', level: 1, ante: 5, bring_in: 10,
  small_bet: 20, big_bet: 40, next_ante: 10, next_bring_in: 15, next_small_bet: 30,
  next_big_bet: 60, seconds_left: 300, on_break: false, players_left: 6, entries: 6,
  average_stack: 1500, prize_pool: 600, places, results: [], result_prizes: [], notice: null,
  receivedAt: Date.now()}; window.stud8.redraw(); }"""


def test_the_tournament_strip_says_a_shared_place_as_a_tie(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0)))
    ann = players.new("ann")
    sit(ann)
    bob = players.new("bob")
    sit(bob)
    wait_state(ann, "s.seq !== null && Object.keys(s.seats).length === 2")
    # every stack equal: the room places everybody 1st (tournaments/info.py)
    ann.evaluate(STRIP, [[1, 1], [2, 1]])
    wait_state(ann, "s.tournament")
    expect(ann.locator("#tournament .t-place")).to_have_text("Your place tied for 1st")
    strip = ann.locator("#tournament").inner_text()
    assert "Sunday SNG" in strip and "table" not in strip, strip  # the header names the table
    screenshot(ann, "looks-tournament-tied")
    ann.evaluate(STRIP, [[1, 6], [2, 5]])
    expect(ann.locator("#tournament .t-place")).to_have_text("Your place 6th")
    assert ann.title().endswith("Sunday SNG · table 3 · stud8"), ann.title()
    assert players.console.errors == []


# ------------------------------------------------------------------ sounds and chips

# A recording AudioContext: every node made and every sound started (no audio device
# needed, and what the page asked for is what is counted).
FAKE_AUDIO = """(() => {
  const record = window.__audio = {contexts: 0, closed: 0, started: 0, nodes: []};
  const param = () => ({value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {},
                        linearRampToValueAtTime() {}});
  class Node {
    constructor(kind) {
      this.kind = kind; this.gain = param(); this.frequency = param(); record.nodes.push(kind);
    }
    connect(to) { return to; }
    start() { record.started += 1; }
    stop() {}
  }
  class FakeAudioContext {
    constructor() { record.contexts += 1; this.state = 'running'; this.sampleRate = 8000;
                    this.destination = new Node('destination'); }
    get currentTime() { return performance.now() / 1000; }
    createOscillator() { return new Node('oscillator'); }
    createGain() { return new Node('gain'); }
    createBiquadFilter() { return new Node('filter'); }
    createBufferSource() { return new Node('noise'); }
    createBuffer(channels, length) {
      const data = new Float32Array(length); return {getChannelData: () => data};
    }
    resume() { return Promise.resolve(); }
    close() { record.closed += 1; return Promise.resolve(); }
  }
  window.AudioContext = FakeAudioContext;
})()"""

# What moves on the page, sampled every frame: the chips flying and every animation
# running (a CSS animation or transition).
WATCH_MOTION = """() => {
  window.__motion = {chips: 0, running: 0, names: []};
  const tick = () => {
    const m = window.__motion;
    m.chips = Math.max(m.chips, document.querySelectorAll('.chip-fly').length);
    for (const a of document.getAnimations()) {
      if (a.playState !== 'running') continue;
      m.running += 1;
      const name = a.animationName || a.transitionProperty || 'animation';
      if (!m.names.includes(name)) m.names.push(name);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def player(players: Players, name: str, *, reduced: bool = False, existing: bool = False) -> Page:
    """A player in a browser of his own with the recording AudioContext (and, if
    `reduced`, prefers-reduced-motion: reduce), at the lobby."""
    context = players.browser.new_context(
        viewport=LAPTOP, reduced_motion="reduce" if reduced else "no-preference"
    )
    context.add_init_script(script=FAKE_AUDIO)
    page = players.console.watch(context.new_page())
    players.opened.append(page)
    page.set_default_timeout(10_000)
    page.goto(players.room.url + "/")
    page.fill("#name", name)
    page.fill("#password", "secret-" + name)
    page.click("#login" if existing else "#register")
    page.wait_for_selector('tr[data-table="t1"]')
    return page


def check_then_fold_to_bob(page: Page, kinds: list[str]) -> str | None:
    """4th street checked through; on 5th bob bets and ann folds to his bet."""
    if state(page, "s.hand.street") < 5:
        return None
    if state(page, "s.player") == "bob":
        return "bet" if "bet" in kinds else None
    return "fold" if "call" in kinds else None


def play_the_hand(pages: list[Page]) -> None:
    for page in pages:
        page.evaluate(WATCH_MOTION)
    wait_state(pages[0], "s.hand && !s.hand.over", timeout=20_000)
    play(pages, HAND_OVER + " && s.hand.awards.length", choose=check_then_fold_to_bob, timeout=90)
    for page in pages:  # its results up, the pot paid (and its chips landed)
        wait_state(page, "s.hand.over && window.stud8.chips.paid === s.hand.id")
        page.wait_for_timeout(1_200)


def test_the_table_sounds_the_deal_check_bet_fold_and_win_and_its_chips_move(
    stage: Stage,
) -> None:
    players = stage.start(start_room(TableSpec(bots=0, between_hands=4)))
    ann = player(players, "ann")
    assert sit(ann) == 1
    bob = player(players, "bob")
    assert sit(bob) == 2
    play_the_hand([ann, bob])
    for page in (ann, bob):
        heard: list[str] = page.evaluate("window.stud8.sound.heard")
        for kind in ("deal", "check", "chips", "fold", "win"):
            assert kind in heard, (kind, heard)
        assert heard.count("deal") >= 3 and heard[-1] == "win", heard  # 3rd to 5th street
        audio = page.evaluate("window.__audio")
        assert audio["contexts"] == 1 and audio["started"] >= len(heard), audio
        assert {"oscillator", "noise"} <= set(audio["nodes"]), audio
        motion = page.evaluate("window.__motion")
        # 3rd street's bring-in and call went to the pot (4th was checked, bob's bet on
        # 5th went back to him uncalled), then the pot to bob; the antes may have flown too
        moves: list[str] = page.evaluate("window.stud8.chips.moves")
        assert [m for m in moves if not m.startswith("0:")] == ["3:1", "3:2", "won:2"], moves
        assert motion["chips"] >= 1 and "chip-fly" in motion["names"], motion
    screenshot(bob, "looks-sounds-hand-over")
    # ---- bob mutes the table: the account keeps it, another browser of his starts muted
    bob.click("#mute")
    expect(bob.locator("#mute")).to_have_attribute("aria-pressed", "true")
    bob.wait_for_function(
        """async () => { const r = await fetch('/api/v1/settings', {headers: {Authorization:
             'Bearer ' + localStorage.getItem('stud8.token')}});
             return !(await r.json()).sounds; }"""
    )
    again = player(players, "bob", existing=True)
    again.goto(players.room.url + "/#/table/t1")
    wait_state(again, "s.seq !== null && s.mySeat === 2")
    expect(again.locator("#mute")).to_have_attribute("aria-pressed", "true")
    heard_before = ann.evaluate("window.stud8.sound.heard.length")
    # the next hand: ann hears its deal, bob's muted browser nothing
    wait_state(ann, "s.hand && !s.hand.over && s.hand.street >= 3", timeout=40_000)
    ann.wait_for_function(f"() => window.stud8.sound.heard.length > {heard_before}")
    wait_state(again, "s.hand && !s.hand.over && s.hand.street >= 3")
    again.wait_for_timeout(300)
    assert again.evaluate("window.stud8.sound.heard") == []
    assert again.evaluate("window.__audio.started") == 0
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors


def test_nothing_moves_under_prefers_reduced_motion(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0, between_hands=4)))
    ann = player(players, "ann", reduced=True)
    assert sit(ann) == 1
    bob = player(players, "bob", reduced=True)
    assert sit(bob) == 2
    assert ann.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    play_the_hand([ann, bob])
    for page in (ann, bob):
        motion = page.evaluate("window.__motion")
        assert motion == {"chips": 0, "running": 0, "names": []}, motion
        assert state(page, "window.stud8.chips.flights") == 0
        # still heard: the motion is gone, not the sounds
        assert "win" in page.evaluate("window.stud8.sound.heard")
    assert players.console.errors == [], players.console.errors


# the page's tables' sounds: [tables, the distinct contexts they hold, sounds played by each]
TILE_SOUNDS = """() => { const p = Object.values(window.stud8tables);
  return [p.length, new Set(p.map((t) => t.sound.ctx).filter((c) => c)).size,
          p.map((t) => t.sound.played)]; }"""

# each log after `n` more entries: [its length, its last entry, the module's bound]
LOGS_AFTER = """async (n) => {
  const { HEARD_KEPT } = await import(new URL('sounds.js', document.baseURI));
  const { MOVES_KEPT } = await import(new URL('chipmotion.js', document.baseURI));
  const { sound, chips } = window.stud8tables.t1;
  for (let i = 0; i < n; i++) { sound.play(i % 2 ? 'deal' : 'check'); chips.moved(`x:${i}`); }
  return [[sound.heard.length, sound.heard.at(-1), HEARD_KEPT],
          [chips.moves.length, chips.moves.at(-1), MOVES_KEPT]];
}"""


def test_four_tables_share_one_audio_context_and_their_logs_are_bounded(stage: Stage) -> None:
    """Browsers cap a page's audio contexts (six in Chromium): four tiles that each play
    their table's sounds use the page's one, closed with the last tile only; what each
    table remembers of its sounds and chips stays bounded however long it is open."""
    spec = TableSpec(bots=3, bot_delay=0.2, between_hands=1.0, showdown_seconds=1.0)
    players = stage.start(start_room(spec, tables=4))
    ann = player(players, "ann")
    ann.goto(players.room.url + "/#/tables/t1,t2,t3,t4")
    ann.wait_for_selector('.tile[data-table="t4"]')
    ann.locator("#tiles").click(position={"x": 5, "y": 5})  # the page may play sound now
    ann.wait_for_function(
        "() => { const p = Object.values(window.stud8tables);"
        " return p.length === 4 && p.every((t) => t.sound.played > 0); }",
        timeout=30_000,
    )
    tables, contexts, played = ann.evaluate(TILE_SOUNDS)
    assert (tables, contexts) == (4, 1) and min(played) > 0, (tables, contexts, played)
    audio = ann.evaluate("window.__audio")
    assert audio["contexts"] == 1 and audio["closed"] == 0, audio
    # a tile closed: the others play on with the same context, still open
    ann.locator('.tile[data-table="t2"] button.close-tile').click()
    ann.wait_for_selector('.tile[data-table="t2"]', state="detached")
    before = ann.evaluate("window.__audio.started")
    ann.wait_for_function(f"() => window.__audio.started > {before}", timeout=20_000)
    assert ann.evaluate(TILE_SOUNDS)[:2] == [3, 1]
    audio = ann.evaluate("window.__audio")
    assert audio["contexts"] == 1 and audio["closed"] == 0, audio
    # hours of play in a minute: the sounds' and the chips' logs keep their last entries
    for kept, last, bound in ann.evaluate(LOGS_AFTER, 3 * 100):
        assert kept == bound and 10 <= bound <= 1000, (kept, last, bound)
    sounds, moves = ann.evaluate(LOGS_AFTER, 7)
    assert (sounds[1], moves[1]) == ("check", "x:6")  # the newest are the ones kept
    # the page left for the lobby: the last tile closes the context
    ann.locator("#to-lobby").click()
    ann.wait_for_selector('tr[data-table="t1"]')
    ann.wait_for_function("() => window.__audio.closed === 1")
    assert ann.evaluate("window.__audio.contexts") == 1
    assert players.console.errors == [], players.console.errors


@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=where)
def test_chips_fly_on_a_phone_too(stage: Stage, size: ViewportSize) -> None:
    """The layer of flying chips never widens the page (a phone scrolls no sideways)."""
    ann = full_table(stage)
    draw_full_table(ann, size, showdown=False)
    ann.evaluate(
        "() => { const c = window.stud8.chips; const r = document.querySelector('.felt .pot')"
        ".getBoundingClientRect(); for (const b of document.querySelectorAll('.felt .bet')) {"
        " const s = b.getBoundingClientRect(); c.fly({x: s.left, y: s.top + scrollY},"
        " {x: r.left, y: r.top + scrollY}, 0); } }"
    )
    assert ann.locator(".chip-fly").count() >= 4
    assert ann.evaluate("document.documentElement.scrollWidth") <= size["width"]
    screenshot(ann, f"looks-chips-flying-{where(size)}")
    ann.wait_for_function("() => document.querySelectorAll('.chip-fly').length === 0")
