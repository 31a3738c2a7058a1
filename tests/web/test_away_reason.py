"""After a reload the "I'm back" prompt still says why the player sits out (issue 16's
leftover): the snapshot carries his own seat's reason (a time-out, his own choice), in
Chromium against a real room; another player's reload is told no one else's reason."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from stud8.server.table.spec import TableSpec

from .roomkit import Players, Stage, play, screenshot, sit, start_room, state, wait_state


def reopen(page: Page) -> None:
    """A reload: the table's state is built again from the snapshot alone."""
    page.reload()
    page.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")


def test_the_prompt_says_why_after_a_reload(stage: Stage) -> None:
    spec = TableSpec(
        bots=0, action_seconds=2, time_bank_seconds=1, between_hands=1.0, showdown_seconds=1.0
    )
    players: Players = stage.start(start_room(spec))
    ann, bob = players.new("ann"), players.new("bob")
    ann_seat = sit(ann)
    sit(bob)
    # ann never acts: her clock runs out and she sits out from the next hand
    play([bob], f"s.seats[{ann_seat}].sitting_out", timeout=60)
    reopen(ann)
    wait_state(ann, f"s.seats[{ann_seat}].sitting_out")
    assert state(ann, f"s.seats[{ann_seat}].out_reason") == "timed_out"
    prompt = ann.locator("#away .away-note")
    expect(prompt).to_contain_text("Your time ran out: you are sitting out")
    expect(prompt.locator("button.im-back")).to_have_text("I'm back")
    screenshot(ann, "away-reason-timed-out-reload")
    # bob's reload: ann sits out, and her reason is hers alone
    reopen(bob)
    wait_state(bob, f"s.seats[{ann_seat}].sitting_out")
    assert state(bob, f"s.seats[{ann_seat}].out_reason") == ""
    expect(bob.locator("#away .away-note")).to_have_count(0)

    # back, then she sits out by her own choice: a reload says so
    prompt.locator("button.im-back").click()
    wait_state(ann, f"!s.seats[{ann_seat}].sitting_out")
    expect(prompt).to_have_count(0)
    ann.click('button[data-cmd="sit_out"]')
    wait_state(ann, f"s.seats[{ann_seat}].sitting_out")
    reopen(ann)
    wait_state(ann, f"s.seats[{ann_seat}].sitting_out")
    expect(prompt).to_contain_text("You chose to sit out: you are sitting out")
    screenshot(ann, "away-reason-asked-reload")
    assert players.console.errors == [], players.console.errors
