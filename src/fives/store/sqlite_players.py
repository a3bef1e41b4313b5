"""The player store in the SQLite file (a mixin of :class:`~fives.store.sqlite.SqliteStore`:
the same connection, lock and transactions)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from fives.store.base import StoreError
from fives.store.looks import name_look
from fives.store.player_rows import (
    MATCH_COLUMNS,
    PLAYER_COLUMNS,
    RATING_COLUMNS,
    anonymise,
    match_of,
    match_params,
)
from fives.store.players import (
    NameLooksTaken,
    NameTaken,
    PlayerMatch,
    PlayerStore,
    Rate,
    StoredPlayer,
    StoredRating,
)

__all__ = ["SqlitePlayers"]

T = TypeVar("T")


class SqlitePlayers(PlayerStore):
    path: str
    _db: sqlite3.Connection
    _lock: threading.Lock

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of a query (the store's own reading, :class:`SqliteStore`)."""
        raise NotImplementedError

    def _transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """``body`` in one transaction: all of it or nothing."""
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    result = body(self._db)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
                return result
        except sqlite3.IntegrityError as exc:
            if "players.name" in str(exc):
                raise NameTaken(str(exc)) from None
            raise StoreError.of("write", where=self.path, why=exc) from None
        except sqlite3.Error as exc:
            raise StoreError.of("write", where=self.path, why=exc) from None

    def _fill_looks(self) -> None:
        """The look of every name stored before looks were (migration 0102)."""
        rows = self._query("SELECT id, name FROM players WHERE look IS NULL")
        if rows:
            self._transaction(lambda db: db.executemany(
                "UPDATE players SET look = ? WHERE id = ?",
                [(name_look(name), pid) for pid, name in rows]))

    def _insert_player(self, db: sqlite3.Connection, player: StoredPlayer) -> None:
        look = self._refuse_look_alike(db, player.id, player.name)
        db.execute(f"INSERT INTO players ({PLAYER_COLUMNS}, look) VALUES (?, ?, ?, ?, ?, ?)",
                   (player.id, player.name, player.tag, player.kind, player.created, look))

    @staticmethod
    def _refuse_look_alike(db: sqlite3.Connection, player_id: str, name: str) -> str:
        """The name's look, or :class:`NameLooksTaken` if another player's name looks so."""
        look = name_look(name)
        if db.execute("SELECT 1 FROM players WHERE look = ? AND name != ? AND id != ? LIMIT 1",
                      (look, name, player_id)).fetchone():
            raise NameLooksTaken(name)
        return look

    async def create_player(self, player: StoredPlayer, secret_hash: str | None) -> None:
        def body(db: sqlite3.Connection) -> None:
            self._insert_player(db, player)
            if secret_hash is not None:
                db.execute("INSERT INTO player_secrets VALUES (?, ?, ?, 'first')",
                           (secret_hash, player.id, player.created))

        self._transaction(body)

    async def player(self, player_id: str) -> StoredPlayer | None:
        rows = self._query(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,))
        return StoredPlayer(*rows[0]) if rows else None

    async def player_by_secret(self, secret_hash: str) -> StoredPlayer | None:
        cols = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
        rows = self._query(f"SELECT {cols} FROM players p JOIN player_secrets s "
                          "ON s.player_id = p.id WHERE s.secret_hash = ?", (secret_hash,))
        return StoredPlayer(*rows[0]) if rows else None

    async def rename_player(self, player_id: str, name: str, tag: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            look = self._refuse_look_alike(db, player_id, name)
            db.execute("UPDATE players SET name = ?, tag = ?, look = ? WHERE id = ?",
                       (name, tag, look, player_id))

        self._transaction(body)

    async def add_device_link(self, player_id: str, link_hash: str, ts: float,
                              expires: float) -> None:
        self._transaction(lambda db: db.execute(
            "INSERT INTO device_links VALUES (?, ?, ?, ?)", (link_hash, player_id, ts, expires)))

    async def redeem_device_link(self, link_hash: str, secret_hash: str,
                                 ts: float) -> str | None:
        def body(db: sqlite3.Connection) -> str | None:
            row = db.execute("DELETE FROM device_links WHERE link_hash = ? RETURNING "
                             "player_id, expires", (link_hash,)).fetchone()
            if row is None or row[1] < ts:
                return None
            db.execute("INSERT INTO player_secrets VALUES (?, ?, ?, 'link')",
                       (secret_hash, row[0], ts))
            return str(row[0])

        return self._transaction(body)

    async def revoke_devices(self, player_id: str, keep_secret_hash: str) -> int:
        def body(db: sqlite3.Connection) -> int:
            links = db.execute("DELETE FROM device_links WHERE player_id = ?", (player_id,))
            db.execute("INSERT OR IGNORE INTO spent_secrets SELECT secret_hash, ? FROM "
                       "player_secrets WHERE player_id = ? AND secret_hash != ?",
                       (time.time(), player_id, keep_secret_hash))
            secrets = db.execute("DELETE FROM player_secrets WHERE player_id = ? AND "
                                 "secret_hash != ?", (player_id, keep_secret_hash))
            return int(links.rowcount + secrets.rowcount)

        return self._transaction(body)

    async def forget_player(self, player_id: str, anonymous: str) -> list[str]:
        def body(db: sqlite3.Connection) -> list[str]:
            ids = [r[0] for r in db.execute(
                "SELECT table_id FROM player_matches WHERE player_id = ?", (player_id,))]
            ids += [r[0] for r in db.execute(
                "SELECT id FROM tables WHERE id NOT IN (SELECT table_id FROM player_matches "
                "WHERE player_id = ?) AND instr(meta, ?) > 0", (player_id, player_id))]
            changed = []
            for table_id in ids:
                row = db.execute("SELECT meta, record FROM tables WHERE id = ?",
                                 (table_id,)).fetchone()
                if row is None:
                    continue
                meta, record = anonymise(player_id, anonymous, row[0], row[1])
                if meta is not None:
                    db.execute("UPDATE tables SET meta = ?, record = ? WHERE id = ?",
                               (meta, record, table_id))
                    changed.append(table_id)
            bots = [r[0] for r in db.execute(
                "SELECT player_id FROM bot_accounts WHERE owner_id = ?", (player_id,))]
            for gone in [player_id, *bots]:
                db.execute("INSERT OR IGNORE INTO spent_secrets SELECT secret_hash, ? FROM "
                           "player_secrets WHERE player_id = ?", (time.time(), gone))
                for table in ("player_matches", "ratings", "device_links", "player_secrets",
                              "bot_accounts"):
                    db.execute(f"DELETE FROM {table} WHERE player_id = ?", (gone,))
                db.execute("DELETE FROM puzzle_tries WHERE player_id = ?", (gone,))
                db.execute("DELETE FROM puzzle_ratings WHERE kind = 'player' AND id = ?", (gone,))
                db.execute("DELETE FROM players WHERE id = ?", (gone,))
            return changed

        return self._transaction(body)

    async def record_match(self, rows: list[PlayerMatch], rate: Rate | None) -> bool:
        def body(db: sqlite3.Connection) -> bool:
            if not rows or db.execute("SELECT 1 FROM player_matches WHERE table_id = ?",
                                      (rows[0].table_id,)).fetchone():
                return False
            if rate is not None:
                game = rows[0].game
                now: dict[str, StoredRating | None] = {}
                for row in rows:
                    found = db.execute(f"SELECT {RATING_COLUMNS} FROM ratings WHERE "
                                       "player_id = ? AND game = ?", (row.player_id, game)
                                       ).fetchone()
                    now[row.player_id] = StoredRating(*found) if found else None
                new = rate(now)
                for rating in new.values():
                    db.execute(f"INSERT OR REPLACE INTO ratings ({RATING_COLUMNS}) VALUES "
                               "(?, ?, ?, ?, ?, ?, ?)",
                               (rating.player_id, rating.game, rating.mu, rating.sigma,
                                rating.matches, rating.wins, rating.updated))
                for row in rows:
                    if row.player_id in new:
                        row.mu, row.sigma = new[row.player_id].mu, new[row.player_id].sigma
            for row in rows:
                db.execute(f"INSERT INTO player_matches ({MATCH_COLUMNS}) VALUES "
                           "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", match_params(row))
            return True

        return self._transaction(body)

    async def ratings_of(self, player_id: str) -> list[StoredRating]:
        rows = self._query(f"SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = ? "
                          "ORDER BY game", (player_id,))
        return [StoredRating(*row) for row in rows]

    async def leaderboard(self, game: str, limit: int = 50,
                          kind: str | None = None) -> list[tuple[StoredPlayer, StoredRating]]:
        cols = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
        rcols = ", ".join(f"r.{c.strip()}" for c in RATING_COLUMNS.split(","))
        where = " AND p.kind = ?" if kind else ""
        rows = self._query(
            f"SELECT {cols}, {rcols} FROM ratings r JOIN players p ON p.id = r.player_id "
            f"WHERE r.game = ?{where} ORDER BY r.mu - 3 * r.sigma DESC, p.id LIMIT ?",
            (game, kind, limit) if kind else (game, limit))
        return [(StoredPlayer(*row[:5]), StoredRating(*row[5:])) for row in rows]

    async def matches_of(self, player_id: str, limit: int = 50) -> list[PlayerMatch]:
        rows = self._query(f"SELECT {MATCH_COLUMNS} FROM player_matches WHERE player_id = ? "
                          "ORDER BY ts DESC LIMIT ?", (player_id, limit))
        return [match_of(row) for row in rows]



    async def players_at(self, table_ids: Sequence[str]) -> list[tuple[str, int, StoredPlayer]]:
        if not table_ids:
            return []
        cols = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
        marks = ", ".join("?" * len(table_ids))
        rows = self._query(f"SELECT m.table_id, m.seat, {cols} FROM player_matches m JOIN players "
                           f"p ON p.id = m.player_id WHERE m.table_id IN ({marks})",
                           tuple(table_ids))
        return [(row[0], row[1], StoredPlayer(*row[2:])) for row in rows]

    async def create_bot_account(self, bot: StoredPlayer, owner_id: str,
                                 token_hash: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            self._insert_player(db, bot)
            db.execute("INSERT INTO player_secrets VALUES (?, ?, ?, 'token')",
                       (token_hash, bot.id, bot.created))
            db.execute("INSERT INTO bot_accounts VALUES (?, ?, ?)", (bot.id, owner_id,
                                                                      bot.created))

        self._transaction(body)

    async def bot_accounts_of(self, owner_id: str) -> list[StoredPlayer]:
        cols = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
        rows = self._query(f"SELECT {cols} FROM players p JOIN bot_accounts b ON b.player_id = "
                          "p.id WHERE b.owner_id = ? ORDER BY p.created", (owner_id,))
        return [StoredPlayer(*row) for row in rows]

    async def new_bot_token(self, bot_id: str, owner_id: str, token_hash: str) -> bool:
        def body(db: sqlite3.Connection) -> bool:
            if db.execute("SELECT 1 FROM bot_accounts WHERE player_id = ? AND owner_id = ?",
                          (bot_id, owner_id)).fetchone() is None:
                return False
            db.execute("DELETE FROM player_secrets WHERE player_id = ?", (bot_id,))
            db.execute("INSERT INTO player_secrets VALUES (?, ?, ?, 'token')",
                       (token_hash, bot_id, time.time()))
            return True

        return self._transaction(body)
