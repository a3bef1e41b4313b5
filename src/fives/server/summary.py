"""What the browser shows about a round's end and a match's result, computed here (no rules
in the browser): the round's account and the scores after it. A play's scoring sentence is
in :mod:`fives.server.events`.

All of it is public: nothing here names a tile still hidden in a hand or the stock.
"""

from __future__ import annotations

from typing import Any

from fives.core.account import account_of
from fives.core.record import score_json
from fives.core.state import State

__all__ = ["result_of", "round_summary"]


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
