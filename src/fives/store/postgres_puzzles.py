"""Puzzle ratings in PostgreSQL (a mixin of :class:`~fives.store.postgres.PostgresStore`)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fives.store.puzzle_ratings import (
    PUZZLE_RATING_COLUMNS,
    PuzzleRating,
    PuzzleStore,
    PuzzleTry,
    RatePuzzle,
    decide,
)

__all__ = ["PostgresPuzzles"]

T = TypeVar("T")


async def _locked(db: Any, kind: str, row_id: str, start: tuple[float, float],
                  ts: float) -> PuzzleRating:
    """The row, created at the start if missing, locked to this transaction (two answers to
    one puzzle at once: the second waits for the first's rating)."""
    await db.execute("INSERT INTO puzzle_ratings (kind, id, mu, sigma, updated) VALUES ($1, $2, "
                     "$3, $4, $5) ON CONFLICT DO NOTHING", kind, row_id, *start, ts)
    row = await db.fetchrow(f"SELECT {PUZZLE_RATING_COLUMNS} FROM puzzle_ratings WHERE kind = "
                            "$1 AND id = $2 FOR UPDATE", kind, row_id)
    return PuzzleRating(*row)


async def _save(db: Any, kind: str, r: PuzzleRating) -> None:
    await db.execute("UPDATE puzzle_ratings SET mu = $3, sigma = $4, tries = $5, solved = $6, "
                     "streak = $7, best_streak = $8, updated = $9 WHERE kind = $1 AND id = $2",
                     kind, r.id, r.mu, r.sigma, r.tries, r.solved, r.streak, r.best_streak,
                     r.updated)


class PostgresPuzzles(PuzzleStore):
    async def _fetch(self, sql: str, *params: Any) -> list[Any]:
        raise NotImplementedError

    async def _in_transaction(self, body: Callable[[Any], Awaitable[T]]) -> T:
        raise NotImplementedError

    async def try_puzzle(self, player_id: str, puzzle_id: str, correct: bool, ts: float,
                         rate: RatePuzzle, start: tuple[float, float]) -> PuzzleTry:
        async def body(db: Any) -> PuzzleTry:
            first = await db.execute(
                "INSERT INTO puzzle_tries VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                player_id, puzzle_id, int(correct), ts) == "INSERT 0 1"
            # the player's row first, then the puzzle's: one order, no deadlock
            player = await _locked(db, "player", player_id, start, ts)
            puzzle = await _locked(db, "puzzle", puzzle_id, start, ts)
            done = decide(first, correct, ts, player, puzzle, rate)
            if done.rated:
                await _save(db, "player", done.player)
                await _save(db, "puzzle", done.puzzle)
            return done

        return await self._in_transaction(body)

    async def puzzle_rating(self, player_id: str) -> PuzzleRating | None:
        rows = await self._fetch(f"SELECT {PUZZLE_RATING_COLUMNS} FROM puzzle_ratings WHERE "
                                 "kind = 'player' AND id = $1 AND tries > 0", player_id)
        return PuzzleRating(*rows[0]) if rows else None

    async def puzzle_strength(self, puzzle_id: str) -> PuzzleRating | None:
        rows = await self._fetch(f"SELECT {PUZZLE_RATING_COLUMNS} FROM puzzle_ratings WHERE "
                                 "kind = 'puzzle' AND id = $1 AND tries > 0", puzzle_id)
        return PuzzleRating(*rows[0]) if rows else None

    async def puzzles_tried(self, player_id: str, puzzle_ids: list[str]) -> set[str]:
        rows = await self._fetch("SELECT puzzle_id FROM puzzle_tries WHERE player_id = $1 AND "
                                 "puzzle_id = ANY($2::text[])", player_id, puzzle_ids)
        return {r[0] for r in rows}

    async def add_mined_puzzles(self, table_id: str, puzzles: list[dict[str, Any]],
                                ts: float) -> int:
        async def body(db: Any) -> int:
            added = 0
            for p in puzzles:
                status = await db.execute(
                    "INSERT INTO mined_puzzles VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT DO "
                    "NOTHING", p["id"], table_id, json.dumps(p, ensure_ascii=False), ts)
                added += status == "INSERT 0 1"
            return added

        return await self._in_transaction(body)

    async def mined_puzzles(self, limit: int = 5000) -> list[dict[str, Any]]:
        rows = await self._fetch("SELECT puzzle::text FROM mined_puzzles ORDER BY created, id "
                                 "LIMIT $1", limit)
        return [json.loads(r[0]) for r in rows]

    async def mined_puzzle(self, puzzle_id: str) -> dict[str, Any] | None:
        rows = await self._fetch("SELECT puzzle::text FROM mined_puzzles WHERE id = $1",
                                 puzzle_id)
        found: dict[str, Any] | None = json.loads(rows[0][0]) if rows else None
        return found
