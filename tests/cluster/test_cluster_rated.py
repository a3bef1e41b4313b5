"""Ratings a club can trust, on the cluster (issue 39): two identities of one address at a rated
friend table made at one process and played through another play it casual, and nothing is
rated; two people at two addresses play it rated; a rated challenge of one's own bot is refused
at any process; a leave after the pairing is refused with the table at any process. (The rated
queue of a cluster keeps one address apart: test_cluster_queue.py.)"""

from __future__ import annotations

import asyncio

import pytest

from server.test_online_bots import bot_account
from server.test_players_api import new_player, rated_match, wait_for

from .kit import nodes

pytestmark = pytest.mark.timeout(180)


def test_a_rated_friend_table_of_one_address_is_casual_across_processes(
        cluster_db: str, cluster_redis: str) -> None:
    with nodes(cluster_db, cluster_redis, 2) as (a, b):
        one, two = new_player(a.base, "Asha"), new_player(a.base, "Asha two")
        last = asyncio.run(rated_match(b.base, one, two, 17, private=True))  # made at a, via b
        assert last["info"]["rated"] and last["info"]["casual"] == "same_address"
        assert wait_for(lambda: one.get("/api/me").json()["player"]["matches"])[0]["rated"] \
            is False
        assert one.get("/api/me").json()["player"]["ratings"] == {}
        asha, ravi = new_player(b.base, "Ravi", "10.0.0.2"), new_player(a.base, "Mina",
                                                                          "10.0.0.3")
        last = asyncio.run(rated_match(a.base, asha, ravi, 18, private=True))
        assert last["info"]["casual"] is None
        assert wait_for(lambda: ravi.get("/api/me").json()["player"]["ratings"].get("block"))


def test_a_rated_challenge_of_ones_own_bot_and_a_late_leave_are_refused_at_any_process(
        cluster_db: str, cluster_redis: str) -> None:
    with nodes(cluster_db, cluster_redis, 2) as (a, b):
        owner = new_player(a.base, "Owner", "10.0.0.1")
        bot, _ = bot_account(owner)
        r = owner.post(f"{b.base}/api/challenge", json={"bot": bot["id"], "rated": True})
        assert r.status_code == 400 and r.json()["error"] == "own_bot_rated", r.text
        # two people queued at two processes, paired; a leave asked at either is refused
        asha, ravi = new_player(a.base, "Asha", "10.0.0.2"), new_player(b.base, "Ravi", "10.0.0.3")
        spec = {"game": "draw", "players": 2, "rated": True}
        mine = asha.post(f"{a.base}/api/queue", json=spec).json()["ticket"]
        theirs = ravi.post(f"{b.base}/api/queue", json=spec).json()["ticket"]
        table = wait_for(lambda: asha.get(f"{b.base}/api/queue/{mine}").json().get("table"), 15)
        for client, node, ticket in ((asha, b, mine), (ravi, a, theirs)):
            late = client.post(f"{node.base}/api/queue/{ticket}/leave", json={})
            assert late.status_code == 409, late.text
            assert late.json()["error"] == "already_matched" and late.json()["table"] == table
