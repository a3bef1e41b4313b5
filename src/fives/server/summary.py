"""What the browser shows about a round's end and a match's result, computed here (no rules
in the browser): the round summary's lines (pips, rounding, who is paid, half points, the
hand-ending point, a discarded event over 61). A play's scoring sentence is in
:mod:`fives.server.events`.

All of it is public: nothing here names a tile still hidden in a hand or the stock.
"""

from __future__ import annotations

from typing import Any

from fives.core.record import score_json
from fives.core.state import State
from fives.core.tiles import round_to_five

__all__ = ["result_of", "round_summary"]


def _side_seats(state: State, side: int) -> list[int]:
    return [s for s in range(state.n) if state.side[s] == side]


def round_summary(state: State) -> dict[str, Any] | None:
    """The summary of the round that just ended (None while it is in play)."""
    end = state.round_end
    if end is None:
        return None
    cfg = state.config
    game = cfg.game
    n = state.n
    pips = list(end.pips)
    sides = cfg.sides
    side_pips = [sum(pips[s] for s in _side_seats(state, side)) for side in range(sides)]
    hand_counts = state.hand_sizes()
    lines: list[dict[str, Any]] = []
    payment = end.payment
    winner = end.winner
    if payment == "target":
        scorer = state.winner
        lines.append({"kind": "target", "side": scorer})
    elif payment == "pool":
        assert winner is not None
        payers = [s for s in range(n) if state.side[s] != winner]
        total = sum(pips[s] for s in payers)
        lines.append({
            "kind": "pool", "side": winner, "seats": payers,
            "pips": [pips[s] for s in payers], "sum": total,
            "rounded": round_to_five(total), "points": score_json(end.points[winner]),
        })
    elif payment == "each":
        assert winner is not None
        payers = [s for s in range(n) if state.side[s] != winner]
        lines.append({
            "kind": "each", "side": winner,
            "items": [{"seat": s, "pips": pips[s], "rounded": round_to_five(pips[s])}
                      for s in payers],
            "points": score_json(end.points[winner]),
        })
    elif payment == "plain":
        assert winner is not None
        payers = [s for s in range(n) if state.side[s] != winner]
        lines.append({
            "kind": "plain", "side": winner,
            "items": [{"seat": s, "pips": pips[s]} for s in payers],
            "points": score_json(end.points[winner]),
        })
    elif payment == "split":
        tied = [side for side in range(sides) if end.points[side]]
        third = next(side for side in range(sides) if side not in tied)
        lines.append({
            "kind": "split", "sides": tied, "from": third, "pips": side_pips[third],
            "rounded": round_to_five(side_pips[third]),
            "half": score_json(end.points[tied[0]]),
        })
    elif payment == "bonus":
        assert winner is not None
        lines.append({"kind": "bonus", "side": winner,
                      "points": score_json(end.points[winner])})
    elif payment == "discarded":
        lines.append({"kind": "discarded", "side": winner, "points": end.discarded,
                      "target": cfg.target})
    elif payment == "tie":
        lines.append({"kind": "tie"})
    else:  # "none": a Fives and Threes block
        lines.append({"kind": "no_score", "blocked": end.reason == "blocked"})
    if game.remaining == "none" and payment != "target":
        lines.append({"kind": "tiles_never_score"})
    return {
        "round": state.round_index,
        "reason": end.reason,
        "winner": winner,
        "went_out": end.went_out,
        "pips": pips,
        "tiles": hand_counts,
        "side_pips": side_pips,
        "points": [score_json(p) for p in end.points],
        "payment": payment,
        "lines": lines,
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
