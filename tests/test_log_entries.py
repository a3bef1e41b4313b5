"""A round's log as the engine writes it (core/history.py's ``LogEntry``), the one source the
records, the views, the server's events and the bridges' texts read: a play carries its ends
total and points and no tile; a draw the tile drawn; a pass nothing (issue 42: a play's tile
field written as 1 would show every play as a draw of 0-1 in the OpenSpiel bridge's text)."""

from __future__ import annotations

import pytest

from fives.core.tiles import ACTIONS
from recordkit import random_states

GAMES = [("all-fives", 2), ("all-fives", 4), ("fives-and-threes", 4), ("muggins", 3),
         ("draw", 2), ("block", 4)]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_play_logs_its_total_and_points_a_draw_its_tile_and_a_pass_nothing(
        game: str, players: int) -> None:
    kinds = set()
    for state in random_states(game, players, seed=players + len(game), rounds=3, ended=True):
        for seat, code, ends, points, tile in state.log:
            action = ACTIONS[code]
            assert 0 <= seat < players
            kinds.add(action.kind)
            if action.is_play:
                assert (ends >= 0, points >= 0, tile) == (True, True, -1), action
            elif action.kind == "draw":
                assert (ends, points) == (-1, -1) and 0 <= tile < 28
            else:
                assert (ends, points, tile) == (-1, -1, -1), action
    assert "draw" in kinds or "pass" in kinds
