"""Running bots for the tables: light levels inline, heavier ones in a pool of worker
processes (one per core), shared fairly between the tables, each decision with a deadline.

Fair: every table has its own queue. A free worker takes the next decision of a table where
a person is waiting before one where bots play only among themselves, and among those the
table that has used the workers least lately; bots' tables never hold every worker (one is
kept for people's tables when there are two or more). So thirty tables of experts cannot
starve one person's hard bot. Bounded: a decision not back by its deadline (queued or
thinking) is made by a lower level instead, inline, and a queued one is never started late.

A bot that fails (raises, answers something not legal) forfeits the decision: the caller
plays the host's :func:`~fives.bots.host.replacement`, the same as at every other table.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field

from fives.bots import BOT_NAMES, Bot, BotName, make_bot
from fives.bots.host import ask
from fives.bots.protocol import DEFAULT_MOVE_TIME
from fives.core.tiles import Action
from fives.core.view import View
from fives.server.orphans import worker_pool

__all__ = ["BotRunner", "bot_levels", "move_time_for"]

log = logging.getLogger("fives.server")

#: levels cheap enough to run on the event loop (medium: a fraction of a millisecond)
INLINE = frozenset({"random", "easy", "medium"})
#: the level that decides instead when a heavier one misses its deadline
FALLBACK = "medium"
#: how fast a table's past use of the workers is forgotten (half-life, seconds)
_HALF_LIFE = 10.0

_worker_bots: dict[str, Bot] = {}
#: the CPU seconds a time-budget level may think in a worker (set by :func:`_init_worker`)
_worker_move_time = DEFAULT_MOVE_TIME


def move_time_for(deadline: float) -> float:
    """The thinking time a time-budget level (``expert``) is given under a decision
    ``deadline`` (queue included): a quarter of it, so a decision queued behind others still
    arrives, and never above the level's own budget (``BotName.make`` keeps the smaller)."""
    return max(0.05, deadline / 4)


def _init_worker(move_time: float) -> None:
    global _worker_move_time
    _worker_move_time = move_time

Work = Callable[[str, View, int], int | None]


def _choose_in_worker(level: str, view: View, seed: int) -> int | None:
    """In a worker process: the bot's action (code), or None when it forfeits (logged)."""
    bot = _worker_bots.get(level)
    if bot is None:
        bot = _worker_bots[level] = BotName.parse(level).make(move_time=_worker_move_time)
    return _asked(level, bot, view, seed)


def _asked(level: str, bot: Bot, view: View, seed: int) -> int | None:
    action, fault = ask(bot, view, random.Random(seed))
    if fault is not None:
        log.warning("bot %s forfeits a decision: %s: %s", level, *fault)
        return None
    return int(action) if action is not None else None


def bot_levels() -> list[str]:
    """The bot levels a table may seat (weakest first)."""
    make_bot("easy")  # loads the built-in ladder
    return list(BOT_NAMES)


@dataclass
class _Job:
    table: str
    level: str
    view: View
    seed: int
    order: int
    future: asyncio.Future[int | None]
    for_person: bool  # a person at the table waits for this decision
    started: bool = False


@dataclass
class _Use:
    """A table's recent use of the workers (seconds, decaying)."""

    seconds: float = 0.0
    stamp: float = field(default_factory=time.monotonic)

    def now(self, at: float) -> float:
        return self.seconds * 0.5 ** ((at - self.stamp) / _HALF_LIFE)

    def add(self, seconds: float, at: float) -> None:
        self.seconds = self.now(at) + seconds
        self.stamp = at


class BotRunner:
    """Bots' decisions for the tables. ``workers`` processes for the heavier levels (0: every
    level inline, for tests); ``deadline`` seconds per heavy decision, queue included."""

    def __init__(
        self,
        workers: int,
        deadline: float,
        executor: Executor | None = None,
        work: Work = _choose_in_worker,
    ) -> None:
        self.workers = workers
        self.deadline = deadline
        self._given = executor
        self._pool: Executor | None = executor
        self._work = work
        self._inline: dict[str, Bot] = {}
        self._queues: dict[str, deque[_Job]] = {}
        self._use: dict[str, _Use] = {}
        self._busy = 0
        self._busy_for_bots = 0  # workers thinking for tables where no person waits
        self._order = itertools.count()
        self.fallbacks = 0  # decisions made by the fallback level

    def _bot(self, level: str) -> Bot:
        bot = self._inline.get(level)
        if bot is None:
            bot = self._inline[level] = BotName.parse(level).make(
                move_time=move_time_for(self.deadline)
            )
        return bot

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = worker_pool(self.workers, _init_worker,
                                     (move_time_for(self.deadline),))
        return self._pool

    def _inline_choice(self, level: str, view: View, seed: int) -> Action | None:
        code = _asked(level, self._bot(level), view, seed)
        return Action.from_code(code) if code is not None else None

    async def choose(
        self, level: str, view: View, seed: int, table: str = "", for_person: bool = True
    ) -> Action | None:
        """The bot's choice, or None when it forfeits the decision (it failed: the caller
        plays the host's replacement). A heavy level late gives the fallback level's choice.
        ``for_person``: someone at the table is waiting for it (served first)."""
        if level in INLINE or self.workers <= 0:
            return self._inline_choice(level, view, seed)
        loop = asyncio.get_running_loop()
        job = _Job(table, level, view, seed, next(self._order), loop.create_future(),
                   for_person)
        self._queues.setdefault(table, deque()).append(job)
        self._dispatch()
        try:
            code = await asyncio.wait_for(asyncio.shield(job.future), self.deadline)
        except TimeoutError:
            why = "thinks too long" if job.started else "waited too long for a worker"
            self.fallbacks += 1
            log.info("table %s: bot %s %s; %s decides", table, level, why, FALLBACK)
            return self._inline_choice(FALLBACK, view, seed)
        except Exception as exc:  # a broken worker is the bot's forfeit, never the table's end
            log.warning("table %s: bot %s failed in its worker: %r", table, level, exc)
            return None
        finally:
            self._forget(job)
        return Action.from_code(code) if code is not None else None

    def _forget(self, job: _Job) -> None:
        """A decision nobody waits for any more: never started late, its answer ignored."""
        job.future.cancel()
        queue = self._queues.get(job.table)
        if queue is not None and job in queue:
            queue.remove(job)
            if not queue:
                del self._queues[job.table]

    def _next_job(self) -> _Job | None:
        """The next decision: a person's table first, then the table that used the workers
        least lately, then the oldest."""
        bots_may_start = self._busy_for_bots < max(1, self.workers - 1)
        candidates = [t for t, q in self._queues.items() if q[0].for_person or bots_may_start]
        if not candidates:
            return None
        at = time.monotonic()
        table = min(candidates, key=lambda t: (
            not self._queues[t][0].for_person,
            self._use[t].now(at) if t in self._use else 0.0, self._queues[t][0].order))
        queue = self._queues[table]
        job = queue.popleft()
        if not queue:
            del self._queues[table]
        return job

    def _dispatch(self) -> None:
        while self._busy < self.workers:
            job = self._next_job()
            if job is None:
                return
            if job.future.done():
                continue
            self._start(job)

    def _start(self, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        job.started = True
        self._busy += 1
        self._busy_for_bots += not job.for_person
        began = time.monotonic()
        running = loop.run_in_executor(
            self._executor(), self._work, job.level, job.view, job.seed)

        def done(result: asyncio.Future[int | None]) -> None:
            self._busy -= 1
            self._busy_for_bots -= not job.for_person
            at = time.monotonic()
            self._use.setdefault(job.table, _Use()).add(at - began, at)
            if len(self._use) > 10000:  # forget the tables that have not asked for long
                self._use = {t: u for t, u in self._use.items() if u.now(at) > 0.01}
            if not job.future.done():
                if result.cancelled():
                    job.future.cancel()
                elif result.exception() is not None:
                    job.future.set_exception(result.exception())  # type: ignore[arg-type]
                else:
                    job.future.set_result(result.result())
            self._dispatch()

        running.add_done_callback(done)

    def close(self) -> None:
        if self._pool is not None and self._given is None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None
