"""Load benchmark of the browser game's server (not a test).

Starts `fives serve` in its own process on loopback (or uses --url), creates many tables, and
plays them all at once from this process: at each table one simulated person (a WebSocket seat
that answers at once with a random legal action) against bots, plus one spectator. A finished
match is followed by a rematch, so every table stays busy for the whole run.

Each table is driven from its own loopback address (127.1.x.y), as many people would be, so
the server's per-address limits apply to each simulated person and not to the benchmark as
a whole; and each connection paces its messages to the limits the server announces
(/api/meta), resending a move the server refused as too fast.

Reported: actions per second over all tables, and the time from an action being accepted by
the server (the `t` stamp of each broadcast) to its broadcast arriving at a client, 50th/90th/
99th percentile and max, over every message received by every seat and spectator; also the
round trip of the person's own actions (send -> their state comes back) and the server's CPU.

    .venv/bin/python bench/load.py --tables 200 --seconds 30
    .venv/bin/python bench/load.py --tables 200 --seconds 30 --bot-delay 0 --forced-delay 0

Against a cluster (docs/cluster.md): ``--setup cluster3`` starts a throwaway PostgreSQL and
Redis and three ``fives serve`` processes sharing them; each table is created on one process,
its person plays through that process and its spectator watches through the next one, as a
load balancer without sticky sessions would spread them. ``--sweep`` measures every setup at
several numbers of tables in one run and prints the table of docs/cluster.md:

    .venv/bin/python bench/load.py --setup cluster2 --tables 200 --seconds 20
    .venv/bin/python bench/load.py --sweep 100,200,400 --setups sqlite,cluster1,cluster2,cluster3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets


@dataclass
class Stats:
    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    round_trips: list[float] = field(default_factory=list)
    actions: int = 0
    messages: int = 0
    matches: int = 0
    errors: int = 0
    resent: int = 0


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def source_address(base: str, i: int) -> str | None:
    """The loopback address table ``i`` is driven from (Linux routes all of 127/8 to lo); a
    server elsewhere sees this machine's own address."""
    host = base.split("//", 1)[1].rsplit(":", 1)[0]
    return f"127.1.{i // 250}.{i % 250 + 1}" if host.startswith("127.") else None


class Pacer:
    """A client-side token bucket: wait before sending so as never to pass the server's
    per-connection limit."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.tokens = float(burst)
        self.burst = float(burst)
        self.stamp = time.monotonic()

    async def wait(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens >= 1.0:
                self.tokens -= 1.0
                return
            await asyncio.sleep((1.0 - self.tokens) / self.rate)


class TableDriver:
    """One table: a person's seat and a spectator, kept playing (rematches) until stopped."""

    def __init__(self, base: str, table: str, token: str, stats: Stats, rng: random.Random,
                 source: str | None, limits: dict[str, Any], watch_base: str | None = None) -> None:
        self.ws_base = base.replace("http://", "ws://")
        # the spectator may reach the table through another process of a cluster
        self.watch_base = (watch_base or base).replace("http://", "ws://")
        self.table = table
        self.token = token
        self.stats = stats
        self.rng = rng
        self.source = source
        # a little under the server's rate: its clock and ours do not tick together
        self.rate = float(limits["messages_per_second"]) * 0.9
        self.burst = max(1, int(limits["burst"]) // 2)
        self.sent: dict[int, float] = {}
        self.stop = False

    def connect(self, table: str, base: str | None = None) -> Any:
        local = {"local_addr": (self.source, 0)} if self.source else {}
        return websockets.connect(f"{base or self.ws_base}/ws/{table}", max_size=2**22, **local)

    async def run(self) -> None:
        while not self.stop:
            next_table = await self.play_table()
            if next_table is None:
                return
            self.table = next_table

    async def spectate(self, table: str, done: asyncio.Event) -> None:
        async with self.connect(table, self.watch_base) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            while not done.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                self.record(json.loads(text), time.time())

    def record(self, msg: dict[str, Any], now: float) -> None:
        if msg.get("type") != "state" or not self.stats.measuring:
            return
        self.stats.messages += 1
        if msg.get("event") is not None and msg["event"].get("kind") != "deal":
            self.stats.latencies.append(now - msg["t"])

    async def play_table(self) -> str | None:
        done = asyncio.Event()
        spectator = asyncio.get_running_loop().create_task(self.spectate(self.table, done))
        seen_n = -1
        readied = -1
        pacer = Pacer(self.rate, self.burst)
        last_act: dict[str, Any] | None = None

        async def send(ws: Any, msg: dict[str, Any]) -> None:
            await pacer.wait()
            await ws.send(json.dumps(msg))

        try:
            async with self.connect(self.table) as ws:
                await send(ws, {"type": "hello", "token": self.token})
                while not self.stop:
                    text = await ws.recv()
                    now = time.time()
                    msg = json.loads(text)
                    kind = msg.get("type")
                    if kind == "rematch":
                        self.stats.matches += 1
                        return str(msg["table"])
                    if kind == "error":
                        if msg["code"] == "rate_limited" and last_act is not None:
                            self.stats.resent += 1  # refused as too fast: say it again
                            await send(ws, last_act)
                        elif msg["code"] != "stale":
                            self.stats.errors += 1
                        continue
                    if kind != "state":
                        continue
                    self.record(msg, now)
                    n = msg["n"]
                    if n in self.sent:
                        if self.stats.measuring:
                            self.stats.round_trips.append(now - self.sent[n])
                        self.sent.pop(n)
                    if n > seen_n and msg.get("event") and msg["event"]["kind"] != "deal":
                        seen_n = n
                        if self.stats.measuring:
                            self.stats.actions += 1
                    if msg["result"] is not None:
                        await send(ws, {"type": "rematch"})
                        continue
                    view = msg["view"]
                    summary = msg["summary"]
                    if summary is not None:
                        if summary["round"] != readied and msg["you"] in msg["info"]["waiting_for"]:
                            readied = summary["round"]
                            await send(ws, {"type": "ready"})
                        continue
                    if view and view["turn"] == msg["you"] and view["legal"]:
                        legal = view["legal"]
                        if legal in (["draw"], ["pass"]):
                            continue  # the server makes forced moves itself
                        if n - 1 in self.sent or n + 1 in self.sent:
                            continue
                        self.sent[n + 1] = time.time()
                        last_act = {"type": "act", "action": self.rng.choice(legal), "n": n}
                        await send(ws, last_act)
        except (websockets.ConnectionClosed, OSError):
            self.stats.errors += 1
            await asyncio.sleep(0.5)
            return self.table
        finally:
            done.set()
            spectator.cancel()
            with contextlib.suppress(BaseException):
                await spectator
        return None


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def bench(args: argparse.Namespace, bases: list[str], pids: list[int]) -> dict[str, Any]:
    base = bases[0]
    stats = Stats()
    rng = random.Random(args.seed)
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": args.level}] * (args.players - 1)
    async with httpx.AsyncClient(timeout=30) as client:
        limits = (await client.get(f"{base}/api/meta")).json()["limits"]
    gate = asyncio.Semaphore(50)

    async def create(i: int) -> dict[str, Any]:
        # each simulated person makes their table from their own address
        transport = httpx.AsyncHTTPTransport(local_address=source_address(base, i))
        async with gate, httpx.AsyncClient(transport=transport, timeout=30) as client:
            r = await client.post(f"{bases[i % len(bases)]}/api/tables", json={
                "game": args.game, "players": args.players, "seats": seats,
                "name": f"load{i}", "turn_time": 0})
            r.raise_for_status()
            return dict(r.json())

    created = await asyncio.gather(*(create(i) for i in range(args.tables)))
    drivers = [TableDriver(bases[i % len(bases)], c["table"], c["token"], stats,
                           random.Random(rng.random()), source_address(base, i), limits,
                           bases[(i + 1) % len(bases)])
               for i, c in enumerate(created)]
    tasks = [asyncio.get_running_loop().create_task(d.run()) for d in drivers]
    await asyncio.sleep(args.warmup)
    cpu0 = sum(map(cpu_seconds, pids)) if pids else None
    t0 = time.monotonic()
    stats.measuring = True
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    elapsed = time.monotonic() - t0
    cpu1 = sum(map(cpu_seconds, pids)) if pids else None
    for d in drivers:
        d.stop = True
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = [x * 1000 for x in stats.latencies]
    rtt = [x * 1000 for x in stats.round_trips]
    return {
        "setup": args.setup,
        "tables": args.tables,
        "players": args.players,
        "bot_delay": args.bot_delay,
        "forced_delay": args.forced_delay,
        "seconds": round(elapsed, 1),
        "actions_per_s": round(stats.actions / elapsed, 1),
        "messages_per_s": round(stats.messages / elapsed, 1),
        "broadcast_ms": {
            "p50": round(pct(lat, 50), 2), "p90": round(pct(lat, 90), 2),
            "p99": round(pct(lat, 99), 2), "max": round(max(lat) if lat else float("nan"), 2),
            "samples": len(lat),
        },
        "own_action_round_trip_ms": {
            "p50": round(pct(rtt, 50), 2), "p99": round(pct(rtt, 99), 2), "samples": len(rtt),
        },
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / elapsed, 1) if cpu0 is not None else None,
        "matches_finished": stats.matches,
        "client_errors": stats.errors,
        "moves_resent_after_rate_limit": stats.resent,
        "mean_latency_ms": round(statistics.fmean(lat), 2) if lat else None,
    }


@contextlib.contextmanager
def servers(args: argparse.Namespace) -> Iterator[tuple[list[str], list[int]]]:
    """The servers of ``args.setup``: one process on a SQLite file, or N processes on a fresh
    PostgreSQL database and Redis (both throwaway); their base URLs and process ids."""
    options = ["--bot-delay", str(args.bot_delay), "--forced-delay", str(args.forced_delay),
               "--bot-workers", "0", "--log-level", args.server_log, "--create-rate", "0",
               "--no-mine-puzzles"]  # the tables' load, not the analyses'
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        if args.setup == "sqlite":
            commands = [["--db", os.path.join(tmp, "load.sqlite3")]]
        else:
            count = int(args.setup.removeprefix("cluster"))
            sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
            from services import new_database, postgres_server, redis_server

            db = new_database(stack.enter_context(postgres_server()))
            redis = stack.enter_context(redis_server())
            commands = [["--db", db, "--redis", redis]] * count
        procs = []
        try:
            for command in commands:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "fives.cli.main", "serve", "--port", "0", *command,
                     *options], stdout=subprocess.PIPE, text=True)
                procs.append(proc)
            bases = []
            for proc in procs:
                line = proc.stdout.readline() if proc.stdout else ""
                match = re.search(r"http://[\d.]+:\d+", line)
                if not match:
                    raise RuntimeError(f"the server did not start: {line!r}")
                bases.append(match.group(0))
            time.sleep(0.5)
            yield bases, [p.pid for p in procs]
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(10)


def sweep(args: argparse.Namespace) -> int:
    """Every setup at every number of tables; a Markdown table."""
    rows = []
    for setup in args.setups.split(","):
        for tables in (int(t) for t in args.sweep.split(",")):
            run = argparse.Namespace(**{**vars(args), "setup": setup, "tables": tables})
            with servers(run) as (bases, pids):
                result = asyncio.run(bench(run, bases, pids))
            b = result["broadcast_ms"]
            rows.append(f"| {setup} | {tables} | {tables * args.players} | "
                        f"{result['actions_per_s']} | {b['p50']} | {b['p99']} | {b['max']} | "
                        f"{result['server_cpu_percent']} | {result['client_errors']} |")
            print(rows[-1], file=sys.stderr, flush=True)
    print("| setup | tables | seats | actions/s | p50 ms | p99 ms | max ms | server CPU % "
          "| client errors |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(rows))
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--players", type=int, default=4, choices=[2, 3, 4])
    p.add_argument("--game", default="all-fives")
    p.add_argument("--level", default="easy", help="the bots' level")
    p.add_argument("--bot-delay", type=float, default=1.0, help="the server's bot delay (s)")
    p.add_argument("--forced-delay", type=float, default=0.6)
    p.add_argument("--url", help="use a running server instead of starting one")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the result as JSON only")
    p.add_argument("--setup", default="sqlite",
                   help="sqlite (one process), or clusterN: N processes on PostgreSQL and Redis")
    p.add_argument("--server-log", default="error", help="the servers' log level")
    p.add_argument("--sweep", help="numbers of tables to measure each setup at (a,b,c)")
    p.add_argument("--setups", default="sqlite,cluster1,cluster2,cluster3",
                   help="with --sweep: the setups to measure")
    args = p.parse_args()
    if args.setup != "sqlite" and not re.fullmatch(r"cluster[1-9]", args.setup):
        p.error("--setup is sqlite or cluster1 ... cluster9")
    if args.sweep:
        return sweep(args)

    if args.url:
        result = asyncio.run(bench(args, [args.url], []))
    else:
        with servers(args) as (bases, pids):
            result = asyncio.run(bench(args, bases, pids))
    if args.json:
        print(json.dumps(result))
    else:
        b = result["broadcast_ms"]
        print(f"{result['tables']} tables of {result['players']} (bot delay {result['bot_delay']} s): "
              f"{result['actions_per_s']} actions/s, {result['messages_per_s']} messages/s; "
              f"action->broadcast p50 {b['p50']} ms, p90 {b['p90']} ms, p99 {b['p99']} ms, "
              f"max {b['max']} ms ({b['samples']} samples); server CPU "
              f"{result['server_cpu_percent']}%; own round trip p50 "
              f"{result['own_action_round_trip_ms']['p50']} ms")
        print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
