"""Attacks on `fives serve` and what they cost it now (not a test; figures for
docs/server-limits.md).

Starts `fives serve` on loopback with a fresh database (its default limits) and runs each
attack of the issue that found the server's holes, measuring what the server does: the
answer, the time it takes, its memory (RSS) and CPU, how many messages it sends. Clients come
from many loopback addresses (127.2.x.y), as a crowd of attackers would.

    .venv/bin/python bench/attack.py            # every attack
    .venv/bin/python bench/attack.py body slowloris --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import websockets

Result = dict[str, Any]


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def address(i: int) -> str:
    return f"127.2.{i // 250}.{i % 250 + 1}"


@contextlib.contextmanager
def server(*options: str) -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "server.log")
        with open(log, "w") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "fives.cli.main", "serve", "--port", "0", "--db",
                 os.path.join(tmp, "db.sqlite3"), *options],
                stdout=subprocess.PIPE, stderr=err, text=True)
        try:
            line = proc.stdout.readline() if proc.stdout else ""
            match = re.search(r"http://[\d.]+:\d+", line)
            assert match, line
            base = match.group(0)
            for _ in range(200):
                with contextlib.suppress(httpx.HTTPError):
                    httpx.get(base + "/healthz", timeout=1)
                    break
                time.sleep(0.05)
            yield proc, base, log
        finally:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
            if proc.poll() is None:
                proc.kill()


def raw(base: str, source: str = "127.0.0.1") -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(10)
    sock.connect((host, int(port)))
    return sock


def status_line(sock: socket.socket, timeout: float = 10.0) -> str:
    sock.settimeout(timeout)
    try:
        data = sock.recv(200)
    except (TimeoutError, ConnectionResetError):
        return "(no answer)"
    return data.split(b"\r\n", 1)[0].decode(errors="replace") or "(closed)"


def flood(sock: socket.socket, chunk: bytes, most: int) -> int:
    """Send ``chunk`` again and again (up to ``most`` bytes) until the server stops taking it;
    the bytes sent."""
    sent = 0
    with contextlib.suppress(OSError):
        while sent < most:
            sock.sendall(chunk)
            sent += len(chunk)
    return sent


def healthz_ms(base: str, source: str) -> float:
    transport = httpx.HTTPTransport(local_address=source)
    started = time.perf_counter()
    with httpx.Client(transport=transport, timeout=10) as client:
        client.get(base + "/healthz")
    return round((time.perf_counter() - started) * 1000, 1)


# -- the attacks ---------------------------------------------------------------------------


def attack_body() -> Result:
    """4: a 500 MB POST (declared), and a 50 MB chunked body that never ends."""
    with server() as (proc, base, _):
        before = rss_mb(proc.pid)
        sock = raw(base)
        started = time.perf_counter()
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 500000000\r\n\r\n")
        sent = flood(sock, b"x" * 65536, 50_000_000)
        declared = status_line(sock)
        took = time.perf_counter() - started
        sock = raw(base)
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        streamed = flood(sock, b"10000\r\n" + b"x" * 65536 + b"\r\n", 50_000_000)
        chunked = status_line(sock)
        return {"declared_500MB": declared, "body_bytes_sent_before_cut_off": sent,
                "seconds": round(took, 3), "chunked": chunked,
                "chunked_bytes_sent_before_cut_off": streamed,
                "rss_growth_mb": round(rss_mb(proc.pid) - before, 1)}


def attack_headers() -> Result:
    """4: a 100 MB header, 10,000 headers, a 1 MB request line."""
    with server() as (proc, base, _):
        before = rss_mb(proc.pid)
        sock = raw(base)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = flood(sock, b"a" * 65536, 100_000_000)
        big = status_line(sock)
        sock = raw(base)
        with contextlib.suppress(OSError):
            sock.sendall(b"GET /healthz HTTP/1.1\r\n"
                         + b"".join(b"X-%d: 1\r\n" % i for i in range(10000)) + b"\r\n")
        many = status_line(sock)
        sock = raw(base)
        with contextlib.suppress(OSError):
            sock.sendall(b"GET /?" + b"q" * 1_000_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        line = status_line(sock)
        return {"header_100MB": big, "bytes_sent_before_cut_off": sent,
                "headers_10000": many, "request_line_1MB": line,
                "rss_growth_mb": round(rss_mb(proc.pid) - before, 1)}


def attack_idle() -> Result:
    """5: idle connections from 40 addresses until refused; the lobby meanwhile."""
    with server() as (_proc, base, log):
        socks: list[socket.socket] = []
        refused = 0
        started = time.perf_counter()
        for i in range(40 * 100):  # 100 from each of 40 addresses (64 allowed each)
            try:
                s = raw(base, address(i % 40))
            except OSError:
                refused += 1
                continue
            socks.append(s)
        time.sleep(0.5)
        answered = 0
        for s in socks:
            s.setblocking(False)
            with contextlib.suppress(BlockingIOError, ConnectionResetError):
                if s.recv(100).startswith(b"HTTP/1.1 503"):
                    answered += 1
        lobby = [healthz_ms(base, address(1000 + k)) for k in range(5)]
        took = time.perf_counter() - started
        log_size = os.path.getsize(log)
        for s in socks:
            s.close()
        return {"attempted": 4000, "refused_with_503": answered, "refused_at_connect": refused,
                "lobby_ms_while_flooded": lobby, "seconds": round(took, 1),
                "log_bytes": log_size}


def attack_slowloris() -> Result:
    """5: 1,000 connections sending a head a byte at a time, from 20 addresses."""
    with server() as (_proc, base, _):
        socks = [raw(base, address(i % 20)) for i in range(1000)]
        for s in socks:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        started = time.perf_counter()
        alive = set(range(len(socks)))
        closed_at: list[float] = []
        timed_out = 0
        while alive and time.perf_counter() - started < 30:
            for i in list(alive):
                s = socks[i]
                s.setblocking(False)
                try:
                    answer = s.recv(200)  # the 408 and the close, or the close alone
                except BlockingIOError:
                    answer = None
                except OSError:
                    answer = b""
                if answer is None:
                    try:
                        s.send(b"X")  # one more byte of the head
                        continue
                    except OSError:
                        answer = b""
                timed_out += answer.startswith(b"HTTP/1.1 408")
                alive.discard(i)
                closed_at.append(time.perf_counter() - started)
            time.sleep(0.5)
        lobby = healthz_ms(base, address(999))
        for s in socks:
            s.close()
        return {"connections": 1000, "still_open_after_30s": len(alive), "answered_408": timed_out,
                "all_cut_within_s": round(max(closed_at), 1) if closed_at else None,
                "lobby_ms": lobby}


async def _watchers(base: str, table: str, count: int, first: int) -> list[Any]:
    url = base.replace("http://", "ws://") + f"/ws/{table}"
    out = []
    for i in range(count):
        ws = await websockets.connect(url, local_addr=(address(first + i), 0), max_size=2**22)
        await ws.send(json.dumps({"type": "hello"}))
        out.append(ws)
    return out


async def _drain(sockets: list[Any], counter: list[int], stop: asyncio.Event) -> None:
    async def one(ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            while not stop.is_set():
                try:
                    await asyncio.wait_for(ws.recv(), 0.5)
                    counter[0] += 1
                except TimeoutError:
                    pass
    await asyncio.gather(*(one(ws) for ws in sockets))


def attack_amplification() -> Result:
    """6: 1,000 watchers joining one table; a reconnect loop where 150 watch; 300 sockets of
    one address each just under its own limit."""
    with server() as (proc, base, _):
        table = httpx.post(base + "/api/play-now", json={"name": "Asha"}, timeout=5).json()["table"]
        cpu0 = cpu_seconds(proc.pid)

        async def go() -> Result:
            counter = [0]
            stop = asyncio.Event()
            watchers: list[Any] = []
            refused = 0
            url = base.replace("http://", "ws://") + f"/ws/{table}"
            started = time.perf_counter()
            for i in range(1000):
                try:
                    ws = await websockets.connect(url, local_addr=(address(i), 0))
                    await ws.send(json.dumps({"type": "hello"}))
                    first = json.loads(await ws.recv())
                    if first["type"] == "error":
                        refused += 1
                        await ws.close()
                        continue
                    watchers.append(ws)
                except (websockets.WebSocketException, OSError):
                    refused += 1
            drain = asyncio.ensure_future(_drain(watchers, counter, stop))
            await asyncio.sleep(1.0)
            joins = {"joined": len(watchers), "refused": refused,
                     "messages_to_watchers": counter[0],
                     "seconds": round(time.perf_counter() - started, 1)}
            # a reconnect loop from one address while 150 watch (room for it to get in)
            for ws in watchers[150:]:
                await ws.close()
            await asyncio.sleep(0.5)
            counter[0] = 0
            loops = 0
            refused_loops = 0
            loop_started = time.perf_counter()
            while time.perf_counter() - loop_started < 10:
                try:
                    ws = await websockets.connect(url, local_addr=("127.3.0.1", 0))
                    await ws.send(json.dumps({"type": "hello"}))
                    first = json.loads(await ws.recv())
                    refused_loops += first["type"] == "error"
                    await ws.close()
                except (websockets.WebSocketException, OSError):
                    refused_loops += 1
                loops += 1
            reconnect = {"reconnects_tried": loops, "refused": refused_loops,
                         "messages_to_watchers_in_10s": counter[0]}
            stop.set()
            await drain
            for ws in watchers:
                await ws.close()
            # 300 sockets from one address, each sending 7 pings a second for 5 seconds
            socks = []
            for _ in range(300):
                try:
                    ws = await websockets.connect(url, local_addr=("127.4.0.1", 0))
                    await ws.send(json.dumps({"type": "hello"}))
                    first = json.loads(await ws.recv())
                except (websockets.WebSocketException, OSError):
                    continue
                if first["type"] == "error":
                    await ws.close()
                else:
                    socks.append(ws)
            pongs = [0]

            async def pinger(ws: Any) -> None:
                with contextlib.suppress(websockets.ConnectionClosed):
                    end = time.perf_counter() + 5
                    while time.perf_counter() < end:
                        await ws.send('{"type":"ping"}')
                        await asyncio.sleep(1 / 7)

            async def reader(ws: Any) -> None:
                with contextlib.suppress(websockets.ConnectionClosed, TimeoutError):
                    while True:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 6))
                        pongs[0] += msg["type"] == "pong"

            await asyncio.gather(*(pinger(ws) for ws in socks), *(reader(ws) for ws in socks))
            for ws in socks:
                await ws.close()
            return {"spectators_join": joins, "reconnect_loop": reconnect,
                    "one_address_300_sockets": {"opened": len(socks),
                                                "pongs_per_s": round(pongs[0] / 5, 1)}}

        result = asyncio.run(go())
        result["server_cpu_s"] = round(cpu_seconds(proc.pid) - cpu0, 1)
        return result


def attack_tables() -> Result:
    """7: tables from one address; junk tables from 3 addresses; a forwarded address."""
    with server("--create-rate", "0") as (_proc, base, _):
        made = [httpx.post(base + "/api/tables", timeout=5, json={
            "name": "Asha", "seats": [{"kind": "human"}, {"kind": "human"}], "private": False})
            .status_code for _ in range(20)]
        real_transport = httpx.HTTPTransport(local_address=address(500))
        with httpx.Client(transport=real_transport, timeout=5) as client:
            real = client.post(base + "/api/tables", json={
                "name": "Bea", "seats": [{"kind": "human"}, {"kind": "human"}],
                "private": False}).json()["table"]
        for i in range(89):
            with httpx.Client(transport=httpx.HTTPTransport(local_address=address(i % 3)),
                              timeout=5) as client:
                client.post(base + "/api/tables", json={
                    "name": "Junk", "seats": [{"kind": "human"}, {"kind": "human"}],
                    "private": False})
        lobby = httpx.get(base + "/api/tables", timeout=5).json()["tables"]
        bots = httpx.post(base + "/api/tables", timeout=5, json={
            "watch": True, "target": 10000, "seats": [{"kind": "bot"}] * 2}).json()["error"]
    with server() as (_proc, base, _):
        forwarded = [httpx.post(base + "/api/tables", timeout=5, json={"name": "A"},
                                headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code
                     for i in range(40)]
    return {"one_address_20_tables": {str(c): made.count(c) for c in set(made)},
            "real_table_listed_among_89_junk": real in {t["id"] for t in lobby},
            "lobby_entries": len(lobby), "bots_to_10000": bots,
            "forwarded_40_creations": {str(c): forwarded.count(c) for c in set(forwarded)}}


def attack_bots() -> Result:
    """8: thirty tables of experts against one table's hard bot (the worker pool, measured
    directly: 30 expert decisions always waiting, one hard decision asked each second)."""
    from fives.core.games import Config
    from fives.core.state import State
    from fives.core.view import view_of
    from fives.server.bots import BotRunner

    state = State(Config.make("all-fives", 2))
    state.deal_next(random.Random(1))
    view = view_of(state, state.turn)
    runner = BotRunner(os.cpu_count() or 1, deadline=5.0)

    async def go() -> Result:
        stop = asyncio.Event()

        async def expert_table(k: int) -> None:
            n = 0
            while not stop.is_set():
                await runner.choose("expert", view, n, f"expert-{k}", for_person=False)
                n += 1

        await runner.choose("hard", view, 0, "warm")  # start the workers
        experts = [asyncio.ensure_future(expert_table(k)) for k in range(30)]
        await asyncio.sleep(2)
        times = []
        for n in range(10):
            started = time.perf_counter()
            await runner.choose("hard", view, 1000 + n, "mine", for_person=True)
            times.append(time.perf_counter() - started)
            await asyncio.sleep(1)
        stop.set()
        await asyncio.gather(*experts)
        return {"hard_decision_median_s": round(statistics.median(times), 2),
                "hard_decision_max_s": round(max(times), 2),
                "workers": runner.workers, "fallbacks": runner.fallbacks}

    try:
        return asyncio.run(go())
    finally:
        runner.close()


def attack_slow_reader() -> Result:
    """9: a watcher that never reads while a person plays instantly against three bots."""
    with server("--bot-delay", "0", "--forced-delay", "0") as (_proc, base, _):
        created = httpx.post(base + "/api/tables", timeout=5, json={
            "name": "Asha", "players": 4, "target": 10000, "private": False,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3}).json()
        table = created["table"]

        async def go() -> Result:
            url = base.replace("http://", "ws://") + f"/ws/{table}"
            host, port = base.removeprefix("http://").split(":")
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.bind(("127.5.0.1", 0))
            sock.connect((host, int(port)))
            sock.sendall(f"GET /ws/{table} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                         "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode())
            sock.recv(12)
            hello = b'{"type":"hello"}'
            sock.sendall(bytes([0x81, 0x80 | len(hello), 0, 0, 0, 0]) + hello)
            started = time.perf_counter()
            rng = random.Random(1)
            dropped = None
            async with websockets.connect(url, max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": created["token"]}))
                acted = -1
                while time.perf_counter() - started < 120 and dropped is None:
                    msg = json.loads(await ws.recv())
                    if msg["type"] != "state":
                        continue
                    if msg["info"]["spectators"] == 0 and msg["n"] > 10:
                        dropped = msg["n"]
                    view, summary = msg["view"], msg["summary"]
                    if summary is not None and 0 in msg["info"]["waiting_for"]:
                        await ws.send(json.dumps({"type": "ready"}))
                    elif (view and view["turn"] == 0 and view["legal"] and summary is None
                          and msg["n"] != acted and view["legal"] not in (["draw"], ["pass"])):
                        acted = msg["n"]
                        await asyncio.sleep(0.13)  # within the message rate limit
                        await ws.send(json.dumps({"type": "act", "n": msg["n"],
                                                  "action": rng.choice(view["legal"])}))
            sock.close()
            return {"dropped_after_s": round(time.perf_counter() - started, 1),
                    "moves_played_meanwhile": dropped}

        return asyncio.run(go())


ATTACKS: dict[str, Callable[[], Result]] = {
    "body": attack_body, "headers": attack_headers, "idle": attack_idle,
    "slowloris": attack_slowloris, "amplification": attack_amplification,
    "tables": attack_tables, "bots": attack_bots, "slow_reader": attack_slow_reader,
}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("attacks", nargs="*", metavar="ATTACK", help=f"of {', '.join(ATTACKS)} (default: all)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    unknown = [a for a in args.attacks if a not in ATTACKS]
    if unknown:
        p.error(f"unknown attack {unknown[0]!r}")
    results = {}
    for name in args.attacks or list(ATTACKS):
        started = time.perf_counter()
        results[name] = ATTACKS[name]()
        if not args.json:
            print(f"{name} ({time.perf_counter() - started:.0f} s): {json.dumps(results[name])}",
                  flush=True)
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
