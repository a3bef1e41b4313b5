"""The lease of a cluster process, its promises on their own (issue 42: planted bugs there
passed every test): how long a lease is believed to last (from when the renewal was *sent*,
never from when its answer came back), and a process that can no longer renew lets every table
go once its lease lapses, before another process may take them. No Redis: the lease's own
connection is a stand-in that answers as slowly, or fails, as a test says."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError

from fives.server.cluster.node import Cluster


class SlowLease:
    """Redis's SET for the lease, answering after ``delay`` seconds (or failing)."""

    def __init__(self, delay: float = 0.0, fail: bool = False) -> None:
        self.delay, self.fail = delay, fail
        self.sets: list[dict[str, Any]] = []

    async def set(self, key: str, value: str, **options: Any) -> bool:
        self.sets.append({"key": key, **options})
        await asyncio.sleep(self.delay)
        if self.fail:
            raise RedisConnectionError("Redis is out of reach")
        return True

    async def sadd(self, *args: Any) -> int:
        return 1


class Tables:
    """The manager as the lease sees it: its tables, and dropping them."""

    def __init__(self, ids: list[str]) -> None:
        self.tables = dict.fromkeys(ids)
        self.dropped: list[tuple[str, bool]] = []

    async def drop(self, table_id: str, moved: bool = False) -> None:
        self.dropped.append((table_id, moved))
        del self.tables[table_id]


def _cluster(lease: float, answer: SlowLease) -> Cluster:
    node = Cluster("redis://127.0.0.1:1/0", lease=lease)  # never connected: a stand-in answers
    node._lease_redis = answer  # type: ignore[assignment]
    return node


def test_a_lease_is_believed_from_when_its_renewal_was_sent() -> None:
    """A renewal that took 0.3 s to answer bought lease seconds from its sending: the process
    must stop writing 0.3 s before another one may believe the lease lapsed."""
    async def go() -> tuple[float, float, float]:
        node = _cluster(1.0, SlowLease(delay=0.3))
        sent = time.monotonic()
        await node._renew()
        answered = time.monotonic()
        return sent, answered, node.valid_until

    sent, answered, valid_until = asyncio.run(go())
    assert answered - sent >= 0.3
    assert sent + 1.0 - 0.05 <= valid_until <= sent + 1.0 + 0.05  # not answered + 1.0
    assert valid_until < answered + 1.0 - 0.2


def test_the_lease_is_renewed_as_a_lease_of_its_length_and_only_if_held() -> None:
    async def go() -> list[dict[str, Any]]:
        answer = SlowLease()
        node = _cluster(3.0, answer)
        await node._renew()
        return answer.sets

    [renewal] = asyncio.run(go())
    assert renewal["px"] == 3000 and renewal["xx"] is True  # never taken anew by a renewal


def test_a_process_that_cannot_renew_lets_every_table_go_once_its_lease_lapses() -> None:
    async def go() -> tuple[list[tuple[str, bool]], list[tuple[str, bool]], bool]:
        node = _cluster(0.4, SlowLease(fail=True))
        tables = Tables(["t1", "t2", "t3"])
        node.manager = tables  # type: ignore[assignment]
        node.valid_until = time.monotonic() + 0.4
        await node._renew()  # Redis away, the lease still valid: the tables stay
        early = list(tables.dropped)
        await asyncio.sleep(0.45)
        await node._renew()  # still away, and the lease has lapsed: every table goes
        return early, tables.dropped, node.lease_valid()

    early, dropped, valid = asyncio.run(go())
    assert early == [] and not valid
    assert sorted(dropped) == [("t1", True), ("t2", True), ("t3", True)]  # moved: pages look again
