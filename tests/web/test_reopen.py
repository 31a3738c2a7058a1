"""A seated player who opens his table again keeps his seat and his buttons, however
he opens it: a reload between hands and in the middle of one, a second tab, a fresh
log-in in another browser, and after the server restarts (the room on a database, as
``stud8 serve`` runs it). He is never shown as "Watching"."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from .roomkit import HAND_OVER, Players, Stage, play, sit, start_db_room, state, wait_state


def folds(page: Page, kinds: list[str]) -> str | None:
    return "fold" if "fold" in kinds else None


def assert_seated(page: Page, seat: int) -> None:
    """The page knows his seat and shows a seated player's controls, not "Watching"."""
    wait_state(page, f"s.mySeat === {seat}")
    page.wait_for_selector("#seat-controls button[data-cmd='leave']")
    assert page.locator("#seat-controls .watching").count() == 0
    assert page.locator(f'.seat.mine[data-seat="{seat}"]').count() == 1


def assert_plays_next_hand(pages: list[Page], page: Page, seat: int) -> None:
    """In the next hand dealt, this page has its buttons: its turn's, or the
    pre-action boxes while another acts."""
    wait_state(page, f"s.hand && !s.hand.over && !!s.hand.seats[{seat}]", timeout=20_000)
    page.wait_for_selector("button.act:not([disabled]), label.pre", timeout=15_000)
    play(pages, HAND_OVER, choose=folds)


def reopen(players: Players, page: Page) -> None:
    """A reload: the same browser, the table's address."""
    page.reload()
    page.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")


def test_a_seated_player_keeps_his_buttons_however_he_opens_the_table(
    stage: Stage, tmp_path: Path
) -> None:
    players = stage.start(start_db_room(tmp_path, between_hands=3.0))
    ann = players.new("ann")
    ann_seat = sit(ann)
    # alone at the table: no hand in play; a reload keeps her seated
    reopen(players, ann)
    assert_seated(ann, ann_seat)

    bob = players.new("bob")
    bob_seat = sit(bob)
    play([ann, bob], HAND_OVER, choose=folds)
    # between hands (the pause before the next deal): a reload
    wait_state(ann, "s.hand && s.hand.finished")
    reopen(players, ann)
    # the finished hand stays on the table after the reload, as it does live
    assert state(ann, "s.hand && s.hand.finished"), "expected to reload between hands"
    assert_seated(ann, ann_seat)
    assert_plays_next_hand([ann, bob], ann, ann_seat)

    # in the middle of a hand, on bob's turn or hers: a reload
    wait_state(ann, "s.hand && !s.hand.over && s.hand.to_act !== null", timeout=20_000)
    reopen(players, ann)
    assert_seated(ann, ann_seat)
    ann.wait_for_selector("button.act:not([disabled]), label.pre")
    play([ann, bob], HAND_OVER, choose=folds)

    # a second tab of the same browser (the same session)
    second = ann.context.new_page()
    players.console.watch(second)
    second.goto(players.room.url + "/#/table/t1")
    second.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")
    assert_seated(second, ann_seat)
    assert_plays_next_hand([second, bob], second, ann_seat)
    second.close()

    # a fresh log-in in another browser, opening the table from the lobby
    again = players.login("ann")
    again.click('button.observe[data-table="t1"]')
    again.wait_for_function("() => window.stud8 && window.stud8.state.seq !== null")
    assert_seated(again, ann_seat)
    assert_plays_next_hand([again, bob], again, ann_seat)
    assert players.room.audit()

    # the server restarts on the same database and port: both pages come back by
    # themselves, seated, and the game goes on
    port = players.room.port
    players.room.stop()
    players.room = start_db_room(tmp_path, between_hands=3.0, port=port)
    stage.rooms.append(players.room)
    for page, seat in ((again, ann_seat), (bob, bob_seat)):
        wait_state(page, f"s.seats[{seat}] && s.seats[{seat}].connected", timeout=20_000)
        assert_seated(page, seat)
    assert_plays_next_hand([again, bob], again, ann_seat)
    # and a reload after the restart, between hands
    wait_state(again, "s.hand && s.hand.finished")
    reopen(players, again)
    assert_seated(again, ann_seat)
    assert players.room.audit()
    assert players.console.errors == [], players.console.errors
