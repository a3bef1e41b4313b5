"""medium's heuristic: the chance that the next seat can answer a play at all counts against it
(in Block a seat that cannot answer passes; in drawing games it draws), with each tile the seat
cannot see held with the same chance; and what the next seat could score in reply counts as
its expectation under that chance, not as the best tile's points."""

from __future__ import annotations

import math
import random

from test_ladder import _position

from fives.bots.ladder import MediumBot
from fives.core.tiles import ALL_TILES, Action
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
    with_term = MediumBot(fitted=False).values(view, random.Random(0))
    without = _NoBlockTerm(fitted=False).values(view, random.Random(0))
    miss = 1 - 3 / 23
    for action, fitting in (("2-6@W", 8), ("0-6@W", 10)):
        a = Action.parse(action)
        term = MediumBot.block_weight * (1 - miss ** fitting)
        assert math.isclose(without[a] - with_term[a], term), action


class _NoReply(_NoBlockTerm):
    reply_weight = 0.0


def test_medium_counts_the_next_seats_reply_as_its_expectation() -> None:
    # All Fives, hands of four, 5-5 led (the spinner, 10): seat 0 holds three tiles of the 23
    # seat 1 cannot see, each as likely. Each tile that could answer scores its best placement
    # on the board the play leaves; the best tile held is the one played: sorted from the
    # most, the i-th counts when it is held and none before it is.
    state = _position("all-fives", ["5-5 1-2 1-3 1-4", "0-5 4-5 5-6 3-5"], "5-5")
    view = view_of(state, 1)
    seen = {t.id for t in view.hand} | {t.id for t in view.layout.tiles()}
    unseen = [t for t in ALL_TILES if t.id not in seen]
    chance = 3 / len(unseen)
    with_reply = _NoBlockTerm(fitted=False).values(view, random.Random(0))
    without = _NoReply(fitted=False).values(view, random.Random(0))
    for action in view.legal:
        assert action.tile is not None and action.end is not None
        after = view.layout.copy()
        after.place(action.tile.id, action.end)
        table = view.config.game.play_points
        best = sorted((max([table[after.copy().place(t.id, e)] for e, v in after.ends
                            if t.has(v)], default=0) for t in unseen), reverse=True)
        expected = sum(r * chance * (1 - chance) ** i for i, r in enumerate(best))
        assert math.isclose(without[action] - with_reply[action], expected), action
