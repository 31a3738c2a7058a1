"""Private tables' invitations kept in the room's database (SQLite and PostgreSQL) and
in memory: a code admits to its table for good, a renewed or revoked code admits
nobody, codes are unguessable and unique, and a restart (a new keeper on the same
database) keeps everything."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import Engine

from server.roomdb import fresh_database
from stud8.server.books.invitations import (
    Invitation,
    Invitations,
    MemoryInvitations,
    StoredInvitations,
    new_code,
)
from stud8.server.storage import create_engine_for, upgrade


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def book(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Invitations]:
    if request.param == "memory":
        yield MemoryInvitations()
        return
    url = fresh_database(request.param, tmp_path)
    upgrade(url)
    engine = create_engine_for(url)
    try:
        yield StoredInvitations(engine)
    finally:
        engine.dispose()


def test_codes_are_long_random_and_url_safe() -> None:
    codes = {new_code() for _ in range(1000)}
    assert len(codes) == 1000
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", c) for c in codes)


def test_a_code_admits_for_good_and_a_new_one_replaces_it(book: Invitations) -> None:
    code = book.invite("home", "ann")
    assert book.invitation("home") == Invitation("home", "ann", code)
    assert book.invitation("away") is None
    assert book.admitted("ann") == {"home"}
    assert book.admitted("bob") == frozenset()
    assert book.redeem("wrong", "bob") is None
    assert book.redeem(code, "bob") == "home"
    assert book.redeem(code, "bob") == "home"  # again: nothing changes
    assert book.admitted("bob") == {"home"}
    renewed = book.renew("home")
    assert renewed != code
    assert book.redeem(code, "cyd") is None
    assert book.redeem(renewed, "cyd") == "home"
    book.revoke("home")
    assert book.invitation("home") == Invitation("home", "ann", None)
    assert book.redeem(renewed, "dee") is None
    assert book.admitted("dee") == frozenset()
    assert book.admitted("bob") == book.admitted("cyd") == {"home"}  # they keep access
    # a second table of ann's: its own code
    other = book.invite("den", "ann")
    assert book.redeem(other, "bob") == "den"
    assert book.admitted("bob") == {"home", "den"}
    with pytest.raises(KeyError):
        book.renew("nope")


def test_the_database_keeps_them_across_a_restart(engine: Engine) -> None:
    code = StoredInvitations(engine).invite("home", "ann")
    StoredInvitations(engine).redeem(code, "bob")
    again = StoredInvitations(engine)
    assert again.invitation("home") == Invitation("home", "ann", code)
    assert again.admitted("bob") == {"home"}


def test_many_redeem_one_code_at_once(book: Invitations) -> None:
    code = book.invite("home", "ann")
    with ThreadPoolExecutor(8) as pool:
        tables = list(pool.map(lambda n: book.redeem(code, f"p{n % 4}"), range(32)))
    assert tables == ["home"] * 32
    assert all(book.admitted(f"p{n}") == {"home"} for n in range(4))
