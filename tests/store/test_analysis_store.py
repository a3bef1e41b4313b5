"""The analyses in the store, the same tests on SQLite and PostgreSQL (issue 28): asked for
once, claimed by one process at a time, taken over when a claim's lease lapses, given up
after three claims, finished only by the process that holds the claim."""

from __future__ import annotations

import asyncio

from fives.store import Store
from fives.store.analyses import MAX_ATTEMPTS

from .test_store_suite import run


def test_an_analysis_is_asked_for_once_and_kept(store_url: str) -> None:
    async def body(store: Store) -> None:
        first = await store.request_analysis("t1", 0, "p-asha", 10.0)
        again = await store.request_analysis("t1", 0, "p-ravi", 11.0)
        assert first.status == again.status == "queued"
        assert again.requester == "p-asha" and again.requested == 10.0
        assert [a.table_id for a in await store.analyses_pending("p-asha")] == ["t1"]
        assert await store.analyses_pending("p-ravi") == []
        await store.request_analysis("t2", 1, "p-ravi", 12.0)
        assert await store.queued_before(12.0) == 1 and await store.queued_before(10.0) == 0
        claimed = await store.claim_analysis("node-a", 20.0, 60.0)
        assert claimed is not None and (claimed.table_id, claimed.seat) == ("t1", 0)
        assert claimed.status == "running" and claimed.lease_until == 80.0
        doc = {"seat": 1, "decisions": [{"loss": 2.5, "mark": "inaccuracy"}], "names": ["आशा"]}
        assert await store.finish_analysis("t1", 0, "node-a", doc, 30.0)
        done = await store.analysis("t1", 0)
        assert done is not None and done.status == "done" and done.result == doc
        assert await store.analysis("t1", 1) is None

    run(store_url, body)


def test_two_processes_never_claim_one_analysis(store_url: str) -> None:
    async def body(store: Store) -> None:
        for k in range(6):
            await store.request_analysis(f"t{k}", 0, f"p{k}", float(k))
        claims = await asyncio.gather(*(store.claim_analysis(f"node-{n}", 100.0, 60.0)
                                        for n in range(10)))
        got = [(c.table_id, c.seat) for c in claims if c is not None]
        assert len(got) == len(set(got)) == 6

    run(store_url, body)


def test_a_lapsed_claim_is_taken_over_and_the_old_owner_cannot_finish(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.request_analysis("t1", 0, "p-asha", 1.0)
        a = await store.claim_analysis("node-a", 10.0, 60.0)
        assert a is not None
        assert await store.claim_analysis("node-b", 50.0, 60.0) is None  # still a's
        b = await store.claim_analysis("node-b", 71.0, 60.0)  # a's lease lapsed at 70
        assert b is not None and b.owner == "node-b" and b.attempts == 2
        assert not await store.finish_analysis("t1", 0, "node-a", {"late": True}, 72.0)
        assert await store.finish_analysis("t1", 0, "node-b", None, 73.0)  # failed
        row = await store.analysis("t1", 0)
        assert row is not None and row.status == "failed" and row.given_up(74.0)

    run(store_url, body)


def test_an_analysis_that_never_finishes_is_given_up(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.request_analysis("t1", 0, "p-asha", 1.0)
        now = 10.0
        for _ in range(MAX_ATTEMPTS):
            assert await store.claim_analysis("node", now, 5.0) is not None
            now += 10.0  # the process died: the lease lapses
        assert await store.claim_analysis("node", now, 5.0) is None
        row = await store.analysis("t1", 0)
        assert row is not None and row.given_up(now)

    run(store_url, body)
