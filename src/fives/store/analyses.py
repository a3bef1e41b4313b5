"""What the store keeps of analyses (issue 28): one row per finished match and seat, asked for
once, claimed by one process at a time under a lease, computed once and kept.

A row is ``queued`` until a process claims it (``running``, its lease until ``lease_until``),
then ``done`` with its document, or ``failed``. A claim whose lease lapses (its process died)
may be claimed again, at most :data:`MAX_ATTEMPTS` times in all.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

__all__ = ["ANALYSIS_COLUMNS", "MAX_ATTEMPTS", "MINER", "AnalysisStore", "StoredAnalysis"]

#: how many claims an analysis gets before it is given up (a record that fails every time)
MAX_ATTEMPTS = 3
#: the requester of the analyses the server queues itself, to mine puzzles from a finished
#: match: asked for "later" (after people's), and a person who asks for one takes it over
#: (it is then theirs, in its place by their asking)
MINER = "~puzzles"
ANALYSIS_COLUMNS = ("table_id, seat, status, requester, requested, owner, lease_until, "
                    "attempts, result, done")


@dataclass
class StoredAnalysis:
    table_id: str
    seat: int  # from 0, as records number seats
    status: str  # queued, running, done, failed
    requester: str
    requested: float
    owner: str | None = None
    lease_until: float | None = None
    attempts: int = 0
    result: dict[str, Any] | None = None
    done: float | None = None

    def given_up(self, now: float) -> bool:
        """Failed, or claimed as often as allowed with the last lease lapsed."""
        return self.status == "failed" or (
            self.status == "running" and self.attempts >= MAX_ATTEMPTS
            and (self.lease_until or 0.0) < now)


class AnalysisStore(ABC):
    """The analyses (mixed into :class:`~fives.store.base.Store`)."""

    @abstractmethod
    async def request_analysis(self, table_id: str, seat: int, requester: str,
                               now: float) -> StoredAnalysis:
        """The analysis of that seat: the one asked for before, or a new queued one. One
        queued by the :data:`MINER` and asked for by another becomes theirs, asked now."""

    @abstractmethod
    async def analysis(self, table_id: str, seat: int) -> StoredAnalysis | None: ...

    @abstractmethod
    async def analyses_pending(self, requester: str) -> list[StoredAnalysis]:
        """The requester's analyses not done yet (queued or running)."""

    @abstractmethod
    async def queued_before(self, requested: float) -> int:
        """How many analyses wait that were asked for before ``requested``."""

    @abstractmethod
    async def claim_analysis(self, owner: str, now: float,
                             lease: float) -> StoredAnalysis | None:
        """The oldest analysis waiting (queued, or running with its lease lapsed and claims
        left), now ``owner``'s until ``now + lease``; None if there is none. Atomic: two
        processes never claim one analysis at once."""

    @abstractmethod
    async def finish_analysis(self, table_id: str, seat: int, owner: str,
                              result: dict[str, Any] | None, now: float) -> bool:
        """Store the document (``done``), or None for ``failed``; only while ``owner`` holds
        the claim (False otherwise: another process took it over)."""
