"""The quick pairing queue of a cluster, in Redis: every process takes joins, polls, declines,
accepts and leaves, and one process at a time (the leader) matches every ticket, so that two
players queued at different processes are paired at one table.

Redis keys (all under ``fives:queue:``):

- ``t:<id>``: a ticket, a hash whose fields are written one by one (a poll's ``seen`` never
  clobbers the leader's ``offer`` nor a seating's ``table`` and ``token``), each write only
  to a ticket that still exists (a late write never brings back a ticket that left), and each
  refreshing its expiry (:data:`KEEP`), so that leftovers vanish even with no leader;
- ``ids``: the set of tickets; ``player:<player>``: a player's latest ticket, so that a
  second join, at any process, gives back their waiting one (the check and the join are one
  script: two joins at once still make one ticket);
- ``leader``: the process that matches (a lease of ``lease`` seconds renewed by its holder
  only; when the holder dies another process takes it once it lapses);
- ``claim:<id>``: a ticket being seated. A group is claimed all or none, and only if no
  ticket of it is claimed, matched or gone: a player accepting bots at one process while the
  leader groups them with someone gets one table, never two. A claim is let go once the
  table is noted on the tickets, or when seating failed; one left behind lapses
  (:data:`CLAIM`);
- ``stir``: a count of joins, writes and leaves, so that a leader with nothing new to match
  reads one key a tick rather than every ticket (:meth:`RedisBook.due`).

Times are Redis's clock: a ticket's ``since`` is read by other processes, whose hosts' clocks
may differ. Each process reads Redis's ``TIME`` with every try for the lease (four times a
lease) and keeps the difference from its own clock (:meth:`RedisBook.now`).
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, replace
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from fives.server.cluster.remote import ClusterDown
from fives.server.tickets import STALE, Ticket
from fives.store.players import StoredPlayer

__all__ = ["CLAIM", "KEEP", "PREFIX", "RedisBook"]

PREFIX = "fives:queue:"
IDS = PREFIX + "ids"
LEADER = PREFIX + "leader"
STIR = PREFIX + "stir"
#: seconds between the leader's passes when nothing was written (windows widen, offers and
#: staleness come with time: a second late at most)
QUIET_PASS = 1.0
#: seconds a ticket's keys outlive its last write (the leader drops it after STALE)
KEEP = 2 * STALE
#: seconds a claim is held at most (seating a table takes milliseconds)
CLAIM = 30.0

# Refresh the ticket's expiry, and its player's key while it names this ticket.
_REFRESH = """
local function refresh(key, id, ttl)
  redis.call('PEXPIRE', key, ttl)
  local pid = redis.call('HGET', key, 'pid')
  if pid then
    local pk = 'fives:queue:player:' .. pid
    if redis.call('GET', pk) == id then redis.call('PEXPIRE', pk, ttl) end
  end
end
"""

# Count a change the leader's next pass should see (see RedisBook.due).
_STIR = """
local function stir(ttl)
  redis.call('INCR', 'fives:queue:stir')
  redis.call('PEXPIRE', 'fives:queue:stir', ttl)
end
"""

# Forget a ticket (its hash, its id in the set, its player's pointer to it if it is theirs).
_FORGET = """
local function forget(key, ids, id)
  local pid = redis.call('HGET', key, 'pid')
  redis.call('DEL', key)
  redis.call('SREM', ids, id)
  if pid then
    local pk = 'fives:queue:player:' .. pid
    if redis.call('GET', pk) == id then redis.call('DEL', pk) end
  end
end
"""

# KEYS: player key, ticket key, ids. ARGV: id, ttl, then the ticket's fields and values.
# The player's waiting ticket if they have one (the whole hash), else this one, kept (its id).
_JOIN = _STIR + """
local held = redis.call('GET', KEYS[1])
if held then
  local key = 'fives:queue:t:' .. held
  if redis.call('EXISTS', key) == 1 and redis.call('HEXISTS', key, 'table') == 0 then
    return redis.call('HGETALL', key)
  end
end
redis.call('HSET', KEYS[2], unpack(ARGV, 3))
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
stir(ARGV[2])
return ARGV[1]
"""

# KEYS: ticket. ARGV: id, ttl, player, seen. The ticket if it is the player's, marked seen.
_TOUCH = _REFRESH + """
if redis.call('HGET', KEYS[1], 'pid') ~= ARGV[3] then return false end
redis.call('HSET', KEYS[1], 'seen', ARGV[4])
refresh(KEYS[1], ARGV[1], ARGV[2])
return redis.call('HGETALL', KEYS[1])
"""

# KEYS: ticket. ARGV: id, ttl, then fields and values ('': the field is deleted).
_WRITE = _REFRESH + _STIR + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 3, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[1], ARGV[i])
  else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
refresh(KEYS[1], ARGV[1], ARGV[2])
stir(ARGV[2])
return 1
"""

# KEYS: ticket. ARGV: id, ttl, offer_at as read, the offer. Only to a ticket still waiting
# whose offer time is the one read (a decline meanwhile moved it).
_OFFER = _REFRESH + """
if redis.call('HEXISTS', KEYS[1], 'table') == 1
   or redis.call('HGET', KEYS[1], 'offer_at') ~= ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], 'offer', ARGV[4])
refresh(KEYS[1], ARGV[1], ARGV[2])
return 1
"""

# KEYS: ticket, ids. ARGV: id, the seen it must still hold ('': any), ttl.
_REMOVE = _STIR + _FORGET + """
if ARGV[2] ~= '' and redis.call('HGET', KEYS[1], 'seen') ~= ARGV[2] then return 0 end
forget(KEYS[1], KEYS[2], ARGV[1])
stir(ARGV[3])
return 1
"""

# KEYS: ticket, ids, its claim key. ARGV: id, ttl. The ticket is forgotten unless it is matched
# or claimed (1), else kept (0).
_WITHDRAW = _STIR + _FORGET + """
if redis.call('EXISTS', KEYS[3]) == 1 or redis.call('HEXISTS', KEYS[1], 'table') == 1 then
  return 0
end
forget(KEYS[1], KEYS[2], ARGV[1])
stir(ARGV[2])
return 1
"""

# KEYS: the tickets' claim keys, then the tickets. ARGV: the claim, ttl. All or none.
_CLAIM = """
local n = #KEYS / 2
for i = 1, n do
  local t = KEYS[n + i]
  if redis.call('EXISTS', KEYS[i]) == 1 or redis.call('EXISTS', t) == 0
     or redis.call('HEXISTS', t, 'table') == 1 then return 0 end
end
for i = 1, n do redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2]) end
return 1
"""

# KEYS: claim keys. ARGV: the claim. Only this claim's keys are deleted.
_RELEASE = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 1
"""

# KEYS: leader. ARGV: this process, ttl. Renewed by its holder, else taken if free. Returns
# whether it leads, and Redis's clock (seconds, microseconds), read after any write.
_LEAD = """
local leads = 1
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2])
elseif cur then leads = 0
else redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
local now = redis.call('TIME')
return {leads, now[1], now[2]}
"""

_RESIGN = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


def _key(ticket_id: str) -> str:
    return f"{PREFIX}t:{ticket_id}"


def _claim_key(ticket_id: str) -> str:
    return f"{PREFIX}claim:{ticket_id}"


def _encode(ticket: Ticket, name: str) -> str:
    """One field as Redis keeps it ('' for none: the field is absent)."""
    value = getattr(ticket, name)
    if name == "player":
        return json.dumps(asdict(value), ensure_ascii=False)
    if value is None:
        return ""
    if name == "offer":
        return json.dumps(value)
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(value)  # read back exactly (a guard compares the text)
    return str(value)


#: every field of a new ticket ("pid" beside them: the scripts check whose it is)
FIELDS = ("id", "player", "browser", "addr", "game", "players", "rated", "mu", "since", "seen",
          "offer_at", "offer", "table", "token", "matched_at")


def _decode(row: dict[str, str]) -> Ticket | None:
    try:
        return Ticket(
            row["id"], StoredPlayer(**json.loads(row["player"])), row.get("browser") or None,
            row["addr"], row["game"], int(row["players"]), row["rated"] == "1",
            float(row["mu"]), float(row["since"]), float(row["seen"]), float(row["offer_at"]),
            json.loads(row["offer"]) if row.get("offer") else None, row.get("table") or None,
            row.get("token") or None,
            float(row["matched_at"]) if row.get("matched_at") else None)
    except (KeyError, ValueError, TypeError):
        return None


#: the fields that change once a ticket is kept (the others are read once)
CHANGING = ("since", "seen", "offer_at", "offer", "table", "token", "matched_at")


def _to_read(before: Ticket | None) -> tuple[str, ...]:
    """What a pass reads of a ticket, given what the last pass read of it."""
    if before is None:
        return FIELDS
    return ("seen",) if before.table is not None else CHANGING


def _changed(before: Ticket, values: list[str | None]) -> Ticket | None:
    """``before`` with the fields that change as Redis has them now (None: gone)."""
    since, seen, offer_at, offer, table, token, matched_at = values
    if since is None or seen is None or offer_at is None:
        return None
    try:
        return replace(before, since=float(since), seen=float(seen), offer_at=float(offer_at),
                       offer=json.loads(offer) if offer else None, table=table or None,
                       token=token or None,
                       matched_at=float(matched_at) if matched_at else None)
    except (ValueError, TypeError):
        return None


def _pairs(flat: list[str]) -> dict[str, str]:
    return dict(zip(flat[::2], flat[1::2], strict=True))


@contextlib.contextmanager
def _reaching() -> Iterator[None]:
    """Redis unreachable: the queue's callers see :class:`ClusterDown` (a refusal, 503)."""
    try:
        yield
    except RedisError as exc:
        raise ClusterDown(f"the pairing queue cannot reach Redis: {exc}") from None


class RedisBook:
    """The queue's tickets in Redis, shared by every process. ``me``: this process's id;
    ``lease``: seconds a leader is believed alive after it last renewed; ``clock``: this
    host's wall clock (only the difference from Redis's is used)."""

    def __init__(self, redis: Redis, me: str, lease: float = 3.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.redis = redis
        self._clock = clock
        self.me = me
        self.lease = lease
        self._ttl = int(KEEP * 1000)
        self._known: dict[str, Ticket] = {}  # the tickets read by the last pass
        self._stir: str | None = None  # the count of writes the last pass saw, and when
        self._passed = 0.0
        self._leading_until = 0.0  # monotonic: this process leads until then, if it renews
        self._next_try = 0.0
        self._offset = 0.0  # Redis's clock less this host's
        #: the last reads of it, with their round trips: the quickest one's is kept (a busy
        #: event loop lengthens a round trip, and the reading's error is half of it)
        self._readings: deque[tuple[float, float]] = deque(maxlen=16)
        script = redis.register_script
        self._join, self._touch, self._write = script(_JOIN), script(_TOUCH), script(_WRITE)
        self._offer, self._remove = script(_OFFER), script(_REMOVE)
        self._claim, self._release = script(_CLAIM), script(_RELEASE)
        self._withdraw = script(_WITHDRAW)
        self._lead, self._resign = script(_LEAD), script(_RESIGN)

    def now(self) -> float:
        """Redis's clock, as this host's clock and their difference last read say it is."""
        return self._clock() + self._offset

    async def add(self, ticket: Ticket) -> Ticket:
        fields = [x for name in FIELDS if (v := _encode(ticket, name)) for x in (name, v)]
        fields += ["pid", ticket.player.id]
        with _reaching():
            kept = await self._join(
                keys=[f"{PREFIX}player:{ticket.player.id}", _key(ticket.id), IDS],
                args=[ticket.id, self._ttl, *fields])
        if not isinstance(kept, list):
            return ticket
        found = _decode(_pairs(kept))  # their waiting ticket, read by the same script
        if found is None:
            raise ClusterDown(f"a damaged ticket in Redis, {ticket.player.id}'s")
        return found

    async def get(self, ticket_id: str, player_id: str, now: float) -> Ticket | None:
        with _reaching():
            flat = await self._touch(keys=[_key(ticket_id)],
                                     args=[ticket_id, self._ttl, player_id, repr(now)])
        return _decode(_pairs(flat)) if flat else None

    async def write(self, tickets: Sequence[Ticket], *names: str) -> None:
        with _reaching():
            async with self.redis.pipeline(transaction=False) as pipe:
                for ticket in tickets:
                    pairs = [x for name in names for x in (name, _encode(ticket, name))]
                    await self._write(keys=[_key(ticket.id)],
                                      args=[ticket.id, self._ttl, *pairs], client=pipe)
                await pipe.execute()

    async def offer(self, offers: Sequence[tuple[Ticket, dict[str, Any], float]]) -> None:
        with _reaching():
            async with self.redis.pipeline(transaction=False) as pipe:
                for ticket, offer, offer_at in offers:
                    await self._offer(keys=[_key(ticket.id)], client=pipe, args=[
                        ticket.id, self._ttl, repr(offer_at), json.dumps(offer)])
                await pipe.execute()

    async def remove(self, ticket: Ticket, if_seen: float | None = None) -> None:
        with _reaching():
            await self._remove(keys=[_key(ticket.id), IDS],
                               args=[ticket.id, "" if if_seen is None else repr(if_seen),
                                     self._ttl])

    async def withdraw(self, ticket: Ticket) -> bool:
        with _reaching():
            done = await self._withdraw(keys=[_key(ticket.id), IDS, _claim_key(ticket.id)],
                                        args=[ticket.id, self._ttl])
        return bool(done)

    async def tickets(self) -> list[Ticket]:
        """Every ticket, read in one pipeline: a new one whole, one read before only in the
        fields that change (of a matched one only ``seen``), so that a pass over a thousand
        tickets parses a few thousand short strings; the ids of tickets that lapsed are
        forgotten."""
        with _reaching():
            ids = sorted(str(i) for i in await self.redis.smembers(IDS))
            async with self.redis.pipeline(transaction=False) as pipe:
                for ticket_id in ids:
                    # values without their names: half the text of HGETALL to parse
                    pipe.hmget(_key(ticket_id), _to_read(self._known.get(ticket_id)))
                rows = await pipe.execute() if ids else []
            out, gone, known = [], [], {}
            for ticket_id, row in zip(ids, rows, strict=True):
                before = self._known.get(ticket_id)
                if before is None:
                    ticket = _decode({k: v for k, v in zip(FIELDS, row, strict=True) if v})
                elif before.table is not None:  # matched: only its page's polls change it
                    ticket = replace(before, seen=float(row[0])) if row[0] else None
                else:
                    ticket = _changed(before, row)
                if ticket is None:
                    gone.append(ticket_id)
                else:  # the matcher changes what it is handed: the copy kept is as read
                    out.append(ticket)
                    known[ticket_id] = replace(ticket)
            self._known = known
            if gone:
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.srem(IDS, *gone)
                    pipe.delete(*[_key(t) for t in gone])  # a damaged one goes as well
                    await pipe.execute()
        return out

    async def claim(self, groups: Sequence[Sequence[Ticket]]) -> list[str | None]:
        """Each group's claim is a script of its own, run in order in one pipeline."""
        claims = [f"{self.me}:{secrets.token_hex(6)}" for _ in groups]
        with _reaching():
            async with self.redis.pipeline(transaction=False) as pipe:
                for group, claim in zip(groups, claims, strict=True):
                    keys = [_claim_key(t.id) for t in group] + [_key(t.id) for t in group]
                    await self._claim(keys=keys, args=[claim, int(CLAIM * 1000)], client=pipe)
                got = await pipe.execute()
        return [claim if ok else None for claim, ok in zip(claims, got, strict=True)]

    async def release(self, claims: Sequence[tuple[Sequence[Ticket], str]]) -> None:
        with _reaching():
            async with self.redis.pipeline(transaction=False) as pipe:
                for group, claim in claims:
                    await self._release(keys=[_claim_key(t.id) for t in group], args=[claim],
                                        client=pipe)
                await pipe.execute()

    async def lead(self) -> bool:
        """Renewed (or tried for) four times a lease; in between, the last answer holds for
        as long as it can (a lease renewed at ``sent`` lapses after ``sent + lease``)."""
        now = time.monotonic()
        if now < self._next_try:
            return now < self._leading_until
        self._next_try = now + self.lease / 4
        sent = self._clock()
        with _reaching():
            leads, sec, usec = await self._lead(keys=[LEADER],
                                                args=[self.me, int(self.lease * 1000)])
        got = self._clock()
        # Redis read its clock about halfway through the round trip
        self._readings.append((got - sent, int(sec) + int(usec) / 1e6 - (sent + got) / 2))
        self._offset = min(self._readings)[1]
        self._leading_until = now + self.lease if leads else 0.0
        return bool(leads)

    async def due(self) -> bool:
        """A pass is due when a join, a write or a leave was counted since the last, or
        :data:`QUIET_PASS` went by: a leader with nothing new reads one key a tick, not every
        ticket."""
        now = time.monotonic()
        with _reaching():
            stir = await self.redis.get(STIR)
        if stir == self._stir and now - self._passed < QUIET_PASS:
            return False
        self._stir, self._passed = (str(stir) if stir is not None else None), now
        return True

    async def close(self) -> None:
        """Let another process lead at once rather than after the lease."""
        self._leading_until = 0.0
        with contextlib.suppress(RedisError, OSError):
            await self._resign(keys=[LEADER], args=[self.me])
