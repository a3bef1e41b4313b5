"""Bots online over HTTP and WebSocket: a person makes bot accounts on their profile (the
token is shown once; only its hash is kept), a bot program connects to ``/ws/bot`` with its
token (``Authorization: Bearer <token>``) and plays with BOT-PROTOCOL.md's lines, people
challenge the bots online from the lobby. How a program does it: docs/online-bots.md."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from fives.server.identity import Identities, clean_player_name, hash_secret
from fives.server.manager import TableManager
from fives.server.messages import ClientError
from fives.server.online_bots import REPLACED, OnlineBot, Unreachable
from fives.server.player_api import browser_of, player_json
from fives.server.ratelimit import AddressLimit
from fives.server.webio import addr_of, json_body, refusing
from fives.store.base import StoreError
from fives.store.players import NameLooksTaken, NameTaken, StoredPlayer

__all__ = ["MAX_BOTS", "bot_routes"]

#: bot accounts one person may own
MAX_BOTS = 5
#: the longest line a bot may send
MAX_LINE = 2048


def bot_token() -> str:
    """A bot account's token: never one beginning with "-", which a program's command line
    (``--token -x...``) would read as an option (one in 64 did)."""
    while (token := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return token


def bot_routes(manager: Callable[[], TableManager], makes: AddressLimit,
               logins: AddressLimit) -> list[Any]:
    """The routes, given the app's manager, the limit on new identities and accounts per
    address (the players' API counts against the same) and the limit on bot programs'
    connections per address (a wrong token costs a store look-up as a right one does)."""

    async def me(request: Request) -> StoredPlayer:
        return await Identities(manager().store).required(request)

    @refusing
    async def api_my_bots(request: Request) -> Response:
        owner = await me(request)
        store = manager().store
        if request.method == "GET":
            bots = await store.bot_accounts_of(owner.id)
            return JSONResponse({"bots": [player_json(b) for b in bots]})
        if not await makes.take(addr_of(request)):
            raise ClientError("rate_limited")
        body = await json_body(request)
        name = clean_player_name(body.get("name") if isinstance(body, dict) else None,
                                 bot_account=True)
        if len(await store.bot_accounts_of(owner.id)) >= MAX_BOTS:
            raise ClientError("too_many_bots", {"n": MAX_BOTS})
        token = bot_token()
        for _ in range(20):
            bot = StoredPlayer("o" + secrets.token_urlsafe(9).replace("-", "x").replace("_", "y"),
                               name, f"{secrets.randbelow(10000):04d}", "outside", time.time())
            try:
                await store.create_bot_account(bot, owner.id, hash_secret(token))
            except NameTaken:
                continue
            except NameLooksTaken:
                raise ClientError("name_looks_taken") from None
            return JSONResponse({"bot": player_json(bot), "token": token}, status_code=201)
        raise ClientError("name_taken")

    @refusing
    async def api_bot_token(request: Request) -> Response:
        owner = await me(request)
        token = bot_token()
        if not await manager().store.new_bot_token(request.path_params["bot_id"], owner.id,
                                                   hash_secret(token)):
            raise ClientError("not_found")
        return JSONResponse({"token": token})

    @refusing
    async def api_online(request: Request) -> Response:
        try:
            return JSONResponse({"bots": await manager().outside.listed()})
        except Unreachable:
            raise ClientError("bots_unreachable") from None

    @refusing
    async def api_challenge(request: Request) -> Response:
        player = await me(request)
        body = await json_body(request)
        table, seat, token = await manager().challenge(body, addr_of(request), player,
                                                       browser_of(request))
        return JSONResponse({"table": table.id, "seat": seat, "token": token,
                             "private": False, "invite": None}, status_code=201)

    async def ws_bot(ws: WebSocket) -> None:
        """A bot program's connection: its token in the Authorization header; then
        BOT-PROTOCOL.md lines both ways until it goes (or breaks the protocol)."""
        await ws.accept()
        if not await logins.take(addr_of(ws)):
            with contextlib.suppress(Exception):
                await ws.send_json({"type": "error", "code": "rate_limited",
                                    "message": "too many connections from this address: "
                                               "try again in a minute"})
                await ws.close(code=4429)
            return
        header = ws.headers.get("authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else ""
        player = None
        if 20 <= len(token) <= 100:
            with contextlib.suppress(StoreError):
                player = await manager().store.player_by_secret(hash_secret(token))
        if player is None or player.kind != "outside":
            with contextlib.suppress(Exception):
                await ws.send_json({"type": "error", "code": "bad_token",
                                    "message": "unknown bot token"})
                await ws.close(code=4401)
            return
        lock = asyncio.Lock()

        async def send(text: str) -> None:
            async with lock:
                await ws.send_text(text)

        async def close(code: int, reason: str) -> None:
            await ws.close(code=code, reason=reason[:100])

        bots = manager().outside
        bot = OnlineBot(player, send, close)
        try:
            old = await bots.connect(bot)
        except Unreachable:  # nobody could challenge it: it is told to come back later
            with contextlib.suppress(Exception):
                await ws.send_json({"type": "error", "code": "unavailable",
                                    "message": "bots online cannot be reached now"})
                await ws.close(code=1013)
            return
        if old is not None:  # the same account again: the newer connection plays
            bots.forget(old)
            with contextlib.suppress(Exception):
                await old.close(REPLACED, "replaced by a newer connection")
        await send('{"type":"welcome","version":1,"bot":' + _json(player_json(player)) + "}")
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                line = message.get("text") or ""
                if len(line) > MAX_LINE:
                    line = line[:MAX_LINE]  # read as garbage: not JSON
                bots.heard(bot, line)
        except WebSocketDisconnect:
            pass
        finally:
            await bots.disconnect(bot)

    return [
        Route("/api/me/bots", api_my_bots, methods=["GET", "POST"]),
        Route("/api/me/bots/{bot_id}/token", api_bot_token, methods=["POST"]),
        Route("/api/bots/online", api_online),
        Route("/api/challenge", api_challenge, methods=["POST"]),
        WebSocketRoute("/ws/bot", ws_bot),
    ]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
