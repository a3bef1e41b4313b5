"""Where tables and finished matches are kept: a small interface and its SQLite default.

The server talks to a :class:`~fives.store.base.Store` only: a deal is stored when it is dealt,
every accepted action is appended before anyone hears of it, and a finished match keeps its
record (RECORD.md). A table is rebuilt from what is stored (``fives.core.record.replay_state``).
"""

from fives.store.base import (
    DamagedRow,
    Store,
    StoredAction,
    StoredRound,
    StoredTable,
    StoreError,
)
from fives.store.sqlite import SqliteStore, open_store

__all__ = [
    "DamagedRow",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoredAction",
    "StoredRound",
    "StoredTable",
    "open_store",
]
