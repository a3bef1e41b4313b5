"""The store as an owner writes to it: every write first checks that this process's lease is
still valid (a partitioned process stops writing once it lapses, even before anyone takes its
tables), and a write the store refuses as stale (:class:`StaleOwner`: another process took the
table over) makes this process let the table go."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fives.server.metrics import STALE_WRITES
from fives.store.base import StaleOwner, Store, StoredAction, StoredTable

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
