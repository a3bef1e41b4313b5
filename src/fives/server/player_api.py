"""The players' HTTP API and pages: identity (create, rename, device links, revoke, forget
me), public profiles and leaderboards (as JSON, ``/api/...``, and as pages).

A profile shows what is public: a player's name, ratings and matches at open tables. Matches
at private tables are shown to the player alone. Nothing returns a secret but the response
that sets it (as an HttpOnly cookie), and a device link once, to the player who made it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fives.core.games import GAMES
from fives.server.identity import (
    BROWSER_COOKIE,
    Identities,
    browser_of,
    clean_player_name,
    drop_secret,
    hash_secret,
    keep_browser,
    keep_secret,
)
from fives.server.messages import ClientError
from fives.server.ratelimit import AddressLimit
from fives.server.ratings import MODEL, bot_player, rating_json, shown
from fives.server.webio import addr_of, json_body, refusing
from fives.store.base import Store
from fives.store.players import PlayerMatch, StoredPlayer

__all__ = ["BROWSER_COOKIE", "browser_of", "player_routes"]

#: what a forgotten player's seats read afterwards
ANONYMOUS = "—"


def player_json(player: StoredPlayer) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "tag": player.tag, "label": player.label,
            "kind": player.kind}


def match_json(m: PlayerMatch, opponents: list[str], own: bool) -> dict[str, Any]:
    """One match of a profile, with the other identified players' names. A private match
    shown to anyone but its player (a rated one: where the rating came from) keeps its
    record to itself: no table, so no replay."""
    hidden = m.private and not own
    return {"table": None if hidden else m.table_id, "private": m.private, "game": m.game,
            "players": m.players, "rated": m.rated, "won": m.won, "points": m.points,
            "rounds": m.rounds, "finished": m.ts, "opponents": opponents,
            "rating": shown(m.mu) if m.mu is not None else None}


def per_game(matches: list[PlayerMatch]) -> dict[str, dict[str, Any]]:
    """Win rate and points per round of each game, over the matches shown."""
    out: dict[str, dict[str, Any]] = {}
    for m in matches:
        g = out.setdefault(m.game, {"matches": 0, "wins": 0, "points": 0, "rounds": 0})
        g["matches"] += 1
        g["wins"] += m.won
        g["points"] += m.points
        g["rounds"] += m.rounds
    for g in out.values():
        g["win_rate"] = round(g["wins"] / g["matches"], 3)
        g["points_per_round"] = round(g["points"] / max(1, g["rounds"]), 1)
    return out


def player_routes(store: Callable[[], Store], creations: AddressLimit,
                  lobby: Callable[[], Awaitable[list[dict[str, Any]]]]) -> list[Route]:
    """The routes, given the app's store (once it is started), the identity limit (new
    identities, device links and their uses per address, for the whole site) and the lobby's
    tables (every process's, in a cluster)."""

    def ids() -> Identities:
        return Identities(store())

    def secure(request: Request) -> bool:
        return request.url.scheme == "https"

    def with_browser(request: Request, response: Response) -> Response:
        """Give a browser its own id the first time it gets an identity."""
        if browser_of(request) is None:
            keep_browser(response, secure(request))
        return response

    async def me_or_refuse(request: Request) -> StoredPlayer:
        return await ids().required(request)

    async def profile(player: StoredPlayer, own: bool) -> dict[str, Any]:
        matches = await store().matches_of(player.id, 100)
        if not own:
            # a private casual match is the player's business; a private rated one moved a
            # public rating, so it is listed (result and opponents, no record)
            matches = [m for m in matches if m.rated or not m.private]
        others: dict[str, list[str]] = {}
        seated = await store().players_at([m.table_id for m in matches])
        for table_id, _, someone in sorted(seated, key=lambda row: (row[0], row[1])):
            if someone.id != player.id:
                others.setdefault(table_id, []).append(someone.label)
        return {
            **player_json(player),
            "ratings": {r.game: rating_json(r) for r in await store().ratings_of(player.id)},
            "matches": [match_json(m, others.get(m.table_id, []), own) for m in matches],
            "games": per_game([m for m in matches if own or not m.private]),
            "own": own,
        }

    @refusing
    async def api_me(request: Request) -> Response:
        if request.method == "GET":
            player = await ids().current(request)
            return JSONResponse({"player": await profile(player, True) if player else None})
        if await ids().current(request) is not None:
            raise ClientError("already_identified")
        if not await creations.take(addr_of(request)):
            raise ClientError("rate_limited")
        body = await json_body(request)
        name = clean_player_name(body.get("name") if isinstance(body, dict) else None)
        player, secret = await ids().create(name)
        response = JSONResponse({"player": await profile(player, True)}, status_code=201)
        keep_secret(response, secret, secure(request))
        return with_browser(request, response)

    @refusing
    async def api_me_name(request: Request) -> Response:
        player = await me_or_refuse(request)
        body = await json_body(request)
        name = clean_player_name(body.get("name") if isinstance(body, dict) else None)
        player = await ids().rename(player, name)
        return JSONResponse({"player": await profile(player, True)})

    @refusing
    async def api_me_link(request: Request) -> Response:
        player = await me_or_refuse(request)
        if not await creations.take(addr_of(request)):
            raise ClientError("rate_limited")
        link, expires = await ids().new_link(player)
        # the secret rides in the fragment: never sent to a server, never in a log or Referer
        url = f"{request.base_url}device#{link}"
        qr = segno.make(url, error="m").svg_data_uri(scale=4, border=2, dark="#1b1b1b")
        return JSONResponse({"url": url, "expires": expires, "qr": qr})

    @refusing
    async def api_device(request: Request) -> Response:
        if not await creations.take(addr_of(request)):
            raise ClientError("rate_limited")
        body = await json_body(request)
        player, secret = await ids().redeem(body.get("link") if isinstance(body, dict) else None)
        response = JSONResponse({"player": await profile(player, True)})
        keep_secret(response, secret, secure(request))
        return with_browser(request, response)

    @refusing
    async def api_me_revoke(request: Request) -> Response:
        player = await me_or_refuse(request)
        secret = Identities.secret_of(request) or ""
        revoked = await store().revoke_devices(player.id, hash_secret(secret))
        return JSONResponse({"revoked": revoked})

    @refusing
    async def api_me_forget(request: Request) -> Response:
        player = await me_or_refuse(request)
        await store().forget_player(player.id, ANONYMOUS)
        response = JSONResponse({"forgotten": True})
        drop_secret(response, secure(request))
        return response

    @refusing
    async def api_player(request: Request) -> Response:
        player_id = request.path_params["player_id"]
        player = await store().player(player_id) if 1 <= len(player_id) <= 40 else None
        if player is None:
            raise ClientError("not_found")
        me = await ids().current(request)
        return JSONResponse(await profile(player, me is not None and me.id == player.id))

    @refusing
    async def api_leaderboard(request: Request) -> Response:
        game = request.path_params["game"]
        if game not in GAMES:
            raise ClientError("not_found")
        kind = request.query_params.get("kind")
        if kind not in (None, "person", "bot"):
            raise ClientError("bad_request")
        board = await store().leaderboard(game, 100, kind)
        return JSONResponse({"game": game, "players": [
            {**player_json(p), **rating_json(r)} for p, r in board]})

    @refusing
    async def api_bot_ratings(request: Request) -> Response:
        """Each bot level's rating in each game, shown beside the level in the lobby."""
        out: dict[str, dict[str, Any]] = {}
        for game in GAMES:
            for p, r in await store().leaderboard(game, 50, "bot"):
                out.setdefault(game, {})[p.name] = rating_json(r)
        return JSONResponse({"ratings": out})

    @refusing
    async def api_watch(request: Request) -> Response:
        """Live open tables to watch, the strongest first (the mean rating of their seats in
        the table's game; a seat without a rating counts as a new player's)."""
        known: dict[str, dict[str, float]] = {}

        async def rating(player_id: str | None, game: str) -> float:
            if player_id is None:
                return MODEL.mu
            if player_id not in known:
                known[player_id] = {r.game: r.mu for r in await store().ratings_of(player_id)}
            return known[player_id].get(game, MODEL.mu)

        out = []
        for entry in await lobby():
            if entry["status"] != "playing":
                continue
            ids = [s.get("player") or (bot_player(s["level"]) if s["kind"] == "bot" else None)
                   for s in entry["seats"]]
            mus = [await rating(i, entry["game"]) for i in ids]
            out.append({**entry, "rating": shown(sum(mus) / len(mus))})
        out.sort(key=lambda e: -e["rating"])
        return JSONResponse({"tables": out})

    return [
        Route("/api/watch", api_watch),
        Route("/api/me", api_me, methods=["GET", "POST"]),
        Route("/api/me/name", api_me_name, methods=["POST"]),
        Route("/api/me/link", api_me_link, methods=["POST"]),
        Route("/api/me/revoke", api_me_revoke, methods=["POST"]),
        Route("/api/me/forget", api_me_forget, methods=["POST"]),
        Route("/api/device", api_device, methods=["POST"]),
        Route("/api/players/{player_id}", api_player),
        Route("/api/leaderboard/{game}", api_leaderboard),
        Route("/api/bot-ratings", api_bot_ratings),
    ]
