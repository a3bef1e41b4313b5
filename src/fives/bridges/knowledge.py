"""What one seat knows at a position of a :class:`~fives.bridges.table.Table`, from its view.

Every per-seat encoding of the bridges (OpenSpiel's information state and observation strings,
written here; the tensors of :mod:`fives.bridges.tensors`, which are also PettingZoo's
observations; PettingZoo's action masks) is written from a :class:`Knowledge`, and a
:class:`Knowledge` is built from nothing but:

- the seat's :class:`~fives.core.view.View` (its hand, the layout, the public history with its
  own draws, hand and stock sizes, scores, whose turn, its legal actions, earlier rounds as
  everyone saw them);
- what follows from that view: the seat's dealt hand (its hand now, plus the tiles it played,
  minus the tiles it drew) and the numbers each seat is proven not to hold;
- the table's public steps around the engine: the phase, the number of the round, whether the
  lead went by lot, and, while a round is being dealt (the engine has no round then, so no view
  holds it), how many tiles are dealt and which of them went to the seat.

So a position that differs from another only in what the seat cannot see (another hand, the
stock) gives the seat the same knowledge, and the same strings and tensors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Final

from fives.bridges.table import DEAL, DRAWING, LOT, OVER, PLAY, Table
from fives.bridges.text import end_text, layout_line, moves_text, score_text, tiles_text
from fives.core.layout import Layout
from fives.core.outcome import RoundEnd
from fives.core.tiles import LEAD_BASE, mask_of
from fives.core.view import HistoryItem, View

__all__ = [
    "Knowledge",
    "VoidsFold",
    "dealt_hand",
    "knowledge_of",
    "knowledge_string",
    "proven_voids_all",
]

_DRAW: Final = 140


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows at one position of a table (see the module docstring)."""

    seat: int
    #: the seat's view; while a round is being dealt, still the view of the round before
    view: View
    phase: str
    #: the number of the round being dealt or played (1 for the first)
    rounds: int
    #: the table plays a whole match (not one round)
    match: bool
    #: the leader of the round in play was drawn by lot
    lot: bool
    #: while dealing: the number of tiles dealt so far, and those dealt to the seat (a mask)
    dealing: int = 0
    dealt_so_far: int = 0
    #: the table's fold of the voids, carried from one position to the next
    fold: VoidsFold | None = field(default=None, compare=False, repr=False)

    @property
    def in_deal(self) -> bool:
        """A round is being dealt or its lead drawn by lot: nobody holds a hand yet."""
        return self.phase is DEAL or self.phase is LOT

    @cached_property
    def dealt(self) -> int:
        """The seat's dealt hand (a tile mask); while dealing, its tiles so far."""
        return self.dealt_so_far if self.in_deal else dealt_hand(self.view)

    @cached_property
    def voids(self) -> tuple[int, ...]:
        """Per seat, the numbers (7-bit masks) its present hand is proven not to hold."""
        if self.in_deal:
            return (0,) * self.view.players
        return (self.fold or VoidsFold()).voids(self.view)

    def earlier_rounds(self) -> list[tuple[int, tuple[HistoryItem, ...], RoundEnd | None]]:
        """The match's finished rounds as everyone saw them: (leader, moves, end); the round
        just ended included while the next is dealt."""
        view = self.view
        rounds = [(r.leader, r.history, r.end) for r in view.past]
        if self.in_deal and view.leader >= 0:
            rounds.append((view.leader, view.history, view.end))
        return rounds


def knowledge_of(table: Table, seat: int) -> Knowledge:
    """What ``seat`` knows at the table's position (worked out once per position)."""
    key = ("knowledge", seat)
    known: Knowledge | None = table.memo.get(key)
    if known is None:
        if not 0 <= seat < table.players:
            raise ValueError(f"no seat {seat!r} at a {table.players}-player table")
        phase = table.phase
        in_deal = phase is DEAL or phase is LOT
        fold = table.carried.get("voids")
        if fold is None:
            fold = table.carried["voids"] = VoidsFold()
        known = table.memo[key] = Knowledge(
            seat, table.view(seat), phase, table.rounds, table.match, table.lot,
            len(table.dealt) if in_deal else 0, table.dealt_so_far(seat) if in_deal else 0, fold,
        )
    return known


def dealt_hand(view: View) -> int:
    """The tiles dealt to the view's seat this round (a mask): its hand, plus the tiles it
    played, minus the tiles it drew (a seat's view shows it its own draws)."""
    seat = view.seat
    mask = mask_of(view.hand)
    drawn = 0
    for item in view.history:
        if item.seat != seat:
            continue
        code = int(item.action)
        if code < LEAD_BASE:
            mask |= 1 << (code >> 2)
        elif code < _DRAW:
            mask |= 1 << (code - LEAD_BASE)
        elif item.tile is not None:
            drawn |= item.tile.mask
    return mask & ~drawn


def proven_voids_all(view: View) -> tuple[int, ...]:
    """Per seat, :func:`fives.core.sampling.proven_voids` of the view, in one pass."""
    return VoidsFold().voids(view)


class VoidsFold:
    """Every seat's proven voids, worked out move by move along a round's public history.

    The rule of :func:`fives.core.sampling.proven_voids`: each draw or pass proves the hand of
    that moment held none of the open numbers; a tile drawn and kept is not covered until the
    seat's next draw or pass. A table keeps one fold as it moves forward, so each new view
    reads only the moves added since the last one (a round's history only grows); a view of
    another round, or one that does not extend the moves read, starts the fold afresh.
    """

    __slots__ = ("_drawer", "_last", "_layout", "_numbers", "_read", "_round")

    def __init__(self) -> None:
        self._round = -1
        self._read = 0
        self._last: tuple[int, int] | None = None  # (seat, action) of the last move read
        self._layout: Layout | None = None
        self._numbers: list[int] = []
        self._drawer = -1  # the seat whose draw was the last move read, if it was a draw

    def voids(self, view: View) -> tuple[int, ...]:
        history = view.history
        read = self._read
        if (
            self._layout is None
            or view.round != self._round
            or len(history) < read
            or (read and (history[read - 1].seat, history[read - 1].action) != self._last)
        ):
            cfg = view.config
            self._round = view.round
            self._layout = Layout(cfg.game.spinner, cfg.side_arm_gate)
            self._numbers = [0] * cfg.players
            self._drawer = -1
            read = 0
        lay = self._layout
        numbers = self._numbers
        drawer = self._drawer
        for k in range(read, len(history)):
            item = history[k]
            who = item.seat
            code = int(item.action)
            if drawer >= 0 and (who != drawer or code >= _DRAW):
                numbers[drawer] = 0  # it kept the tile it drew: not covered until its next proof
            drawer = -1
            if code < _DRAW:
                if code >= LEAD_BASE:
                    lay.place(code - LEAD_BASE, 0)
                else:
                    lay.place(code >> 2, code & 3)
                continue
            for _, v in lay.ends:
                numbers[who] |= 1 << v
            if code == _DRAW:
                drawer = who
        self._drawer = drawer
        self._read = len(history)
        if history:
            self._last = (history[-1].seat, history[-1].action)
        out = list(numbers)
        if drawer >= 0:
            out[drawer] = 0  # the tile just drawn is kept so far
        return tuple(out)


def knowledge_string(known: Knowledge, perfect_recall: bool = True) -> str:
    """What a seat knows, as text: OpenSpiel's information state (``perfect_recall``: its
    dealt hand, the leader and every move of the round, its own draws with their tiles, and in
    a match the earlier rounds as everyone saw them) or its observation (the present only:
    hand, table with the open ends and their count, hand sizes, stock, scores, whose turn)."""
    view = known.view
    cfg = view.config
    n = cfg.players
    lines = [f"{cfg.game.name} {n}p{' teams' if cfg.teams else ''} seat {known.seat}"]
    if known.match:
        lines.append(f"round {known.rounds}; scores {' '.join(score_text(s) for s in view.scores)} "
                     f"of {cfg.target}")
        if perfect_recall:
            for i, (leader, history, end) in enumerate(known.earlier_rounds()):
                moves = moves_text((h.seat, h.action, None) for h in history)
                lines.append(f"past {i + 1}: leader {leader}; {moves}; "
                             f"{'end: -' if end is None else end_text(end)}")
    phase = known.phase
    if known.in_deal:
        lines.append(f"dealing: {tiles_text(known.dealt)} "
                     f"({known.dealing} of {n * cfg.hand_size} dealt)")
        if phase is LOT:
            lines.append("lot for the lead")
        return "\n".join(lines)
    history = view.history
    if perfect_recall:
        lines.append(f"dealt: {tiles_text(known.dealt)}; leader {view.leader}"
                     f"{' by lot' if known.lot else ''}")
        lines.append("moves: " + moves_text((h.seat, h.action, h.tile) for h in history))
    elif history:
        last = history[-1]
        lines.append("last: " + moves_text([(last.seat, last.action, last.tile)]))
    lines.append("hand: " + tiles_text(mask_of(view.hand)))
    lines.append(layout_line(view.layout))
    sizes = " ".join(map(str, view.hand_sizes))
    out = "".join("x" if o else "-" for o in view.out) if any(view.out) else ""
    scores = " ".join(score_text(s) for s in view.scores)
    lines.append(f"hands {sizes}{'; out ' + out if out else ''}; stock {view.stock}; "
                 f"scores {scores}")
    if phase is PLAY:
        lines.append(f"turn {view.turn}")
    elif phase is DRAWING:
        lines.append(f"seat {view.turn} draws")
    if view.end is not None:
        lines.append(end_text(view.end))
    if phase is OVER and known.match:
        lines.append("match over" + ("" if view.winner is None else f", side {view.winner} wins"))
    return "\n".join(lines)
