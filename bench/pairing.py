"""Pairing benchmark (not a test): many identities join the quick pairing queue at once and
are paired; reported, the time from each one's join to its table, 50th/99th percentile and
max, and how many tables were made.

The queue runs as it runs in ``fives serve`` (its own loop, a pass every 0.1 s or at once on a
join) with the real table manager on a throwaway SQLite store, so every pairing creates and
stores a real table (its seats, tokens and first deal). Ratings are drawn as on a site whose
players spread around the start (mu 25, sd ``--spread``).

With ``--redis URL`` the tickets are in Redis as in a cluster (RedisBook): two queues, as two
processes would hold them, take the joins in turn (all at once, through a pool of 64
connections as a process has), one of them leads and seats every table, and every waiting
page polls once a second through the other. Use a Redis of its own: its ``fives:queue:``
keys are deleted before and after.

    .venv/bin/python bench/pairing.py --players 1000
    .venv/bin/python bench/pairing.py --players 1000 --per-table 4 --spread 3
    .venv/bin/python bench/pairing.py --players 1000 --redis redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

from fives.server.manager import TableManager
from fives.server.pairing import PairingQueue
from fives.server.pairing_api import bot_mus
from fives.server.settings import Settings
from fives.server.tickets import Book, MemoryBook, Ticket
from fives.store.players import StoredPlayer
from fives.store.sqlite import SqliteStore


@contextlib.asynccontextmanager
async def books(redis_url: str | None) -> AsyncIterator[list[Book]]:
    """One in-memory book, or two Redis books (two processes) sharing one queue."""
    if redis_url is None:
        yield [MemoryBook()]
        return
    from redis.asyncio import BlockingConnectionPool, Redis

    from fives.server.cluster.queue import PREFIX, RedisBook

    redis = Redis(connection_pool=BlockingConnectionPool.from_url(
        redis_url, max_connections=64, decode_responses=True))

    async def clear() -> None:
        keys = [k async for k in redis.scan_iter(f"{PREFIX}*")]
        if keys:
            await redis.delete(*keys)

    await clear()
    try:
        yield [RedisBook(redis, "bench-a"), RedisBook(redis, "bench-b")]
    finally:
        await clear()
        await redis.aclose()


async def run(players: int, per_table: int, spread: float, seed: int,
              redis_url: str | None = None) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "bench.sqlite3")
        settings = Settings(db=str(Path(tmp) / "bench.sqlite3"), bot_workers=0,
                            max_tables=players, turn_time=0.0)
        manager = TableManager(store, settings)
        await manager.startup()
        async with books(redis_url) as kept:
            queues = [PairingQueue(manager.create_paired, lambda game: bot_mus(store, game),
                                   book=book) for book in kept]
            for queue in queues:
                queue.start()
            rng = random.Random(seed)
            people = [StoredPlayer(f"p{i}", f"P{i}", "0001", "person", 0.0)
                      for i in range(players)]
            mus = [rng.gauss(25.0, spread) for _ in people]
            start = time.monotonic()
            tickets = list(await asyncio.gather(*(
                queues[i % len(queues)].join(p, f"b{i}", f"10.0.{i // 250}.{i % 250}", "draw",
                                             per_table, True, mus[i])
                for i, p in enumerate(people))))
            if redis_url is None:
                await wait_in_memory(tickets, start)
            else:
                tickets = await wait_in_redis(queues, tickets, start)
            took = time.monotonic() - start
            for queue in queues:
                await queue.stop()
        await manager.shutdown()
        await store.close()
    delays = sorted(t.matched_at - t.since for t in tickets if t.matched_at is not None)
    q = statistics.quantiles(delays, n=100) if len(delays) > 1 else delays * 99
    return {"paired": len(delays), "tables": len({t.table for t in tickets if t.table}),
            "p50": q[49], "p99": q[98], "max": delays[-1] if delays else float("nan"),
            "all": took}


async def wait_in_memory(tickets: list[Ticket], start: float) -> None:
    while any(t.table is None for t in tickets) and time.monotonic() - start < 60:
        for t in tickets:
            t.seen = time.monotonic()  # their pages are still asking
        await asyncio.sleep(0.01)


async def wait_in_redis(queues: list[PairingQueue], tickets: list[Ticket],
                        start: float) -> list[Ticket]:
    """Every waiting page polls once a second, through the queue it did not join; done when
    the leader has seated everyone. The tickets as Redis has them then."""
    waiting = {t.id: (i, t) for i, t in enumerate(tickets)}
    next_poll = time.monotonic() + 1.0
    while len(waiting) and time.monotonic() - start < 60:
        if time.monotonic() >= next_poll:
            next_poll += 1.0
            seen = await asyncio.gather(*(queues[(i + 1) % len(queues)].get(t.id, t.player)
                                          for i, t in waiting.values()))
            for t in seen:
                if t.table is not None:
                    del waiting[t.id]
        if sum(len(q.delays) for q in queues) >= len(tickets):
            break
        await asyncio.sleep(0.01)
    ids = {t.id for t in tickets}
    return [t for t in await queues[0].book.tickets() if t.id in ids]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--per-table", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--spread", type=float, default=3.0,
                        help="the ratings' standard deviation in mu (default 3: ±180 shown)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--redis", metavar="URL",
                        help="keep the tickets in this Redis, as a cluster does")
    args = parser.parse_args()
    r = asyncio.run(run(args.players, args.per_table, args.spread, args.seed, args.redis))
    print(f"{args.players} players, {args.per_table} a table"
          f"{' (Redis)' if args.redis else ''}: {r['paired']:.0f} paired at "
          f"{r['tables']:.0f} tables; join to table p50 {r['p50']:.3f} s, p99 {r['p99']:.3f} s, "
          f"max {r['max']:.3f} s (all in {r['all']:.2f} s)")


if __name__ == "__main__":
    main()
