"""Hands played over the websockets for the hand-history tests, and their PokerStars
text split by hand."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable
from typing import Any

from websockets.asyncio.client import connect

from stud8.formats.pokerstars.write import HAND_SEPARATOR, hand_number


def by_hand(text: str, hand_ids: Iterable[str] = ()) -> dict[str, str]:
    """PokerStars text split into its hands, by hand number, or by the hand id of
    ``hand_ids`` whose number it is (PokerStars text has numbers only)."""
    ids = {str(hand_number(h)): h for h in hand_ids}
    hands = {}
    for hand in text.split(HAND_SEPARATOR):
        found = re.match(r"PokerStars Hand #(\d+):", hand.strip())
        assert found, hand
        hands[ids.get(found.group(1), found.group(1))] = hand
    return hands


async def fold_twice(port: int, table_id: str, tokens: dict[str, str]) -> None:
    """ann folds every hand as soon as she may (bringing in when she must); bob
    brings in or completes. Two hands; nobody shows down."""

    async def player(name: str) -> None:
        uri = f"ws://127.0.0.1:{port}/ws/v1/tables/{table_id}?token={tokens[name]}"
        async with connect(uri) as ws:
            ids = 0

            async def send(t: str, **d: Any) -> None:
                nonlocal ids
                ids += 1
                await ws.send(json.dumps({"t": t, "d": {"id": f"{name}{ids}", **d}}))

            await send("sit", seat=1 if name == "ann" else 2, amount=100)
            finished = 0
            while finished < 2:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
                assert msg["t"] != "reject", msg
                if msg["t"] == "event" and msg["d"]["k"] == "hand_finish":
                    finished += 1
                elif msg["t"] == "turn":
                    legal = {a["kind"]: a for a in msg["d"]["legal"]}
                    if name == "ann" and "fold" in legal:
                        await send("act", kind="fold")
                    elif "bring_in" in legal:
                        await send("act", kind="bring_in")
                    elif "complete" in legal:
                        await send("act", kind="complete", amount=legal["complete"]["min_to"])
                    else:
                        kind = "check" if "check" in legal else "call"
                        await send("act", kind=kind)

    await asyncio.gather(player("ann"), player("bob"))
