"""Every route of the operator's console refuses a player: the routes are read from
the app itself (``room.app.routes``: every ``/api/v1/admin/...`` it serves, whatever
its module), so an endpoint added later without the operator's check fails here,
and one added without its typed entry in ``ADMIN_ENDPOINTS`` (so in
``docs/protocol.md``) fails too. Each method of each route is tried without a
session (401), with a token nobody has (401) and as a player (403), with a body
an operator's request could carry; nothing is done (the player's bank, the log,
the lobby's message and the fairness reports are as before)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from starlette.routing import Route

from server.dbroom import OPERATOR, OPERATOR_PASSWORD, db_room
from server.http.test_admin_console import ONE_TABLE, bearer, run, sign_up, token_of
from stud8.server.http.admin import _ACTS
from stud8.server.wire.admin import ADMIN_ENDPOINTS

PREFIX = "/api/v1/admin/"
# a value for each path parameter the console's routes have (a new one fails below)
SAMPLES = {"name": ["ann"], "node": ["a"], "act": [*sorted(_ACTS), "fine"]}
BODY = {"reason": "x", "amount": 5, "minutes": 5, "text": "hello", "deals": 1000}


def admin_routes(routes: Sequence[object]) -> list[tuple[str, str]]:
    """Every (method, path) the app serves under ``/api/v1/admin/``."""
    found = []
    for route in routes:
        if isinstance(route, Route) and route.path.startswith(PREFIX):
            for method in sorted(route.methods or ()):
                if method != "HEAD":  # Starlette's, beside each GET
                    found.append((method, route.path))
    return found


def as_route(path: str) -> str:
    """An endpoint's path as the app routes it (the six acts are one route)."""
    return re.sub(r"^(/api/v1/admin/accounts/\{name\})/\w+$", r"\1/{act}", path)


def concrete(path: str) -> list[str]:
    """The path with each parameter filled in by each of its samples."""
    paths = [path]
    for param in re.findall(r"{(\w+)}", path):
        assert param in SAMPLES, f"{path}: give the parameter {param!r} a sample"
        paths = [p.replace(f"{{{param}}}", value) for p in paths for value in SAMPLES[param]]
    return paths


def test_every_admin_route_of_the_app_refuses_no_session_and_a_player(tmp_path: Path) -> None:
    async def body() -> None:
        async with db_room(tmp_path, ONE_TABLE) as (http, room, _):
            routes = admin_routes(room.app.routes)
            documented = {(e.method, as_route(e.path)) for e in ADMIN_ENDPOINTS}
            # every route typed in ADMIN_ENDPOINTS (docs/protocol.md), and no more
            assert set(routes) == documented, set(routes) ^ documented
            assert len(routes) >= 16  # when written: 21 endpoints, the six acts one route
            player = bearer(await sign_up(http, "ann"))
            boss = bearer(await token_of(http, OPERATOR, OPERATOR_PASSWORD))
            tried = 0
            for method, template in routes:
                for path in concrete(template):
                    for headers, status in ((player, 403), ({}, 401), (bearer("made-up"), 401)):
                        r = await http.request(method, path, headers=headers, json=BODY)
                        assert r.status_code == status, (method, path, headers, r.text)
                        assert r.json()["error"]
                    tried += 1
            assert tried >= len(routes) + len(_ACTS)
            # nothing was done: his bank, the log, the message, the reports
            assert (await http.get("/api/v1/me", headers=player)).json()["balance"] == 1000
            assert (await http.get("/api/v1/admin/log", headers=boss)).json() == {"log": []}
            assert (await http.get("/api/v1/tables")).json()["message"] is None
            report = (await http.get("/api/v1/admin/fairness", headers=boss)).json()
            assert report["made_at"] is None and report["running"] is False

    run(body)
