"""What ``/metrics`` tells Prometheus (prometheus-client): tables and connections held,
actions, the time from a person's action reaching the server to its broadcast, owner moves
and refused stale writes.

Under ``fives serve --workers N`` the workers share one folder (``PROMETHEUS_MULTIPROC_DIR``,
set by the parent) and any worker answers for all of them.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as _multiprocess

__all__ = ["ACTION_COUNT", "CONNECTIONS", "CONTENT_TYPE", "LATENCY", "OWNER_MOVES", "STALE_WRITES",
           "TABLES", "exposition"]

CONTENT_TYPE = CONTENT_TYPE_LATEST

TABLES = Gauge("fives_tables", "Tables held by this process, by status", ["status"],
               multiprocess_mode="livesum")
CONNECTIONS = Gauge("fives_connections", "WebSocket connections at the tables held here",
                    multiprocess_mode="livesum")
ACTION_COUNT = Counter("fives_actions", "Actions stored and broadcast, by who made them", ["how"])
LATENCY = Histogram(
    "fives_action_broadcast_seconds",
    "From a person's action reaching a server process to its broadcast by the table's owner",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
OWNER_MOVES = Counter("fives_owner_moves", "Tables taken over from a process that died")
STALE_WRITES = Counter("fives_stale_writes",
                       "Writes refused because this process no longer owns the table")


def exposition() -> bytes:
    """The metrics in Prometheus' text format (every worker's, under --workers)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        _multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest()
