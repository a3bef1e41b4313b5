"""Bots at the tables (issue 10, item 8): a pool of workers sized to the cores, shared fairly
between tables, and a deadline per decision after which a lower level decides."""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from fives.bots import make_bot
from fives.core.games import Config
from fives.core.state import State
from fives.core.view import View, view_of
from fives.server.bots import FALLBACK, BotRunner
from fives.server.settings import Settings

from .harness import wait_until


def a_view() -> View:
    state = State(Config.make("all-fives", 2))
    state.deal_next(random.Random(5))
    return view_of(state, state.turn)


class SlowWork:
    """A stand-in for a heavy bot: takes ``seconds`` per decision and logs who it served."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.served: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, level: str, view: View, seed: int) -> int:
        time.sleep(self.seconds)
        with self.lock:
            self.served.append(f"{seed}")
        return int(make_bot("easy").choose(view, random.Random(seed)))


def test_the_pool_has_a_worker_per_core() -> None:
    assert Settings().bot_workers == (os.cpu_count() or 1)


def test_a_table_that_used_the_workers_least_is_served_next() -> None:
    """Thirty tables of experts slowed another table's hard bot from 1 s to 9 s: with one
    queue, a decision waited behind all of theirs. Now it goes before the busy tables'."""
    work = SlowWork(0.05)
    runner = BotRunner(1, deadline=30.0, executor=ThreadPoolExecutor(1), work=work)
    view = a_view()

    async def go() -> None:
        heavy = [f"expert-table-{i}" for i in range(6)]
        # every busy table has already had the workers for a while
        for i, table in enumerate(heavy):
            await runner.choose("expert", view, 100 + i, table)
        asked = [runner.choose("expert", view, 200 + i, t) for i, t in enumerate(heavy)]
        tasks = [asyncio.ensure_future(a) for a in asked]
        # asked after the busy tables: the tasks start in order, in one turn of the loop
        mine = asyncio.ensure_future(runner.choose("hard", view, 999, "my-table"))
        await asyncio.sleep(0)  # that turn (no clock: nothing can have ended yet)
        queued = sum(len(q) for q in runner._queues.values())
        assert (runner._busy, queued) == (1, 6)  # all queued, one busy table's thinking
        await asyncio.gather(*tasks, mine)

    asyncio.run(go())
    second_round = work.served[6:]
    assert second_round.index("999") <= 1, second_round  # at most the one already thinking
    runner.close()


def test_a_late_decision_is_made_by_a_lower_level_and_never_started_late() -> None:
    work = SlowWork(0.6)
    runner = BotRunner(1, deadline=0.2, executor=ThreadPoolExecutor(1), work=work)
    view = a_view()

    async def go() -> list[float]:
        took = []
        for seed in (1, 2):  # the second waits for the first, which thinks too long
            started = time.monotonic()
            action = await runner.choose("expert", view, seed, f"table-{seed}")
            took.append(time.monotonic() - started)
            assert action in view.legal
        return took

    took = asyncio.run(go())
    assert all(t < 0.5 for t in took)
    assert runner.fallbacks == 2 and FALLBACK == "medium"
    wait_until(lambda: work.served, 10, "the first decision to end")
    time.sleep(0.8)  # the worker is free: a second decision run late would be done by now
    assert work.served == ["1"]  # the queued second one was dropped, not run late
    runner.close()


def test_a_failing_worker_forfeits_the_decision() -> None:
    """A broken worker is the bot's forfeit (the table plays the host's replacement, as every
    table does), not a late decision."""
    def broken(level: str, view: View, seed: int) -> int:
        raise RuntimeError("the bot crashed")

    runner = BotRunner(1, deadline=5.0, executor=ThreadPoolExecutor(1), work=broken)
    assert asyncio.run(runner.choose("hard", a_view(), 3, "t")) is None
    assert runner.fallbacks == 0
    runner.close()


def test_the_real_pool_thinks_in_a_worker_process() -> None:
    runner = BotRunner(1, deadline=120.0)
    view = a_view()
    action = asyncio.run(runner.choose("hard", view, 3, "t"))
    assert action in view.legal and runner.fallbacks == 0
    runner.close()


def test_a_persons_table_goes_before_bots_only_tables_and_keeps_a_worker() -> None:
    """Bots-only tables never take every worker, and a person's decision is next in line."""
    work = SlowWork(0.1)
    runner = BotRunner(2, deadline=30.0, executor=ThreadPoolExecutor(2), work=work)
    view = a_view()

    async def go() -> None:
        bots = [asyncio.ensure_future(runner.choose("expert", view, i, f"bots-{i}",
                                                    for_person=False)) for i in range(8)]
        # asked after the bots' tables: the tasks start in order, in one turn of the loop
        mine = asyncio.ensure_future(runner.choose("hard", view, 999, "person", for_person=True))
        await asyncio.sleep(0)  # that turn (no clock: nothing can have ended yet)
        # the bots' tables hold one worker and queue the rest; the person's decision started
        # at once on the worker kept for people
        queued = sum(len(q) for q in runner._queues.values())
        assert (runner._busy, runner._busy_for_bots, queued) == (2, 1, 7)
        await asyncio.gather(mine, *bots)

    asyncio.run(go())
    # done first or second (beside the one bots' decision that was already thinking, which of
    # the two ends first is the threads' race), never behind the seven others queued
    assert work.served.index("999") <= 1
    runner.close()
