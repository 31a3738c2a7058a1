"""The browser client knows every kind of event the server sends, and no other; an
event of a kind it does not know is said (on the console, and in the table's state),
never dropped silently.

The kinds the server sends are its event schema's (``json_schemas()["events"]``,
the one ``docs/protocol.md`` shows); the client's are those ``web/store.js`` handles
and those the table's page takes itself (``ELSEWHERE``), run in Node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from stud8.server.wire.schemas import json_schemas

WEB = Path(__file__).resolve().parents[2] / "src" / "stud8" / "web"
NODE = shutil.which("node")

PROBE = """
import * as store from "./store.js";
const warnings = [];
console.warn = (message) => warnings.push(String(message));
const state = store.emptyTable("t1");
store.applyEvent(state, {k: "sit", seat: 1, player: "ann", chips: 100}, 1);
store.applyEvent(state, {k: "no_such_kind", seat: 1}, 2);
store.applyEvent(state, {k: "no_such_kind"}, 3);
store.applyEvent(state, {k: "top_up", seat: 1, amount: 50, chips: 150}, 4);
console.log(JSON.stringify({
  known: store.knownKinds(),
  actions: [...store.ACTIONS],
  handOnly: [...store.HAND_ONLY],
  unknown: state.unknownKinds,
  warnings,
  chips: state.seats[1].chips,
  seq: state.seq,
}));
"""


@pytest.fixture(scope="module")
def client() -> dict[str, Any]:
    if NODE is None:
        pytest.skip("node is not installed (Debian's nodejs package)")
    run = subprocess.run(
        [NODE, "--experimental-default-type=module", "--input-type=module", "-e", PROBE],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return out


def test_the_client_knows_every_kind_the_server_sends_and_no_other(
    client: dict[str, Any],
) -> None:
    sent = set(json_schemas()["events"])
    known = set(client["known"])
    assert sent - known == set(), "kinds the server sends that the client drops"
    assert known - sent == set(), "kinds the client takes that the server never sends"


def test_the_clients_lists_of_kinds_are_kinds_of_events(client: dict[str, Any]) -> None:
    known = set(client["known"])
    assert set(client["actions"]) <= known
    assert set(client["handOnly"]) <= known


def test_an_unknown_kind_is_said_once_and_the_table_goes_on(client: dict[str, Any]) -> None:
    assert client["unknown"] == ["no_such_kind"]
    assert len(client["warnings"]) == 1 and "no_such_kind" in client["warnings"][0]
    assert client["chips"] == 150 and client["seq"] == 4  # the events after it applied
