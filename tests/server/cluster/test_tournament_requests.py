"""The requests one node hands another for a tournament the other runs (register,
unregister, bots, cancel: :class:`ClusterTournaments`), their answers and their
errors, two nodes joined by a stand-in for the bus (the real bus and nodes are
``test_tournaments.py``'s): every answer of the owner comes back as the same
error the owner raised, and a malformed or unanswered request changes nothing and
says so."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import pytest

from stud8.server.bus.redis import TableMoving
from stud8.server.cluster.tournaments import ClusterTournaments
from stud8.server.tournaments.manager import NoSuchTournament, TournamentElsewhere
from stud8.server.tournaments.runner import TournamentRefused


class Owner:
    """The owner node's tournaments: what they did, and their refusals."""

    def __init__(self) -> None:
        self.done: list[tuple[int, str, dict[str, Any]]] = []

    async def owner_does(self, tid: int, action: str, args: dict[str, Any]) -> Any:
        self.done.append((tid, action, args))
        if action == "register":
            return 3
        if action == "bots":
            return [[4, "bot7"], [5, "bot8"]]
        if action == "unregister":
            raise TournamentRefused(f"{args['player']} is not registered")
        if action == "cancel":
            raise NoSuchTournament(f"no tournament {tid}")
        if action == "moving":
            raise TournamentElsewhere(f"tournament {tid} is moving to another node; try again")
        raise RuntimeError("the database is away")


def _node(name: str, *, holder: str | None, ask: Any = None) -> ClusterTournaments:
    async def owners(ids: list[str]) -> dict[str, str | None]:
        return dict.fromkeys(ids, holder)

    bus = SimpleNamespace(ask=ask)
    node = ClusterTournaments(
        bus=cast(Any, bus),
        leases=cast(Any, SimpleNamespace(owners=owners)),
        nodes=cast(Any, SimpleNamespace(name=name)),
        epochs=cast(Any, None),
        writer=cast(Any, None),
        ledger=cast(Any, None),
        hands=cast(Any, None),
        store=cast(Any, None),
    )
    return node


def _pair() -> tuple[ClusterTournaments, Owner, list[tuple[str, bytes]]]:
    owner_node = _node("a", holder="a")
    owner = Owner()
    owner_node.attach(cast(Any, owner))
    asked: list[tuple[str, bytes]] = []

    async def ask(node: str, payload: bytes, seconds: float) -> bytes:
        asked.append((node, payload))
        return bytes(await owner_node.serve(payload))

    return _node("b", holder="a", ask=ask), owner, asked


def test_a_request_through_another_node_is_done_by_the_owner() -> None:
    b, owner, asked = _pair()

    async def main() -> None:
        assert await b.forward(1, "register", {"player": "ann"}) == 3
        assert await b.forward(1, "bots", {"count": 2, "policy": "rules"}) == [
            [4, "bot7"],
            [5, "bot8"],
        ]
        with pytest.raises(TournamentRefused, match="ann is not registered"):
            await b.forward(1, "unregister", {"player": "ann"})
        with pytest.raises(NoSuchTournament, match="no tournament 1"):
            await b.forward(1, "cancel", {})
        with pytest.raises(TournamentElsewhere, match="moving"):
            await b.forward(1, "moving", {})
        with pytest.raises(TournamentElsewhere, match="cannot take requests now"):
            await b.forward(1, "crash", {})  # the owner failed: nothing done, try again

    asyncio.run(main())
    assert [node for node, _ in asked] == ["a"] * 6
    assert owner.done[0] == (1, "register", {"player": "ann"})


def test_a_malformed_request_is_refused_and_changes_nothing() -> None:
    owner_node = _node("a", holder="a")
    owner = Owner()
    owner_node.attach(cast(Any, owner))

    async def serve(payload: bytes) -> bytes:
        return await owner_node.serve(payload)

    for bad in (
        b"",
        b"not json",
        b"[]",
        b'{"tournament": "x", "action": "register", "args": {}}',
        b'{"tournament": 1, "action": "register"}',
        b'{"tournament": 1, "action": "register", "args": [1]}',
        b"\xff\xfe",
    ):
        answer = asyncio.run(serve(bad))
        assert answer == b'{"refused": "a malformed request"}', bad
    assert owner.done == []


def test_no_owner_or_no_answer_says_try_again() -> None:
    async def silent(node: str, payload: bytes, seconds: float) -> bytes:
        raise TableMoving(f"the node {node} did not answer")

    async def garbled(node: str, payload: bytes, seconds: float) -> bytes:
        return b"{not json"

    async def main() -> None:
        for node in (_node("b", holder=None), _node("b", holder="b")):  # nobody, or moving here
            with pytest.raises(TournamentElsewhere, match="try again"):
                await node.forward(1, "register", {"player": "ann"})
        for ask in (silent, garbled):
            with pytest.raises(TournamentElsewhere, match="did not answer"):
                await _node("b", holder="a", ask=ask).forward(1, "register", {"player": "ann"})

    asyncio.run(main())
