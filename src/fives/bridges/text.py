"""The bridges' words for scores, tiles, moves, the layout and a round's end.

Shared by a table's full (debug) string, which shows every tile, and by a seat's information
state and observation strings, which show only what the seat knows: the callers decide what
goes in, these only write it.
"""

from __future__ import annotations

from collections.abc import Iterable

from fives.core.layout import Layout
from fives.core.outcome import RoundEnd, Score
from fives.core.tiles import ALL_TILES, Action, Tile, tiles_of_mask

__all__ = ["end_text", "layout_line", "moves_text", "score_text", "tiles_text"]


def score_text(x: Score) -> str:
    """A score: whole numbers plain, a half point as ``.5``."""
    return str(int(x)) if x == int(x) else f"{float(x):g}"


def tiles_text(mask: int) -> str:
    """The tiles of a mask, or ``-`` for none."""
    return " ".join(str(t) for t in tiles_of_mask(mask)) or "-"


def moves_text(moves: Iterable[tuple[int, Action, Tile | None]]) -> str:
    """Moves as ``seat:action``, a draw with its tile (``0:draw=3-4``) where one is given."""
    parts = []
    for who, action, tile in moves:
        parts.append(f"{who}:{action}" if tile is None else f"{who}:{action}={tile}")
    return " ".join(parts) or "-"


def end_text(end: RoundEnd) -> str:
    who = "" if end.went_out is None else f" by seat {end.went_out}"
    winner = "none" if end.winner is None else f"side {end.winner}"
    return (f"end: {end.reason}{who}, winner {winner}, points "
            f"{' '.join(score_text(p) for p in end.points)}, pips {' '.join(map(str, end.pips))}")


def layout_line(lay: Layout) -> str:
    """The table: the centre (``*`` for a spinner), each arm, the open ends and their total."""
    if lay.count == 0:
        return "table: empty"
    arms = []
    for e, name in enumerate("WENS"):
        if lay.arms[e]:
            arms.append(f"{name}[{' '.join(str(ALL_TILES[t]) for t, _ in lay.arms[e])}]")
    centre = f"{ALL_TILES[lay.center]}{'*' if lay.spinner >= 0 else ''}"
    ends = " ".join(f"{'WENS'[e]}:{v}" for e, v in lay.ends)
    return f"table: {centre} {' '.join(arms)}".rstrip() + f"; ends {ends} = {lay.ends_total()}"
