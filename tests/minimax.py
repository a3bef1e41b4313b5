"""The true value of the rest of a round with every tile known: plain minimax, no pruning and
none of the bots' code, for the tests that check the bots' values against it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fives.bots.search import outcome_value
from fives.core.state import State


def plain_minimax(state: State, before: Sequence[float], side: int,
                  ours: Callable[[State], bool] | None = None,
                  match_weight: float = 0.0) -> float:
    """The rest of the round by plain minimax (no pruning) for ``side``: the seats that play
    for it are ``ours`` (by default its partners too); a match won or lost at the round's end
    is worth ``match_weight`` more or less."""
    if state.turn < 0:
        return outcome_value(state, before, side, match_weight)
    values = []
    for code in state.legal_codes():
        st = state.copy()
        st.apply_code(code)
        values.append(plain_minimax(st, before, side, ours, match_weight))
    mine = ours(state) if ours is not None else state.config.side_of(state.turn) == side
    return max(values) if mine else min(values)
