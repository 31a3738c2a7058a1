"""The chip ledger: every kind of movement, the refusals, hands played by the
engine settled and refunded, the audit, and two threads writing at once.

Runs on a fresh SQLite file, and on PostgreSQL too when
``STUD8_TEST_POSTGRES_URL`` names a database the tests may wipe.
"""

from __future__ import annotations

import os
import random
import threading
from fractions import Fraction

import pytest
from sqlalchemy import func, select, text

from stud8.core import Hand
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.rules import TableRules
from stud8.server.books.ledger import (
    ISSUANCE,
    DuplicateHandError,
    HandMoney,
    Ledger,
    LedgerError,
    OverdraftError,
    UnbalancedTransactionError,
    UnknownAccountError,
    bank,
    pot,
    rake_account,
    table_account,
)
from stud8.server.storage import Entry, Transaction

POSTGRES_URL = os.environ.get("STUD8_TEST_POSTGRES_URL", "")
NO_POSTGRES = "STUD8_TEST_POSTGRES_URL is not set (the CI script sets it to a scratch database)"


def counts(ledger: Ledger) -> tuple[int, int]:
    with ledger.engine.connect() as connection:
        txns = connection.scalar(select(func.count()).select_from(Transaction.__table__))
        entries = connection.scalar(select(func.count()).select_from(Entry.__table__))
    return txns or 0, entries or 0


def seated(ledger: Ledger, stacks: dict[str, int], table: str = "t1") -> None:
    for player, chips in stacks.items():
        ledger.grant(player, 1000)
        ledger.buy_in(player, table, chips)


# ------------------------------------------------------- every movement
def test_grant_buy_in_top_up_cash_out_and_rake(ledger: Ledger) -> None:
    grant = ledger.grant("ann", 1000, memo="welcome")
    assert ledger.entries(grant) == [(ISSUANCE, -1000), (bank("ann"), 1000)]
    ledger.buy_in("ann", "t1", 200)
    ledger.top_up("ann", "t1", 50)
    assert ledger.balance(bank("ann")) == 750
    assert ledger.balance(table_account("t1", "ann")) == 250
    ledger.take_rake("ann", "t1", 3, memo="time charge")
    out = ledger.cash_out("ann", "t1", 100)
    assert ledger.entries(out) == [(table_account("t1", "ann"), -100), (bank("ann"), 100)]
    ledger.cash_out("ann", "t1")  # the rest
    assert ledger.balances() == {
        "bank:ann": 997,
        ISSUANCE: -1000,
        rake_account("t1"): 3,
        "table:t1:ann": 0,
    }
    report = ledger.audit()
    assert report.ok, str(report)
    assert (report.issued, report.banks, report.tables, report.rake) == (1000, 997, 0, 3)
    assert report.transactions == 6
    assert report.entries == 12


def test_a_second_grant_tops_up_play_money(ledger: Ledger) -> None:
    ledger.grant("ann", 100)
    ledger.grant("ann", 400)
    assert ledger.balance(bank("ann")) == 500
    assert ledger.audit().issued == 500


# ------------------------------------------------------------- refusals
def refused(ledger: Ledger, error: type[LedgerError], call: object, *args: object) -> None:
    """The call raises ``error`` and writes nothing."""
    before = counts(ledger), ledger.balances()
    with pytest.raises(error):
        call(*args)  # type: ignore[operator]
    assert (counts(ledger), ledger.balances()) == before
    assert ledger.audit().ok


def test_unbalanced_transactions_are_refused(ledger: Ledger) -> None:
    seated(ledger, {"ann": 100, "bob": 100})
    legs = [(bank("ann"), -10), (bank("bob"), 9)]
    refused(ledger, UnbalancedTransactionError, ledger.transfer, "buy_in", legs)
    money = HandMoney({"ann": 10, "bob": 10}, {"ann": 19}, rake=0)
    refused(ledger, UnbalancedTransactionError, ledger.settle_hand, "h1", "t1", money)
    assert issubclass(UnbalancedTransactionError, ValueError)


def test_overdrafts_are_refused(ledger: Ledger) -> None:
    seated(ledger, {"ann": 100, "bob": 100})
    refused(ledger, OverdraftError, ledger.buy_in, "ann", "t1", 901)
    refused(ledger, OverdraftError, ledger.cash_out, "bob", "t1", 101)
    refused(ledger, OverdraftError, ledger.take_rake, "bob", "t1", 101)
    # ann cannot lose more than her stack, even if she wins some back
    money = HandMoney({"ann": 150, "bob": 150}, {"ann": 300})
    refused(ledger, OverdraftError, ledger.settle_hand, "h1", "t1", money)
    # chips may go back to the issuance account, but not more than a bank holds
    ledger.transfer("grant", [(bank("ann"), -900), (ISSUANCE, 900)], memo="take back")
    refused(ledger, OverdraftError, ledger.transfer, "grant", [(bank("ann"), -1), (ISSUANCE, 1)])
    assert ledger.balance(ISSUANCE) == -1100


def test_unknown_accounts_are_refused(ledger: Ledger) -> None:
    ledger.grant("ann", 100)
    refused(ledger, UnknownAccountError, ledger.buy_in, "nobody", "t1", 10)
    refused(ledger, UnknownAccountError, ledger.top_up, "ann", "t1", 10)  # not seated there
    refused(ledger, UnknownAccountError, ledger.cash_out, "ann", "t1", 10)
    money = HandMoney({"ann": 5, "cat": 5}, {"ann": 10})
    refused(ledger, UnknownAccountError, ledger.settle_hand, "h1", "t1", money)
    with pytest.raises(UnknownAccountError):
        ledger.balance(bank("nobody"))


def test_bad_amounts_and_names_are_refused(ledger: Ledger) -> None:
    ledger.grant("ann", 100)
    for amount in (0, -5, True, 2.5):
        refused(ledger, LedgerError, ledger.buy_in, "ann", "t1", amount)
    refused(ledger, LedgerError, ledger.grant, "a:b", 10)
    refused(ledger, LedgerError, ledger.transfer, "grant", [(bank("ann"), 1.0), (ISSUANCE, -1.0)])
    money = HandMoney({"ann": -5}, {}, rake=-5)
    refused(ledger, LedgerError, ledger.settle_hand, "h1", "t1", money)


def test_a_hand_is_settled_once(ledger: Ledger) -> None:
    seated(ledger, {"ann": 100, "bob": 100})
    money = HandMoney({"ann": 20, "bob": 20}, {"bob": 38}, rake=2)
    first = ledger.settle_hand("h1", "t1", money)
    assert ledger.hand_transaction("h1") == (first, "hand_settlement")
    refused(ledger, DuplicateHandError, ledger.settle_hand, "h1", "t1", money)
    refused(ledger, DuplicateHandError, ledger.refund_hand, "h1", "t1", {"ann": 20})
    with pytest.raises(DuplicateHandError) as caught:
        ledger.settle_hand("h1", "t1", money)
    assert (caught.value.hand_id, caught.value.transaction_id) == ("h1", first)
    assert ledger.balance(table_account("t1", "ann")) == 80
    assert ledger.balance(table_account("t1", "bob")) == 118
    assert ledger.balance(rake_account("t1")) == 2
    assert ledger.balance(pot("t1")) == 0


def test_a_player_who_put_in_nothing_is_left_alone(ledger: Ledger) -> None:
    seated(ledger, {"ann": 100, "bob": 100, "cat": 100})
    ledger.settle_hand("h1", "t1", HandMoney({"ann": 30, "bob": 0, "cat": 0}, {"bob": 27}, 3))
    assert ledger.balances("table:") == {
        "table:t1:ann": 70,
        "table:t1:bob": 127,
        "table:t1:cat": 100,
    }
    assert ledger.audit().ok


# --------------------------------------------------- real engine hands
RULES = TableRules(
    ante=1, bring_in=2, small_bet=5, big_bet=10, rake_percent=Fraction(5), rake_cap=6
)
PLAYERS = {1: "ann", 3: "bob", 6: "cat"}


def play(hand: Hand, rng: random.Random, actions: int | None = None) -> None:
    """Random legal actions (folding rarely) until the hand ends or ``actions`` are made."""
    done = 0
    while not hand.is_over and (actions is None or done < actions):
        legal = hand.legal_actions()
        choices = [a for a in legal if a.kind is not ActionKind.FOLD] or list(legal)
        if rng.random() < 0.05:
            choices = list(legal)
        choice = rng.choice(choices)
        sized = choice.kind in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)
        hand.apply(make_action(choice.kind, choice.min_to if sized else None))
        done += 1


def test_settle_engine_hands_and_the_audit_balances(ledger: Ledger) -> None:
    stacks = {1: 150, 3: 120, 6: 90}
    seated(ledger, {PLAYERS[s]: chips for s, chips in stacks.items()})
    rng = random.Random(5)
    raked = showdowns = 0
    for number in range(12):
        hand = Hand.start(
            rules=RULES, stacks=stacks, deck=Deck.seeded(number), hand_id=f"h{number}"
        )
        play(hand, rng)
        result = hand.result
        assert result is not None
        money = HandMoney.from_result(result, PLAYERS)
        net = {p: money.payouts.get(p, 0) - c for p, c in money.contributions.items()}
        assert net == {PLAYERS[s]: w for s, w in result.winnings.items()}
        ledger.settle_hand(hand.hand_id, "t1", money)
        stacks = dict(result.stacks)
        assert ledger.balances("table:") == {
            table_account("t1", PLAYERS[s]): chips for s, chips in stacks.items()
        }
        raked += result.rake > 0
        showdowns += result.showdown
        stacks = {s: c for s, c in stacks.items() if c > RULES.ante}
        if len(stacks) < 2:
            break
    assert raked and showdowns  # the test covers rake and showdowns
    report = ledger.audit()
    assert report.ok, str(report)
    assert report.rake == ledger.balance(rake_account("t1")) > 0
    assert report.issued == 3000
    assert report.tables + report.rake == 360


def test_refund_a_cancelled_engine_hand(ledger: Ledger) -> None:
    stacks = {1: 150, 3: 120, 6: 90}
    seated(ledger, {PLAYERS[s]: chips for s, chips in stacks.items()})
    hand = Hand.start(rules=RULES, stacks=stacks, deck=Deck.seeded(7), hand_id="h-crash")
    play(hand, random.Random(1), actions=5)
    assert not hand.is_over
    events = hand.cancel("server restart")
    refunds = HandMoney.refunds(events, PLAYERS)
    assert sum(refunds.values()) > 3  # more than the antes went in
    txn = ledger.refund_hand("h-crash", "t1", refunds)
    assert ledger.hand_transaction("h-crash") == (txn, "refund")
    legs = ledger.entries(txn)
    assert sum(-a for name, a in legs if name.startswith("table:") and a < 0) == sum(
        refunds.values()
    )
    assert ledger.balances("table:") == {
        table_account("t1", PLAYERS[s]): chips for s, chips in stacks.items()
    }
    refused(ledger, DuplicateHandError, ledger.refund_hand, "h-crash", "t1", refunds)
    report = ledger.audit()
    assert report.ok, str(report)
    assert report.tables == 360 and report.rake == 0


def test_refunds_need_a_cancelled_hand() -> None:
    hand = Hand.start(rules=RULES, stacks={1: 50, 3: 50}, deck=Deck.seeded(1))
    with pytest.raises(LedgerError):
        HandMoney.refunds(hand.events, PLAYERS)


# ---------------------------------------------------------------- audit
def test_the_audit_finds_tampered_books(ledger: Ledger) -> None:
    seated(ledger, {"ann": 100, "bob": 100})
    assert ledger.audit().ok
    with ledger.engine.begin() as connection:
        connection.execute(
            text("UPDATE accounts SET balance = balance + 5 WHERE name = 'bank:ann'")
        )
    report = ledger.audit()
    assert not report.ok
    assert any("bank:ann" in p for p in report.problems), str(report)
    with ledger.engine.begin() as connection:
        connection.execute(
            text("UPDATE accounts SET balance = balance - 5 WHERE name = 'bank:ann'")
        )
        account = connection.scalar(text("SELECT id FROM accounts WHERE name = 'bank:bob'"))
        connection.execute(
            text("INSERT INTO entries (transaction_id, account_id, amount) VALUES (1, :a, 7)"),
            {"a": account},
        )
        connection.execute(
            text("UPDATE accounts SET balance = balance + 7 WHERE id = :a"), {"a": account}
        )
    report = ledger.audit()
    assert any("transaction 1 sums to" in p for p in report.problems), str(report)
    assert any("issued 2000 != held 2007" in p for p in report.problems), str(report)
    assert "PROBLEM" in str(report)


# ---------------------------------------------------------- concurrency
def test_two_threads_hammering_the_same_accounts_stay_balanced(ledger: Ledger) -> None:
    seated(ledger, {"ann": 500, "bob": 500})
    errors: list[BaseException] = []
    rounds = 40

    def worker(name: str, other: str) -> None:
        try:
            for i in range(rounds):
                ledger.top_up(name, "t1", 3)
                money = HandMoney({name: 4, other: 0}, {other: 3}, 1)
                ledger.settle_hand(f"{name}-{i}", "t1", money)
                ledger.cash_out(name, "t1", 2)
                ledger.transfer("grant", [(ISSUANCE, -1), (bank(other), 1)])
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    threads = [
        threading.Thread(target=worker, args=("ann", "bob")),
        threading.Thread(target=worker, args=("bob", "ann")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    report = ledger.audit()
    assert report.ok, str(report)
    assert report.issued == 2000 + 2 * rounds
    assert report.rake == 2 * rounds
    # each player: +3 -4 +3 -2 per round at the table; -3 +2 +1 per round in the bank
    assert ledger.balances("table:") == {"table:t1:ann": 500, "table:t1:bob": 500}
    assert ledger.balance(bank("ann")) == ledger.balance(bank("bob")) == 500
    assert report.transactions == 4 + 4 * 2 * rounds
