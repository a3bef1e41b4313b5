"""Our bots, weakest first: random, easy, medium, hard, expert (and cheat, for measurement)."""

from __future__ import annotations

import random

from fives.bots.base import Bot, register_bot
from fives.core.tiles import Action
from fives.core.view import View

__all__ = ["EasyBot", "RandomBot", "play_points"]


def play_points(view: View, action: Action) -> int:
    """What a play would score now for the player's side (0 for draws and passes).

    Fives and Threes points that would pass the target are worth nothing (FT-10).
    """
    tile = action.tile
    if tile is None:
        return 0
    lay = view.layout
    end = action.end if action.end is not None else 0
    total = lay.total_after(tile.id, end)
    points = view.config.game.play_points[total]
    if points and view.config.game.exact_target and view.seat is not None:
        side = view.config.side_of(view.seat)
        if view.scores[side] + points > view.config.target:
            return 0
    return points


def _weight(action: Action) -> int:
    tile = action.tile
    return tile.pips if tile is not None else -1


class RandomBot(Bot):
    """A uniformly random legal action."""

    name = "random"

    def choose(self, view: View, rng: random.Random) -> Action:
        return view.legal[int(rng.random() * len(view.legal))]


class EasyBot(Bot):
    """Greedy: the play that scores most now; ties (and games without play points) go to the
    heaviest tile; remaining ties at random."""

    name = "easy"

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        best: list[Action] = []
        best_key = (-1, -1)
        for action in legal:
            key = (play_points(view, action), _weight(action))
            if key > best_key:
                best_key = key
                best = [action]
            elif key == best_key:
                best.append(action)
        return best[int(rng.random() * len(best))]

    def values(self, view: View, rng: random.Random) -> dict[Action, float]:
        return {a: float(play_points(view, a)) + _weight(a) / 100 for a in view.legal}


register_bot("random", RandomBot)
register_bot("easy", EasyBot)

