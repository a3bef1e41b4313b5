"""This process as one of many: its lease, the tables it owns, the janitor that buries dead
processes and takes their tables over, the lobby it shares, and the bus traffic it answers.

Redis keys (all under ``fives:``):

- ``proc:<id>``: this process is alive (a lease of ``lease`` seconds, renewed three times as
  often); ``procs``: every process that may still hold tables;
- ``owner:<table>``: the process that owns the table; ``held:<id>``: the tables it owns;
- ``lobby:<id>``: its tables' lobby entries (refreshed every second, gone with it);
- ``usage:<id>``: what its tables hold of each address (tables, bots' tables, seats), so
  that the per-address quotas count the whole site (refreshed with the lobby);
- ``obot:*``, ``obots:<id>``: the bots online, where their sockets are and which table each
  plays (:mod:`.bots`).

Why a lease in Redis and a fencing token in the store, not PostgreSQL advisory locks: an
advisory lock lives as long as one database connection, so every table would pin one
connection of the pool (10,000 tables, 10,000 connections), and a connection that drops
loses the lock silently. One lease per process costs one Redis write a second whatever the
number of tables, and the token makes the store itself refuse a stale owner's writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError

from fives.server.cluster.bots import ClusterBots
from fives.server.cluster.bus import Bus, cancel_all
from fives.server.cluster.fenced import FencedStore
from fives.server.cluster.remote import MOVED, ClusterDown, RemoteConn, RemoteTable
from fives.server.logs import set_process_name
from fives.server.metrics import OWNER_MOVES
from fives.server.online_bots import MOVE_TIME
from fives.store.base import Store
from fives.store.players import StoredPlayer

if TYPE_CHECKING:
    from fives.server.manager import TableManager
    from fives.server.table import Table

__all__ = ["Cluster", "ClusterDown"]

log = logging.getLogger("fives.cluster")

# Take the table unless a live process owns it; None: it is ours now, else the owner's id.
_ACQUIRE = """
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] and redis.call('EXISTS', 'fives:proc:' .. cur) == 1 then
  return cur
end
if cur and cur ~= ARGV[1] then redis.call('SREM', 'fives:held:' .. cur, ARGV[2]) end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', 'fives:held:' .. ARGV[1], ARGV[2])
return false
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SREM', 'fives:held:' .. ARGV[1], ARGV[2])
return 1
"""


# One token from an address's bucket (KEYS: the bucket; ARGV: rate per second, burst, now in
# seconds): 1 taken, 0 empty. The bucket is forgotten once it would be full again.
_TAKE_TOKEN = """
local rate, burst, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local got = redis.call('HMGET', KEYS[1], 't', 's')
local tokens, stamp = tonumber(got[1]) or burst, tonumber(got[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local taken = 0
if tokens >= 1 then tokens = tokens - 1; taken = 1 end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 's', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return taken
"""


class Cluster:
    """One process of the cluster. ``lease``: seconds a process is believed alive after its
    last renewal (a dead owner's tables move after at most this long, plus a janitor round).
    ``bot_move_time``: seconds an online bot may take to answer."""

    def __init__(self, url: str, lease: float = 3.0, bot_move_time: float = MOVE_TIME) -> None:
        self.url = url
        self.lease = lease
        self.id = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        # A bounded pool that waits for a free connection: a crowd of connecting pages (each
        # asking who owns its table) once opened a connection each, past redis-py's cap of
        # 100, and every call beyond it failed at once, the lease's renewal with them.
        self.redis: Redis = Redis(connection_pool=BlockingConnectionPool.from_url(
            url, max_connections=64, timeout=lease / 3, socket_timeout=lease / 3,
            socket_connect_timeout=lease / 3, decode_responses=True))
        # the lease has a connection of its own: it never waits behind the crowd
        self._lease_redis: Redis = Redis.from_url(url, socket_timeout=lease / 4,
                                                  socket_connect_timeout=lease / 4,
                                                  decode_responses=True)
        # the bus listens on a connection of its own, without a read timeout (it waits for
        # messages for as long as there are none), checked by Redis' health pings instead
        self.bus = Bus(self.redis, Redis.from_url(url, socket_connect_timeout=lease / 3,
                                      health_check_interval=max(1, int(lease)),
                                      decode_responses=True),
                       self.id, self._receive)
        #: the bots online of the whole cluster (the manager's registry)
        self.outside = ClusterBots(self.redis, self.bus, self.id, max(5.0, lease * 2),
                                   bot_move_time)
        self.manager: TableManager | None = None
        self.valid_until = 0.0  # monotonic time this process's lease lapses
        self.remotes: dict[str, RemoteTable] = {}  # tables owned elsewhere, with sockets here
        self.routes: dict[int, RemoteTable] = {}  # ... by the number of each such socket
        self.guests: dict[tuple[str, int], RemoteConn] = {}  # others' sockets at our tables
        self._buried: set[str] = set()
        #: the other processes' usage by address, summed (refreshed every second)
        self.elsewhere: dict[str, tuple[int, int, int]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._release = self.redis.register_script(_RELEASE)
        self._take_token = self.redis.register_script(_TAKE_TOKEN)

    # -- life ---------------------------------------------------------------------------------

    def fenced(self, store: Store) -> FencedStore:
        """The store as this process's tables write to it."""
        return FencedStore(store, self.lease_valid, self._lost)

    def lease_valid(self) -> bool:
        return time.monotonic() < self.valid_until

    async def start(self, manager: TableManager) -> None:
        self.manager = manager
        try:
            await self._register()
            await self.bus.start()
        except RedisError as exc:
            raise ClusterDown(f"cannot reach Redis at {self.where}: {exc}") from None
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._heartbeat()), loop.create_task(self._janitor()),
                       loop.create_task(self._publish_lobby()),
                       loop.create_task(self.outside.refresh())]
        set_process_name(self.id)
        log.info("process %s joined the cluster (lease %.1fs)", self.id, self.lease)

    @property
    def where(self) -> str:
        return self.url.split("@")[-1]

    async def stop(self) -> None:
        """Leave at once: the others take our tables now rather than after the lease."""
        await cancel_all(self._tasks)
        await self.outside.stop()
        await self.bus.stop()
        with contextlib.suppress(RedisError, OSError):
            await self._lease_redis.delete(f"fives:proc:{self.id}", f"fives:lobby:{self.id}",
                                           f"fives:usage:{self.id}")
        for client in (self.redis, self._lease_redis):
            with contextlib.suppress(RedisError, OSError):
                await client.aclose()

    async def _register(self) -> None:
        sent = time.monotonic()
        await self._lease_redis.set(f"fives:proc:{self.id}", "1", px=int(self.lease * 1000))
        await self._lease_redis.sadd("fives:procs", self.id)
        self.valid_until = sent + self.lease

    async def _heartbeat(self) -> None:
        """Renew the lease four times per lease; never stops (a heartbeat that died would
        leave the process unable to write for ever)."""
        while True:
            asked = time.monotonic()
            await asyncio.sleep(self.lease / 4)
            late = time.monotonic() - asked - self.lease / 4
            if late > self.lease / 4:  # the lease may lapse for want of a turn of the loop
                log.warning("process %s: its event loop was %.2fs late", self.id, late)
            try:
                await self._renew()
            except Exception:
                log.exception("process %s: renewing its lease failed", self.id)

    async def _renew(self) -> None:
        sent = time.monotonic()
        try:
            renewed = await self._lease_redis.set(f"fives:proc:{self.id}", "1",
                                                  px=int(self.lease * 1000), xx=True)
            if renewed:
                self.valid_until = sent + self.lease
            else:
                log.warning("process %s: its lease had lapsed; its tables are let go",
                            self.id)
                await self._let_all_go()
                self._start_afresh()
                await self._register()
        except RedisError as exc:
            log.warning("process %s: cannot renew its lease (%s)", self.id, exc)
        if not self.lease_valid():
            await self._let_all_go()

    async def _let_all_go(self) -> None:
        """Without a valid lease this process may own nothing: its tables stop, their pages
        reconnect (elsewhere, or here once the lease is back)."""
        manager = self.manager
        if manager is None or not manager.tables:
            return
        log.warning("process %s: letting %d tables go", self.id, len(manager.tables))
        for table_id in list(manager.tables):
            await manager.drop(table_id, moved=True)

    def _start_afresh(self) -> None:
        """Back after a lapsed lease: the others have buried this process, so its sockets at
        their tables were detached there and its guests' processes forgot it. Every page it
        relays reconnects (to find the tables' owners now), and the guests it held are gone:
        the process comes back as a new one under the same id."""
        for remote in list(self.remotes.values()):
            remote.owner_gone()
        for key in list(self.guests):
            self.guests.pop(key).detach()

    def _lost(self, table_id: str) -> None:
        """A write was refused as stale: another process owns the table now."""
        log.warning("table %s: owned by another process now; let go", table_id)
        if self.manager is not None:
            asyncio.get_running_loop().create_task(self.manager.drop(table_id, moved=True))

    # -- ownership (the manager's Owners) ------------------------------------------------------

    async def acquire(self, table_id: str) -> str | None:
        if not self.lease_valid():
            raise ClusterDown("this process's lease has lapsed")
        try:
            owner = await self._acquire(keys=[f"fives:owner:{table_id}"],
                                        args=[self.id, table_id])
        except RedisError as exc:
            raise ClusterDown(f"cannot reach Redis: {exc}") from None
        return str(owner) if owner else None

    async def release(self, table_id: str) -> None:
        try:
            await self._release(keys=[f"fives:owner:{table_id}"], args=[self.id, table_id])
        except RedisError as exc:
            log.warning("table %s: cannot release its ownership (%s)", table_id, exc)

    async def take_token(self, name: str, addr: str, rate: float, burst: int) -> bool:
        """A token from the site's bucket ``name`` of ``addr`` (every process takes from the
        same one; :class:`fives.server.ratelimit.SiteLimits`)."""
        taken = await self._take_token(keys=[f"fives:limit:{name}:{addr}"],
                                       args=[rate, burst, time.time()])
        return bool(taken)

    # -- the janitor ---------------------------------------------------------------------------

    async def _janitor(self) -> None:
        """Every little while: find processes whose lease lapsed, end what this process held
        with them, and take their tables over (each survivor tries; Redis gives each table to
        one)."""
        while True:
            await asyncio.sleep(min(0.5, self.lease / 6))
            try:
                await self._bury_the_dead()
            except RedisError as exc:
                log.warning("janitor: %s", exc)
            except Exception:
                log.exception("janitor failed")

    async def _bury_the_dead(self) -> None:
        if not self.lease_valid() or self.manager is None:
            return
        # the processes that may hold tables, and those this one talks to (another survivor
        # may have buried one already, and taken it off the list)
        procs = {str(p) for p in await self.redis.smembers("fives:procs")}
        procs |= {r.owner for r in self.remotes.values()} | {g.origin for g in self.guests.values()}
        others = sorted(procs - {self.id})
        if not others:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for p in others:
                pipe.exists(f"fives:proc:{p}")
            alive = await pipe.execute()
        for proc, live in zip(others, alive):
            if live:
                # back (a process paused past its lease takes its id again): its next death
                # is a new one, to be handled in full
                self._buried.discard(proc)
                continue
            if proc not in self._buried:
                self._buried.add(proc)
                log.info("process %s: its lease lapsed; its tables move", proc)
            # every round it is seen dead, not only the first: a socket relayed to it since
            # (it came back once and died again) must reconnect, and forgetting is idempotent
            self._forget_process(proc)
            held = [str(t) for t in await self.redis.smembers(f"fives:held:{proc}")]
            random.shuffle(held)  # the survivors share the work
            for table_id in held:
                found = await self.manager.take(table_id)
                if found is not None and not isinstance(found, str):
                    OWNER_MOVES.inc()
                    log.info("table %s: taken over from %s", table_id, proc)
            if await self.redis.scard(f"fives:held:{proc}") == 0:
                await self.redis.srem("fives:procs", proc)

    def _forget_process(self, proc: str) -> None:
        """A dead process: the sockets here whose table it owned reconnect; its sockets at
        our tables are gone."""
        for remote in [r for r in self.remotes.values() if r.owner == proc]:
            remote.owner_gone()
        for key in [k for k in self.guests if k[0] == proc]:
            self.guests.pop(key).detach()

    # -- the lobby -----------------------------------------------------------------------------

    async def _publish_lobby(self) -> None:
        """Every second: this process's lobby entries and usage out, the others' usage in."""
        while True:
            if self.manager is not None and self.lease_valid():
                entries = self.manager.lobby_candidates()
                usage = self.manager.usage()
                ttl = int(max(5.0, self.lease * 2) * 1000)
                with contextlib.suppress(RedisError):
                    async with self.redis.pipeline(transaction=False) as pipe:
                        pipe.set(f"fives:lobby:{self.id}", json.dumps(entries), px=ttl)
                        pipe.set(f"fives:usage:{self.id}", json.dumps(usage), px=ttl)
                        await pipe.execute()
                    self.elsewhere = await self._usage_of_others()
            await asyncio.sleep(1.0)

    async def _usage_of_others(self) -> dict[str, tuple[int, int, int]]:
        procs = [str(p) for p in await self.redis.smembers("fives:procs") if p != self.id]
        texts = await self.redis.mget([f"fives:usage:{p}" for p in procs]) if procs else []
        total: dict[str, list[int]] = {}
        for text in texts:
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                for addr, row in (json.loads(text) if text else {}).items():
                    into = total.setdefault(str(addr), [0, 0, 0])
                    for k in range(3):
                        into[k] += int(row[k])
        return {addr: (row[0], row[1], row[2]) for addr, row in total.items()}

    def usage_elsewhere(self, addr: str) -> tuple[int, int, int]:
        return self.elsewhere.get(addr, (0, 0, 0))

    async def lobby(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        try:
            procs = [str(p) for p in await self.redis.smembers("fives:procs")]
            others = [p for p in procs if p != self.id]
            texts = await self.redis.mget([f"fives:lobby:{p}" for p in others]) if others else []
        except RedisError as exc:
            log.warning("lobby: other processes' tables unknown (%s)", exc)
            return out
        for text in texts:
            if text:
                with contextlib.suppress(ValueError):
                    out.extend(json.loads(text))
        return out

    # -- sockets and the bus -------------------------------------------------------------------

    def remote(self, table_id: str, owner: str) -> RemoteTable:
        """The table owned by ``owner``, as the sockets here see it."""
        remote = self.remotes.get(table_id)
        if remote is not None and remote.owner != owner:
            # the table moved: the sockets still sent to its old owner reconnect as well
            remote.owner_gone()
            remote = None
        if remote is None:
            remote = RemoteTable(self.bus, table_id, owner,
                                 lambda: self._forget_remote(table_id, remote), self.routes)
            self.remotes[table_id] = remote
        return remote

    def _forget_remote(self, table_id: str, remote: RemoteTable | None) -> None:
        if self.remotes.get(table_id) is remote:
            del self.remotes[table_id]

    async def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if isinstance(kind, str) and kind.startswith("obot_"):  # bots online (.bots)
            self.outside.receive(message)
            return
        if kind in ("out", "end"):  # the owner to a socket here
            route = self.routes.get(message["c"])
            if route is not None:
                route.relay(message)
            return
        origin = str(message.get("from"))
        key = (origin, int(message.get("c") or 0))
        if kind == "open":
            guest = RemoteConn(self.bus, origin, key[1], str(message.get("addr") or "?"),
                               str(message.get("lang") or "en"))
            with contextlib.suppress(TypeError, ValueError):
                player = message.get("player")
                guest.player = StoredPlayer(**player) if isinstance(player, dict) else None
            browser = message.get("browser")
            guest.browser = browser if isinstance(browser, str) else None
            self.guests[key] = guest
            guest.inbox.put_nowait(("open", message))
            guest.task = asyncio.get_running_loop().create_task(self._serve_guest(key, guest))
        elif kind == "msg":
            held = self.guests.get(key)
            if held is not None:
                held.inbox.put_nowait(("msg", message))
            else:  # this process does not hold that connection (any more): look again
                self.bus.send(origin, {"k": "end", "c": key[1], "code": MOVED})
        elif kind == "close":
            gone = self.guests.pop(key, None)
            if gone is not None:
                gone.detach()

    async def _serve_guest(self, key: tuple[str, int], guest: RemoteConn) -> None:
        try:
            await guest.run(self._held)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a connection from %s failed", key[0])
        if self.guests.get(key) is guest and guest.closed:
            del self.guests[key]

    async def _held(self, table_id: str) -> Table | None:
        """The table if this process holds it (waiting for a takeover under way)."""
        if self.manager is None:
            return None
        try:
            found = await self.manager.find(table_id)
        except ClusterDown:
            return None  # the page is sent to look again
        return found if found is not None and not isinstance(found, str) else None

    def status(self) -> dict[str, Any]:
        return {"process": self.id, "lease": self.lease_valid(), "bus": self.bus.healthy,
                "remote_tables": len(self.remotes), "guests": len(self.guests)}
