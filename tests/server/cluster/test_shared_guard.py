"""The accounts' guard of a room on several nodes: wrong passwords and sign-ups
spread over two nodes (as a load balancer spreads them) hit the limits at the same
count as on one node, since every node counts in Redis
(:mod:`stud8.server.http.sharedguard`). The addresses are a trusted proxy's
``X-Forwarded-For`` (uvicorn trusts 127.0.0.1).

Needs the scratch PostgreSQL (``STUD8_TEST_POSTGRES_URL``) and redis-server.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from server.cluster.inprocess import Node, cluster
from server.roomdb import fresh_database

GOOD = "Tr1cky-Ostrich-7"
LIMITS = {"login_failures": 5, "address_failures": 12, "signups": 3}


class RoundRobin(httpx.AsyncBaseTransport):
    """A load balancer: each request to the next node in turn."""

    def __init__(self, ports: Sequence[int]) -> None:
        self._ports = itertools.cycle(ports)
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.url = request.url.copy_with(port=next(self._ports))
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


@asynccontextmanager
async def balanced(nodes: Sequence[Node]) -> AsyncIterator[httpx.AsyncClient]:
    transport = RoundRobin([n.port for n in nodes])
    async with httpx.AsyncClient(
        transport=transport, base_url="http://127.0.0.1", timeout=30
    ) as http:
        yield http


async def log_in(http: httpx.AsyncClient, name: str, password: str, address: str) -> int:
    r = await http.post(
        "/api/v1/login",
        json={"name": name, "password": password},
        headers={"X-Forwarded-For": address},
    )
    assert r.status_code in (200, 401, 429), r.text
    return r.status_code


async def sign_up(http: httpx.AsyncClient, name: str, address: str) -> int:
    r = await http.post(
        "/api/v1/register",
        json={"name": name, "password": GOOD},
        headers={"X-Forwarded-For": address},
    )
    return r.status_code


async def until_refused(attempt: Callable[[int], Awaitable[int]], most: int = 40) -> int:
    """How many attempts pass (401 or 201) before the first 429."""
    for n in range(most):
        code = await attempt(n)
        if code == 429:
            return n
        assert code in (201, 401), code
    raise AssertionError(f"no refusal in {most} attempts")


def test_attempts_spread_over_two_nodes_hit_the_limits_at_the_same_count_as_on_one(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b"), **LIMITS) as nodes:
            one = nodes[0].http
            async with balanced(nodes) as spread:
                for name in ("ann", "bob"):
                    assert await sign_up(one, name, "10.0.0.1") == 201
                # wrong passwords for one account: on one node, then over two
                on_one = await until_refused(lambda n: log_in(one, "ann", f"g{n}", f"10.1.0.{n}"))
                on_two = await until_refused(
                    lambda n: log_in(spread, "bob", f"g{n}", f"10.2.0.{n}")
                )
                assert on_one == on_two == LIMITS["login_failures"]
                # refused on either node, the right password too (not checked)
                assert await log_in(one, "bob", GOOD, "10.2.9.9") == 429
                assert await log_in(nodes[1].http, "ann", GOOD, "10.1.9.9") == 429
                # wrong passwords from one address, for many names
                on_one = await until_refused(lambda n: log_in(one, f"user{n}", "g", "10.3.0.1"))
                on_two = await until_refused(lambda n: log_in(spread, f"user{n}", "g", "10.3.0.2"))
                assert on_one == on_two == LIMITS["address_failures"]
                # sign-ups from one address
                on_one = await until_refused(lambda n: sign_up(one, f"farm{n}", "10.4.0.1"))
                on_two = await until_refused(lambda n: sign_up(spread, f"herd{n}", "10.4.0.2"))
                assert on_one == on_two == LIMITS["signups"]
                # a burst over both nodes at once does not slip past the limit
                codes = await asyncio.gather(
                    *(log_in(spread, "cat", f"g{n}", f"10.5.0.{n}") for n in range(20))
                )
                assert sorted(codes) == [401] * 5 + [429] * 15, codes

    asyncio.run(asyncio.wait_for(main(), 120))


def test_an_address_an_account_logged_in_from_is_known_to_every_node(
    tmp_path: Path, redis_url: str
) -> None:
    pg = fresh_database("postgresql", tmp_path)

    async def main() -> None:
        async with cluster(pg, redis_url, ("a", "b"), **LIMITS) as (a, b):
            assert await sign_up(a.http, "ann", "10.0.0.1") == 201
            assert await log_in(a.http, "ann", GOOD, "10.0.0.9") == 200  # her home, on a
            # an attacker on both nodes
            async with balanced((a, b)) as spread:
                codes = [await log_in(spread, "ann", f"g{n}", "10.6.6.6") for n in range(6)]
            assert codes == [401] * 5 + [429]
            # refused elsewhere, but at home through the other node she logs in
            assert await log_in(b.http, "ann", GOOD, "10.0.0.8") == 429
            assert await log_in(b.http, "ann", GOOD, "10.0.0.9") == 200

    asyncio.run(asyncio.wait_for(main(), 120))
