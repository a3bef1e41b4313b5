"""An analysis on the cluster (issue 28): asked for at one of four processes and polled at all
of them, it is computed once (one claim, by one process) and every process answers with the
same document."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from fives.store import open_store
from server.harness import SeatClient, create_table

from .kit import nodes

pytestmark = pytest.mark.timeout(180)


def test_an_analysis_asked_at_one_process_is_computed_once(cluster_db: str,
                                                           cluster_redis: str) -> None:
    with nodes(cluster_db, cluster_redis, 4, "--analysis-workers", "0",
               "--analysis-bot", "medium") as procs:
        created = create_table(procs[0].base, game="all-fives", players=2, watch=True,
                               target=60, turn_time=0,
                               seats=[{"kind": "bot", "level": "random"}] * 2)
        table = created["table"]

        async def finish() -> None:
            c = await SeatClient(procs[1].base, table).connect()
            await c.wait(lambda m: m["type"] == "state" and m["result"] is not None, 60)
            await c.close()

        asyncio.run(finish())
        path = f"/api/matches/{table}/analysis?seat=1"
        assert httpx.get(procs[2].base + path, timeout=10).status_code in (200, 202)
        docs = []
        deadline = time.monotonic() + 60
        for node in procs:  # every process, asked again and again until it answers
            while True:
                r = httpx.get(node.base + path, timeout=10)
                if r.status_code == 200 or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            assert r.status_code == 200, r.text
            docs.append(r.json())
        assert all(d == docs[0] for d in docs) and docs[0]["decisions"]

    async def row() -> tuple[str, int]:
        store = open_store(cluster_db)
        await store.start()
        try:
            found = await store.analysis(table, 0)
            assert found is not None
            return found.status, found.attempts
        finally:
            await store.close()

    assert asyncio.run(row()) == ("done", 1)  # one claim: computed once
