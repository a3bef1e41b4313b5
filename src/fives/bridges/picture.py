"""The layout as a picture, drawn as the browser game draws it (``src/fives/web/js/layoutview.js``):
the centre tile, the W/E arms along the line and the N/S side arms, doubles crosswise, the spinner
ringed, long arms wrapping, and at each open end a marker (a filled number where the end counts,
a ring where a tile may join but nothing counts). Below the board, a status line.

Used for PettingZoo's ``rgb_array`` render mode; needs Pillow and numpy (``fives[pettingzoo]``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

__all__ = ["compute_layout", "draw_frame"]

_DIR = {"W": (-1, 0), "E": (1, 0), "N": (0, -1), "S": (0, 1)}
# where each arm wraps to: with a spinner each arm keeps to its own quadrant
_OUT_SPIN = {"W": (0, -1), "N": (1, 0), "E": (0, 1), "S": (-1, 0)}
_OUT_LINE = {"W": (0, -1), "E": (0, 1)}
_PITCH = 2

_PIPS = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.24), (0.73, 0.24), (0.27, 0.5), (0.73, 0.5), (0.27, 0.76), (0.73, 0.76)],
}

# the browser's colours (css/app.css)
BG = (245, 242, 234)
INK = (31, 42, 39)
BRAND = (29, 59, 51)
FELT = (226, 238, 230)
FELT_EDGE = (185, 211, 195)
TILE = (255, 253, 246)
TILE_EDGE = (43, 43, 43)
PIP = (27, 27, 27)
ACCENT = (201, 106, 18)

Point = tuple[float, float]


def _add(a: Point, b: Point, k: float = 1.0) -> Point:
    return (a[0] + b[0] * k, a[1] + b[1] * k)


def _dot(a: Point, b: Point) -> float:
    return a[0] * b[0] + a[1] * b[1]


@dataclass
class Rect:
    x: float
    y: float
    w: float
    h: float
    first: int = 0
    second: int = 0
    tile: str = ""
    spinner: bool = False


def _rect_of(p: Point, d: Point, length: float, width: float) -> Rect:
    if d[0] != 0:
        x = p[0] if d[0] > 0 else p[0] - length
        return Rect(x, p[1] - width / 2, length, width)
    y = p[1] if d[1] > 0 else p[1] - length
    return Rect(p[0] - width / 2, y, width, length)


class _Turtle:
    """Walks one arm outwards, turning back (snaking) where the board ends."""

    def __init__(self, end: str, start: Point, limits: tuple[float, float], spinner_game: bool) -> None:
        self.main: Point = _DIR[end]
        self.out: Point | None = (_OUT_SPIN if spinner_game else _OUT_LINE).get(end)
        self.p = start
        self.d: Point = self.main
        self.phase = "main"
        self.outward = True
        self.travel = 0.0
        self.in_leg = 0
        self.last: tuple[Point, float] | None = None
        self.main_dir: Point = self.main
        self.limit = limits[0] if self.main[0] != 0 else limits[1]
        self.back = 1.4 if spinner_game else -self.limit
        if spinner_game:
            self.limit = max(self.limit, self.back + 4)

    def fits(self, length: float, p: Point | None = None, d: Point | None = None,
             outward: bool | None = None) -> bool:
        p = self.p if p is None else p
        d = self.d if d is None else d
        outward = self.outward if outward is None else outward
        s = _dot(_add(p, d, length), self.main)
        return s <= self.limit + 1e-9 if outward else s >= self.back - 1e-9

    def turn_to(self, d: Point) -> None:
        assert self.last is not None
        center, half = self.last
        self.d = d
        self.p = _add(center, d, half)
        self.travel = 0.0
        self.in_leg = 0

    def prepare(self, length: float) -> None:
        if self.last is None:
            return
        if self.phase == "main" and self.in_leg >= 1 and not self.fits(length) and self.out:
            self.phase = "conn"
            self.main_dir = self.d
            self.turn_to(self.out)
        elif self.phase == "conn" and self.travel >= _PITCH:
            d = (-self.main_dir[0], -self.main_dir[1])
            center, half = self.last
            p = _add(center, d, half)
            if self.fits(length, p, d, not self.outward):
                self.phase = "main"
                self.outward = not self.outward
                self.turn_to(d)

    def place(self, length: float, width: float) -> Rect:
        rect = _rect_of(self.p, self.d, length, width)
        self.last = (_add(self.p, self.d, length - 0.5), width / 2)
        self.p = _add(self.p, self.d, length)
        self.travel += length
        self.in_leg += 1
        return rect

    def clone(self) -> _Turtle:
        new = _Turtle.__new__(_Turtle)
        new.__dict__.update(self.__dict__)
        return new


@dataclass
class Picture:
    rects: list[Rect] = field(default_factory=list)
    markers: list[tuple[str, float, float, int, int | None]] = field(default_factory=list)
    bbox: tuple[float, float, float, float] = (-3.0, -2.0, 6.0, 4.0)


def compute_layout(ex: dict[str, Any], limits: tuple[float, float] = (9, 5)) -> Picture:
    """Positions of every tile and marker, in units (half a tile is 1 x 1), from
    :meth:`Layout.explain() <fives.core.layout.Layout.explain>`."""
    out = Picture()
    if not ex or not ex.get("center"):
        return out
    cl, ch = (int(x) for x in ex["center"].split("-"))
    spinner_game = ex.get("spinner") is not None
    is_spinner = ex.get("spinner") == ex["center"]
    if cl == ch:
        out.rects.append(Rect(-0.5, -1, 1, 2, cl, ch, ex["center"], is_spinner))
        edges: dict[str, Point] = {"W": (-0.5, 0), "E": (0.5, 0), "N": (0, -1), "S": (0, 1)}
    else:
        out.rects.append(Rect(-1, -0.5, 2, 1, cl, ch, ex["center"]))
        edges = {"W": (-1, 0), "E": (1, 0), "N": (0, -0.5), "S": (0, 0.5)}
    open_ends = {o["end"]: o["value"] for o in ex.get("open_ends", [])}
    turtles: dict[str, _Turtle] = {}
    arms = ex.get("arms") or {}
    for end in ("W", "E", "N", "S"):
        arm = arms.get(end) or []
        if not arm and end not in open_ends:
            continue
        tt = _Turtle(end, edges[end], limits, spinner_game)
        for tile, inner, outer in arm:
            dbl = inner == outer
            length = 1 if dbl else 2
            tt.prepare(length)
            r = tt.place(length, 2 if dbl else 1)
            d = tt.d
            if d[0] != 0:
                first, second = (inner, outer) if d[0] > 0 else (outer, inner)
            else:
                first, second = (inner, outer) if d[1] > 0 else (outer, inner)
            r.first, r.second, r.tile = first, second, tile
            out.rects.append(r)
        turtles[end] = tt
    counted = {c["end"]: c["counted"] for c in ex.get("contributions", [])}
    extra: list[Rect] = []
    for end, value in open_ends.items():
        walker = turtles.get(end)
        if walker is None:
            continue
        g = walker.clone()
        g.prepare(2)
        extra.append(_rect_of(g.p, g.d, 2, 1))
        m = _add(g.p, g.d, 0.5)
        out.markers.append((end, m[0], m[1], value, counted.get(end)))
    x0 = min(r.x for r in out.rects + extra)
    y0 = min(r.y for r in out.rects + extra)
    x1 = max(r.x + r.w for r in out.rects + extra)
    y1 = max(r.y + r.h for r in out.rects + extra)
    pad = 0.6
    out.bbox = (x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad)
    return out


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # Pillow without FreeType
        return ImageFont.load_default()


def draw_frame(
    explain: dict[str, Any], status: str = "", width: int = 640, height: int = 440, scale: int = 2
) -> np.ndarray:
    """An RGB frame (``height x width x 3``, uint8) of a layout and a status line."""
    W, H = width * scale, height * scale
    strip = 56 * scale
    board = (8 * scale, 8 * scale, W - 8 * scale, H - strip)
    img = Image.new("RGB", (W, H), BG)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(board, radius=12 * scale, fill=FELT, outline=FELT_EDGE, width=2 * scale)
    bw_px = board[2] - board[0] - 16 * scale
    bh_px = board[3] - board[1] - 16 * scale
    target_unit = 34 * scale
    limits = (max(5, bw_px // target_unit // 2 - 1), max(3, bh_px // target_unit // 2 - 1))
    pic = compute_layout(explain, limits)
    bx, by, bw, bh = pic.bbox
    bw2, bh2 = max(bw, 8), max(bh, 5)
    bx -= (bw2 - bw) / 2
    by -= (bh2 - bh) / 2
    unit = min(bw_px / bw2, bh_px / bh2, 46 * scale)
    ox = board[0] + 8 * scale + (bw_px - bw2 * unit) / 2
    oy = board[1] + 8 * scale + (bh_px - bh2 * unit) / 2

    def px(x: float, y: float) -> tuple[float, float]:
        return (ox + (x - bx) * unit, oy + (y - by) * unit)

    for r in pic.rects:
        _draw_tile(draw, r, px, unit)
    font = _font(int(unit * 0.5))
    for _end, mx, my, _value, counted in pic.markers:
        cx, cy = px(mx, my)
        if counted is not None:
            rad = unit * 0.42
            draw.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=BRAND)
            draw.text((cx, cy), str(counted), fill=(255, 255, 255), font=font, anchor="mm")
        else:
            rad = unit * 0.22
            draw.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=(255, 255, 255),
                         outline=BRAND, width=max(1, int(unit * 0.08)))
    if not pic.rects:
        draw.text(((board[0] + board[2]) / 2, (board[1] + board[3]) / 2), "no tile played yet",
                  fill=INK, font=_font(16 * scale), anchor="mm")
    if status:
        draw.text((14 * scale, H - strip / 2), status, fill=INK, font=_font(15 * scale), anchor="lm")
    if scale != 1:
        img = img.resize((width, height), Image.Resampling.LANCZOS)
    return np.asarray(img, dtype=np.uint8).copy()


def _draw_tile(draw: ImageDraw.ImageDraw, r: Rect, px: Any, unit: float) -> None:
    x0, y0 = px(r.x, r.y)
    x1, y1 = px(r.x + r.w, r.y + r.h)
    size = min(x1 - x0, y1 - y0)
    inset = size * 0.04
    if r.spinner:
        ring = unit * 0.12
        draw.rounded_rectangle((x0 - ring, y0 - ring, x1 + ring, y1 + ring), radius=unit * 0.22,
                               outline=ACCENT, width=max(1, int(unit * 0.07)))
    draw.rounded_rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), radius=size * 0.14,
                           fill=TILE, outline=ACCENT if r.spinner else TILE_EDGE,
                           width=max(1, int(unit * (0.1 if r.spinner else 0.06))))
    horizontal = (x1 - x0) >= (y1 - y0)
    line = max(1, int(unit * 0.05))
    if horizontal:
        mx = (x0 + x1) / 2
        draw.line((mx, y0 + size * 0.16, mx, y1 - size * 0.16), fill=TILE_EDGE, width=line)
        halves = [((x0, y0), r.first), ((x0 + size, y0), r.second)]
    else:
        my = (y0 + y1) / 2
        draw.line((x0 + size * 0.16, my, x1 - size * 0.16, my), fill=TILE_EDGE, width=line)
        halves = [((x0, y0), r.first), ((x0, y0 + size), r.second)]
    rad = size * 0.095
    for (hx, hy), value in halves:
        for u, v in _PIPS.get(value, []):
            if not horizontal:
                u, v = v, u
            cx, cy = hx + u * size, hy + v * size
            draw.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=PIP)
