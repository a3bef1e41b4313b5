"""The quick pairing queue's tickets and where they are kept: a :class:`Book`. The matcher
(:mod:`fives.server.pairing`) is the same whatever the book; :class:`MemoryBook` keeps the
tickets in this process (one server), :class:`fives.server.cluster.queue.RedisBook` in Redis
(every process of a cluster shares one queue).

A book never decides who plays whom: it stores, hands out and claims. A claim is what keeps a
ticket from being seated twice when two hands reach for it at once (a player accepting bots
while the matcher groups them with someone): whoever claims a group first seats it, the other
leaves it be.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from fives.store.players import StoredPlayer

__all__ = ["STALE", "Book", "MemoryBook", "Ticket", "window"]

#: the rating window (in OpenSkill's mu; shown ratings are 60 times as large): its start,
#: how fast it widens each second, and its widest
WINDOW_START, WINDOW_GROWTH, WINDOW_MAX = 2.0, 0.5, 25.0
#: a ticket nobody asks about for this long is dropped (its page was closed)
STALE = 30.0


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
    since: float  # when it joined, by its book's clock
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


class Book(Protocol):
    """Where the queue's tickets are kept. Every method but :meth:`now` may raise when the
    storage cannot be reached (the Redis book: :class:`fives.server.cluster.ClusterDown`)."""

    def now(self) -> float:
        """The clock of ``since``, ``seen``, ``offer_at`` (one clock for every process that
        shares the book)."""
        ...

    async def add(self, ticket: Ticket) -> Ticket:
        """Keep ``ticket``, unless its player has a waiting ticket already: then that one."""
        ...

    async def get(self, ticket_id: str, player_id: str, now: float) -> Ticket | None:
        """The ticket if it is that player's (marked seen at ``now``), else None."""
        ...

    async def write(self, tickets: Sequence[Ticket], *names: str) -> None:
        """Store these fields of the tickets (only these: what others wrote to the other
        fields stays); a ticket no longer kept is not brought back."""
        ...

    async def offer(self, offers: Sequence[tuple[Ticket, dict[str, Any], float]]) -> None:
        """Store each (ticket, bots' offer, offer time as read), unless the ticket was matched
        or its offer time changed since it was read (a decline meanwhile)."""
        ...

    async def remove(self, ticket: Ticket, if_seen: float | None = None) -> None:
        """Forget the ticket (with ``if_seen``: only if nobody asked about it since)."""
        ...

    async def withdraw(self, ticket: Ticket) -> bool:
        """Forget the ticket if it is still only waiting; False, and it stays, when it is
        matched or claimed for seating (its player is seated, or about to be)."""
        ...

    async def tickets(self) -> list[Ticket]:
        """Every ticket kept."""
        ...

    async def claim(self, groups: Sequence[Sequence[Ticket]]) -> list[str | None]:
        """Claim each group's tickets for seating, in order, each group all or none: none
        when one of them is claimed already, matched or gone. Each claim's id (for
        :meth:`release`), or None."""
        ...

    async def release(self, claims: Sequence[tuple[Sequence[Ticket], str]]) -> None:
        """Let go of these (group, claim)."""
        ...

    async def lead(self) -> bool:
        """Whether this process runs the matching now (one process at a time)."""
        ...

    async def due(self) -> bool:
        """Whether the leader's next pass may find anything new (else it waits a tick)."""
        ...

    async def close(self) -> None:
        """This process stops using the book (a leader lets another lead at once)."""
        ...


class MemoryBook:
    """The tickets in this process's memory: one server, one queue. The tickets handed out
    are the ones kept, so what the matcher sets on them is kept at once."""

    def __init__(self) -> None:
        self.kept: dict[str, Ticket] = {}
        self._waiting: dict[str, str] = {}  # player -> their waiting ticket
        self._claims: dict[str, str] = {}  # ticket -> the claim on it

    def now(self) -> float:
        return time.monotonic()

    async def add(self, ticket: Ticket) -> Ticket:
        held = self.kept.get(self._waiting.get(ticket.player.id, ""))
        if held is not None and held.table is None:
            return held
        self.kept[ticket.id] = ticket
        self._waiting[ticket.player.id] = ticket.id
        return ticket

    async def get(self, ticket_id: str, player_id: str, now: float) -> Ticket | None:
        ticket = self.kept.get(ticket_id)
        if ticket is None or ticket.player.id != player_id:
            return None
        ticket.seen = now
        return ticket

    async def write(self, tickets: Sequence[Ticket], *names: str) -> None:
        return None  # the tickets handed out are the ones kept

    async def offer(self, offers: Sequence[tuple[Ticket, dict[str, Any], float]]) -> None:
        for ticket, offer, offer_at in offers:
            if ticket.table is None and ticket.offer_at == offer_at:
                ticket.offer = offer

    async def remove(self, ticket: Ticket, if_seen: float | None = None) -> None:
        kept = self.kept.get(ticket.id)
        if kept is None or (if_seen is not None and kept.seen != if_seen):
            return
        del self.kept[ticket.id]
        if self._waiting.get(kept.player.id) == ticket.id:
            del self._waiting[kept.player.id]

    async def withdraw(self, ticket: Ticket) -> bool:
        kept = self.kept.get(ticket.id)
        if kept is not None and (kept.table is not None or ticket.id in self._claims):
            return False
        await self.remove(ticket)
        return True

    async def tickets(self) -> list[Ticket]:
        return list(self.kept.values())

    async def claim(self, groups: Sequence[Sequence[Ticket]]) -> list[str | None]:
        return [self._claim(group) for group in groups]

    def _claim(self, group: Sequence[Ticket]) -> str | None:
        for ticket in group:
            kept = self.kept.get(ticket.id)
            if kept is None or kept.table is not None or ticket.id in self._claims:
                return None
        claim = secrets.token_hex(8)
        for ticket in group:
            self._claims[ticket.id] = claim
        return claim

    async def release(self, claims: Sequence[tuple[Sequence[Ticket], str]]) -> None:
        for group, claim in claims:
            for ticket in group:
                if self._claims.get(ticket.id) == claim:
                    del self._claims[ticket.id]

    async def lead(self) -> bool:
        return True

    async def due(self) -> bool:
        return True  # a pass in memory costs next to nothing: one every tick

    async def close(self) -> None:
        return None
