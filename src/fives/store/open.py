"""A store from the ``--db`` option: ``postgresql://…`` (or ``postgres://…``) for PostgreSQL;
a plain path or ``sqlite:///path`` for a SQLite file."""

from __future__ import annotations

import asyncio
import importlib.util

from fives.store.base import Store, StoreError
from fives.store.sqlite import SqliteStore
from fives.store.urls import is_postgres, sqlite_path, where

__all__ = ["archive", "is_postgres", "open_store", "sqlite_path", "upgrade", "where"]


def open_store(url: str, pool_size: int = 20) -> Store:
    """The store ``url`` names. A SQLite file is opened (and migrated) at once; a PostgreSQL
    store connects and migrates in :meth:`Store.start`. StoreError for an unknown scheme."""
    if is_postgres(url):
        if importlib.util.find_spec("asyncpg") is None:
            raise StoreError.of("no_extras")
        from fives.store.postgres import PostgresStore

        return PostgresStore(url, max_size=pool_size)
    if "://" in url and not url.startswith("sqlite:///"):
        raise StoreError.of("unknown_kind", kind=url.split("://")[0])
    return SqliteStore(sqlite_path(url))


def upgrade(url: str) -> list[str]:
    """Open the store ``url``, apply the migrations it lacks, close it; the names of those
    applied (outside an event loop: ``fives db upgrade``, ``fives serve`` before it serves).
    StoreError if it cannot be opened or migrated."""

    async def run() -> list[str]:
        store = open_store(url, pool_size=1)
        try:
            await store.start()
            return store.applied + await store.migrate()
        finally:
            await store.close()

    return asyncio.run(run())


def archive(url: str, before: float) -> int:
    """Archive, in the store ``url``, every match finished before ``before`` (a time), a few
    hundred at a time; how many (outside an event loop: ``fives db archive``)."""

    async def run() -> int:
        store = open_store(url, pool_size=1)
        try:
            await store.start()
            total = 0
            while count := await store.archive(before):
                total += count
            return total
        finally:
            await store.close()

    return asyncio.run(run())
