"""A connection whose socket is in one process and whose table is in another.

On the owner, a :class:`RemoteConn` stands for it at the table like any connection: the table
attaches it, sends it its seat's messages, and hears what it says, in order. On the process
holding the socket, a :class:`RemoteTable` stands for the table: what the player says goes to
the owner, and what the owner sends the connection comes back to the socket as it was written.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from fives.server.conn import Conn
from fives.server.manager import MOVED
from fives.server.messages import REFUSALS, ClientError
from fives.store.players import StoredPlayer

if TYPE_CHECKING:
    from fives.server.cluster.bus import Bus
    from fives.server.table import Table

__all__ = ["MOVED", "ClusterDown", "RemoteConn", "RemoteTable"]

log = logging.getLogger("fives.cluster")


class ClusterDown(RuntimeError):
    """Redis cannot be reached (or this process's lease lapsed): who owns a table cannot be
    known now."""

_ids = itertools.count(1)


async def _nothing(text: str) -> None:
    return None


class RemoteConn(Conn):
    """At the owner: a connection held by process ``origin`` (its number there: ``cid``)."""

    def __init__(self, bus: Bus, origin: str, cid: int, addr: str, lang: str) -> None:
        super().__init__(_nothing, 0.0, 1, addr=addr)
        self.bus = bus
        self.origin = origin
        self.cid = cid
        self.lang = lang
        self.table: Table | None = None
        self.inbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    def send_text(self, text: str) -> None:
        if not self.closed:
            n = self.table.n if self.table is not None else None
            self.bus.send(self.origin, {"k": "out", "c": self.cid, "x": text, "n": n})

    def end(self, code: int) -> None:
        if not self.closed:
            self.closed = True
            self.bus.send(self.origin, {"k": "end", "c": self.cid, "code": code})

    async def run(self, find: Callable[[str], Awaitable[Table | None]]) -> None:
        """Say hello at the table, then deliver what the player says, in order."""
        while True:
            kind, body = await self.inbox.get()
            if kind == "open":
                table = await find(body["t"])
                if table is None or table.closed:
                    self.end(MOVED)  # not here (any more): the page looks again
                    return
                self.table = table
                try:
                    table.attach(self, body.get("token"), body.get("invite"))
                except ClientError as err:
                    self.error(err)
                    self.end(REFUSALS.get(err.code, 4400))
                    return
            elif kind == "msg" and self.table is not None:
                try:
                    await self.table.handle(self, body["m"], body.get("t0") or time.time())
                except ClientError as err:
                    self.error(err, self.table.n)
            elif kind == "close":
                return

    def detach(self) -> None:
        self.closed = True
        if self.table is not None and self.greeted:
            self.table.detach(self)
        if self.task is not None:
            self.task.cancel()


class RemoteTable:
    """At the process holding the sockets: the table owned by process ``owner``."""

    def __init__(self, bus: Bus, table_id: str, owner: str, forget: Callable[[], None],
                 routes: dict[int, RemoteTable]) -> None:
        self.bus = bus
        self.routes = routes  # connection number -> its remote table, for this process
        self.id = table_id
        self.owner = owner
        self.n = 0  # the newest counter the owner sent (for errors said here)
        self.conns: dict[int, Conn] = {}
        self._forget = forget

    def attach(self, conn: Conn, token: str | None, invite: str | None = None) -> None:
        """The hello goes to the owner, which welcomes the connection or turns it away."""
        cid = next(_ids)
        conn.greeted = True
        conn.cid = cid
        self.conns[cid] = conn
        self.routes[cid] = self
        # who the connection is, as this process found it from its cookies (the bus is the
        # cluster's own: the owner takes its word, as it takes the address's)
        player = asdict(conn.player) if isinstance(conn.player, StoredPlayer) else None
        self.bus.send(self.owner, {"k": "open", "c": cid, "t": self.id, "token": token,
                                   "invite": invite, "addr": conn.addr, "lang": conn.lang,
                                   "player": player, "browser": conn.browser,
                                   "from": self.bus.me})

    async def handle(self, conn: Conn, msg: dict[str, Any], received: float = 0.0) -> None:
        if msg["type"] == "lang":
            conn.lang = msg["lang"]
        self.bus.send(self.owner, {"k": "msg", "c": conn.cid, "m": msg, "t0": time.time(),
                                   "from": self.bus.me})

    def detach(self, conn: Conn) -> None:
        cid = conn.cid
        self.routes.pop(cid, None)
        if self.conns.pop(cid, None) is not None:
            self.bus.send(self.owner, {"k": "close", "c": cid, "from": self.bus.me})
        if not self.conns:
            self._forget()

    def relay(self, message: dict[str, Any]) -> None:
        """What the owner sent one connection (``out``), or its close (``end``)."""
        conn = self.conns.get(message["c"])
        if conn is None:
            return
        if message["k"] == "out":
            if message.get("n") is not None:
                self.n = message["n"]
            conn.send_text(message["x"])
        elif message["k"] == "end":
            conn.end(int(message["code"]))

    def owner_gone(self) -> None:
        """The owner died: every page here reconnects, and finds the table's new owner."""
        for cid, conn in list(self.conns.items()):
            self.routes.pop(cid, None)
            conn.end(MOVED)
        with contextlib.suppress(Exception):
            self._forget()
