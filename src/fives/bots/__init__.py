"""Bots: programs that choose an action from a seat's view (never from the full state)."""

from fives.bots.base import Bot, BotError
from fives.bots.registry import BOT_NAMES, BotName, make_bot

__all__ = ["BOT_NAMES", "Bot", "BotError", "BotName", "make_bot"]
