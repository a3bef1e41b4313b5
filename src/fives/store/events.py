"""What the store keeps of events (issue 30): the events, their entrants, and the matches
played in them. Pairing and standings are never stored: they are computed again from these
rows by :mod:`fives.contests` (one truth, whichever process serves the page).

One process pairs an event at a time: it holds the event's lease (:meth:`EventStore.claim_event`)
and its pairings are written only while the lease is its own
(:meth:`EventStore.add_event_games`), so a process that paused past its lease and wakes up
cannot pair the same players a second time; another process takes the lease over once it
lapses and goes on from the stored rows.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["ENTRANT_COLUMNS", "EVENT_COLUMNS", "EVENT_GAME_COLUMNS", "EVENT_KINDS",
           "EVENT_STATUSES", "SITE", "EventStore", "StoredEntrant", "StoredEvent",
           "StoredEventGame", "entrant_of", "event_of", "game_of"]

#: the kinds of event: an arena (free pairing for a set time) or a duplicate Swiss (rounds)
EVENT_KINDS = ("arena", "swiss")
#: an event's life: created ``scheduled``, ``running`` from its start, then ``finished`` (or
#: ``cancelled`` by its organiser before it started)
EVENT_STATUSES = ("scheduled", "running", "finished", "cancelled")
#: the creator of the events the site schedules itself (``fives serve --events FILE``)
SITE = "~site"

EVENT_COLUMNS = ("id, kind, meta, creator, created, starts, status, listed, owner, "
                 "lease_until, ended")
ENTRANT_COLUMNS = "event_id, player, name, joined, paused, bot, browser"
EVENT_GAME_COLUMNS = "event_id, table_id, round, players, tokens, started, result, finished"


@dataclass
class StoredEvent:
    id: str
    kind: str  # one of EVENT_KINDS
    #: what the event is: game, players, target, title, length (arena) or rounds (Swiss),
    #: rated, whether bots may fill seats, its invite code (private events) ...
    meta: dict[str, Any]
    creator: str  # an identity's id, or SITE
    created: float
    starts: float
    status: str = "scheduled"  # one of EVENT_STATUSES
    listed: bool = True  # on the home page and the lobby (a private event is not)
    owner: str | None = None  # the process pairing it now
    lease_until: float | None = None
    ended: float | None = None


@dataclass
class StoredEntrant:
    event_id: str
    player: str  # the identity's id
    name: str  # as shown when they joined
    joined: float
    paused: bool = False  # not paired while paused (an arena player who stepped away)
    bot: bool = False  # a bot filling a seat of a Swiss whose organiser allows it
    browser: str = ""  # the browser's key, so one browser enters one identity (docs/events.md)


@dataclass
class StoredEventGame:
    """A match of the event: its table, its round (a Swiss round, from 1; an arena's pairing
    number), its entrants in seat order, each one's seat token while it is played (none for
    a bot's seat; forgotten when it ends), and its result once finished (the event's own
    summary of the match: places for an arena, score and boards for a Swiss)."""

    event_id: str
    table_id: str
    round: int
    players: list[str]
    tokens: dict[str, str]
    started: float
    result: dict[str, Any] | None = None
    finished: float | None = None

    @property
    def playing(self) -> bool:
        return self.finished is None


class EventStore(ABC):
    """The events (mixed into :class:`~fives.store.base.Store`)."""

    @abstractmethod
    async def create_event(self, event: StoredEvent) -> bool:
        """A new event; False if one of that id exists (it is left as it was: the site's
        scheduled arenas are created by every process, once)."""

    @abstractmethod
    async def event(self, event_id: str) -> StoredEvent | None: ...

    @abstractmethod
    async def events(self, statuses: Sequence[str], limit: int = 20,
                     listed_only: bool = True) -> list[StoredEvent]:
        """Events in one of ``statuses``: the scheduled and running by start, soonest first,
        the finished and cancelled newest first."""

    @abstractmethod
    async def events_created(self, creator: str, since: float) -> int:
        """How many events ``creator`` created since a time (the limit per identity)."""

    @abstractmethod
    async def advance_event(self, event_id: str, before: str, after: str, ts: float) -> bool:
        """Move an event from status ``before`` to ``after`` (``finished`` and ``cancelled``
        record ``ts`` as its end); False if it was not in ``before`` (another process moved it
        first: each step happens once)."""

    @abstractmethod
    async def claim_event(self, event_id: str, owner: str, now: float, lease: float) -> bool:
        """Become (or stay) the process that pairs the event until ``now + lease``: when it
        has no owner, is already ``owner``'s, or its owner's lease lapsed before ``now``."""

    @abstractmethod
    async def join_event(self, entrant: StoredEntrant) -> StoredEntrant:
        """Enter the event (a second entry of the same player returns the first, unchanged)."""

    @abstractmethod
    async def set_paused(self, event_id: str, player: str, paused: bool) -> bool:
        """Pause or resume an entrant; False if they never entered."""

    @abstractmethod
    async def entrants(self, event_id: str) -> list[StoredEntrant]:
        """The entrants, in the order they joined."""

    @abstractmethod
    async def add_event_games(self, event_id: str, owner: str, now: float,
                              games: Sequence[StoredEventGame]) -> bool:
        """Store a pairing's matches (a bye's already finished), all or none, only while
        ``owner`` holds the event's lease at ``now`` (False otherwise: nothing is written)."""

    @abstractmethod
    async def finish_event_game(self, event_id: str, table_id: str, result: dict[str, Any],
                                now: float) -> bool:
        """Record a match's result and forget its seat tokens; once only (False if it was
        recorded before or is not a match of the event: a result told twice counts once)."""

    @abstractmethod
    async def event_games(self, event_id: str) -> list[StoredEventGame]:
        """The event's matches, in the order they started."""


def event_of(values: list[Any], meta: dict[str, Any]) -> StoredEvent:
    """A row of EVENT_COLUMNS (its meta already decoded) as a StoredEvent."""
    values[2] = meta
    values[7] = bool(values[7])
    return StoredEvent(*values)


def entrant_of(values: Sequence[Any]) -> StoredEntrant:
    row = list(values)
    row[4], row[5] = bool(row[4]), bool(row[5])
    return StoredEntrant(*row)


def game_of(values: list[Any], decode: Any) -> StoredEventGame:
    """A row of EVENT_GAME_COLUMNS, its JSON columns read by ``decode``."""
    values[3], values[4] = decode(values[3]), decode(values[4])
    values[6] = decode(values[6]) if values[6] is not None else None
    return StoredEventGame(*values)

