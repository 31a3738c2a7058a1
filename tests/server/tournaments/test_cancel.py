"""Cancelling a tournament, on SQLite and PostgreSQL: an operator cancels a running one
(in the middle of a hand) and every entry's buy-in and fee go back to its bank (the
documented rule: a cancelled tournament costs nobody anything), the hand in play is
cancelled and kept as such, its tables close, and the audit balances; a scheduled one
without enough entrants at its time is cancelled the same way by its director.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from server.tournaments.tourroom import login, operator, tournament_room, until
from stud8.server.books.ledger import bank
from stud8.server.books.tournaments import fees_account, prizes_account
from stud8.server.storage.models import StoredHand, TournamentEntryRow
from stud8.server.tournaments.manager import definition_of
from stud8.server.wire.tournaments import NewTournament


def test_an_operator_cancels_a_running_tournament_and_everything_goes_back(url: str) -> None:
    asyncio.run(asyncio.wait_for(_cancel_running(url), 120))


async def _cancel_running(url: str) -> None:
    async with tournament_room(url, players={"ann": 1000}) as (http, room, ts):
        # ann is not connected: when she is to act, the hand waits for her clock
        ts.spec = replace(ts.spec, action_seconds=3, time_bank_seconds=0)
        boss = await operator(http)
        ann = await login(http, "ann", "ann-Password-9")
        body = {
            "name": "SNG",
            "structure": "hyper",
            "level_hands": 5,
            "buy_in": 100,
            "fee": 10,
            "table_size": 6,
            "max_entrants": 6,
        }
        r = await http.post("/api/v1/tournaments", json=body, headers=boss)
        tid = r.json()["tournament"]["summary"]["tournament_id"]
        path = f"/api/v1/tournaments/{tid}"
        assert (await http.post(f"{path}/register", headers=ann)).status_code == 200
        r = await http.post(f"{path}/bots", json={"count": 5}, headers=boss)
        bots = r.json()["players"]
        runner = ts.runners[tid]
        table_id = runner.room_table(1)

        def ann_to_act() -> bool:
            table = runner.running.get(table_id)
            hand = table.hand if table is not None else None
            return hand is not None and table is not None and hand.to_act == table.seat_of("ann")

        await until(ann_to_act, 60, "a hand waiting for ann")
        hand_id = runner.running[table_id].hand.hand_id  # type: ignore[union-attr]
        r = await http.delete(path, headers=ann)
        assert r.status_code == 403
        r = await http.delete(path, headers=boss)
        assert r.status_code == 200, r.text

        assert room.ledger.balance(bank("ann")) == 1000
        for name in bots:
            assert room.ledger.balance(bank(name)) == 110  # its buy-in was issued to it
        assert room.ledger.balance(prizes_account(tid)) == 0
        assert room.ledger.balance(fees_account(tid)) == 0
        assert room.ledger.audit().ok
        await until(lambda: not runner.running, 20, "the tables closed")
        with room.engine.connect() as conn:
            cancelled = conn.execute(
                select(StoredHand.cancelled).where(StoredHand.hand_id == hand_id)
            ).scalar()
            statuses = set(
                conn.execute(
                    select(TournamentEntryRow.status).where(TournamentEntryRow.tournament_id == tid)
                ).scalars()
            )
        assert cancelled is True
        assert statuses == {"refunded"}
        detail = (await http.get(path)).json()
        assert detail["summary"]["phase"] == "cancelled"
        assert (await http.delete(path, headers=boss)).status_code == 409
        assert (await http.post(f"{path}/register", headers=ann)).status_code == 409
        assert room.ledger.balance(bank("ann")) == 1000


def test_a_scheduled_tournament_without_enough_entrants_is_cancelled(url: str) -> None:
    asyncio.run(asyncio.wait_for(_too_few(url), 60))


async def _too_few(url: str) -> None:
    async with tournament_room(url, players={"ann": 1000}) as (http, room, ts):
        starts = datetime.now(UTC) + timedelta(seconds=1)
        asked = NewTournament(
            structure="turbo",
            buy_in=20,
            fee=2,
            min_entrants=3,
            start="at_time",
            starts_at=starts.isoformat(),
        )
        tid = await ts.create(definition_of(asked))
        await ts.register(tid, "ann")
        assert room.ledger.balance(bank("ann")) == 978
        runner = ts.runners[tid]
        await until(lambda: runner.over, 20, "the start time")
        assert runner.phase == "cancelled"
        assert room.ledger.balance(bank("ann")) == 1000
        assert room.ledger.balance(prizes_account(tid)) == 0
        assert room.ledger.audit().ok
        listed = (await http.get("/api/v1/tournaments")).json()["tournaments"]
        assert [t["phase"] for t in listed] == ["cancelled"]
