"""The events in the SQLite file (a mixin of :class:`~fives.store.sqlite.SqliteStore`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
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

__all__ = ["SqliteEvents"]

T = TypeVar("T")


def _event(row: tuple[Any, ...]) -> StoredEvent:
    return event_of(list(row), json.loads(row[2]))


def _game(row: tuple[Any, ...]) -> StoredEventGame:
    return game_of(list(row), json.loads)


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


class SqliteEvents(EventStore):
    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    async def create_event(self, event: StoredEvent) -> bool:
        def body(db: sqlite3.Connection) -> bool:
            return db.execute(f"INSERT OR IGNORE INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, "
                              "?, ?, ?, ?, ?, ?, ?, ?)",
                       (event.id, event.kind, _text(event.meta), event.creator, event.created,
                        event.starts, event.status, int(event.listed), event.owner,
                        event.lease_until, event.ended)).rowcount == 1

        return self._transaction(body)

    async def event(self, event_id: str) -> StoredEvent | None:
        rows = self._query(f"SELECT {EVENT_COLUMNS} FROM events WHERE id = ?", (event_id,))
        return _event(rows[0]) if rows else None

    async def events(self, statuses: Sequence[str], limit: int = 20,
                     listed_only: bool = True) -> list[StoredEvent]:
        if not statuses:
            return []
        marks = ", ".join("?" for _ in statuses)
        listed = " AND listed = 1" if listed_only else ""
        # the coming and running soonest first, the ended newest first
        rows = self._query(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE status IN ({marks}){listed} ORDER BY "
            "CASE WHEN ended IS NULL THEN starts ELSE -ended END, id LIMIT ?",
            (*statuses, limit))
        return [_event(r) for r in rows]

    async def events_created(self, creator: str, since: float) -> int:
        rows = self._query("SELECT count(*) FROM events WHERE creator = ? AND created >= ?",
                           (creator, since))
        return int(rows[0][0])

    async def advance_event(self, event_id: str, before: str, after: str, ts: float) -> bool:
        def body(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE events SET status = ?, ended = CASE WHEN ? IN ('finished', "
                "'cancelled') THEN ? ELSE ended END WHERE id = ? AND status = ?",
                (after, after, ts, event_id, before))
            return cur.rowcount == 1

        return self._transaction(body)

    async def claim_event(self, event_id: str, owner: str, now: float, lease: float) -> bool:
        def body(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "UPDATE events SET owner = ?, lease_until = ? WHERE id = ? AND (owner IS NULL "
                "OR owner = ? OR lease_until < ?)", (owner, now + lease, event_id, owner, now))
            return cur.rowcount == 1

        return self._transaction(body)

    async def join_event(self, entrant: StoredEntrant) -> StoredEntrant:
        def body(db: sqlite3.Connection) -> StoredEntrant:
            db.execute(f"INSERT OR IGNORE INTO event_entrants ({ENTRANT_COLUMNS}) VALUES (?, ?, "
                       "?, ?, ?, ?, ?)",
                       (entrant.event_id, entrant.player, entrant.name, entrant.joined,
                        int(entrant.paused), int(entrant.bot), entrant.browser))
            row = db.execute(f"SELECT {ENTRANT_COLUMNS} FROM event_entrants WHERE event_id = ? "
                             "AND player = ?", (entrant.event_id, entrant.player)).fetchone()
            return entrant_of(row)

        return self._transaction(body)

    async def set_paused(self, event_id: str, player: str, paused: bool) -> bool:
        def body(db: sqlite3.Connection) -> bool:
            cur = db.execute("UPDATE event_entrants SET paused = ? WHERE event_id = ? AND "
                             "player = ?", (int(paused), event_id, player))
            return cur.rowcount == 1

        return self._transaction(body)

    async def entrants(self, event_id: str) -> list[StoredEntrant]:
        rows = self._query(f"SELECT {ENTRANT_COLUMNS} FROM event_entrants WHERE event_id = ? "
                           "ORDER BY joined, player", (event_id,))
        return [entrant_of(r) for r in rows]

    async def add_event_games(self, event_id: str, owner: str, now: float,
                              games: Sequence[StoredEventGame]) -> bool:
        def body(db: sqlite3.Connection) -> bool:
            held = db.execute("SELECT 1 FROM events WHERE id = ? AND owner = ? AND "
                              "lease_until >= ?", (event_id, owner, now)).fetchone()
            if held is None:
                return False
            db.executemany(
                f"INSERT INTO event_games ({EVENT_GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, "
                "?, ?)", [(event_id, g.table_id, g.round, _text(g.players), _text(g.tokens),
                           g.started, None if g.result is None else _text(g.result),
                           g.finished) for g in games])
            return True

        return self._transaction(body)

    async def finish_event_game(self, event_id: str, table_id: str, result: dict[str, Any],
                                now: float) -> bool:
        def body(db: sqlite3.Connection) -> bool:
            cur = db.execute("UPDATE event_games SET result = ?, finished = ?, tokens = '{}' WHERE "
                             "event_id = ? "
                             "AND table_id = ? AND finished IS NULL",
                             (_text(result), now, event_id, table_id))
            return cur.rowcount == 1

        return self._transaction(body)

    async def event_games(self, event_id: str) -> list[StoredEventGame]:
        rows = self._query(f"SELECT {EVENT_GAME_COLUMNS} FROM event_games WHERE event_id = ? "
                           "ORDER BY started, round, table_id", (event_id,))
        return [_game(r) for r in rows]
