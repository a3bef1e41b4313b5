"""Fair and private tables (issue 10, items 1 to 3): the deals and the bots' randomness are the
server's secret, friend tables are private and cannot be squatted, and a person cannot pass for
a bot."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest

from fives.bots.host import deal_rng
from fives.core.games import Config
from fives.core.state import State
from fives.store import SqliteStore

from .harness import SeatClient, create_table, fast_settings, running_server


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def finished_record(base: str, table: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        r = httpx.get(f"{base}/api/matches/{table}/record", timeout=5)
        if r.status_code == 200:
            return r.json()
        assert time.monotonic() < deadline, "the match did not finish"
        time.sleep(0.05)


# -- 1. the deals are the server's secret --------------------------------------------------


def test_a_client_seed_is_refused_unless_the_server_runs_for_tests(tmp_path) -> None:
    settings = fast_settings(str(tmp_path / "db.sqlite3"), dev_seeds=False)
    with running_server(settings) as base:
        for path, body in [("/api/tables", {"name": "Asha", "seed": 7}),
                           ("/api/play-now", {"name": "Asha", "seed": 7})]:
            r = httpx.post(base + path, json=body, timeout=5)
            assert r.status_code == 400 and r.json()["error"] == "seed_not_allowed"
            hi = httpx.post(base + path + "?lang=hi", json=body, timeout=5).json()["message"]
            assert hi != r.json()["message"] and "seed" in hi
        # without a seed the table is made as usual
        assert httpx.post(base + "/api/play-now", json={"name": "Asha"}, timeout=5).status_code == 201


def test_deals_are_server_random_and_the_secret_never_leaves_the_server(tmp_path) -> None:
    """Two tables made alike are dealt differently; no message, page of the API or record
    names a table's seed; the finished record says its deals were the server's."""
    db = tmp_path / "db.sqlite3"
    settings = fast_settings(str(db), dev_seeds=False)
    seen: list[str] = []
    with running_server(settings) as base:
        spec: dict[str, Any] = dict(game="block", players=2, watch=True, target=10, turn_time=0,
                                    seats=[{"kind": "bot", "level": "random"}] * 2)
        tables = [create_table(base, **spec)["table"] for _ in range(2)]

        async def watch(table: str) -> None:
            c = await SeatClient(base, table).connect()
            await c.wait(lambda m: m["type"] == "state" and m["result"] is not None, 60)
            seen.extend(c.raw)
            await c.close()

        async def both() -> None:
            await asyncio.gather(*(watch(t) for t in tables))

        run(both())
        records = [finished_record(base, t) for t in tables]
        seen.append(httpx.get(f"{base}/api/tables", timeout=5).text)
        seen.append(httpx.get(f"{base}/api/matches", timeout=5).text)
        seen.extend(json.dumps(r) for r in records)
        seen.extend(httpx.get(f"{base}/api/matches/{t}/replay", timeout=5).text for t in tables)
    assert records[0]["rounds"][0]["hands"] != records[1]["rounds"][0]["hands"]
    assert all(r["deals"] == "server-random" for r in records)
    store = SqliteStore(db)
    seeds = [str(store.load(t).meta["seed"]) for t in tables]
    store.close()
    for seed in seeds:
        assert len(seed) >= 6
        assert not any(seed in text for text in seen), "a table's seed reached a client"


def test_a_test_server_deals_what_its_seed_predicts(server: str) -> None:
    """In the development mode a table's seed predicts its deals (what the tests rely on),
    and its record says so."""
    created = create_table(server, game="block", players=2, watch=True, target=10, seed=42,
                           turn_time=0, seats=[{"kind": "bot", "level": "random"}] * 2)
    record = finished_record(server, created["table"])
    state = State(Config.make("block", 2, target=10))
    state.deal_next(deal_rng(42, 0))
    info = state.current_round_info()
    assert record["rounds"][0]["hands"] == [[str(t) for t in h] for h in info.hands]
    assert record["deals"] == "fixed-seed"


@pytest.mark.parametrize("seed", [True, "7", 2**63, -1, 1.5])
def test_a_bad_seed_is_refused_even_for_tests(server: str, seed: Any) -> None:
    r = httpx.post(f"{server}/api/tables", json={"name": "Asha", "seed": seed}, timeout=5)
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
