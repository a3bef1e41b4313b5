"""What every test shares: the Hypothesis profiles and the rule for the shared example records.

Hypothesis: under CI (``CI`` set) the ``ci`` profile runs every property derandomized (the same
examples on every run, no example database), so whether a property catches a bug never depends
on the run. Elsewhere the ``dev`` profile explores new examples on each run and remembers the
failures it finds. ``HYPOTHESIS_PROFILE=ci`` (or ``dev``) picks one by name.

Tests marked ``shared_examples`` (examplekit.py) read ../shared/examples: without it they skip
on a developer's machine and fail in CI.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from examplekit import example_records, missing_examples

# A whole match per example is slow by Hypothesis's measure, never by ours: no deadline.
_QUIET = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile(
    "ci", derandomize=True, database=None, max_examples=200, print_blob=True, **_QUIET
)
settings.register_profile("dev", max_examples=150, **_QUIET)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "shared_examples: reads ../shared/examples (skips without it; fails in CI)"
    )
    config.addinivalue_line(
        "markers",
        "slow: long by what it proves (kills, partitions, a build, a load run); make test runs "
        "them in a step of their own, make check leaves them out",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest tests first, so that parallel workers (pytest-xdist) do not end the run
    waiting on one of them started last. The order is the same in every worker, as xdist
    requires; browser tests keep their own rule (tests/browser/conftest.py)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("shared_examples") and not example_records():
        missing_examples(bool(os.environ.get("CI")))


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    """One throwaway PostgreSQL server for the whole run (started only if a test asks)."""
    from services import postgres_server

    with postgres_server() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server_url: str) -> str:
    """A fresh, empty PostgreSQL database for one test."""
    from services import new_database

    return new_database(postgres_server_url)


@pytest.fixture(scope="session")
def redis_server_url() -> Iterator[str]:
    from services import redis_server

    with redis_server() as url:
        yield url
