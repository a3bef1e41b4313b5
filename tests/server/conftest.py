"""Fixtures of the server tests: a real server on a loopback port, with a fresh database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .harness import fast_settings, running_server


@pytest.fixture
def server(tmp_path) -> Iterator[str]:
    # behind a "proxy" on 127.0.0.1, so that a test may be players at several addresses
    # (X-Forwarded-For); a client that sends none is 127.0.0.1, as before
    with running_server(fast_settings(str(tmp_path / "fives.sqlite3"),
                                      trusted_proxies="127.0.0.1")) as base:
        yield base


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("db") / "fives.sqlite3"
    with running_server(fast_settings(str(db))) as base:
        yield base
