"""The room's directory on several nodes: a change whose message a node missed is
read at its next read of what changed (:data:`stud8.server.bus.redis.DIRECTORY_SECONDS`),
without reading the whole directory; the log of the changes keeps the last
``MAX_CHANGES`` only, and a node behind by any number of changes still reads them all.

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import cast

from redis.asyncio import Redis

from server.cluster.inprocess import SPEC, Node, cluster, operator
from server.roomdb import fresh_database
from stud8.server.bus import Listed
from stud8.server.bus.channels import CHANGE_SCRIPT, DIRECTORY_LOG, DIRECTORY_VERSION, TABLES
from stud8.server.bus.codec import encode_listed
from stud8.server.bus.local import LocalBus
from stud8.server.bus.redis import (
    DIRECTORY_SECONDS,
    FULL_DIRECTORY_SECONDS,
    MAX_CHANGES,
    RedisBus,
)
from stud8.server.table.spec import TableSpec
from stud8.server.table.status import TableStatus

NOBODY = b"stud8:test:nobody-listens"  # the change's message is lost
# a read of the changes, with room for a busy machine: well short of a full read of
# the directory (which would list a change without the changes being read)
CHANGES_READ = DIRECTORY_SECONDS + 25
assert CHANGES_READ < FULL_DIRECTORY_SECONDS / 2


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
                "/api/v1/tables",
                json={"table_id": "t1", **SPEC},
                headers={"Authorization": f"Bearer {boss}"},
            )
            assert r.status_code == 201, r.text
            entry = await redis.hget(TABLES, "t1")
            assert isinstance(entry, bytes)
            keys = (TABLES, DIRECTORY_LOG, DIRECTORY_VERSION)
            # a table listed (by a node of the room, as the owner lists one) whose
            # message nobody heard: both nodes list it within a read of the changes
            before = int(await redis.get(DIRECTORY_VERSION) or 0)
            await redis.eval(
                CHANGE_SCRIPT.decode(), 3, *keys, "ghost", entry, NOBODY, b"", MAX_CHANGES
            )
            assert int(await redis.get(DIRECTORY_VERSION) or 0) == before + 1
            assert await redis.zscore(DIRECTORY_LOG, "ghost") == before + 1

            await within(CHANGES_READ, lambda: all("ghost" in listed(n) for n in (a, b)))
            # and gone (closed for good), the message lost again
            await redis.eval(
                CHANGE_SCRIPT.decode(), 3, *keys, "ghost", b"", NOBODY, b"", MAX_CHANGES
            )

            await within(CHANGES_READ, lambda: all("ghost" not in listed(n) for n in (a, b)))
            assert listed(a) == listed(b) == {"t1"}

    asyncio.run(asyncio.wait_for(main(), 120))


KEYS = (TABLES, DIRECTORY_LOG, DIRECTORY_VERSION)


def entry_of(table_id: str, players: tuple[str, ...] = ()) -> bytes:
    status = TableStatus(table_id, players=players)
    listed = Listed(table_id, table_id, TableSpec(), status)
    return f"node-x\nrun-{table_id}\n".encode() + encode_listed(listed)


def test_the_change_log_keeps_the_last_changes_and_a_node_behind_reads_them_all(
    redis_url: str,
) -> None:
    """Tables opened and closed for good, many times over: the log holds the last
    ``keep`` changes, not every table the room ever had; a node that read the
    directory a few changes ago reads only those changes and sees the room as it is,
    and one further behind than the log reads the whole directory."""
    keep = 10

    async def change(redis: Redis, table_id: str, value: bytes) -> None:
        await redis.eval(CHANGE_SCRIPT.decode(), 3, *KEYS, table_id, value, NOBODY, b"", keep)

    async def main() -> None:
        async with Redis.from_url(redis_url) as redis:
            near = RedisBus(redis, "near", LocalBus(), url=redis_url, max_changes=keep)
            far = RedisBus(redis, "far", LocalBus(), url=redis_url, max_changes=keep)
            for bus in (near, far):
                await bus._read_changes()  # the whole directory: empty
                assert bus.directory() == {}
            await change(redis, "stays", entry_of("stays"))
            await far._read_changes()
            assert set(far.directory()) == {"stays"}
            for n in range(5 * keep):  # a table opened, then closed for good
                await change(redis, f"t{n}", entry_of(f"t{n}"))
                await change(redis, f"t{n}", b"")
                assert await redis.zcard(DIRECTORY_LOG) <= keep
            version = int(await redis.get(DIRECTORY_VERSION) or 0)
            assert version == 1 + 10 * keep
            log = cast(
                "list[tuple[bytes, float]]",
                await redis.zrange(DIRECTORY_LOG, 0, -1, withscores=True),
            )
            # the last changes, each table once: the later tables' closings
            assert [int(score) for _, score in log] == list(
                range(version - keep + 2, version + 1, 2)
            )
            assert {k.decode() for k, _ in log} == {f"t{n}" for n in range(4 * keep + 5, 5 * keep)}
            # a node as far behind as the log keeps: only the changes read, all of them
            await near._read_changes()  # (the whole directory: it was further behind)
            assert set(near.directory()) == {"stays"}
            whole_read = near._full_read_at
            await change(redis, "new", entry_of("new", ("ann",)))
            await change(redis, "t49", entry_of("t49"))  # reopened
            for n in range(keep - 3):
                await change(redis, f"u{n}", entry_of(f"u{n}"))
            await change(redis, "stays", entry_of("stays", ("bob",)))
            now = {"stays", "new", "t49", *(f"u{n}" for n in range(keep - 3))}
            await near._read_changes()
            assert near._full_read_at == whole_read  # not the whole directory
            assert set(near.directory()) == now
            assert near.directory()["stays"].status.players == ("bob",)
            # a node further behind than the log keeps: the whole directory, right
            whole_read = far._full_read_at
            await far._read_changes()
            assert far._full_read_at > whole_read
            assert set(far.directory()) == now
            assert far.directory()["stays"].status.players == ("bob",)

    asyncio.run(asyncio.wait_for(main(), 60))
