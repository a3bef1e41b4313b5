"""The layout: the line, crosswise doubles, and the spinner with its W/E/N/S arms.

The layout knows where tiles may join (its open ends), what each open end counts (C-4, C-5,
SP-4, SP-5) and the ends total (C-7). It explains itself the way the seeds' diagrams do.

>>> lay = Layout(spinner_rules=True)
>>> for text in ("1-4", "1-1@W", "4-4@E"):
...     _ = lay.place_text(text)
>>> lay.ends_total(), lay.sentence()
(10, '2 + 8 = 10')
>>> lay.spinner_tile
Tile.parse('1-1')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from fives.core.pickling import pickle_by_attributes, pickle_by_constructor
from fives.core.tiles import (
    ALL_TILES,
    END_NAMES,
    SUIT_MASK,
    Action,
    E,
    N,
    S,
    Tile,
    W,
)

__all__ = ["ArmTile", "Contribution", "Layout", "OpenEnd"]

STRAIGHT: Final = (W, E)
ALL_ENDS: Final = (W, E, N, S)
_LOW: Final = tuple(t.low for t in ALL_TILES)
_HIGH: Final = tuple(t.high for t in ALL_TILES)
#: an open end as (end, value), indexed by end * 7 + value
_END: Final = tuple((end, value) for end in ALL_ENDS for value in range(7))
#: the open ends of a line showing w and e, indexed by w * 7 + e (shared, never mutated)
_LINE_ENDS: Final = tuple([_END[w], _END[7 + e]] for w in range(7) for e in range(7))
#: the four open ends of a spinner, indexed by ((w * 7 + e) * 7 + n) * 7 + s (shared too)
_SPINNER_ENDS: Final = tuple(
    [_END[w], _END[7 + e], _END[14 + n], _END[21 + s]]
    for w in range(7) for e in range(7) for n in range(7) for s in range(7)
)
#: an arm's entry (tile id, outer number), indexed by tile id * 7 + outer number
_ARM_ENTRY: Final = tuple((t, outer) for t in range(len(ALL_TILES)) for outer in range(7))
#: the tiles that fit either of two open numbers, indexed by w * 7 + e
_PAIR_MASK: Final = tuple(SUIT_MASK[w] | SUIT_MASK[e] for w in range(7) for e in range(7))


@dataclass(frozen=True)
class ArmTile:
    """A tile in an arm, from the centre outwards: ``inner`` faces the centre."""

    tile: Tile
    inner: int
    outer: int

    def __str__(self) -> str:
        return f"[{self.inner}|{self.outer}]" if not self.tile.is_double else f"[{self.inner}{self.outer}]"


@dataclass(frozen=True)
class OpenEnd:
    """A legal attach point: an end letter and the number a tile must show to join it."""

    end: int
    value: int

    @property
    def name(self) -> str:
        return END_NAMES[self.end]


@dataclass(frozen=True)
class Contribution:
    """What one open arm adds to the ends total, and the tile it comes from."""

    end: int
    tile: Tile
    counted: int

    @property
    def name(self) -> str:
        return END_NAMES[self.end]


class Layout:
    """The tiles on the table. Mutable; :meth:`copy` for search."""

    __slots__ = (
        "_de",
        "_dn",
        "_ds",
        "_dw",
        "_ne",
        "_nn",
        "_ns",
        "_nw",
        "_ve",
        "_vn",
        "_vs",
        "_vw",
        "arms",
        "center",
        "count",
        "ends",
        "gate",
        "open_mask",
        "spinner",
        "spinner_rules",
    )

    def __init__(self, spinner_rules: bool, side_arm_gate: bool = True) -> None:
        self.spinner_rules = spinner_rules
        self.gate = side_arm_gate
        self.count = 0
        #: the spinner's tile id, or -1 while there is none (always -1 without spinner rules)
        self.spinner = -1
        #: the centre tile: the lead, or the spinner once there is one; -1 before the lead
        self.center = -1
        # Per arm W, E, N, S (one attribute each, not lists: compiled, the plays read them as
        # plain C fields): the outer number, whether the outer tile is a double, how many
        # tiles. In a line (no spinner), W and E are the line's two ends.
        self._vw = self._ve = self._vn = self._vs = -1
        self._dw = self._de = self._dn = self._ds = False
        self._nw = self._ne = self._nn = self._ns = 0
        #: the tiles of each arm from the centre outwards (for rendering and explanation)
        self.arms: list[list[tuple[int, int]]] = [[], [], [], []]
        #: open ends as (end, value) in end order: the legal attach points (never mutated in
        #: place, often shared: each play assigns a new list)
        self.ends: list[tuple[int, int]] = []
        #: the tiles that fit some open end
        self.open_mask = 0

    @property
    def value(self) -> list[int]:
        """The outer number of each arm W, E, N, S (-1 where there is none)."""
        return [self._vw, self._ve, self._vn, self._vs]

    @property
    def double(self) -> list[bool]:
        """Whether each arm's outer tile is a double."""
        return [self._dw, self._de, self._dn, self._ds]

    @property
    def length(self) -> list[int]:
        """How many tiles each arm holds."""
        return [self._nw, self._ne, self._nn, self._ns]

    def _set_arm(self, end: int, value: int, double: bool, length: int) -> None:
        if end == W:
            self._vw, self._dw, self._nw = value, double, length
        elif end == E:
            self._ve, self._de, self._ne = value, double, length
        elif end == N:
            self._vn, self._dn, self._nn = value, double, length
        else:
            self._vs, self._ds, self._ns = value, double, length

    def copy(self) -> Layout:
        new = Layout(self.spinner_rules, self.gate)
        new.count = self.count
        new.spinner = self.spinner
        new.center = self.center
        new._vw, new._ve, new._vn, new._vs = self._vw, self._ve, self._vn, self._vs
        new._dw, new._de, new._dn, new._ds = self._dw, self._de, self._dn, self._ds
        new._nw, new._ne, new._nn, new._ns = self._nw, self._ne, self._nn, self._ns
        new.arms = [arm[:] for arm in self.arms]
        new.ends = self.ends  # never mutated: replaced as a whole
        new.open_mask = self.open_mask
        return new

    # -- playing ---------------------------------------------------------------------------

    def total_after(self, tile_id: int, end: int) -> int:
        """The ends total if this tile were placed on ``end`` (the layout is not changed).

        The search's inner loop asks this of every legal play: compiled, it reads only
        C fields.
        """
        low = _LOW[tile_id]
        high = _HIGH[tile_id]
        dbl = low == high
        if self.count == 0:
            return low + high
        if self.spinner < 0:
            if end == W:
                joined = self._vw
                v = self._ve + self._ve if self._de else self._ve
            else:
                joined = self._ve
                v = self._vw + self._vw if self._dw else self._vw
            if dbl and self.spinner_rules:  # SP-1: it becomes the spinner
                return low + high + v
            outer = high if low == joined else low
            return (outer + outer if dbl else outer) + v
        sv = _LOW[self.spinner]
        if end == W:
            joined = self._vw if self._nw else sv
        elif end == E:
            joined = self._ve if self._ne else sv
        elif end == N:
            joined = self._vn if self._nn else sv
        else:
            joined = self._vs if self._ns else sv
        outer = high if low == joined else low
        total = outer + outer if dbl else outer
        if end != W and self._nw:
            total += self._vw + self._vw if self._dw else self._vw
        if end != E and self._ne:
            total += self._ve + self._ve if self._de else self._ve
        if end != N and self._nn:
            total += self._vn + self._vn if self._dn else self._vn
        if end != S and self._ns:
            total += self._vs + self._vs if self._ds else self._vs
        if not (self._nw or end == W) or not (self._ne or end == E):
            total += sv + sv
        return total

    def fits(self, tile_id: int, end: int) -> bool:
        for e, v in self.ends:
            if e == end:
                t = ALL_TILES[tile_id]
                return t.low == v or t.high == v
        return False

    def place(self, tile_id: int, end: int) -> int:
        """Put a tile on an open end (``end`` is ignored for the lead); return the ends total.

        The caller has checked legality (:meth:`fits`). This is the engine's hottest path:
        the plain line (no spinner) is handled first and inline.
        """
        low = _LOW[tile_id]
        high = _HIGH[tile_id]
        dbl = low == high
        if self.count and self.spinner < 0 and not (dbl and self.spinner_rules):
            if end == W:
                outer = high if low == self._vw else low
                self._vw = outer
                self._dw = dbl
                self._nw += 1
            else:
                outer = high if low == self._ve else low
                self._ve = outer
                self._de = dbl
                self._ne += 1
            self.arms[end].append(_ARM_ENTRY[tile_id * 7 + outer])
            self.count += 1
            w = self._vw
            e = self._ve
            self.ends = _LINE_ENDS[w * 7 + e]
            self.open_mask = _PAIR_MASK[w * 7 + e]
            return (w + w if self._dw else w) + (e + e if self._de else e)
        if self.count == 0:
            self.center = tile_id
            if dbl and self.spinner_rules:
                self.spinner = tile_id
            else:
                self._vw = low
                self._ve = high
                self._dw = self._de = dbl
        elif self.spinner < 0:
            self._become_spinner(tile_id, end)
        else:
            return self._place_on_spinner(tile_id, end, low, high, dbl)
        self.count += 1
        self._refresh_ends()
        return self.ends_total()

    def _place_on_spinner(self, tile_id: int, end: int, low: int, high: int, dbl: bool) -> int:
        """A play once the spinner is down: one arm grows; ends and total in one pass."""
        sv = _LOW[self.spinner]
        if end == W:
            outer = high if low == (self._vw if self._nw else sv) else low
            self._vw = outer
            self._dw = dbl
            self._nw += 1
        elif end == E:
            outer = high if low == (self._ve if self._ne else sv) else low
            self._ve = outer
            self._de = dbl
            self._ne += 1
        elif end == N:
            outer = high if low == (self._vn if self._nn else sv) else low
            self._vn = outer
            self._dn = dbl
            self._nn += 1
        else:
            outer = high if low == (self._vs if self._ns else sv) else low
            self._vs = outer
            self._ds = dbl
            self._ns += 1
        self.arms[end].append(_ARM_ENTRY[tile_id * 7 + outer])
        self.count += 1
        lw = self._nw
        le = self._ne
        vw = self._vw if lw else sv
        ve = self._ve if le else sv
        total = 0 if (lw and le) else sv + sv
        if lw:
            total += vw + vw if self._dw else vw
        if le:
            total += ve + ve if self._de else ve
        if (lw and le) or not self.gate:
            ln = self._nn
            ls = self._ns
            vn = self._vn if ln else sv
            vs = self._vs if ls else sv
            if ln:
                total += vn + vn if self._dn else vn
            if ls:
                total += vs + vs if self._ds else vs
            self.ends = _SPINNER_ENDS[((vw * 7 + ve) * 7 + vn) * 7 + vs]
            self.open_mask = _PAIR_MASK[vw * 7 + ve] | _PAIR_MASK[vn * 7 + vs]
        else:
            self.ends = _LINE_ENDS[vw * 7 + ve]
            self.open_mask = _PAIR_MASK[vw * 7 + ve]
        return total

    def _become_spinner(self, tile_id: int, end: int) -> None:
        """SP-1: the first double, played on an end of the line, becomes the spinner.

        The existing line becomes the opposite straight arm (its outer end keeps its name).
        """
        other = E if end == W else W
        # The old line as seen from the new centre, outwards: the arm on the side where the
        # spinner joins, reversed, then the old centre, then the opposite arm.
        near = self.arms[end]
        far = self.arms[other]
        center = ALL_TILES[self.center]
        # numbers facing W/E on the old centre tile
        center_w, center_e = center.low, center.high
        chain: list[tuple[int, int]] = []
        for i in range(len(near) - 1, -1, -1):
            tid, outer = near[i]
            inner = ALL_TILES[tid].other(outer)
            chain.append((tid, inner))  # reversed direction: old inner is now the outer side
        chain.append((self.center, center_e if end == W else center_w))
        chain.extend(far)
        new_value = self.value[other]
        new_double = self.double[other]
        self.arms = [[], [], [], []]
        self.arms[other] = chain
        for arm in ALL_ENDS:
            self._set_arm(arm, -1, False, 0)
        self._set_arm(other, new_value, new_double, len(chain))
        self.spinner = tile_id
        self.center = tile_id

    def _refresh_ends(self) -> None:
        ends: list[tuple[int, int]]
        if self.spinner >= 0:
            sv = ALL_TILES[self.spinner].low
            length = self.length
            value = self.value
            ends = [(W, value[W] if length[W] else sv), (E, value[E] if length[E] else sv)]
            if not self.gate or (length[W] and length[E]):
                ends.append((N, value[N] if length[N] else sv))
                ends.append((S, value[S] if length[S] else sv))
        else:
            ends = [(W, self.value[W]), (E, self.value[E])]
        self.ends = ends
        mask = 0
        for _, v in ends:
            mask |= SUIT_MASK[v]
        self.open_mask = mask

    def place_text(self, action: str) -> int:
        """Place an action written in RECORD.md notation (for examples and tests)."""
        act = Action.parse(action)
        tile = act.tile
        if tile is None:
            raise ValueError(f"not a play: {action!r}")
        end = act.end
        if self.count == 0:
            if end is not None:
                raise ValueError(f"the opening lead is written without an end: {action!r}")
            return self.place(tile.id, W)
        if end is None or not self.fits(tile.id, end):
            raise ValueError(f"{action!r} does not fit the layout")
        return self.place(tile.id, end)

    # -- counting --------------------------------------------------------------------------

    def ends_total(self) -> int:
        """C-7 with SP-4/SP-5: the sum of the counted ends."""
        if self.count == 0:
            return 0
        value = self.value
        double = self.double
        if self.spinner >= 0:
            length = self.length
            total = 0
            if not length[W] or not length[E]:
                total = 2 * ALL_TILES[self.spinner].low
            for e in range(4):
                if length[e]:
                    total += value[e] * 2 if double[e] else value[e]
            return total
        if self.count == 1:
            return value[W] + value[E]
        return (value[W] * 2 if double[W] else value[W]) + (
            value[E] * 2 if double[E] else value[E]
        )

    def contributions(self) -> list[Contribution]:
        """Each counted end with its tile and what it counts (the seeds' filled numbers).

        A lone tile or a spinner that still counts appears once with its whole count; an
        unopened side arm and an enclosed spinner do not appear (they count nothing).
        """
        if self.count == 0:
            return []
        out: list[Contribution] = []
        if self.spinner >= 0:
            spin = ALL_TILES[self.spinner]
            if not self.length[W] or not self.length[E]:
                out.append(Contribution(W if not self.length[W] else E, spin, spin.pips))
            for e in ALL_ENDS:
                if self.length[e]:
                    tile = ALL_TILES[self.arms[e][-1][0]]
                    v = self.value[e]
                    out.append(Contribution(e, tile, v * 2 if self.double[e] else v))
            out.sort(key=lambda c: c.end)
            return out
        if self.count == 1:
            tile = ALL_TILES[self.center]
            if tile.is_double:  # C-5: a lone double counts both halves, once
                return [Contribution(W, tile, tile.pips)]
            return [Contribution(W, tile, tile.low), Contribution(E, tile, tile.high)]
        for e in STRAIGHT:
            tile = ALL_TILES[self.arms[e][-1][0]] if self.arms[e] else ALL_TILES[self.center]
            v = self.value[e]
            out.append(Contribution(e, tile, v * 2 if self.double[e] else v))
        return out

    def sentence(self) -> str:
        """The counted contributions as a sum, as the seeds write it: ``2 + 8 = 10``."""
        parts = [str(c.counted) for c in self.contributions()]
        return f"{' + '.join(parts) or '0'} = {self.ends_total()}"

    def open_ends(self) -> list[OpenEnd]:
        """The legal attach points (after the lead)."""
        if self.count == 0:
            return []
        return [OpenEnd(e, v) for e, v in self.ends]

    @property
    def spinner_tile(self) -> Tile | None:
        return ALL_TILES[self.spinner] if self.spinner >= 0 else None

    @property
    def center_tile(self) -> Tile | None:
        return ALL_TILES[self.center] if self.center >= 0 else None

    def arm(self, end: int) -> list[ArmTile]:
        """The tiles of one arm from the centre outwards."""
        out = []
        for tid, outer in self.arms[end]:
            tile = ALL_TILES[tid]
            out.append(ArmTile(tile, tile.other(outer), outer))
        return out

    def tiles(self) -> list[Tile]:
        """Every tile on the table."""
        out = [ALL_TILES[self.center]] if self.center >= 0 else []
        for arm in self.arms:
            out.extend(ALL_TILES[tid] for tid, _ in arm)
        return out

    def side_arms_open(self) -> bool:
        return self.spinner >= 0 and (not self.gate or bool(self.length[W] and self.length[E]))

    def explain(self) -> dict[str, object]:
        """What the seeds' diagrams show, as plain data (JSON-ready)."""
        return {
            "tiles": [str(t) for t in self.tiles()],
            "spinner": str(ALL_TILES[self.spinner]) if self.spinner >= 0 else None,
            "center": str(ALL_TILES[self.center]) if self.center >= 0 else None,
            "arms": {
                END_NAMES[e]: [[str(a.tile), a.inner, a.outer] for a in self.arm(e)]
                for e in ALL_ENDS
                if self.arms[e] or (self.spinner >= 0 and e in STRAIGHT) or self.side_arms_open()
            },
            "open_ends": [{"end": o.name, "value": o.value} for o in self.open_ends()],
            "contributions": [
                {"end": c.name, "tile": str(c.tile), "counted": c.counted}
                for c in self.contributions()
            ],
            "ends_total": self.ends_total(),
            "sentence": self.sentence() if self.count else "",
        }

pickle_by_constructor(ArmTile, OpenEnd, Contribution)
pickle_by_attributes(Layout, ("spinner_rules", "gate"))
