"""A chat message as the edge reads it: within CHAT_CHARS, one line of text, of the
right types; anything else refused with a reason, before it reaches a table."""

from __future__ import annotations

import json

import pytest

from stud8.server.table.commands import Chat
from stud8.server.wire.client import ChatMessage, parse_command
from stud8.server.wire.codec import ProtocolError
from stud8.server.wire.limits import CHAT_CHARS, LIMITS, MAX_MESSAGE_BYTES


def chat(d: object) -> str:
    return json.dumps({"t": "chat", "d": d})


def test_a_line_up_to_the_limit_is_taken_trimmed() -> None:
    message = parse_command(chat({"text": "  " + "é" * CHAT_CHARS + " ", "id": "m1"}))
    assert isinstance(message, ChatMessage)
    assert message.command("ann") == Chat(player="ann", text="é" * CHAT_CHARS, command_id="m1")
    hostile = "<img src=x onerror=alert(1)></script>"
    assert parse_command(chat({"text": hostile, "id": "m2"})).command("ann") == Chat(
        player="ann", text=hostile, command_id="m2"
    )


@pytest.mark.parametrize(
    ("d", "words"),
    [
        (
            {"text": "x" * (CHAT_CHARS + 1), "id": "m"},
            f"{CHAT_CHARS + 1} characters (the limit is {CHAT_CHARS})",
        ),
        ({"text": "", "id": "m"}, "text is empty"),
        ({"text": "   ", "id": "m"}, "text is empty"),
        ({"text": "two\nlines", "id": "m"}, "control characters (U+000A)"),
        ({"text": "bell\x07", "id": "m"}, "control characters (U+0007)"),
        ({"text": "rtl \u202e trick", "id": "m"}, "control characters (U+202E)"),
        ({"text": 5, "id": "m"}, "text must be a string, got 5"),
        ({"text": None, "id": "m"}, "text must be a string"),
        ({"text": ["hi"], "id": "m"}, "text must be a string, got a JSON array"),
        ({"text": {"html": "<b>"}, "id": "m"}, "text must be a string, got a JSON object"),
        ({"id": "m"}, "missing field 'text'"),
        ({"text": "hi"}, "missing field 'id'"),
        ({"text": "hi", "id": "m", "html": True}, "unknown fields ['html']"),
        ("hi", "d must be a JSON object"),
    ],
)
def test_a_bad_chat_message_is_refused_saying_why(d: object, words: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_command(chat(d))
    assert words in caught.value.reason, caught.value.reason
    assert len(caught.value.reason) < 200  # the text is never echoed whole


def test_an_oversized_message_is_refused_before_it_is_read() -> None:
    with pytest.raises(ProtocolError, match="message too large"):
        parse_command(chat({"text": "x" * MAX_MESSAGE_BYTES, "id": "m"}))


def test_the_chat_limits_are_documented_from_their_definition() -> None:
    assert LIMITS["CHAT_CHARS"][0] == CHAT_CHARS
    assert LIMITS["CHAT_RATE"][0] == "5 in 10 s"
