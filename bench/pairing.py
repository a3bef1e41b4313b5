"""Pairing benchmark (not a test): many identities join the quick pairing queue at once and
are paired; reported, the time from each one's join to its table, 50th/99th percentile and
max, and how many tables were made.

The queue runs as it runs in ``fives serve`` (its own loop, a pass every 0.1 s or at once on a
join) with the real table manager on a throwaway SQLite store, so every pairing creates and
stores a real table (its seats, tokens and first deal). Ratings are drawn as on a site whose
players spread around the start (mu 25, sd ``--spread``).

    .venv/bin/python bench/pairing.py --players 1000
    .venv/bin/python bench/pairing.py --players 1000 --per-table 4 --spread 3
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from fives.server.manager import TableManager
from fives.server.pairing import PairingQueue
from fives.server.pairing_api import bot_mus
from fives.server.settings import Settings
from fives.store.players import StoredPlayer
from fives.store.sqlite import SqliteStore


async def run(players: int, per_table: int, spread: float, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "bench.sqlite3")
        settings = Settings(db=str(Path(tmp) / "bench.sqlite3"), bot_workers=0,
                            max_tables=players, turn_time=0.0)
        manager = TableManager(store, settings)
        await manager.startup()
        queue = PairingQueue(manager.create_paired, lambda game: bot_mus(store, game))
        queue.start()
        rng = random.Random(seed)
        people = [StoredPlayer(f"p{i}", f"P{i}", "0001", "person", 0.0) for i in range(players)]
        start = time.monotonic()
        tickets = [await queue.join(p, f"b{i}", f"10.0.{i // 250}.{i % 250}", "draw",
                                    per_table, True, rng.gauss(25.0, spread))
                   for i, p in enumerate(people)]
        while any(t.table is None for t in tickets) and time.monotonic() - start < 60:
            for t in tickets:
                t.seen = time.monotonic()  # their pages are still asking
            await asyncio.sleep(0.01)
        took = time.monotonic() - start
        delays = sorted(t.matched_at - t.since for t in tickets if t.matched_at is not None)
        await queue.stop()
        await manager.shutdown()
        await store.close()
    q = statistics.quantiles(delays, n=100) if len(delays) > 1 else delays * 99
    return {"paired": len(delays), "tables": len({t.table for t in tickets if t.table}),
            "p50": q[49], "p99": q[98], "max": delays[-1] if delays else float("nan"),
            "all": took}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--per-table", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--spread", type=float, default=3.0,
                        help="the ratings' standard deviation in mu (default 3: ±180 shown)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    r = asyncio.run(run(args.players, args.per_table, args.spread, args.seed))
    print(f"{args.players} players, {args.per_table} a table: {r['paired']:.0f} paired at "
          f"{r['tables']:.0f} tables; join to table p50 {r['p50']:.3f} s, p99 {r['p99']:.3f} s, "
          f"max {r['max']:.3f} s (all in {r['all']:.2f} s)")


if __name__ == "__main__":
    main()
