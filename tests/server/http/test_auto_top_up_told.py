"""The auto top-up setting reaches the tables (issue 28, item 7), through the real app:
a websocket opened with it on tells the table with its ``Connect`` (the seat he then
takes has it), ``PUT /api/v1/settings`` tells the tables he sits at at once (over the
bus), and the table tops him up after a hand he lost, the client seeing the table's
``top_up`` event marked ``auto``."""

from __future__ import annotations

import asyncio
from typing import Any

from server.roomclient import Msg, passive, play, run, serve, sit


def folds(turn: Msg) -> dict[str, Any]:
    kinds = [a["kind"] for a in turn["d"]["legal"]]
    return {"kind": "fold"} if "fold" in kinds else passive(turn)


def test_the_setting_is_told_at_connect_and_when_changed_and_tops_up_after_a_hand() -> None:
    async def body() -> None:
        async with serve() as room:
            ann, bob = await room.player("ann"), await room.player("bob")
            mine = {"Authorization": f"Bearer {ann}"}
            r = await room.http.put("/api/v1/settings", json={"auto_top_up": True}, headers=mine)
            assert r.status_code == 200, r.text
            async with room.connect(ann) as a, room.connect(bob, ids="b") as b:
                await sit(room, a, 1, 100)
                await sit(room, b, 2, 100)
                table = room.table()
                assert table.seats[1].auto_top_up and not table.seats[2].auto_top_up
                await asyncio.gather(play(a, 1, folds), play(b, 1))
                up = await a.until(lambda m: m["t"] == "event" and m["d"]["k"] == "top_up")
                assert up["d"]["auto"] is True and up["d"]["short"] == 0
                assert up["d"]["chips"] == 100 and up["d"]["seat"] == 1
                assert room.books.on_table("t1", "ann") == 100
                # turned off in the settings: the table knows once the PUT is answered
                off = {"auto_top_up": False}
                r = await room.http.put("/api/v1/settings", json=off, headers=mine)
                assert r.status_code == 200 and not table.seats[1].auto_top_up
                # another setting changed: nothing to tell
                r = await room.http.put("/api/v1/settings", json={"sounds": False}, headers=mine)
                assert r.status_code == 200 and not table.seats[1].auto_top_up
                r = await room.http.put(
                    "/api/v1/settings", json={"auto_top_up": True}, headers=mine
                )
                assert r.status_code == 200 and table.seats[1].auto_top_up
            assert room.books.audit()

    run(body)
