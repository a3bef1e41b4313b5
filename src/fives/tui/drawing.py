"""The layout drawn as tiles lie on a table, in as many columns as there are: one drawing for
the full-screen game, the transcript and ``fives replay --layout``. Plain text with a tag per
character (for colour); no terminal library needed.

A tile lying along the line is ``[a│b]``; a double lies crosswise (``┌4┐ ├─┤ └4┘``); the spinner
is a double box (``╔1╗ ╠═╣ ╚1╝``) whose side arms run up (N) and down (S). When an arm reaches
the edge it turns a corner, as on a real table: the W arm turns up and comes back, the E arm
turns down; side arms turn after two tiles, N to the right and S to the left, so that each arm
has a quarter of the table and no tile is ever hidden. Each open end carries its mark where
the next tile would go: ``W:2(+2)`` is end W, a tile joins it with a 2, and it counts 2 now;
games whose plays never score mark ``W:2`` alone.

>>> from fives.core.layout import Layout
>>> lay = Layout(spinner_rules=True)
>>> for a in ("1-4", "1-1@W", "4-4@E", "3-4@E", "1-2@W", "1-5@N"):
...     _ = lay.place_text(a)
>>> print("\\n".join(draw(lay).lines()))
             N:5(+5)
             ┌5┐
             ├─┤
             └1┘
             ╔1╗     ┌4┐
W:2(+2) [2│1]╠═╣[1│4]├─┤[4│3] E:3(+3)
             ╚1╝     └4┘
             S:1(+0)
>>> for a in ("3-5@E", "5-5@E", "5-6@E", "2-6@W", "6-6@W"):
...     _ = lay.place_text(a)
>>> print("\\n".join(draw(lay, width=40).lines()))
               N:5(+5)
               ┌5┐
               ├─┤
W:6(+12)       └1┘
  ┌6┐          ╔1╗     ┌4┐          ┌5┐
  ├─┤[6│2][2│1]╠═╣[1│4]├─┤[4│3][3│5]├─┤
  └6┘          ╚1╝     └4┘          └5┘
               S:1(+0)              ┌5┐
                                    ├─┤
                            E:6(+6) └6┘
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fives.core.layout import Layout
from fives.core.tiles import ALL_TILES, END_NAMES, E, N, S, W

__all__ = ["Drawing", "draw", "legend_key"]

#: tags: the spinner, the last tile played, a mark that counts now, one that counts nothing,
#: a mark of a game whose plays never score
SPINNER, LAST, COUNTS, ZERO, MARK = "spinner", "last", "counts", "zero", "mark"

_STEP = {E: (0, 1), W: (0, -1), N: (-1, 0), S: (1, 0)}
_BACK = {E: W, W: E, N: S, S: N}
#: how many tiles a side arm runs straight before it turns
SIDE_RUN = 2

Cell = tuple[int, int]


@dataclass
class Drawing:
    """Characters with tags at (row, column); rows and columns may be negative."""

    cells: dict[Cell, tuple[str, str]] = field(default_factory=dict)

    def rows(self) -> list[list[tuple[str, str]]]:
        """Each row from the top as runs of (text, tag), trailing blanks dropped."""
        if not self.cells:
            return []
        rs = [r for r, _ in self.cells]
        cs = [c for _, c in self.cells]
        left, right = min(cs), max(cs)
        out = []
        for r in range(min(rs), max(rs) + 1):
            runs: list[tuple[str, str]] = []
            for c in range(left, right + 1):
                ch, tag = self.cells.get((r, c), (" ", ""))
                if runs and runs[-1][1] == tag:
                    runs[-1] = (runs[-1][0] + ch, tag)
                else:
                    runs.append((ch, tag))
            while runs and not runs[-1][0].strip():
                runs.pop()
            if runs:
                text, tag = runs[-1]
                runs[-1] = (text.rstrip(), tag)
            out.append(runs)
        return out

    def lines(self) -> list[str]:
        return ["".join(text for text, _ in row) for row in self.rows()]

    @property
    def width(self) -> int:
        if not self.cells:
            return 0
        cs = [c for _, c in self.cells]
        return max(cs) - min(cs) + 1


@dataclass
class _Glyph:
    cells: dict[Cell, str]
    next: Cell  # where the next tile starts, heading the same way
    tip: Cell  # the cell showing the outer number (where a corner attaches)


def _glyph(anchor: Cell, heading: int, inner: int, outer: int, double: bool) -> _Glyph:
    """One tile placed at ``anchor`` heading ``heading``."""
    r, c = anchor
    if heading == E:
        if double:
            cells = _upright(r, c + 1, inner, inner)
            return _Glyph(cells, (r, c + 3), (r, c + 1))
        return _Glyph(_flat(r, c, inner, outer), (r, c + 5), (r, c + 3))
    if heading == W:
        if double:
            return _Glyph(_upright(r, c - 1, inner, inner), (r, c - 3), (r, c - 1))
        return _Glyph(_flat(r, c - 4, outer, inner), (r, c - 5), (r, c - 3))
    if heading == S:
        if double:
            return _Glyph(_flat(r, c - 2, inner, inner), (r + 1, c), (r, c))
        return _Glyph(_upright(r + 1, c, inner, outer), (r + 3, c), (r + 2, c))
    if double:
        return _Glyph(_flat(r, c - 2, inner, inner), (r - 1, c), (r, c))
    return _Glyph(_upright(r - 1, c, outer, inner), (r - 3, c), (r - 2, c))


def _flat(r: int, c: int, left: int, right: int) -> dict[Cell, str]:
    return {(r, c + i): ch for i, ch in enumerate(f"[{left}│{right}]")}


def _upright(r: int, c: int, top: int, bottom: int, box: str = "┌┐├─┤└┘") -> dict[Cell, str]:
    """A tile standing up, centred on (r, c)."""
    tl, tr, ml, mm, mr, bl, br = tuple(box)
    return {
        (r - 1, c - 1): tl, (r - 1, c): str(top), (r - 1, c + 1): tr,
        (r, c - 1): ml, (r, c): mm, (r, c + 1): mr,
        (r + 1, c - 1): bl, (r + 1, c): str(bottom), (r + 1, c + 1): br,
    }


class _Table:
    """The cells drawn so far, the cells kept free for the side arms, and the edges."""

    def __init__(self, left: int, right: int) -> None:
        self.left = left
        self.right = right
        self.drawing = Drawing()
        self.kept: set[Cell] = set()

    def free(self, cells: dict[Cell, str] | set[Cell], keep_out: bool = True) -> bool:
        for r, c in cells:
            if not self.left <= c <= self.right or (r, c) in self.drawing.cells:
                return False
            if keep_out and (r, c) in self.kept:
                return False
        return True

    def inside(self, cells: dict[Cell, str]) -> dict[Cell, str]:
        """``cells`` moved sideways within the edges (a double lying across a corner at the
        edge sits a column or two in from its tile's end)."""
        cols = [c for _, c in cells]
        shift = max(0, self.left - min(cols)) - max(0, max(cols) - self.right)
        return {(r, c + shift): ch for (r, c), ch in cells.items()} if shift else cells

    def put(self, cells: dict[Cell, str], tag: str) -> None:
        for cell, ch in cells.items():
            self.drawing.cells[cell] = (ch, tag)


@dataclass
class _Arm:
    """An arm being laid: where its next tile goes and how it turns."""

    end: int
    anchor: Cell
    heading: int
    advance: int  # the way it turns at an edge: N or S
    run: int = 0  # side arms: tiles laid straight out from the spinner so far
    turning: bool = False  # in the middle of a corner (a double cannot turn it)
    last_flat: int = E  # the way it last ran along a row
    tip: Cell = (0, 0)
    last_double: bool = False


def _turn_anchor(arm: _Arm, glyph_rows: tuple[int, int]) -> Cell:
    """Where a corner starts: under (or over) the last tile's outer number."""
    top, bottom = glyph_rows
    col = arm.tip[1]
    return (bottom + 1, col) if arm.advance == S else (top - 1, col)


def _lay(
    table: _Table,
    arm: _Arm,
    tiles: list[tuple[int, int, int]],
    last: int | None,
    mark: str,
    mark_tag: str,
    side_run: int = SIDE_RUN,
) -> None:
    """Lay one arm's tiles (id, inner, outer) from the centre outwards, then its mark."""
    rows = (arm.anchor[0], arm.anchor[0])
    for i, (tid, inner, outer) in enumerate(tiles):
        double = inner == outer
        tag = LAST if tid == last else ""
        straight = arm.end in (N, S) and arm.heading == arm.end and not arm.turning
        leaving = False  # the tile a side arm turns with touches its own column
        if straight and arm.run >= side_run:
            # a side arm leaves its column: N to the right, S to the left, along a row
            flat = E if arm.end == N else W
            arm.heading = flat
            arm.last_flat = flat
            r, c = arm.tip
            step = 3 if arm.last_double else 2
            arm.anchor = (r, c + step) if flat == E else (r, c - step)
            straight = False
            leaving = True
        glyph = _glyph(arm.anchor, arm.heading, inner, outer, double)
        fits = table.free(glyph.cells, keep_out=not (straight or leaving))
        if arm.heading in (E, W) and not fits and i > 0:
            # the edge (or another arm's quarter): turn the corner
            arm.heading = arm.advance
            arm.turning = True
            arm.anchor = _turn_anchor(arm, rows)
            glyph = _glyph(arm.anchor, arm.heading, inner, outer, double)
        if arm.heading in (N, S):
            glyph.cells = table.inside(glyph.cells)
        table.put(glyph.cells, tag)
        rs = [r for r, _ in glyph.cells]
        rows = (min(rs), max(rs))
        arm.tip = glyph.tip
        arm.last_double = double
        arm.anchor = glyph.next
        if straight:
            arm.run += 1
        if arm.turning and not double:
            # the corner is made: run back along the row, beside the corner tile's foot
            arm.turning = False
            arm.heading = _BACK[arm.last_flat]
            arm.last_flat = arm.heading
            r, c = glyph.tip
            arm.anchor = (r, c - 2) if arm.heading == W else (r, c + 2)
    if mark:
        table.put(_mark_cells(table, arm, mark, rows), mark_tag)


def _mark_cells(table: _Table, arm: _Arm, mark: str, rows: tuple[int, int]) -> dict[Cell, str]:
    """The end's mark where the next tile would go; at an edge, beside the end on the side
    the arm turns to (``rows``: the top and bottom rows of the arm's last tile)."""
    r, c = arm.anchor
    n = len(mark)
    if arm.heading == E:
        start = c + 1
    elif arm.heading == W:
        start = c - n
    else:
        start = c - 1
    cells = {(r, start + i): ch for i, ch in enumerate(mark)}
    if table.free(cells, keep_out=False):
        return cells
    # no room there: over (or under) the arm's end, inside the edges
    row = rows[0] - 1 if arm.advance == N else rows[1] + 1
    start = min(max(arm.tip[1] - n // 2, table.left), table.right - n + 1)
    for shift in range(0, 4):
        r = row - shift if arm.advance == N else row + shift
        cells = {(r, start + i): ch for i, ch in enumerate(mark)}
        if table.free(cells, keep_out=False):
            break
    return cells


def marks(layout: Layout, scoring: bool) -> dict[int, tuple[str, str]]:
    """Each open end's mark and tag: ``W:2(+2)``, or ``W:2`` where plays never score."""
    counted = {c.end: c.counted for c in layout.contributions()}
    lone_double = layout.count == 1 and ALL_TILES[layout.center].is_double
    out = {}
    for end, value in layout.ends:
        text = f"{END_NAMES[end]}:{value}"
        if not scoring:
            out[end] = (text, MARK)
        elif lone_double and end != W:
            out[end] = (text, ZERO)  # C-5: a lone double counts once (under W)
        else:
            got = counted.get(end, 0)
            out[end] = (f"{text}(+{got})", COUNTS if got else ZERO)
    return out


def _arm_tiles(layout: Layout, end: int) -> list[tuple[int, int, int]]:
    return [(tid, ALL_TILES[tid].other(outer), outer) for tid, outer in layout.arms[end]]


def _straight_width(tiles: list[tuple[int, int, int]], mark: str) -> int:
    cols = sum(3 if inner == outer else 5 for _, inner, outer in tiles)
    return cols + (len(mark) + 1 if mark else 0)


def draw(
    layout: Layout,
    last: int | None = None,
    width: int | None = None,
    scoring: bool = True,
    height: int | None = None,
) -> Drawing:
    """The layout in at most ``width`` columns (None: on one line however long).

    ``last`` (a tile id) is tagged :data:`LAST`; ``scoring`` says whether the game's plays
    score (else the marks leave out what an end counts); ``height``, the rows there are,
    decides how far side arms run straight before they turn."""
    if layout.count == 0:
        return Drawing()
    ends = marks(layout, scoring)
    west, east = _arm_tiles(layout, W), _arm_tiles(layout, E)
    center = ALL_TILES[layout.center]
    spinner = layout.spinner >= 0
    half = 1 if center.is_double else 2
    need_w = _straight_width(west, ends.get(W, ("", ""))[0])
    need_e = _straight_width(east, ends.get(E, ("", ""))[0])
    if width is None or need_w + need_e + 2 * half + 1 <= width:
        left, right = -half - need_w, half + need_e
    else:
        # share the columns between W and E as their lengths ask, a corner's room each at least
        room = width - 2 * half - 1
        if need_e <= room // 2:
            share = room - need_e
        elif need_w <= room // 2:
            share = need_w
        else:
            share = round(room * need_w / (need_w + need_e))
        # room for a corner on either side (a tile and a mark)
        share = min(max(share, 12), room - 12) if room >= 24 else room // 2
        left = -half - share
        right = left + width - 1
    table = _Table(left, right)
    if spinner:
        box = "╔╗╠═╣╚╝"
        table.put(_upright(0, 0, center.low, center.high, box), SPINNER + (" " + LAST if layout.center == last else ""))
        # the spinner's column above and below is kept for its side arms
        tall = 4 * (len(layout.arms[N]) + len(layout.arms[S]) + len(west) + len(east)) + 8
        for r in range(2, tall):
            for c in range(-2, 3):
                table.kept.add((-r, c))
                table.kept.add((r, c))
    elif center.is_double:
        table.put(_upright(0, 0, center.low, center.high), LAST if layout.center == last else "")
    else:
        table.put(_flat(0, -2, center.low, center.high), LAST if layout.center == last else "")
    # a side arm runs straight while a tile and the mark fit in its half of the rows
    run = SIDE_RUN if height is None else max(1, min(3, ((height - 3) // 2 - 1) // 3))
    arms = [
        (_Arm(W, (0, -half - 1), W, N, last_flat=W), west),
        (_Arm(E, (0, half + 1), E, S, last_flat=E), east),
    ]
    if spinner:
        arms.append((_Arm(N, (-2, 0), N, N, last_flat=W), _arm_tiles(layout, N)))
        arms.append((_Arm(S, (2, 0), S, S, last_flat=E), _arm_tiles(layout, S)))
    for arm, tiles in arms:
        if arm.end in (N, S) and not tiles and arm.end not in ends:
            continue
        mark, tag = ends.get(arm.end, ("", ""))
        _lay(table, arm, tiles, last, mark, tag, run)
    return table.drawing


def legend_key(scoring: bool, spinner: bool) -> str:
    """The catalogue key of the legend under a drawing (``tui.`` area)."""
    if not scoring:
        return "table.legend_plain"
    return "table.legend_spinner" if spinner else "table.legend"

