"""Bots online (issue 17): a bot account made on its owner's profile (the token shown once,
kept hashed), the documented example client connecting with it and finishing a challenged
match as a labelled bot, and a bot that breaks the protocol disconnected, its seat taken by
our easy bot, the match going on. A rematch books the same bot again, or seats our easy bot
from the start when the bot is gone or busy."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

from .harness import SeatClient, fast_settings, play_to_end, running_server, wait_until_async
from .test_players_api import cookies_of, new_player, wait_for

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "online_bot_example.py"


class LineBot:
    """A bot program of the tests on ``/ws/bot``: it answers every ``act`` with its first
    legal action (or with ``answer``'s line) and keeps every line it heard, in order."""

    def __init__(self, base: str, token: str,
                 answer: Callable[[dict[str, Any]], str] | None = None) -> None:
        self.url = base.replace("http", "ws", 1) + "/ws/bot"
        self.token = token
        self.answer = answer or (lambda act: json.dumps({"action": act["legal"][0]}))
        self.heard: list[dict[str, Any]] = []
        self.answered = 0
        self.close_code: int | None = None
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None

    async def connect(self) -> LineBot:
        self.ws = await websockets.connect(self.url, additional_headers={
            "Authorization": f"Bearer {self.token}"}, max_size=2**20)
        welcome = json.loads(await self.ws.recv())
        assert welcome["type"] == "welcome", welcome
        self.heard.append(welcome)
        self.task = asyncio.get_running_loop().create_task(self._run())
        return self

    async def _run(self) -> None:
        try:
            async for text in self.ws:
                message = json.loads(text)
                self.heard.append(message)
                if message.get("type") == "act":
                    await self.ws.send(self.answer(message))
                    self.answered += 1
        except websockets.ConnectionClosed:
            pass
        self.close_code = self.ws.close_code

    def acts(self, since: int = 0) -> list[dict[str, Any]]:
        return [m for m in self.heard[since:] if m.get("type") == "act"]

    async def close(self) -> None:
        await self.ws.close()
        if self.task is not None:
            await self.task


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
    # "--token=...": a token may begin with "-", which argparse would read as an option
    proc = subprocess.Popen([sys.executable, str(EXAMPLE), server, f"--token={token}"],
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
        await wait_until_async(lambda: asyncio.to_thread(
            lambda: httpx.get(f"{server}/api/bots/online").json()["bots"]), 10,
            "the bot to be listed online")
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


async def _online(base: str, bot_id: str, busy: bool | None = None) -> dict[str, Any]:
    """The bot as the list of bots online shows it, once it is there (and ``busy`` as asked)."""
    for _ in range(200):
        listed = await asyncio.to_thread(lambda: httpx.get(f"{base}/api/bots/online").json())
        found = next((b for b in listed["bots"] if b["id"] == bot_id), None)
        if found is not None and busy in (None, found["busy"]):
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"bot {bot_id} not listed (busy={busy}): {listed}")


async def _challenge(base: str, person: httpx.Client, bot_id: str,
                     **spec: Any) -> httpx.Response:
    return await asyncio.to_thread(lambda: person.post(
        "/api/challenge", json={"bot": bot_id, "game": "block", **spec}))


async def _match_then_rematch(base: str, person: httpx.Client, bot: LineBot, bot_id: str,
                              between: Any = None) -> tuple[dict[str, Any], int, str]:
    """A challenged match played to its end, then ``between()`` (if given), then the person's
    rematch: the rematch's first state, the index of the bot's first line after the first
    match, and the rematch's id."""
    created = await _challenge(base, person, bot_id)
    assert created.status_code == 201, created.text
    table = created.json()
    c = await SeatClient(base, table["table"], table["token"],
                         cookies=cookies_of(person)).connect()
    last = await play_to_end([c], random.Random(4))
    assert last["info"]["seats"][1]["player"] == bot_id
    assert bot.answered > 0
    await _online(base, bot_id, busy=False)  # freed once the match is over
    after = len(bot.heard)
    if between is not None:
        await between()
    await c.send({"type": "rematch"})
    rematch = (await c.wait(lambda m: m["type"] == "rematch"))["table"]
    await c.close()
    r = await SeatClient(base, rematch, table["token"], cookies=cookies_of(person)).connect()
    first = r.state
    assert first is not None
    await play_to_end([r], random.Random(5))
    await r.close()
    return first, after, rematch


def test_a_rematch_books_the_same_online_bot(server: str) -> None:
    owner, person = new_player(server, "Owner"), new_player(server, "Asha")
    account, token = bot_account(owner)

    async def go() -> tuple[dict[str, Any], list[dict[str, Any]], str]:
        bot = await LineBot(server, token).connect()
        await _online(server, account["id"])
        first, after, rematch = await _match_then_rematch(server, person, bot, account["id"])
        await _online(server, account["id"], busy=False)  # the rematch let it go in turn
        acts = bot.acts(after)
        await bot.close()
        return first, acts, rematch

    first, acts, rematch = asyncio.run(go())
    seat = first["info"]["seats"][1]
    assert seat["kind"] == "bot" and seat["player"] == account["id"]
    assert seat["name"] == account["label"]
    record = httpx.get(f"{server}/api/matches/{rematch}/record").json()
    assert record["seats"][1] == "easy"  # a bot's seat is named by its level in records
    # the bot answered the rematch's own questions: each act shows its hand of that deal
    assert acts, "the bot was not asked in the rematch"
    for act in acts:
        dealt = set(record["rounds"][act["view"]["round"]]["hands"][1])
        assert set(act["view"]["hand"]) <= dealt, (act["view"]["hand"], dealt)


def test_a_rematch_without_its_bot_seats_easy_from_the_start(server: str) -> None:
    """The bot left (or another person challenged it meanwhile): the rematch's seat is our
    easy bot's from the start, shown and recorded as such, never the account's."""
    owner, person, other = (new_player(server, n) for n in ("Owner", "Asha", "Bea"))
    account, token = bot_account(owner)

    async def gone() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        bot = await LineBot(server, token).connect()
        await _online(server, account["id"])
        first, after, _ = await _match_then_rematch(server, person, bot, account["id"],
                                                    between=bot.close)
        return first, bot.acts(after)

    async def busy() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        bot = await LineBot(server, token).connect()
        await _online(server, account["id"])

        async def taken_by_another() -> None:
            r = await _challenge(server, other, account["id"])
            assert r.status_code == 201, r.text
            await _online(server, account["id"], busy=True)

        first, after, _ = await _match_then_rematch(server, person, bot, account["id"],
                                                    between=taken_by_another)
        await bot.close()
        return first, bot.acts(after)

    for first, _acts in (asyncio.run(gone()), asyncio.run(busy())):
        seat = first["info"]["seats"][1]
        assert seat["kind"] == "bot" and seat["player"] is None and seat["level"] == "easy"
        assert seat["name"] is None or "#" not in str(seat["name"])


def test_a_match_the_person_left_lets_its_online_bot_go(tmp_path: Path) -> None:
    """The person challenged a bot and went away: once nobody has been at the table for
    unwatched_ttl, the bot is free for other challenges and our easy bot keeps the seat,
    so the match can go on when the person comes back."""
    settings = fast_settings(str(tmp_path / "db.sqlite3"), unwatched_ttl=0.5, sweep_every=0.1,
                             absent_turn=600.0)
    with running_server(settings) as base:
        owner, person, other = (new_player(base, n) for n in ("Owner", "Asha", "Bea"))
        account, token = bot_account(owner)

        async def go() -> tuple[dict[str, Any], httpx.Response]:
            bot = await LineBot(base, token).connect()
            await _online(base, account["id"])
            created = await _challenge(base, person, account["id"])
            assert created.status_code == 201, created.text
            table = created.json()
            await _online(base, account["id"], busy=True)
            await _online(base, account["id"], busy=False)  # the person never came
            again = await _challenge(base, other, account["id"])
            c = await SeatClient(base, table["table"], table["token"],
                                 cookies=cookies_of(person)).connect()
            seat = c.state["info"]["seats"][1]
            await c.close()
            await bot.close()
            return seat, again

        seat, again = asyncio.run(go())
    assert again.status_code == 201, again.text
    assert seat["kind"] == "bot" and seat["player"] is None and seat["level"] == "easy"


def test_no_bot_token_begins_with_a_dash_a_command_line_would_read_as_an_option() -> None:
    from fives.server.bot_api import bot_token

    tokens = [bot_token() for _ in range(2000)]  # one in 64 of token_urlsafe's would
    assert not any(t.startswith("-") for t in tokens) and len(set(tokens)) == 2000
    assert all(len(t) >= 40 for t in tokens)


def test_wrong_bot_tokens_are_rate_limited_per_address(server: str) -> None:
    """/ws/bot took hundreds of wrong tokens a second from one address, each a store look-up:
    past the allowance (30 a minute, bursts of 30) a try is refused before any look-up, and
    another address is not held back."""
    url = server.replace("http", "ws", 1) + "/ws/bot"

    async def tries(n: int, addr: str) -> list[str]:
        codes = []
        for i in range(n):
            async with websockets.connect(url, additional_headers={
                    "Authorization": f"Bearer wrong-token-{i:04d}-xxxxxxxxxxxx",
                    "X-Forwarded-For": addr}) as ws:
                codes.append(json.loads(await ws.recv())["code"])
        return codes

    codes = asyncio.run(tries(34, "10.0.0.7"))
    assert codes[:30] == ["bad_token"] * 30 and codes[30:] == ["rate_limited"] * 4
    assert asyncio.run(tries(1, "10.0.0.8")) == ["bad_token"]
