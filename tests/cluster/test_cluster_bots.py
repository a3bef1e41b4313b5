"""Bots online in a cluster: a bot whose WebSocket reached one process is listed by every
process, booked once for the whole cluster (two challenges at two processes at once: one
table, the other ``bot_busy``), asked over the bus by the table's owner wherever that is,
and asked again by the process that takes its table over when the owner dies. Redis out of
reach is a translated refusal; a bot that breaks the protocol is dropped by the process
holding its socket."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from typing import Any

import httpx
import pytest

from server.test_online_bots import LineBot, _online, bot_account
from server.test_players_api import cookies_of, new_player
from server.test_server_crash import Seen

from .kit import Node, Partition, load, nodes, owner_of, play_on

pytestmark = pytest.mark.timeout(300)


def _as(person: httpx.Client, node: Node) -> httpx.Client:
    """The same browser (its identity's cookie) talking to another process."""
    return httpx.Client(base_url=node.base, cookies=cookies_of(person), timeout=10)


async def _challenge(client: httpx.Client, bot_id: str) -> httpx.Response:
    return await asyncio.to_thread(lambda: client.post(
        "/api/challenge", json={"bot": bot_id, "game": "block"}))


def _bot_moves(db: str, table: str) -> list[str]:
    """How each stored move of the bot's seat (1) was made."""
    stored = load(db, table)
    assert stored is not None
    return [a.how for r in stored.rounds for a in r.actions if a.seat == 1]


@pytest.mark.slow
def test_a_bot_at_one_process_is_listed_booked_once_and_plays_at_another(
        cluster_db: str, cluster_redis: str) -> None:
    with nodes(cluster_db, cluster_redis, 3) as (a, b, c):
        owner, asha, bea = (new_player(a.base, n) for n in ("Owner", "Asha", "Bea"))
        account, token = bot_account(owner)
        bot_id = account["id"]

        async def go() -> tuple[dict[str, Any], str, list[httpx.Response], int]:
            bot = await LineBot(a.base, token).connect()  # its socket is at a
            for node in (a, b, c):
                listed = await _online(node.base, bot_id, busy=False)
                assert listed["label"] == account["label"]
            # two people challenge it at once, at two other processes
            replies = list(await asyncio.gather(_challenge(_as(asha, b), bot_id),
                                                _challenge(_as(bea, c), bot_id)))
            won = next(r for r in replies if r.status_code == 201)
            table = won.json()
            assert owner_of(cluster_redis, table["table"]) in (b.id, c.id)
            await _online(a.base, bot_id, busy=True)
            last = await play_on([a, b, c], table["table"], table["token"], Seen(),
                                 random.Random(3), first=a, timeout=120)
            await _online(b.base, bot_id, busy=False)  # freed by the match's end
            answered = bot.answered
            await bot.close()
            return last, table["table"], replies, answered

        last, table, replies, answered = asyncio.run(go())
        assert sorted(r.status_code for r in replies) == [201, 400]
        refused = next(r for r in replies if r.status_code == 400).json()
        assert refused["error"] == "bot_busy" and refused["message"]
        assert last["result"] is not None
        seat = last["info"]["seats"][1]
        assert seat["kind"] == "bot" and seat["player"] == bot_id  # never easy's
        moves = _bot_moves(cluster_db, table)
        assert answered > 0 and set(moves) <= {"bot", "forced"}
        assert answered <= moves.count("bot")  # its forced moves are made without asking
        # gone from every process's list once it disconnects
        deadline = time.monotonic() + 10
        while any(httpx.get(f"{n.base}/api/bots/online", timeout=5).json()["bots"]
                  for n in (a, b, c)):
            assert time.monotonic() < deadline, "still listed after it left"
            time.sleep(0.1)


@pytest.mark.slow
def test_the_process_taking_a_table_over_asks_the_same_bot(
        cluster_db: str, cluster_redis: str) -> None:
    """The table's owner is killed mid-match: the process that takes the table over finds
    the bot's booking and its socket at another process, and the bot plays on to the end."""
    with nodes(cluster_db, cluster_redis, 3) as (a, b, c):
        owner, asha = new_player(a.base, "Owner"), new_player(a.base, "Asha")
        account, token = bot_account(owner)
        bot_id = account["id"]

        async def go() -> tuple[dict[str, Any], str, int, int]:
            bot = await LineBot(a.base, token).connect()
            await _online(b.base, bot_id)
            r = await _challenge(_as(asha, b), bot_id)
            assert r.status_code == 201, r.text
            table = r.json()
            assert owner_of(cluster_redis, table["table"]) == b.id
            player = asyncio.ensure_future(play_on(
                [a, c], table["table"], table["token"], Seen(), random.Random(8), first=c,
                timeout=150))
            while bot.answered < 2:
                assert not player.done(), "the match ended before the owner was killed"
                await asyncio.sleep(0.01)
            os.kill(b.proc.pid, signal.SIGKILL)
            await asyncio.to_thread(b.proc.wait, 10)
            before = bot.answered
            last = await player
            answered = bot.answered
            await bot.close()
            return last, table["table"], before, answered

        last, table, before, answered = asyncio.run(go())
        assert owner_of(cluster_redis, table) in (a.id, c.id)
        assert last["result"] is not None
        seat = last["info"]["seats"][1]
        assert seat["kind"] == "bot" and seat["player"] == bot_id
        assert answered > before, "the new owner never asked the bot"
        assert set(_bot_moves(cluster_db, table)) <= {"bot", "forced"}


@pytest.mark.slow
def test_a_bot_breaking_the_protocol_at_another_process_is_dropped_there(
        cluster_db: str, cluster_redis: str) -> None:
    """The owner reads the answer as for a local bot: garbage makes the process holding the
    socket say why and close it (4400), and our easy bot plays the seat to the end."""
    with nodes(cluster_db, cluster_redis, 2) as (a, b):
        owner, asha = new_player(a.base, "Owner"), new_player(a.base, "Asha")
        account, token = bot_account(owner, "Bad Bot")

        async def go() -> tuple[dict[str, Any], LineBot]:
            bot = await LineBot(a.base, token, answer=lambda act: "this is not json").connect()
            await _online(b.base, account["id"])
            r = await _challenge(_as(asha, b), account["id"])
            assert r.status_code == 201, r.text
            table = r.json()
            last = await play_on([a, b], table["table"], table["token"], Seen(),
                                 random.Random(2), first=b, timeout=120)
            assert bot.task is not None
            await asyncio.wait_for(bot.task, 10)
            return last, bot

        last, bot = asyncio.run(go())
        assert bot.close_code == 4400 and bot.answered == 1
        assert bot.heard[-1]["type"] == "error" and bot.heard[-1]["code"] == "garbage"
        seat = last["info"]["seats"][1]
        assert seat["kind"] == "bot" and seat["player"] is None and seat["level"] == "easy"
        assert last["result"] is not None
        assert httpx.get(f"{b.base}/api/bots/online", timeout=5).json()["bots"] == []


def test_redis_out_of_reach_is_a_translated_refusal(cluster_db: str,
                                                    cluster_redis: str) -> None:
    partition = Partition(cluster_redis)
    try:
        with nodes(cluster_db, partition.url, 1) as (cut_off,):
            person = new_player(cut_off.base, "Asha")
            partition.cut()
            for lang in ("en", "hi"):
                r = httpx.get(f"{cut_off.base}/api/bots/online?lang={lang}", timeout=10)
                assert r.status_code == 503 and r.json()["error"] == "bots_unreachable"
                assert r.json()["message"] and not r.json()["message"].startswith("web.")
            r = person.post("/api/challenge", json={"bot": "osomebody", "game": "block"})
            assert r.status_code == 503 and r.json()["error"] == "bots_unreachable"
    finally:
        partition.close()
