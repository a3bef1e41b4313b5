"""The puzzles' HTTP API (issue 28): the puzzle of the day, the next one, and an answer checked.
A puzzle is shown from its mover's view only, without its answer until one is given."""

from __future__ import annotations

import datetime
import random

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fives.puzzles import Puzzle, daily, load, puzzle_by_id
from fives.server.messages import ClientError
from fives.server.webio import json_body, refusing

__all__ = ["puzzle_routes"]

#: the order puzzles come in: shuffled once, the same for everyone (a player goes through all)
_ORDER_SEED = 28


def _order() -> list[str]:
    ids = [p.id for p in load()]
    random.Random(_ORDER_SEED).shuffle(ids)
    return ids


def _shown(puzzle: Puzzle, **extra: object) -> JSONResponse:
    return JSONResponse({**puzzle.public(), "count": len(load()), **extra})


def puzzle_routes() -> list[Route]:
    order = _order()
    place = {pid: i for i, pid in enumerate(order)}

    @refusing
    async def api_daily(request: Request) -> Response:
        puzzle = daily(datetime.datetime.now(datetime.UTC).date())
        if puzzle is None:
            raise ClientError("not_found")
        return _shown(puzzle, daily=True)

    @refusing
    async def api_next(request: Request) -> Response:
        """The puzzle after ``after`` in the shared order (the first without it), or the one
        named ``id``."""
        if not order:
            raise ClientError("not_found")
        wanted = request.query_params.get("id")
        if wanted:
            puzzle = puzzle_by_id(wanted[:80])
            if puzzle is None:
                raise ClientError("not_found")
            return _shown(puzzle)
        after = request.query_params.get("after", "")[:80]
        i = (place[after] + 1) % len(order) if after in place else 0
        found = puzzle_by_id(order[i])
        assert found is not None
        return _shown(found, number=i + 1)

    @refusing
    async def api_answer(request: Request) -> Response:
        puzzle = puzzle_by_id(request.path_params["puzzle_id"][:80])
        if puzzle is None:
            raise ClientError("not_found")
        body = await json_body(request)
        action = body.get("action") if isinstance(body, dict) else None
        if not isinstance(action, str) or action not in puzzle.view["legal"]:
            raise ClientError("puzzle_illegal")
        return JSONResponse({"id": puzzle.id, "correct": puzzle.right(action), "played": action,
                             "answer": puzzle.answer, "values": puzzle.values,
                             "margin": puzzle.margin})

    return [
        Route("/api/puzzles/daily", api_daily),
        Route("/api/puzzles/next", api_next),
        Route("/api/puzzles/{puzzle_id}/answer", api_answer, methods=["POST"]),
    ]
