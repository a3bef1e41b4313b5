"""Plain-text rendering of the layout and of scoring, for terminals and logs.

The line reads from W (left) to E (right); a double is written ``[4:4]`` (it lies crosswise),
the spinner ``<1:1>``; side arms hang above (N) and below (S) the spinner, inner tile nearest.

>>> from fives.core.layout import Layout
>>> lay = Layout(spinner_rules=True)
>>> for a in ("1-4", "1-1@W", "4-4@E", "3-4@E", "1-2@W", "1-5@N"):
...     _ = lay.place_text(a)
>>> print(render_layout(lay))
              N:5 (5)
              [5]
              [1]
W:2 (2) [2|1]<1:1>[1|4][4:4][4|3] E:3 (3)
              S:1 (0)
ends: 2 + 3 + 5 = 10
"""

from __future__ import annotations

from fives.core.layout import Layout
from fives.core.tiles import ALL_TILES, END_NAMES, E, N, S, W

__all__ = ["render_layout"]


def _horizontal(tid: int, left: int, right: int) -> str:
    tile = ALL_TILES[tid]
    if tile.is_double:
        return f"[{left}:{right}]"
    return f"[{left}|{right}]"


def _side_arm(layout: Layout, end: int, end_mark: str) -> list[str]:
    """The cells of a side arm from the spinner outwards: one per half, a double as one cell."""
    cells = []
    for tid, outer in layout.arms[end]:
        tile = ALL_TILES[tid]
        inner = tile.other(outer)
        if tile.is_double:
            cells.append(f"[{inner}:{outer}]")
        else:
            cells.extend((f"[{inner}]", f"[{outer}]"))
    if end_mark:
        cells.append(end_mark)
    return cells


def render_layout(layout: Layout) -> str:
    """The layout as a few lines of text, each open end marked ``END:value (counted)``."""
    if layout.count == 0:
        return "(no tile played yet)"
    counted = {c.end: c.counted for c in layout.contributions()}
    open_values = dict(layout.ends)

    def mark(end: int) -> str:
        if end not in open_values:
            return ""
        return f"{END_NAMES[end]}:{open_values[end]} ({counted.get(end, 0)})"

    # the horizontal line: W arm reversed (outer end leftmost), the centre, the E arm
    parts: list[str] = []
    for tid, outer in reversed(layout.arms[W]):
        inner = ALL_TILES[tid].other(outer)
        parts.append(_horizontal(tid, outer, inner))
    center = ALL_TILES[layout.center]
    spinner = layout.spinner >= 0  # (tile 0, the double blank, is a spinner too)
    if spinner:
        parts.append(f"<{center.low}:{center.low}>")
    else:
        parts.append(_horizontal(layout.center, center.low, center.high))
    center_index = len(parts) - 1
    for tid, outer in layout.arms[E]:
        inner = ALL_TILES[tid].other(outer)
        parts.append(_horizontal(tid, inner, outer))
    # the line's two ends are always open once a tile is down; a side arm's only once it is
    prefix = mark(W) + " "
    line = prefix + "".join(parts) + " " + mark(E)
    # the column of the spinner, for the side arms
    column = len(prefix) + sum(len(p) for p in parts[:center_index]) + 1
    pad = " " * column
    lines: list[str] = []
    if spinner:
        lines.extend(pad + cell for cell in reversed(_side_arm(layout, N, mark(N))))
    lines.append(line)
    if spinner:
        lines.extend(pad + cell for cell in _side_arm(layout, S, mark(S)))
    lines.append(f"ends: {layout.sentence()}")
    return "\n".join(lines)
