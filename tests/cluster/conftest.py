"""Every cluster test has a fresh PostgreSQL database and the session's Redis, emptied."""

from __future__ import annotations

import pytest


@pytest.fixture
def cluster_db(postgres_url: str) -> str:
    return postgres_url


@pytest.fixture
def cluster_redis(redis_server_url: str) -> str:
    import redis

    with redis.Redis.from_url(redis_server_url) as r:
        r.flushdb()
    return redis_server_url
