"""One pairing queue for the whole cluster, with real ``fives serve`` processes sharing
PostgreSQL and Redis: two people queued at two processes sit at one table; a person queued at
a process that does not lead the queue is offered bots and seated with them; the leader
killed, another process leads and the queue still pairs; Redis cut off, a join and a poll
are one translated refusal."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import httpx
import pytest
import redis

from server.harness import SeatClient
from server.test_players_api import cookies_of, new_player

from .kit import Node, Partition, nodes

pytestmark = pytest.mark.timeout(120)

QUEUE = {"game": "draw", "players": 2, "rated": True}


def leader_of(redis_url: str) -> str | None:
    with redis.Redis.from_url(redis_url, decode_responses=True) as r:
        leader = r.get("fives:queue:leader")
    return str(leader) if leader else None


def wait_leader(redis_url: str, among: list[Node], timeout: float = 10.0) -> Node:
    """The process that leads the queue (one of ``among``), once there is one."""
    deadline = time.monotonic() + timeout
    while True:
        leader = leader_of(redis_url)
        found = next((n for n in among if n.id == leader), None)
        if found is not None:
            return found
        assert time.monotonic() < deadline, f"no leader among {[n.id for n in among]}"
        time.sleep(0.05)


def poll_until(client: httpx.Client, url: str, done: Any, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        answer = client.get(url)
        assert answer.status_code == 200, answer.text
        if done(answer.json()):
            return answer.json()
        assert time.monotonic() < deadline, answer.json()
        time.sleep(0.1)


def queue_at(node: Node, client: httpx.Client, **spec: Any) -> str:
    r = client.post(f"{node.base}/api/queue", json={**QUEUE, **spec})
    assert r.status_code == 201, r.text
    return str(r.json()["ticket"])


def matched(status: dict[str, Any]) -> bool:
    return status["state"] == "matched"


async def seated(node: Node, table: str, token: str, client: httpx.Client) -> dict[str, Any]:
    """What the table tells a player connected to ``node`` (maybe not the table's owner)."""
    c = await SeatClient(node.base, table, token, cookies=cookies_of(client)).connect()
    info: dict[str, Any] = c.state["info"] if c.state else {}
    await c.close()
    return {"seat": c.seat, **info}


def test_two_people_queued_at_two_processes_sit_at_one_table(cluster_db: str,
                                                            cluster_redis: str) -> None:
    with nodes(cluster_db, cluster_redis, 2) as (a, b):
        asha, ravi = new_player(a.base, "Asha", "10.0.0.1"), new_player(b.base, "Ravi", "10.0.0.2")
        mine, theirs = queue_at(a, asha), queue_at(b, ravi)
        # each asks the other process: any process answers from the one queue
        found_a = poll_until(asha, f"{b.base}/api/queue/{mine}", matched)
        found_b = poll_until(ravi, f"{a.base}/api/queue/{theirs}", matched)
        assert found_a["table"] == found_b["table"] and found_a["token"] != found_b["token"]
        assert ravi.get(f"{a.base}/api/queue/{mine}").status_code == 404  # Asha's alone

        async def both() -> list[dict[str, Any]]:
            return [await seated(a, found_a["table"], found_a["token"], asha),
                    await seated(b, found_b["table"], found_b["token"], ravi)]

        for info in asyncio.run(both()):
            assert info["seat"] is not None and info["rated"] and info["status"] == "playing"
            assert sorted(s["name"].split("#")[0] for s in info["seats"]) == ["Asha", "Ravi"]


def test_two_identities_of_one_address_queued_rated_at_two_processes_are_never_paired(
        cluster_db: str, cluster_redis: str) -> None:
    """Two browser profiles of one person (one address, two identities) queue for a rated
    match at two processes: the one queue never pairs them with each other, and pairs each
    with someone else."""
    with nodes(cluster_db, cluster_redis, 2) as (a, b):
        one, two = new_player(a.base, "Asha"), new_player(b.base, "Asha two")
        mine, theirs = queue_at(a, one), queue_at(b, two)
        time.sleep(2.5)  # many passes of the leader (one a tick while something changes)
        for client, node, ticket in ((one, b, mine), (two, a, theirs)):
            assert client.get(f"{node.base}/api/queue/{ticket}").json()["state"] == "waiting"
        ravi = new_player(b.base, "Ravi", "10.0.0.2")
        found = poll_until(ravi, f"{a.base}/api/queue/{queue_at(b, ravi)}", matched)
        tables = {one.get(f"{a.base}/api/queue/{mine}").json().get("table"),
                  two.get(f"{b.base}/api/queue/{theirs}").json().get("table")}
        assert found["table"] in tables and None in tables  # Ravi with one of them only


def test_a_person_queued_where_the_queue_is_not_led_is_offered_bots_and_seated(
        cluster_db: str, cluster_redis: str) -> None:
    with nodes(cluster_db, cluster_redis, 2, "--bot-offer", "1") as live:
        leader = wait_leader(cluster_redis, live)
        other = next(n for n in live if n is not leader)
        chandra = new_player(other.base, "Chandra")
        ticket = queue_at(other, chandra, game="block", players=3)
        waiting = poll_until(chandra, f"{other.base}/api/queue/{ticket}",
                             lambda s: s.get("offer"))
        assert waiting["state"] == "waiting" and waiting["offer"]["level"] in (
            "random", "easy", "medium", "hard", "expert")
        r = chandra.post(f"{other.base}/api/queue/{ticket}/bots", json={"accept": True})
        assert r.status_code == 200 and r.json()["state"] == "matched", r.text
        info = asyncio.run(seated(other, r.json()["table"], r.json()["token"], chandra))
        assert info["seat"] is not None and info["players"] == 3
        kinds = sorted(s.get("kind", "human") for s in info["seats"])
        assert kinds == ["bot", "bot", "human"], info["seats"]


@pytest.mark.slow
def test_the_leader_killed_another_process_leads_and_the_queue_still_pairs(
        cluster_db: str, cluster_redis: str) -> None:
    with nodes(cluster_db, cluster_redis, 3) as live:
        leader = wait_leader(cluster_redis, live)
        b, c = [n for n in live if n is not leader]
        dev, esha = new_player(b.base, "Dev", "10.0.0.3"), new_player(c.base, "Esha", "10.0.0.4")
        os.kill(leader.proc.pid, signal.SIGKILL)
        leader.proc.wait(10)
        killed = time.monotonic()
        mine, theirs = queue_at(b, dev), queue_at(c, esha)
        found = poll_until(dev, f"{c.base}/api/queue/{mine}", matched)
        # the lease (3 s) lapses, a survivor takes it at its next try, and matches
        assert time.monotonic() - killed < 6.0
        assert poll_until(esha, f"{b.base}/api/queue/{theirs}", matched)["table"] == found[
            "table"]
        assert wait_leader(cluster_redis, [b, c]) in (b, c)


def test_redis_cut_off_a_join_and_a_poll_are_one_translated_refusal(
        cluster_db: str, cluster_redis: str) -> None:
    partition = Partition(cluster_redis)
    try:
        with nodes(cluster_db, partition.url, 1) as (node,):
            asha = new_player(node.base, "Asha")
            ticket = queue_at(node, asha)
            partition.cut()
            joined = asha.post(f"{node.base}/api/queue", json=QUEUE)
            polled = asha.get(f"{node.base}/api/queue/{ticket}",
                              headers={"Accept-Language": "hi"})
            assert joined.status_code == polled.status_code == 503
            assert joined.json() == {"error": "server", "message":
                                     "Something went wrong on the server; nothing was "
                                     "changed. Please try again."}
            assert polled.json()["error"] == "server"
            assert polled.json()["message"].startswith("सर्वर पर कुछ गड़बड़ हुई")
            assert "Traceback" not in node.log_text()
            partition.heal()
            deadline = time.monotonic() + 10
            while (again := asha.get(f"{node.base}/api/queue/{ticket}")).status_code != 200:
                assert time.monotonic() < deadline, again.text
                time.sleep(0.2)
            assert again.json()["state"] == "waiting"  # the ticket outlived the cut
    finally:
        partition.close()
