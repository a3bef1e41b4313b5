"""medium's heuristic: the chance that the next seat can answer a play at all counts against it
(in Block a seat that cannot answer passes; in drawing games it draws), with each tile the seat
cannot see held with the same chance; and what the next seat could score in reply counts as
its expectation under that chance, not as the best tile's points."""

from __future__ import annotations

import math
import random

from test_ladder import _position

from fives.bots.ladder import MediumBot
from fives.core.tiles import Action
from fives.core.view import view_of


class _NoBlockTerm(MediumBot):
    block_weight = 0.0


def test_medium_counts_the_chance_the_next_seat_can_answer() -> None:
    # Block, hands of four, 6-6 led by seat 0, which holds three tiles of the 23 seat 1 cannot
    # see. After 2-6 the ends are 6 and 2: 1-6 3-6 4-6 5-6 and 0-2 1-2 2-2 2-5 fit (8 tiles;
    # 2-3 and 2-4 are seat 1's own). After 0-6, 6 and 0: the same four 6s and 0-0 0-1 0-2 0-3
    # 0-4 0-5 (10 tiles).
    state = _position("block", ["6-6 1-1 1-3 3-3", "0-6 2-6 2-3 2-4"], "6-6")
    view = view_of(state, 1)
    with_term = MediumBot().values(view, random.Random(0))
    without = _NoBlockTerm().values(view, random.Random(0))
    miss = 1 - 3 / 23
    for action, fitting in (("2-6@W", 8), ("0-6@W", 10)):
        a = Action.parse(action)
        term = MediumBot.block_weight * (1 - miss ** fitting)
        assert math.isclose(without[a] - with_term[a], term), action
