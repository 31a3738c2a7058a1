"""The room's directory on several nodes: a change whose message a node missed is
read at its next read of what changed (:data:`stud8.server.bus.redis.DIRECTORY_SECONDS`),
without reading the whole directory.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from redis.asyncio import Redis

from server.cluster.inprocess import SPEC, Node, cluster, operator
from server.roomdb import fresh_database
from stud8.server.bus.channels import DIRECTORY_LOG, DIRECTORY_VERSION, TABLES
from stud8.server.bus.redis import _CHANGE, DIRECTORY_SECONDS

NOBODY = b"stud8:test:nobody-listens"  # the change's message is lost


def listed(node: Node) -> set[str]:
    """The tables in the node's copy of the directory."""
    return set(node.node.bus.directory())


async def within(seconds: float, check: Callable[[], bool]) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "not in time"
        await asyncio.sleep(0.1)


def test_a_change_whose_message_was_lost_is_read_at_the_next_read_of_the_changes(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b")) as (a, b), Redis.from_url(redis_url) as redis:
            boss = await operator(a)
            r = await a.http.post(
                "/api/v1/tables", json={"table_id": "t1", **SPEC},
                headers={"Authorization": f"Bearer {boss}"},
            )  # fmt: skip
            assert r.status_code == 201, r.text
            entry = await redis.hget(TABLES, "t1")
            assert isinstance(entry, bytes)
            keys = (TABLES, DIRECTORY_LOG, DIRECTORY_VERSION)
            # a table listed (by a node of the room, as the owner lists one) whose
            # message nobody heard: both nodes list it within a read of the changes
            before = int(await redis.get(DIRECTORY_VERSION) or 0)
            await redis.eval(_CHANGE.decode(), 3, *keys, "ghost", entry, NOBODY, b"")
            assert int(await redis.get(DIRECTORY_VERSION) or 0) == before + 1
            assert await redis.zscore(DIRECTORY_LOG, "ghost") == before + 1

            await within(DIRECTORY_SECONDS + 3, lambda: all("ghost" in listed(n) for n in (a, b)))
            # and gone (closed for good), the message lost again
            await redis.eval(_CHANGE.decode(), 3, *keys, "ghost", b"", NOBODY, b"")

            await within(
                DIRECTORY_SECONDS + 3, lambda: all("ghost" not in listed(n) for n in (a, b))
            )
            assert listed(a) == listed(b) == {"t1"}

    asyncio.run(asyncio.wait_for(main(), 90))
