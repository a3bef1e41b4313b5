"""Frames of a finished match for the replay viewer: every hand face up, step by step."""

from __future__ import annotations

from typing import Any

from fives.core.record import Record, score_json
from fives.core.state import State
from fives.core.tiles import Action, Tile
from fives.server.summary import event_of, result_of, round_summary

__all__ = ["replay_frames"]


def _frame(state: State, event: dict[str, Any] | None) -> dict[str, Any]:
    if event is not None and "drawn" in event:
        event = dict(event)
        drawn = event.pop("drawn")
        if drawn is not None:
            event["tile"] = str(Tile.from_id(drawn))
    return {
        "hands": [[str(t) for t in state.hand(s)] for s in range(state.n)],
        "stock": state.stock_left(),
        "layout": state.layout.explain(),
        "scores": [score_json(s) for s in state.scores_out()],
        "turn": state.turn if state.turn >= 0 else None,
        "event": event,
        "summary": round_summary(state),
    }


def replay_frames(record: Record) -> dict[str, Any]:
    """The whole match as frames per round (the record is known to be valid)."""
    state = State(record.config)
    rounds = []
    n = 0
    for rnd in record.rounds:
        state.start_round(rnd.hands, rnd.stock, rnd.leader)
        n += 1
        frames = [_frame(state, {"kind": "deal", "round": state.round_index,
                                 "leader": rnd.leader, "n": n})]
        for text in rnd.actions:
            entry = state.play(Action.parse(text))
            n += 1
            frames.append(_frame(state, event_of(state, entry, "player", n)))
        rounds.append({"leader": rnd.leader, "frames": frames})
    cfg = record.config
    return {
        **cfg.game.properties(),
        "players": cfg.players,
        "teams": cfg.teams,
        "target": cfg.target,
        "seats": record.seats,
        "rounds": rounds,
        "result": result_of(state),
    }
