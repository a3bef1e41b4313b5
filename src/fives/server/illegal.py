"""Why an action is refused, as a catalogue code (the engine's reasons are English text).

The engine decides legality; this only names the reason so the server can say it in the
player's language.
"""

from __future__ import annotations

from typing import Any

from fives.core.state import State
from fives.core.tiles import DRAW, END_NAMES, PASS, Action, NotationError

__all__ = ["illegal_reason"]


def illegal_reason(state: State, text: str) -> tuple[str, dict[str, Any]]:
    """(code, params) for an action the engine refuses; codes are ``web.error.<code>``."""
    try:
        act = Action.parse(text)
    except NotationError:
        return "illegal_notation", {}
    legal = state.legal_actions()
    if act in legal:
        return "illegal", {}
    lay = state.layout
    seat = state.turn
    if act == DRAW:
        if not state.config.game.drawing:
            return "illegal_no_drawing", {}
        if state.stock_left() == 0:
            return "illegal_stock_empty", {}
        return "illegal_must_play", {}
    if act == PASS:
        if DRAW in legal:
            return "illegal_must_draw", {}
        return "illegal_must_play", {}
    tile = act.tile
    assert tile is not None
    if not state.hands[seat] & tile.mask:
        return "illegal_not_held", {"tile": str(tile)}
    if DRAW in legal or PASS in legal:
        return "illegal_no_fit", {"tile": str(tile)}
    if act.kind == "lead":
        if lay.count:
            return "illegal_needs_end", {}
        first = legal[0].tile
        return "illegal_lead_forced", {"tile": str(first)}
    if lay.count == 0:
        return "illegal_lead_no_end", {}
    open_ends = dict(lay.ends)
    end = act.end
    assert end is not None
    if end not in open_ends:
        if lay.spinner >= 0 and end >= 2:
            return "illegal_side_arm", {}
        return "illegal_end_closed", {"end": END_NAMES[end]}
    if not tile.has(open_ends[end]):
        return "illegal_no_fit_end", {"tile": str(tile), "end": END_NAMES[end], "value": open_ends[end]}
    log = state.log
    if log and log[-1][0] == seat and log[-1][1] == int(DRAW):
        return "illegal_play_drawn", {}
    return "illegal", {}
