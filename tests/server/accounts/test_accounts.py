"""Accounts: registration with opening chips, argon2id passwords, session tokens
stored hashed with an expiry, roles, and the refusals.

Runs on a fresh SQLite file, and on PostgreSQL too when
``STUD8_TEST_POSTGRES_URL`` names a database the tests may wipe.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher, Type
from sqlalchemy import event, select

from stud8.server.accounts.accounts import (
    BAD_LOGIN,
    Accounts,
    BadLoginError,
    BadNameError,
    BannedError,
    NameTakenError,
    UnknownPlayerError,
    WeakPasswordError,
    default_hasher,
)
from stud8.server.books.ledger import Ledger, LedgerError, bank
from stud8.server.storage.models import LoginSession
from stud8.server.storage.models import Player as PlayerRow

POSTGRES_URL = os.environ.get("STUD8_TEST_POSTGRES_URL", "")
NO_POSTGRES = "STUD8_TEST_POSTGRES_URL is not set (the CI script sets it to a scratch database)"
FAST = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)  # argon2id, cheap for tests


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def accounts(ledger: Ledger, clock: Clock) -> Accounts:
    return Accounts(ledger.engine, ledger, hasher=FAST, clock=clock)


def test_register_grants_the_opening_chips_through_the_ledger(
    accounts: Accounts, ledger: Ledger
) -> None:
    ann = accounts.register("ann", "pw-alpha-1")
    assert (ann.name, ann.role, ann.is_operator) == ("ann", "player", False)
    assert ledger.balance(bank("ann")) == 10_000
    other = Accounts(ledger.engine, ledger, hasher=FAST, opening_chips=250)
    other.register("bob_2", "pw-bravo-2")
    assert ledger.balance(bank("bob_2")) == 250
    report = ledger.audit()
    assert report.ok and report.issued == 10_250
    assert accounts.get("ANN") == ann


def test_the_password_is_stored_as_an_argon2id_hash(accounts: Accounts, ledger: Ledger) -> None:
    accounts.register("ann", "pw-alpha-1")
    with ledger.engine.connect() as connection:
        stored = connection.scalar(select(PlayerRow.password_hash))
    assert stored is not None and stored.startswith("$argon2id$")
    assert "pw-alpha-1" not in stored


def test_names_are_validated_and_unique_in_any_case(accounts: Accounts, ledger: Ledger) -> None:
    for bad in ("ab", "a" * 21, "ann smith", "ann:1", "änn", "", "x/y"):
        with pytest.raises(BadNameError):
            accounts.register(bad, "pw-alpha-1")
    accounts.register("Ann-1", "pw-alpha-1")
    for taken in ("Ann-1", "ann-1", "ANN-1"):
        with pytest.raises(NameTakenError, match="taken"):
            accounts.register(taken, "pw-bravo-2")
    assert ledger.balance(bank("Ann-1")) == 10_000  # granted once
    assert ledger.balances("bank:") == {"bank:Ann-1": 10_000}


def test_weak_passwords_are_refused(accounts: Accounts, ledger: Ledger) -> None:
    for weak in ("", "1234567", "xy" * 513, "12345678"):
        with pytest.raises(WeakPasswordError):
            accounts.register("ann", weak)
    assert accounts.get("ann") is None
    assert ledger.balances("bank:") == {}
    assert accounts.register("ann", "8-chars!").name == "ann"


def test_errors_are_value_errors() -> None:
    for error in (BadLoginError, BadNameError, NameTakenError, WeakPasswordError):
        assert issubclass(error, ValueError)


def test_each_refusal_is_of_the_kind_the_app_answers() -> None:
    # one hierarchy: the room's accounts and the in-memory accounts raise the same
    # classes, and each is of the kind the app maps to its status (http/errors.py)
    from stud8.server.accounts.auth import MemoryAuth
    from stud8.server.http.errors import STATUS_OF

    memory = MemoryAuth()
    asyncio.run(memory.register("ann", "pw-alpha-1"))
    with pytest.raises(NameTakenError):
        asyncio.run(memory.register("ANN", "pw-alpha-1"))
    status = {
        BadNameError: 400,
        WeakPasswordError: 400,
        NameTakenError: 409,
        BadLoginError: 401,
        BannedError: 401,
        UnknownPlayerError: 404,
    }
    for error, expected in status.items():
        kinds = [kind for kind in STATUS_OF if issubclass(error, kind)]
        assert [STATUS_OF[kind] for kind in kinds] == [expected], error


def test_login_gives_a_token_stored_only_hashed(accounts: Accounts, ledger: Ledger) -> None:
    accounts.register("ann", "pw-alpha-1")
    token = accounts.login("ann", "pw-alpha-1")
    again = accounts.login("Ann", "pw-alpha-1")  # names are found in any case
    assert token != again and len(token) >= 40
    player = accounts.player_for_token(token)
    assert player is not None and player.name == "ann"
    with ledger.engine.connect() as connection:
        stored = set(connection.scalars(select(LoginSession.token_hash)))
    assert hashlib.sha256(token.encode()).hexdigest() in stored
    assert token not in stored and len(stored) == 2


def test_unknown_name_and_wrong_password_get_the_same_refusal(accounts: Accounts) -> None:
    accounts.register("ann", "pw-alpha-1")
    with pytest.raises(BadLoginError) as wrong:
        accounts.login("ann", "pw-bravo-2")
    with pytest.raises(BadLoginError) as unknown:
        accounts.login("nobody", "pw-alpha-1")
    assert str(wrong.value) == str(unknown.value) == BAD_LOGIN
    with pytest.raises(BadLoginError):
        accounts.login("ann", "")


def test_tokens_expire_and_log_out(accounts: Accounts, clock: Clock) -> None:
    accounts.register("ann", "pw-alpha-1")
    token = accounts.login("ann", "pw-alpha-1")
    other = accounts.login("ann", "pw-alpha-1")
    clock.now += timedelta(days=29)
    assert accounts.player_for_token(token) is not None
    accounts.logout(token)
    assert accounts.player_for_token(token) is None
    assert accounts.player_for_token(other) is not None
    accounts.logout(token)  # again: nothing happens
    clock.now += timedelta(days=2)  # past the 30 days
    assert accounts.player_for_token(other) is None
    assert accounts.purge_expired() == 1
    for junk in ("", "x" * 500, "not-a-token"):
        assert accounts.player_for_token(junk) is None


def test_log_out_everywhere_and_change_password(accounts: Accounts) -> None:
    accounts.register("ann", "pw-alpha-1")
    tokens = [accounts.login("ann", "pw-alpha-1") for _ in range(3)]
    assert accounts.logout_everywhere("ann") == 3
    assert all(accounts.player_for_token(t) is None for t in tokens)
    token = accounts.login("ann", "pw-alpha-1")
    with pytest.raises(BadLoginError):
        accounts.change_password("ann", "wrong-one", "pw-niner-9")
    accounts.change_password("ann", "pw-alpha-1", "pw-niner-9")
    assert accounts.player_for_token(token) is None
    with pytest.raises(BadLoginError):
        accounts.login("ann", "pw-alpha-1")
    assert accounts.login("ann", "pw-niner-9")


def test_operators(accounts: Accounts) -> None:
    accounts.register("ann", "pw-alpha-1")
    token = accounts.login("ann", "pw-alpha-1")
    boss = accounts.make_operator("ann")
    assert boss.is_operator and boss.role == "operator"
    player = accounts.player_for_token(token)
    assert player is not None and player.is_operator
    assert not accounts.make_player("ann").is_operator
    with pytest.raises(UnknownPlayerError):
        accounts.make_operator("nobody")


def test_a_hash_with_old_parameters_is_upgraded_at_login(
    ledger: Ledger, accounts: Accounts
) -> None:
    accounts.register("ann", "pw-alpha-1")
    stronger = PasswordHasher(time_cost=2, memory_cost=128, parallelism=1)
    upgraded = Accounts(ledger.engine, ledger, hasher=stronger)
    upgraded.login("ann", "pw-alpha-1")
    with ledger.engine.connect() as connection:
        stored = connection.scalar(select(PlayerRow.password_hash))
    assert stored is not None and "m=128,t=2" in stored
    assert upgraded.login("ann", "pw-alpha-1")


def test_the_default_hasher_is_argon2id_at_owasp_strength() -> None:
    hasher = default_hasher()
    assert hasher.type is Type.ID
    # OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane (never weaker than that)
    assert hasher.memory_cost >= 19_456 and hasher.time_cost >= 2 and hasher.parallelism >= 1
    stored = hasher.hash("pw-alpha-1")
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert hasher.verify(stored, "pw-alpha-1")


def test_a_registration_and_its_opening_chips_are_one_transaction(
    accounts: Accounts, ledger: Ledger
) -> None:
    """The player's row and his grant commit together: if the grant fails,
    no player is left without his chips."""
    commits: list[int] = []
    event.listen(ledger.engine, "commit", lambda _conn: commits.append(1))
    accounts.register("ann", "pw-alpha-1")
    assert len(commits) == 1

    class Refusing(Ledger):
        def grant(self, *_args: object, **_kwargs: object) -> int:
            raise LedgerError("the ledger refuses")

    broken = Accounts(ledger.engine, Refusing(ledger.engine), hasher=FAST)
    with pytest.raises(LedgerError):
        broken.register("bob", "pw-bravo-2")
    assert accounts.get("bob") is None
    assert ledger.audit().ok and ledger.audit().issued == 10_000
