"""Why an action is refused, as a catalogue code the browser can say in the player's language.

The engine decides legality and names the reason (``State.refusal``); this maps its reason to
the web catalogue's wording, which speaks to the player ("you must play it").
"""

from __future__ import annotations

from typing import Any

from fives.core.state import State
from fives.core.tiles import DRAW, PASS, Action, NotationError

__all__ = ["illegal_reason"]

#: engine reason key -> ``web.error.<code>``
_CODES = {
    "no_drawing": "illegal_no_drawing",
    "stock_empty": "illegal_stock_empty",
    "must_play_not_draw": "illegal_must_play",
    "must_draw": "illegal_must_draw",
    "must_play": "illegal_must_play",
    "not_held": "illegal_not_held",
    "lead_over": "illegal_needs_end",
    "lead_must_be": "illegal_lead_forced",
    "lead_without_end": "illegal_lead_no_end",
    "side_arm_closed": "illegal_side_arm",
    "end_not_open": "illegal_end_closed",
    "does_not_fit": "illegal_no_fit_end",
    "drawn_tile": "illegal_play_drawn",
}


def illegal_reason(state: State, text: str) -> tuple[str, dict[str, Any]]:
    """(code, params) for an action the engine refuses; codes are ``web.error.<code>``."""
    try:
        act = Action.parse(text)
    except NotationError:
        return "illegal_notation", {}
    reason = state.refusal(act)
    if reason is None:
        return "illegal", {}
    tile = act.tile
    if reason.key == "does_not_fit" and tile is not None:
        legal = state.legal_actions()
        if DRAW in legal or PASS in legal:  # nothing fits at all: say so, not just this end
            return "illegal_no_fit", {"tile": str(tile)}
    params = {k: v for k, v in reason.params.items() if k in ("tile", "end", "value")}
    return _CODES.get(reason.key, "illegal"), params
