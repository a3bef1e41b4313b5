"""Bots online: an outside program plays on the site under a bot account (a token its owner
made on their profile), over a WebSocket, with the lines of BOT-PROTOCOL.md: the site sends
``act`` (and ``start``/``end``) and the bot answers ``{"action": ...}``, read by the same
parser as for a local program (:func:`fives.bots.protocol.read_answer`).

One connection plays one table at a time (the protocol's answers name no table): a table
books the bot (:meth:`OnlineBots.take`) before it opens, and frees it when the match ends or
the bot loses its seat. A bot that breaks the protocol (an answer that is not JSON, not an
action, not legal, or none within the move time) is disconnected, and its seat is played by
our ``easy`` bot from then on.

:class:`OnlineBots` is one process's registry (and its sockets); in a cluster
:class:`fives.server.cluster.bots.ClusterBots` shares the registry and the bookings over
Redis, and asks a bot wherever its socket is (docs/online-bots.md).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
from asyncio import Future, get_running_loop, shield, wait_for
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fives.bots.protocol import BotFault, act_message, end_message, read_answer, start_message
from fives.core.tiles import Action
from fives.core.view import View
from fives.store.players import StoredPlayer

__all__ = ["MOVE_TIME", "OnlineBot", "OnlineBots", "Superseded", "Unreachable", "is_outside",
           "line_of", "tell_line"]

log = logging.getLogger("fives.server")

#: seconds an online bot may take to answer one ``act``
MOVE_TIME = 10.0
#: the close code of a bot disconnected for breaking the protocol
BROKE_PROTOCOL = 4400
#: the close code of a connection replaced by a newer one of the same account
REPLACED = 4409

_serials = itertools.count(1)


class Unreachable(RuntimeError):
    """The registry of bots online cannot be reached now (a cluster without Redis): nothing
    about a bot can be known or booked."""


class Superseded(Exception):
    """A question to a bot was overtaken by a newer one to the same connection (its table
    moved to another process, whose owner asked again): the bot's answer goes to the newer,
    and the older asks nothing of it."""


def is_outside(player_id: str | None) -> bool:
    """Whether a seat's player is a bot account (their ids begin with "o"; people's "p", our
    levels' "bot-")."""
    return bool(player_id) and str(player_id).startswith("o")


@dataclass
class OnlineBot:
    """One bot's connection to this process."""

    player: StoredPlayer
    send: Callable[[str], Awaitable[None]]
    close: Callable[[int, str], Awaitable[None]]
    table: str | None = None  # the table it plays now (alone; a cluster books in Redis)
    answer: Future[str] | None = None  # the answer awaited, if a question is out
    #: this connection among all of this process's (a reconnect is another)
    serial: int = field(default_factory=lambda: next(_serials))

    def listing(self) -> dict[str, Any]:
        """What the lobby shows of it (with ``busy``, added by the registry)."""
        return {"id": self.player.id, "name": self.player.name, "tag": self.player.tag,
                "label": self.player.label}


class OnlineBots:
    """The bots connected to this process; alone, the registry of every bot online."""

    def __init__(self, move_time: float = MOVE_TIME) -> None:
        self.move_time = move_time
        self.bots: dict[str, OnlineBot] = {}

    # -- the registry (what a cluster shares) -----------------------------------------------

    async def listed(self) -> list[dict[str, Any]]:
        """Every bot online, each with whether it plays a match now."""
        return [{**b.listing(), "busy": b.table is not None} for b in self.bots.values()]

    async def take(self, bot_id: str, table_id: str) -> str | None:
        """Book the bot for ``table_id`` if it is online and free (or booked there already):
        None, or the refusal's code (``bot_offline``, ``bot_busy``)."""
        bot = self.bots.get(bot_id)
        if bot is None:
            return "bot_offline"
        if bot.table not in (None, table_id):
            return "bot_busy"
        bot.table = table_id
        return None

    async def free(self, bot_id: str, table_id: str) -> None:
        """The table lets the bot go (its match ended, or the bot lost the seat); a booking
        by another table stays."""
        bot = self.bots.get(bot_id)
        if bot is not None and bot.table == table_id:
            bot.table = None

    async def ask(self, bot_id: str, table_id: str, view: View) -> Action:
        """The bot's action; :class:`BotFault` if it is gone, not booked for this table, or
        breaks the protocol (then it is disconnected)."""
        bot = self.bots.get(bot_id)
        if bot is None or bot.table != table_id:
            raise BotFault("exit", "the bot is not connected")
        return await self.ask_here(bot, view)

    async def tell(self, bot_id: str, table_id: str, view: View, kind: str) -> None:
        """A ``start`` or ``end`` line (a bot that is gone hears nothing)."""
        bot = self.bots.get(bot_id)
        if bot is not None and bot.table == table_id:
            await self.say(bot, tell_line(view, kind))

    # -- this process's sockets --------------------------------------------------------------

    async def connect(self, bot: OnlineBot) -> OnlineBot | None:
        """A bot's connection; the one it replaces (a reconnect), if any."""
        old = self.bots.get(bot.player.id)
        self.bots[bot.player.id] = bot
        if old is not None:
            bot.table = old.table
        return old

    async def disconnect(self, bot: OnlineBot) -> None:
        self.forget(bot)

    def forget(self, bot: OnlineBot) -> None:
        """This connection is gone: off the list, and the question out answered with a fault."""
        if self.bots.get(bot.player.id) is bot:
            del self.bots[bot.player.id]
        if bot.answer is not None and not bot.answer.done():
            bot.answer.set_exception(BotFault("exit", "the bot disconnected"))

    def heard(self, bot: OnlineBot, line: str) -> None:
        """A line from the bot: the answer to the question out; a line that answers nothing is
        stale (the protocol lets a host ignore it)."""
        if bot.answer is not None and not bot.answer.done():
            bot.answer.set_result(line)

    async def question(self, bot: OnlineBot, line: str) -> str:
        """Send an ``act`` line and return the bot's answer line as it came; :class:`BotFault`
        if none comes within the move time or the bot goes (not disconnected here);
        :class:`Superseded` if another question to it overtakes this one."""
        if bot.answer is not None and not bot.answer.done():
            bot.answer.set_exception(Superseded())
        answer = bot.answer = get_running_loop().create_future()
        try:
            await bot.send(line)
            return await wait_for(shield(answer), self.move_time)
        except TimeoutError:
            raise BotFault("timeout", f"no answer within {self.move_time:g} s") from None
        except (BotFault, Superseded):
            raise
        except Exception as exc:  # the socket failed
            raise BotFault("exit", repr(exc)) from None
        finally:
            if bot.answer is answer:
                bot.answer = None

    async def ask_here(self, bot: OnlineBot, view: View) -> Action:
        """Ask a bot connected here: its action, or :class:`BotFault` (then it is
        disconnected)."""
        try:
            return read_answer(await self.question(bot, line_of(act_message(view))), view.legal)
        except BotFault as fault:
            await self.drop(bot, fault)
            raise

    async def say(self, bot: OnlineBot, line: str) -> None:
        """A line the bot need not answer (lost if its socket fails)."""
        with contextlib.suppress(Exception):
            await bot.send(line)

    async def drop(self, bot: OnlineBot, fault: BotFault) -> None:
        """Disconnect a bot that broke the protocol, saying why."""
        log.warning("online bot %s disconnected: %s", bot.player.id, fault)
        await self.disconnect(bot)
        with contextlib.suppress(Exception):
            await bot.send(line_of({"type": "error", "code": fault.kind,
                                    "message": fault.detail}))
            await bot.close(BROKE_PROTOCOL, fault.kind)


def tell_line(view: View, kind: str) -> str:
    """The ``start`` or ``end`` line of a seat's view."""
    return line_of(start_message(view) if kind == "start" else end_message(view))


def line_of(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
