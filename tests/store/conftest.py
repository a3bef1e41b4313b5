"""The store suite runs against every database: SQLite (a file) and PostgreSQL (a throwaway
server, a fresh database per test)."""

from __future__ import annotations

import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "fives.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url
