"""Frames of a finished match for the replay viewer: every hand face up, step by step."""

from __future__ import annotations

from typing import Any

from fives.core.record import Record, score_json
from fives.core.state import State
from fives.core.tiles import Action
from fives.server.events import Event, deal_event, event_of
from fives.server.summary import result_of, round_summary

__all__ = ["replay_frames"]


def _frame(state: State, event: Event) -> dict[str, Any]:
    return {
        "hands": [[str(t) for t in state.hand(s)] for s in range(state.n)],
        "stock": state.stock_left(),
        "layout": state.layout.explain(),
        "scores": [score_json(s) for s in state.scores_out()],
        "turn": state.turn if state.turn >= 0 else None,
        "event": event.full,  # the drawn tile too: every hand is shown here
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
        frames = [_frame(state, deal_event(state, n))]
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
