"""The puzzles' HTTP API (issue 28): the puzzle of the day, the next one, and an answer checked.
A puzzle is shown from its mover's view only, without its answer until one is given.

A person with an identity has a puzzle rating and a streak; each puzzle has a rating of its
own. An answer is a match between the two (OpenSkill, the ladder's model): solved, the player
wins. Only the first try at a puzzle is rated (:mod:`fives.store.puzzle_ratings`), and the
next puzzle offered is one the player has not tried."""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fives.puzzles import MINED_PREFIX, Puzzle, daily, load, puzzle_by_id
from fives.server.identity import Identities
from fives.server.messages import ClientError
from fives.server.ratings import MODEL, PROVISIONAL_SIGMA, shown
from fives.server.webio import json_body, refusing
from fives.store.base import Store
from fives.store.players import StoredPlayer
from fives.store.puzzle_ratings import PuzzleRating

__all__ = ["puzzle_routes"]

#: the order puzzles come in: shuffled once, the same for everyone (a player goes through all),
#: then the ones mined from matches on the site, in the order they were found
_ORDER_SEED = 28
#: how long the list of mined puzzles is kept before it is read from the store again
MINED_REFRESH = 30.0


def _order() -> list[str]:
    ids = [p.id for p in load()]
    random.Random(_ORDER_SEED).shuffle(ids)
    return ids


#: how far along the shared order the next untried puzzle is looked for
_LOOK_AHEAD = 60
#: a player's puzzle rating is provisional for their first tries
PROVISIONAL_TRIES = 10


#: a rating nobody has moved yet: the ladder's start (1500 shown)
START = (MODEL.mu, MODEL.sigma)


def rate_puzzle(player: PuzzleRating, puzzle: PuzzleRating,
                solved: bool) -> tuple[tuple[float, float], tuple[float, float]]:
    """One answer as a match of two: the player first if they solved it, the puzzle first if
    not."""
    [mine], [its] = MODEL.rate([[MODEL.rating(mu=player.mu, sigma=player.sigma)],
                                [MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)]],
                               ranks=[1, 2] if solved else [2, 1])
    return (mine.mu, mine.sigma), (its.mu, its.sigma)


def puzzle_rating_json(r: PuzzleRating | None) -> dict[str, Any]:
    """A player's puzzle rating as shown (the start, provisional, before any try)."""
    r = r or PuzzleRating("", *START)
    return {"rating": shown(r.mu), "provisional": r.tries < PROVISIONAL_TRIES
            or r.sigma > PROVISIONAL_SIGMA, "tries": r.tries, "solved": r.solved,
            "streak": r.streak, "best_streak": r.best_streak}


class _Sequence:
    """The shipped puzzles in their shuffled order, then the mined ones (re-read from the store
    every :data:`MINED_REFRESH` seconds: another process may have mined some)."""

    def __init__(self, store: Callable[[], Store]) -> None:
        self.store = store
        self.shipped = _order()
        self.order = list(self.shipped)
        self.place = {pid: i for i, pid in enumerate(self.order)}
        self.mined: dict[str, Puzzle] = {}
        self.read = -MINED_REFRESH

    async def refresh(self) -> None:
        if time.monotonic() - self.read < MINED_REFRESH:
            return
        self.read = time.monotonic()
        mined = [Puzzle(**doc) for doc in await self.store().mined_puzzles()]
        self.mined = {p.id: p for p in mined}
        self.order = self.shipped + [p.id for p in mined]
        self.place = {pid: i for i, pid in enumerate(self.order)}

    async def find(self, puzzle_id: str) -> Puzzle | None:
        found = puzzle_by_id(puzzle_id) or self.mined.get(puzzle_id)
        if found is None and puzzle_id.startswith(MINED_PREFIX):
            doc = await self.store().mined_puzzle(puzzle_id)
            found = Puzzle(**doc) if doc else None
        return found


def puzzle_routes(store: Callable[[], Store]) -> list[Route]:
    puzzles = _Sequence(store)

    async def me(request: Request) -> StoredPlayer | None:
        return await Identities(store()).current(request)

    async def shown_to(request: Request, puzzle: Puzzle, **extra: object) -> JSONResponse:
        """The puzzle, its own rating, and the player's (their rating, streak, and whether
        they have tried this one: a second try is not rated)."""
        strength = await store().puzzle_strength(puzzle.id)
        await puzzles.refresh()
        doc: dict[str, Any] = {
            **puzzle.public(), "count": len(puzzles.order), "mined": puzzle.id.startswith(MINED_PREFIX),
            **extra,
            "puzzle_rating": shown(strength.mu) if strength else shown(MODEL.mu),
            "puzzle_tries": strength.tries if strength else 0}
        player = await me(request)
        if player is not None:
            doc["mine"] = puzzle_rating_json(await store().puzzle_rating(player.id))
            doc["tried"] = bool(await store().puzzles_tried(player.id, [puzzle.id]))
        return JSONResponse(doc)

    @refusing
    async def api_daily(request: Request) -> Response:
        puzzle = daily(datetime.datetime.now(datetime.UTC).date())
        if puzzle is None:
            raise ClientError("not_found")
        return await shown_to(request, puzzle, daily=True)

    @refusing
    async def api_next(request: Request) -> Response:
        """The puzzle after ``after`` in the shared order (the first without it) that the
        player has not tried (within a look-ahead), or the one named ``id``."""
        await puzzles.refresh()
        order, place = puzzles.order, puzzles.place
        if not order:
            raise ClientError("not_found")
        wanted = request.query_params.get("id")
        if wanted:
            puzzle = await puzzles.find(wanted[:80])
            if puzzle is None:
                raise ClientError("not_found")
            return await shown_to(request, puzzle)
        after = request.query_params.get("after", "")[:80]
        i = (place[after] + 1) % len(order) if after in place else 0
        player = await me(request)
        if player is not None:
            ahead = [(i + k) % len(order) for k in range(min(_LOOK_AHEAD, len(order)))]
            tried = await store().puzzles_tried(player.id, [order[k] for k in ahead])
            i = next((k for k in ahead if order[k] not in tried), i)
        found = await puzzles.find(order[i])
        if found is None:
            raise ClientError("not_found")
        return await shown_to(request, found, number=i + 1)

    @refusing
    async def api_answer(request: Request) -> Response:
        puzzle = await puzzles.find(request.path_params["puzzle_id"][:80])
        if puzzle is None:
            raise ClientError("not_found")
        body = await json_body(request)
        action = body.get("action") if isinstance(body, dict) else None
        if not isinstance(action, str) or action not in puzzle.view["legal"]:
            raise ClientError("puzzle_illegal")
        correct = puzzle.right(action)
        doc: dict[str, Any] = {"id": puzzle.id, "correct": correct, "played": action,
                               "answer": puzzle.answer, "values": puzzle.values,
                               "margin": puzzle.margin, "rated": False}
        player = await me(request)
        if player is not None:
            done = await store().try_puzzle(player.id, puzzle.id, correct, time.time(),
                                            rate_puzzle, START)
            before = done.player_before
            doc.update(rated=done.rated, mine=puzzle_rating_json(done.player),
                       before=shown(before.mu) if before else shown(MODEL.mu),
                       puzzle_rating=shown(done.puzzle.mu))
        return JSONResponse(doc)

    return [
        Route("/api/puzzles/daily", api_daily),
        Route("/api/puzzles/next", api_next),
        Route("/api/puzzles/{puzzle_id}/answer", api_answer, methods=["POST"]),
    ]
