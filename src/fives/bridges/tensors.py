"""What a seat may know, as numbers: the tensors of the OpenSpiel observers and the PettingZoo
observations, written from the seat's :class:`~fives.bridges.knowledge.Knowledge` (its view).

A tensor is a flat float32 vector made of named pieces (OpenSpiel's ``observer.dict``). Seats
are written relative to the observer (index 0 is the observer, 1 the next seat clockwise ...),
except ``seat``, the observer's own seat. Counts and pips are raw numbers, flags are 0 or 1.

The observation (the present):

========== ======== ==========================================================================
piece      shape    meaning
========== ======== ==========================================================================
seat       n        the observer's seat, one-hot
phase      4        dealing (or the lot), a seat to act, a draw in progress, over
hand       28       the observer's tiles
table      28       the tiles on the table
ends       4 x 8    per end W, E, N, S: open, then the number it shows (one-hot 0..6)
counted    4        per end, what it adds to the ends total
spinner    1        a spinner is down
hand_sizes n        tiles in each hand
stock      1        tiles left to draw
turn       n        the seat to act, one-hot
out        n        seats that went out and sit out (Fives and Threes partners)
scores     n        the score of each seat's side
voids      n x 7    numbers each seat is proven not to hold (it drew or passed on them)
========== ======== ==========================================================================

The information state adds the round in play from its start:

========== ======== ==========================================================================
round      1        the number of the round in the match (1 in a single round)
dealt      28       the observer's dealt hand
leader     n        the leader, one-hot
history    H x k    one row per move: seat (n), kind (lead, play, draw, pass), tile (28), end
                    (4), and the tile drawn (28, only for the observer's own draws);
                    ``H`` = :func:`~fives.bridges.table.round_action_bound`
========== ======== ==========================================================================

Earlier rounds of a match enter the tensor only through the scores (they do not bear on the
rest of the match); the information state string holds them in full.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from fives.bridges.knowledge import Knowledge
from fives.bridges.table import DRAWING, PLAY, round_action_bound
from fives.core.games import Config
from fives.core.tiles import LEAD_BASE

__all__ = ["Encoder", "pieces"]

_DRAW: Final = 140
_PASS: Final = 141


def pieces(config: Config, perfect_recall: bool) -> list[tuple[str, tuple[int, ...]]]:
    """The named pieces of the tensor, in order, with their shapes."""
    n = config.players
    out: list[tuple[str, tuple[int, ...]]] = [
        ("seat", (n,)),
        ("phase", (4,)),
        ("hand", (28,)),
        ("table", (28,)),
        ("ends", (4, 8)),
        ("counted", (4,)),
        ("spinner", (1,)),
        ("hand_sizes", (n,)),
        ("stock", (1,)),
        ("turn", (n,)),
        ("out", (n,)),
        ("scores", (n,)),
        ("voids", (n, 7)),
    ]
    if perfect_recall:
        out += [
            ("round", (1,)),
            ("dealt", (28,)),
            ("leader", (n,)),
            ("history", (round_action_bound(config), n + 4 + 28 + 4 + 28)),
        ]
    return out


class Encoder:
    """Writes a seat's :class:`~fives.bridges.knowledge.Knowledge` into a flat float32 tensor."""

    def __init__(self, config: Config, perfect_recall: bool) -> None:
        self.config = config
        self.perfect_recall = perfect_recall
        self.pieces = pieces(config, perfect_recall)
        self.size = sum(int(np.prod(shape)) for _, shape in self.pieces)
        self.tensor = np.zeros(self.size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        offset = 0
        for name, shape in self.pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[offset : offset + size].reshape(shape)
            offset += size

    def encode(self, known: Knowledge) -> np.ndarray:
        """Fill :attr:`tensor` (and the views in :attr:`dict`) with what a seat knows (from
        :func:`~fives.bridges.knowledge.knowledge_of`); return it."""
        self.tensor.fill(0.0)
        d = self.dict
        cfg = self.config
        n = cfg.players
        seat = known.seat
        view = known.view
        phase = known.phase
        d["seat"][seat] = 1.0
        d["phase"][(0 if known.in_deal else 1 if phase is PLAY else 2 if phase is DRAWING else 3)] = 1.0
        for rel in range(n):
            d["scores"][rel] = float(view.scores[cfg.side_of((seat + rel) % n)])
        if self.perfect_recall:
            d["round"][0] = float(known.rounds)
        want_dealt = self.perfect_recall or known.in_deal
        dealt = [t for t in range(28) if known.dealt >> t & 1] if want_dealt else []
        if self.perfect_recall:
            d["dealt"][dealt] = 1.0
        if known.in_deal:
            d["hand"][dealt] = 1.0  # the tiles dealt to the seat so far
            size = cfg.hand_size
            for rel in range(n):
                other = (seat + rel) % n
                d["hand_sizes"][rel] = float(min(size, max(0, known.dealing - other * size)))
            return self.tensor
        lay = view.layout
        for tile in view.hand:
            d["hand"][tile.id] = 1.0
        for tile in lay.tiles():
            d["table"][tile.id] = 1.0
        ends = d["ends"]
        for e, v in lay.ends if lay.count else ():
            ends[e, 0] = 1.0
            ends[e, 1 + v] = 1.0
        for c in lay.contributions():
            d["counted"][c.end] = float(c.counted)
        d["spinner"][0] = 1.0 if lay.spinner >= 0 else 0.0
        d["stock"][0] = float(view.stock)
        voids = known.voids
        for rel in range(n):
            other = (seat + rel) % n
            d["hand_sizes"][rel] = float(view.hand_sizes[other])
            d["out"][rel] = 1.0 if view.out[other] else 0.0
            for v in range(7):
                if voids[other] >> v & 1:
                    d["voids"][rel, v] = 1.0
        if view.turn is not None:
            d["turn"][(view.turn - seat) % n] = 1.0
        if self.perfect_recall:
            d["leader"][(view.leader - seat) % n] = 1.0
            history = d["history"]
            rows = history.shape[0]
            base = n
            for k, item in enumerate(view.history[:rows]):
                row = history[k]
                who = item.seat
                code = int(item.action)
                row[(who - seat) % n] = 1.0
                if code >= LEAD_BASE:
                    if code == _DRAW:
                        row[base + 2] = 1.0
                        if item.tile is not None:  # only the seat's own draws show their tile
                            row[base + 4 + 28 + 4 + item.tile.id] = 1.0
                    elif code == _PASS:
                        row[base + 3] = 1.0
                    else:
                        row[base + 0] = 1.0
                        row[base + 4 + code - LEAD_BASE] = 1.0
                else:
                    row[base + 1] = 1.0
                    row[base + 4 + (code >> 2)] = 1.0
                    row[base + 4 + 28 + (code & 3)] = 1.0
        return self.tensor
