"""A cluster on this machine for the tests: throwaway PostgreSQL and Redis (tests/services.py)
and ``fives serve`` processes sharing them, each on its own port so that a test chooses
which process a player reaches; and players that reconnect wherever they can."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import httpx
import websockets

from fives.store import Store, StoredTable, open_store
from relay import Relay
from server.harness import SeatClient
from server.test_server_crash import Seen, act

FAST = ["--bot-delay", "0", "--forced-delay", "0", "--bot-workers", "0", "--create-rate", "0",
        "--dev-seeds", "--no-mine-puzzles", "--round-pause", "0", "--message-rate", "10000",
        "--log-level", "info",
        # behind a "proxy" on 127.0.0.1: a test may be players at several addresses
        "--trusted-proxies", "127.0.0.1"]


class Node:
    """One ``fives serve`` process of the cluster."""

    def __init__(self, db: str, redis: str, *options: str) -> None:
        # the log goes to a file (a pipe nobody reads would fill and stop the process)
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed in stop())
            prefix="fives-node-", suffix=".log", delete=False)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fives.cli.main", "serve", "--port", "0", "--db", db,
             "--redis", redis, *FAST, *options],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        match = re.search(r"http://127\.0\.0\.1:\d+", line)
        if match is None:
            raise AssertionError(f"no address printed: {line!r} {self.log_text()[-2000:]}")
        self.base = match.group(0)
        # generous: beside the packaging build's compiler a ping of the store took over the
        # second this once allowed, every time, for twenty seconds
        deadline = time.monotonic() + 45
        while True:
            with contextlib.suppress(httpx.HTTPError):
                health = httpx.get(f"{self.base}/healthz", timeout=5)
                if health.status_code == 200:
                    self.id = health.json()["process"]
                    break
            assert time.monotonic() < deadline, "a cluster process did not come up"
            time.sleep(0.05)

    def log_text(self) -> str:
        with open(self.log.name, errors="replace") as f:
            return f.read()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.alive:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc.wait(10)
        if self.proc.stdout:
            self.proc.stdout.close()
        self.log.close()
        os.unlink(self.log.name)


@contextlib.contextmanager
def nodes(db: str, redis: str, count: int, *options: str) -> Iterator[list[Node]]:
    """``count`` processes (more may be added to the list); all stopped on the way out."""
    started: list[Node] = []
    try:
        for _ in range(count):
            started.append(Node(db, redis, *options))
        yield started
    except BaseException:
        for node in started:  # shown by pytest with the failure
            print(f"--- the log of {node.id} ({'alive' if node.alive else 'ended'}):")
            print(node.log_text()[-6000:])
        raise
    finally:
        for node in started:
            node.stop()


def owner_of(redis_url: str, table: str) -> str | None:
    import redis

    with redis.Redis.from_url(redis_url, decode_responses=True) as r:
        owner = r.get(f"fives:owner:{table}")
    return str(owner) if owner else None


def load(db: str, table: str) -> StoredTable | None:
    async def go() -> StoredTable | None:
        store: Store = open_store(db)
        await store.start()
        try:
            return await store.load(table)
        finally:
            await store.close()

    return asyncio.run(go())


async def play_on(nodes: list[Node], table: str, token: str | None, seen: Seen,
                  rng: random.Random, invite: str | None = None,
                  first: Node | None = None, timeout: float = 180.0) -> dict[str, Any]:
    """A person at ``table`` playing random legal moves until the match is over, connected to
    ``first`` and, whenever the connection drops (its process died, or the table moved),
    reconnecting to any live process, as the page does. Everything told is noted in
    ``seen``. The last state."""
    deadline = time.monotonic() + timeout
    node = first
    last: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        live = [n for n in nodes if n.alive]
        node = node if node is not None and node.alive else rng.choice(live)
        client = SeatClient(node.base, table, token, invite=invite)
        node = None  # after a drop, any live process
        try:
            await asyncio.wait_for(client.connect(), 5)
        except (OSError, websockets.WebSocketException, TimeoutError, ConnectionError):
            seen.notes(client.messages)
            await asyncio.sleep(0.2)
            continue
        done: dict[int, float] = {}  # counter -> when this player last answered it
        try:
            while time.monotonic() < deadline:
                st = client.state
                if st is not None and st["result"] is not None:
                    return st
                # Answer each position once; again if nothing moved for a second (the
                # server's per-address rate limit drops what comes too fast: every client of
                # a test shares 127.0.0.1).
                if st is not None and time.monotonic() - done.get(st["n"], -9.0) > 1.0:
                    done[st["n"]] = time.monotonic()
                    with contextlib.suppress(websockets.ConnectionClosed):
                        await act(client, st, rng)
                if client._task.done():
                    break
                await asyncio.sleep(0.005)
        finally:
            seen.notes(client.messages)
            last = client.messages[-3:]
            with contextlib.suppress(Exception):
                await client.close()
        await asyncio.sleep(0.1)
    raise TimeoutError(f"the match at {table} did not finish; last told: {last}")


class Partition(Relay):
    """A TCP relay in front of Redis that a test can cut, as a network partition would, and
    heal. A process given :attr:`url` reaches Redis only through it."""

    def __init__(self, redis_url: str) -> None:
        host_port = redis_url.split("//", 1)[1].split("/", 1)[0]
        host, port = host_port.rsplit(":", 1)
        super().__init__(host, int(port))
        self.url = f"redis://127.0.0.1:{self.port}/0"
