"""Chat through a real server (127.0.0.1): a line from one player's websocket reaches
every viewer as a numbered event, unchanged (text, never markup); observers,
anonymous viewers, floods and malformed lines are refused saying why; the chat is
read back by hand (``GET /api/v1/tables/{table_id}/chat``); an operator silences a
player (``POST``/``DELETE /api/v1/accounts/{name}/silence``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from server.dbroom import OPERATOR as DB_OPERATOR
from server.dbroom import OPERATOR_PASSWORD, db_room
from server.roomclient import OPERATOR, SPEC, Client, Msg, play, run, serve, sit
from stud8.server.wire.limits import CHAT_CHARS, CHAT_RATE

HOSTILE = "<img src=x onerror=alert(1)></script>"


def chat_events(client: Client) -> list[dict[str, Any]]:
    return [m["d"] for m in client.messages if m["t"] == "event" and m["d"]["k"] == "chat"]


async def until_chat(client: Client, text: str) -> Msg:
    return await client.until(lambda m: m["t"] == "event" and m["d"].get("text") == text)


def test_two_players_chat_and_every_viewer_reads_the_text_unchanged() -> None:
    async def body() -> None:
        async with serve() as room:
            ann_token, bob_token, eve_token = [await room.player(n) for n in ("ann", "bob", "eve")]
            async with (
                room.connect(ann_token) as ann,
                room.connect(bob_token) as bob,
                room.connect(eve_token) as eve,  # logged in, not seated: an observer
                room.connect(None) as anon,
            ):
                await sit(room, ann, 1)
                await sit(room, bob, 2)
                reply = await ann.command("chat", text=HOSTILE)
                assert reply["t"] == "ack", reply
                for viewer in (bob, eve, anon):
                    got = await until_chat(viewer, HOSTILE)
                    assert got["d"] == {
                        "k": "chat",
                        "player": "ann",
                        "text": HOSTILE,
                        "seat": 1,
                        "hand_id": got["d"]["hand_id"],
                    }
                # a line in a hand carries the hand's id
                await bob.until(lambda m: m["t"] == "event" and m["d"]["k"] == "hand_start")
                reply = await bob.command("chat", text="nh")
                assert reply["t"] == "ack"
                said = await until_chat(ann, "nh")
                assert said["d"]["seat"] == 2 and said["d"]["hand_id"]
                # the observer is refused at a table that does not allow it
                refused = await eve.command("chat", text="hello")
                assert refused["t"] == "reject"
                assert "only the players seated here may chat" in refused["d"]["reason"]
                refused = await anon.command("chat", text="hello")
                assert refused["t"] == "reject" and "log in to chat" in refused["d"]["reason"]
                # malformed lines never reach the table
                for d, words in (
                    ({"text": "x" * (CHAT_CHARS + 1)}, "the limit is"),
                    ({"text": 7}, "text must be a string"),
                    ({"text": "a\u0000b"}, "control characters"),
                ):
                    refused = await ann.command("chat", **d)
                    assert refused["t"] == "reject" and words in refused["d"]["reason"], refused
                await play(ann, 0)
                # nobody saw a line that was refused
                assert [e["text"] for e in chat_events(bob) if e["player"] != "bob"] == [HOSTILE]

                r = await room.http.get(
                    "/api/v1/tables/t1/chat", headers={"Authorization": f"Bearer {eve_token}"}
                )
                assert r.status_code == 200, r.text
                lines = r.json()["lines"]
                assert [(x["player"], x["text"]) for x in lines] == [
                    ("ann", HOSTILE),
                    ("bob", "nh"),
                ]
                hand = said["d"]["hand_id"]
                r = await room.http.get(
                    f"/api/v1/tables/t1/chat?hand={hand}",
                    headers={"Authorization": f"Bearer {ann_token}"},
                )
                assert [x["text"] for x in r.json()["lines"]] == ["nh"]
                assert r.json()["lines"][0]["hand_id"] == hand
                for query, status in (("?limit=0", 400), ("?limit=x", 400), ("?colour=1", 400)):
                    r = await room.http.get(
                        f"/api/v1/tables/t1/chat{query}",
                        headers={"Authorization": f"Bearer {ann_token}"},
                    )
                    assert r.status_code == status, (query, r.text)
                assert (await room.http.get("/api/v1/tables/t1/chat")).status_code == 401

    run(body)


def test_a_flood_is_refused_over_the_rate_and_nothing_more_is_said() -> None:
    most, _ = CHAT_RATE

    async def body() -> None:
        async with serve() as room:
            ann_token, bob_token = await room.player("ann"), await room.player("bob")
            async with room.connect(ann_token) as ann, room.connect(bob_token) as bob:
                await sit(room, ann, 1)
                ids = [ann.new_id() for _ in range(most + 3)]
                for i, command_id in enumerate(ids):  # all at once, no waiting for replies
                    await ann.send("chat", id=command_id, text=f"spam {i}")
                replies = [await ann.reply(command_id) for command_id in ids]
                assert [r["t"] for r in replies] == ["ack"] * most + ["reject"] * 3
                assert all("at most" in r["d"]["reason"] for r in replies[most:])
                await until_chat(bob, f"spam {most - 1}")
                ping = await bob.command("ping")  # everything the table sent is in
                assert ping["t"] == "pong"
                assert [e["text"] for e in chat_events(bob)] == [f"spam {i}" for i in range(most)]

    run(body)


def test_observers_chat_at_a_table_that_allows_it() -> None:
    async def body() -> None:
        async with serve(spec=replace(SPEC, observer_chat=True)) as room:
            eve_token = await room.player("eve")
            async with room.connect(eve_token) as eve, room.connect(None) as anon:
                assert (await eve.command("chat", text="hi from the rail"))["t"] == "ack"
                got = await until_chat(anon, "hi from the rail")
                assert got["d"]["seat"] is None and got["d"]["player"] == "eve"
                refused = await anon.command("chat", text="me too")  # no name: never
                assert refused["t"] == "reject" and "log in to chat" in refused["d"]["reason"]
            r = await room.http.get("/api/v1/tables")
            assert r.json()["tables"][0]["observer_chat"] is True

    run(body)


def test_an_operator_silences_a_player_and_lets_him_speak_again() -> None:
    async def body() -> None:
        async with serve() as room:
            ann_token, op_token = await room.player("ann"), await room.player(OPERATOR)
            op = {"Authorization": f"Bearer {op_token}"}
            async with room.connect(ann_token) as ann:
                await sit(room, ann, 1)
                r = await room.http.post(
                    "/api/v1/accounts/bob/silence", headers={"Authorization": f"Bearer {ann_token}"}
                )
                assert r.status_code == 403
                r = await room.http.post("/api/v1/accounts/nobody/silence", headers=op)
                assert r.status_code == 404 and "no account" in r.json()["error"]
                r = await room.http.post("/api/v1/accounts/ANN/silence", headers=op)
                assert r.status_code == 200 and r.json() == {"player": "ann", "silenced": True}
                # who is silenced: the operators' list (the table's Silence buttons read it)
                r = await room.http.get("/api/v1/silenced", headers=op)
                assert r.status_code == 200 and r.json() == {"players": ["ann"]}
                ann_auth = {"Authorization": f"Bearer {ann_token}"}
                assert (
                    await room.http.get("/api/v1/silenced", headers=ann_auth)
                ).status_code == 403
                assert (await room.http.get("/api/v1/silenced")).status_code == 401
                refused = await ann.command("chat", text="why?")
                assert refused["t"] == "reject"
                assert "silenced by an operator" in refused["d"]["reason"]
                r = await room.http.delete("/api/v1/accounts/ann/silence", headers=op)
                assert r.json() == {"player": "ann", "silenced": False}
                r = await room.http.get("/api/v1/silenced", headers=op)
                assert r.json() == {"players": []}
                assert (await ann.command("chat", text="thank you"))["t"] == "ack"
                assert [e["text"] for e in chat_events(ann)] == ["thank you"]

    run(body)


def test_the_chat_of_a_room_on_a_database_is_read_back_with_its_hands(tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path) as (http, _, _port):
            r = await http.post(
                "/api/v1/login", json={"name": DB_OPERATOR, "password": OPERATOR_PASSWORD}
            )
            op = {"Authorization": f"Bearer {r.json()['token']}"}
            r = await http.post("/api/v1/tables", json={"table_id": "c1", "bots": 0}, headers=op)
            assert r.status_code == 201, r.text
            r = await http.post(
                "/api/v1/register", json={"name": "ann", "password": "a-long-password-1"}
            )
            assert r.status_code == 201
            r = await http.post("/api/v1/accounts/ann/silence", headers=op)
            assert r.status_code == 200
            r = await http.get("/api/v1/silenced", headers=op)
            assert r.json() == {"players": ["ann"]}
            r = await http.get("/api/v1/tables/c1/chat", headers=op)
            assert r.status_code == 200 and r.json() == {"table_id": "c1", "lines": []}

    run(body)
