"""The analyses in PostgreSQL (a mixin of :class:`~fives.store.postgres.PostgresStore`)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fives.store.analyses import (
    ANALYSIS_COLUMNS,
    MAX_ATTEMPTS,
    MINER,
    AnalysisStore,
    StoredAnalysis,
)

__all__ = ["PostgresAnalyses"]

T = TypeVar("T")
_COLUMNS = ANALYSIS_COLUMNS.replace("result", "result::text")


def _row(row: Any) -> StoredAnalysis:
    values = list(row)
    values[8] = json.loads(values[8]) if values[8] is not None else None
    return StoredAnalysis(*values)


class PostgresAnalyses(AnalysisStore):
    async def _fetch(self, sql: str, *params: Any) -> list[Any]:
        raise NotImplementedError

    async def _in_transaction(self, body: Callable[[Any], Awaitable[T]]) -> T:
        raise NotImplementedError

    async def request_analysis(self, table_id: str, seat: int, requester: str,
                               now: float) -> StoredAnalysis:
        async def body(db: Any) -> StoredAnalysis:
            await db.execute("INSERT INTO analyses (table_id, seat, status, requester, "
                             "requested) VALUES ($1, $2, 'queued', $3, $4) ON CONFLICT DO "
                             "NOTHING", table_id, seat, requester, now)
            if requester != MINER:
                await db.execute("UPDATE analyses SET requester = $1, requested = $2 WHERE "
                                 "table_id = $3 AND seat = $4 AND status = 'queued' AND "
                                 "requester = $5", requester, now, table_id, seat, MINER)
            return _row(await db.fetchrow(f"SELECT {_COLUMNS} FROM analyses WHERE table_id = "
                                          "$1 AND seat = $2", table_id, seat))

        return await self._in_transaction(body)

    async def analysis(self, table_id: str, seat: int) -> StoredAnalysis | None:
        rows = await self._fetch(f"SELECT {_COLUMNS} FROM analyses WHERE table_id = $1 AND "
                                 "seat = $2", table_id, seat)
        return _row(rows[0]) if rows else None

    async def analyses_pending(self, requester: str) -> list[StoredAnalysis]:
        rows = await self._fetch(f"SELECT {_COLUMNS} FROM analyses WHERE requester = $1 AND "
                                 "status IN ('queued', 'running') ORDER BY requested", requester)
        return [_row(r) for r in rows]

    async def queued_before(self, requested: float) -> int:
        rows = await self._fetch("SELECT count(*) FROM analyses WHERE status = 'queued' AND "
                                 "requested < $1", requested)
        return int(rows[0][0])

    async def claim_analysis(self, owner: str, now: float,
                             lease: float) -> StoredAnalysis | None:
        async def body(db: Any) -> StoredAnalysis | None:
            # SKIP LOCKED: two processes claiming at once take two different rows
            row = await db.fetchrow(
                f"UPDATE analyses SET status = 'running', owner = $1, lease_until = $2, "
                f"attempts = attempts + 1 WHERE (table_id, seat) = (SELECT table_id, seat FROM "
                f"analyses WHERE (status = 'queued' OR (status = 'running' AND lease_until < "
                f"$3)) AND attempts < $4 ORDER BY requested LIMIT 1 FOR UPDATE SKIP LOCKED) "
                f"RETURNING {_COLUMNS}", owner, now + lease, now, MAX_ATTEMPTS)
            return None if row is None else _row(row)

        return await self._in_transaction(body)

    async def finish_analysis(self, table_id: str, seat: int, owner: str,
                              result: dict[str, Any] | None, now: float) -> bool:
        text = None if result is None else json.dumps(result, ensure_ascii=False)
        status = "failed" if result is None else "done"

        async def body(db: Any) -> bool:
            done = await db.execute(
                "UPDATE analyses SET status = $1, result = $2::jsonb, done = $3 WHERE table_id "
                "= $4 AND seat = $5 AND owner = $6 AND status = 'running'",
                status, text, now, table_id, seat, owner)
            return bool(done.endswith(" 1"))

        return await self._in_transaction(body)
