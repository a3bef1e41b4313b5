"""No player is left on a dead line (issue 43): a process that was declared dead once (paused
past its lease), came back, and then dies for real still has the sockets relayed to its tables
closed by the processes holding them, so the pages reconnect and play on at the new owner."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import httpx
import pytest
import redis

from server.harness import SeatClient, create_table

from .kit import Node, nodes, owner_of

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]

LEASE = 3.0  # the default lease (fives serve --lease)


def _wait(condition, what: str, timeout: float = 15.0) -> float:  # type: ignore[no-untyped-def]
    """Poll ``condition`` until it holds; the seconds it took."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < timeout, f"not within {timeout}s: {what}"
        time.sleep(0.05)
    return time.monotonic() - start


def _alive(redis_url: str, node: Node) -> bool:
    with redis.Redis.from_url(redis_url) as r:
        return bool(r.exists(f"fives:proc:{node.id}"))


def _in_lease(node: Node) -> bool:
    try:
        return httpx.get(f"{node.base}/healthz", timeout=1).json().get("bus") == "ok"
    except httpx.HTTPError:
        return False


def _pause_past_the_lease(redis_url: str, node: Node) -> None:
    """SIGSTOP until the others have found the lease lapsed (and had a janitor round or
    three to bury it), then SIGCONT until the process holds a lease again."""
    os.kill(node.proc.pid, signal.SIGSTOP)
    try:
        _wait(lambda: not _alive(redis_url, node), "the paused process's lease lapsed",
              LEASE + 5)
        time.sleep(1.5)
    finally:
        os.kill(node.proc.pid, signal.SIGCONT)
    _wait(lambda: _in_lease(node), "the resumed process holds a lease again")


def _legal_play(st: dict) -> str | None:
    view = st["view"]
    if view is None or st["summary"] is not None or st["result"] is not None:
        return None
    if view["turn"] != st["you"] or not view["legal"]:
        return None
    return str(view["legal"][0])


@pytest.mark.parametrize("pauses", [1, 2])
def test_a_process_that_came_back_and_then_died_closes_its_relayed_sockets(
        cluster_db: str, cluster_redis: str, pauses: int) -> None:
    with nodes(cluster_db, cluster_redis, 3) as (a, b, c):
        for _ in range(pauses):
            _pause_past_the_lease(cluster_redis, a)
        created = create_table(a.base, game="all-fives", players=2, name="Asha", turn_time=0,
                               seed=7, seats=[{"kind": "human"}, {"kind": "bot",
                                                                 "level": "random"}])
        table = created["table"]
        assert owner_of(cluster_redis, table) == a.id

        async def scenario() -> None:
            # the person plays through b; a owns the table
            person = await SeatClient(b.base, table, created["token"],
                                      invite=created["invite"]).connect()
            await person.send({"type": "start"})
            st = await person.wait(lambda m: m["type"] == "state" and _legal_play(m) is not None,
                                   20)
            os.kill(a.proc.pid, signal.SIGKILL)
            killed = time.monotonic()
            a.proc.wait(10)
            # the relayed socket is closed by b once a's lease lapses and a janitor round
            # buries it (the page then reconnects by itself)
            with pytest.raises(ConnectionError):
                await person.wait(lambda m: False, 2 * LEASE + 3)
            closed_after = time.monotonic() - killed
            assert person.ws.close_code == 1012, person.ws.close_code
            assert closed_after < 5.0, closed_after  # the lease, a janitor round, the load
            # back in through the same process, now relayed to the new owner: the move that
            # was due is applied there
            again = None
            deadline = time.monotonic() + 15
            while again is None:
                try:
                    again = await SeatClient(b.base, table, created["token"],
                                             invite=created["invite"]).connect()
                except (ConnectionError, OSError, TimeoutError):
                    assert time.monotonic() < deadline, "no way back to the table"
                    await asyncio.sleep(0.2)
            new_owner = owner_of(cluster_redis, table)
            assert new_owner in (b.id, c.id), new_owner
            st = again.state
            assert st is not None and st["n"] >= 0
            play = _legal_play(st)
            assert play is not None, st
            await again.send({"type": "act", "action": play, "n": st["n"]})
            await again.wait(lambda m: m["type"] == "state" and m["n"] > st["n"], 10)
            await again.close()

        asyncio.run(scenario())


def test_a_seat_relayed_through_a_process_that_came_back_and_died_shows_as_gone(
        cluster_db: str, cluster_redis: str) -> None:
    """The other side of the same hole: the owner lives, the process relaying a person's
    socket was buried once, came back, and dies. The owner lets that connection go, so the
    seat no longer looks connected (with a turn clock its player would be timed out while
    the table said they were there)."""
    with nodes(cluster_db, cluster_redis, 2) as (a, c):
        _pause_past_the_lease(cluster_redis, c)
        created = create_table(a.base, game="all-fives", players=2, name="Asha", turn_time=0,
                               seed=9, seats=[{"kind": "human"}, {"kind": "human"}])
        table = created["table"]

        async def scenario() -> float:
            person = await SeatClient(c.base, table, created["token"],  # relayed by c
                                      invite=created["invite"]).connect()
            watcher = await SeatClient(a.base, table, invite=created["invite"]).connect()
            await watcher.wait(lambda m: m["type"] == "state"
                               and m["info"]["seats"][0]["connected"], 10)
            os.kill(c.proc.pid, signal.SIGKILL)
            killed = time.monotonic()
            c.proc.wait(10)
            start = len(watcher.messages)
            await watcher.wait(lambda m: m["type"] == "state"
                               and not m["info"]["seats"][0]["connected"], 2 * LEASE + 3,
                               start)
            gone_after = time.monotonic() - killed
            await person.close()
            await watcher.close()
            return gone_after

        assert asyncio.run(scenario()) < 5.0
