"""Quick pairing: a queue per game, player count and kind (rated or casual), matched by rating
within a window that widens the longer a player waits. After :data:`BOT_OFFER` seconds without
a match the player is offered the remaining seats filled by the bot level of the nearest
rating; they may accept, or decline and keep waiting (offered again after as long).

:class:`PairingQueue` is the one matcher; its tickets are kept in a book
(:mod:`fives.server.tickets`): this process's memory for one server, Redis for a cluster
(:mod:`fives.server.cluster.queue`), where any process takes a join, a poll, a decline, an
accept or a leave, and one process at a time (the book's leader) matches every ticket. A
group is claimed in the book before it is seated, so a ticket the leader groups while its
player accepts bots elsewhere is seated once. Two tickets of one person or of one browser are
never paired together, nor two of one address in the rated queue (:func:`apart`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fives.server.cluster.remote import ClusterDown
from fives.server.messages import ClientError
from fives.server.tickets import STALE, Book, MemoryBook, Ticket, window
from fives.store.players import StoredPlayer

__all__ = ["BOT_OFFER", "STALE", "PairingQueue", "Ticket", "window"]

log = logging.getLogger("fives.server")

#: seconds without a match before bots are offered
BOT_OFFER = 20.0
#: how often the queue looks for matches
TICK = 0.1
#: seconds a leave waits for a claim on its ticket to end (seated, or let go)
LEAVE_WAIT = 5.0
#: groups claimed, seated and noted together (a round trip to Redis each, not each table's)
BATCH = 50
#: a failure of the matching that repeats is logged again only after this long
QUIET = 30.0
#: seconds stop() waits for the pass under way
STOP_GRACE = 5.0


#: makes a table for the matched tickets (seated in this order) and the bot levels of the
#: remaining seats; the tickets' seat tokens, in their order
Seat = Callable[[list[Ticket], list[str]], Awaitable[tuple[str, list[str]]]]
#: takes back a table made for tickets that could not be told of it (nobody will come to it)
Unseat = Callable[[str], Awaitable[None]]
#: each bot level's (mu, shown rating) in a game, for the offer
BotRatings = Callable[[str], Awaitable[dict[str, float]]]


def apart(a: Ticket, b: Ticket) -> bool:
    """Two tickets the queue never pairs with each other: one person's, one browser's, or, in
    the rated queue, one address's (two browser profiles of one person share an address;
    docs/players.md says what this costs people behind one carrier address)."""
    return (a.player.id == b.player.id or bool(a.browser and a.browser == b.browser)
            or (a.rated and b.rated and a.addr == b.addr))


@dataclass
class PairingQueue:
    seat: Seat
    bot_ratings: BotRatings
    #: seconds without a match before bots are offered (BOT_OFFER; tests shorten it)
    offer_after: float = BOT_OFFER
    book: Book = field(default_factory=MemoryBook)
    unseat: Unseat | None = None
    _task: asyncio.Task[None] | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: join-to-match delays of recent matches (seconds), for the benchmark
    delays: list[float] = field(default_factory=list)
    _failed: tuple[str, float] = ("", 0.0)  # the last failure logged, and when
    _stopping: bool = False

    def start(self) -> None:
        self._stopping = False
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """The loop ends after its pass; cancelled only if that pass hangs (cancelling a
        Redis command half way once left redis-py's blocking pool waiting for ever)."""
        if self._task is not None:
            self._stopping = True
            self._wake.set()
            done, _ = await asyncio.wait({self._task}, timeout=STOP_GRACE)
            if not done:
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
        await self.book.close()

    def now(self) -> float:
        return self.book.now()

    # -- what a player asks ----------------------------------------------------------------

    async def join(self, player: StoredPlayer, browser: str | None, addr: str, game: str,
                   players: int, rated: bool, mu: float) -> Ticket:
        """Queue a player (once: a second join gives back their waiting ticket)."""
        now = self.now()
        ticket = await self.book.add(Ticket(
            secrets.token_urlsafe(12), player, browser, addr, game, players, rated, mu, now,
            now, now + self.offer_after))
        self._wake.set()
        return ticket

    async def get(self, ticket_id: str, player: StoredPlayer) -> Ticket:
        """The player's own ticket (anyone else's is not found)."""
        # an id is 16 characters: anything much longer is nobody's, and never a key in Redis
        ticket = (await self.book.get(ticket_id, player.id, self.now())
                  if 0 < len(ticket_id) <= 40 else None)
        if ticket is None:
            raise ClientError("not_found")
        return ticket

    async def leave(self, ticket: Ticket) -> Ticket | None:
        """Take the ticket out of the queue: None when it is out. A ticket already matched
        stays: it is returned with its table, where its player is seated. One claimed for
        seating at this moment is waited for (a claim ends within a seating's round trips),
        so that a leave never answers "left" for a player who is seated after all."""
        deadline = time.monotonic() + LEAVE_WAIT
        while not await self.book.withdraw(ticket):
            now = self.now()
            current = await self.book.get(ticket.id, ticket.player.id, now)
            if current is None:
                return None  # gone meanwhile (its claim's seating failed and it lapsed)
            if current.table is not None:
                return current
            if time.monotonic() > deadline:
                raise ClientError("busy")
            await asyncio.sleep(0.05)
        return None

    async def decline(self, ticket: Ticket) -> None:
        """No bots now: keep waiting, offered again later."""
        ticket.offer = None
        ticket.offer_at = self.now() + self.offer_after
        await self.book.write([ticket], "offer", "offer_at")

    async def accept(self, ticket: Ticket) -> Ticket:
        """The bots offered take the remaining seats: a table now. If the matcher is seating
        the ticket with people at this moment, that table it is: the ticket as it is now."""
        if ticket.table is not None:
            return ticket
        if ticket.offer is None:
            raise ClientError("no_offer")
        level = str(ticket.offer["level"])
        if await self._make([([ticket], [level] * (ticket.players - 1))]):
            return ticket
        return await self.book.get(ticket.id, ticket.player.id, self.now()) or ticket

    # -- matching --------------------------------------------------------------------------

    async def _run(self) -> None:
        while not self._stopping:
            # asyncio.timeout, not wait_for: Python 3.11's wait_for may swallow a cancel
            # that comes as the event is set, and the loop would go on
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(TICK):
                    await self._wake.wait()
            self._wake.clear()
            if self._stopping:
                return
            try:
                if await self.book.lead() and await self.book.due():
                    await self.match_now()
            except Exception as exc:
                self._failure(exc)

    def _failure(self, exc: Exception) -> None:
        """Logged with its traceback once, then once in :data:`QUIET` seconds while it
        repeats (Redis away, a full server: ten passes a second fail alike)."""
        what, when = self._failed
        now = time.monotonic()
        if repr(exc) == what and now - when < QUIET:
            return
        self._failed = (repr(exc), now)
        if isinstance(exc, ClusterDown):  # expected while Redis is away: no traceback
            log.warning("pairing waits for Redis: %s", exc)
        else:
            log.error("pairing failed; it goes on", exc_info=exc)

    async def match_now(self) -> int:
        """One pass over every queue: make the tables it can, offer bots to those who waited
        long enough, drop the tickets of closed pages. The number of tables made."""
        now = self.now()
        buckets: dict[tuple[str, int, bool], list[Ticket]] = {}
        for ticket in await self.book.tickets():
            if now - ticket.seen > STALE:
                await self.book.remove(ticket, if_seen=ticket.seen)
            elif ticket.table is None:
                buckets.setdefault(ticket.bucket, []).append(ticket)
        groups: list[tuple[list[Ticket], list[str]]] = [
            (group, []) for bucket, waiting in buckets.items()
            for group in self._groups(waiting, bucket[1], now)]
        made = 0
        for start in range(0, len(groups), BATCH):
            made += await self._make(groups[start:start + BATCH])
        ratings: dict[str, dict[str, float]] = {}  # each game's bots, asked once a pass
        offers = []
        for waiting in buckets.values():
            for ticket in waiting:
                if ticket.table is None and ticket.offer is None and now >= ticket.offer_at:
                    if ticket.game not in ratings:
                        ratings[ticket.game] = await self.bot_ratings(ticket.game)
                    offers.append((ticket, self._bot_offer(ticket, ratings[ticket.game]),
                                   ticket.offer_at))
        if offers:
            await self.book.offer(offers)
        return made

    @staticmethod
    def _groups(waiting: list[Ticket], size: int, now: float) -> list[list[Ticket]]:
        """Groups of ``size`` whose ratings are all within each member's window: the ratings
        sorted, each run of neighbours taken greedily (the longest waiting first among
        equals), so a pass costs n log n."""
        waiting.sort(key=lambda t: (t.mu, t.since))
        groups = []
        i = 0
        while i + size <= len(waiting):
            group = [waiting[i]]
            j = i + 1
            while len(group) < size and j < len(waiting):
                candidate = waiting[j]
                spread = candidate.mu - group[0].mu
                if spread > min(window(now - t.since) for t in [*group, candidate]):
                    break
                if not any(apart(candidate, t) for t in group):
                    group.append(candidate)
                j += 1
            if len(group) == size:
                groups.append(group)
                taken = {t.id for t in group}
                waiting = [t for t in waiting if t.id not in taken]
            else:
                i += 1
        return groups

    async def _make(self, groups: list[tuple[list[Ticket], list[str]]]) -> int:
        """Claim the groups (each with the bot levels of its remaining seats), seat those
        claimed, and note their tables on the tickets: one claim, one write and one release
        for them all. A group another claim (a match, a leave) came first to is left be. The
        number of tables made."""
        claims = await self.book.claim([group for group, _ in groups])
        taken = [(group, bots, claim) for (group, bots), claim in zip(groups, claims, strict=True)
                 if claim is not None]
        seated: list[tuple[list[Ticket], str]] = []
        try:
            for group, bots, claim in taken:
                table_id, tokens = await self.seat(group, bots)
                now = self.now()
                for ticket, token in zip(group, tokens, strict=True):
                    ticket.table, ticket.token, ticket.matched_at = table_id, token, now
                    ticket.seen = now
                    self.delays.append(now - ticket.since)
                seated.append((group, claim))
        finally:  # a seating that failed: the groups not seated are let go for the next pass
            del self.delays[:-5000]
            if len(seated) < len(taken):
                await self.book.release([(g, c) for g, _, c in taken[len(seated):]])
            if seated:
                try:
                    await self.book.write([t for group, _ in seated for t in group],
                                          "table", "token", "matched_at", "seen")
                except Exception:  # (not a cancel: a process stopping leaves its tables)
                    # the players never hear of these tables: they are taken back, and the
                    # groups are seated again once their claims lapse (kept till then, so
                    # that they are not seated again at once)
                    await self._unseat(seated)
                    raise
                # released once the tables are written (a later claim finds them and fails)
                await self.book.release(seated)
        return len(seated)

    async def _unseat(self, seated: list[tuple[list[Ticket], str]]) -> None:
        for group, _ in seated:
            table_id = group[0].table
            for ticket in group:
                ticket.table = ticket.token = ticket.matched_at = None
            if self.unseat is not None and table_id is not None:
                try:
                    await self.unseat(table_id)
                except Exception:  # the write's failure is the one raised
                    log.exception("paired table %s not taken back", table_id)

    @staticmethod
    def _bot_offer(ticket: Ticket, ratings: dict[str, float]) -> dict[str, Any]:
        """The level whose rating in the ticket's game is nearest the player's."""
        level = min(ratings, key=lambda lv: abs(ratings[lv] - ticket.mu))
        return {"level": level, "rating": round(ratings[level] * 60)}
