"""One WebSocket connection to a table: who it is (a seat or a watcher), its language, its
rate limit, and the outbox that keeps the table from ever waiting for a slow reader."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from fives.server.messages import ClientError, error_message
from fives.server.ratelimit import TokenBucket

__all__ = ["Conn", "dumps"]


def dumps(obj: Any) -> str:
    """A message as compact JSON (Devanagari kept as it is)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class Conn:
    """One WebSocket connection: its seat (None: spectator), language, outbox and rate limit.

    Messages wait in the outbox until the socket takes them. A reader that cannot keep up
    (the outbox full) is let go: what it has not read is stale, so the outbox is emptied and
    ``drop`` closes the connection (code 4008); the page reconnects and gets one fresh
    snapshot.
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        rate: float,
        burst: int,
        queue_size: int = 1000,
        drop: Callable[[], Coroutine[Any, Any, None]] | None = None,
        addr: str = "?",
        end: Callable[[int], Coroutine[Any, Any, None]] | None = None,
    ) -> None:
        self._send = send
        self._drop = drop
        self._end = end
        self.ending: asyncio.Task[None] | None = None
        #: its number on the bus while its table is owned by another process
        self.cid = 0
        self.addr = addr  # the client's address (per-address limits)
        self.seat: int | None = None
        #: the identity (fives.server.identity) whose cookie came with the connection
        self.player: Any = None
        #: the hash of the browser's own cookie (two identities of one browser are one)
        self.browser: str | None = None
        self.lang = "en"
        self.greeted = False
        self.bucket = TokenBucket(rate, burst)
        self.strikes = 0  # messages refused in a row (one that keeps flooding is closed)
        self.outbox: asyncio.Queue[str] = asyncio.Queue(queue_size)
        self.closed = False
        self.dropping: asyncio.Task[None] | None = None

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.too_slow()

    def too_slow(self) -> None:
        self.closed = True
        while not self.outbox.empty():
            self.outbox.get_nowait()
        if self._drop is not None and self.dropping is None:
            self.dropping = asyncio.get_running_loop().create_task(self._drop())

    def end(self, code: int) -> None:
        """Close the connection with ``code`` once its outbox is sent: 1012 when its table
        moves to another process (the page reconnects and finds it there), or the code of a
        refusal decided by the table's owner in another process."""
        if self._end is not None and self.ending is None:
            self.ending = asyncio.get_running_loop().create_task(self._end(code))

    def send(self, obj: dict[str, Any]) -> None:
        self.send_text(dumps(obj))

    def error(self, err: ClientError, n: int | None = None) -> None:
        self.send(error_message(err, self.lang, n))

    async def pump(self) -> None:
        """Write the outbox to the socket, in order, until cancelled."""
        while True:
            await self._send(await self.outbox.get())
