"""The pre-action boxes a PokerStars regular uses (issue 28, item 4), in the browser:
Fold, Check/Fold, Check/Call, Call N, Call any and Bet/Raise, each shown only when it
makes sense for the bet the player would face; a box tied to the bet (Call N,
Check/Call, Bet/Raise) is cleared, and said, when the bet changes, and nothing is
sent for it; Call any survives a raise; each box acts once when the turn comes, then
is cleared. Three players at a fixed-limit table (1/2/4/8) against a real room on
127.0.0.1, in Debian's Chromium, with no console errors; the pure rules
(``preactions.js``) on their own too: a new street or hand clears every box, the
bring-in is never pre-selected, Bet/Raise sends the minimum in no limit."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from stud8.server.table.spec import TableSpec

from .roomkit import (
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
    wait_turn,
)

# ann (seat 1): 6s 6h / Kc Ac 3s 4h / 6d. bob (seat 2): 3c 4c / 2d 7c 8d Tc / 9c.
# carol (seat 3): Th Jh / Qh 9h Jd 5c / 2h. bob's deuce brings in; from 4th street on
# ann's ace-king shows highest (no pair shows: no open-pair bet), so she acts first.
DECK = "6s 3c Th 6h 4c Jh Kc 2d Qh Ac 7c 9h 3s 8d Jd 4h Tc 5c 6d 9c 2h"


def boxes(page: Page) -> list[str]:
    """The pre-action boxes shown, by their labels."""
    return [t.strip() for t in page.locator(".pre-actions label.pre").all_inner_texts()]


def box(page: Page, name: str) -> None:
    page.get_by_role("checkbox", name=name, exact=True).check()


def said(page: Page, line: str) -> bool:
    return bool(state(page, f"s.log.includes({line!r})"))


def wait_said(page: Page, *lines: str) -> None:
    """Wait until the page's dealer log has every one of ``lines``."""
    wait_state(page, " && ".join(f"s.log.includes({line!r})" for line in lines))


def test_each_box_when_it_makes_sense_cleared_by_a_changed_bet_and_sent_once(
    stage: Stage,
) -> None:
    spec = TableSpec(bots=0, between_hands=3)
    players = stage.start(start_room(spec, decks=[DECK]))
    ann, bob = players.new("ann"), players.new("bob")
    carol = players.new("carol", viewport=PHONE)
    assert sit(ann) == 1
    assert sit(bob) == 2
    assert sit(carol) == 3
    everyone = [ann, bob, carol]
    wait_state(ann, "s.hand && Object.keys(s.hand.seats).length === 3 && s.hand.to_act === 2")

    # 3rd street, the bring-in not posted yet: what each will face is not known, so
    # only Fold, Check/Fold and Call any; the low card pre-selects nothing
    wait_state(ann, "!!document.querySelector('.pre-actions label.pre')")
    assert boxes(ann) == ["Fold", "Check/Fold", "Call any"]
    assert wait_turn(everyone) is bob
    assert bob.locator("label.pre").count() == 0
    bob.click("button.act-bring_in")

    # facing the bring-in: Call 2 (no Check/Call, no Check/Fold); ticked, then carol
    # completes: the box is cleared (said), and ann's turn comes with nothing sent
    wait_state(ann, "s.hand.to_act === 3 && !!document.querySelector('.pre-actions label.pre')")
    assert boxes(ann) == ["Fold", "Call 2", "Call any", "Bet/Raise"]
    screenshot(ann, "pre-actions-laptop")
    assert_apart(layout_boxes(ann), LAPTOP)
    box(ann, "Call 2")
    assert wait_turn(everyone) is carol
    carol.click("button.act-complete")
    assert wait_turn(everyone) is ann
    assert state(ann, "s.preCleared && s.preCleared.text") == (
        "Your Call 2 box was cleared: the bet changed"
    )
    assert not said(ann, "ann calls 4") and state(ann, "s.sentFor") is None

    # bob (2 in, 4 to match) ticks Call any; ann raises: it survives, and calls for him
    wait_state(bob, "!!document.querySelector('.pre-actions label.pre')")
    assert boxes(bob) == ["Fold", "Call 2", "Call any", "Bet/Raise"]
    box(bob, "Call any")
    ann.click("button.act-raise")
    wait_said(bob, "Your Call any box: called", "bob calls 6")
    expect(bob.locator("input.pre-box:checked")).to_have_count(0)
    assert wait_turn(everyone) is carol
    carol.click("button.act-call")
    wait_state(carol, "s.hand.street === 4 && s.hand.pot === 27")

    # 4th street, ann first: carol ticks Check/Call; ann bets, so it is cleared while
    # bob is to act (said in her bar); she ticks Call 4, bob calls: her box calls 4
    assert wait_turn(everyone) is ann
    wait_state(carol, "!!document.querySelector('.pre-actions label.pre')")
    assert boxes(carol) == ["Fold", "Check/Fold", "Check/Call", "Bet/Raise"]
    box(carol, "Check/Call")
    screenshot(carol, "pre-actions-phone")
    assert_apart(layout_boxes(carol), PHONE)
    ann.click("button.act-bet")
    expect(carol.locator(".pre-cleared")).to_have_text(
        "Your Check/Call box was cleared: the bet changed"
    )
    assert boxes(carol) == ["Fold", "Call 4", "Call any", "Bet/Raise"]
    expect(carol.locator("input.pre-box:checked")).to_have_count(0)
    screenshot(carol, "pre-actions-phone-cleared")
    assert_apart(layout_boxes(carol), PHONE)
    box(carol, "Call 4")
    assert wait_turn(everyone) is bob
    bob.click("button.act-call")
    wait_said(carol, "Your Call 4 box: called", "carol calls 4")
    wait_state(ann, "s.hand.street === 5")

    # 5th street: bob ticks Bet/Raise, carol Check/Call; ann checks: bob's box bets the
    # big bet, which clears carol's: her turn comes with nothing sent
    assert wait_turn(everyone) is ann
    for page in (bob, carol):
        wait_state(page, "!!document.querySelector('.pre-actions label.pre')")
    box(bob, "Bet/Raise")
    box(carol, "Check/Call")
    ann.click("button.act-check")
    wait_said(bob, "Your Bet/Raise box: bet", "bob bets 8")
    assert wait_turn(everyone) is carol
    assert not said(carol, "carol checks") and not said(carol, "carol calls 8")
    carol.click("button.act-call")
    assert wait_turn(everyone) is ann
    ann.click("button.act-call")
    wait_state(ann, "s.hand.street === 6")

    # 6th street: bob's Check/Call and carol's Check/Fold check when ann checks
    assert wait_turn(everyone) is ann
    for page in (bob, carol):
        wait_state(page, "!!document.querySelector('.pre-actions label.pre')")
    box(bob, "Check/Call")
    box(carol, "Check/Fold")
    # one box at a time: ticking another unticks the first
    box(carol, "Fold")
    expect(carol.get_by_role("checkbox", name="Check/Fold", exact=True)).not_to_be_checked()
    box(carol, "Check/Fold")
    expect(carol.locator("input.pre-box:checked")).to_have_count(1)
    ann.focus("#to-lobby")
    ann.keyboard.press("c")  # the shortcuts still work: C checks
    wait_said(bob, "Your Check/Call box: checked", "bob checks")
    wait_said(carol, "Your Check/Fold box: checked", "carol checks")
    wait_state(ann, "s.hand.street === 7")

    play(everyone, SHOWDOWN_SHOWN)
    assert players.room.audit()
    assert players.console.errors == []


def test_the_rules_of_the_boxes(stage: Stage) -> None:
    """preactions.js on its own: which boxes, what each sends, what clears them."""
    players = stage.start(start_room(TableSpec(bots=0)))
    ann = players.new("ann")
    got = ann.evaluate(
        """async () => {
          const m = await import('/preactions.js');
          // me in seat 1 with `stack`, `bets` the street's bets by seat
          const at = (street, bets, stack = 100) => ({ mySeat: 1, preAction: null,
            hand: { id: 'h', street, pot: 20, to_act: 2,
              seats: Object.fromEntries(Object.entries(bets).map(([n, bet]) =>
                [n, { bet, stack: Number(n) === 1 ? stack : 100 }])) } });
          const turn = (s, ...legal) => { s.turn = { seat: 1, legal }; return s; };
          const out = {};
          out.pending = m.preBoxes(m.facing(at(3, { 1: 0, 2: 0 })));
          out.free = m.preBoxes(m.facing(at(4, { 1: 0, 2: 0 })));
          out.bet = m.preBoxes(m.facing(at(4, { 1: 0, 2: 8 })));
          out.short = m.preBoxes(m.facing(at(4, { 1: 0, 2: 8 }, 5)));
          // Call any checks when the check is free; Check/Call never calls
          let s = at(4, { 1: 0, 2: 0 });
          m.tickPreAction(s, 'call_any', true);
          out.callAnyFree = m.preActionChoice(
            turn(s, { kind: 'check' }, { kind: 'bet', min_to: 4, max_to: 4 }));
          // a new street clears every box, silently
          s = at(4, { 1: 0, 2: 8 });
          m.tickPreAction(s, 'call_any', true);
          s.hand.street = 5; for (const seat of Object.values(s.hand.seats)) seat.bet = 0;
          out.streetLive = m.livePreAction(s);
          out.streetSaid = m.prunePreAction(s);
          out.streetGone = s.preAction;
          // ticked during the antes (before third street is named): it holds on third
          s = at(0, { 1: 0, 2: 0 });
          m.tickPreAction(s, 'call_any', true);
          s.hand.street = 3;
          out.antesLive = !!m.livePreAction(s);
          // a new hand too
          s = at(4, { 1: 0, 2: 0 });
          m.tickPreAction(s, 'fold', true);
          s.hand = { ...s.hand, id: 'h2' };
          out.handLive = m.livePreAction(s);
          // Bet/Raise sends the minimum raise, whatever the range (no limit)
          s = at(4, { 1: 0, 2: 8 });
          m.tickPreAction(s, 'bet_raise', true);
          out.raise = m.preActionChoice(turn(s, { kind: 'fold' }, { kind: 'call' },
            { kind: 'raise', min_to: 16, max_to: 100 }));
          // Call 8, then a raise to 16: cleared and said, never sent
          s = at(4, { 1: 0, 2: 8 });
          m.tickPreAction(s, 'call', true);
          out.callLabel = s.preAction.label;
          s.hand.seats[2].bet = 16;
          out.raisedChoice = m.preActionChoice(turn(s, { kind: 'fold' }, { kind: 'call' }));
          out.raisedSaid = m.prunePreAction(s);
          // the bring-in is never pre-selected, whatever is ticked
          s = at(3, { 1: 0, 2: 0 });
          m.tickPreAction(s, 'call_any', true);
          out.bringIn = m.preActionChoice(
            turn(s, { kind: 'bring_in' }, { kind: 'complete', min_to: 4, max_to: 4 }));
          return out;
        }"""
    )
    assert got["pending"] == ["fold", "check_fold", "call_any"]
    assert got["free"] == ["fold", "check_fold", "check_call", "bet_raise"]
    assert got["bet"] == ["fold", "call", "call_any", "bet_raise"]
    assert got["short"] == ["fold", "call"]  # 5 chips against 8: call all-in, no raise
    assert got["callAnyFree"] == {"kind": "check"}
    assert got["streetLive"] is None and got["streetSaid"] is None and got["streetGone"] is None
    assert got["handLive"] is None and got["antesLive"] is True
    assert got["raise"] == {"kind": "raise", "amount": 16}
    assert got["callLabel"] == "Call 8"
    assert got["raisedChoice"] is None
    assert got["raisedSaid"] == "Your Call 8 box was cleared: the bet changed"
    assert got["bringIn"] is None
    assert players.console.errors == []
