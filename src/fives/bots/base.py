"""The bot interface.

A bot receives a seat's :class:`~fives.core.view.View` (its legal actions included) and its own
seeded random source, and returns one of the legal actions. Given the same seed and the same
views, a bot makes the same choices.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from fives.core.tiles import Action
from fives.core.view import View

__all__ = ["Bot", "BotError"]


class BotError(ValueError):
    """An unknown bot name or a bad bot option; ``key`` and ``params`` name it for translation."""

    def __init__(self, message: str, key: str = "bot_error", **params: object) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


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
