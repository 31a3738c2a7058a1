"""The table's talk panel in the browser: the dealer's log (the streets, the up cards,
who brings in and why, who is high on board and acts first) and the chat (two players
chat, a hostile line shows as the text it is and runs nothing, a player mutes
another and it is remembered, an observer is refused at a table that does not allow
it and chats at one that does, an operator silences a player). Against a real room
on 127.0.0.1, in Debian's Chromium, at desktop and phone sizes, with no console
errors."""

from __future__ import annotations

import json

from playwright.sync_api import Dialog, Page

from stud8.server.table.spec import TableSpec

from .roomkit import (
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
)

# ann (seat 1): 9d 8d / 2c / 3c 4h 5s / 6c. bob (seat 2): Ah Qh / Kd / Ks 7s 7d / 2h.
# ann's deuce of clubs brings in; on 4th street bob's kings show: he acts first.
DECK = "9d Ah 8d Qh 2c Kd 3c Ks 4h 7s 5s 7d 6c 2h"
IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "</script><script>window.pwned = 1</script>"


def open_chat(page: Page) -> None:
    page.click("#tab-chat")
    page.wait_for_selector("#pane-chat:not([hidden])")


def say(page: Page, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")


def chat_texts(page: Page) -> list[str]:
    return page.locator("#chat-lines .chat-line .said").all_text_contents()


def wait_line(page: Page, text: str) -> None:
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('#chat-lines .said')]"
        ".some((e) => e.textContent === t)",
        arg=text,
    )


def wait_toast(page: Page, words: str) -> None:
    page.wait_for_function(
        "(w) => { const t = document.querySelector('#toast');"
        " return !t.hidden && t.textContent.includes(w); }",
        arg=words,
    )


def test_two_players_chat_beside_the_dealer_s_log(stage: Stage) -> None:
    spec = TableSpec(bots=0, between_hands=1, showdown_seconds=1, action_seconds=30)
    players = stage.start(start_room(spec, decks=[DECK], operators=["boss"]))
    dialogs: list[str] = []
    ann, bob = players.new("ann"), players.new("bob")
    eve = players.new("eve", viewport=PHONE)

    def on_dialog(dialog: Dialog) -> None:  # an alert() would be one: none may come
        dialogs.append(dialog.message)
        dialog.dismiss()

    for page in (ann, bob, eve):
        page.on("dialog", on_dialog)
    assert sit(ann) == 1
    assert sit(bob) == 2
    eve.click('button.observe[data-table="t1"]')
    eve.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")

    # ---- the dealer's log of the first hand, in words a Stud player reads
    play([ann, bob], HAND_OVER)
    wait_state(ann, SHOWDOWN_SHOWN + " && s.log.some((l) => l.includes(' wins '))")
    log: list[str] = state(ann, "s.log")
    for line in (
        "Third street",
        "Up cards: ann 2♣, bob K♦",
        "ann brings in for 2 — lowest up card 2♣",
        "Fourth street",
        "Up cards: ann 3♣, bob K♠",
        "bob is high with a pair of kings (K♦ K♠), first to act",
        "Fifth street",
        "Seventh street (the last card, face down)",
    ):
        assert line in log, (line, log)
    assert log.index("Third street") < log.index("ann brings in for 2 — lowest up card 2♣")
    assert "ann shows a straight, six high; 6-5-4-3-2 low" in log and "bob mucks" in log, log
    assert "ann wins 3 for high from the main pot" in log, log
    # the observer's log says the same, and never names a down card
    wait_state(eve, HAND_OVER)
    eve_log: list[str] = state(eve, "s.log")
    assert "bob is high with a pair of kings (K♦ K♠), first to act" in eve_log
    assert not any(
        "9♦" in line or "A♥" in line
        for line in eve_log[: eve_log.index("Seventh street (the last card, face down)")]
    )
    dealer = ann.locator("#pane-dealer")
    assert dealer.is_visible()
    assert "ann brings in for 2 — lowest up card 2♣" in dealer.inner_text()
    assert ann.locator("#log li.street-head").count() >= 5
    screenshot(ann, "chat-dealer-log-desktop")
    screenshot(eve, "chat-dealer-log-phone")
    # no more hands: the rest is chat
    for page in (ann, bob):
        page.evaluate("window.stud8.socket.send('sit_out', {})")
    wait_state(ann, "s.seats[1].sitting_out && s.seats[2].sitting_out")

    # ---- two players chat; hostile text shows as text and runs nothing
    open_chat(ann)
    say(ann, IMG)
    say(ann, SCRIPT)
    wait_state(bob, "true")
    bob.wait_for_function("() => document.querySelector('#chat-unread').textContent === '2'")
    open_chat(bob)
    wait_line(bob, SCRIPT)
    assert chat_texts(bob) == [IMG, SCRIPT]
    assert bob.locator("#chat-unread").is_hidden()
    for page in (ann, bob):
        assert page.locator("#chat-lines img, #chat-lines script").count() == 0
        assert page.evaluate("window.pwned") is None
    say(bob, "nice hand")
    wait_line(ann, "nice hand")
    assert ann.locator("#chat-lines .chat-line .who").all_text_contents() == [
        "ann:",
        "ann:",
        "bob:",
    ]
    assert ann.locator('#chat-lines .chat-line[data-player="ann"] button.mute').count() == 0
    screenshot(bob, "chat-two-players-desktop")

    # ---- the observer is refused here (the table does not allow it)
    open_chat(eve)
    wait_line(eve, "nice hand")
    assert eve.locator("#chat-input").is_disabled()
    assert (
        eve.locator("#chat-note").inner_text() == "Only the players seated at this table may chat."
    )
    eve.evaluate("window.stud8.socket.send('chat', {text: 'let me in'})")  # around the form
    wait_toast(eve, "only the players seated here may chat")
    screenshot(eve, "chat-observer-refused-phone")
    assert_apart(layout_boxes(eve), PHONE)

    # ---- bob mutes ann: her lines go, and stay gone after a reload
    bob.click('#chat-lines .chat-line[data-player="ann"] button.mute >> nth=0')
    bob.wait_for_function(
        "() => !document.querySelector('#chat-lines .chat-line[data-player=\"ann\"]')"
    )
    assert json.loads(bob.evaluate("localStorage.getItem('stud8.muted.bob')")) == ["ann"]
    say(ann, "can you hear me?")
    wait_line(eve, "can you hear me?")
    say(ann, "marker")
    wait_line(eve, "marker")
    assert chat_texts(bob) == ["nice hand"]
    bob.reload()
    bob.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")
    open_chat(bob)
    wait_line(bob, "nice hand")  # read back from the table's chat
    assert "marker" not in chat_texts(bob)
    assert bob.locator("#muted-list").inner_text().startswith("Muted:")
    bob.click("#muted-list button.unmute")
    wait_line(bob, "marker")
    assert chat_texts(bob) == [IMG, SCRIPT, "nice hand", "can you hear me?", "marker"]

    # ---- an operator silences ann: her next line is refused, nobody sees it
    boss = players.new("boss", existing=True)
    status = boss.evaluate(
        """async () => (await fetch('/api/v1/accounts/ann/silence', {method: 'POST',
             headers: {Authorization: 'Bearer ' + localStorage.getItem('stud8.token')}})).status"""
    )
    assert status == 200
    say(ann, "why me?")
    wait_toast(ann, "you are silenced by an operator")
    say(bob, "after the silence")
    wait_line(ann, "after the silence")
    assert "why me?" not in chat_texts(bob) and "why me?" not in chat_texts(eve)
    screenshot(ann, "chat-silenced-desktop")
    assert dialogs == []
    assert players.room.audit()
    assert players.console.errors == []


def test_observers_chat_at_a_table_that_allows_it(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0), operators=["boss"]))
    boss = players.new("boss", existing=True)
    boss.click("details.create-table summary")
    boss.fill("#ct-table_id", "rail")
    assert not boss.locator("#ct-observer_chat").is_checked()  # off by default
    boss.check("#ct-observer_chat")
    boss.click("#create-submit")
    boss.wait_for_selector('tr[data-table="rail"]')

    ann = players.new("ann", table="rail")
    sit(ann, table="rail")
    eve = players.new("eve", viewport=PHONE, table="rail")
    eve.click('button.observe[data-table="rail"]')
    eve.wait_for_function("() => window.stud8 && window.stud8.state.rules !== null")
    assert state(eve, "s.rules.observer_chat") is True
    open_chat(eve)
    assert eve.locator("#chat-input").is_enabled()
    assert eve.locator("#chat-note").is_hidden()
    say(eve, "hi from the rail")
    open_chat(ann)
    wait_line(ann, "hi from the rail")
    assert (
        ann.locator('#chat-lines .chat-line[data-player="eve"] .who').inner_text()
        == "eve (watching):"
    )
    say(ann, "welcome")
    wait_line(eve, "welcome")
    screenshot(eve, "chat-observer-allowed-phone")
    ann.set_viewport_size(LAPTOP)
    screenshot(ann, "chat-observer-allowed-desktop")
    assert players.console.errors == []


def test_the_dealer_s_words_for_every_game(stage: Stage) -> None:
    """dealer.js as the page loads it: the bring-in's reason in each game (Razz: the
    highest card, the ace low; a low card all-in for the ante), the board in words,
    and the side pots."""
    players = stage.start(start_room(TableSpec(bots=0)))
    page = players.open()
    said = page.evaluate(
        """async () => {
          const d = await import('/dealer.js');
          const who = (state, seat) => state.seats[seat].player;
          const seat = (up, extra = {}) =>
            ({ up, folded: false, contributed: 1, all_in: false, ...extra });
          const table = (game, hand) => ({ rules: { game }, hand,
            seats: { 1: { player: 'ann' }, 2: { player: 'bob' }, 3: { player: 'cat' } } });
          const door = { street: 3, seats: { 1: seat(['Kh']), 2: seat(['2d']), 3: seat(['2c']) } };
          const razz = { street: 3, seats: { 1: seat(['Kh']), 2: seat(['Ks']), 3: seat(['Ac']) } };
          const allIn = { street: 3, seats: { 1: seat(['Kh']), 2: seat(['3d']),
            3: seat(['2c'], { all_in: true }) } };
          const pots = { street: 5, seats: { 1: seat(['Kh'], { contributed: 30 }),
            2: seat(['3d'], { contributed: 30 }),
            3: seat(['2c'], { contributed: 10, all_in: true }) } };
          const boards = [['Ks', 'Kd'], ['As', 'Ad', '4c', '4h'], ['7s', '7d', '7h'],
            ['Ah', 'Kd', '9c'], ['9s', '9d', '9h', '9c']];
          const low = table('razz', { seats: { 1: seat(['7s', '5d']) } });
          return {
            hilo: d.bringInReason(table('stud_hi_lo', door), 3, who),
            razz: d.bringInReason(table('razz', razz), 2, who),
            allIn: d.bringInReason(table('stud_hi_lo', allIn), 2, who),
            boards: boards.map(d.boardHigh),
            lows: [['7s', '5d', '3c'], ['As', '2d'], ['5s', '5d', '2h']].map(d.boardLow),
            razzFirst: d.firstToActLine(low, 1, 4, who),
            pots: d.potsLine(table('stud_hi_lo', pots), who),
            onePot: d.potsLine(table('stud_hi_lo', door), who),
            cards: ['Th', 'As', '2c', '9d'].map(d.cardText),
            streets: [3, 4, 5, 6, 7].map(d.streetLine),
          };
        }"""
    )
    assert said["hilo"] == "lowest up card 2♣"  # the deuce of clubs below the deuce of diamonds
    assert said["razz"] == "highest up card K♠"  # the king of spades above the king of hearts
    assert said["allIn"] == "cat, with the lowest up card 2♣, is all-in"
    assert said["boards"] == [
        "a pair of kings",
        "two pair, aces and fours",
        "three of a kind, sevens",
        "ace-king high",
        "four of a kind, nines",
    ]
    assert said["lows"] == ["7-5-3", "2-A", "a pair of fives"]
    assert said["razzFirst"] == "ann is low with 7-5 (7♠ 5♦), first to act"
    assert said["pots"] == "Main pot 30: ann, bob and cat; Side pot 1 40: ann and bob"
    assert said["onePot"] is None
    assert said["cards"] == ["10♥", "A♠", "2♣", "9♦"]
    assert said["streets"][0] == "Third street" and said["streets"][4].startswith("Seventh street")
    assert players.console.errors == []
