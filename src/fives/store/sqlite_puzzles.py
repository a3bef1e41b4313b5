"""Puzzle ratings in the SQLite file (a mixin of :class:`~fives.store.sqlite.SqliteStore`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from fives.store.puzzle_ratings import (
    PUZZLE_RATING_COLUMNS,
    PuzzleRating,
    PuzzleStore,
    PuzzleTry,
    RatePuzzle,
    decide,
)

__all__ = ["SqlitePuzzles"]

T = TypeVar("T")
_SAVE = (f"INSERT OR REPLACE INTO puzzle_ratings (kind, {PUZZLE_RATING_COLUMNS}) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")


def _rating(db: sqlite3.Connection, kind: str, row_id: str) -> PuzzleRating | None:
    row = db.execute(f"SELECT {PUZZLE_RATING_COLUMNS} FROM puzzle_ratings WHERE kind = ? AND "
                     "id = ?", (kind, row_id)).fetchone()
    return PuzzleRating(*row) if row else None


def _save(db: sqlite3.Connection, kind: str, r: PuzzleRating) -> None:
    db.execute(_SAVE, (kind, r.id, r.mu, r.sigma, r.tries, r.solved, r.streak, r.best_streak,
                       r.updated))


class SqlitePuzzles(PuzzleStore):
    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    async def try_puzzle(self, player_id: str, puzzle_id: str, correct: bool, ts: float,
                         rate: RatePuzzle, start: tuple[float, float]) -> PuzzleTry:
        def body(db: sqlite3.Connection) -> PuzzleTry:
            first = db.execute("INSERT OR IGNORE INTO puzzle_tries VALUES (?, ?, ?, ?)",
                               (player_id, puzzle_id, int(correct), ts)).rowcount == 1
            done = decide(first, correct, ts,
                          _rating(db, "player", player_id) or PuzzleRating(player_id, *start),
                          _rating(db, "puzzle", puzzle_id) or PuzzleRating(puzzle_id, *start),
                          rate)
            if done.rated:
                _save(db, "player", done.player)
                _save(db, "puzzle", done.puzzle)
            return done

        return self._transaction(body)

    async def puzzle_rating(self, player_id: str) -> PuzzleRating | None:
        rows = self._query(f"SELECT {PUZZLE_RATING_COLUMNS} FROM puzzle_ratings WHERE kind = "
                           "'player' AND id = ? AND tries > 0", (player_id,))
        return PuzzleRating(*rows[0]) if rows else None

    async def puzzle_strength(self, puzzle_id: str) -> PuzzleRating | None:
        rows = self._query(f"SELECT {PUZZLE_RATING_COLUMNS} FROM puzzle_ratings WHERE kind = "
                           "'puzzle' AND id = ? AND tries > 0", (puzzle_id,))
        return PuzzleRating(*rows[0]) if rows else None

    async def puzzles_tried(self, player_id: str, puzzle_ids: list[str]) -> set[str]:
        if not puzzle_ids:
            return set()
        marks = ", ".join("?" * len(puzzle_ids))
        rows = self._query(f"SELECT puzzle_id FROM puzzle_tries WHERE player_id = ? AND "
                           f"puzzle_id IN ({marks})", (player_id, *puzzle_ids))
        return {r[0] for r in rows}

    async def add_mined_puzzles(self, table_id: str, puzzles: list[dict[str, Any]],
                                ts: float) -> int:
        def body(db: sqlite3.Connection) -> int:
            return sum(db.execute(
                "INSERT OR IGNORE INTO mined_puzzles VALUES (?, ?, ?, ?)",
                (p["id"], table_id, json.dumps(p, ensure_ascii=False), ts)).rowcount
                for p in puzzles)

        return self._transaction(body)

    async def mined_puzzles(self, limit: int = 5000) -> list[dict[str, Any]]:
        rows = self._query("SELECT puzzle FROM mined_puzzles ORDER BY created, id LIMIT ?",
                           (limit,))
        return [json.loads(r[0]) for r in rows]

    async def mined_puzzle(self, puzzle_id: str) -> dict[str, Any] | None:
        rows = self._query("SELECT puzzle FROM mined_puzzles WHERE id = ?", (puzzle_id,))
        found: dict[str, Any] | None = json.loads(rows[0][0]) if rows else None
        return found
