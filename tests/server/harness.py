"""A real server on 127.0.0.1 (uvicorn in a thread, port 0) and simulated seats over
WebSockets, for the server tests."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import random
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
import uvicorn
import websockets

from fives.server import Settings, create_app
from fives.server.serving import uvicorn_config

TILE = re.compile(r"\b([0-6])-([0-6])\b")

T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float = 30.0, what: str = "the condition",
               interval: float = 0.05) -> T:
    """Poll ``condition`` until it gives something true, and return that. A test waits so
    for what it expects to happen, never a fixed sleep: a busy machine is only slower. Fails
    after ``timeout`` seconds, naming ``what`` was awaited and the last value seen."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what} in vain; last: {value!r}")
        time.sleep(interval)


async def wait_until_async(condition: Callable[[], T | Awaitable[T]], timeout: float = 30.0,
                           what: str = "the condition", interval: float = 0.05) -> T:
    """:func:`wait_until` inside an event loop: ``condition`` may be a coroutine function, and
    the loop runs on between the polls."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what} in vain; last: {value!r}")
        await asyncio.sleep(interval)


def fast_settings(db: str, **kw: Any) -> Settings:
    """Instant bots, no limits in the way (every test client comes from one address), and the
    development mode that lets a test choose a table's seed (so it can predict the deals)."""
    base = dict(db=db, bot_delay=0.0, forced_delay=0.0, round_pause=0.0, bot_workers=0,
                rate=10000.0, burst=10000, turn_time=0.0, create_rate=0.0, dev_seeds=True,
                seats_per_address=10000, open_seats_per_address=4, connections_per_address=1000,
                connects_per_minute=0.0, address_rate=0.0, tables_per_address=10000,
                max_bot_tables=10000, bot_tables_per_address=10000, lobby_per_address=10000,
                analysis_workers=0, analysis_bot="medium", mine_puzzles=False)
    base.update(kw)
    return Settings(**base)  # type: ignore[arg-type]


@contextlib.contextmanager
def running_server(settings: Settings, store: Any = None, port: int = 0) -> Iterator[str]:
    """Serve the app on a free loopback port (or ``port``: a server started again where a
    browser knew the last one) in a thread; yield its base URL."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    port = sock.getsockname()[1]
    config = uvicorn_config(create_app(settings, store), settings, log_level="critical")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@contextlib.contextmanager
def serve(db: str, *options: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``fives serve`` in its own process (instant bots, the development seeds, and any
    ``options``) on a free port; yield the process and its base URL. Killed on the way out if
    still running."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "fives.cli.main", "serve", "--port", "0", "--db", db,
         "--bot-delay", "0", "--forced-delay", "0", "--bot-workers", "0", "--create-rate", "0",
         "--dev-seeds", *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        match = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert match, f"no address printed: {line!r} {proc.stderr.read() if proc.stderr else ''}"
        base = match.group(0)
        deadline = time.monotonic() + 15
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.05)
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()


def create_table(base: str, **spec: Any) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/tables", json=spec, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


@dataclass
class SeatClient:
    """One browser-like connection: it keeps every message it receives."""

    base: str
    table: str
    token: str | None = None
    lang: str = "en"
    invite: str | None = None  # a private table's invite (from its creation)
    messages: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    seat: int | None = None
    ws: Any = None
    cookies: dict[str, str] | None = None  # a browser's cookies (its identity)
    addr: str | None = None  # the address a trusted proxy forwards (X-Forwarded-For)
    _task: Any = None
    _new: Any = None

    async def connect(self, hello: bool = True) -> SeatClient:
        url = self.base.replace("http://", "ws://") + f"/ws/{self.table}"
        headers = ({"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
                   if self.cookies else {})
        if self.addr:
            headers["X-Forwarded-For"] = self.addr
        self.ws = await websockets.connect(url, max_size=2**22, additional_headers=headers or None)
        self._new = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._read())
        if hello:
            msg: dict[str, Any] = {"type": "hello", "lang": self.lang}
            if self.token:
                msg["token"] = self.token
            if self.invite:
                msg["invite"] = self.invite
            await self.send(msg)
            welcome = await self.wait(lambda m: m["type"] == "welcome")
            self.seat = welcome["seat"]
            await self.wait(lambda m: m["type"] == "state")
        return self

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.ws:
                self.raw.append(text)
                self.messages.append(json.loads(text))
                self._new.set()
        self._new.set()

    async def send(self, msg: Any) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(Exception):
            await self._task

    @property
    def state(self) -> dict[str, Any] | None:
        for m in reversed(self.messages):
            if m["type"] == "state":
                return m
        return None

    async def wait(self, pred: Any, timeout: float = 10.0, start: int = 0) -> dict[str, Any]:
        """The first message from index ``start`` on that satisfies ``pred``."""
        deadline = time.monotonic() + timeout
        i = start
        while True:
            while i < len(self.messages):
                if pred(self.messages[i]):
                    return self.messages[i]
                i += 1
            if self._task is not None and self._task.done():
                raise ConnectionError(f"closed without such a message; last: {self.messages[-1:]}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such message; last: {self.messages[-1:]}")
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), left)

    async def next_message(self, timeout: float = 10.0) -> dict[str, Any]:
        start = len(self.messages)
        return await self.wait(lambda m: True, timeout, start)


async def seat_both(base: str, created: dict[str, Any],
                    lang: str = "en") -> tuple[SeatClient, SeatClient]:
    """The creator of a two-person table in seat 0 and a friend (with the invite) joining seat
    1 as Bea; both once they see the first deal."""
    a = await SeatClient(base, created["table"], created["token"], lang=lang).connect()
    b = await SeatClient(base, created["table"], lang=lang, invite=created["invite"]).connect()
    await b.send({"type": "join", "seat": 1, "name": "Bea"})
    joined = await b.wait(lambda m: m["type"] == "joined")
    b.seat = 1
    b.token = joined["token"]
    for c in (a, b):
        await c.wait(lambda m: m["type"] == "state" and m["view"] is not None)
    return a, b


async def play_to_end(clients: list[SeatClient], rng: random.Random, timeout: float = 120.0,
                      rounds: int | None = None) -> dict[str, Any]:
    """Play random legal actions for the seated clients until the match (or ``rounds``
    rounds) ends; answer every round summary with ``ready``. Return the last state."""
    deadline = time.monotonic() + timeout
    acted: set[tuple[int, int]] = set()
    readied: set[tuple[int, int]] = set()
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError("the match did not finish in time")
        for c in clients:
            st = c.state
            if st is None:
                continue
            if st["result"] is not None:
                return st
            view = st["view"]
            if view is None:
                continue
            summary = st["summary"]
            if summary is not None:
                if rounds is not None and summary["round"] + 1 >= rounds:
                    return st
                key = (c.seat, summary["round"])
                if key not in readied and c.seat in st["info"]["waiting_for"]:
                    readied.add(key)
                    await c.send({"type": "ready"})
                continue
            if view["turn"] == c.seat and view["legal"] and (c.seat, st["n"]) not in acted:
                acted.add((c.seat, st["n"]))
                await c.send({"type": "act", "action": rng.choice(view["legal"]), "n": st["n"]})
        await asyncio.sleep(0.002)


def truth_by_n(record: dict[str, Any]) -> dict[int, tuple[list[set[str]], set[str]]]:
    """For every value of a table's counter n: each seat's hand and the tiles everyone may see
    (the layout's, and every hand left once the round is over)."""
    from fives.core.record import Record
    from fives.core.state import State
    from fives.core.tiles import Action

    rec = Record.from_data(record)
    state = State(rec.config)
    n = 0
    out: dict[int, tuple[list[set[str]], set[str]]] = {
        0: ([set() for _ in range(rec.config.players)], set())
    }

    def snap() -> tuple[list[set[str]], set[str]]:
        shown = {str(t) for t in state.layout.tiles()}
        if state.round_end is not None:  # the hands left are shown to all once a round is over
            shown |= {str(t) for s in range(state.n) for t in state.hand(s)}
        return ([{str(t) for t in state.hand(s)} for s in range(state.n)], shown)

    for rnd in rec.rounds:
        state.start_round(rnd.hands, rnd.stock, rnd.leader)
        n += 1
        out[n] = snap()
        for text in rnd.actions:
            state.play(Action.parse(text))
            n += 1
            out[n] = snap()
    return out


def tiles_in(text: str) -> set[str]:
    return {f"{min(a, b)}-{max(a, b)}" for a, b in TILE.findall(text)}


def check_no_leak(client: SeatClient, truth: dict[int, tuple[list[set[str]], set[str]]]) -> int:
    """Every message this connection received names only tiles it may know: the tiles on the
    table and (for a seat) its own hand at that moment. Never another hand, never the stock."""
    checked = 0
    for text, msg in zip(client.raw, client.messages):
        found = tiles_in(text)
        if msg["type"] != "state":
            assert not found, f"a {msg['type']} message names tiles: {text[:300]}"
            continue
        hands, table = truth[msg["n"]]
        allowed = set(table)
        if msg["you"] is not None:
            assert msg["you"] == client.seat
            allowed |= hands[client.seat]
        leaked = found - allowed
        assert not leaked, f"seat {client.seat} was sent {sorted(leaked)} at n={msg['n']}"
        checked += 1
    return checked
