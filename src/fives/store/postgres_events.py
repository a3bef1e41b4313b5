"""The events in PostgreSQL (a mixin of :class:`~fives.store.postgres.PostgresStore`)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from fives.store.events import (
    ENTRANT_COLUMNS,
    EVENT_COLUMNS,
    EVENT_GAME_COLUMNS,
    EventStore,
    StoredEntrant,
    StoredEvent,
    StoredEventGame,
    entrant_of,
    event_of,
    game_of,
)

__all__ = ["PostgresEvents"]

T = TypeVar("T")
_EVENTS = EVENT_COLUMNS.replace("meta", "meta::text")
_GAMES = (EVENT_GAME_COLUMNS.replace("players", "players::text")
          .replace("tokens", "tokens::text").replace("result", "result::text"))


def _event(row: Any) -> StoredEvent:
    return event_of(list(row), json.loads(row[2]))


def _game(row: Any) -> StoredEventGame:
    return game_of(list(row), json.loads)


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


class PostgresEvents(EventStore):
    async def _fetch(self, sql: str, *params: Any) -> list[Any]:
        raise NotImplementedError

    async def _in_transaction(self, body: Callable[[Any], Awaitable[T]]) -> T:
        raise NotImplementedError

    async def create_event(self, event: StoredEvent) -> bool:
        async def body(db: Any) -> bool:
            done = await db.execute(
                f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ($1, $2, $3::jsonb, $4, $5, $6, "
                "$7, $8, $9, $10, $11) ON CONFLICT DO NOTHING", event.id, event.kind, _text(event.meta), event.creator,
                event.created, event.starts, event.status, event.listed, event.owner,
                event.lease_until, event.ended)
            return bool(done.endswith(" 1"))

        return await self._in_transaction(body)

    async def event(self, event_id: str) -> StoredEvent | None:
        rows = await self._fetch(f"SELECT {_EVENTS} FROM events WHERE id = $1", event_id)
        return _event(rows[0]) if rows else None

    async def events(self, statuses: Sequence[str], limit: int = 20,
                     listed_only: bool = True) -> list[StoredEvent]:
        if not statuses:
            return []
        listed = " AND listed" if listed_only else ""
        # the coming and running soonest first, the ended newest first
        rows = await self._fetch(
            f"SELECT {_EVENTS} FROM events WHERE status = ANY($1::text[]){listed} ORDER BY "
            "CASE WHEN ended IS NULL THEN starts ELSE -ended END, id LIMIT $2",
            list(statuses), limit)
        return [_event(r) for r in rows]

    async def events_created(self, creator: str, since: float) -> int:
        rows = await self._fetch("SELECT count(*) FROM events WHERE creator = $1 AND created "
                                 ">= $2", creator, since)
        return int(rows[0][0])

    async def advance_event(self, event_id: str, before: str, after: str, ts: float) -> bool:
        async def body(db: Any) -> bool:
            done = await db.execute(
                "UPDATE events SET status = $1, ended = CASE WHEN $1 IN ('finished', "
                "'cancelled') THEN $2 ELSE ended END WHERE id = $3 AND status = $4",
                after, ts, event_id, before)
            return bool(done.endswith(" 1"))

        return await self._in_transaction(body)

    async def claim_event(self, event_id: str, owner: str, now: float, lease: float) -> bool:
        async def body(db: Any) -> bool:
            done = await db.execute(
                "UPDATE events SET owner = $1, lease_until = $2 WHERE id = $3 AND (owner IS "
                "NULL OR owner = $1 OR lease_until < $4)", owner, now + lease, event_id, now)
            return bool(done.endswith(" 1"))

        return await self._in_transaction(body)

    async def join_event(self, entrant: StoredEntrant) -> StoredEntrant:
        async def body(db: Any) -> StoredEntrant:
            await db.execute(
                f"INSERT INTO event_entrants ({ENTRANT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, "
                "$6, $7) ON CONFLICT DO NOTHING", entrant.event_id, entrant.player, entrant.name,
                entrant.joined, entrant.paused, entrant.bot, entrant.browser)
            return entrant_of(await db.fetchrow(
                f"SELECT {ENTRANT_COLUMNS} FROM event_entrants WHERE event_id = $1 AND player "
                "= $2", entrant.event_id, entrant.player))

        return await self._in_transaction(body)

    async def set_paused(self, event_id: str, player: str, paused: bool) -> bool:
        async def body(db: Any) -> bool:
            done = await db.execute("UPDATE event_entrants SET paused = $1 WHERE event_id = $2 "
                                    "AND player = $3", paused, event_id, player)
            return bool(done.endswith(" 1"))

        return await self._in_transaction(body)

    async def entrants(self, event_id: str) -> list[StoredEntrant]:
        rows = await self._fetch(f"SELECT {ENTRANT_COLUMNS} FROM event_entrants WHERE event_id "
                                 "= $1 ORDER BY joined, player", event_id)
        return [entrant_of(r) for r in rows]

    async def add_event_games(self, event_id: str, owner: str, now: float,
                              games: Sequence[StoredEventGame]) -> bool:
        async def body(db: Any) -> bool:
            # the event's row held to the end of the transaction: a takeover waits for it
            held = await db.fetchval("SELECT 1 FROM events WHERE id = $1 AND owner = $2 AND "
                                     "lease_until >= $3 FOR UPDATE", event_id, owner, now)
            if held is None:
                return False
            await db.executemany(
                f"INSERT INTO event_games ({EVENT_GAME_COLUMNS}) VALUES ($1, $2, $3, $4::jsonb, "
                "$5::jsonb, $6, $7::jsonb, $8)",
                [(event_id, g.table_id, g.round, _text(g.players), _text(g.tokens), g.started,
                  None if g.result is None else _text(g.result), g.finished) for g in games])
            return True

        return await self._in_transaction(body)

    async def finish_event_game(self, event_id: str, table_id: str, result: dict[str, Any],
                                now: float) -> bool:
        async def body(db: Any) -> bool:
            done = await db.execute(
                "UPDATE event_games SET result = $1::jsonb, finished = $2, tokens = '{}' WHERE "
                "event_id = $3 "
                "AND table_id = $4 AND finished IS NULL", _text(result), now, event_id, table_id)
            return bool(done.endswith(" 1"))

        return await self._in_transaction(body)

    async def event_games(self, event_id: str) -> list[StoredEventGame]:
        rows = await self._fetch(f"SELECT {_GAMES} FROM event_games WHERE event_id = $1 ORDER "
                                 "BY started, round, table_id", event_id)
        return [_game(r) for r in rows]
