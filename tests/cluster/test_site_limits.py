"""The per-address limits count the whole site: new identities, queue joins and new tables
are taken from one bucket in Redis whichever process an address reaches, so three processes
do not give it three allowances; with Redis out of reach each process still limits."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from fives.server.cluster.node import Cluster
from fives.server.ratelimit import SiteLimits

from .kit import nodes

pytestmark = pytest.mark.timeout(120)


def test_two_processes_take_from_one_bucket_of_an_address(cluster_redis: str) -> None:
    async def body() -> list[bool]:
        a, b = Cluster(cluster_redis), Cluster(cluster_redis)  # two processes' counters
        limits_a, limits_b = SiteLimits(), SiteLimits()
        limits_a.site, limits_b.site = a.take_token, b.take_token
        at_a = limits_a.limit("identities", 60, 3)  # one a second, bursts of three
        at_b = limits_b.limit("identities", 60, 3)
        try:
            taken = [await at_a.take("10.0.0.1"), await at_b.take("10.0.0.1"),
                     await at_a.take("10.0.0.1"), await at_b.take("10.0.0.1")]
            taken.append(await at_b.take("10.0.0.2"))  # another address: its own bucket
            await asyncio.sleep(1.1)  # a token comes back a second later
            taken.append(await at_a.take("10.0.0.1"))
            return taken
        finally:
            for c in (a, b):
                await c.redis.aclose()
                await c._lease_redis.aclose()

    assert asyncio.run(body()) == [True, True, True, False, True, True]


def test_with_redis_away_each_process_still_limits() -> None:
    async def body() -> list[bool]:
        away = Cluster("redis://127.0.0.1:1/0", lease=0.6)  # nothing listens there
        limits = SiteLimits()
        limits.site = away.take_token
        limit = limits.limit("queue", 60, 2)
        try:
            return [await limit.take("10.0.0.1") for _ in range(3)]
        finally:
            await away.redis.aclose()
            await away._lease_redis.aclose()

    assert asyncio.run(body()) == [True, True, False]


def test_identities_made_at_three_processes_share_one_allowance(cluster_db: str,
                                                                 cluster_redis: str) -> None:
    with nodes(cluster_db, cluster_redis, 3, "--identity-rate", "6") as processes:
        made = []
        for k in range(12):  # bursts of ten for an address, wherever it asks
            node = processes[k % 3]
            r = httpx.post(f"{node.base}/api/me", json={"name": f"Asha {k}"}, timeout=10)
            made.append(r.status_code)
        assert made[:10] == [201] * 10
        assert made[10:] == [429, 429], made
        refused = httpx.post(f"{processes[1].base}/api/me?lang=hi", json={"name": "Ravi"},
                             timeout=10)
        assert refused.json()["error"] == "rate_limited" and "\n" not in refused.json()["message"]
