"""Operations (issue 13, item 5): /healthz says how the store and the bus are, /metrics speaks
Prometheus' text format, and the JSON log lines name the process and the table."""

from __future__ import annotations

import asyncio
import json
import logging
import random

import httpx
from prometheus_client.parser import text_string_to_metric_families

from fives.server.logs import JsonFormatter, set_process_name

from .harness import SeatClient, create_table, play_to_end


def test_healthz_reports_the_store_and_no_bus_for_one_process(server: str) -> None:
    health = httpx.get(f"{server}/healthz", timeout=5)
    assert health.status_code == 200
    assert health.json() == {"ok": True, "tables": 0, "store": "ok", "bus": "off"}


def test_metrics_count_actions_and_time_them_to_their_broadcast(server: str) -> None:
    created = create_table(server, game="block", players=2, name="Asha", seed=4, target=10,
                           turn_time=0)

    async def play() -> None:
        c = await SeatClient(server, created["table"], created["token"]).connect()
        await play_to_end([c], random.Random(3), rounds=1)
        await c.close()

    asyncio.run(play())
    r = httpx.get(f"{server}/metrics", timeout=5)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    families = {f.name: f for f in text_string_to_metric_families(r.text)}
    actions = {s.labels["how"]: s.value for s in families["fives_actions"].samples
               if s.name == "fives_actions_total"}
    assert actions.get("player", 0) >= 1 and actions.get("bot", 0) >= 1
    latency = families["fives_action_broadcast_seconds"]
    count = next(s.value for s in latency.samples if s.name.endswith("_count"))
    assert count >= actions["player"]
    for name in ("fives_tables", "fives_connections", "fives_owner_moves",
                 "fives_stale_writes"):
        assert name in families


def test_json_log_lines_name_the_process_and_the_table() -> None:
    set_process_name("host-1-abc")
    record = logging.LogRecord("fives.server", logging.WARNING, __file__, 1,
                               "table %s: cannot store an action", ("Tb1x",), None)
    line = json.loads(JsonFormatter().format(record))
    assert line["process"] == "host-1-abc" and line["table"] == "Tb1x"
    assert line["level"] == "warning" and line["message"] == "table Tb1x: cannot store an action"
    other = json.loads(JsonFormatter().format(logging.LogRecord(
        "fives.cluster", logging.INFO, __file__, 1, "janitor: %s", ("x",), None)))
    assert "table" not in other
