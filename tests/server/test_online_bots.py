"""Bots online (issue 17): a bot account made on its owner's profile (the token shown once,
kept hashed), the documented example client connecting with it and finishing a challenged
match as a labelled bot, and a bot that breaks the protocol disconnected, its seat taken by
our easy bot, the match going on."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import websockets

from .harness import SeatClient, play_to_end
from .test_players_api import cookies_of, new_player, wait_for

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "online_bot_example.py"


def bot_account(owner: httpx.Client, name: str = "Domino Dan") -> tuple[dict[str, Any], str]:
    r = owner.post("/api/me/bots", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()["bot"], r.json()["token"]


def challenge_and_play(base: str, person: httpx.Client, bot_id: str,
                       seed: int) -> dict[str, Any]:
    created = person.post("/api/challenge", json={"bot": bot_id, "game": "block",
                                                  "rated": True})
    assert created.status_code == 201, created.text
    table = created.json()

    async def go() -> dict[str, Any]:
        c = await SeatClient(base, table["table"], table["token"],
                             cookies=cookies_of(person)).connect()
        last = await play_to_end([c], random.Random(seed))
        await c.close()
        return last

    return asyncio.run(go())


def test_the_example_client_plays_a_challenged_match_as_a_labelled_bot(server: str) -> None:
    owner, person = new_player(server, "Owner"), new_player(server, "Asha")
    bot, token = bot_account(owner)
    assert bot["kind"] == "outside" and token not in str(owner.get("/api/me/bots").json())
    proc = subprocess.Popen([sys.executable, str(EXAMPLE), server, "--token", token],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # a loaded machine may take a while to start a Python process
        online = wait_for(lambda: httpx.get(f"{server}/api/bots/online").json()["bots"]
                          or proc.poll() is not None, timeout=60)
        assert proc.poll() is None, proc.communicate(timeout=5)
        assert [b["id"] for b in online] == [bot["id"]]
        last = challenge_and_play(server, person, bot["id"], 3)
        seat = last["info"]["seats"][1]
        assert seat["kind"] == "bot" and seat["player"] == bot["id"]
        assert seat["name"] == bot["label"]
        record = httpx.get(f"{server}/api/matches/{last['info']['id']}/record").json()
        assert record["seat_kinds"] == ["human", "bot"]
        # rated from its match against a person, beside the person
        rated = wait_for(lambda: httpx.get(f"{server}/api/players/{bot['id']}").json()["ratings"])
        assert set(rated) == {"block"}
        assert not httpx.get(f"{server}/api/bots/online").json()["bots"][0]["busy"]
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_a_bot_that_breaks_the_protocol_is_disconnected_and_easy_takes_its_seat(
        server: str) -> None:
    owner, person = new_player(server, "Owner"), new_player(server, "Asha")
    bot, token = bot_account(owner, "Bad Bot")
    url = server.replace("http", "ws", 1) + "/ws/bot"

    heard: list[str] = []

    async def breaker(closed: list[Any]) -> None:
        async with websockets.connect(url, additional_headers={
                "Authorization": f"Bearer {token}"}) as ws:
            try:
                async for text in ws:
                    heard.append(json.loads(text).get("type"))
                    if heard[-1] == "act":
                        await ws.send("this is not json")
            except websockets.ConnectionClosed:
                pass
            closed.append(ws.close_code)

    closed: list[Any] = []

    async def go() -> dict[str, Any]:
        task = asyncio.get_running_loop().create_task(breaker(closed))
        while not (await asyncio.to_thread(
                lambda: httpx.get(f"{server}/api/bots/online").json()["bots"])):
            await asyncio.sleep(0.05)
        created = await asyncio.to_thread(lambda: person.post("/api/challenge", json={
            "bot": bot["id"], "game": "all-fives", "seed": 2}).json())
        c = await SeatClient(server, created["table"], created["token"],
                             cookies=cookies_of(person)).connect()
        last = await play_to_end([c], random.Random(2))
        await c.close()
        await asyncio.wait_for(task, 10)
        return last

    last = asyncio.run(go())
    assert closed == [4400]
    # told of the deal before its first decision, then why it was disconnected
    assert heard[0] == "welcome" and heard[1] == "start" and heard[-1] == "error"
    seat = last["info"]["seats"][1]
    assert seat["kind"] == "bot" and seat["player"] is None and seat["level"] == "easy"
    assert last["result"] is not None
    assert httpx.get(f"{server}/api/bots/online").json()["bots"] == []


def test_a_bot_token_opens_no_person_and_a_wrong_one_is_refused(server: str) -> None:
    owner = new_player(server, "Owner")
    bot, token = bot_account(owner)
    assert httpx.get(f"{server}/api/me", cookies={"fives_id": token}).json() == {"player": None}

    async def go(tok: str) -> Any:
        async with websockets.connect(server.replace("http", "ws", 1) + "/ws/bot",
                                      additional_headers={"Authorization": f"Bearer {tok}"}) as ws:
            first = json.loads(await ws.recv())
            with_close = None
            try:
                await ws.recv()
            except websockets.ConnectionClosed as exc:
                with_close = exc.rcvd.code if exc.rcvd else None
            return first["type"], with_close

    assert asyncio.run(go("x" * 40)) == ("error", 4401)
    renewed = owner.post(f"/api/me/bots/{bot['id']}/token", json={}).json()["token"]
    assert asyncio.run(go(token)) == ("error", 4401)  # the old token is revoked
    assert renewed != token
    other = new_player(server, "Other")
    assert other.post(f"/api/me/bots/{bot['id']}/token", json={}).status_code == 404


def test_challenges_need_a_bot_online_and_free(server: str) -> None:
    person = new_player(server, "Asha")
    r = person.post("/api/challenge", json={"bot": "onobody", "game": "block"})
    assert r.status_code == 400 and r.json()["error"] == "bot_offline"
    r = httpx.post(f"{server}/api/challenge", json={"bot": "onobody"})
    assert r.status_code == 401 and r.json()["error"] == "no_identity"
