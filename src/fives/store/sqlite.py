"""The default store: one SQLite file (standard library ``sqlite3``), WAL journal.

Every write is its own transaction and is committed before the call returns, so an action is
on disk (in the WAL) before the server broadcasts it; a killed process loses nothing it said.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

from fives.store.base import (
    DamagedRow,
    Store,
    StoredAction,
    StoredRound,
    StoredTable,
    StoreError,
)

__all__ = ["SqliteStore", "open_store"]

log = logging.getLogger("fives.store")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    status TEXT NOT NULL,
    meta TEXT NOT NULL,
    record TEXT,
    finished REAL
);
CREATE TABLE IF NOT EXISTS rounds (
    table_id TEXT NOT NULL,
    round_no INTEGER NOT NULL,
    leader INTEGER NOT NULL,
    hands TEXT NOT NULL,
    stock TEXT NOT NULL,
    ts REAL NOT NULL,
    PRIMARY KEY (table_id, round_no)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    how TEXT NOT NULL,
    ts REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX IF NOT EXISTS tables_status ON tables (status, finished);
"""


class SqliteStore(Store):
    """The store in one SQLite file. ``exclusive`` (the default): this store is the file's
    only owner while it is open; another one, in this process or another, is refused at once
    (two servers on one file would fork the tables silently). ``exclusive=False`` is for
    reading alongside (inspection, tests)."""

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
            self._db.executescript(_SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            self._release()
            raise StoreError(f"cannot open the database {self.path}: {exc}") from None
        self._lock = threading.Lock()

    def _release(self) -> None:
        if self._owner is not None:
            os.close(self._owner)  # the lock goes with it
            self._owner = None

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        try:
            with self._lock:
                self._db.execute(sql, params)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to {self.path}: {exc}") from None

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            with self._lock:
                return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from None

    # -- writing ---------------------------------------------------------------------------

    def create_table(self, table_id: str, meta: dict[str, Any], ts: float) -> None:
        self._run(
            "INSERT INTO tables (id, created, status, meta) VALUES (?, ?, 'open', ?)",
            (table_id, ts, json.dumps(meta, ensure_ascii=False)),
        )

    def update_meta(self, table_id: str, meta: dict[str, Any]) -> None:
        self._run(
            "UPDATE tables SET meta = ? WHERE id = ?",
            (json.dumps(meta, ensure_ascii=False), table_id),
        )

    def add_round(
        self,
        table_id: str,
        round_no: int,
        leader: int,
        hands: list[list[str]],
        stock: list[str],
        ts: float,
    ) -> None:
        self._run(
            "INSERT INTO rounds (table_id, round_no, leader, hands, stock, ts) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, round_no, leader, json.dumps(hands), json.dumps(stock), ts),
        )

    def add_action(
        self,
        table_id: str,
        round_no: int,
        action: StoredAction,
        finished: dict[str, Any] | None = None,
    ) -> None:
        insert = (
            "INSERT INTO actions (table_id, seq, round_no, seat, action, how, ts) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, action.seq, round_no, action.seat, action.action, action.how, action.ts),
        )
        if finished is None:
            self._run(*insert)
            return
        self._transaction([insert, (
            "UPDATE tables SET status = 'over', record = ?, finished = ? WHERE id = ?",
            (json.dumps(finished, ensure_ascii=False), action.ts, table_id),
        )])

    def _transaction(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Several writes that land together or not at all."""
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    for sql, params in statements:
                        self._db.execute(sql, params)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to {self.path}: {exc}") from None

    def finish(self, table_id: str, record: dict[str, Any], ts: float) -> None:
        self._run(
            "UPDATE tables SET status = 'over', record = ?, finished = ? WHERE id = ?",
            (json.dumps(record, ensure_ascii=False), ts, table_id),
        )

    def set_aside(self, table_id: str, status: str) -> None:
        self._run(
            "UPDATE tables SET status = ? WHERE id = ? AND status = 'open'", (status, table_id)
        )

    # -- reading ---------------------------------------------------------------------------

    def _table(self, row: tuple[Any, ...], with_rounds: bool) -> StoredTable:
        table_id, created, status, meta, record, finished = row
        table = StoredTable(
            id=table_id,
            created=created,
            status=status,
            meta=_parse(table_id, "meta", meta, dict),
            record=_parse(table_id, "record", record, dict) if record else None,
            finished=finished,
        )
        if with_rounds:
            rounds: dict[int, StoredRound] = {}
            for round_no, leader, hands, stock, ts in self._query(
                "SELECT round_no, leader, hands, stock, ts FROM rounds "
                "WHERE table_id = ? ORDER BY round_no",
                (table_id,),
            ):
                rounds[round_no] = StoredRound(
                    round_no, leader, _parse(table_id, f"round {round_no}", hands, list),
                    _parse(table_id, f"round {round_no}", stock, list), ts
                )
            for seq, round_no, seat, action, how, ts in self._query(
                "SELECT seq, round_no, seat, action, how, ts FROM actions "
                "WHERE table_id = ? ORDER BY seq",
                (table_id,),
            ):
                if round_no in rounds:
                    rounds[round_no].actions.append(StoredAction(seq, seat, action, how, ts))
            table.rounds = [rounds[k] for k in sorted(rounds)]
        return table

    def load(self, table_id: str) -> StoredTable | None:
        rows = self._query(
            "SELECT id, created, status, meta, record, finished FROM tables WHERE id = ?",
            (table_id,),
        )
        return self._table(rows[0], True) if rows else None

    def unfinished_ids(self) -> list[str]:
        rows = self._query("SELECT id FROM tables WHERE status = 'open' ORDER BY created")
        return [row[0] for row in rows]

    def finished(
        self, limit: int = 50, offset: int = 0, listed_only: bool = False
    ) -> list[StoredTable]:
        # a row whose meta is damaged is never listed (json_extract would fail the query)
        listed = (" AND CASE WHEN json_valid(meta) THEN "
                  "coalesce(json_extract(meta, '$.private'), 0) ELSE 1 END = 0"
                  if listed_only else "")
        rows = self._query(
            "SELECT id, created, status, meta, record, finished FROM tables "
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

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._release()


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
        raise StoreError(
            f"the database {path} is in use by another fives server{who}; stop it, or use "
            "another database"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


def _parse(table_id: str, what: str, text: str, kind: type) -> Any:
    """Stored JSON, or :class:`DamagedRow` naming the table and the part that is damaged."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise DamagedRow(f"table {table_id}: its {what} is damaged (not JSON)") from None
    if not isinstance(value, kind):
        raise DamagedRow(f"table {table_id}: its {what} is damaged (not a JSON {kind.__name__})")
    return value


def open_store(path: str | Path) -> SqliteStore:
    """Open (creating if needed) the SQLite store at ``path`` (``:memory:`` for tests)."""
    return SqliteStore(path)
