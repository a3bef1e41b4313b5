"""What the browser shows about a play and a round's end, computed here (no rules in the
browser): the scoring sentence's parts, and the round summary's lines (pips, rounding, who
is paid, half points, the hand-ending point, a discarded event over 61).

All of it is public: nothing here names a tile still hidden in a hand or the stock.
"""

from __future__ import annotations

from typing import Any

from fives.core.account import account_of
from fives.core.history import LogEntry
from fives.core.record import score_json
from fives.core.state import State
from fives.core.tiles import ACTIONS, ALL_TILES

__all__ = ["event_of", "result_of", "round_summary"]


def event_of(state: State, entry: LogEntry, how: str, n: int) -> dict[str, Any]:
    """The public description of one action just applied (a draw's tile is added per seat)."""
    seat, code, ends, points, tile = entry
    action = ACTIONS[code]
    event: dict[str, Any] = {"n": n, "seat": seat, "action": str(action), "kind": action.kind,
                             "how": how}
    if action.is_play:
        lay = state.layout
        contributions = lay.contributions()
        game = state.config.game
        would = game.play_points[ends]
        event.update(
            tile=str(action.tile),
            end="WENS"[action.end] if action.end is not None else None,
            ends=ends,
            points=points,
            parts=[c.counted for c in contributions],
            sum=" + ".join(str(c.counted) for c in contributions) or "0",
            total=lay.ends_total(),
            discarded=bool(game.exact_target and would and points != would),
            would=would,
        )
    elif action.kind == "draw":
        event["drawn"] = ALL_TILES[tile].id if tile >= 0 else None  # removed before sending
    return event


def round_summary(state: State) -> dict[str, Any] | None:
    """The summary of the round that just ended (None while it is in play): the round's
    account (:mod:`fives.core.account`), the scores after it and who leads next."""
    end = state.round_end
    if end is None:
        return None
    return {
        "round": state.round_index,
        **account_of(state.config, end).to_json(),
        "scores": [score_json(s) for s in state.scores_out()],
        "next_leader": _next_leader(state),
    }


def _next_leader(state: State) -> dict[str, Any] | None:
    if state.over:
        return None
    seat = state.expected_leader()
    rule = state.config.game.next_lead
    return {"seat": seat, "rule": rule}


def result_of(state: State) -> dict[str, Any] | None:
    if not state.over:
        return None
    return {
        "winner": state.winner,
        "drawn": state.winner is None,
        "scores": [score_json(s) for s in state.scores_out()],
        "rounds": state.round_index + 1,
    }
