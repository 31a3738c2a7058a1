"""The hand records: hands stored whole, found by player, written in PokerStars
text as each player saw them; the in-progress notes.

Runs on a fresh SQLite file, and on PostgreSQL too when
``STUD8_TEST_POSTGRES_URL`` names a database the tests may wipe.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, func, select

from stud8.core import Hand
from stud8.core.actions import ActionKind, make_action
from stud8.core.cards import Deck
from stud8.core.events import CardDealt
from stud8.core.rules import TableRules
from stud8.formats.pokerstars.write import HAND_SEPARATOR, to_pokerstars
from stud8.formats.record import HandRecord
from stud8.server.books.hands import HandNotFoundError, HandStore
from stud8.server.storage.models import HandInProgress, HandPlayer

POSTGRES_URL = os.environ.get("STUD8_TEST_POSTGRES_URL", "")
NO_POSTGRES = "STUD8_TEST_POSTGRES_URL is not set (the CI script sets it to a scratch database)"
RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
NAMES = {1: "ann", 2: "bob", 3: "cat"}


def played(
    seed: int, hand_id: str, folder: int | None = 3, names: dict[int, str] = NAMES
) -> HandRecord:
    """A hand played through the engine: ``folder`` folds at his first chance,
    the others check, call or bring in to the end."""
    hand = Hand.start(
        rules=RULES, stacks=dict.fromkeys(names, 100), deck=Deck.seeded(seed), hand_id=hand_id
    )
    while not hand.is_over:
        seat = hand.to_act
        legal = {a.kind for a in hand.legal_actions()}
        if seat == folder and ActionKind.FOLD in legal:
            kind = ActionKind.FOLD
        else:
            kind = next(
                k for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN) if k in legal
            )
        hand.apply(make_action(kind.value, None))
    return HandRecord.from_hand(
        hand, names=names, table="t1", started_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    )


def bracketed_cards(history: str) -> set[str]:
    return {card for group in re.findall(r"\[([^\]]*)\]", history) for card in group.split()}


def down_cards(record: HandRecord, seat: int) -> set[str]:
    return {
        str(e.card)
        for e in record.events
        if isinstance(e, CardDealt) and e.seat == seat and not e.face_up and e.card is not None
    }


def test_a_stored_hand_comes_back_whole(engine: Engine) -> None:
    store = HandStore(engine)
    record = played(1, "h1")
    assert store.store(record)
    found = store.fetch("h1")
    assert found is not None
    assert found.record == record
    assert found.record.dumps() == record.dumps()
    assert found.table == "t1" and not found.cancelled
    assert found.started_at == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert [(s.seat, s.player, s.stack) for s in found.seats] == [
        (1, "ann", 100),
        (2, "bob", 100),
        (3, "cat", 100),
    ]
    assert store.record("h1") == record
    assert store.fetch("nope") is None and store.record("nope") is None


def test_storing_a_hand_twice_changes_nothing(engine: Engine) -> None:
    store = HandStore(engine)
    record = played(2, "h2")
    assert store.store(record)
    assert not store.store(record)
    assert store.count() == 1
    with engine.connect() as connection:
        links = connection.scalar(select(func.count()).select_from(HandPlayer.__table__))
    assert links == 3


def test_hands_of_a_player_latest_first_with_a_limit(engine: Engine) -> None:
    store = HandStore(engine)
    for i in range(5):
        store.store(played(10 + i, f"a{i}"))
    store.store(played(20, "other", names={1: "dan", 2: "eve"}, folder=None))
    assert store.hands_of("ann") == ["a4", "a3", "a2", "a1", "a0"]
    assert store.hands_of("ann", limit=2) == ["a4", "a3"]
    assert store.hands_of("dan") == ["other"]
    assert store.hands_of("nobody") == []
    assert [s.hand_id for s in store.summaries_of("bob", 3)] == ["a4", "a3", "a2"]


def test_the_hands_of_one_table(engine: Engine) -> None:
    store = HandStore(engine)
    for i in range(3):
        store.store(played(30 + i, f"x{i}"))
        if i < 2:
            store.store(replace(played(40 + i, f"y{i}"), table="t2"))
    assert store.hands_of("ann", table="t2") == ["y1", "y0"]
    assert store.hands_of("ann", table="t1") == ["x2", "x1", "x0"]
    assert store.hands_of("ann", limit=1, table="t1") == ["x2"]
    assert store.hands_of("ann", table="t9") == []
    assert store.latest(table="t2") == ["y1", "y0"]
    assert store.latest(2) == ["x2", "y1"]
    mine = store.pokerstars_for("ann", table="t2").split(HAND_SEPARATOR)
    assert len(mine) == 2 and all("Table 't2'" in hand for hand in mine)
    assert store.pokerstars_for("ann", table="t9") == ""
    every = store.pokerstars_for_operator(table="t1").split(HAND_SEPARATOR)
    assert len(every) == 3 and all("Table 't1'" in hand for hand in every)
    assert len(store.pokerstars_for_operator(player="bob", table="t2").split(HAND_SEPARATOR)) == 2


def test_a_player_sees_only_what_he_saw_at_the_table(engine: Engine) -> None:
    store = HandStore(engine)
    record = played(3, "h3", folder=3)
    store.store(record)
    folded = down_cards(record, 3)
    assert len(folded) == 2  # he folded on 3rd street and never showed them

    ann = store.pokerstars_for("ann", ["h3"])
    assert ann == to_pokerstars(record, seat=1)
    assert down_cards(record, 1) <= bracketed_cards(ann)
    assert not folded & bracketed_cards(ann)

    cat = store.pokerstars_for("cat", ["h3"])
    assert cat == to_pokerstars(record, seat=3)
    assert folded <= bracketed_cards(cat)

    everything = store.pokerstars_for_operator(["h3"])
    assert everything == to_pokerstars(record, everything=True)
    assert folded <= bracketed_cards(everything)
    assert store.pokerstars_for_operator(player="cat") == everything


def test_a_player_cannot_read_a_hand_he_did_not_play(engine: Engine) -> None:
    store = HandStore(engine)
    store.store(played(4, "h4", names={1: "ann", 2: "bob"}, folder=None))
    with pytest.raises(HandNotFoundError, match="of yours"):
        store.pokerstars_for("cat", ["h4"])
    with pytest.raises(HandNotFoundError, match="of yours"):
        store.pokerstars_for("ann", ["missing"])
    with pytest.raises(HandNotFoundError):
        store.pokerstars_for_operator(["missing"])


def test_his_latest_hands_joined_in_one_text(engine: Engine) -> None:
    store = HandStore(engine)
    records = [played(30 + i, f"b{i}") for i in range(3)]
    for record in records:
        store.store(record)
    text_ = store.pokerstars_for("bob", limit=2)
    assert text_ == "\n\n\n".join(to_pokerstars(r, seat=2) for r in reversed(records[1:]))
    assert store.pokerstars_for("nobody") == ""


def test_an_in_progress_note_is_closed_with_the_record_in_one_transaction(engine: Engine) -> None:
    store = HandStore(engine)
    record = played(5, "h5")
    store.begin("h5", "t1", {1: ("ann", 100), 2: ("bob", 100), 3: ("cat", 100)})
    store.begin("h5", "t1", {1: ("ann", 100)})  # again: no change
    [noted] = store.in_progress()
    assert noted.hand_id == "h5" and noted.table == "t1"
    assert noted.players == {"ann": 100, "bob": 100, "cat": 100}
    store.store(record)  # as the hand's end does
    assert store.in_progress() == []
    with engine.connect() as connection:
        rows = connection.scalar(select(func.count()).select_from(HandInProgress.__table__))
    assert rows == 0
    assert store.fetch("h5") is not None
