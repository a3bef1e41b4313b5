"""What a seat may know, as numbers: the tensors of the OpenSpiel observers and the PettingZoo
observations.

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

from fives.bridges.table import DEAL, DRAWING, LOT, PLAY, Table, round_action_bound
from fives.core.games import Config
from fives.core.layout import Layout
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


def _voids(config: Config, log: list[tuple[int, int, int, int, int]]) -> list[int]:
    """Per seat, the numbers (7-bit masks) its present hand is proven not to hold (the rule of
    :func:`fives.core.sampling.proven_voids`, on the full log)."""
    lay = Layout(config.game.spinner, config.side_arm_gate)
    numbers = [0] * config.players
    for k, (who, code, _ends, _points, _tile) in enumerate(log):
        if code < _DRAW:
            if code >= LEAD_BASE:
                lay.place(code - LEAD_BASE, 0)
            else:
                lay.place(code >> 2, code & 3)
            continue
        for _, v in lay.ends:
            numbers[who] |= 1 << v
        if code == _DRAW:
            nxt = log[k + 1] if k + 1 < len(log) else None
            if nxt is None or nxt[0] != who or nxt[1] >= _DRAW:
                numbers[who] = 0  # a kept tile: not covered until the next draw or pass
    return numbers


class Encoder:
    """Writes a seat's knowledge of a :class:`Table` into a flat float32 tensor."""

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

    def encode(self, table: Table, seat: int) -> np.ndarray:
        """Fill :attr:`tensor` (and the views in :attr:`dict`) for ``seat``; return it."""
        self.tensor.fill(0.0)
        d = self.dict
        cfg = self.config
        n = cfg.players
        st = table.state
        phase = table.phase
        d["seat"][seat] = 1.0
        d["phase"][(0 if phase in (DEAL, LOT) else 1 if phase is PLAY else 2 if phase is DRAWING else 3)] = 1.0
        for rel in range(n):
            d["scores"][rel] = float(st.scores[cfg.side_of((seat + rel) % n)])
        if self.perfect_recall:
            d["round"][0] = float(table.rounds)
        if phase in (DEAL, LOT):
            mine = table.dealt_to(seat)
            for t in range(28):
                if mine >> t & 1:
                    d["hand"][t] = 1.0
                    if self.perfect_recall:
                        d["dealt"][t] = 1.0
            size = cfg.hand_size
            for rel in range(n):
                other = (seat + rel) % n
                d["hand_sizes"][rel] = float(min(size, max(0, len(table.dealt) - other * size)))
            return self.tensor
        hand = st.hands[seat]
        lay = st.layout
        for t in range(28):
            if hand >> t & 1:
                d["hand"][t] = 1.0
        for tile in lay.tiles():
            d["table"][tile.id] = 1.0
        ends = d["ends"]
        for e, v in lay.ends if lay.count else ():
            ends[e, 0] = 1.0
            ends[e, 1 + v] = 1.0
        for c in lay.contributions():
            d["counted"][c.end] = float(c.counted)
        d["spinner"][0] = 1.0 if lay.spinner >= 0 else 0.0
        d["stock"][0] = float(st.stock_left())
        voids = _voids(cfg, st.log)
        for rel in range(n):
            other = (seat + rel) % n
            d["hand_sizes"][rel] = float(st.hands[other].bit_count())
            d["out"][rel] = 1.0 if st.out[other] else 0.0
            for v in range(7):
                if voids[other] >> v & 1:
                    d["voids"][rel, v] = 1.0
        if st.turn >= 0:
            d["turn"][(st.turn - seat) % n] = 1.0
        if self.perfect_recall:
            dealt = st.dealt[seat]
            for t in range(28):
                if dealt >> t & 1:
                    d["dealt"][t] = 1.0
            d["leader"][(st.leader - seat) % n] = 1.0
            history = d["history"]
            rows = history.shape[0]
            for k, (who, code, _ends, _points, drawn) in enumerate(st.log[:rows]):
                row = history[k]
                row[(who - seat) % n] = 1.0
                base = n
                if code >= LEAD_BASE:
                    if code == _DRAW:
                        row[base + 2] = 1.0
                        if who == seat and drawn >= 0:
                            row[base + 4 + 28 + 4 + drawn] = 1.0
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

