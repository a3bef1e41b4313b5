"""A learned evaluation (issue 27): what a round is worth to a seat, from that seat's view.

A small network (one hidden layer of rectified units) reads a seat's view — its own tiles, the
tiles on the table, the open ends, the others' hand sizes and proven voids, the stock, who is
to move, the game, the player count and how far each side is from the target — and estimates
the rest of the round's point margin for the seat's side: the points its side will still
score, less the others' average (the round-end payment of pips included), in points.

:func:`round_value` adds the margin already scored this round, so a finished round's value is
exactly its margin. :func:`action_values` is the network's one-ply opinion of each legal action
(the points it scores now plus the value of the position it leaves), the prior ``hard`` and
``expert`` may add to their searches' averages.

The weights are trained by ``fives train value-net`` (:mod:`fives.bots.valuetrain`, numpy, on
matches the engine plays itself, seeded) and shipped as ``value_net.json`` beside this module.
Play needs no numpy: the first layer is a sum of the weight rows of the features that are set
(most are 0 or 1), a few hundred additions a position.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from fives.bots.search import _best_reply
from fives.core.games import GAMES, Config
from fives.core.layout import Layout
from fives.core.sampling import proven_voids
from fives.core.state import State
from fives.core.tiles import ALL_TILES, Action, mask_of
from fives.core.view import View

__all__ = [
    "FEATURES", "NET_FILE", "SCALE", "ValueNet", "action_values", "encode", "features",
    "features_after", "rest_value", "round_value", "shipped_net", "world_leaf",
]

#: the shipped weights, beside this module
NET_FILE: Final = "value_net.json"
#: the network's output is the margin in tens of points (targets of order one train better)
SCALE: Final = 10.0

_GAMES: Final = tuple(sorted(GAMES))
_HAND: Final = 0  # 28: my tiles
_TABLE: Final = 28  # 28: tiles on the table
_ENDS: Final = 56  # 7: open ends showing each number
_TOTAL: Final = 63  # the ends' total / 10
_NOW: Final = 64  # what the ends' total scores now / 10
_SIZES: Final = 65  # 3: the hand sizes of the next seats / 7
_MINE: Final = 68  # my hand size / 7
_STOCK: Final = 69  # the stock / 14
_TURN: Final = 70  # 4: who is to move, counted from me
_GAME: Final = 74  # 5: the game
_PLAYERS: Final = 79  # 3: two, three or four players
_TEAMS: Final = 82  # partnerships
_VOIDS: Final = 83  # 3 × 7: numbers the next seats are proven not to hold
_NEAR: Final = 104  # my side's distance to the target / target
_OTHERS: Final = 105  # the nearest other side's distance / target
_UNSEEN: Final = 106  # 7: tiles I have not seen, per number / 7
_HELD: Final = 113  # 7: my tiles, per number / 7
_MY_BEST: Final = 120  # the most one of my tiles could score on the layout now / 10
_THEIR_BEST: Final = 121  # the most an unseen tile the next other seat may hold could / 10
#: the number of inputs
FEATURES: Final = 122

_NUMBERS: Final = tuple(tuple(v for v in range(7) if t.has(v)) for t in ALL_TILES)


def encode(
    config: Config, seat: int, hand: int, table: int, layout: Layout,
    hand_sizes: Sequence[int], stock: int, turn: int | None, voids: Sequence[int],
    scores: Sequence[float],
) -> dict[int, float]:
    """The inputs that are not 0, by index: the one encoding the trainer and the bots share.

    ``hand`` and ``table`` are tile masks; ``voids`` a 7-bit mask per seat; ``scores`` per
    side; ``turn`` the seat to move (None: the round is over)."""
    n = config.players
    x: dict[int, float] = {}
    unseen = [0] * 7
    held = [0] * 7
    for t in ALL_TILES:
        bit = t.mask
        if hand & bit:
            x[_HAND + t.id] = 1.0
            for v in _NUMBERS[t.id]:
                held[v] += 1
        elif table & bit:
            x[_TABLE + t.id] = 1.0
        else:
            for v in _NUMBERS[t.id]:
                unseen[v] += 1
    ends = [0] * 7
    for _, v in layout.ends:
        ends[v] += 1
    for v in range(7):
        if ends[v]:
            x[_ENDS + v] = float(ends[v])
        if unseen[v]:
            x[_UNSEEN + v] = unseen[v] / 7.0
        if held[v]:
            x[_HELD + v] = held[v] / 7.0
    total = layout.ends_total()
    if total:
        x[_TOTAL] = total / 10.0
        now = config.game.play_points[total]
        if now:
            x[_NOW] = now / 10.0
    for k in range(1, n):
        other = (seat + k) % n
        if hand_sizes[other]:
            x[_SIZES + k - 1] = hand_sizes[other] / 7.0
        for v in range(7):
            if voids[other] >> v & 1:
                x[_VOIDS + 7 * (k - 1) + v] = 1.0
    if hand_sizes[seat]:
        x[_MINE] = hand_sizes[seat] / 7.0
    if stock:
        x[_STOCK] = stock / 14.0
    if turn is not None:
        x[_TURN + (turn - seat) % n] = 1.0
    # what one play could score now, for me and for the next other seat: the arithmetic of
    # the ends' total is what a small network learns worst
    table_points = config.game.play_points
    other = turn if turn is not None and turn != seat else (seat + 1) % n
    unseen_mask = ~(hand | table) & _ALL
    my_best = _best_play(layout, hand, table_points)
    their_best = _best_play(layout, _without_numbers(unseen_mask, voids[other]), table_points)
    if my_best:
        x[_MY_BEST] = my_best / 10.0
    if their_best:
        x[_THEIR_BEST] = their_best / 10.0
    x[_GAME + _GAMES.index(config.game.name)] = 1.0
    x[_PLAYERS + n - 2] = 1.0
    if config.teams:
        x[_TEAMS] = 1.0
    target = float(config.target)
    side = config.side_of(seat)
    mine = max(0.0, target - float(scores[side])) / target
    others = min(max(0.0, target - float(s)) for i, s in enumerate(scores) if i != side) / target
    if mine:
        x[_NEAR] = mine
    if others:
        x[_OTHERS] = others
    return x


_ALL: Final = (1 << 28) - 1
_WITH_NUMBER: Final = tuple(sum(t.mask for t in ALL_TILES if t.has(v)) for v in range(7))


def _without_numbers(mask: int, numbers: int) -> int:
    for v in range(7):
        if numbers >> v & 1:
            mask &= ~_WITH_NUMBER[v]
    return mask


def _best_play(layout: Layout, tiles: int, table: Sequence[int]) -> int:
    """The most points one of ``tiles`` (a mask) could score on ``layout`` now (as a lead, on
    an empty layout)."""
    if layout.count:
        return _best_reply(layout, tiles, list(table))
    return max((table[layout.total_after(t.id, 0)] for t in ALL_TILES if tiles & t.mask),
               default=0)


def _voids(view: View) -> list[int]:
    return [0 if s == view.seat else proven_voids(view, s) for s in range(view.config.players)]


def features(view: View) -> dict[int, float]:
    """The inputs of ``view``'s position, for its seat."""
    assert view.seat is not None
    return encode(view.config, view.seat, mask_of(view.hand), mask_of(view.layout.tiles()),
                  view.layout, view.hand_sizes, view.stock, view.turn, _voids(view),
                  [float(s) for s in view.scores])


def features_after(view: View, action: Action, voids: Sequence[int] | None = None,
                   ) -> tuple[dict[int, float], int]:
    """The inputs of the position ``action`` (a play of the seat to move, ``view``'s own)
    leaves, and the points it scores now for the seat's side."""
    seat = view.seat
    assert seat is not None and action.tile is not None
    tile = action.tile
    lay = view.layout.copy()
    total = lay.place(tile.id, action.end if action.end is not None else 0)
    cfg = view.config
    side = cfg.side_of(seat)
    points = cfg.counted_points(total, view.scores[side])
    scores = [float(s) for s in view.scores]
    scores[side] += points
    sizes = list(view.hand_sizes)
    sizes[seat] -= 1
    n = cfg.players
    nxt = (seat + 1) % n
    while view.out and view.out[nxt] and nxt != seat:
        nxt = (nxt + 1) % n
    hand = mask_of(view.hand) & ~tile.mask
    turn = None if sizes[seat] == 0 else nxt
    x = encode(cfg, seat, hand, mask_of(view.layout.tiles()) | tile.mask, lay, sizes,
               view.stock, turn, voids if voids is not None else _voids(view), scores)
    return x, points


@dataclass(frozen=True)
class ValueNet:
    """One hidden layer: ``w1`` is FEATURES rows of ``hidden`` weights, ``w2`` one weight per
    hidden unit; the output is in tens of points."""

    w1: tuple[tuple[float, ...], ...]
    b1: tuple[float, ...]
    w2: tuple[float, ...]
    b2: float

    @property
    def hidden(self) -> int:
        return len(self.b1)

    def __call__(self, x: Mapping[int, float]) -> float:
        """The rest of the round's margin, in points, for the inputs ``x``."""
        h = list(self.b1)
        w1 = self.w1
        r = range(len(h))
        for i, value in x.items():
            row = w1[i]
            if value == 1.0:
                for j in r:
                    h[j] += row[j]
            else:
                for j in r:
                    h[j] += value * row[j]
        out = self.b2
        w2 = self.w2
        for j in r:
            if h[j] > 0.0:
                out += h[j] * w2[j]
        return out * SCALE

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> ValueNet:
        w1 = tuple(tuple(float(v) for v in row) for row in data["w1"])
        b1 = tuple(float(v) for v in data["b1"])
        w2 = tuple(float(v) for v in data["w2"])
        if len(w1) != FEATURES or any(len(row) != len(b1) for row in w1) or len(w2) != len(b1):
            raise ValueError(f"a value network of {FEATURES} inputs was expected, "
                             f"not {len(w1)} by {len(b1)}")
        return ValueNet(w1, b1, w2, float(data["b2"]))


@functools.cache
def shipped_net() -> ValueNet | None:
    """The network the package ships (None if its file is missing)."""
    try:
        text = resources.files(__package__).joinpath(NET_FILE).read_text("utf-8")
    except (OSError, ValueError):
        return None
    return ValueNet.from_json(json.loads(text)["net"])


def rest_value(view: View, net: ValueNet) -> float:
    """The rest of the round's margin for ``view``'s seat (0 once the round is over)."""
    if view.turn is None or view.end is not None:
        return 0.0
    return net(features(view))


def round_value(view: View, net: ValueNet) -> float:
    """The round's margin for the seat's side: what is scored since the deal, less the others'
    average, plus what the network expects of the rest (exactly the margin once it is over)."""
    assert view.seat is not None
    start = view.round_start_scores or tuple(0 for _ in view.scores)
    side = view.config.side_of(view.seat)
    gains = [float(s) - float(b) for s, b in zip(view.scores, start, strict=True)]
    others = [g for i, g in enumerate(gains) if i != side]
    return gains[side] - sum(others) / len(others) + rest_value(view, net)


def world_leaf(view: View, net: ValueNet) -> Callable[[State], float]:
    """The rest of the round's margin for ``view``'s seat in a sampled world of its search,
    valued as if the seat saw that world's position from its own chair: its own tiles, the
    table, the hand sizes, the stock, and the voids proven at the view (a search's playouts
    leave the others' hands to the world, not to the leaf)."""
    seat = view.seat
    assert seat is not None
    voids = _voids(view)

    def value(state: State) -> float:
        if state.turn < 0:
            return 0.0
        return net(encode(state.config, seat, state.hands[seat], mask_of(state.layout.tiles()),
                          state.layout, state.hand_sizes(), state.stock_left(), state.turn,
                          voids, [float(s) for s in state.scores]))

    return value


def action_values(view: View, net: ValueNet) -> dict[Action, float]:
    """Each legal action's points now plus the network's value of the position it leaves, for
    the seat to move (an action that plays no tile is valued as the position itself)."""
    voids = _voids(view)
    here = rest_value(view, net)
    out: dict[Action, float] = {}
    for action in view.legal:
        if action.tile is None:
            out[action] = here
            continue
        x, points = features_after(view, action, voids)
        # a play that goes out leaves no one to move: the network, trained on such positions
        # too, values the payment of the others' pips still to come
        out[action] = points + net(x)
    return out
