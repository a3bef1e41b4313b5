"""What a table tells about a deal or an action, built for each seat: every seat hears the
public event, and a draw's tile is told only to the one who drew it, in an event built for
that seat. No event shared by several seats ever holds a hidden tile.

The scoring sentence's parts are computed here (no rules in the browser).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fives.core.history import LogEntry
from fives.core.state import State
from fives.core.tiles import ACTIONS, ALL_TILES
from fives.store.base import How

__all__ = ["Event", "deal_event", "event_of"]


@dataclass(frozen=True)
class Event:
    """One change at a table: what everyone is told, and what one seat is told instead."""

    public: dict[str, Any]
    seat: int | None = None  # the seat told more, if any
    private: dict[str, Any] | None = None  # what that seat is told

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        if seat is not None and seat == self.seat and self.private is not None:
            return self.private
        return self.public

    @property
    def full(self) -> dict[str, Any]:
        """Everything, for a replay of a finished match (every hand is shown there)."""
        return self.private if self.private is not None else self.public


def deal_event(state: State, n: int) -> Event:
    return Event({"n": n, "kind": "deal", "round": state.round_index, "leader": state.leader})


def event_of(state: State, entry: LogEntry, how: How, n: int) -> Event:
    """The events of one action just applied to ``state``."""
    seat, code, ends, points, tile = entry
    action = ACTIONS[code]
    public: dict[str, Any] = {"n": n, "seat": seat, "action": str(action), "kind": action.kind,
                              "how": how}
    if action.is_play:
        lay = state.layout
        contributions = lay.contributions()
        game = state.config.game
        would = game.play_points[ends]
        public.update(
            tile=str(action.tile),
            end="WENS"[action.end] if action.end is not None else None,
            ends=ends,
            points=points,
            parts=[c.counted for c in contributions],
            sum=" + ".join(str(c.counted) for c in contributions) or "0",
            total=lay.ends_total(),
            # the step from the total to the points where they differ (FT-6): "12 ÷ 3"
            division=game.division(lay.ends_total()),
            discarded=bool(game.exact_target and would and points != would),
            would=would,
        )
    elif action.kind == "draw" and tile >= 0:
        return Event(public, seat, {**public, "tile": str(ALL_TILES[tile])})
    return Event(public)
