"""What everyone saw of a round: its public actions, and a finished round as a whole.

A draw shows its tile only to the drawer (``seat``); everyone else sees that a draw was made.
A finished round is told as everyone saw it: its leader, its public actions, how it ended
(pips shown, the hands left not held) and the scores after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from fives.core.outcome import RoundEnd, Score
from fives.core.tiles import ACTIONS, ALL_TILES, Action, Tile

__all__ = ["HistoryItem", "LogEntry", "PastRound", "history_of", "public_end"]

#: One action of a round: (seat, action code, ends total, points, drawn tile id).
#: For plays ``tile`` is -1; for draws and passes ``ends`` and ``points`` are -1.
LogEntry = tuple[int, int, int, int, int]


class HistoryItem(NamedTuple):
    """One public action of the round; ``tile`` is set only for the viewer's own draws.

    A named tuple: views are built often (every bot decision, every message), and tuples are
    the cheapest immutable values Python builds."""

    seat: int
    action: Action
    ends: int | None = None
    points: int | None = None
    tile: Tile | None = None

    def to_json(self) -> list[Any]:
        out: list[Any] = [self.seat, str(self.action)]
        if self.tile is not None:
            out.append(str(self.tile))
        return out


@dataclass(frozen=True)
class PastRound:
    """A finished round as everyone saw it: its leader, plays and end, and the scores after."""

    leader: int
    history: tuple[HistoryItem, ...]
    end: RoundEnd | None
    scores: tuple[Score, ...]


def history_of(log: Sequence[LogEntry], seat: int | None) -> tuple[HistoryItem, ...]:
    """The actions of ``log`` as ``seat`` saw them (``None``: as everyone saw them)."""
    out = []
    for who, code, ends, points, tile in log:
        action = ACTIONS[code]
        if action.is_play:
            out.append(HistoryItem(who, action, ends, points))
        else:
            shown = ALL_TILES[tile] if (tile >= 0 and seat is not None and who == seat) else None
            out.append(HistoryItem(who, action, tile=shown))
    return tuple(out)


def public_end(end: RoundEnd | None) -> RoundEnd | None:
    """A round's end as a view holds it: without the hands left (BOT-PROTOCOL.md: a view never
    holds another seat's tiles, even once the round is over; their pips are shown)."""
    return replace(end, left=()) if end is not None and end.left else end
