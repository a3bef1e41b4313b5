"""Analyses of finished matches on the site (issue 28): asked for over HTTP, queued in the store,
computed once by whichever process claims them, kept.

Where they run: a pool of their own (``analysis_workers`` processes, one by default), each
process at a lower scheduling priority (``nice`` 10), so an analysis never takes a core from a
table's bots; with 0 workers they run in a thread (tests). The queue is in the store, so it
survives a restart, and a claim is a lease in the store: in a cluster any process may compute
an analysis, one at a time, and a process that dies mid-way hands it on when its lease lapses.

Fair: one analysis at a time per requester (an identity, or an address without one): asking
for another while one waits is refused with its place, and the whole queue is bounded.

Puzzles are mined here too (``mine_puzzles``): a finished match of people at an open table has
each person's seat queued for analysis by the :data:`~fives.store.analyses.MINER`, behind what
people asked for (and only while the queue is short); the analysis of a person's seat at an
open table, whoever asked for it, is then searched for puzzles (:func:`fives.puzzles.mine`),
kept in the store and served after the shipped set.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import time
from concurrent.futures import Executor
from dataclasses import asdict
from typing import Any

from fives.analysis import analyse, document
from fives.bots import BotName
from fives.core.record import Record
from fives.core.view import View
from fives.puzzles import mine
from fives.server.meta import TableMeta
from fives.server.orphans import worker_pool
from fives.store.analyses import MINER, StoredAnalysis
from fives.store.base import Store, StoreError

__all__ = ["Analyst", "compute", "hint_of"]

log = logging.getLogger("fives.server")

#: how much "later" than now the miner's analyses count as asked for
MINE_LATER = 3600.0


def _lower_priority() -> None:
    """A pool worker: below the tables in priority (:func:`worker_pool`: gone with its server)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def compute(record_data: dict[str, Any], seat: int, bot_name: str,
            mine_as: str | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The analysis document of ``seat`` (from 0) in a finished match's record, by
    ``bot_name`` (counts, not a clock: the same match always gets the same analysis), and the
    puzzles its decisions hold (``mine_as``: their ids' source; None: none looked for)."""
    record = Record.from_data(record_data)
    bot = BotName.parse(bot_name).make_by_counts()
    try:
        decisions = analyse(record, bot, seats=[seat], top=3)
    finally:
        bot.close()
    mined = [asdict(p) for p in mine(record, decisions, mine_as)] if mine_as else []
    return {**document(record, bot_name, decisions, [seat]), "seat": seat + 1}, mined


def hint_of(view: View, bot_name: str) -> dict[str, Any]:
    """The bot's best action for ``view`` and its value, with the best few (same order)."""
    bot = BotName.parse(bot_name).make_by_counts()
    try:
        raw = bot.values(view, random.Random(0))
    finally:
        bot.close()
    ranked = sorted(((str(a), float(v)) for a, v in raw.items()), key=lambda kv: -kv[1])
    if not ranked:  # a bot that values nothing: its own choice
        return {"action": str(view.legal[0]), "value": None, "values": {}}
    return {"action": ranked[0][0], "value": round(ranked[0][1], 2),
            "values": {a: round(v, 2) for a, v in ranked[:4]}}


class Analyst:
    """The analyses of one server process: the requests it takes, the work it claims."""

    def __init__(self, store: Store, *, workers: int, bot: str, lease: float,
                 max_waiting: int, mine_puzzles: bool = False, poll: float = 1.0) -> None:
        self.store = store
        self.mine_puzzles = mine_puzzles
        self.workers = workers
        self.bot = bot
        self.lease = lease
        self.max_waiting = max_waiting
        self.poll = poll
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self._pool: Executor | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.computed = 0  # analyses this process computed
        self.mined = 0  # puzzles this process found and kept

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._work())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._pool is not None:
            pool, self._pool = self._pool, None
            # an analysis under way would hold the process's exit until it ends (minutes for a
            # long match): its workers are stopped; its lease hands it to the next claim
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                with contextlib.suppress(OSError, ValueError):
                    worker.terminate()

    async def request(self, table_id: str, seat: int, requester: str) -> StoredAnalysis:
        """The analysis asked for (a new one queued); :class:`Busy` if the requester already
        waits for another, :class:`Full` if the queue is full."""
        found = await self.store.analysis(table_id, seat)
        if found is None:
            pending = await self.store.analyses_pending(requester)
            if pending:
                raise Busy(pending[0])
            if await self.store.queued_before(time.time() + 1) >= self.max_waiting:
                raise Full()
            found = await self.store.request_analysis(table_id, seat, requester, time.time())
            self._wake.set()
        return found

    async def match_over(self, table_id: str, meta: TableMeta) -> None:
        """A finished match: each person's seat queued for the miner, at an open table, while
        the queue is under half full (asked for an hour "later", behind what people ask)."""
        if not self.mine_puzzles or meta.private:
            return
        now = time.time()
        try:
            for seat, who in enumerate(meta.seats):
                if who.kind != "human":
                    continue
                if await self.store.queued_before(now + 10 * MINE_LATER) >= self.max_waiting // 2:
                    return
                await self.store.request_analysis(table_id, seat, MINER, now + MINE_LATER)
        except StoreError as exc:
            log.warning("table %s: not queued for puzzles: %s", table_id, exc)
            return
        self._wake.set()

    async def hint(self, view: View) -> dict[str, Any]:
        """A hint for ``view``, computed where analyses are (never on the event loop)."""
        if self.workers <= 0:
            return await asyncio.to_thread(hint_of, view, self.bot)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), hint_of, view, self.bot)

    async def _work(self) -> None:
        while True:
            try:
                job = await self.store.claim_analysis(self.owner, time.time(), self.lease)
            except StoreError as exc:
                log.warning("analyses: cannot claim now: %s", exc)
                job = None
            if job is None:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.poll)
                continue
            await self._compute(job)

    async def _compute(self, job: StoredAnalysis) -> None:
        result: dict[str, Any] | None = None
        started = time.monotonic()
        try:
            stored = await self.store.load(job.table_id)
            if stored is None or stored.record is None:
                raise ValueError("no finished record")
            meta = TableMeta.from_json(stored.meta)
            mine_as = (job.table_id if self.mine_puzzles and not meta.private
                       and meta.seats[job.seat].kind == "human" else None)
            loop = asyncio.get_running_loop()
            if self.workers <= 0:
                doc, mined = await asyncio.to_thread(compute, stored.record, job.seat,
                                                     self.bot, mine_as)
            else:
                doc, mined = await loop.run_in_executor(
                    self._executor(), compute, stored.record, job.seat, self.bot, mine_as)
            if mined:
                try:
                    self.mined += await self.store.add_mined_puzzles(job.table_id, mined,
                                                                     time.time())
                except StoreError as exc:  # the analysis is kept all the same
                    log.warning("puzzles of %s not kept: %s", job.table_id, exc)
            result = {**doc, "seconds": round(time.monotonic() - started, 2)}
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a record that cannot be analysed: failed, not retried
            log.warning("analysis of %s seat %d failed: %s", job.table_id, job.seat, exc)
        try:
            if await self.store.finish_analysis(job.table_id, job.seat, self.owner, result,
                                                time.time()):
                self.computed += result is not None
        except StoreError as exc:
            log.warning("analysis of %s seat %d not stored: %s", job.table_id, job.seat, exc)

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = worker_pool(self.workers, _lower_priority)
        return self._pool


class Busy(Exception):
    """The requester already waits for an analysis."""

    def __init__(self, waiting: StoredAnalysis) -> None:
        super().__init__(waiting.table_id)
        self.waiting = waiting


class Full(Exception):
    """The queue of analyses is full."""
