"""The storage interface of the server: a few calls, easy to implement on another database."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "DamagedRow", "How", "Store", "StoreError", "StoredAction", "StoredRound", "StoredTable",
]


class StoreError(RuntimeError):
    """The store cannot be opened or written (disk full, locked, not a database ...)."""


class DamagedRow(StoreError):
    """A stored table that cannot be read back (its JSON is damaged)."""


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


class Store(ABC):
    """Durable tables: each call returns once what it wrote is safe from a process crash."""

    @abstractmethod
    def create_table(self, table_id: str, meta: dict[str, Any], ts: float) -> None: ...

    @abstractmethod
    def update_meta(self, table_id: str, meta: dict[str, Any]) -> None: ...

    @abstractmethod
    def add_round(
        self,
        table_id: str,
        round_no: int,
        leader: int,
        hands: list[list[str]],
        stock: list[str],
        ts: float,
    ) -> None: ...

    @abstractmethod
    def add_action(
        self,
        table_id: str,
        round_no: int,
        action: StoredAction,
        finished: dict[str, Any] | None = None,
    ) -> None:
        """Append an action; with ``finished`` (the record of the match it ends), finish the
        table in the same transaction (at the action's time)."""

    @abstractmethod
    def finish(self, table_id: str, record: dict[str, Any], ts: float) -> None: ...

    @abstractmethod
    def set_aside(self, table_id: str, status: str) -> None:
        """Take an unfinished table out of play (kept, never loaded again at start):
        ``expired``, ``abandoned`` or ``damaged``."""

    @abstractmethod
    def load(self, table_id: str) -> StoredTable | None:
        """The table with its rounds and actions; :class:`DamagedRow` if it cannot be read."""

    @abstractmethod
    def unfinished_ids(self) -> list[str]:
        """The tables still open (waiting or in play), oldest first."""

    def unfinished(self) -> list[StoredTable]:
        """The open tables themselves (a damaged one raises :class:`DamagedRow`)."""
        return [t for t in map(self.load, self.unfinished_ids()) if t is not None]

    @abstractmethod
    def finished(
        self, limit: int = 50, offset: int = 0, listed_only: bool = False
    ) -> list[StoredTable]:
        """Finished matches, newest first (meta and record, without rounds); ``listed_only``:
        only those of open tables (a private table's match is not listed)."""

    @abstractmethod
    def close(self) -> None: ...
