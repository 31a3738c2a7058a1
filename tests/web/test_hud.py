"""What a player keeps seeing (issue 16, item 8), in Chromium against a real room: his
bank balance in the header, kept current after a buy-in, a top-up and a cash-out;
the buy-in he chose last time; his stack in big bets on hover and focus; his clock
and time bank; the pot odds when facing a bet; his hand in words (checked against
the engine's evaluator, here and on thousands of random hands); the turn's beep and
its mute switch, remembered."""

from __future__ import annotations

import math
import random
import re
from typing import Any

from playwright.sync_api import Page, expect

from stud8.core.cards import parse_cards
from stud8.core.evaluate import best_high, best_low, best_razz_low
from stud8.server.table.spec import TableSpec

from .roomkit import (
    HAND_OVER,
    PHONE,
    SHOWDOWN_SHOWN,
    Stage,
    overlaps,
    play,
    screenshot,
    sit,
    start_room,
    state,
    wait_state,
)

SPEC = TableSpec(bots=0, between_hands=1.0, showdown_seconds=1.0)
RANKS = "23456789TJQKA"
DECK = [r + s for r in RANKS for s in "cdhs"]


def bank(page: Page) -> int:
    """The balance the header shows, once it is shown."""
    el = page.locator("header .bank-balance").first
    expect(el).to_have_text(re.compile(r"^[\d,]+$"))
    return int(el.inner_text().replace(",", ""))


def expect_bank(page: Page, amount: int) -> None:
    expect(page.locator("header .bank-balance").first).to_have_text(f"{amount:,}")


def words_of(game: str, cards: list[str]) -> str:
    """The engine's words for five to seven cards (what handwords.js must say)."""
    cs = parse_cards(" ".join(cards))
    if game == "razz":
        return str(best_razz_low(cs))
    high = str(best_high(cs))
    if game == "stud_high":
        return high
    low = best_low(cs)
    return f"{high}; {low}" if low is not None else high


def one_decimal(x: float) -> str:
    """To a tenth, halves up (as the client's Math.round)."""
    return f"{math.floor(x * 10 + 0.5) / 10:.1f}".removesuffix(".0")


def test_the_hand_words_are_the_engines_on_many_random_hands(stage: Stage) -> None:
    """handwords.js (run in the browser) says what stud8.core.evaluate says, for each
    game, on 4,000 random hands of five to seven cards."""
    players = stage.start(start_room(SPEC))
    page = players.open()
    rng = random.Random(16)
    hands = [rng.sample(DECK, rng.choice((5, 6, 7))) for _ in range(4000)]
    said: list[list[str]] = page.evaluate(
        """async (hands) => {
          const { handWords } = await import('/handwords.js');
          return hands.map((h) => ['stud_hi_lo', 'stud_high', 'razz'].map((g) => handWords(g, h)));
        }""",
        hands,
    )
    wrong = []
    for cards, words in zip(hands, said, strict=True):
        hi_lo, high, razz = words
        low = best_low(parse_cards(" ".join(cards)))
        # Stud Hi/Lo says "no low" (or "no low yet" before seventh street) where the
        # engine has none
        no_low = "no low" if len(cards) == 7 else "no low yet"
        expected_hi_lo = words_of("stud_high", cards) + "; " + (str(low) if low else no_low)
        if low is None and len(cards) < 7:
            lows = len({c[0] for c in cards if c[0] in "A2345678"})
            if lows + 7 - len(cards) < 5:
                expected_hi_lo = words_of("stud_high", cards) + "; no low"
        for game, got, want in (
            ("stud_hi_lo", hi_lo, expected_hi_lo),
            ("stud_high", high, words_of("stud_high", cards)),
            ("razz", razz, words_of("razz", cards)),
        ):
            if got != want:
                wrong.append((game, cards, got, want))
    assert not wrong, wrong[:10]
    # three and four cards: what they make so far
    few = page.evaluate(
        """async () => {
          const { handWords } = await import('/handwords.js');
          return [handWords('stud_hi_lo', ['Kd', 'Ks', '4c']),
                  handWords('stud_hi_lo', ['Kd', 'Qs', 'Jc', 'Th']),
                  handWords('stud_high', ['4d', '4s', '4c', 'Ah']),
                  handWords('razz', ['9d', '6s', 'Ac'])];
        }"""
    )
    assert few == [
        "A pair of kings; no low yet",
        "High card, king; no low",
        "Three of a kind, fours",
        "9-6-A so far",
    ], few
    assert players.console.errors == []


def test_balance_buy_in_stack_clock_pot_odds_hand_words_and_sound(stage: Stage) -> None:
    players = stage.start(start_room(SPEC))
    ann, bob = players.new("ann"), players.new("bob")
    expect_bank(ann, 1000)
    # ann buys in for 150: the table's header shows her bank less the buy-in
    assert sit(ann, 150) == 1
    expect_bank(ann, 850)
    sit(bob, 200)
    expect_bank(bob, 800)

    seen: dict[str, Any] = {"odds": [], "words": [], "clocks": []}

    def choose(page: Page, kinds: list[str]) -> str | None:
        s = page.evaluate(
            """() => { const s = window.stud8.state; const me = s.hand.seats[s.mySeat];
              return { pot: s.hand.pot, bets: Object.values(s.hand.seats).map((x) => x.bet),
                       mine: me.bet, cards: [...me.down, ...me.up].filter(Boolean),
                       odds: document.querySelector('.pot-odds')?.textContent ?? null,
                       words: document.querySelector('#my-hand strong')?.textContent ?? null,
                       clock: document.querySelector('.my-clock')?.textContent ?? null }; }"""
        )
        to_call = max(s["bets"]) - s["mine"]
        seen["odds"].append((to_call, s["pot"], s["odds"]))
        seen["words"].append((s["cards"], s["words"]))
        seen["clocks"].append(s["clock"])
        if page is ann:  # ann bets whenever she may: bob faces bets
            return next((k for k in ("complete", "bet", "raise") if k in kinds), None)
        return None

    play([ann, bob], HAND_OVER, choose=choose, timeout=90)
    ann.click("#seat-controls button[data-cmd='sit_out']")  # no more hands for her
    # the pot odds: shown exactly when facing a bet, as the pot : what to add
    facing = [(c, p, o) for c, p, o in seen["odds"] if c > 0]
    assert facing, seen["odds"]
    for to_call, pot, odds in seen["odds"]:
        if to_call > 0:
            assert odds == f"Pot odds {one_decimal(pot / to_call)} : 1", (to_call, pot, odds)
        else:
            assert odds is None, (to_call, pot, odds)
    # the hand in words, as the engine says it, from five cards on
    checked = 0
    for cards, words in seen["words"]:
        assert words, cards
        if len(cards) >= 5:
            low = best_low(parse_cards(" ".join(cards)))
            want = words_of("stud_high", cards) + "; " + (str(low) if low else "")
            if low is None:
                assert words.startswith(want), (cards, words)
                assert words.endswith(("; no low", "; no low yet")), words
            else:
                assert words == want, (cards, words)
            checked += 1
    assert checked >= 2, seen["words"]
    # the clock: the seconds left and the time bank that follows them
    assert seen["clocks"] and all(
        c is None or re.fullmatch(r"\d+s \+ 20s time bank", c) for c in seen["clocks"]
    ), seen["clocks"]
    assert any(seen["clocks"]), seen["clocks"]
    # the turn's beep: one each time her turn came
    assert state(ann, "window.stud8.sound.played") >= 1
    screenshot(ann, "hud-desktop")

    # her stack in big bets, on hover and on focus (kept when the table is drawn again)
    wait_state(ann, "s.hand && s.hand.finished")
    stack = ann.locator(".seat.mine .stack")
    chips = int(stack.inner_text())
    bb = f"{one_decimal(chips / 8)} big bet{'s' if chips != 8 else ''}"
    assert stack.get_attribute("data-bb") == bb and bb in (stack.get_attribute("title") or "")
    tip = ann.locator(".seat.mine .bb-tip")
    expect(tip).to_be_hidden()
    stack.hover()
    expect(tip).to_be_visible()
    assert tip.inner_text() == bb
    ann.mouse.move(0, 0)
    expect(tip).to_be_hidden()
    stack.focus()
    ann.evaluate("window.stud8.redraw()")
    wait_state(ann, "true")
    assert ann.evaluate("document.activeElement.dataset.focus") == "stack-1"
    expect(ann.locator(".seat.mine .bb-tip")).to_be_visible()
    assert ann.locator(".seat.mine .bb-tip").inner_text() == bb

    # a top-up between hands, then leaving: the header follows her bank each time
    before = bank(ann)
    wait_state(ann, "s.seats[1].sitting_out && (!s.hand || s.hand.finished)")
    ann.wait_for_selector("#seat-controls button[data-cmd='top_up']:not([disabled])")
    ann.click("#seat-controls button[data-cmd='top_up']")
    ann.fill("#md-amount", "40")
    ann.click("#md-ok")
    expect_bank(ann, before - 40)
    wait_state(ann, "s.seats[1].chips > 0")
    chips = state(ann, "s.seats[1].chips")
    ann.click("#seat-controls button[data-cmd='leave']")
    expect_bank(ann, before - 40 + chips)
    # the buy-in she chose last time is the lobby's for these stakes
    ann.click("#to-lobby")
    expect(ann.locator('input.buyin[data-table="t1"]')).to_have_value("150")
    expect_bank(ann, before - 40 + chips)

    # the mute switch: remembered, and no beep while muted
    bob.click("#mute")
    expect(bob.locator("#mute")).to_have_attribute("aria-pressed", "true")
    bob.reload()
    bob.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")
    expect(bob.locator("#mute")).to_have_attribute("aria-pressed", "true")
    carol = players.new("carol", PHONE)
    sit(carol, 100)
    wait_state(carol, "s.hand && !s.hand.over && s.hand.seats[s.mySeat]", timeout=20_000)
    play([bob, carol], HAND_OVER, timeout=90)
    assert state(bob, "window.stud8.sound.played") == 0
    assert state(carol, "window.stud8.sound.played") >= 1
    screenshot(carol, "hud-phone")
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors


def test_the_tips_by_my_seat_never_cover_my_own_cards(stage: Stage) -> None:
    """My stack in big bets (on hover) and my hand's name at the showdown lie under my
    plate, never over my own cards (they once covered the lower half of them), at
    desktop and phone sizes: their boxes and my cards' do not overlap."""
    spec = TableSpec(bots=0, between_hands=6.0, showdown_seconds=6.0)
    players = stage.start(start_room(spec))
    ann, bob = players.new("ann"), players.new("bob", PHONE)
    sit(ann, 150)
    sit(bob, 150)
    play([ann, bob], SHOWDOWN_SHOWN + " && s.hand.showdown.length === 2", timeout=90)
    for page, size in ((ann, "desktop"), (bob, "phone")):
        wait_state(page, SHOWDOWN_SHOWN)
        cards = page.locator(".seat.mine .cards .card")
        assert cards.count() == 7, cards.count()  # both showed: seven cards each
        mine = [cards.nth(i).bounding_box() for i in range(7)]
        page.locator(".seat.mine .stack").hover()
        tip = page.locator(".seat.mine .bb-tip")
        expect(tip).to_be_visible()
        covering = {"the stack in big bets": tip.bounding_box()}
        name = page.locator(".seat.mine .hand-name")
        if size == "desktop":  # a phone shows my hand's name under the felt only
            expect(name).to_be_visible()
            covering["my hand's name"] = name.bounding_box()
        screenshot(page, f"hud-tips-{size}")
        for what, box in covering.items():
            assert box is not None, what
            for card in mine:
                assert card is not None
                assert not overlaps(box, card), (size, what, box, card)
        page.mouse.move(0, 0)
    assert players.console.errors == [], players.console.errors
