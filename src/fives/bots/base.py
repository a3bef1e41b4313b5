"""The bot interface and the registry of our bots.

A bot receives a seat's :class:`~fives.core.view.View` (its legal actions included) and its own
seeded random source, and returns one of the legal actions. Given the same seed and the same
views, a bot makes the same choices.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable

from fives.core.tiles import Action
from fives.core.view import View

__all__ = ["BOT_NAMES", "Bot", "BotError", "make_bot", "register_bot"]


class BotError(ValueError):
    """An unknown bot name or a bad bot option."""


class Bot(ABC):
    """Chooses actions for one seat."""

    name: str = "bot"

    @abstractmethod
    def choose(self, view: View, rng: random.Random) -> Action:
        """One of ``view.legal``."""

    def values(self, view: View, rng: random.Random) -> dict[Action, float]:
        """Estimated value of each legal action (higher is better); bots that search say more.

        The default ranks the chosen action first and the rest equal.
        """
        choice = self.choose(view, rng)
        return {a: (1.0 if a == choice else 0.0) for a in view.legal}

    def close(self) -> None:  # noqa: B027 (optional hook, most bots hold nothing)
        """Release what the bot holds (a process, for outside bots)."""


_FACTORIES: dict[str, Callable[[], Bot]] = {}
#: the names players can pick, weakest first (``cheat`` is for measurement only)
BOT_NAMES: list[str] = []


def register_bot(name: str, factory: Callable[[], Bot], offered: bool = True) -> None:
    _FACTORIES[name] = factory
    if offered and name not in BOT_NAMES:
        BOT_NAMES.append(name)


def make_bot(name: str) -> Bot:
    """A bot by name: one of ours, or ``cmd:COMMAND LINE`` for an outside program."""
    _load_builtin()
    if name.startswith("cmd:"):
        from fives.bots.protocol import ProcessBot

        command = name[4:].strip()
        if not command:
            raise BotError("'cmd:' needs a command line after it")
        return ProcessBot(command)
    try:
        return _FACTORIES[name]()
    except KeyError:
        known = ", ".join([*BOT_NAMES, "cheat", "cmd:COMMAND"])
        raise BotError(f"unknown bot {name!r}: one of {known}") from None


_loaded = False


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from fives.bots import ladder  # noqa: F401  (registers the ladder)
