"""Text and requests a hostile page or player sends: one rule for every name and line a
person types (chat, a table's name, a tournament's name), lone surrogates refused
where the JSON is read (never a database error), and the JSON endpoints taking only
``application/json`` bodies (a cross-site form or ``text/plain`` post is refused)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from server.dbroom import OPERATOR, OPERATOR_PASSWORD, db_room
from server.roomclient import run
from stud8.server.wire.client import parse_command
from stud8.server.wire.codec import ProtocolError
from stud8.server.wire.limits import TABLE_NAME_CHARS, TOURNAMENT_NAME_CHARS
from stud8.server.wire.text import TextRefused, lone_surrogate, may_hold_surrogate, typed_text

BAD_LINES = [
    ("two\nlines", "control characters (U+000A)"),
    ("carriage\rreturn", "control characters (U+000D)"),
    ("evil\u202eexe.txt", "control characters (U+202E)"),
    ("isolate\u2066x", "control characters (U+2066)"),
    ("para\u2029graph", "control characters (U+2029)"),
    ("c1\x85c", "control characters (U+0085)"),
    ("lone \ud800", "lone surrogate (U+D800)"),
    ("low \udfff", "lone surrogate (U+DFFF)"),
    ("   ", "is empty"),
]


@pytest.mark.parametrize(("text", "words"), BAD_LINES)
def test_the_rule_refuses_what_is_no_line_of_text(text: str, words: str) -> None:
    with pytest.raises(TextRefused) as caught:
        typed_text(text, "name", 40)
    assert str(caught.value).startswith("name ") and words in str(caught.value)


def test_the_rule_takes_any_line_of_text_trimmed() -> None:
    for text in ("Le café", "牌局 7", "nice hand \U0001f600", "a\u200db", "x" * 40):
        assert typed_text(f"  {text} ", "name", 40) == text
    with pytest.raises(TextRefused, match="41 characters"):
        typed_text("x" * 41, "name", 40)
    with pytest.raises(TextRefused, match="must be a string"):
        typed_text(7, "name", 40)


def test_a_lone_surrogate_is_found_anywhere_in_a_json_value() -> None:
    assert lone_surrogate(json.loads('{"a": ["\\ud83d\\ude00", {"\\udc01": 1}]}')) == "\udc01"
    assert lone_surrogate(json.loads('{"a": ["\\ud83d\\ude00"]}')) is None
    assert may_hold_surrogate(b'{"a": "\\uD800"}') and may_hold_surrogate('"\\udbff"')
    assert not may_hold_surrogate(b'{"a": "\\u00e9 plain"}')


@pytest.mark.parametrize(
    "d",
    [
        {"text": "\ud800", "id": "m1"},
        {"text": "hi \udc00 there", "id": "m1"},
        {"kind": "call", "id": "\ud800"},  # a command id is no typed text, but no text at all
    ],
)
def test_the_wire_refuses_a_lone_surrogate_before_anything_uses_it(d: dict[str, str]) -> None:
    t = "chat" if "text" in d else "act"
    with pytest.raises(ProtocolError, match="lone surrogate"):
        parse_command(json.dumps({"t": t, "d": d}))  # json.dumps writes it as \ud800


def test_a_surrogate_pair_is_one_character_and_taken() -> None:
    message = parse_command(json.dumps({"t": "chat", "d": {"text": "gg \U0001f600", "id": "m"}}))
    assert message.command("ann").text == "gg \U0001f600"  # type: ignore[attr-defined]


async def _operator(http: httpx.AsyncClient) -> dict[str, str]:
    r = await http.post("/api/v1/login", json={"name": OPERATOR, "password": OPERATOR_PASSWORD})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def _post(http: httpx.AsyncClient, path: str, body: object, **headers: str) -> httpx.Response:
    text = json.dumps(body)  # a lone surrogate goes as its escape, as a page would send it
    return await http.post(
        path, content=text, headers={"content-type": "application/json", **headers}
    )


def test_a_table_or_tournament_name_follows_the_rule_on_the_database(tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path) as (http, _, _port):
            op = await _operator(http)
            for name, words in [
                ("\ud800", "lone surrogate"),
                ("two\nlines", "control characters"),
                ("rtl\u202eexe", "control characters (U+202E)"),
                ("x" * (TABLE_NAME_CHARS + 1), f"the limit is {TABLE_NAME_CHARS}"),
            ]:
                r = await _post(http, "/api/v1/tables", {"name": name, "bots": 0}, **op)
                assert r.status_code == 400 and words in r.json()["error"], (name, r.text)
                if len(name) > TABLE_NAME_CHARS:
                    name, words = "x" * 61, f"the limit is {TOURNAMENT_NAME_CHARS}"
                r = await _post(http, "/api/v1/tournaments", {"name": name}, **op)
                assert r.status_code == 400 and words in r.json()["error"], (name, r.text)
            r = await _post(http, "/api/v1/tables", {"name": " Le café ", "bots": 0}, **op)
            assert r.status_code == 201, r.text
            assert r.json()["table"]["name"] == "Le café"
            # a lone surrogate anywhere in a body: refused as it is read
            r = await _post(http, "/api/v1/invitations", {"code": "\udc00"}, **op)
            assert r.status_code == 400 and "lone surrogate" in r.json()["error"], r.text
            r = await _post(http, "/api/v1/register", {"name": "ann", "password": "pw-\ud800-long"})
            assert r.status_code == 400 and "lone surrogate" in r.json()["error"], r.text

    run(body)


# A page on another site may post to the room from its visitors' browsers without
# asking first (no preflight) only with these types: every JSON endpoint refuses them.
SIMPLE_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; b=x", ""]


@pytest.mark.parametrize("content_type", SIMPLE_TYPES)
def test_json_endpoints_refuse_a_body_that_is_not_json_typed(
    tmp_path: Path, content_type: str
) -> None:
    async def body() -> None:
        async with db_room(tmp_path) as (http, _, _port):
            creds = json.dumps({"name": OPERATOR, "password": "a-wrong-password"})
            headers = {"content-type": content_type} if content_type else {}
            for path in ("/api/v1/login", "/api/v1/register"):
                r = await http.post(path, content=creds, headers=headers)
                assert r.status_code == 415, (path, r.status_code, r.text)
                assert "application/json" in r.json()["error"]
            # the endpoints behind a bearer token cannot be posted to that way (the
            # header makes the browser ask first), but they follow the same rule
            op = await _operator(http)
            for path, body in [
                ("/api/v1/password", {"old": OPERATOR_PASSWORD, "new": "another-pw-2"}),
                ("/api/v1/tables", {"bots": 0}),
                ("/api/v1/invitations", {"code": "x"}),
            ]:
                r = await http.post(path, content=json.dumps(body), headers={**headers, **op})
                assert r.status_code == 415, (path, r.status_code, r.text)
            # nothing was counted: the operator's password still logs in at once
            for _ in range(25):  # more than the wrong passwords that lock a name out
                r = await http.post("/api/v1/login", content=creds, headers=headers)
                assert r.status_code == 415
            r = await http.post(
                "/api/v1/login",
                content=json.dumps({"name": OPERATOR, "password": OPERATOR_PASSWORD}),
                headers={"content-type": "application/json; charset=utf-8"},
            )
            assert r.status_code == 200, r.text

    run(body)
