"""``/api/v1/notes``: a player's private notes and colour tags on the others, through
the real app, on a database (SQLite and PostgreSQL) and in memory. A note is read by
its author only; hostile text is refused as a chat line is; the limits are the wire's."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.dbroom import OPERATOR, OPERATOR_PASSWORD, db_room, memory_room
from server.schemacheck import SCHEMAS, conforms
from stud8.server.accounts.notes import MemoryNotes
from stud8.server.settings import Settings
from stud8.server.wire.account import PlayerNote
from stud8.server.wire.limits import MAX_NOTES, NOTE_CHARS, NoteColour

SETTINGS = Settings(default_tables=0, signups=100)


async def login(http: httpx.AsyncClient, name: str, *, new: bool = True) -> dict[str, str]:
    password = "secret-" + name
    if new:
        r = await http.post("/api/v1/register", json={"name": name, "password": password})
        assert r.status_code == 201, r.text
    r = await http.post("/api/v1/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def answer(r: httpx.Response, endpoint: str, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    body = r.json()
    schema = SCHEMAS["rest"][endpoint]["answer"] if status == 200 else SCHEMAS["rest"]["errors"]
    assert conforms(body, schema), body
    return body


async def notes_are_private(http: httpx.AsyncClient) -> None:
    ann, bob = await login(http, "ann"), await login(http, "bob")
    put = "PUT /api/v1/notes/{player}"
    r = await http.put(
        "/api/v1/notes/cyd", json={"colour": "red", "text": "  raises any pair "}, headers=ann
    )
    assert answer(r, put) == {"player": "cyd", "colour": "red", "text": "raises any pair"}
    r = await http.put("/api/v1/notes/bob", json={"colour": "blue"}, headers=ann)
    assert answer(r, put) == {"player": "bob", "colour": "blue", "text": ""}
    mine = answer(await http.get("/api/v1/notes", headers=ann), "GET /api/v1/notes")
    assert mine == {
        "notes": [
            {"player": "bob", "colour": "blue", "text": ""},
            {"player": "cyd", "colour": "red", "text": "raises any pair"},
        ]
    }
    # another account, an operator too, reads none of them; his own are his
    assert answer(await http.get("/api/v1/notes", headers=bob), "GET /api/v1/notes") == {
        "notes": []
    }
    boss = await operator(http)
    assert (await http.get("/api/v1/notes", headers=boss)).json() == {"notes": []}
    r = await http.put("/api/v1/notes/cyd", json={"text": "bluffs rivers"}, headers=bob)
    assert answer(r, put)["text"] == "bluffs rivers"
    notes = (await http.get("/api/v1/notes", headers=ann)).json()["notes"]
    assert notes[1]["text"] == "raises any pair"  # bob's note on cy is not ann's
    # replaced, then deleted by an empty note, then by DELETE
    r = await http.put(
        "/api/v1/notes/cyd", json={"colour": None, "text": "calls down"}, headers=ann
    )
    assert answer(r, put)["colour"] is None
    r = await http.put("/api/v1/notes/cyd", json={"colour": None, "text": "  "}, headers=ann)
    assert r.status_code == 200
    r = await http.delete("/api/v1/notes/bob", headers=ann)
    assert answer(r, "DELETE /api/v1/notes/{player}") == {"ok": True}
    assert (await http.get("/api/v1/notes", headers=ann)).json() == {"notes": []}
    # no login: 401
    assert (await http.get("/api/v1/notes")).status_code == 401
    assert (await http.put("/api/v1/notes/cyd", json={"text": "x"})).status_code == 401


async def operator(http: httpx.AsyncClient) -> dict[str, str]:
    r = await http.post("/api/v1/login", json={"name": OPERATOR, "password": OPERATOR_PASSWORD})
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def hostile_notes_are_refused(http: httpx.AsyncClient) -> None:
    ann = await login(http, "ann")
    refused = [
        ({"colour": "pink"}, "colour"),  # not of the palette
        ({"text": "x" * (NOTE_CHARS + 1)}, "limit"),
        ({"text": "evil\u202eexe"}, "control"),
        ({"text": "two\nlines"}, "control"),
        ({"text": 7}, "text"),
        ({"text": "ok", "extra": 1}, "extra"),
    ]
    for body, said in refused:
        r = await http.put("/api/v1/notes/cyd", json=body, headers=ann)
        assert r.status_code == 400 and said in r.json()["error"], (body, r.text)
    r = await http.put("/api/v1/notes/a%20b", json={"text": "x"}, headers=ann)
    assert r.status_code == 400 and "no player" in r.json()["error"]
    r = await http.put(
        "/api/v1/notes/cyd",
        content=b'{"text": "\\ud800"}',
        headers={**ann, "content-type": "application/json"},
    )
    assert r.status_code == 400 and "surrogate" in r.json()["error"]
    assert (await http.get("/api/v1/notes", headers=ann)).json() == {"notes": []}  # nothing kept
    r = await http.put("/api/v1/notes/cyd", json={"text": "x" * NOTE_CHARS}, headers=ann)
    assert r.status_code == 200  # the limit itself is allowed


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_notes_on_a_database(kind: str, tmp_path: Path) -> None:
    from server.roomdb import fresh_database

    url = fresh_database(kind, tmp_path)

    async def main() -> None:
        async with db_room(tmp_path, SETTINGS, url=url) as (http, _, _):
            await notes_are_private(http)
        url2 = fresh_database(kind, tmp_path, "room2.db")
        async with db_room(tmp_path, SETTINGS, url=url2) as (http, _, _):
            await hostile_notes_are_refused(http)

    asyncio.run(asyncio.wait_for(main(), 60))


def test_notes_in_memory(tmp_path: Path) -> None:
    async def main() -> None:
        async with memory_room(tmp_path, SETTINGS) as http:
            await notes_are_private(http)
        async with memory_room(tmp_path, SETTINGS) as http:
            await hostile_notes_are_refused(http)

    asyncio.run(asyncio.wait_for(main(), 60))


def test_an_account_keeps_at_most_max_notes() -> None:
    book = MemoryNotes()
    for n in range(MAX_NOTES):
        book.write("ann", PlayerNote(f"p{n:04d}", NoteColour.GREEN, ""))
    book.write("ann", PlayerNote("p0000", None, "again"))  # a note replaced is no new one
    with pytest.raises(ValueError, match=str(MAX_NOTES)):
        book.write("ann", PlayerNote("one_more", None, "x"))
    assert len(book.notes_of("ann")) == MAX_NOTES
    book.write("bob", PlayerNote("one_more", None, "x"))  # bob's count is his own
