"""The store as an owner writes to it: every write first checks that this process's lease is
still valid (a partitioned process stops writing once it lapses, even before anyone takes its
tables), and a write the store refuses as stale (:class:`StaleOwner`: another process took the
table over) makes this process let the table go."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fives.server.metrics import STALE_WRITES
from fives.store.analyses import StoredAnalysis
from fives.store.base import StaleOwner, Store, StoredAction, StoredTable
from fives.store.events import StoredEntrant, StoredEvent, StoredEventGame
from fives.store.players import PlayerMatch, Rate, StoredPlayer, StoredRating
from fives.store.puzzle_ratings import PuzzleRating, PuzzleTry, RatePuzzle

__all__ = ["FencedStore"]


class FencedStore(Store):
    def __init__(self, inner: Store, lease_valid: Callable[[], bool],
                 lost: Callable[[str], None]) -> None:
        self.inner = inner
        self.dialect = inner.dialect
        self.applied = inner.applied
        self._lease_valid = lease_valid
        self._lost = lost

    async def _write(self, table_id: str, write: Any) -> Any:
        try:
            if not self._lease_valid():
                raise StaleOwner(f"table {table_id}: this process's lease has lapsed")
            return await write
        except StaleOwner:
            write.close()  # never awaited when the lease had lapsed
            STALE_WRITES.inc()
            self._lost(table_id)
            raise

    async def start(self) -> None:
        await self.inner.start()
        self.applied = self.inner.applied

    async def migrate(self) -> list[str]:
        return await self.inner.migrate()

    async def create_table(self, table_id: str, meta: dict[str, Any], ts: float,
                           fence: int | None = None) -> None:
        await self._write(table_id, self.inner.create_table(table_id, meta, ts, fence))

    async def claim(self, table_id: str) -> int | None:
        result: int | None = await self._write(table_id, self.inner.claim(table_id))
        return result

    async def update_meta(self, table_id: str, meta: dict[str, Any],
                          fence: int | None = None) -> None:
        await self._write(table_id, self.inner.update_meta(table_id, meta, fence))

    async def add_round(self, table_id: str, round_no: int, leader: int,
                        hands: list[list[str]], stock: list[str], ts: float,
                        fence: int | None = None) -> None:
        await self._write(table_id, self.inner.add_round(table_id, round_no, leader, hands,
                                                         stock, ts, fence))

    async def add_action(self, table_id: str, round_no: int, action: StoredAction,
                         finished: dict[str, Any] | None = None,
                         fence: int | None = None) -> None:
        await self._write(table_id, self.inner.add_action(table_id, round_no, action,
                                                          finished, fence))

    async def finish(self, table_id: str, record: dict[str, Any], ts: float,
                     fence: int | None = None) -> None:
        await self._write(table_id, self.inner.finish(table_id, record, ts, fence))

    async def set_aside(self, table_id: str, status: str, fence: int | None = None) -> None:
        await self._write(table_id, self.inner.set_aside(table_id, status, fence))

    async def archive(self, before: float, limit: int = 500) -> int:
        return await self.inner.archive(before, limit)  # finished tables: nobody owns them

    async def load(self, table_id: str) -> StoredTable | None:
        return await self.inner.load(table_id)

    async def unfinished_ids(self) -> list[str]:
        return await self.inner.unfinished_ids()

    async def finished(self, limit: int = 50, offset: int = 0,
                       listed_only: bool = False) -> list[StoredTable]:
        return await self.inner.finished(limit, offset, listed_only)

    async def ping(self) -> None:
        await self.inner.ping()

    async def close(self) -> None:
        await self.inner.close()

    # -- the player store: not a table's, so not fenced (each call is its own transaction) --

    async def create_player(self, player: StoredPlayer, secret_hash: str | None) -> None:
        await self.inner.create_player(player, secret_hash)

    async def player(self, player_id: str) -> StoredPlayer | None:
        return await self.inner.player(player_id)

    async def player_by_secret(self, secret_hash: str) -> StoredPlayer | None:
        return await self.inner.player_by_secret(secret_hash)

    async def rename_player(self, player_id: str, name: str, tag: str) -> None:
        await self.inner.rename_player(player_id, name, tag)

    async def add_device_link(self, player_id: str, link_hash: str, ts: float,
                              expires: float) -> None:
        await self.inner.add_device_link(player_id, link_hash, ts, expires)

    async def redeem_device_link(self, link_hash: str, secret_hash: str,
                                 ts: float) -> str | None:
        return await self.inner.redeem_device_link(link_hash, secret_hash, ts)

    async def revoke_devices(self, player_id: str, keep_secret_hash: str) -> int:
        return await self.inner.revoke_devices(player_id, keep_secret_hash)

    async def forget_player(self, player_id: str, anonymous: str) -> list[str]:
        return await self.inner.forget_player(player_id, anonymous)

    async def record_match(self, rows: list[PlayerMatch], rate: Rate | None) -> bool:
        return await self.inner.record_match(rows, rate)

    async def ratings_of(self, player_id: str) -> list[StoredRating]:
        return await self.inner.ratings_of(player_id)

    async def leaderboard(self, game: str, limit: int = 50,
                          kind: str | None = None) -> list[tuple[StoredPlayer, StoredRating]]:
        return await self.inner.leaderboard(game, limit, kind)

    async def matches_of(self, player_id: str, limit: int = 50) -> list[PlayerMatch]:
        return await self.inner.matches_of(player_id, limit)

    async def players_at(self, table_ids: Sequence[str]) -> list[tuple[str, int, StoredPlayer]]:
        return await self.inner.players_at(table_ids)

    async def create_bot_account(self, bot: StoredPlayer, owner_id: str,
                                 token_hash: str) -> None:
        await self.inner.create_bot_account(bot, owner_id, token_hash)

    async def bot_accounts_of(self, owner_id: str) -> list[StoredPlayer]:
        return await self.inner.bot_accounts_of(owner_id)

    async def new_bot_token(self, bot_id: str, owner_id: str, token_hash: str) -> bool:
        return await self.inner.new_bot_token(bot_id, owner_id, token_hash)

    # -- analyses: claimed under their own lease in the store, so not fenced --

    async def request_analysis(self, table_id: str, seat: int, requester: str,
                               now: float) -> StoredAnalysis:
        return await self.inner.request_analysis(table_id, seat, requester, now)

    async def analysis(self, table_id: str, seat: int) -> StoredAnalysis | None:
        return await self.inner.analysis(table_id, seat)

    async def analyses_pending(self, requester: str) -> list[StoredAnalysis]:
        return await self.inner.analyses_pending(requester)

    async def queued_before(self, requested: float) -> int:
        return await self.inner.queued_before(requested)

    async def claim_analysis(self, owner: str, now: float,
                             lease: float) -> StoredAnalysis | None:
        return await self.inner.claim_analysis(owner, now, lease)

    async def finish_analysis(self, table_id: str, seat: int, owner: str,
                              result: dict[str, Any] | None, now: float) -> bool:
        return await self.inner.finish_analysis(table_id, seat, owner, result, now)

    # -- puzzle ratings: a player's, never a table's, so not fenced --

    async def try_puzzle(self, player_id: str, puzzle_id: str, correct: bool, ts: float,
                         rate: RatePuzzle, start: tuple[float, float]) -> PuzzleTry:
        return await self.inner.try_puzzle(player_id, puzzle_id, correct, ts, rate, start)

    async def puzzle_rating(self, player_id: str) -> PuzzleRating | None:
        return await self.inner.puzzle_rating(player_id)

    async def puzzle_strength(self, puzzle_id: str) -> PuzzleRating | None:
        return await self.inner.puzzle_strength(puzzle_id)

    async def puzzles_tried(self, player_id: str, puzzle_ids: list[str]) -> set[str]:
        return await self.inner.puzzles_tried(player_id, puzzle_ids)

    async def add_mined_puzzles(self, table_id: str, puzzles: list[dict[str, Any]],
                                ts: float) -> int:
        return await self.inner.add_mined_puzzles(table_id, puzzles, ts)

    async def mined_puzzles(self, limit: int = 5000) -> list[dict[str, Any]]:
        return await self.inner.mined_puzzles(limit)

    async def mined_puzzle(self, puzzle_id: str) -> dict[str, Any] | None:
        return await self.inner.mined_puzzle(puzzle_id)

    # -- events: paired under the event's own lease in the store, so not fenced by a table --

    async def create_event(self, event: StoredEvent) -> bool:
        return await self.inner.create_event(event)

    async def event(self, event_id: str) -> StoredEvent | None:
        return await self.inner.event(event_id)

    async def events(self, statuses: Sequence[str], limit: int = 20,
                     listed_only: bool = True) -> list[StoredEvent]:
        return await self.inner.events(statuses, limit, listed_only)

    async def events_created(self, creator: str, since: float) -> int:
        return await self.inner.events_created(creator, since)

    async def advance_event(self, event_id: str, before: str, after: str, ts: float) -> bool:
        return await self.inner.advance_event(event_id, before, after, ts)

    async def claim_event(self, event_id: str, owner: str, now: float, lease: float) -> bool:
        return await self.inner.claim_event(event_id, owner, now, lease)

    async def join_event(self, entrant: StoredEntrant) -> StoredEntrant:
        return await self.inner.join_event(entrant)

    async def set_paused(self, event_id: str, player: str, paused: bool) -> bool:
        return await self.inner.set_paused(event_id, player, paused)

    async def entrants(self, event_id: str) -> list[StoredEntrant]:
        return await self.inner.entrants(event_id)

    async def add_event_games(self, event_id: str, owner: str, now: float,
                              games: Sequence[StoredEventGame]) -> bool:
        return await self.inner.add_event_games(event_id, owner, now, games)

    async def finish_event_game(self, event_id: str, table_id: str, result: dict[str, Any],
                                now: float) -> bool:
        return await self.inner.finish_event_game(event_id, table_id, result, now)

    async def event_games(self, event_id: str) -> list[StoredEventGame]:
        return await self.inner.event_games(event_id)
