"""Timeouts as players know them (issue 16, item 9), in Chromium against a real room: a
player whose time runs out is sat out from the next hand, is told so, and is dealt in
again once he clicks "I'm back"; the table's messages speak of "the player"; the
option is on by default and the create-table form offers it; every hand the room
stored verifies with ``stud8 hh verify``, its sit-out lines included."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from stud8.cli import main as stud8_main
from stud8.server.table.spec import TableSpec

from .roomkit import HAND_OVER, PHONE, Stage, play, screenshot, sit, start_room, state, wait_state


def test_time_out_sat_out_then_im_back_and_dealt_in_again(
    stage: Stage, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a short clock, but long enough for bob and cat to act in time on a busy machine
    spec = TableSpec(
        bots=0, action_seconds=3, time_bank_seconds=2, between_hands=1.0, showdown_seconds=1.0
    )
    players = stage.start(start_room(spec, operators=["boss"]))
    ann, bob, cat = players.new("ann", PHONE), players.new("bob"), players.new("cat")
    ann_seat = sit(ann)
    sit(bob), sit(cat)
    rules = ann.locator("#rules-list li").all_text_contents()
    assert (
        "If your time runs out, you sit out from the next hand until you click I'm back." in rules
    )
    # ann never acts (bob and cat do): her clock runs out at her first turn
    play([bob, cat], f"s.seats[{ann_seat}].sitting_out", timeout=60)
    wait_state(ann, f"s.seats[{ann_seat}].sitting_out")
    assert state(ann, f"s.seats[{ann_seat}].out_reason") == "timed_out"
    notice = ann.locator("#notice").inner_text()
    assert notice.startswith("Time ran out for ann: ") and " he " not in f" {notice} "
    assert notice.endswith("the player sits out from the next hand until back"), notice
    prompt = ann.locator("#away .away-note")
    expect(prompt).to_contain_text("Your time ran out: you are sitting out")
    assert prompt.get_attribute("role") == "alert"
    expect(ann.locator("#seat-controls button.im-back")).to_have_text("I'm back")
    screenshot(ann, "timed-out-phone")
    # bob and cat finish the hand; the next is dealt without her
    play([bob, cat], HAND_OVER, timeout=60)
    first = state(bob, "s.hand.id")
    wait_state(bob, f"s.hand && s.hand.id !== '{first}' && !s.hand.over", timeout=20_000)
    assert state(bob, f"!s.hand.seats[{ann_seat}]"), "ann was dealt in while sitting out"
    expect(bob.locator(f'.seat[data-seat="{ann_seat}"] .badge.away')).to_have_text("sitting out")
    assert not state(bob, "s.seats[2].sitting_out || s.seats[3].sitting_out"), "they acted"
    ann.set_viewport_size({"width": 1366, "height": 768})
    screenshot(ann, "timed-out-desktop")
    # "I'm back" (the prompt's button): dealt in again from the next hand
    ann.click("#away button.im-back")
    wait_state(ann, f"!s.seats[{ann_seat}].sitting_out")
    expect(prompt).to_have_count(0)
    play([bob, cat], HAND_OVER, timeout=60)
    second = state(bob, "s.hand.id")
    wait_state(ann, f"s.hand && s.hand.id !== '{second}' && !!s.hand.seats[{ann_seat}]", 20_000)
    play([ann, bob, cat], HAND_OVER, timeout=60)
    assert state(ann, f"!s.seats[{ann_seat}].sitting_out"), "acting keeps her in"
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors

    # the room's stored hands: the sit-out lines, and each verifies
    with httpx.Client(base_url=players.room.url) as http:
        r = http.post("/api/v1/login", json={"name": "boss", "password": "secret-boss"})
        token = r.json()["token"]
        text = http.get(
            "/api/v1/hands", params={"limit": 50}, headers={"Authorization": f"Bearer {token}"}
        ).text
    assert text.count("PokerStars Hand #") >= 3
    assert "ann has timed out" in text and "\nann is sitting out\n" in text
    assert "ann (" in text and "in chips) is sitting out" in text
    path = tmp_path / "room.txt"
    path.write_text(text)
    capsys.readouterr()
    assert stud8_main(["hh", "verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"reproduced: {text.count('PokerStars Hand #')} " in out and "mismatched: 0" in out, out


def test_the_create_table_form_offers_the_option_on_by_default(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0), operators=["boss"]))
    boss = players.new("boss", existing=True)
    boss.click("details.create-table summary")
    box = boss.locator("#ct-sit_out_on_timeout")
    expect(box).to_be_checked()
    boss.fill("#ct-table_id", "keep")
    box.uncheck()
    boss.click("#create-submit")
    boss.wait_for_selector('tr[data-table="keep"]')
    boss.fill("#ct-table_id", "out")
    box.check()
    boss.click("#create-submit")
    boss.wait_for_selector('tr[data-table="out"]')
    tables = {
        t["table_id"]: t for t in httpx.get(players.room.url + "/api/v1/tables").json()["tables"]
    }
    assert tables["keep"]["sit_out_on_timeout"] is False
    assert tables["out"]["sit_out_on_timeout"] is True
    assert tables["t1"]["sit_out_on_timeout"] is True  # a TableSpec's default
    screenshot(boss, "create-table-sit-out-option")
    assert players.console.errors == [], players.console.errors
