"""The settings kept with the account (issue 28, item 7), in Chromium against a real
room: the default buy-in is the table's maximum until the player chooses another;
what he changes in one browser (the buy-in at these stakes, the four-colour deck, the
sound) follows him to a second browser (another context: its own localStorage) at
log-in, at 1366x768 and at 390x844."""

from __future__ import annotations

from playwright.sync_api import expect

from stud8.server.table.spec import TableSpec

from .roomkit import PHONE, Stage, screenshot, sit, start_room, wait_state

SPEC = TableSpec(bots=0)


def test_settings_follow_the_account_to_another_browser(stage: Stage) -> None:
    players = stage.start(start_room(SPEC))
    ann = players.new("ann")  # 1366x768
    box = ann.locator('input.buyin[data-table="t1"]')
    most = box.get_attribute("max")
    assert most is not None and int(most) > int(box.get_attribute("min") or 0)
    expect(box).to_have_value(most)  # nothing chosen: the table's maximum
    sit(ann, 150)
    wait_state(ann, "s.mySeat !== null")
    ann.check("#four-colour")
    ann.click("#mute")
    expect(ann.locator("#mute")).to_have_attribute("aria-pressed", "true")
    ann.wait_for_function(
        """async () => { const r = await fetch('/api/v1/settings', {headers: {Authorization:
             'Bearer ' + localStorage.getItem('stud8.token')}}); const s = await r.json();
             return s.four_colour && !s.sounds && Object.values(s.buy_in).includes(150); }"""
    )
    screenshot(ann, "settings-laptop")
    # a second browser: its localStorage is empty, the account's settings fill it
    phone = players.login("ann", PHONE)
    expect(phone.locator('input.buyin[data-table="t1"]')).to_have_value("150")
    phone.goto(players.room.url + "/#/table/t1")  # she watches her table from the phone
    phone.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")
    expect(phone.locator("#four-colour")).to_be_checked()
    expect(phone.locator("#mute")).to_have_attribute("aria-pressed", "true")
    screenshot(phone, "settings-phone")
    # bob's own browser keeps the defaults: the settings are ann's account's
    bob = players.new("bob", PHONE)
    expect(bob.locator('input.buyin[data-table="t1"]')).to_have_value(most)
    assert players.console.errors == [], players.console.errors
