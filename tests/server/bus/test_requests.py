"""The nodes' requests and answers over Redis as typed messages: each kind written as
the JSON header the nodes have always sent (a node of the release before reads it),
read back the same, and anything else refused with BusCodecError."""

from __future__ import annotations

import json

import pytest

from stud8.server.bus.fields import BusCodecError
from stud8.server.bus.requests import (
    Answer,
    CatchUpRequest,
    CloseRequest,
    Refusal,
    Request,
    SendRequest,
    TournamentRequest,
    pack,
    read_answer,
    read_request,
)

REQUESTS: list[tuple[Request, dict[str, object]]] = [
    (SendRequest(7, "n1", "t1"), {"op": "send", "id": 7, "from": "n1", "table": "t1"}),
    (
        CatchUpRequest(8, "n1", "t1", 40),
        {"op": "catch_up", "id": 8, "from": "n1", "table": "t1", "last_seen": 40},
    ),
    (
        CatchUpRequest(9, "n2", "t3"),
        {"op": "catch_up", "id": 9, "from": "n2", "table": "t3", "last_seen": None},
    ),
    (CloseRequest(10, "n1", "t1"), {"op": "close", "id": 10, "from": "n1", "table": "t1"}),
    (TournamentRequest(11, "n2"), {"op": "tournament", "id": 11, "from": "n2", "table": ""}),
]


@pytest.mark.parametrize(("request_", "header"), REQUESTS)
def test_each_request_is_the_header_the_nodes_send_and_reads_back(
    request_: Request, header: dict[str, object]
) -> None:
    data = pack(request_, b'[5,"act"]')
    line, _, body = data.partition(b"\n")
    assert json.loads(line) == header and body == b'[5,"act"]'
    assert next(iter(json.loads(line))) == "op"  # what it is, first
    assert read_request(data) == (request_, b'[5,"act"]')
    # as the node before wrote it (json.dumps of the same header): read the same
    old = json.dumps(header, separators=(",", ":")).encode() + b"\n"
    assert read_request(old) == (request_, b"")


def test_an_answer_says_only_what_it_must() -> None:
    assert pack(Answer(7, "t1"), b"[5]") == b'{"id":7,"table":"t1"}\n[5]'
    assert pack(Answer(8, "t1", Refusal.CLOSED)) == b'{"id":8,"table":"t1","error":"closed"}\n'
    assert read_answer(b'{"id":8,"table":"t1","error":"moved"}\n') == (
        Answer(8, "t1", Refusal.MOVED),
        b"",
    )
    assert read_answer(b'{"id":11}\n{"ok":1}') == (Answer(11), b'{"ok":1}')
    # not yet: the table has the request and works on it (the asker waits on)
    working = Answer(9, "t1", working=True)
    assert pack(working) == b'{"id":9,"table":"t1","working":true}\n'
    assert read_answer(pack(working)) == (working, b"")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b'{"op":"explode","id":1,"from":"n1","table":"t1"}\n', "Invalid value 'explode'"),
        (b'{"op":"send","from":"n1","table":"t1"}\n', "missing required field `id`"),
        (b'{"op":"send","id":"1","from":"n1","table":"t1"}\n', "Expected `int`, got `str`"),
        (b'{"op":"send","id":1,"from":"n1","table":"t1","x":2}\n', "unknown field `x`"),
        (b'{"id":1,"from":"n1","table":"t1"}\n', "missing required field `op`"),
        (b'{"op":"catch_up","id":1,"from":"n1","table":"t1","last_seen":"4"}\n', "last_seen"),
        (b"not json\n", "malformed"),
        (b"", "truncated"),
    ],
)
def test_a_malformed_request_is_refused_saying_why(data: bytes, words: str) -> None:
    with pytest.raises(BusCodecError, match="request") as caught:
        read_request(data)
    assert words in str(caught.value)


@pytest.mark.parametrize(
    "data",
    [
        b'{"table":"t1"}\n',
        b'{"id":1,"error":"lost"}\n',
        b'{"id":1,"error":null,"x":1}\n',
        b"[1]\n",
    ],
)
def test_a_malformed_answer_is_refused(data: bytes) -> None:
    with pytest.raises(BusCodecError, match="not an answer"):
        read_answer(data)
