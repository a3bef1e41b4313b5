"""Messages between processes over Redis pub/sub: one channel per process. What a process
publishes is sent in order by one task (pipelined), so the messages of one connection arrive
in the order they were said; a lost message costs nothing lasting, since every state message
is a whole snapshot."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

__all__ = ["Bus", "cancel_all", "channel"]

log = logging.getLogger("fives.cluster")


def channel(process: str) -> str:
    return f"fives:to:{process}"


async def cancel_all(tasks: list[asyncio.Task[None]], grace: float = 5.0) -> None:
    """Cancel the tasks and wait until each has ended, for ``grace`` seconds at most: a task
    cancelled half way through a Redis command can wait for ever on redis-py's blocking pool,
    and a process stopping must not wait with it."""
    for task in tasks:
        task.cancel()
    if not tasks:
        return
    ended, hung = await asyncio.wait(tasks, timeout=grace)
    for task in ended:  # what a task ended with is read, so that nothing reports it unread
        if not task.cancelled():
            task.exception()
    if hung:
        log.warning("%d tasks did not end within %.0fs of being cancelled; left behind",
                    len(hung), grace)


class Bus:
    """Publish to any process; receive what is published to this one."""

    def __init__(self, redis: Redis, listener: Redis, me: str,
                 receive: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        self.redis = redis  # publishing (with the process's timeouts)
        self.listener = listener  # a connection that only listens
        self.me = me
        self._receive = receive
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self.healthy = False

    async def start(self) -> None:
        pubsub = self.listener.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(channel(self.me))
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(pubsub)), loop.create_task(self._send())]
        self.healthy = True

    async def stop(self) -> None:
        await cancel_all(self._tasks)
        with contextlib.suppress(RedisError, OSError):
            await self.listener.aclose()

    def send(self, process: str, message: dict[str, Any]) -> None:
        self._out.put_nowait((channel(process), json.dumps(message, ensure_ascii=False,
                                                           separators=(",", ":"))))

    async def _send(self) -> None:
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < 500:
                batch.append(self._out.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for name, text in batch:
                        pipe.publish(name, text)
                    await pipe.execute()
                self.healthy = True
            except RedisError as exc:
                self.healthy = False
                log.warning("bus: %d messages lost (%s)", len(batch), exc)
                await asyncio.sleep(0.2)

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for raw in pubsub.listen():
                    if raw.get("type") != "message":
                        continue
                    try:
                        message = json.loads(raw["data"])
                    except ValueError:
                        log.error("bus: a message that is not JSON: %.200r", raw["data"])
                        continue
                    try:
                        await self._receive(message)
                    except Exception:
                        log.exception("bus: a message failed: %.200r", raw["data"])
            except RedisError as exc:
                self.healthy = False
                log.warning("bus: listening failed (%s); again shortly", exc)
                await asyncio.sleep(0.5)
                with contextlib.suppress(RedisError):
                    await pubsub.subscribe(channel(self.me))
                    self.healthy = True
