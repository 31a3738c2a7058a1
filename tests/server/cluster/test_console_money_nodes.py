"""The console's money and moderation acts on two nodes: each done through the REST
of one node (``/api/v1/admin/accounts/{name}/{act}``) and seen through the other,
and at a table the other runs: a credit and a debit (and a debit over the bank,
refused with nothing changed) are the bank a buy-in at the other node's table
draws on; a ban refuses the log-in on the other node and closes the banned
player's socket there as the node that banned him does (4403); an unban through
the other node lets him in again; a silence through one node refuses his chat at
a table of the other until it ends; the journal and its CSV export list through
the other node the credit and debit with their reasons; the rake of hands played
at a table of each node is the same through either node.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import update

from server.cluster.inprocess import SPEC, Node, cluster, eventually, operator, owner
from server.cluster.test_across_nodes import expect
from server.http.test_admin_console import answer_of
from server.roomclient import Client, Msg, play, sit
from server.roomdb import fresh_database
from stud8.server.storage import create_engine_for
from stud8.server.storage.models import SilencedPlayer

# half of every pot raked, so that a passive hand (antes 2, the bring-in 2 and its
# call) leaves 3 chips of rake; buy-ins up to 2000, more than a player's bank
RAKED = {**SPEC, "rake_percent": "50", "max_buy_in": 2000}
BANNED = (4403, "banned by an operator")  # as the node that bans him closes it


async def act(node: Node, boss: dict[str, str], name: str, verb: str, **body: Any) -> Any:
    """The act through ``node``'s console: its log entry."""
    path = f"/api/v1/admin/accounts/{name}/{verb}"
    r = await node.http.post(path, json=body, headers=boss)
    return answer_of("POST", f"/api/v1/admin/accounts/{{name}}/{verb}", r)


async def account(node: Node, boss: dict[str, str], name: str) -> Any:
    r = await node.http.get(f"/api/v1/admin/accounts/{name}", headers=boss)
    return answer_of("GET", "/api/v1/admin/accounts/{name}", r)


async def journal(node: Node, boss: dict[str, str], query: str) -> Any:
    r = await node.http.get(f"/api/v1/admin/journal?{query}", headers=boss)
    return answer_of("GET", "/api/v1/admin/journal", r)["transactions"]


def is_event(kind: str) -> Callable[[Msg], bool]:
    return lambda m: m["t"] == "event" and m["d"]["k"] == kind


async def one_hand(leaver: Client, stayer: Client) -> None:
    """One hand played out passively; ``leaver`` asks to leave during it, so that
    no second hand is dealt (the rake counted is this hand's, and the nodes stop
    with no hand in play)."""
    await expect(leaver, is_event("hand_start"), 0)
    left = await leaver.command("leave")
    assert left["t"] == "ack", left
    await asyncio.gather(play(leaver, 1), play(stayer, 1))


async def chat(client: Client, text: str) -> Msg:
    reply = await client.command("chat", text=text)
    assert reply["t"] in ("ack", "reject"), reply
    return reply


def test_money_and_moderation_acts_through_one_node_hold_on_the_other(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b):
            boss = {"Authorization": f"Bearer {await operator(a)}"}
            for table_id in ("ta", "tb"):  # the second goes to the node without a table
                r = await a.http.post(
                    "/api/v1/tables", json={"table_id": table_id, **RAKED}, headers=boss
                )
                assert r.status_code == 201, r.text
            owners = {t: await owner(redis_url, t) for t in ("ta", "tb")}
            assert sorted(owners.values()) == ["a", "b"], owners
            at_a = next(t for t, n in owners.items() if n == "a")  # the table a runs
            at_b = next(t for t, n in owners.items() if n == "b")
            tokens = {name: await b.player(name) for name in ("ann", "bob", "cat", "dan", "eve")}

            # -------------------------------------------------------- credit, debit
            credit = await act(a, boss, "ann", "credit", amount=500, reason="won the freeroll")
            assert credit["amount"] == 500 and credit["transaction"] is not None
            assert (await account(b, boss, "ann"))["balance"] == 1500
            before = await journal(b, boss, "account=bank:ann")
            r = await a.http.post(
                "/api/v1/admin/accounts/ann/debit",
                json={"amount": 1501, "reason": "more than he has"},
                headers=boss,
            )
            assert r.status_code == 400, r.text
            assert (await account(b, boss, "ann"))["balance"] == 1500  # nothing changed
            assert await journal(b, boss, "account=bank:ann") == before
            debit = await act(a, boss, "ann", "debit", amount=300, reason="chargeback")
            assert (await account(b, boss, "ann"))["balance"] == 1200

            # the journal through b: a's credit and debit with their reasons (and the
            # refused debit nowhere), newest first; its CSV export the same rows
            query = "account=bank:ann&limit=2"
            moved = await journal(b, boss, query)
            assert [(t["id"], t["kind"], t["memo"]) for t in moved] == [
                (debit["transaction"], "debit", "chargeback"),
                (credit["transaction"], "credit", "won the freeroll"),
            ]
            assert moved[0]["entries"] == [
                {"account": "bank:ann", "amount": -300},
                {"account": "issuance", "amount": 300},
            ]
            r = await b.http.get(f"/api/v1/admin/journal?{query}&format=csv", headers=boss)
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
            rows = list(csv.reader(io.StringIO(r.text)))
            assert rows[0] == ["transaction", "at", "kind", "hand_id", "memo", "account", "amount"]
            assert rows[1:] == [
                [str(t["id"]), t["at"], t["kind"], t["hand_id"] or "", t["memo"], *entry]
                for t in moved
                for entry in ((e["account"], str(e["amount"])) for e in t["entries"])
            ]

            # ann buys in at the table b runs with the bank a's acts left her: a chip
            # more is refused there, all of it taken (through a: none left)
            async with b.connect(tokens["ann"], table_id=at_b, ids="ann") as ann:
                over = await ann.command("sit", seat=1, amount=1201)
                assert over["t"] == "reject" and "holds 1200" in over["d"]["reason"], over
                await sit(b, ann, 1, 1200)
                assert (await account(a, boss, "ann"))["balance"] == 0

                # -------------------------------------------------- ban, unban
                async with b.connect(tokens["cat"], table_id=at_a, ids="cat") as cat:
                    ban = await act(a, boss, "cat", "ban", reason="collusion")
                    assert ban["act"] == "ban"
                    # cat's socket, open on b, is closed as a closes one: 4403, why
                    await asyncio.wait_for(cat.ws.wait_closed(), 15)
                    assert (cat.ws.close_code, cat.ws.close_reason) == BANNED
                login = {"name": "cat", "password": "secret-1"}
                r = await b.http.post("/api/v1/login", json=login)
                assert r.status_code == 401 and "banned" in r.text, r.text
                assert (await account(b, boss, "cat"))["role"] == "banned"
                await act(b, boss, "cat", "unban", reason="cleared on appeal")
                r = await a.http.post("/api/v1/login", json=login)
                assert r.status_code == 200, r.text
                r = await b.http.post("/api/v1/login", json=login)
                assert r.status_code == 200, r.text

                # -------------------------------------------------- silence
                async with (
                    a.connect(tokens["dan"], table_id=at_a, ids="dan") as dan,
                    a.connect(tokens["eve"], table_id=at_a, ids="eve") as eve,
                    b.connect(tokens["bob"], table_id=at_b, ids="bob") as bob,
                ):
                    await sit(a, dan, 1)
                    silence = await act(b, boss, "dan", "silence", reason="abuse", minutes=5)
                    assert silence["until"] is not None
                    refused = await chat(dan, "you all cheat")
                    assert refused["t"] == "reject" and "silenced" in refused["d"]["reason"]
                    seen = await account(a, boss, "dan")
                    assert seen["silenced"] is True
                    assert seen["silenced_until"] == silence["until"]
                    # the silence is made to end in a second (five minutes are too long
                    # to wait for): the table a runs checks each line against its end
                    engine = create_engine_for(pg)
                    with engine.begin() as conn:
                        soon = datetime.now(UTC) + timedelta(seconds=1)
                        conn.execute(
                            update(SilencedPlayer)
                            .where(SilencedPlayer.name_key == "dan")
                            .values(until=soon)
                        )
                    engine.dispose()
                    said = await eventually(
                        "dan's silence over",
                        lambda: chat(dan, "sorry, gg"),
                        lambda reply: reply["t"] == "ack",
                    )
                    assert said["t"] == "ack"
                    assert (await account(b, boss, "dan"))["silenced"] is False

                    # ------------------------------------------------ the rake
                    await sit(a, eve, 2)
                    await sit(b, bob, 2)
                    await asyncio.gather(one_hand(eve, dan), one_hand(bob, ann))

            # the rake of a hand at each node's table, the same through either node
            rake = "/api/v1/admin/rake"
            want = {
                "by": "table",
                "lines": [{"key": t, "transactions": 1, "rake": 3} for t in sorted((at_a, at_b))],
                "total": 6,
            }
            for node in (a, b):
                r = await node.http.get(f"{rake}?by=table", headers=boss)
                assert answer_of("GET", rake, r) == want
            by_day = answer_of("GET", rake, await b.http.get(f"{rake}?by=day", headers=boss))
            assert [(x["transactions"], x["rake"]) for x in by_day["lines"]] == [(2, 6)]

            # every act is in the moderation log, read through b
            r = await b.http.get("/api/v1/admin/log?limit=10", headers=boss)
            logged = [(x["act"], x["player"], x["reason"]) for x in r.json()["log"]]
            assert logged == [
                ("silence", "dan", "abuse"),
                ("unban", "cat", "cleared on appeal"),
                ("ban", "cat", "collusion"),
                ("debit", "ann", "chargeback"),
                ("credit", "ann", "won the freeroll"),
            ]

    asyncio.run(asyncio.wait_for(main(), 90))
