"""The Bet/Raise pre-action counts the fixed-limit raise cap (RULES.md 3, "Raise cap";
issue 28): once a street's bet and raises are capped the box is not offered, a box
ticked before the capping raise is cleared and said ("the betting is capped"), and
nothing is sent for it; heads-up the cap is lifted as the table's rule says. A real
room on 127.0.0.1 (a cap of one raise: a bet and one raise per round), Chromium; the
client's count (raisecap.js, fed through store.js) on its own too: short all-ins, a
full bring-in, and each heads-up rule."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from stud8.server.table.spec import TableSpec

from .roomkit import (
    PHONE,
    SHOWDOWN_SHOWN,
    Stage,
    play,
    screenshot,
    sit,
    start_room,
    state,
    wait_state,
    wait_turn,
)
from .test_pre_actions import DECK, box, boxes, said

CAPPED = "(await import('/raisecap.js')).streetCapped(window.stud8.state)"


def capped(page: Page) -> bool:
    return bool(page.evaluate(f"async () => {CAPPED}"))


def legal(page: Page) -> list[str]:
    kinds: list[str] = state(page, "s.turn ? s.turn.legal.map((a) => a.kind) : []")
    return kinds


def wait_boxes(page: Page) -> None:
    wait_state(page, "!!document.querySelector('.pre-actions label.pre')")


def test_a_capped_street_offers_no_bet_raise_box_and_clears_a_ticked_one(stage: Stage) -> None:
    spec = TableSpec(bots=0, between_hands=3, raise_cap=1)
    players = stage.start(start_room(spec, decks=[DECK]))
    ann, bob = players.new("ann"), players.new("bob")
    carol = players.new("carol", viewport=PHONE)
    assert (sit(ann), sit(bob), sit(carol)) == (1, 2, 3)
    everyone = [ann, bob, carol]
    assert wait_turn(everyone) is bob
    bob.click("button.act-bring_in")

    # carol completes (the round's bet): one raise is left, bob may tick Bet/Raise
    assert wait_turn(everyone) is carol
    carol.click("button.act-complete")
    assert wait_turn(everyone) is ann
    wait_boxes(bob)
    assert boxes(bob) == ["Fold", "Call 2", "Call any", "Bet/Raise"]
    assert not capped(bob)
    box(bob, "Bet/Raise")

    # ann raises: capped. bob's box is cleared and said, his turn has no raise and
    # nothing was sent for it; carol, waiting behind him, is offered no Bet/Raise
    ann.click("button.act-raise")
    assert wait_turn(everyone) is bob
    wait_state(bob, "s.preCleared !== null")
    cleared = state(bob, "s.preCleared.text")
    assert cleared == "Your Bet/Raise box was cleared: the betting is capped"
    assert "raise" not in legal(bob) and capped(bob)
    assert not said(bob, "bob raises to 12") and state(bob, "s.sentFor !== s.turn")
    wait_boxes(carol)
    assert boxes(carol) == ["Fold", "Call 4", "Call any"]
    assert capped(carol) and capped(ann)
    screenshot(carol, "raise-cap-phone")
    screenshot(bob, "raise-cap-turn-laptop")

    # bob folds: heads-up, but the cap was reached three-handed, so it stays
    bob.click("button.act-fold")
    assert wait_turn(everyone) is carol
    assert "raise" not in legal(carol) and capped(carol)
    carol.click("button.act-call")

    # 4th street starts heads-up: lifted (the default rule), Bet/Raise is offered
    # again after a bet and a raise, and the server agrees a re-raise is legal
    wait_state(ann, "s.hand.street === 4")
    first = wait_turn([ann, carol])
    other = carol if first is ann else ann
    wait_boxes(other)
    assert "Bet/Raise" in boxes(other)
    first.click("button.act-bet")
    assert wait_turn([ann, carol]) is other
    other.click("button.act-raise")
    assert wait_turn([ann, carol]) is first
    assert "raise" in legal(first) and not capped(first)
    expect(first.locator("button.act-raise")).to_have_count(1)

    play(everyone, SHOWDOWN_SHOWN)
    assert players.room.audit()
    assert players.console.errors == []


# the count on its own: a hand of seats 1 to 3 (or 1 and 2), the events of one street
COUNT = """async ({rules, seats, events}) => {
  const store = await import('/store.js');
  const cap = await import('/raisecap.js');
  const s = store.emptyTable('t');
  s.rules = { structure: rules.structure || 'fixed_limit',
    stakes: { ante: 1, bring_in: 2, small_bet: 4, big_bet: 8 },
    rules: { raise_cap: 3, heads_up_cap: 'lifted_when_heads_up', big_bet_street: 5, ...rules } };
  let v = 1;
  store.applyEvent(s, { k: 'hand_start', hand_id: 'h', stacks: seats.map((n) => [n, 100]) }, v++);
  const out = [];
  for (const ev of events) {
    store.applyEvent(s, ev, v++);
    out.push(cap.streetCapped(s));
  }
  return out;
}"""


def count(page: Page, events: list[dict[str, Any]], seats: int = 3, **rules: Any) -> list[bool]:
    arg = {"rules": rules, "seats": list(range(1, seats + 1)), "events": events}
    got: list[bool] = page.evaluate(COUNT, arg)
    return got


def to(k: str, seat: int, amount: int, adds: int, all_in: bool = False) -> dict[str, Any]:
    return {"k": k, "seat": seat, "to": amount, "adds": adds, "all_in": all_in}


FOURTH = {"k": "street", "street": 4}


def test_the_client_counts_the_raise_cap_as_the_rules_say(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0)))
    ann = players.new("ann")
    # a bet and three raises: capped at the third raise, not before
    full = [FOURTH, to("bet", 1, 4, 4), to("raise", 2, 8, 8), to("raise", 3, 12, 12)]
    assert count(ann, [*full, to("raise", 1, 16, 12)]) == [False] * 4 + [True]
    # a short all-in (less than half a bet over the last full one) does not count,
    # one of half a bet or more does
    short = to("raise", 1, 13, 9, all_in=True)
    assert count(ann, [*full, short]) == [False] * 5
    assert count(ann, [*full, to("raise", 1, 14, 10, all_in=True)])[-1] is True
    # no cap, or a cap of one raise
    assert count(ann, [*full, to("raise", 1, 16, 12)], raise_cap=None)[-1] is False
    assert count(ann, [FOURTH, to("bet", 1, 4, 4), to("raise", 2, 8, 8)], raise_cap=1) == [
        False,
        False,
        True,
    ]
    # a bring-in of a full bet is the round's bet (bring-in 4 at 4/8: RULES.md 3)
    third = {"k": "street", "street": 3}
    bring = {"k": "bring_in", "seat": 2, "amount": 4, "all_in": False}
    got = ann.evaluate(
        COUNT.replace("bring_in: 2,", "bring_in: 4,"),
        {
            "rules": {"raise_cap": 1},
            "seats": [1, 2, 3],
            "events": [third, bring, to("raise", 3, 8, 8)],
        },
    )
    assert got == [False, False, True]
    # heads-up: lifted when the action is heads-up before the cap (a fold makes it so)
    fold = {"k": "fold", "seat": 3}
    lifted = [FOURTH, to("bet", 1, 4, 4), fold, to("raise", 2, 8, 8)]
    assert count(ann, lifted, raise_cap=1)[-1] is False
    assert count(ann, lifted, raise_cap=1, heads_up_cap="never_lifted")[-1] is True
    # ... only if the round starts heads-up: not here, but at a street of two players
    assert count(ann, lifted, raise_cap=1, heads_up_cap="lifted_if_round_starts_heads_up")[-1]
    two = [FOURTH, to("bet", 1, 4, 4), to("raise", 2, 8, 8)]
    assert count(ann, two, 2, raise_cap=1, heads_up_cap="lifted_if_round_starts_heads_up") == [
        False,
        False,
        False,
    ]
    # pot limit has no cap
    assert count(ann, [*full, to("raise", 1, 16, 12)], structure="pot_limit")[-1] is False
    assert players.console.errors == []
