"""Running bots for the tables: light ones inline, heavier ones in a worker process so a
thinking bot never holds up the other tables."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
from concurrent.futures import Executor, ProcessPoolExecutor

from fives.bots import BOT_NAMES, Bot, make_bot
from fives.core.tiles import Action
from fives.core.view import View

__all__ = ["BotRunner", "bot_levels"]

log = logging.getLogger("fives.server")

#: levels cheap enough to run on the event loop
INLINE = {"random", "easy"}

_worker_bots: dict[str, Bot] = {}


def _choose_in_worker(level: str, view: View, seed: int) -> int:
    bot = _worker_bots.get(level)
    if bot is None:
        bot = _worker_bots[level] = make_bot(level)
    return int(bot.choose(view, random.Random(seed)))


def bot_levels() -> list[str]:
    """The bot levels a table may seat (weakest first)."""
    make_bot("easy")  # loads the built-in ladder
    return list(BOT_NAMES)


class BotRunner:
    def __init__(self, workers: int = 1, timeout: float = 20.0) -> None:
        self.workers = workers
        self.timeout = timeout
        self._inline: dict[str, Bot] = {}
        self._pool: Executor | None = None

    def _bot(self, level: str) -> Bot:
        bot = self._inline.get(level)
        if bot is None:
            bot = self._inline[level] = make_bot(level)
        return bot

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    async def choose(self, level: str, view: View, seed: int) -> Action:
        """The bot's choice; on any failure or timeout the easy bot's choice."""
        if level not in INLINE and self.workers > 0:
            loop = asyncio.get_running_loop()
            try:
                code = await asyncio.wait_for(
                    loop.run_in_executor(self._executor(), _choose_in_worker, level, view, seed),
                    self.timeout,
                )
                return Action.from_code(code)
            except Exception as exc:  # a failing or slow bot must not stop the table
                log.warning("bot %s failed (%s); the easy bot plays instead", level, exc)
                level = "easy"
        try:
            return self._bot(level).choose(view, random.Random(seed))
        except Exception as exc:
            log.warning("bot %s failed (%s); the easy bot plays instead", level, exc)
            return self._bot("easy").choose(view, random.Random(seed))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
