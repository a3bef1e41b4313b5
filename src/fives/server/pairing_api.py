"""The quick pairing queue over HTTP: join (an identity is needed: the queue pairs people, by
rating), ask how it goes (a page polls each second), accept or decline the bots offered,
leave. A ticket is its player's alone: anyone else asking about it is told it is not found.
In a cluster every process answers these from the one queue in Redis; with Redis away each
answers a translated refusal (503), never a traceback."""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fives.core.games import Config, RulesError
from fives.server.bots import bot_levels
from fives.server.identity import Identities
from fives.server.manager import game_and_players
from fives.server.messages import ClientError
from fives.server.pairing import PairingQueue
from fives.server.player_api import browser_of
from fives.server.ratelimit import AddressLimit
from fives.server.ratings import MODEL, bot_player
from fives.server.tickets import Ticket
from fives.server.webio import addr_of, error_body, json_body, refusing
from fives.store.base import Store
from fives.store.players import StoredPlayer

__all__ = ["BOT_PRIORS", "bot_mus", "pairing_routes"]

#: what a bot level is taken to be worth (mu) in a game where it has no rated match yet
BOT_PRIORS = {"random": 14.0, "easy": 20.0, "medium": 25.0, "hard": 29.0, "expert": 31.0}


async def bot_mus(store: Store, game: str) -> dict[str, float]:
    """Each offered level's mu in ``game``: its rating there, else its prior."""
    rated = {p.id: r.mu for p, r in await store.leaderboard(game, 50, "bot")}
    return {level: rated.get(bot_player(level), BOT_PRIORS.get(level, MODEL.mu))
            for level in bot_levels()}


def pairing_routes(store: Callable[[], Store], queue: Callable[[], PairingQueue],
                   joins: AddressLimit) -> list[Route]:

    async def me(request: Request) -> StoredPlayer:
        return await Identities(store()).required(request)

    async def ticket_of(request: Request) -> Ticket:
        return await queue().get(request.path_params["ticket"], await me(request))

    @refusing
    async def api_join(request: Request) -> Response:
        player = await me(request)
        if not await joins.take(addr_of(request)):
            raise ClientError("rate_limited")
        body = await json_body(request)
        game, players = game_and_players(body)
        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise ClientError("bad_request")
        try:
            Config.make(game, players)
        except RulesError:
            raise ClientError("bad_players") from None
        mu = next((r.mu for r in await store().ratings_of(player.id) if r.game == game),
                  MODEL.mu)
        ticket = await queue().join(player, browser_of(request), addr_of(request), game,
                                    players, rated, mu)
        return JSONResponse(ticket.status(ticket.since), status_code=201)

    @refusing
    async def api_ticket(request: Request) -> Response:
        return JSONResponse((await ticket_of(request)).status(queue().now()))

    @refusing
    async def api_bots(request: Request) -> Response:
        ticket = await ticket_of(request)
        body = await json_body(request)
        accept = body.get("accept") if isinstance(body, dict) else None
        if not isinstance(accept, bool):
            raise ClientError("bad_request")
        if accept:
            ticket = await queue().accept(ticket)
        else:
            await queue().decline(ticket)
        return JSONResponse(ticket.status(queue().now()))

    @refusing
    async def api_leave(request: Request) -> Response:
        """Out of the queue, or refused with 409 and the table its player is seated at (the
        page goes there): a leave is never "left" for someone who has an opponent."""
        seated = await queue().leave(await ticket_of(request))
        if seated is None:
            return JSONResponse({"left": True})
        body = error_body(request, ClientError("already_matched"))
        return JSONResponse({**body, **seated.status(queue().now())}, status_code=409)

    return [
        Route("/api/queue", api_join, methods=["POST"]),
        Route("/api/queue/{ticket}", api_ticket),
        Route("/api/queue/{ticket}/bots", api_bots, methods=["POST"]),
        Route("/api/queue/{ticket}/leave", api_leave, methods=["POST"]),
    ]
