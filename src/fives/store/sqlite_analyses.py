"""The analyses in the SQLite file (a mixin of :class:`~fives.store.sqlite.SqliteStore`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from fives.store.analyses import (
    ANALYSIS_COLUMNS,
    MAX_ATTEMPTS,
    MINER,
    AnalysisStore,
    StoredAnalysis,
)

__all__ = ["SqliteAnalyses"]

T = TypeVar("T")


def _row(row: tuple[Any, ...]) -> StoredAnalysis:
    values = list(row)
    values[8] = json.loads(values[8]) if values[8] is not None else None
    return StoredAnalysis(*values)


class SqliteAnalyses(AnalysisStore):
    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    async def request_analysis(self, table_id: str, seat: int, requester: str,
                               now: float) -> StoredAnalysis:
        def body(db: sqlite3.Connection) -> StoredAnalysis:
            db.execute("INSERT OR IGNORE INTO analyses (table_id, seat, status, requester, "
                       "requested) VALUES (?, ?, 'queued', ?, ?)",
                       (table_id, seat, requester, now))
            if requester != MINER:
                db.execute("UPDATE analyses SET requester = ?, requested = ? WHERE table_id = "
                           "? AND seat = ? AND status = 'queued' AND requester = ?",
                           (requester, now, table_id, seat, MINER))
            row = db.execute(f"SELECT {ANALYSIS_COLUMNS} FROM analyses WHERE table_id = ? "
                             "AND seat = ?", (table_id, seat)).fetchone()
            return _row(row)

        return self._transaction(body)

    async def analysis(self, table_id: str, seat: int) -> StoredAnalysis | None:
        rows = self._query(f"SELECT {ANALYSIS_COLUMNS} FROM analyses WHERE table_id = ? AND "
                           "seat = ?", (table_id, seat))
        return _row(rows[0]) if rows else None

    async def analyses_pending(self, requester: str) -> list[StoredAnalysis]:
        rows = self._query(f"SELECT {ANALYSIS_COLUMNS} FROM analyses WHERE requester = ? AND "
                           "status IN ('queued', 'running') ORDER BY requested", (requester,))
        return [_row(r) for r in rows]

    async def queued_before(self, requested: float) -> int:
        rows = self._query("SELECT count(*) FROM analyses WHERE status = 'queued' AND "
                           "requested < ?", (requested,))
        return int(rows[0][0])

    async def claim_analysis(self, owner: str, now: float,
                             lease: float) -> StoredAnalysis | None:
        def body(db: sqlite3.Connection) -> StoredAnalysis | None:
            row = db.execute(
                "SELECT table_id, seat FROM analyses WHERE (status = 'queued' OR (status = "
                "'running' AND lease_until < ?)) AND attempts < ? ORDER BY requested LIMIT 1",
                (now, MAX_ATTEMPTS)).fetchone()
            if row is None:
                return None
            db.execute("UPDATE analyses SET status = 'running', owner = ?, lease_until = ?, "
                       "attempts = attempts + 1 WHERE table_id = ? AND seat = ?",
                       (owner, now + lease, row[0], row[1]))
            claimed = db.execute(f"SELECT {ANALYSIS_COLUMNS} FROM analyses WHERE table_id = ? "
                                 "AND seat = ?", (row[0], row[1])).fetchone()
            return _row(claimed)

        return self._transaction(body)

    async def finish_analysis(self, table_id: str, seat: int, owner: str,
                              result: dict[str, Any] | None, now: float) -> bool:
        text = None if result is None else json.dumps(result, ensure_ascii=False)
        status = "failed" if result is None else "done"

        def body(db: sqlite3.Connection) -> bool:
            cur = db.execute("UPDATE analyses SET status = ?, result = ?, done = ? WHERE "
                             "table_id = ? AND seat = ? AND owner = ? AND status = 'running'",
                             (status, text, now, table_id, seat, owner))
            return cur.rowcount == 1

        return self._transaction(body)
