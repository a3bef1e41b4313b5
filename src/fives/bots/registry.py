"""Bots by name: the ladder's levels, and outside programs written ``cmd:COMMAND LINE``.

Every interface that reads a bot's name (the terminal, tournaments, the browser's tables,
``fives bot``, analysis) parses it here, once, into a :class:`BotName`.

>>> BotName.parse("hard")
BotName.parse('hard')
>>> BotName.parse("cmd: ./mybot --fast").argv
('./mybot', '--fast')
>>> BotName.parse("cmd:")
Traceback (most recent call last):
...
fives.bots.base.BotError: 'cmd:' needs a command line after it
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

from fives.bots.base import Bot, BotError
from fives.bots.ladder import (
    EXPERT_ITERATIONS,
    EXPERT_MAX_TIME,
    EXPERT_MOVE_TIME,
    EXPERT_WORLDS,
    GREEDY_WORLDS,
    HARD_MAX_TIME,
    HARD_WORLDS,
    OLD_HARD_BUDGET,
    OLD_HARD_WORLDS,
    CheatBot,
    CheatHardBot,
    EasyBot,
    HalvingBot,
    IsmctsBot,
    MediumBot,
    RandomBot,
    SearchBot,
)
from fives.bots.protocol import DEFAULT_MOVE_TIME, ProcessBot

__all__ = ["BOT_NAMES", "OUTSIDE", "BotName", "make_bot", "short_command"]

#: how an outside program's name begins
OUTSIDE = "cmd:"

#: our bots by level, weakest first
_LADDER: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "medium": MediumBot,
    # worlds played out by medium's rule of thumb, successive halving, exact endgame, the
    # heuristic's prior, under a CPU-time cap
    "hard": lambda: HalvingBot(
        "hard", worlds=HARD_WORLDS, eps=0.0, endgame_tiles=6, prior=0.5, playouts="medium",
        max_time=HARD_MAX_TIME,
    ),
    # hard's search on twice the worlds, drawn by how well they explain the others' plays
    "expert": lambda: HalvingBot(
        "expert", worlds=EXPERT_WORLDS, eps=0.0, endgame_tiles=6, prior=0.5, playouts="medium",
        max_time=EXPERT_MAX_TIME, infer=True,
    ),
    "cheat": CheatBot,
    # medium with the hand-set weights in every game (medium before 2026-12-07): the bot the
    # shipped training files were made with, and the positions medium's weights are fitted on
    "medium-hand": lambda: MediumBot(fitted=False),
    # hard's search seeing the other hands: today's ceiling (issue 27)
    "cheat-hard": CheatHardBot,
    # candidates with worlds drawn by the others' plays (issue 27), measured before adopted
    "hard-i": lambda: HalvingBot(
        "hard-i", worlds=GREEDY_WORLDS, eps=0.05, endgame_tiles=6, prior=0.5, infer=True
    ),
    "expert-i": lambda: IsmctsBot(
        "expert-i", iterations=EXPERT_ITERATIONS, eps=0.0, pool=400, endgame_tiles=6,
        prior=0.5, move_time=EXPERT_MOVE_TIME, infer=True,
    ),
    # candidates with the learned evaluation's one-ply values as the prior (issue 27)
    "hard-n": lambda: HalvingBot(
        "hard-n", worlds=GREEDY_WORLDS, eps=0.05, endgame_tiles=6, prior=0.5, hint="net"
    ),
    "expert-n": lambda: IsmctsBot(
        "expert-n", iterations=EXPERT_ITERATIONS, eps=0.0, pool=400, endgame_tiles=6,
        prior=0.5, move_time=EXPERT_MOVE_TIME, hint="net",
    ),
    # expert before 2026-12-07: information-set MCTS under a CPU-time budget (at least
    # EXPERT_ITERATIONS iterations), the README's rows before that day
    "expert-tree": lambda: IsmctsBot(
        "expert-tree", iterations=EXPERT_ITERATIONS, eps=0.0, pool=400, endgame_tiles=6,
        prior=0.5, move_time=EXPERT_MOVE_TIME,
    ),
    # hard before 2026-12-07: many worlds, greedy playouts (the README's rows before that day)
    "hard-greedy": lambda: HalvingBot(
        "hard-greedy", worlds=GREEDY_WORLDS, eps=0.05, endgame_tiles=6, prior=0.5
    ),
    # hard as it played before the core was compiled, to measure what the budget gained
    "hard-30x1500": lambda: SearchBot("hard-30x1500", worlds=30, budget=1500, eps=0.1, prior=0.5),
    # the baseline every search is measured against: plain PIMC, 200 worlds with simple voids,
    # one greedy playout of each action in each, best mean point margin
    "pimc": lambda: HalvingBot("pimc", worlds=200, eps=0.0, match_weight=0.0, halving=False),
    # hard as it was before the halving search (issue 15), for the README's comparisons
    "hard-old": lambda: SearchBot(
        "hard-old", worlds=OLD_HARD_WORLDS, budget=OLD_HARD_BUDGET, eps=0.1, prior=0.5
    ),
}

#: bots for measurement only: ``cheat`` and ``cheat-hard`` see other hands, ``hard-30x1500``
#: and ``hard-old`` are old searches, ``pimc`` the plain baseline, ``medium-hand`` medium before
_MEASUREMENT = ("cheat", "cheat-hard", "hard-30x1500", "pimc", "hard-old", "hard-i", "expert-i",
                "hard-n", "expert-n", "hard-greedy", "expert-tree", "medium-hand")

#: the levels people can pick, weakest first
BOT_NAMES: list[str] = [name for name in _LADDER if name not in _MEASUREMENT]


def short_command(command: str, limit: int = 28) -> str:
    """An outside bot's command line as a short name: its program's file name and arguments.

    >>> short_command("/usr/local/bin/fives bot easy")
    'fives bot easy'
    """
    try:
        argv = shlex.split(command)
    except ValueError:
        argv = command.split()
    if not argv:
        return command
    text = " ".join([os.path.basename(argv[0]), *argv[1:]])
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class BotName:
    """A bot's name, parsed: one of our levels, or an outside program and its command line."""

    text: str  # as written, ``hard`` or ``cmd:./mybot --fast``
    argv: tuple[str, ...] = ()  # an outside program's command line, split as a shell would

    @staticmethod
    def parse(text: str) -> BotName:
        """Read a bot's name; :class:`BotError` (quoting it) if it names no bot."""
        text = text.strip()
        if text.startswith(OUTSIDE):
            command = text[len(OUTSIDE) :].strip()
            try:
                argv = shlex.split(command)
            except ValueError as exc:
                raise BotError(
                    f"{text!r}: cannot read the command line: {exc}", key="bot_cmd_unreadable",
                    name=text,
                ) from None
            if not argv:
                raise BotError("'cmd:' needs a command line after it", key="bot_cmd_empty")
            return BotName(f"{OUTSIDE}{command}", tuple(argv))
        if text not in _LADDER:
            known = ", ".join([*BOT_NAMES, *_MEASUREMENT, "cmd:COMMAND"])
            raise BotError(
                f"unknown bot {text!r}: one of {known}", key="bot_unknown", name=text,
                known=known,
            )
        return BotName(text)

    def __repr__(self) -> str:
        return f"BotName.parse({self.text!r})"

    def __str__(self) -> str:
        return self.text

    @property
    def outside(self) -> bool:
        """Whether this is an outside program (``cmd:``) rather than one of our levels."""
        return bool(self.argv)

    @property
    def command(self) -> str:
        """An outside program's command line (empty for our levels)."""
        return self.text[len(OUTSIDE) :] if self.outside else ""

    def program_found(self) -> bool:
        """Whether an outside program can be started: a path that exists, or a name on PATH
        (our levels always can)."""
        if not self.outside:
            return True
        argv0 = self.argv[0]
        if os.sep in argv0 or (os.altsep and os.altsep in argv0):
            return os.path.exists(argv0)
        return shutil.which(argv0) is not None

    def short(self, limit: int = 28) -> str:
        """How the bot is shown: its level, or its program's short command line."""
        return short_command(self.command, limit) if self.outside else self.text

    def make(
        self, *, move_time: float = DEFAULT_MOVE_TIME, stderr: IO[str] | int | None = None
    ) -> Bot:
        """A new bot of this name (an outside program is started at its first decision).

        ``move_time`` bounds an outside program's answer, and caps the CPU time of our levels
        that search under a time budget or a time cap (``hard``, ``expert``)."""
        if self.outside:
            return ProcessBot(self.command, move_time=move_time, stderr=stderr)
        bot = _LADDER[self.text]()
        for field in ("move_time", "max_time"):  # a budget to spend, a cap not to pass
            budget = getattr(bot, field, 0.0)
            if budget > 0 and move_time < budget:
                setattr(bot, field, move_time)
        return bot

    def make_by_counts(self) -> Bot:
        """A new bot of this name that plays by counts alone, no clock: one of our levels with
        its time budget and cap off (the same seed gives the same play on any machine, as
        analyses, self-play and training need); an outside program as :meth:`make` makes it."""
        return self.make() if self.outside else self.make(move_time=0.0)


def make_bot(name: str) -> Bot:
    """A bot by name: one of ours, or ``cmd:COMMAND LINE`` for an outside program."""
    return BotName.parse(name).make()
