"""Quick pairing: a queue per game, player count and kind (rated or casual), matched by rating
within a window that widens the longer a player waits. After :data:`BOT_OFFER` seconds without
a match the player is offered the remaining seats filled by the bot level of the nearest
rating; they may accept, or decline and keep waiting (offered again after as long).

The queue lives in one process (its memory): in a cluster each process pairs the players
queued with it (docs/players.md says how to route the queue to one process). Two tickets of
one person or of one browser are never paired together.
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

from fives.server.messages import ClientError
from fives.store.players import StoredPlayer

__all__ = ["BOT_OFFER", "PairingQueue", "Ticket", "window"]

log = logging.getLogger("fives.server")

#: seconds without a match before bots are offered
BOT_OFFER = 20.0
#: the rating window (in OpenSkill's mu; shown ratings are 60 times as large): its start,
#: how fast it widens each second, and its widest
WINDOW_START, WINDOW_GROWTH, WINDOW_MAX = 2.0, 0.5, 25.0
#: a ticket nobody asks about for this long is dropped (its page was closed)
STALE = 30.0
#: how often the queue looks for matches
TICK = 0.1


def window(waited: float) -> float:
    return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * waited)


@dataclass
class Ticket:
    id: str
    player: StoredPlayer
    browser: str | None
    addr: str
    game: str
    players: int
    rated: bool
    mu: float
    since: float  # monotonic time it joined
    seen: float  # when its page last asked
    offer_at: float  # when bots are (next) offered
    offer: dict[str, Any] | None = None  # {"level", "rating"} once offered
    table: str | None = None  # once matched: the table, and this ticket's seat token
    token: str | None = None
    matched_at: float | None = None

    @property
    def bucket(self) -> tuple[str, int, bool]:
        return (self.game, self.players, self.rated)

    def status(self, now: float) -> dict[str, Any]:
        if self.table is not None:
            return {"ticket": self.id, "state": "matched", "table": self.table,
                    "token": self.token}
        waited = now - self.since
        return {"ticket": self.id, "state": "waiting", "waited": round(waited, 1),
                "window": round(window(waited) * 60), "offer": self.offer,
                "game": self.game, "players": self.players, "rated": self.rated}


#: makes a table for the matched tickets (seated in this order) and the bot levels of the
#: remaining seats; the tickets' seat tokens, in their order
Seat = Callable[[list[Ticket], list[str]], Awaitable[tuple[str, list[str]]]]
#: each bot level's (mu, shown rating) in a game, for the offer
BotRatings = Callable[[str], Awaitable[dict[str, float]]]


@dataclass
class PairingQueue:
    seat: Seat
    bot_ratings: BotRatings
    #: seconds without a match before bots are offered (BOT_OFFER; tests shorten it)
    offer_after: float = BOT_OFFER
    tickets: dict[str, Ticket] = field(default_factory=dict)
    _task: asyncio.Task[None] | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: join-to-match delays of recent matches (seconds), for the benchmark and /metrics
    delays: list[float] = field(default_factory=list)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    # -- what a player asks ----------------------------------------------------------------

    def join(self, player: StoredPlayer, browser: str | None, addr: str, game: str,
             players: int, rated: bool, mu: float) -> Ticket:
        """Queue a player (once: a second join gives back their waiting ticket)."""
        for ticket in self.tickets.values():
            if ticket.player.id == player.id and ticket.table is None:
                return ticket
        now = time.monotonic()
        ticket = Ticket(secrets.token_urlsafe(12), player, browser, addr, game, players, rated,
                        mu, now, now, now + self.offer_after)
        self.tickets[ticket.id] = ticket
        self._wake.set()
        return ticket

    def get(self, ticket_id: str, player: StoredPlayer) -> Ticket:
        """The player's own ticket (anyone else's is not found)."""
        ticket = self.tickets.get(ticket_id)
        if ticket is None or ticket.player.id != player.id:
            raise ClientError("not_found")
        ticket.seen = time.monotonic()
        return ticket

    def leave(self, ticket: Ticket) -> None:
        self.tickets.pop(ticket.id, None)

    def decline(self, ticket: Ticket) -> None:
        """No bots now: keep waiting, offered again later."""
        ticket.offer = None
        ticket.offer_at = time.monotonic() + self.offer_after

    async def accept(self, ticket: Ticket) -> None:
        """The bots offered take the remaining seats: a table now."""
        if ticket.table is not None:
            return
        if ticket.offer is None:
            raise ClientError("no_offer")
        level = str(ticket.offer["level"])
        self.tickets.pop(ticket.id, None)
        try:
            await self._make([ticket], [level] * (ticket.players - 1))
        finally:
            self.tickets[ticket.id] = ticket

    # -- matching --------------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK)
            self._wake.clear()
            try:
                await self.match_now()
            except Exception:
                log.exception("pairing failed; it goes on")

    async def match_now(self) -> int:
        """One pass over every queue: make the tables it can, offer bots to those who waited
        long enough, drop the tickets of closed pages. The number of tables made."""
        now = time.monotonic()
        buckets: dict[tuple[str, int, bool], list[Ticket]] = {}
        for ticket in list(self.tickets.values()):
            if now - ticket.seen > STALE:
                del self.tickets[ticket.id]
            elif ticket.table is None:
                buckets.setdefault(ticket.bucket, []).append(ticket)
        made = 0
        for bucket, waiting in buckets.items():
            for group in self._groups(waiting, bucket[1], now):
                for ticket in group:
                    self.tickets.pop(ticket.id, None)
                try:
                    await self._make(group, [])
                    made += 1
                finally:
                    for ticket in group:
                        self.tickets[ticket.id] = ticket
            for ticket in waiting:
                if ticket.table is None and ticket.offer is None and now >= ticket.offer_at:
                    ticket.offer = await self._bot_offer(ticket)
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
                if not any(candidate.player.id == t.player.id
                           or (candidate.browser and candidate.browser == t.browser)
                           for t in group):
                    group.append(candidate)
                j += 1
            if len(group) == size:
                groups.append(group)
                taken = {t.id for t in group}
                waiting = [t for t in waiting if t.id not in taken]
            else:
                i += 1
        return groups

    async def _make(self, group: list[Ticket], bots: list[str]) -> None:
        table_id, tokens = await self.seat(group, bots)
        now = time.monotonic()
        for ticket, token in zip(group, tokens, strict=True):
            ticket.table, ticket.token, ticket.matched_at = table_id, token, now
            ticket.seen = now
            self.delays.append(now - ticket.since)
        del self.delays[:-5000]

    async def _bot_offer(self, ticket: Ticket) -> dict[str, Any]:
        """The level whose rating in the ticket's game is nearest the player's."""
        ratings = await self.bot_ratings(ticket.game)
        level = min(ratings, key=lambda lv: abs(ratings[lv] - ticket.mu))
        return {"level": level, "rating": round(ratings[level] * 60)}
