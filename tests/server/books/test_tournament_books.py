"""A tournament's money through the ledger (SQLite and PostgreSQL): the buy-in to the
prize pool and the fee to the house, an unregistration giving both back, the prizes
paid in one transaction, a cancellation returning every buy-in and fee; a player who
cannot pay is refused and nothing is written; the audit counts the prize pools and
the fees and balances at every step.
"""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, select

from stud8.server.books.ledger import Ledger, LedgerError, OverdraftError, bank
from stud8.server.books.tournaments import TournamentStore, fees_account, prizes_account
from stud8.server.storage.models import TournamentEntryRow
from stud8.tournament.director import Phase


def _store(engine: Engine, ledger: Ledger) -> tuple[TournamentStore, int]:
    store = TournamentStore(engine, ledger)
    with engine.begin() as conn:
        tid = store.create_in(conn, "T", {"name": "T"}, Phase.REGISTERING)
    return store, tid


def test_buy_ins_fees_prizes_and_the_audit(engine: Engine, ledger: Ledger) -> None:
    store, tid = _store(engine, ledger)
    for name in ("ann", "bob", "cat"):
        ledger.grant(name, 500)
    with engine.begin() as conn:
        for entry, name in enumerate(("ann", "bob", "cat"), 1):
            store.register_in(conn, tid, entry=entry, player=name, buy_in=100, fee=10)
        store.register_in(conn, tid, entry=4, player="bot1", buy_in=100, fee=10, bot=True)
    assert ledger.balance(prizes_account(tid)) == 400
    assert ledger.balance(fees_account(tid)) == 40
    assert ledger.balance(bank("ann")) == 390 and ledger.balance(bank("bot1")) == 0
    report = ledger.audit()
    assert report.ok and report.prizes == 400 and report.fees == 40, str(report)

    with engine.begin() as conn:  # cat takes his registration back
        store.unregister_in(conn, tid, entry=3, player="cat", buy_in=100, fee=10)
    assert ledger.balance(bank("cat")) == 500
    assert ledger.balance(prizes_account(tid)) == 300 and ledger.balance(fees_account(tid)) == 30

    results = [(1, "ann", 1, 1, 195), (4, "bot1", 2, 1, 105), (2, "bob", 3, 1, 0)]
    with engine.begin() as conn:
        store.pay_prizes_in(conn, tid, results)
    assert ledger.balance(prizes_account(tid)) == 0
    assert ledger.balance(bank("ann")) == 390 + 195 and ledger.balance(bank("bot1")) == 105
    assert ledger.balance(fees_account(tid)) == 30  # the house keeps the fees
    places = {e.player: (e.status, e.place, e.prize) for e in store.entries(tid)}
    assert places == {
        "ann": ("registered", 1, 195),
        "bob": ("registered", 3, 0),
        "cat": ("unregistered", None, 0),
        "bot1": ("registered", 2, 105),
    }
    assert ledger.audit().ok


def test_a_cancel_returns_every_buy_in_and_fee(engine: Engine, ledger: Ledger) -> None:
    store, tid = _store(engine, ledger)
    ledger.grant("ann", 300)
    with engine.begin() as conn:
        store.register_in(conn, tid, entry=1, player="ann", buy_in=100, fee=10)
        store.register_in(conn, tid, entry=2, player="bot7", buy_in=100, fee=10, bot=True)
        store.register_in(conn, tid, entry=3, player="ann", buy_in=100, fee=10)  # re-entry
    assert ledger.balance(bank("ann")) == 300 - 220
    with engine.begin() as conn:
        entries = [(1, "ann"), (2, "bot7"), (3, "ann")]
        store.cancel_in(conn, tid, entries, buy_in=100, fee=10)
    assert ledger.balance(bank("ann")) == 300
    assert ledger.balance(bank("bot7")) == 110
    assert ledger.balance(prizes_account(tid)) == 0 and ledger.balance(fees_account(tid)) == 0
    assert {e.status for e in store.entries(tid)} == {"refunded"}
    assert ledger.audit().ok


def test_a_player_who_cannot_pay_is_refused_and_nothing_is_written(
    engine: Engine, ledger: Ledger
) -> None:
    store, tid = _store(engine, ledger)
    ledger.grant("ann", 50)
    with pytest.raises(OverdraftError), engine.begin() as conn:
        store.register_in(conn, tid, entry=1, player="ann", buy_in=100, fee=10)
    with pytest.raises(LedgerError), engine.begin() as conn:  # no account at all
        store.register_in(conn, tid, entry=1, player="nobody", buy_in=1, fee=0)
    assert ledger.balance(bank("ann")) == 50
    with engine.connect() as conn:
        assert conn.execute(select(TournamentEntryRow.id)).first() is None
    assert ledger.balances("prizes:") == {} and ledger.audit().ok


def test_a_freeroll_moves_no_chip(engine: Engine, ledger: Ledger) -> None:
    store, tid = _store(engine, ledger)
    with engine.begin() as conn:
        store.register_in(conn, tid, entry=1, player="ann", buy_in=0, fee=0)
        store.pay_prizes_in(conn, tid, [(1, "ann", 1, 1, 0)])
    assert ledger.balances("bank:") == {} and ledger.audit().ok
    assert [e.place for e in store.entries(tid)] == [1]
