"""Bots online: an outside program plays on the site under a bot account (a token its owner
made on their profile), over a WebSocket, with the lines of BOT-PROTOCOL.md: the site sends
``act`` (and ``start``/``end``) and the bot answers ``{"action": ...}``, read by the same
parser as for a local program (:func:`fives.bots.protocol._read_answer`).

One connection plays one table at a time (the protocol's answers name no table). A bot that
breaks the protocol (an answer that is not JSON, not an action, not legal, or none within the
move time) is disconnected, and its seat is played by our ``easy`` bot from then on.

The registry is this process's: in a cluster a bot is challenged on the process it is
connected to (docs/online-bots.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fives.bots.protocol import BotFault, act_message, end_message, read_answer, start_message
from fives.core.tiles import Action
from fives.core.view import View
from fives.store.players import StoredPlayer

__all__ = ["MOVE_TIME", "OnlineBot", "OnlineBots", "is_outside"]

log = logging.getLogger("fives.server")

#: seconds an online bot may take to answer one ``act``
MOVE_TIME = 10.0
#: the close code of a bot disconnected for breaking the protocol
BROKE_PROTOCOL = 4400


def is_outside(player_id: str | None) -> bool:
    """Whether a seat's player is a bot account (their ids begin with "o"; people's "p", our
    levels' "bot-")."""
    return bool(player_id) and str(player_id).startswith("o")


@dataclass
class OnlineBot:
    player: StoredPlayer
    send: Callable[[str], Awaitable[None]]
    close: Callable[[int, str], Awaitable[None]]
    table: str | None = None  # the table it plays now
    answer: asyncio.Future[str] | None = None  # the answer awaited, if a question is out


class OnlineBots:
    def __init__(self, move_time: float = MOVE_TIME) -> None:
        self.move_time = move_time
        self.bots: dict[str, OnlineBot] = {}

    def listed(self) -> list[dict[str, Any]]:
        return [{"id": b.player.id, "name": b.player.name, "tag": b.player.tag,
                 "label": b.player.label, "busy": b.table is not None}
                for b in self.bots.values()]

    def connect(self, bot: OnlineBot) -> OnlineBot | None:
        """A bot's connection; the one it replaces (a reconnect), if any."""
        old = self.bots.get(bot.player.id)
        self.bots[bot.player.id] = bot
        if old is not None:
            bot.table = old.table
        return old

    def disconnect(self, bot: OnlineBot) -> None:
        if self.bots.get(bot.player.id) is bot:
            del self.bots[bot.player.id]
        if bot.answer is not None and not bot.answer.done():
            bot.answer.set_exception(BotFault("exit", "the bot disconnected"))

    def heard(self, bot: OnlineBot, line: str) -> None:
        """A line from the bot: the answer to the question out; a line that answers nothing is
        stale (the protocol lets a host ignore it)."""
        if bot.answer is not None and not bot.answer.done():
            bot.answer.set_result(line)

    def take(self, bot_id: str, table_id: str) -> None:
        """The bot plays at ``table_id`` now (a challenge accepted)."""
        bot = self.bots.get(bot_id)
        if bot is not None:
            bot.table = table_id

    def free(self, bot_id: str, table_id: str) -> None:
        bot = self.bots.get(bot_id)
        if bot is not None and bot.table == table_id:
            bot.table = None

    def playing(self, bot_id: str, table_id: str) -> OnlineBot | None:
        bot = self.bots.get(bot_id)
        return bot if bot is not None and bot.table == table_id else None

    async def ask(self, bot_id: str, table_id: str, view: View) -> Action:
        """The bot's action; :class:`BotFault` if it is gone or breaks the protocol (then it
        is disconnected)."""
        bot = self.playing(bot_id, table_id)
        if bot is None:
            raise BotFault("exit", "the bot is not connected")
        bot.answer = asyncio.get_running_loop().create_future()
        try:
            await bot.send(_line(act_message(view)))
            line = await asyncio.wait_for(asyncio.shield(bot.answer), self.move_time)
            return read_answer(line, view.legal)
        except TimeoutError:
            fault = BotFault("timeout", f"no answer within {self.move_time:g} s")
        except BotFault as exc:
            fault = exc
        except Exception as exc:  # the socket failed
            fault = BotFault("exit", repr(exc))
        finally:
            bot.answer = None
        await self.drop(bot, fault)
        raise fault

    async def tell(self, bot_id: str, table_id: str, view: View, kind: str) -> None:
        """A ``start`` or ``end`` line (a bot that is gone hears nothing)."""
        bot = self.playing(bot_id, table_id)
        if bot is None:
            return
        message = start_message(view) if kind == "start" else end_message(view)
        with contextlib.suppress(Exception):
            await bot.send(_line(message))

    async def drop(self, bot: OnlineBot, fault: BotFault) -> None:
        """Disconnect a bot that broke the protocol, saying why."""
        log.warning("online bot %s disconnected: %s", bot.player.id, fault)
        self.disconnect(bot)
        with contextlib.suppress(Exception):
            await bot.send(_line({"type": "error", "code": fault.kind, "message": fault.detail}))
            await bot.close(BROKE_PROTOCOL, fault.kind)


def _line(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
