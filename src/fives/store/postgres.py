"""The server database for many processes: PostgreSQL through asyncpg and its connection
pool.

Each write is one transaction, committed before the call returns (an action is durable before
anyone hears of it). A fenced write locks its table's row ``FOR SHARE`` while it checks the
token, so a takeover (:meth:`PostgresStore.claim`, an ``UPDATE`` of that row) waits for a write
already under way, and a write that comes after a takeover finds the newer token and is
refused: the new owner always loads everything the old one wrote, and nothing after.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from fives.store.base import DamagedRow, StaleOwner, Store, StoredAction, StoredTable, StoreError
from fives.store.migrations import SCHEMA_TABLE, migrations
from fives.store.postgres_analyses import PostgresAnalyses
from fives.store.postgres_events import PostgresEvents
from fives.store.postgres_players import PostgresPlayers
from fives.store.postgres_puzzles import PostgresPuzzles
from fives.store.rows import TABLE_COLUMNS, rounds_of, table_of
from fives.store.urls import where

__all__ = ["PostgresStore"]

log = logging.getLogger("fives.store")

#: a key for ``pg_advisory_xact_lock``: one migrating process at a time
_MIGRATION_LOCK = 0x66697665  # "five"

#: the row of a table that a fenced write checks and holds (its token is still ``$2``)
_FENCED = "SELECT 1 FROM tables WHERE id = $1 AND fence = $2 FOR SHARE"

#: the columns of a table's row with the JSON read back as text (checked like SQLite's)
# drop the deals and actions of finished matches (their records keep them), in one statement
_ARCHIVE = """
WITH gone AS (
    SELECT id FROM tables t WHERE status = 'over' AND record IS NOT NULL AND finished < $1
    AND EXISTS (SELECT 1 FROM rounds r WHERE r.table_id = t.id) LIMIT $2
), actions_gone AS (
    DELETE FROM actions WHERE table_id IN (SELECT id FROM gone)
), rounds_gone AS (
    DELETE FROM rounds WHERE table_id IN (SELECT id FROM gone)
)
SELECT count(*) FROM gone
"""
_COLUMNS = TABLE_COLUMNS.replace("meta", "meta::text").replace("record", "record::text")


class PostgresStore(PostgresPlayers, PostgresAnalyses, PostgresPuzzles, PostgresEvents, Store):
    """The store in a PostgreSQL database (``postgresql://user:pass@host:port/db``); a pool
    of ``min_size`` to ``max_size`` connections per process. :meth:`start` connects and
    migrates."""

    dialect = "postgresql"

    def __init__(self, url: str, min_size: int = 2, max_size: int = 10) -> None:
        self.url = url
        self.min_size = min(min_size, max_size)
        self.max_size = max_size
        self._pool: Any = None
        self.applied: list[str] = []  # the migrations applied by start()

    @property
    def where(self) -> str:
        """The database's address without its password (for messages)."""
        return where(self.url)

    async def start(self) -> None:
        import asyncpg  # type: ignore[import-untyped]

        try:
            self._pool = await asyncpg.create_pool(
                self.url, min_size=self.min_size, max_size=self.max_size, command_timeout=10)
        except (OSError, asyncpg.PostgresError, ValueError) as exc:
            raise StoreError.of("open", where=self.where, why=exc) from None
        self.applied = await self.migrate()

    def _errors(self) -> tuple[type[BaseException], ...]:
        import asyncpg

        return (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError)

    async def migrate(self) -> list[str]:
        applied = []
        try:
            async with self._pool.acquire() as db, db.transaction():
                # two processes starting together: the second waits, then finds all applied
                await db.execute(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
                await db.execute(
                    f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version INTEGER PRIMARY KEY, "
                    "name TEXT NOT NULL, applied DOUBLE PRECISION NOT NULL)")
                done = {r[0] for r in await db.fetch(f"SELECT version FROM {SCHEMA_TABLE}")}
                for m in migrations(self.dialect):
                    if m.version in done:
                        continue
                    async with db.transaction():  # a savepoint: all of it or none
                        await db.execute(m.sql)
                        await db.execute(f"INSERT INTO {SCHEMA_TABLE} VALUES ($1, $2, $3)",
                                         m.version, m.name, time.time())
                    log.info("database %s: migration %s applied", self.where, m.label)
                    applied.append(m.label)
        except self._errors() as exc:
            raise StoreError.of("migrate", where=self.where, why=exc) from None
        await self._fill_looks()
        return applied

    async def _write(self, table_id: str, fence: int | None,
                     *statements: tuple[str, tuple[Any, ...]]) -> None:
        """Writes for one table in one transaction; with ``fence``, only while the table's
        token is still that one (else :class:`StaleOwner`)."""
        try:
            async with self._pool.acquire() as db, db.transaction():
                if fence is not None and await db.fetchval(_FENCED, table_id, fence) is None:
                    raise StaleOwner(f"table {table_id}: owned by another process now "
                                     f"(token {fence} is stale)")
                for sql, params in statements:
                    await db.execute(sql, *params)
        except self._errors() as exc:
            raise StoreError.of("write", where=self.where, why=exc) from None

    async def _one(self, table_id: str, fence: int | None, sql: str, params: tuple[Any, ...],
                   fenced_sql: str) -> None:
        """The writes an owner makes most (an action, a deal, the metadata) in one statement,
        one round trip: ``fenced_sql`` does ``sql`` only while the table's token is ``fence``
        (its last parameter), holding the table's row as a fenced transaction does."""
        try:
            async with self._pool.acquire() as db:
                if fence is None:
                    await db.execute(sql, *params)
                    return
                status = await db.execute(fenced_sql, *params, fence)
        except self._errors() as exc:
            raise StoreError.of("write", where=self.where, why=exc) from None
        if status.endswith(" 0"):
            raise StaleOwner(f"table {table_id}: owned by another process now "
                             f"(token {fence} is stale)")

    async def _insert(self, table_id: str, fence: int | None, into: str, values: str,
                      params: tuple[Any, ...]) -> None:
        """``INSERT INTO {into} VALUES ({values})``, fenced in the same statement ($1 is the
        table's id)."""
        owner = f"SELECT 1 FROM tables WHERE id = $1 AND fence = ${len(params) + 1} FOR SHARE"
        await self._one(table_id, fence, f"INSERT INTO {into} VALUES ({values})", params,
                        f"WITH owner AS ({owner}) INSERT INTO {into} SELECT {values} FROM owner")

    # -- writing ---------------------------------------------------------------------------

    async def create_table(
        self, table_id: str, meta: dict[str, Any], ts: float, fence: int | None = None
    ) -> None:
        await self._write(table_id, None, (
            "INSERT INTO tables (id, created, status, meta, fence) "
            "VALUES ($1, $2, 'open', $3::jsonb, $4)",
            (table_id, ts, json.dumps(meta, ensure_ascii=False), fence or 0),
        ))

    async def claim(self, table_id: str) -> int | None:
        try:
            async with self._pool.acquire() as db:
                token = await db.fetchval(
                    "UPDATE tables SET fence = fence + 1 WHERE id = $1 RETURNING fence", table_id)
        except self._errors() as exc:
            raise StoreError.of("write", where=self.where, why=exc) from None
        return None if token is None else int(token)

    async def update_meta(
        self, table_id: str, meta: dict[str, Any], fence: int | None = None
    ) -> None:
        sql = "UPDATE tables SET meta = $1::jsonb WHERE id = $2"
        await self._one(table_id, fence, sql, (json.dumps(meta, ensure_ascii=False), table_id),
                        sql + " AND fence = $3")

    async def add_round(
        self,
        table_id: str,
        round_no: int,
        leader: int,
        hands: list[list[str]],
        stock: list[str],
        ts: float,
        fence: int | None = None,
    ) -> None:
        await self._insert(
            table_id, fence, "rounds (table_id, round_no, leader, hands, stock, ts)",
            "$1, $2, $3, $4::jsonb, $5::jsonb, $6",
            (table_id, round_no, leader, json.dumps(hands), json.dumps(stock), ts))

    async def add_action(
        self,
        table_id: str,
        round_no: int,
        action: StoredAction,
        finished: dict[str, Any] | None = None,
        fence: int | None = None,
    ) -> None:
        into = "actions (table_id, seq, round_no, seat, action, how, ts)"
        values = "$1, $2, $3, $4, $5, $6, $7"
        params = (table_id, action.seq, round_no, action.seat, action.action, action.how,
                  action.ts)
        if finished is None:
            await self._insert(table_id, fence, into, values, params)
            return
        await self._write(table_id, fence, (f"INSERT INTO {into} VALUES ({values})", params), (
            "UPDATE tables SET status = 'over', record = $1::jsonb, finished = $2 WHERE id = $3",
            (json.dumps(finished, ensure_ascii=False), action.ts, table_id),
        ))

    async def finish(
        self, table_id: str, record: dict[str, Any], ts: float, fence: int | None = None
    ) -> None:
        await self._write(table_id, fence, (
            "UPDATE tables SET status = 'over', record = $1::jsonb, finished = $2 WHERE id = $3",
            (json.dumps(record, ensure_ascii=False), ts, table_id),
        ))

    async def set_aside(self, table_id: str, status: str, fence: int | None = None) -> None:
        await self._write(table_id, fence, (
            "UPDATE tables SET status = $1 WHERE id = $2 AND status = 'open'", (status, table_id)
        ))

    async def archive(self, before: float, limit: int = 500) -> int:
        try:
            async with self._pool.acquire() as db:
                return int(await db.fetchval(_ARCHIVE, before, limit))
        except self._errors() as exc:
            raise StoreError.of("write", where=self.where, why=exc) from None

    # -- reading ---------------------------------------------------------------------------

    async def _fetch(self, sql: str, *params: Any) -> list[Any]:
        try:
            async with self._pool.acquire() as db:
                return list(await db.fetch(sql, *params))
        except self._errors() as exc:
            raise StoreError.of("read", where=self.where, why=exc) from None

    async def load(self, table_id: str) -> StoredTable | None:
        try:
            async with self._pool.acquire() as db, db.transaction(isolation="repeatable_read",
                                                                  readonly=True):
                row = await db.fetchrow(f"SELECT {_COLUMNS} FROM tables WHERE id = $1", table_id)
                if row is None:
                    return None
                rounds = await db.fetch(
                    "SELECT round_no, leader, hands::text, stock::text, ts FROM rounds "
                    "WHERE table_id = $1 ORDER BY round_no", table_id)
                actions = await db.fetch(
                    "SELECT seq, round_no, seat, action, how, ts FROM actions "
                    "WHERE table_id = $1 ORDER BY seq", table_id)
        except self._errors() as exc:
            raise StoreError.of("read", where=self.where, why=exc) from None
        table = table_of(row)
        table.rounds = rounds_of(table_id, rounds, actions)
        return table

    async def unfinished_ids(self) -> list[str]:
        rows = await self._fetch("SELECT id FROM tables WHERE status = 'open' ORDER BY created")
        return [row[0] for row in rows]

    async def finished(
        self, limit: int = 50, offset: int = 0, listed_only: bool = False
    ) -> list[StoredTable]:
        listed = " AND coalesce((meta->>'private')::boolean, false) = false" if listed_only else ""
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM tables WHERE status = 'over'{listed} "
            "ORDER BY finished DESC LIMIT $1 OFFSET $2", limit, offset)
        out = []
        for row in rows:
            try:
                out.append(table_of(row))
            except DamagedRow as exc:
                log.error("%s", exc)
        return out

    async def ping(self) -> None:
        await self._fetch("SELECT 1")

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
