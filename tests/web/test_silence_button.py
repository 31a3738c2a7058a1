"""An operator silences a player from the table (issue 16's leftover): a Silence button
on the player's chat line, seen by operators only, calls the operators' API; his next
line is refused; the button says Unsilence (after a reload too) and undoes it. Against
a real room on 127.0.0.1, in Debian's Chromium, desktop and phone."""

from __future__ import annotations

from playwright.sync_api import expect

from stud8.server.table.spec import TableSpec

from .roomkit import PHONE, Stage, screenshot, sit, start_room, state
from .test_chat import chat_texts, open_chat, say, wait_line, wait_toast


def test_an_operator_silences_a_player_from_his_chat_line_and_undoes_it(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0), operators=["boss"]))
    ann, bob = players.new("ann"), players.new("bob", PHONE)
    sit(ann)
    sit(bob)
    open_chat(ann)
    open_chat(bob)
    say(bob, "hello all")
    wait_line(ann, "hello all")
    # a player sees mute, never silence
    assert ann.locator("#chat-lines button.silence").count() == 0
    expect(ann.locator('.chat-line[data-player="bob"] button.mute')).to_be_visible()

    boss = players.new("boss", existing=True)
    boss.click('button.observe[data-table="t1"]')
    boss.wait_for_function("() => window.stud8 && window.stud8.state.rules !== null")
    open_chat(boss)
    wait_line(boss, "hello all")
    # a seated player's line read back is not called an observer's (it has no seat)
    assert boss.locator('.chat-line[data-player="bob"] .who').first.inner_text() == "bob:"
    say(ann, "ann here")
    wait_line(boss, "ann here")
    button = boss.locator('.chat-line[data-player="bob"] button.silence').first
    expect(button).to_have_text("silence")
    assert button.get_attribute("aria-label") == "Silence bob (operator)"
    screenshot(boss, "silence-button-desktop")
    button.click()
    wait_toast(boss, "bob is silenced")
    expect(button).to_have_text("unsilence")
    # every line of bob's says so; ann's still offers silence
    expect(boss.locator('.chat-line[data-player="ann"] button.silence')).to_have_text("silence")
    # bob's next line is refused, and nobody sees it
    say(bob, "can anyone hear me")
    wait_toast(bob, "you are silenced by an operator")
    say(ann, "after the silence")
    wait_line(boss, "after the silence")
    assert "can anyone hear me" not in chat_texts(ann)
    assert "can anyone hear me" not in chat_texts(boss)
    screenshot(boss, "silence-button-silenced-desktop")

    # a reload: the button still says unsilence (the operators' list of the silenced)
    boss.reload()
    boss.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")
    open_chat(boss)
    wait_line(boss, "hello all")
    button = boss.locator('.chat-line[data-player="bob"] button.silence').first
    expect(button).to_have_text("unsilence")
    button.click()
    wait_toast(boss, "bob may chat again")
    expect(button).to_have_text("silence")
    say(bob, "thanks, boss")
    wait_line(ann, "thanks, boss")
    wait_line(boss, "thanks, boss")
    screenshot(bob, "silence-button-lifted-phone")
    assert state(boss, "s.mySeat") is None  # he watches: an operator need not sit
    assert players.console.errors == [], players.console.errors
