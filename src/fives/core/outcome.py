"""How a round ends and what it pays: :class:`RoundEnd`, its reasons and payment kinds, and
scores (whole numbers, or exact half points from AF-11's split).

A round's end is told as data; :mod:`fives.core.account` explains it line by line.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from fives.core.tiles import Tile, tiles_of_mask

__all__ = ["EndReason", "Payment", "RoundEnd", "Score", "score_json"]

Score = int | Fraction

#: how a round ended (RECORD.md ``end.reason``)
EndReason = Literal["domino", "blocked", "target"]
#: how a round's end was paid: the winner takes the others' pips pooled and rounded once
#: (``pool``, AF-10), each rounded (``each``, MG-8) or plain (``plain``, DB-4); two tied players
#: share the third's (``split``, AF-11); nobody scores a tie (``tie``); the hand-ending point
#: (``bonus``, FT-7) or its discarding (``discarded``, FT-10); nothing, as the match reached its
#: target (``target``); nothing at all (``none``: a Fives and Threes block)
Payment = Literal["pool", "each", "plain", "split", "tie", "bonus", "discarded", "target", "none"]


def score_json(x: Score) -> int | float:
    """A score for JSON: whole numbers as ints, a half point as ``.5``."""
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    return x


@dataclass(frozen=True)
class RoundEnd:
    """How a round ended and what its end added (RECORD.md ``end``), with the detail behind it."""

    reason: EndReason
    winner: int | None  # the side that won the round
    points: tuple[Score, ...]  # per side, what the round's end added
    pips: tuple[int, ...]  # remaining pips per seat when the round ended
    payment: Payment
    went_out: int | None = None  # the seat that played the last tile (domino)
    discarded: int = 0  # Fives and Threes: points of an end event discarded for passing 61
    #: the tiles each seat still held (a mask per seat): shown to all once the round is over
    left: tuple[int, ...] = ()
    reached: int | None = None  # the side whose points reached the match target (``target``)

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """The tiles each seat still held when the round ended."""
        return tuple(tuple(tiles_of_mask(m)) for m in self.left)

    def to_json(self) -> dict[str, Any]:
        """RECORD.md's ``end`` object, with the detail behind it (pips, payment, ...)."""
        out: dict[str, Any] = {
            "reason": self.reason,
            "winner": self.winner,
            "points": [score_json(p) for p in self.points],
            "pips": list(self.pips),
            "payment": self.payment,
            "went_out": self.went_out,
        }
        if self.left:
            out["hands"] = [[str(t) for t in hand] for hand in self.hands]
        if self.discarded:
            out["discarded"] = self.discarded
        if self.reached is not None:
            out["reached"] = self.reached
        return out
