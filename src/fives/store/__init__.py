"""Where tables and finished matches are kept: a small async interface and its databases.

The server talks to a :class:`~fives.store.base.Store` only: a deal is stored when it is dealt,
every accepted action is appended before anyone hears of it, and a finished match keeps its
record (RECORD.md). A table is rebuilt from what is stored (``fives.core.record.replay_state``).
SQLite (a file; the default) serves one process; PostgreSQL serves many (``postgresql://``).
Schemas are versioned SQL files (:mod:`fives.store.migrations`).
"""

from fives.store.base import (
    DamagedRow,
    StaleOwner,
    Store,
    StoredAction,
    StoredRound,
    StoredTable,
    StoreError,
)
from fives.store.open import is_postgres, open_store
from fives.store.sqlite import SqliteStore

__all__ = [
    "DamagedRow",
    "SqliteStore",
    "StaleOwner",
    "Store",
    "StoreError",
    "StoredAction",
    "StoredRound",
    "StoredTable",
    "is_postgres",
    "open_store",
]
