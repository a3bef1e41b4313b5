"""The player store in PostgreSQL (a mixin of :class:`~fives.store.postgres.PostgresStore`).
A rated match locks its players' rating rows (``FOR UPDATE``) while it rates them, so two
matches finishing at once on two processes never lose an update."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
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

__all__ = ["PostgresPlayers"]

T = TypeVar("T")

_P = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
_R = ", ".join(f"r.{c.strip()}" for c in RATING_COLUMNS.split(","))


class PostgresPlayers(PlayerStore):
    _pool: Any

    @property
    def where(self) -> str:
        raise NotImplementedError

    def _errors(self) -> tuple[type[BaseException], ...]:
        raise NotImplementedError

    async def _in_transaction(self, body: Callable[[Any], Awaitable[T]]) -> T:
        import asyncpg  # type: ignore[import-untyped]

        try:
            async with self._pool.acquire() as db, db.transaction():
                return await body(db)
        except asyncpg.UniqueViolationError as exc:
            if "players_name_tag" in str(exc):
                raise NameTaken(str(exc)) from None
            raise StoreError.of("write", where=self.where, why=exc) from None
        except self._errors() as exc:
            raise StoreError.of("write", where=self.where, why=exc) from None

    async def _fetch(self, sql: str, *params: Any) -> list[Any]:
        """The rows of a query (the store's own reading, :class:`PostgresStore`)."""
        raise NotImplementedError

    async def _fill_looks(self) -> None:
        """The look of every name stored before looks were (migration 0102)."""
        rows = await self._fetch("SELECT id, name FROM players WHERE look IS NULL")
        if rows:
            async def body(db: Any) -> None:
                await db.executemany("UPDATE players SET look = $1 WHERE id = $2",
                                     [(name_look(name), pid) for pid, name in rows])

            await self._in_transaction(body)

    async def _insert_player(self, db: Any, player: StoredPlayer) -> None:
        look = await self._refuse_look_alike(db, player.id, player.name)
        await db.execute(f"INSERT INTO players ({PLAYER_COLUMNS}, look) VALUES ($1, $2, $3, $4, "
                         "$5, $6)", player.id, player.name, player.tag, player.kind,
                         player.created, look)

    @staticmethod
    async def _refuse_look_alike(db: Any, player_id: str, name: str) -> str:
        """The name's look, or :class:`NameLooksTaken` if another player's name looks so; one
        transaction at a time per look (two look-alikes created at once: the second sees the
        first)."""
        look = name_look(name)
        await db.execute("SELECT pg_advisory_xact_lock(hashtext($1))", "look:" + look)
        if await db.fetchval("SELECT 1 FROM players WHERE look = $1 AND name != $2 AND id != $3"
                             " LIMIT 1", look, name, player_id):
            raise NameLooksTaken(name)
        return look

    async def create_player(self, player: StoredPlayer, secret_hash: str | None) -> None:
        async def body(db: Any) -> None:
            await self._insert_player(db, player)
            if secret_hash is not None:
                await db.execute("INSERT INTO player_secrets VALUES ($1, $2, $3, 'first')",
                                 secret_hash, player.id, player.created)

        await self._in_transaction(body)

    async def player(self, player_id: str) -> StoredPlayer | None:
        rows = await self._fetch(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1",
                                player_id)
        return StoredPlayer(*rows[0]) if rows else None

    async def player_by_secret(self, secret_hash: str) -> StoredPlayer | None:
        rows = await self._fetch(f"SELECT {_P} FROM players p JOIN player_secrets s ON "
                                "s.player_id = p.id WHERE s.secret_hash = $1", secret_hash)
        return StoredPlayer(*rows[0]) if rows else None

    async def rename_player(self, player_id: str, name: str, tag: str) -> None:
        async def body(db: Any) -> None:
            look = await self._refuse_look_alike(db, player_id, name)
            await db.execute("UPDATE players SET name = $1, tag = $2, look = $3 WHERE id = $4",
                             name, tag, look, player_id)

        await self._in_transaction(body)

    async def add_device_link(self, player_id: str, link_hash: str, ts: float,
                              expires: float) -> None:
        async def body(db: Any) -> None:
            await db.execute("INSERT INTO device_links VALUES ($1, $2, $3, $4)", link_hash,
                             player_id, ts, expires)

        await self._in_transaction(body)

    async def redeem_device_link(self, link_hash: str, secret_hash: str,
                                 ts: float) -> str | None:
        async def body(db: Any) -> str | None:
            row = await db.fetchrow("DELETE FROM device_links WHERE link_hash = $1 RETURNING "
                                    "player_id, expires", link_hash)
            if row is None or row[1] < ts:
                return None
            await db.execute("INSERT INTO player_secrets VALUES ($1, $2, $3, 'link')",
                             secret_hash, row[0], ts)
            return str(row[0])

        return await self._in_transaction(body)

    async def revoke_devices(self, player_id: str, keep_secret_hash: str) -> int:
        async def body(db: Any) -> int:
            links = await db.execute("DELETE FROM device_links WHERE player_id = $1", player_id)
            await db.execute("INSERT INTO spent_secrets SELECT secret_hash, $3 FROM "
                             "player_secrets WHERE player_id = $1 AND secret_hash <> $2 "
                             "ON CONFLICT DO NOTHING", player_id, keep_secret_hash, time.time())
            secrets = await db.execute("DELETE FROM player_secrets WHERE player_id = $1 AND "
                                       "secret_hash <> $2", player_id, keep_secret_hash)
            return int(links.split()[-1]) + int(secrets.split()[-1])

        return await self._in_transaction(body)

    async def forget_player(self, player_id: str, anonymous: str) -> list[str]:
        async def body(db: Any) -> list[str]:
            rows = await db.fetch(
                "SELECT id, meta::text, record::text FROM tables WHERE id IN (SELECT table_id "
                "FROM player_matches WHERE player_id = $1) OR meta::text LIKE $2 FOR UPDATE",
                player_id, f"%{player_id}%")
            changed = []
            for table_id, meta_text, record_text in rows:
                meta, record = anonymise(player_id, anonymous, meta_text, record_text)
                if meta is not None:
                    await db.execute("UPDATE tables SET meta = $1::jsonb, record = $2::jsonb "
                                     "WHERE id = $3", meta, record, table_id)
                    changed.append(table_id)
            bots = [r[0] for r in await db.fetch(
                "SELECT player_id FROM bot_accounts WHERE owner_id = $1", player_id)]
            for gone in [player_id, *bots]:
                await db.execute("INSERT INTO spent_secrets SELECT secret_hash, $2 FROM "
                                 "player_secrets WHERE player_id = $1 ON CONFLICT DO NOTHING",
                                 gone, time.time())
                for table in ("player_matches", "ratings", "device_links", "player_secrets",
                              "bot_accounts"):
                    await db.execute(f"DELETE FROM {table} WHERE player_id = $1", gone)
                await db.execute("DELETE FROM puzzle_tries WHERE player_id = $1", gone)
                await db.execute("DELETE FROM puzzle_ratings WHERE kind = 'player' AND id = $1",
                                 gone)
                await db.execute("DELETE FROM players WHERE id = $1", gone)
            return changed

        return await self._in_transaction(body)

    async def record_match(self, rows: list[PlayerMatch], rate: Rate | None) -> bool:
        async def body(db: Any) -> bool:
            if not rows:
                return False
            # one match recorded once, even if two processes finish it (a takeover)
            await db.execute("SELECT pg_advisory_xact_lock(hashtext($1))", rows[0].table_id)
            if await db.fetchval("SELECT 1 FROM player_matches WHERE table_id = $1",
                                 rows[0].table_id):
                return False
            if rate is not None:
                game = rows[0].game
                ids = sorted(row.player_id for row in rows)  # one lock order: no deadlock
                found = await db.fetch(f"SELECT {RATING_COLUMNS} FROM ratings WHERE game = $1 "
                                       "AND player_id = ANY($2) ORDER BY player_id FOR UPDATE",
                                       game, ids)
                now: dict[str, StoredRating | None] = dict.fromkeys(ids)
                for r in found:
                    now[r[0]] = StoredRating(*r)
                new = rate(now)
                for g in new.values():
                    await db.execute(
                        f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, "
                        "$6, $7) ON CONFLICT (player_id, game) DO UPDATE SET mu = $3, "
                        "sigma = $4, matches = $5, wins = $6, updated = $7",
                        g.player_id, g.game, g.mu, g.sigma, g.matches, g.wins, g.updated)
                for row in rows:
                    if row.player_id in new:
                        row.mu, row.sigma = new[row.player_id].mu, new[row.player_id].sigma
            for row in rows:
                await db.execute(f"INSERT INTO player_matches ({MATCH_COLUMNS}) VALUES ($1, "
                                 "$2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
                                 *match_params(row))
            return True

        return await self._in_transaction(body)

    async def ratings_of(self, player_id: str) -> list[StoredRating]:
        rows = await self._fetch(f"SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = $1 "
                                "ORDER BY game", player_id)
        return [StoredRating(*row) for row in rows]

    async def leaderboard(self, game: str, limit: int = 50,
                          kind: str | None = None) -> list[tuple[StoredPlayer, StoredRating]]:
        where = " AND p.kind = $3" if kind else ""
        params: tuple[Any, ...] = (game, limit, kind) if kind else (game, limit)
        rows = await self._fetch(
            f"SELECT {_P}, {_R} FROM ratings r JOIN players p ON p.id = r.player_id "
            f"WHERE r.game = $1{where} ORDER BY r.mu - 3 * r.sigma DESC, p.id LIMIT $2",
            *params)
        return [(StoredPlayer(*tuple(row)[:5]), StoredRating(*tuple(row)[5:])) for row in rows]

    async def matches_of(self, player_id: str, limit: int = 50) -> list[PlayerMatch]:
        rows = await self._fetch(f"SELECT {MATCH_COLUMNS} FROM player_matches WHERE "
                                "player_id = $1 ORDER BY ts DESC LIMIT $2", player_id, limit)
        return [match_of(row) for row in rows]

    async def players_at(self, table_ids: Sequence[str]) -> list[tuple[str, int, StoredPlayer]]:
        if not table_ids:
            return []
        rows = await self._fetch(f"SELECT m.table_id, m.seat, {_P} FROM player_matches m JOIN "
                                 "players p ON p.id = m.player_id WHERE m.table_id = ANY($1)",
                                 list(table_ids))
        return [(row[0], row[1], StoredPlayer(*row[2:])) for row in rows]

    async def create_bot_account(self, bot: StoredPlayer, owner_id: str,
                                 token_hash: str) -> None:
        async def body(db: Any) -> None:
            await self._insert_player(db, bot)
            await db.execute("INSERT INTO player_secrets VALUES ($1, $2, $3, 'token')",
                             token_hash, bot.id, bot.created)
            await db.execute("INSERT INTO bot_accounts VALUES ($1, $2, $3)", bot.id, owner_id,
                             bot.created)

        await self._in_transaction(body)

    async def bot_accounts_of(self, owner_id: str) -> list[StoredPlayer]:
        rows = await self._fetch(f"SELECT {_P} FROM players p JOIN bot_accounts b ON "
                                "b.player_id = p.id WHERE b.owner_id = $1 ORDER BY p.created",
                                owner_id)
        return [StoredPlayer(*row) for row in rows]

    async def new_bot_token(self, bot_id: str, owner_id: str, token_hash: str) -> bool:
        async def body(db: Any) -> bool:
            if await db.fetchval("SELECT 1 FROM bot_accounts WHERE player_id = $1 AND "
                                 "owner_id = $2 FOR UPDATE", bot_id, owner_id) is None:
                return False
            await db.execute("DELETE FROM player_secrets WHERE player_id = $1", bot_id)
            await db.execute("INSERT INTO player_secrets VALUES ($1, $2, $3, 'token')",
                             token_hash, bot_id, time.time())
            return True

        return await self._in_transaction(body)
