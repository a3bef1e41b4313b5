"""The default store: one SQLite file (standard library ``sqlite3``), WAL journal.

Every write is its own transaction and is committed before the call returns, so an action is
on disk (in the WAL) before the server broadcasts it; a killed process loses nothing it said.
The calls are ``async`` (the :class:`Store` interface) but run inline: a local write in WAL
mode takes microseconds, less than a hop to a worker thread would.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from fives.store.base import DamagedRow, StaleOwner, Store, StoredAction, StoredTable, StoreError
from fives.store.migrations import SCHEMA_TABLE, migrations
from fives.store.rows import TABLE_COLUMNS, rounds_of, table_of
from fives.store.sqlite_analyses import SqliteAnalyses
from fives.store.sqlite_events import SqliteEvents
from fives.store.sqlite_players import SqlitePlayers
from fives.store.sqlite_puzzles import SqlitePuzzles

__all__ = ["SqliteStore", "open_sqlite"]

_Statement = tuple[str, tuple[Any, ...]]

log = logging.getLogger("fives.store")

class SqliteStore(SqlitePlayers, SqliteAnalyses, SqlitePuzzles, SqliteEvents, Store):
    """The store in one SQLite file. ``exclusive`` (the default): this store is the file's
    only owner while it is open; another one, in this process or another, is refused at once
    (two servers on one file would fork the tables silently). ``exclusive=False`` is for
    reading alongside (inspection, tests). The schema is brought up to date on opening."""

    dialect = "sqlite"

    def __init__(self, path: str | Path, exclusive: bool = True) -> None:
        self.path = str(path)
        self._owner: int | None = None
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                if exclusive:
                    self._owner = _take_ownership(self.path)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._lock = threading.Lock()
            self.applied = self._migrate()
        except (sqlite3.Error, OSError) as exc:
            self._release()
            raise StoreError.of("open", where=self.path, why=exc) from None

    def _migrate(self) -> list[str]:
        db = self._db
        db.execute(f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} "
                   "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied REAL NOT NULL)")
        done = {row[0] for row in db.execute(f"SELECT version FROM {SCHEMA_TABLE}")}
        applied = []
        for m in migrations(self.dialect):
            if m.version in done:
                continue
            with self._lock:
                db.execute("BEGIN IMMEDIATE")
                try:
                    # one statement at a time: executescript() would commit on its own
                    for statement in _statements(m.sql):
                        db.execute(statement)
                    db.execute(f"INSERT INTO {SCHEMA_TABLE} VALUES (?, ?, ?)",
                               (m.version, m.name, time.time()))
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
            log.info("database %s: migration %s applied", self.path, m.label)
            applied.append(m.label)
        self._fill_looks()
        return applied

    async def migrate(self) -> list[str]:
        try:
            return self._migrate()
        except sqlite3.Error as exc:
            raise StoreError.of("migrate", where=self.path, why=exc) from None

    def _release(self) -> None:
        if self._owner is not None:
            os.close(self._owner)  # the lock goes with it
            self._owner = None

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            with self._lock:
                return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError.of("read", where=self.path, why=exc) from None

    def _write(self, table_id: str, fence: int | None, *statements: _Statement) -> None:
        """Writes for one table that land together or not at all; with ``fence``, only while
        the table's token is still that one (else :class:`StaleOwner`)."""
        try:
            with self._lock:
                if fence is None and len(statements) == 1:
                    self._db.execute(*statements[0])  # one statement: its own transaction
                    return
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    if fence is not None:
                        row = self._db.execute(
                            "SELECT fence FROM tables WHERE id = ?", (table_id,)).fetchone()
                        if row is None or row[0] != fence:
                            raise StaleOwner(f"table {table_id}: owned by another process now "
                                             f"(token {row[0] if row else None}, not {fence})")
                    for sql, params in statements:
                        self._db.execute(sql, params)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError.of("write", where=self.path, why=exc) from None

    # -- writing ---------------------------------------------------------------------------

    async def create_table(
        self, table_id: str, meta: dict[str, Any], ts: float, fence: int | None = None
    ) -> None:
        self._write(table_id, None, (
            "INSERT INTO tables (id, created, status, meta, fence) VALUES (?, ?, 'open', ?, ?)",
            (table_id, ts, json.dumps(meta, ensure_ascii=False), fence or 0),
        ))

    async def claim(self, table_id: str) -> int | None:
        rows = self._query("UPDATE tables SET fence = fence + 1 WHERE id = ? RETURNING fence",
                           (table_id,))
        return int(rows[0][0]) if rows else None

    async def update_meta(
        self, table_id: str, meta: dict[str, Any], fence: int | None = None
    ) -> None:
        self._write(table_id, fence, (
            "UPDATE tables SET meta = ? WHERE id = ?",
            (json.dumps(meta, ensure_ascii=False), table_id),
        ))

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
        self._write(table_id, fence, (
            "INSERT INTO rounds (table_id, round_no, leader, hands, stock, ts) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, round_no, leader, json.dumps(hands), json.dumps(stock), ts),
        ))

    async def add_action(
        self,
        table_id: str,
        round_no: int,
        action: StoredAction,
        finished: dict[str, Any] | None = None,
        fence: int | None = None,
    ) -> None:
        insert: _Statement = (
            "INSERT INTO actions (table_id, seq, round_no, seat, action, how, ts) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, action.seq, round_no, action.seat, action.action, action.how, action.ts),
        )
        if finished is None:
            self._write(table_id, fence, insert)
            return
        self._write(table_id, fence, insert, (
            "UPDATE tables SET status = 'over', record = ?, finished = ? WHERE id = ?",
            (json.dumps(finished, ensure_ascii=False), action.ts, table_id),
        ))

    async def finish(
        self, table_id: str, record: dict[str, Any], ts: float, fence: int | None = None
    ) -> None:
        self._write(table_id, fence, (
            "UPDATE tables SET status = 'over', record = ?, finished = ? WHERE id = ?",
            (json.dumps(record, ensure_ascii=False), ts, table_id),
        ))

    async def set_aside(self, table_id: str, status: str, fence: int | None = None) -> None:
        self._write(table_id, fence, (
            "UPDATE tables SET status = ? WHERE id = ? AND status = 'open'", (status, table_id)
        ))

    async def archive(self, before: float, limit: int = 500) -> int:
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    ids = [(row[0],) for row in self._db.execute(_ARCHIVABLE, (before, limit))]
                    self._db.executemany("DELETE FROM actions WHERE table_id = ?", ids)
                    self._db.executemany("DELETE FROM rounds WHERE table_id = ?", ids)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError.of("write", where=self.path, why=exc) from None
        return len(ids)

    # -- reading ---------------------------------------------------------------------------

    def _table(self, row: tuple[Any, ...], with_rounds: bool) -> StoredTable:
        table = table_of(row)
        if with_rounds:
            table.rounds = rounds_of(
                table.id,
                self._query("SELECT round_no, leader, hands, stock, ts FROM rounds "
                            "WHERE table_id = ? ORDER BY round_no", (table.id,)),
                self._query("SELECT seq, round_no, seat, action, how, ts FROM actions "
                            "WHERE table_id = ? ORDER BY seq", (table.id,)),
            )
        return table

    async def load(self, table_id: str) -> StoredTable | None:
        rows = self._query(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        )
        return self._table(rows[0], True) if rows else None

    async def unfinished_ids(self) -> list[str]:
        rows = self._query("SELECT id FROM tables WHERE status = 'open' ORDER BY created")
        return [row[0] for row in rows]

    async def finished(
        self, limit: int = 50, offset: int = 0, listed_only: bool = False
    ) -> list[StoredTable]:
        # a row whose meta is damaged is never listed (json_extract would fail the query)
        listed = (" AND CASE WHEN json_valid(meta) THEN "
                  "coalesce(json_extract(meta, '$.private'), 0) ELSE 1 END = 0"
                  if listed_only else "")
        rows = self._query(
            f"SELECT {TABLE_COLUMNS} FROM tables "
            f"WHERE status = 'over'{listed} ORDER BY finished DESC LIMIT ? OFFSET ?",
            (limit, offset),
        )
        out = []
        for row in rows:
            try:
                out.append(self._table(row, False))
            except DamagedRow as exc:
                log.error("%s", exc)
        return out

    async def ping(self) -> None:
        self._query("SELECT 1")

    async def close(self) -> None:
        self.close_now()

    def close_now(self) -> None:
        """Close at once (outside an event loop: the command line, tests)."""
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._release()


# finished matches whose deals and actions are still stored
_ARCHIVABLE = ("SELECT id FROM tables t WHERE status = 'over' AND record IS NOT NULL "
               "AND finished < ? AND EXISTS (SELECT 1 FROM rounds r WHERE r.table_id = t.id) "
               "LIMIT ?")


def _take_ownership(path: str) -> int:
    """An exclusive lock on ``PATH.lock`` for as long as the returned descriptor is open (the
    system drops it when the process ends, however it ends). A lock file beside the database
    is used, not the database itself: closing another descriptor of the database would drop
    SQLite's own locks."""
    lock_path = os.path.realpath(path) + ".lock"
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
        os.close(fd)
        who = f" (process {holder})" if holder.isdigit() else ""
        raise StoreError.of("in_use", where=path, who=who) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


def _statements(script: str) -> list[str]:
    """A migration's statements, one by one (its comments left out)."""
    lines = [line for line in script.splitlines() if not line.lstrip().startswith("--")]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]


def open_sqlite(path: str | Path) -> SqliteStore:
    """Open (creating if needed) the SQLite store at ``path`` (``:memory:`` for tests)."""
    return SqliteStore(path)
