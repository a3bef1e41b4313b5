"""The storage interface of the server: a few async calls, easy to implement on another
database (SQLite embedded, PostgreSQL for many processes).

Fencing: in a cluster each table has one owning process at a time. A process that takes a
table over calls :meth:`Store.claim`, which raises the table's fencing token (a number that
only grows) and returns it; every later write for that table carries the token (``fence=``)
and the store refuses it with :class:`StaleOwner` once another process has claimed the table
since. A single process passes no token (``None``) and is never refused.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Literal

from fives.store.analyses import AnalysisStore
from fives.store.events import EventStore
from fives.store.players import PlayerStore
from fives.store.puzzle_ratings import PuzzleStore

__all__ = [
    "STORE_ERROR_TEXT", "DamagedRow", "How", "StaleOwner", "Store", "StoreError", "StoredAction", "StoredRound",
    "StoredTable",
]


#: English wording of the store's errors; interfaces translate by key (``cli.store.<key>``)
STORE_ERROR_TEXT: dict[str, str] = {
    "open": "cannot open the database {where}: {why}",
    "migrate": "cannot migrate {where}: {why}",
    "read": "cannot read {where}: {why}",
    "write": "cannot write to {where}: {why}",
    "in_use": "the database {where} is in use by another fives server{who}; stop it, or use "
              "another database",
    "no_extras": "PostgreSQL needs the cluster extras: pip install 'fives[cluster]'",
    "unknown_kind": "unknown database {kind}:// (a file path, sqlite:///path or "
                    "postgresql://user:pass@host:port/name)",
}


class StoreError(RuntimeError):
    """The store cannot be opened or written (disk full, locked, not a database ...); ``key``
    and ``params`` name it for translation where it is one of :data:`STORE_ERROR_TEXT`."""

    def __init__(self, message: str, key: str = "", **params: object) -> None:
        super().__init__(message)
        self.key = key
        self.params = params

    @classmethod
    def of(cls, key: str, **params: object) -> StoreError:
        """The error ``key`` of :data:`STORE_ERROR_TEXT`, its English text filled in."""
        return cls(STORE_ERROR_TEXT[key].format(**params), key, **params)


class DamagedRow(StoreError):
    """A stored table that cannot be read back (its JSON is damaged)."""


class StaleOwner(StoreError):
    """A write carried a fencing token older than the table's: another process owns the
    table now, and this one must let it go."""


#: who made an action: the seat's person, its bot, the server (a forced draw or pass), the
#: easy bot when the turn clock ran out, or a bot keeping the seat of a person who is away
How = Literal["player", "bot", "forced", "timeout", "away"]


@dataclass
class StoredAction:
    seq: int  # the table's action counter when it was accepted (unique per table)
    seat: int
    action: str  # RECORD.md notation
    how: How
    ts: float


@dataclass
class StoredRound:
    round_no: int
    leader: int
    hands: list[list[str]]
    stock: list[str]
    ts: float
    actions: list[StoredAction] = field(default_factory=list)


@dataclass
class StoredTable:
    id: str
    created: float
    #: "open" (waiting or in play) or "over"; set aside: "expired" (a waiting table nobody
    #: came to), "abandoned" (bots playing for nobody), "damaged" (a row that cannot be read)
    status: str
    meta: dict[str, Any]
    rounds: list[StoredRound] = field(default_factory=list)
    record: dict[str, Any] | None = None  # the finished match's record (RECORD.md)
    finished: float | None = None
    fence: int = 0  # the fencing token of the table's current owner


class Store(PlayerStore, AnalysisStore, PuzzleStore, EventStore, ABC):
    """Durable tables: each call returns once what it wrote is safe from a process crash.

    Writes for one table take ``fence`` (see the module's note); reads never do.
    """

    #: the kind of database, as in the migrations' folder name ("sqlite", "postgresql")
    dialect: str = ""
    #: the migrations applied when the store was opened or started
    applied: list[str]

    async def start(self) -> None:
        """Connect and bring the schema up to date (a store that does it on construction,
        like SQLite, has nothing left to do)."""
        return None

    @abstractmethod
    async def migrate(self) -> list[str]:
        """Apply the migrations not yet applied (in order, each in its own transaction, each
        recorded in ``schema_migrations``); the names of those applied now."""

    @abstractmethod
    async def create_table(
        self, table_id: str, meta: dict[str, Any], ts: float, fence: int | None = None
    ) -> None:
        """A new table, owned from the start by the holder of ``fence`` (if any)."""

    @abstractmethod
    async def claim(self, table_id: str) -> int | None:
        """Take the table over: raise its fencing token and return it (None: no such table).
        Every write with an older token fails from now on."""

    @abstractmethod
    async def update_meta(
        self, table_id: str, meta: dict[str, Any], fence: int | None = None
    ) -> None: ...

    @abstractmethod
    async def add_round(
        self,
        table_id: str,
        round_no: int,
        leader: int,
        hands: list[list[str]],
        stock: list[str],
        ts: float,
        fence: int | None = None,
    ) -> None: ...

    @abstractmethod
    async def add_action(
        self,
        table_id: str,
        round_no: int,
        action: StoredAction,
        finished: dict[str, Any] | None = None,
        fence: int | None = None,
    ) -> None:
        """Append an action; with ``finished`` (the record of the match it ends), finish the
        table in the same transaction (at the action's time)."""

    @abstractmethod
    async def finish(
        self, table_id: str, record: dict[str, Any], ts: float, fence: int | None = None
    ) -> None: ...

    @abstractmethod
    async def set_aside(self, table_id: str, status: str, fence: int | None = None) -> None:
        """Take an unfinished table out of play (kept, never loaded again at start):
        ``expired``, ``abandoned`` or ``damaged``."""

    @abstractmethod
    async def archive(self, before: float, limit: int = 500) -> int:
        """Drop the deals and actions of up to ``limit`` matches finished before ``before``
        (a time): their records keep every deal and action, and a table read back then has
        no rounds but its record. The number of matches archived now."""

    @abstractmethod
    async def load(self, table_id: str) -> StoredTable | None:
        """The table with its rounds and actions; :class:`DamagedRow` if it cannot be read."""

    @abstractmethod
    async def unfinished_ids(self) -> list[str]:
        """The tables still open (waiting or in play), oldest first."""

    async def unfinished(self) -> list[StoredTable]:
        """The open tables themselves (a damaged one raises :class:`DamagedRow`)."""
        out = []
        for table_id in await self.unfinished_ids():
            table = await self.load(table_id)
            if table is not None:
                out.append(table)
        return out

    @abstractmethod
    async def finished(
        self, limit: int = 50, offset: int = 0, listed_only: bool = False
    ) -> list[StoredTable]:
        """Finished matches, newest first (meta and record, without rounds); ``listed_only``:
        only those of open tables (a private table's match is not listed)."""

    @abstractmethod
    async def ping(self) -> None:
        """Raise :class:`StoreError` if the database cannot be reached (``/healthz``)."""

    @abstractmethod
    async def close(self) -> None: ...
