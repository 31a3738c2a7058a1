"""The auto top-up on two nodes (issue 28, item 7): ann plays through the node that
does not own her table; her setting reaches the table on the other node with her
``Connect`` and, when she changes it there, as ``AutoTopUp`` over the bus; the
owner tops her up after a hand she lost, and the ledger and the audit of the books
against the hands and seats agree.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from server.cluster.inprocess import SPEC, cluster, operator, owner, until
from server.roomclient import Msg, passive, play, sit
from server.roomdb import fresh_database
from stud8.server.books.consistency import hands_and_seats
from stud8.server.books.ledger import Ledger
from stud8.server.storage import create_engine_for


def folds(turn: Msg) -> dict[str, Any]:
    kinds = [a["kind"] for a in turn["d"]["legal"]]
    return {"kind": "fold"} if "fold" in kinds else passive(turn)


def test_the_setting_crosses_the_bus_and_the_owner_tops_up(tmp_path: Path, redis_url: str) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = await operator(a)
            r = await a.http.post(
                "/api/v1/tables",
                json={"table_id": "t1", **SPEC},
                headers={"Authorization": f"Bearer {boss}"},
            )
            assert r.status_code == 201, r.text
            home = await owner(redis_url, "t1")
            here, away = (a, b) if home == "a" else (b, a)
            ann, bob = await away.player("ann"), await here.player("bob")
            mine = {"Authorization": f"Bearer {ann}"}
            on = {"auto_top_up": True}
            assert (await away.http.put("/api/v1/settings", json=on, headers=mine)).is_success
            async with away.connect(ann) as c1, here.connect(bob) as c2:
                await sit(away, c1, 1, 100)
                await sit(here, c2, 2, 100)
                table = here.table("t1")
                assert table.seats[1].auto_top_up  # told with her Connect, over the bus
                await asyncio.gather(play(c1, 1, folds), play(c2, 1))
                up = await c1.until(lambda m: m["t"] == "event" and m["d"]["k"] == "top_up")
                assert up["d"]["auto"] is True and up["d"]["chips"] == 100
                # turned off through the node she plays on: the owner hears it over the bus
                await until("the owner's directory lists ann", lambda: "ann" in statuses(away))
                off = {"auto_top_up": False}
                r = await away.http.put("/api/v1/settings", json=off, headers=mine)
                assert r.is_success and not table.seats[1].auto_top_up

    asyncio.run(asyncio.wait_for(main(), 90))
    engine = create_engine_for(pg)
    try:
        report = Ledger(engine).audit()
        assert report.ok, report
        assert hands_and_seats(engine) == []
    finally:
        engine.dispose()


def statuses(node: Any) -> set[str]:
    """Every player the node's directory lists at a table."""
    bus = node.room.app.state.room.edge.bus
    return {p for listed in bus.directory().values() for p in listed.status.players}
