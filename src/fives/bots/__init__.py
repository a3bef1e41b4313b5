"""Bots: programs that choose an action from a seat's view (never from the full state)."""

from fives.bots.base import BOT_NAMES, Bot, BotError, make_bot

__all__ = ["BOT_NAMES", "Bot", "BotError", "make_bot"]
