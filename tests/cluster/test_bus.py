"""Stopping a process's background tasks never waits for ever: a task that does not end when
cancelled (as one did, stuck on redis-py's blocking pool) is left behind after the grace."""

from __future__ import annotations

import asyncio
import time

from fives.server.cluster.bus import cancel_all


def test_cancel_all_ends_within_its_grace_even_if_a_task_will_not() -> None:
    freed = asyncio.Event()

    async def stubborn() -> None:
        while not freed.is_set():
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                continue  # as a task stuck releasing a connection does

    async def obedient() -> None:
        await asyncio.sleep(10)

    async def failing() -> None:
        raise RuntimeError("ended badly before the stop")

    async def body() -> tuple[float, list[bool]]:
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(stubborn()), loop.create_task(obedient()),
                 loop.create_task(failing())]
        await asyncio.sleep(0.01)  # the tasks start (the loop runs them first, however slow)
        started = time.monotonic()
        await cancel_all(tasks, grace=0.3)
        took = time.monotonic() - started
        ended = [t.done() for t in tasks]
        freed.set()  # the test's loop may close: the stubborn task may end now
        tasks[0].cancel()
        await asyncio.wait([tasks[0]])
        return took, ended

    took, ended = asyncio.run(body())
    assert took < 2.0
    assert ended == [False, True, True]
