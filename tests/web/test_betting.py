"""Betting in the browser: an operator opens a pot-limit table from the lobby's form
(only operators see it: the log-in says who is one), with the check-or-fold time-out
rule, which the lobby and the table's rules panel word; a hand is played with the
slider, the amount box and the pot buttons; the pre-action boxes act when the turn
comes (Check/Fold checks a free check and folds to a bet); the clock runs out on a
player who does not act and the time-out rule is shown; at a no-limit table a short
stack goes all-in and the side pot shows as the others bet on (the client's pots are
the engine's, over many random hands). Against a real room on 127.0.0.1, in Debian's
Chromium, with no console errors."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from stud8.server.table.spec import TableSpec

from .pot_cases import check_client_pots
from .roomkit import (
    HAND_OVER,
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

# ann (seat 1): As Ks / Qs / Js 9d 9c / Kc: two pair. bob (seat 2): Qh Jh / Th / 9h Kd
# Qc / Jd: a straight, king high. Nobody has a low. bob's ten brings in.
NO_LOW_DECK = "As Qh Ks Jh Qs Th Js 9h 9d Kd 9c Qc Kc Jd"


def labels(page: Page) -> list[str]:
    return page.locator("button.act .label").all_inner_texts()


def presets(page: Page) -> dict[str, int]:
    return {
        (b.get_attribute("data-name") or ""): int(b.get_attribute("data-to") or -1)
        for b in page.locator(".sizer .preset").all()
    }


def open_table_from_the_form(op: Page) -> None:
    op.fill("#ct-table_id", "pl")
    op.select_option("#ct-structure", "pot_limit")
    op.select_option("#ct-timeout_policy", "check_or_fold")
    op.fill("#ct-rake_percent", "5/2")
    op.fill("#ct-rake_cap", "3")
    op.fill("#ct-between_hands", "1.5")
    op.click("#create-submit")
    op.wait_for_selector('tr[data-table="pl"]')


def test_a_pot_limit_hand_with_the_slider_the_box_and_the_pot_button(stage: Stage) -> None:
    players = stage.start(start_room(TableSpec(bots=0), decks=[NO_LOW_DECK], operators=["oper"]))
    op = players.new("oper", existing=True)
    # a bad value is refused by the server, and said
    players.console.expect_refusal("POST", "/api/v1/tables")
    op.click("details.create-table summary")
    op.fill("#ct-big_bet", "2")
    op.click("#create-submit")
    op.wait_for_selector("#create-error:has-text('big_bet')")
    op.fill("#ct-big_bet", "8")
    open_table_from_the_form(op)
    row = op.locator('tr[data-table="pl"]')
    assert "Pot Limit" in row.inner_text()
    # the clock, the time-out rule and the rake, as the lobby lists them
    brief = row.locator(".rules-brief").inner_text()
    assert brief == "10+20 s · check or fold · rake 2.5%", brief
    screenshot(op, "lobby-create-table")
    # a plain log-in says he is an operator: the form is there
    op.click("#logout")
    op.fill("#name", "oper")
    op.fill("#password", "secret-oper")
    op.click("#login")
    assert op.locator("details.create-table summary").inner_text() == "Create a table"

    ann = players.new("ann", table="pl")
    assert ann.locator("details.create-table").count() == 0  # players do not see the form
    assert sit(ann, table="pl") == 1
    # the table's rules, worded from its lobby entry
    ann.click("#rules-panel summary")
    assert "check or fold" in ann.locator("#rules-brief").inner_text()
    rules = ann.locator("#rules-list li").all_inner_texts()
    assert rules[:2] == [
        "You have 10 seconds to act, then a 20-second time bank.",
        "If your time runs out, you check if you can, else you fold.",
    ], rules
    assert "Rake: 2.5% of each pot, at most 3." in rules
    assert rules[-1].startswith("Sit out (or stay away) for 10 minutes and you are stood up")
    # a time-out at this table is said by its rule
    said = ann.evaluate(
        """async () => {
          const { applyEvent, emptyTable } = await import('/store.js');
          const s = emptyTable('pl');
          s.rules = window.stud8.state.rules;  // this table's lobby entry
          s.seats = { 2: { player: 'bob' } };
          applyEvent(s, { k: 'hand_start', hand_id: 'h', stacks: [[1, 100], [2, 100]] }, 1);
          applyEvent(s, { k: 'timeout', seat: 2, outcome: 'fold' }, 2);
          return s.notice && s.notice.text;
        }"""
    )
    assert said == (
        "Time ran out for bob: folded (the player could not check);"
        " the player sits out from the next hand until back"
    ), said
    bob = players.new("bob", table="pl")
    assert sit(bob, table="pl") == 2

    # 3rd street: bob brings in; ann completes for the pot (the most pot limit allows)
    assert wait_turn([ann, bob]) is bob
    assert labels(bob) == ["Bring in 2", "Complete to 4"]  # no choice of amount: no slider
    assert bob.locator(".sizer").count() == 0
    bob.click("button.act-bring_in")
    assert wait_turn([ann, bob]) is ann
    assert labels(ann) == ["Fold", "Call 2", "Complete to 4"]
    # pot 4, 2 to call: the pot after the call is 6, so the pot is 2 + 6 = 8, half 2 + 3
    assert presets(ann) == {"half": 5, "pot": 8}
    slider = ann.locator(".sizer .slider")
    assert (slider.get_attribute("min"), slider.get_attribute("max")) == ("4", "8")
    ann.click(".sizer .preset[data-name='half']")
    assert ann.input_value(".sizer .amount") == "5" and labels(ann)[2] == "Complete to 5"
    ann.click(".sizer .preset[data-name='pot']")
    assert ann.input_value(".sizer .amount") == "8" and slider.input_value() == "8"
    assert labels(ann)[2] == "Complete to 8"
    screenshot(ann, "pot-limit-sizer")
    ann.click("button.act-complete")

    # bob raises with the slider: 16 to 26 (the pot after his call is 18)
    assert wait_turn([ann, bob]) is bob
    assert presets(bob) == {"half": 17, "pot": 26}
    bob.focus(".sizer .slider")
    bob.keyboard.press("ArrowRight")
    bob.keyboard.press("ArrowRight")
    assert bob.input_value(".sizer .amount") == "18" and labels(bob)[2] == "Raise to 18"
    bob.click("button.act-raise")

    # ann types an amount the table does not allow: told, and nothing is sent
    assert wait_turn([ann, bob]) is ann
    assert presets(ann) == {"half": 37, "pot": 56}
    ann.fill(".sizer .amount", "999")
    ann.click("button.act-raise")
    assert ann.locator(".sizer .err").inner_text() == "The amount is 28 to 56"
    ann.fill(".sizer .amount", "30")
    assert labels(ann)[2] == "Raise to 30" and ann.locator(".sizer .slider").input_value() == "30"
    ann.click("button.act-call")
    wait_state(ann, "s.hand.street === 4 && s.hand.pot === 38")

    # 4th street: ann acts first; bob ticks Check/Fold, and it checks for him
    assert wait_turn([ann, bob]) is ann
    bob.check("input.pre-box[data-pre='check_fold']")
    assert bob.locator("input.pre-box[data-pre='fold']").is_checked() is False
    screenshot(bob, "pre-action-box")
    ann.click("button.act-check")
    wait_state(bob, "s.log.includes('Your Check/Fold box: checked')")
    wait_state(bob, "s.log.includes('bob checks')")
    expect(bob.locator("input.pre-box:checked")).to_have_count(0)  # used, so cleared
    play([ann, bob], SHOWDOWN_SHOWN)
    for page in (ann, bob):
        wait_state(page, SHOWDOWN_SHOWN)
        result = page.locator(".results").inner_text()
        assert "Main pot 38" in result and "bob, Straight, king high: 38" in result, result
        assert page.locator(".no-low").count() == 1

    # the next hand (the same deck): ann ticks Check/Fold while bob brings in: it folds
    first = state(ann, "s.hand.id")
    wait_state(ann, f"s.hand && s.hand.id !== '{first}' && s.hand.to_act === 2")
    ann.check("input.pre-box[data-pre='check_fold']")
    assert wait_turn([bob]) is bob
    bob.click("button.act-bring_in")
    wait_state(ann, "s.log.includes('Your Check/Fold box: folded') && " + HAND_OVER)
    assert state(ann, "s.hand.seats[1].folded") is True

    # the plain Fold box folds even when a check is free (a real room's rule); no box
    # acts at a bring-in turn (tests/web/test_pre_actions.py: every box)
    choice = ann.evaluate(
        """async () => {
          const { preActionChoice } = await import('/actions.js');
          const at = (kind, legal) => {
            const kinds = preActionChoice({
              preAction: { kind, hand: 'h', street: 4, current: 0 },
              hand: { id: 'h', street: 4, pot: 10, seats: { 1: { bet: 0, stack: 50 } } }, mySeat: 1,
              turn: { seat: 1, legal: legal.map((k) => ({ kind: k })) } });
            return kinds && kinds.kind;
          };
          return [at('fold', ['fold', 'check', 'bet']),
                  at('check_fold', ['fold', 'check', 'bet']),
                  at('check_fold', ['fold', 'call', 'raise']),
                  at('fold', ['bring_in', 'complete'])];
        }"""
    )
    assert choice == ["fold", "check", "fold", None]
    # the presets in no limit and pot limit: pot 20, 10 to call, so the pot after the
    # call is 30: half the pot is 10 + 15, the pot 10 + 30; all-in only when it is the most
    sizes = ann.evaluate(
        """async () => {
          const { presets } = await import('/sizing.js');
          const at = (stack, max, structure) => presets(
            { mySeat: 1, hand: { pot: 20, seats: { 1: { bet: 0, stack }, 2: { bet: 10 } } } },
            { kind: 'raise', min_to: 20, max_to: max }, structure).map((p) => p.name + ' ' + p.to);
          return [at(50, 50, 'no_limit'), at(50, 40, 'pot_limit'), at(30, 30, 'pot_limit')];
        }"""
    )
    assert sizes == [
        ["half 25", "pot 40", "all-in 50"],
        ["half 25", "pot 40"],
        ["half 25", "pot 30", "all-in 30"],
    ]
    assert players.room.audit()
    assert players.console.errors == []


def test_the_clock_runs_out_and_the_time_out_rule_is_shown(stage: Stage) -> None:
    """1 second to act and a 1-second time bank: nobody acts but to call the bring-in."""
    spec = TableSpec(bots=0, action_seconds=1, time_bank_seconds=1, between_hands=1)
    players = stage.start(start_room(spec))
    ann, bob = players.new("ann"), players.new("bob")
    brief = bob.locator('tr[data-table="t1"] .rules-brief').inner_text()
    assert brief == "1+1 s · all-in protection · no rake", brief
    sit(ann), sit(bob)
    wait_state(ann, "s.hand && s.hand.bring_in_seat !== null")
    rules = ann.locator("#rules-list li").all_text_contents()  # the panel is closed
    assert rules[1].startswith("If your time runs out, you fold if you have put nothing in")
    assert "all-in for what you have put in (all-in protection)" in rules[1], rules
    low = state(ann, "s.hand.bring_in_seat")
    low_name = "ann" if low == state(ann, "s.mySeat") else "bob"
    other = bob if low_name == "ann" else ann
    # the time bank shows (its clock turns red), then time runs out: the bring-in is posted
    ann.wait_for_selector(".seat.to-act .clock.bank")
    notice = ann.locator("#notice")
    notice.wait_for(state="visible")
    assert notice.inner_text() == (
        f"Time ran out for {low_name}: the bring-in is posted for the player;"
        " the player sits out from the next hand until back"
    )
    assert ann.locator(f'.seat[data-seat="{low}"] .badge.timed-out').count() == 1
    assert wait_turn([ann, bob], timeout=5) is other
    other.click("button.act-call")
    # 4th street: whoever acts first has put in more than his ante: all-in protection
    expect(notice).to_contain_text("all-in protection", timeout=8_000)
    text = notice.inner_text()
    assert text.startswith("Time ran out for ") and text.endswith(
        "all-in protection, the player stays in for the 3 chips put in and takes no further"
        " action; the player sits out from the next hand until back"
    ), text
    assert "timed out" in ann.locator(".seat .badge.timed-out").first.inner_text()
    screenshot(ann, "time-out")
    wait_state(ann, HAND_OVER, timeout=10_000)  # no more betting: the cards are dealt out
    assert any("all-in protection" in line for line in state(bob, "s.log"))
    assert players.room.audit()
    assert players.console.errors == []


# ann (seat 1): As Js / 2c / Ah 7c Jd / 3h: aces and jacks, no low. bob (seat 2, the
# short stack): Ks Ts / Kd / 3s 8d 6s / 2d. carol (seat 3): Qs 9s / Qh / 4d 5h Th / 9c.
# ann's deuce brings in; on 4th street her ace shows highest: she acts first.
SIDE_POT_DECK = "As Ks Qs Js Ts 9s 2c Kd Qh Ah 3s 4d 7c 8d 5h Jd 6s Th 3h 2d 9c"


def pots_shown(page: Page) -> list[tuple[str, str]]:
    """The pots in the middle of the table: (what shows, who is in it on hover)."""
    return [
        (item.inner_text().split("\n")[0], item.get_attribute("title") or "")
        for item in page.locator(".centre .pots .side-pot").all()
    ]


def test_a_short_stack_all_in_and_the_side_pot_at_a_no_limit_table(stage: Stage) -> None:
    """(Two seconds before a hand: carol sits right after bob.)"""
    spec = TableSpec(bots=0, structure="no_limit", min_buy_in=20, between_hands=2)
    players = stage.start(start_room(spec, decks=[SIDE_POT_DECK]))
    ann, bob = players.new("ann"), players.new("bob")
    carol = players.new("carol", viewport=PHONE)
    asked: list[str] = []
    ann.on("request", lambda r: asked.append(r.url))
    assert sit(ann) == 1
    lobby_calls = sum("/api/v1/tables" in url for url in asked)
    # the table's rules come with the welcome: the header and the rules panel
    assert ann.locator("#table-info").inner_text() == "Stud Hi/Lo No Limit 4/8, ante 1"
    assert state(ann, "s.rules.buy_in.min") == 20 and state(ann, "s.rules.seats") == 8
    rules = ann.locator("#rules-list li").all_text_contents()
    assert "Buy-in 20 to 400 chips." in rules, rules
    assert (
        "If you lose your connection during your turn, you get 20 seconds more when you "
        "come back, once a turn." in rules
    ), rules
    # bob and carol sit from the table, each in his seat, the buy-in range the rules'
    for page, seat, chips in ((bob, 2, "20"), (carol, 3, "200")):
        page.click('button.observe[data-table="t1"]')
        page.click(f'.seat[data-seat="{seat}"] button.sit-here')
        assert page.locator("#md-range").inner_text() == "20 to 400 chips"
        page.fill("#md-amount", chips)
    bob.click("#md-ok")
    carol.click("#md-ok")
    wait_state(carol, "s.mySeat === 3 && s.seats[2] && s.seats[2].chips === 20")
    everyone = [ann, bob, carol]

    # 3rd street: ann brings in, bob completes all-in for his 19, carol and ann call
    assert wait_turn(everyone) is ann
    ann.click("button.act-bring_in")
    assert wait_turn(everyone) is bob
    assert presets(bob)["all-in"] == 19
    bob.click(".sizer .preset[data-name='all-in']")
    assert labels(bob)[2] == "Complete to 19 all-in"
    bob.click("button.act-complete")
    assert wait_turn(everyone) is carol
    carol.click("button.act-call")
    assert wait_turn(everyone) is ann
    ann.click("button.act-call")
    # one pot so far: everyone has put in 20
    wait_state(carol, "s.hand.street === 4 && s.hand.pot === 60")
    assert carol.locator(".centre .pot").inner_text() == "Pot 60"
    assert pots_shown(carol) == []

    # 4th street: ann bets 40; the side pot is hers and carol's, and grows as carol calls
    assert wait_turn(everyone) is ann
    ann.fill(".sizer .amount", "40")
    ann.click("button.act-bet")
    main = ("Main pot 60", "ann, bob and carol")
    for page in everyone:
        expect(page.locator(".centre .pot")).to_have_text("Total 100")
        assert pots_shown(page) == [main, ("Side pot 1 40", "ann and carol")]
    said = carol.locator(".side-pot .sr-only").all_text_contents()
    assert said == [", for ann, bob and carol", ", for ann and carol"], said
    screenshot(carol, "phone-side-pot")
    assert_apart(layout_boxes(carol), PHONE)  # the pots fit between the seats on a phone
    assert wait_turn(everyone) is carol
    carol.click("button.act-call")
    for page in everyone:
        expect(page.locator(".centre .pot")).to_have_text("Total 140")
        assert pots_shown(page) == [main, ("Side pot 1 80", "ann and carol")]
    screenshot(ann, "side-pot")
    # the same pots after a reload (from the snapshot)
    bob.reload()
    wait_state(bob, "s.hand && s.hand.pot === 140")
    assert pots_shown(bob) == [main, ("Side pot 1 80", "ann and carol")]

    # checked down to the showdown: each pot paid on its own
    play(everyone, SHOWDOWN_SHOWN)
    wait_state(bob, SHOWDOWN_SHOWN)
    heads = bob.locator(".results .pot-head").all_inner_texts()
    assert heads == ["Main pot 60", "Side pot 1 80"], heads
    # the hand history, from the room in memory
    ann.click("#history-panel summary")
    ann.wait_for_selector("#hist-list .hh")
    history = ann.locator("#hist-list .hh pre").first.text_content() or ""
    assert "Total pot 140 Main pot 60. Side pot 80." in history, history
    assert sum("/api/v1/tables" in url for url in asked) == lobby_calls  # the table view asks not

    # the client's pots are the engine's, hand after hand (random short stacks)
    assert check_client_pots(ann) > 20
    assert players.room.audit()
    assert players.console.errors == []
