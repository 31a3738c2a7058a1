"""The hand replayer in real Chromium against a real server: a stored multiway hand
with side pots opened from the history panel and stepped through forwards and back
(buttons and keys; the stacks and pots at each step checked against the engine), the
shareable link as another player, an observer, nobody logged in and the operator
(never a down card he may not see), and hand history files dropped or picked
(PokerStars text, PHH; a corrupt one gets a clear message); desktop and phone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize

from server.replayhands import side_pot_hand
from sharedhh import SHARED_HH
from stud8.core.events import (
    AntePosted,
    BetMade,
    BringInPosted,
    Called,
    CardDealt,
    Completed,
    HandEnded,
    HandShown,
    Raised,
    UncalledBetReturned,
)
from stud8.core.hand import Hand
from stud8.core.pots import build_pots
from stud8.formats.record import HandRecord
from stud8.server.books.memory import MemoryBooks
from stud8.server.runtime import memory_app
from stud8.server.settings import Settings
from stud8.server.table.spec import TableSpec

from .roomkit import (
    LAPTOP,
    PHONE,
    SHOWDOWN_SHOWN,
    Players,
    Stage,
    assert_apart,
    layout_boxes,
    play,
    screenshot,
    serve,
    sit,
    state,
)

HH = SHARED_HH
PHH = Path(__file__).resolve().parents[1] / "data" / "phh"
STARS = HH / "pokerstars_stud8_7-StudHL-USD-0.04-0.08-200911.txt"
SIZES = {"desktop": LAPTOP, "phone": PHONE}


def start(stage: Stage, *records: HandRecord) -> Players:
    """Table t1 in a room in memory whose history holds ``records``; the operator oper."""
    settings = Settings(default_tables=1, starting_chips=1000, signups=1000)
    app = memory_app(settings, spec=TableSpec(bots=0), operators={"oper": "secret-oper"})
    books: MemoryBooks = app.state.books
    for record in records:
        books.hands.add(record)
    return stage.start(serve(app, books.audit))


def replay_state(page: Page) -> dict[str, Any]:
    """What the replayer shows now: its step, and each seat's stack, the pot and the
    side pots as drawn on the page."""
    shown: dict[str, Any] = page.evaluate(
        """() => {
      const r = window.stud8replay;
      const seats = {};
      for (const el of document.querySelectorAll('#rp-table .seat[data-seat]')) {
        const stack = el.querySelector('.stack');
        if (stack) seats[el.dataset.seat] = Number(stack.dataset.chips);
      }
      const pot = document.querySelector('#rp-table .pot strong');
      return { at: r.at, steps: r.steps, seats, pot: pot ? Number(pot.dataset.chips) : 0,
               street: r.state.hand.street,
               sidePots: [...document.querySelectorAll('#rp-table .side-pot strong')]
                 .map((e) => Number(e.dataset.chips)),
               line: document.querySelector('#rp-step').textContent };
    }"""
    )
    return shown


def wait_step(page: Page, at: int) -> dict[str, Any]:
    page.wait_for_function(f"() => window.stud8replay && window.stud8replay.at === {at}")
    return replay_state(page)


def expected_by_event(record: HandRecord) -> list[tuple[dict[int, int], int]]:
    """After each number of events: each seat's stack and the pot, walked here from
    the record's events (the client's own bookkeeping is not used)."""
    stacks = {s.seat: s.stack for s in record.seats}
    pot = 0
    out = [(dict(stacks), pot)]
    for e in record.events:
        if isinstance(e, (AntePosted, BringInPosted)):
            stacks[e.seat] -= e.amount
            pot += e.amount
        elif isinstance(e, (Completed, BetMade, Raised, Called)):
            stacks[e.seat] -= e.adds
            pot += e.adds
        elif isinstance(e, UncalledBetReturned):
            stacks[e.seat] += e.amount
            pot -= e.amount
        elif isinstance(e, HandEnded):
            stacks = dict(record.final_stacks)
        out.append((dict(stacks), pot))
    return out


def engine_checkpoints(record: HandRecord) -> dict[int, tuple[dict[int, int], int, list[int]]]:
    """The engine's own stacks, pot total and pots after each decision, by the number
    of the record's events it has made by then (the events up to the next decision)."""
    hand = Hand.start(
        rules=record.rules,
        stacks=dict(record.setup.stacks),
        deck=record.deck,
        hand_id=record.hand_id,
    )
    out = {}
    for seat, decision in record.decisions:
        assert hand.to_act == seat
        if decision is None:
            hand.time_out()
        else:
            hand.apply(decision)
        live = frozenset(s for s in hand.seats if not hand.is_folded(s))
        pots = build_pots({s: hand.contributed(s) for s in hand.seats}, live)
        if not hand.is_over:
            out[len(hand.events)] = (
                {s: hand.stack(s) for s in hand.seats},
                hand.pot_total,
                [p.amount for p in pots] if hand.current_bet == 0 and len(pots) > 1 else [],
            )
    assert hand.result is not None and dict(hand.result.stacks) == dict(record.final_stacks)
    return out


def open_from_history(players: Players, name: str, viewport: ViewportSize) -> Page:
    """``name`` logs in, opens table t1's history panel and the hand's Replay link
    (a new tab)."""
    page = players.new(name, viewport)
    page.goto(players.room.url + "/#/table/t1")
    page.click("#history-panel summary")
    page.wait_for_selector("#hist-list .replay-link")
    with page.context.expect_page() as opened:
        page.click("#hist-list .replay-link")
    replay = players.console.watch(opened.value)
    players.opened.append(replay)
    replay.wait_for_function("() => window.stud8replay && window.stud8replay.steps > 0")
    return replay


@pytest.mark.parametrize("size", SIZES)
def test_the_replayer_steps_through_a_multiway_hand_with_side_pots(stage: Stage, size: str) -> None:
    record = side_pot_hand()
    players = start(stage, record)
    viewport = SIZES[size]
    page = open_from_history(players, "ann", viewport)
    by_event = expected_by_event(record)
    checkpoints = engine_checkpoints(record)
    first = replay_state(page)
    steps = first["steps"]
    assert first["at"] == 0 and first["seats"] == {"1": 13, "2": 35, "3": 150, "4": 150}
    ends: list[int] = page.evaluate(
        "async () => { const { stepsOf } = await import('/replayer.js');"
        " return stepsOf(window.stud8replay.replay.events).map((s) => s.end); }"
    )
    assert len(ends) == steps
    seen: list[dict[str, Any]] = [first]
    engine_checked = side_checked = 0
    for at in range(1, steps + 1):
        if at % 2:
            page.click("#rp-next")
        else:
            page.keyboard.press("ArrowRight")
        now = wait_step(page, at)
        stacks, pot = by_event[ends[at - 1]]
        assert now["seats"] == {str(s): c for s, c in stacks.items()}, (at, now)
        assert now["pot"] == pot, (at, now)
        if ends[at - 1] in checkpoints:  # the engine stands here between two decisions
            e_stacks, e_pot, e_pots = checkpoints[ends[at - 1]]
            assert now["seats"] == {str(s): c for s, c in e_stacks.items()}, at
            assert now["pot"] == e_pot, at
            engine_checked += 1
            if e_pots:
                assert now["sidePots"] == e_pots, (at, now)
                side_checked += 1
        seen.append(now)
        if at == steps // 2:
            screenshot(page, f"replayer-side-pots-mid-{size}")
    assert engine_checked >= len(record.decisions) - 2 and side_checked >= 1
    # the end: the engine's final stacks, its pots paid, the showdown as the table shows it
    end = seen[-1]
    assert end["seats"] == {str(s): c for s, c in record.final_stacks}
    assert end["sidePots"] == [p.amount for p in record.pots]
    results = page.locator("#rp-results .pot-result")
    assert results.count() == len(record.pots)
    for i, p in enumerate(record.pots):
        assert f"{p.amount}" in (results.nth(i).locator(".pot-head").text_content() or "")
    assert page.locator('#rp-table .seat[data-seat="3"].winner').count() == 1
    shown = {e.seat for e in record.events if isinstance(e, HandShown)}
    for seat in shown:
        assert page.locator(f'#rp-table .seat[data-seat="{seat}"] .cards.shown .card').count() == 7
    assert page.locator('#rp-table .seat[data-seat="4"] .cards.mucked .card.back').count() == 3
    screenshot(page, f"replayer-side-pots-showdown-{size}")
    assert_apart([b for b in layout_boxes(page) if b["what"] != "results"], viewport)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    # and back, one action at a time: each step as it was on the way forward
    for at in range(steps - 1, -1, -1):
        if at % 2:
            page.click("#rp-prev")
        else:
            page.keyboard.press("ArrowLeft")
        back = wait_step(page, at)
        assert back == seen[at], at
    # street by street: 3rd to 7th street, then the end; and back to the start
    streets = []
    for _ in range(6):
        page.keyboard.press("ArrowDown")
        page.wait_for_function("() => window.stud8replay.state !== null")
        streets.append(replay_state(page)["street"])
    assert streets == [3, 4, 5, 6, 7, 7] and replay_state(page)["at"] == steps
    page.click("#rp-prev-street")
    assert replay_state(page)["street"] == 7 and replay_state(page)["line"].count("7th street")
    page.click("#rp-start")
    assert wait_step(page, 0) == seen[0]
    page.keyboard.press("End")
    assert wait_step(page, steps) == seen[-1]
    # the hand plays by itself, and a pause (or any step asked for) stops it
    page.keyboard.press("Home")
    page.click("#rp-play")
    page.wait_for_function("() => window.stud8replay.at >= 2", timeout=15_000)
    page.click("#rp-play")  # pause
    paused = replay_state(page)["at"]
    page.wait_for_timeout(2_000)
    assert replay_state(page)["at"] == paused
    page.locator("body").focus()
    page.keyboard.press("Space")
    page.wait_for_function(f"() => window.stud8replay.at > {paused}", timeout=15_000)
    page.keyboard.press("ArrowLeft")
    stopped = replay_state(page)["at"]
    page.wait_for_timeout(2_000)
    assert replay_state(page)["at"] == stopped
    page.keyboard.press("Home")
    page.click("#rp-next-street")
    third = replay_state(page)
    assert third["street"] == 3 and "3rd street" in third["line"]
    # ann (seat 1, at the bottom) sees her two down cards; nobody else's
    assert page.locator('#rp-table .seat[data-seat="1"] .card.own-down').count() == 2
    for seat in (2, 3, 4):
        assert page.locator(f'#rp-table .seat[data-seat="{seat}"] .card.back').count() == 2
    assert players.console.errors == []


def hidden_cards(record: HandRecord, viewer: int | None) -> set[str]:
    shown = {e.seat for e in record.events if isinstance(e, HandShown)}
    return {
        str(e.card)
        for e in record.events
        if isinstance(e, CardDealt) and not e.face_up and e.seat != viewer and e.seat not in shown
    }


def received(page: Page, link: str) -> dict[str, Any]:
    """Open the link; the replay as the server sent it to this page."""
    with page.expect_response(lambda r: "/replay" in r.url and "/api/" in r.url) as answer:
        page.goto(link)
    page.wait_for_function("() => window.stud8replay && window.stud8replay.steps > 0")
    data: dict[str, Any] = json.loads(answer.value.text())
    return data


def deal_cards(data: dict[str, Any]) -> set[str]:
    return {
        e["card"] for e in data["events"] if e["k"] == "deal" and not e["face_up"] and e["card"]
    }


def test_a_shared_link_shows_each_viewer_only_the_cards_he_may_see(stage: Stage) -> None:
    record = side_pot_hand()
    players = start(stage, record)
    ann = open_from_history(players, "ann", LAPTOP)
    link = ann.input_value("#rp-link")
    assert link.endswith("#/replay/sidepots1")
    owns = {
        seat: {
            str(e.card)
            for e in record.events
            if isinstance(e, CardDealt) and not e.face_up and e.seat == seat
        }
        for seat in (1, 2, 3, 4)
    }
    # bob, another player of the hand: his own down cards; the others' only as shown
    bob = players.new("bob", PHONE)
    data = received(bob, link)
    assert deal_cards(data) == owns[2]
    assert not hidden_cards(record, 2) & set(json.dumps(data).replace('"', " ").split())
    bob.keyboard.press("ArrowDown")  # 3rd street
    assert bob.locator('#rp-table .seat[data-seat="2"] .card.own-down').count() == 2
    assert bob.locator('#rp-table .seat[data-seat="1"] .card.back').count() == 2
    assert bob.locator('#rp-table .seat.mine[data-seat="2"]').count() == 1
    screenshot(bob, "replayer-shared-link-other-player-phone")
    # eve, who did not play it, and somebody not logged in: no down card at all
    eve = players.new("eve", LAPTOP)
    nobody = players.open(LAPTOP)
    for page in (eve, nobody):
        data = received(page, link)
        assert deal_cards(data) == set() and data["viewer"] is None
        assert not hidden_cards(record, None) & set(json.dumps(data).replace('"', " ").split())
        page.keyboard.press("End")
        page.wait_for_function("() => window.stud8replay.at === window.stud8replay.steps")
        # the showdown shows what was shown; dan's mucked cards stay face down
        assert page.locator('#rp-table .seat[data-seat="4"] .card.back').count() == 3
        assert page.locator("#rp-table .card.own-down").count() == 0
    screenshot(nobody, "replayer-shared-link-observer")
    # the operator sees every card
    oper = players.new("oper", LAPTOP, existing=True)
    data = received(oper, link)
    assert deal_cards(data) == set().union(*owns.values())
    oper.keyboard.press("ArrowDown")
    assert oper.locator("#rp-table .card.back").count() == 0
    assert players.console.errors == []


def drop_file(page: Page, selector: str, name: str, data: bytes) -> None:
    """Drop a file on the element, as a player drags one from his desktop."""
    page.evaluate(
        """([selector, name, bytes]) => {
      const file = new File([new Uint8Array(bytes)], name, { type: 'text/plain' });
      const dt = new DataTransfer();
      dt.items.add(file);
      const target = document.querySelector(selector);
      const how = { dataTransfer: dt, bubbles: true, cancelable: true };
      target.dispatchEvent(new DragEvent('dragover', how));
      target.dispatchEvent(new DragEvent('drop', how));
    }""",
        [selector, name, list(data)],
    )


def test_dropped_and_picked_hand_history_files_replay(stage: Stage) -> None:
    players = start(stage)
    page = players.new("ann", LAPTOP)
    # a PokerStars file of seven hands dropped on the lobby opens the replayer
    drop_file(page, "main.lobby", STARS.name, STARS.read_bytes())
    page.wait_for_selector("button.rp-hand")
    assert page.url.endswith("#/replay")
    assert page.locator("button.rp-hand").count() == 7
    assert "7 hands (pokerstars)" in (page.text_content("#rp-hands") or "")
    first = page.evaluate("window.stud8replay.replay.hand_id")
    page.locator("button.rp-hand").nth(2).click()
    page.wait_for_function("(id) => window.stud8replay.replay.hand_id !== id", arg=first)
    chosen = page.evaluate("window.stud8replay.replay")
    assert {p["seat"]: p["player"] for p in chosen["players"]}[chosen["viewer"]] == "Hero"
    assert page.get_attribute("button.rp-hand >> nth=2", "aria-pressed") == "true"
    page.keyboard.press("ArrowDown")  # 3rd street: Hero, at the bottom, sees his down cards
    hero = page.locator(f'#rp-table .seat.mine[data-seat="{chosen["viewer"]}"]')
    assert hero.locator(".card.own-down").count() == 2
    assert page.locator("#rp-table .card.own-down").count() == 2  # nobody else's
    page.keyboard.press("End")
    end = wait_step(page, page.evaluate("window.stud8replay.steps"))
    assert end["seats"] == {str(s): c for s, c in chosen["final_stacks"]}
    screenshot(page, "replayer-pokerstars-file")
    # a PHH file picked with the file input: an all-in run-out with side pots
    page.set_input_files("#rp-file", str(PHH / "all_in_runout_side_pots.phh"))
    page.wait_for_function(
        "() => document.querySelector('#rp-hands').textContent.includes('(phh)')"
    )
    page.keyboard.press("End")
    page.wait_for_function(
        "() => { const r = window.stud8replay;"
        " return !!r && r.at === r.steps && r.replay.everything; }"
    )
    phh = page.evaluate("window.stud8replay.replay")
    end = replay_state(page)
    assert end["seats"] == {str(s): c for s, c in phh["final_stacks"]}
    assert len(end["sidePots"]) >= 2
    assert page.locator("#rp-results .pot-result").count() == len(end["sidePots"])
    screenshot(page, "replayer-phh-file")
    # a corrupt file, a binary one and an unknown one: a clear message each, no replay
    stars = STARS.read_text(encoding="utf-8")
    for name, data, words in (
        ("broken.txt", stars[:700].encode(), "no hand of it can be replayed"),
        ("photo.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20, "not text"),
        ("notes.txt", b"eggs, milk, flour\n", "cannot tell the format"),
    ):
        players.console.expect_refusal("POST", "/api/v1/replays")
        drop_file(page, "#rp-drop", name, data)
        page.wait_for_function(
            "(w) => document.querySelector('#rp-error').textContent.includes(w)", arg=words
        )
        error = page.text_content("#rp-error") or ""
        assert name in error and "Traceback" not in error, error
        assert page.is_hidden("#rp-view")  # no other hand left showing
    screenshot(page, "replayer-corrupt-file")
    # too large: said before it is sent
    drop_file(page, "#rp-drop", "huge.txt", b"x" * ((1 << 20) + 1))
    page.wait_for_function(
        "() => document.querySelector('#rp-error').textContent.includes('too large')"
    )
    assert players.console.errors == []


def test_a_file_s_hands_on_a_phone(stage: Stage) -> None:
    players = start(stage)
    page = players.new("ann", PHONE)
    page.goto(players.room.url + "/#/replay")
    page.set_input_files("#rp-file", str(STARS))
    page.wait_for_selector("button.rp-hand")
    page.locator("button.rp-hand").nth(1).click()
    for _ in range(3):
        page.click("#rp-next-street")
    page.wait_for_function("() => window.stud8replay.state.hand.street === 5")
    screenshot(page, "replayer-file-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert_apart(layout_boxes(page), PHONE)
    assert players.console.errors == []


def test_a_hand_played_at_the_table_opens_in_the_replayer_as_it_ended(stage: Stage) -> None:
    """A real hand, dealt and played at table t1 through the browser, then opened from
    the history panel: the replay ends with the stacks and the showdown the table showed."""
    players = start(stage)
    ann, bob = players.new("ann"), players.new("bob")
    sit(ann)
    sit(bob)
    play([ann, bob], SHOWDOWN_SHOWN)
    table_stacks = state(
        ann, "Object.fromEntries(Object.entries(s.hand.seats).map(([k, h]) => [k, h.stack]))"
    )
    table_shown = state(ann, "s.hand.showdown.map((x) => [x.kind, x.seat])")
    my_seat = state(ann, "s.mySeat")
    ann.click("#history-panel summary")
    ann.wait_for_selector("#hist-list .replay-link")
    with ann.context.expect_page() as opened:
        ann.click("#hist-list .replay-link")
    page = players.console.watch(opened.value)
    players.opened.append(page)
    page.wait_for_function("() => window.stud8replay && window.stud8replay.steps > 0")
    page.keyboard.press("End")
    end = wait_step(page, page.evaluate("window.stud8replay.steps"))
    assert end["seats"] == table_stacks
    shown = page.evaluate("window.stud8replay.state.hand.showdown.map((x) => [x.kind, x.seat])")
    assert shown == table_shown
    assert page.evaluate("window.stud8replay.replay.viewer") == my_seat
    assert page.locator(f'#rp-table .seat.mine[data-seat="{my_seat}"]').count() == 1
    assert page.locator("#rp-results .pot-result").count() >= 1
    screenshot(page, "replayer-played-hand")
    assert players.console.errors == []
