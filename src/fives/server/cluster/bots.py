"""Bots online across the cluster: a bot's WebSocket reaches one process, but every process
lists it, books it for a table, and asks it at the tables it owns.

Redis keys (all under ``fives:``):

- ``obot:at:<bot>``: the process holding the bot's socket and that connection's number there
  (``"<process> <serial>"``), refreshed every second while connected, deleted when it goes;
  a process that died is filtered out by its lease (``proc:<id>``);
- ``obots:<process>``: the lobby's fields (id, name, tag, label) of the bots connected there;
- ``obot:busy:<bot>``: the table the bot plays; taken only when free (the check and the write
  in one script), freed only by that table, refreshed at every question so that it lapses
  only under a table nobody plays (``BUSY_TTL``).

A table's owner asks the bot where its socket is: itself, or over the bus (``obot_ask`` with
a question id; the holding process sends the line, waits at most the move time and answers
``obot_answer`` with the raw line or ``obot_fault``). The owner reads the answer with
:func:`fives.bots.protocol.read_answer` as for a local bot; a bad answer makes it tell the
holder ``obot_drop``, which disconnects the bot as a local fault does. ``start``/``end``
lines go as ``obot_tell``; a connection replaced by a newer one at another process is told
``obot_replaced`` (closed with 4409).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import weakref
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from fives.bots.protocol import BotFault, act_message, read_answer
from fives.core.tiles import Action
from fives.core.view import View
from fives.server.cluster.bus import Bus
from fives.server.online_bots import (
    MOVE_TIME,
    REPLACED,
    OnlineBot,
    OnlineBots,
    Superseded,
    Unreachable,
    line_of,
    tell_line,
)

__all__ = ["BUSY_TTL", "BUS_MARGIN", "ClusterBots"]

log = logging.getLogger("fives.cluster")

#: seconds a booking outlives the table's last question to the bot (a table nobody plays)
BUSY_TTL = 3600
#: seconds the owner waits beyond the move time for an answer over the bus
BUS_MARGIN = 2.0

# The process part of an ``obot:at`` value, and whether that process is alive.
_HOLDER = """
local function holder(at)
  if not at then return nil end
  local proc = string.match(at, '^(%S+)')
  if proc and redis.call('EXISTS', 'fives:proc:' .. proc) == 1 then return proc end
  return nil
end
"""

# Book the bot (KEYS: busy, at) for a table (ARGV: table, ttl ms) if it is online and free.
_TAKE = _HOLDER + """
if not holder(redis.call('GET', KEYS[2])) then return 'bot_offline' end
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return 'bot_busy' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ''
"""

# Whom to ask at a table (KEYS: busy, at; ARGV: table, ttl ms): nil if the bot is not booked
# there, '' if it is not connected, else its connection ("<process> <serial>"); the booking
# is renewed.
_PLAYING = _HOLDER + """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local at = redis.call('GET', KEYS[2])
if holder(at) then return at end
return ''
"""

# A new connection (KEYS: at; ARGV: value, ttl ms): the one it replaces, if any.
_CONNECT = """
local old = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return old
"""

# Renew a connection (KEYS: at; ARGV: value, ttl ms) unless a newer one (at a live process)
# holds the bot: 1 renewed, 0 replaced.
_RENEW = _HOLDER + """
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] and holder(cur) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

# Delete a key if it holds the value (a booking freed by its table, a connection gone).
_DELETE_IF = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _at(bot_id: str) -> str:
    return f"fives:obot:at:{bot_id}"


def _busy(bot_id: str) -> str:
    return f"fives:obot:busy:{bot_id}"


def _listed(process: str) -> str:
    return f"fives:obots:{process}"


class ClusterBots(OnlineBots):
    """The bots online of the whole cluster, as one process sees them: the sockets held here
    (as :class:`OnlineBots` holds them alone) and the registry and bookings in Redis."""

    def __init__(self, redis: Redis, bus: Bus, me: str, ttl: float,
                 move_time: float = MOVE_TIME) -> None:
        super().__init__(move_time)
        self.redis = redis
        self.bus = bus
        self.me = me
        self.ttl_ms = int(ttl * 1000)  # of a connection's keys, refreshed every second
        self._questions: dict[str, asyncio.Future[dict[str, Any]]] = {}  # asked elsewhere
        # one question or line at a time per bot, in the order the table said them (a start
        # line never overtakes the act after it)
        self._order: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self._tasks: set[asyncio.Task[None]] = set()
        self._none_published = False  # the last list published was empty
        self._take = redis.register_script(_TAKE)
        self._playing = redis.register_script(_PLAYING)
        self._connect = redis.register_script(_CONNECT)
        self._renew = redis.register_script(_RENEW)
        self._delete_if = redis.register_script(_DELETE_IF)

    def _value(self, bot: OnlineBot) -> str:
        return f"{self.me} {bot.serial}"

    def _lock(self, bot_id: str) -> asyncio.Lock:
        lock = self._order.get(bot_id)
        if lock is None:
            lock = self._order[bot_id] = asyncio.Lock()
        return lock

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the registry ------------------------------------------------------------------------

    async def listed(self) -> list[dict[str, Any]]:
        try:
            procs = sorted(str(p) for p in await self.redis.smembers("fives:procs"))
            async with self.redis.pipeline(transaction=False) as pipe:
                for proc in procs:
                    pipe.exists(f"fives:proc:{proc}")
                    pipe.get(_listed(proc))
                replies = await pipe.execute()
            entries: list[tuple[str, dict[str, Any]]] = []
            for i, proc in enumerate(procs):
                if replies[2 * i] and replies[2 * i + 1]:
                    with contextlib.suppress(ValueError, TypeError):
                        entries.extend((proc, e) for e in json.loads(replies[2 * i + 1])
                                       if isinstance(e, dict) and isinstance(e.get("id"), str))
            ids = sorted({e["id"] for _, e in entries})
            if not ids:
                return []
            at = await self.redis.mget([_at(i) for i in ids])
            busy = await self.redis.mget([_busy(i) for i in ids])
        except RedisError as exc:
            raise Unreachable(f"the bots online cannot be listed: {exc}") from None
        holder = {i: str(a).split(" ")[0] for i, a in zip(ids, at) if a}
        booked = {i for i, b in zip(ids, busy) if b}
        out: dict[str, dict[str, Any]] = {}
        for proc, entry in entries:  # each bot once, as the process holding it lists it
            if holder.get(entry["id"]) == proc and entry["id"] not in out:
                out[entry["id"]] = {**entry, "busy": entry["id"] in booked}
        return list(out.values())

    async def take(self, bot_id: str, table_id: str) -> str | None:
        try:
            refusal = await self._take(keys=[_busy(bot_id), _at(bot_id)],
                                       args=[table_id, BUSY_TTL * 1000])
        except RedisError as exc:
            raise Unreachable(f"bot {bot_id} cannot be booked: {exc}") from None
        return str(refusal) or None

    async def free(self, bot_id: str, table_id: str) -> None:
        try:
            await self._delete_if(keys=[_busy(bot_id)], args=[table_id])
        except RedisError as exc:
            raise Unreachable(f"bot {bot_id} cannot be freed: {exc}") from None

    async def _where(self, bot_id: str, table_id: str) -> tuple[str, int]:
        """The bot's connection (process, serial) if it is booked for the table and connected;
        else :class:`BotFault`."""
        try:
            at = await self._playing(keys=[_busy(bot_id), _at(bot_id)],
                                     args=[table_id, BUSY_TTL * 1000])
        except RedisError as exc:
            raise Unreachable(f"bot {bot_id} cannot be found: {exc}") from None
        if at is None:
            raise BotFault("exit", "the bot plays at another table now")
        proc, _, serial = str(at).partition(" ")
        if not proc or not serial.isdigit():
            raise BotFault("exit", "the bot is not connected")
        return proc, int(serial)

    async def ask(self, bot_id: str, table_id: str, view: View) -> Action:
        async with self._lock(bot_id):
            proc, serial = await self._where(bot_id, table_id)
            if proc == self.me:
                bot = self.bots.get(bot_id)
                if bot is None or bot.serial != serial:
                    raise BotFault("exit", "the bot is not connected")
                return await self.ask_here(bot, view)
            return await self._ask_elsewhere(proc, serial, bot_id, view)

    async def _ask_elsewhere(self, proc: str, serial: int, bot_id: str, view: View) -> Action:
        """Ask the bot through the process holding its socket, and read its answer here."""
        qid = secrets.token_hex(8)
        reply = self._questions[qid] = asyncio.get_running_loop().create_future()
        self.bus.send(proc, {"k": "obot_ask", "q": qid, "bot": bot_id, "c": serial,
                             "x": line_of(act_message(view)), "from": self.me})
        try:
            answer = await asyncio.wait_for(reply, self.move_time + BUS_MARGIN)
        except TimeoutError:  # the holder is gone, or the bus lost a message
            fault = BotFault("timeout", f"no answer within {self.move_time:g} s")
            self._drop_elsewhere(proc, serial, bot_id, fault)
            raise fault from None
        finally:
            self._questions.pop(qid, None)
        if answer.get("k") == "obot_fault":  # the holder disconnected it already
            raise BotFault(str(answer.get("kind") or "exit"), str(answer.get("detail") or ""))
        try:
            return read_answer(str(answer.get("x") or ""), view.legal)
        except BotFault as fault:
            self._drop_elsewhere(proc, serial, bot_id, fault)
            raise

    def _drop_elsewhere(self, proc: str, serial: int, bot_id: str, fault: BotFault) -> None:
        log.warning("online bot %s at %s broke the protocol: %s", bot_id, proc, fault)
        self.bus.send(proc, {"k": "obot_drop", "bot": bot_id, "c": serial, "kind": fault.kind,
                             "detail": fault.detail})

    async def tell(self, bot_id: str, table_id: str, view: View, kind: str) -> None:
        async with self._lock(bot_id):
            try:
                proc, serial = await self._where(bot_id, table_id)
            except (BotFault, Unreachable):
                return  # a bot that is gone (or out of reach) hears nothing
            if proc != self.me:
                self.bus.send(proc, {"k": "obot_tell", "bot": bot_id, "c": serial,
                                     "x": tell_line(view, kind)})
                return
            bot = self.bots.get(bot_id)
            if bot is not None and bot.serial == serial:
                await self.say(bot, tell_line(view, kind))

    # -- this process's sockets --------------------------------------------------------------

    async def connect(self, bot: OnlineBot) -> OnlineBot | None:
        try:
            replaced = await self._connect(keys=[_at(bot.player.id)],
                                           args=[self._value(bot), self.ttl_ms])
        except RedisError as exc:
            raise Unreachable(f"bot {bot.player.id} cannot be registered: {exc}") from None
        old = await super().connect(bot)
        proc, _, serial = str(replaced or "").partition(" ")
        if proc and proc != self.me and serial.isdigit():
            self.bus.send(proc, {"k": "obot_replaced", "bot": bot.player.id, "c": int(serial)})
        await self.publish()
        return old

    async def disconnect(self, bot: OnlineBot) -> None:
        self.forget(bot)
        with contextlib.suppress(RedisError):  # else its key lapses within the ttl
            await self._delete_if(keys=[_at(bot.player.id)], args=[self._value(bot)])
        await self.publish()

    async def publish(self) -> None:
        """This process's bots for the others' lobbies, and each one's connection renewed;
        a connection replaced by a newer one elsewhere (whose notice was lost) is closed."""
        bots = list(self.bots.values())
        if not bots and self._none_published:
            return  # nobody to list, and the others know it
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for bot in bots:
                    await self._renew(keys=[_at(bot.player.id)],
                                      args=[self._value(bot), self.ttl_ms], client=pipe)
                pipe.set(_listed(self.me), json.dumps([b.listing() for b in bots]),
                         px=self.ttl_ms)
                renewed = await pipe.execute()
        except RedisError as exc:
            log.warning("bots online not published (%s)", exc)
            return
        self._none_published = not bots
        for bot, kept in zip(bots, renewed):
            if not kept:
                self._spawn(self._replaced(bot))

    async def refresh(self) -> None:
        """Publish every second, for as long as the process lives."""
        while True:
            await asyncio.sleep(1.0)
            try:
                await self.publish()
            except Exception:
                log.exception("bots online: publishing failed")

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(RedisError, OSError):
            await self.redis.delete(_listed(self.me))

    async def _replaced(self, bot: OnlineBot) -> None:
        self.forget(bot)
        with contextlib.suppress(Exception):
            await bot.close(REPLACED, "replaced by a newer connection")

    # -- the bus -------------------------------------------------------------------------------

    def receive(self, message: dict[str, Any]) -> None:
        """A message about bots online from another process (the bus listener never waits:
        whatever takes time runs as a task of its own)."""
        kind = message.get("k")
        if kind in ("obot_answer", "obot_fault"):
            reply = self._questions.get(str(message.get("q")))
            if reply is not None and not reply.done():
                reply.set_result(message)
            return
        bot = self.bots.get(str(message.get("bot")))
        if bot is not None and bot.serial != message.get("c"):
            bot = None  # a connection that is gone: its successor is not the one meant
        if kind == "obot_ask":
            self._spawn(self._answer(bot, message))
        elif bot is None:
            return
        elif kind == "obot_tell":
            self._spawn(self.say(bot, str(message.get("x") or "")))
        elif kind == "obot_drop":
            fault = BotFault(str(message.get("kind") or "garbage"),
                             str(message.get("detail") or ""))
            self._spawn(self.drop(bot, fault))
        elif kind == "obot_replaced":
            self._spawn(self._replaced(bot))

    async def _answer(self, bot: OnlineBot | None, message: dict[str, Any]) -> None:
        """Ask a bot connected here for a table owned elsewhere; the raw answer, or the fault
        (then the bot is disconnected), goes back to the owner."""
        owner, qid = str(message.get("from")), message.get("q")
        if bot is None:
            self.bus.send(owner, {"k": "obot_fault", "q": qid, "kind": "exit",
                                  "detail": "the bot is not connected"})
            return
        try:
            line = await self.question(bot, str(message.get("x") or ""))
        except Superseded:  # the table asked again (a takeover): the newer question answers
            return
        except BotFault as fault:
            await self.drop(bot, fault)
            self.bus.send(owner, {"k": "obot_fault", "q": qid, "kind": fault.kind,
                                  "detail": fault.detail})
            return
        self.bus.send(owner, {"k": "obot_answer", "q": qid, "x": line})
