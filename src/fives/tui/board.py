"""The table on screen: the layout drawn as a layout, the scores with their sheets, the other
players' tile counts, the stock, the hand and the numbered moves.

The layout is drawn on a small character canvas. The line runs from W (left) to E (right);
a tile lying along it is ``[a│b]``; a double lies crosswise, drawn upright over three rows
(``┌4┐ ├─┤ └4┘``); the spinner is a double box (``╔1╗ ╠═╣ ╚1╝``) and its side arms run up (N)
and down (S) from it. Each open end carries its mark ``W:2(+2)``: the end, the number a tile
must show to join it (the attach point), and what it counts now (the seeds' filled numbers).

>>> from fives.core.layout import Layout
>>> lay = Layout(spinner_rules=True)
>>> for a in ("1-4", "1-1@W", "4-4@E", "3-4@E", "1-2@W", "1-5@N"):
...     _ = lay.place_text(a)
>>> print("\\n".join(layout_lines(lay)))
             N:5(+5)
             ┌5┐
             ├─┤
             └1┘
             ╔1╗     ┌4┐
W:2(+2) [2│1]╠═╣[1│4]├─┤[4│3] E:3(+3)
             ╚1╝     └4┘
             S:1(+0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.columns import Columns
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from fives.core.layout import Layout
from fives.core.tiles import ALL_TILES, END_NAMES, Action, E, N, S, Tile, W
from fives.core.view import View
from fives.phrasing import (
    Names,
    Tr,
    action_text,
    ends_text,
    fmt_score,
    play_sentence,
)
from fives.tui.sheet import tally_parts, tally_rows, track_rows

__all__ = ["Canvas", "hand_text", "layout_lines", "layout_text", "move_lines", "table"]

SPINNER = "bold yellow"
LAST = "bold cyan"
COUNTS = "bold green"
ZERO = "dim"
PLAYABLE = "bold green"
DIM = "dim"


class Canvas:
    """Characters with styles at (row, column); rows and columns may be negative."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], tuple[str, str]] = {}

    def put(self, row: int, col: int, text: str, style: str = "") -> None:
        for i, ch in enumerate(text):
            if ch != " " or (row, col + i) not in self.cells:
                self.cells[(row, col + i)] = (ch, style)

    def texts(self) -> list[Text]:
        if not self.cells:
            return []
        rows = [r for r, _ in self.cells]
        cols = [c for _, c in self.cells]
        out = []
        for r in range(min(rows), max(rows) + 1):
            line = Text()
            run, run_style = "", ""
            for c in range(min(cols), max(cols) + 1):
                ch, style = self.cells.get((r, c), (" ", ""))
                if style != run_style and run:
                    line.append(run, run_style)
                    run = ""
                run_style = style
                run += ch
            if run:
                line.append(run, run_style)
            line.rstrip()
            out.append(line)
        return out


@dataclass
class _Tok:
    """One tile of the line: three rows (above, on, below the line) of one width."""

    top: str
    mid: str
    bot: str
    style: str = ""

    @property
    def width(self) -> int:
        return len(self.mid)


def _h(left: int, right: int, style: str = "") -> _Tok:
    return _Tok("     ", f"[{left}│{right}]", "     ", style)


def _v(top: int, bottom: int, style: str = "", spinner: bool = False) -> _Tok:
    if spinner:
        return _Tok(f"╔{top}╗", "╠═╣", f"╚{bottom}╝", style or SPINNER)
    return _Tok(f"┌{top}┐", "├─┤", f"└{bottom}┘", style)


def _more(count: int) -> _Tok:
    text = f"…{count}…"
    blank = " " * len(text)
    return _Tok(blank, text, blank, DIM)


def _line_tile(tid: int, left: int, right: int, last: int | None) -> _Tok:
    tile = ALL_TILES[tid]
    style = LAST if tid == last else ""
    if tile.is_double:
        return _v(left, right, style)
    return _h(left, right, style)


def _marks(layout: Layout) -> dict[int, tuple[str, str]]:
    """Each open end's mark ``W:2(+2)`` and its style."""
    counted = {c.end: c.counted for c in layout.contributions()}
    lone_double = layout.count == 1 and ALL_TILES[layout.center].is_double
    out = {}
    for end, value in layout.ends:
        text = f"{END_NAMES[end]}:{value}"
        if lone_double and end != W:
            out[end] = (text, ZERO)  # C-5: a lone double counts once (under W)
            continue
        got = counted.get(end, 0)
        out[end] = (f"{text}(+{got})", COUNTS if got else ZERO)
    return out


def layout_canvas(layout: Layout, last: int | None = None, width: int | None = None) -> Canvas:
    """The layout on a canvas; ``last`` (a tile id) is highlighted; ``width`` elides the middle
    of long arms so that the line fits."""
    canvas = Canvas()
    if layout.count == 0:
        return canvas
    marks = _marks(layout)
    west: list[_Tok] = []
    for tid, outer in reversed(layout.arms[W]):
        west.append(_line_tile(tid, outer, ALL_TILES[tid].other(outer), last))
    center = ALL_TILES[layout.center]
    if layout.spinner >= 0:
        style = SPINNER + (" reverse" if layout.center == last else "")
        middle = _v(center.low, center.high, style, spinner=True)
    else:
        middle = _line_tile(layout.center, center.low, center.high, last)
    east: list[_Tok] = []
    for tid, outer in layout.arms[E]:
        east.append(_line_tile(tid, ALL_TILES[tid].other(outer), outer, last))

    def shown(hide_w: int, hide_e: int) -> tuple[list[_Tok], list[_Tok]]:
        w = west if not hide_w else [*west[: len(west) - 1 - hide_w], _more(hide_w), west[-1]]
        e = east if not hide_e else [east[0], _more(hide_e), *east[1 + hide_e :]]
        return w, e

    def total(w: list[_Tok], e: list[_Tok]) -> int:
        out = sum(t.width for t in w) + middle.width + sum(t.width for t in e)
        return out + sum(len(marks[x][0]) + 1 for x in (W, E) if x in marks)

    if width is not None:
        # Elide the middle of the longer straight arm; its outer and inner tiles stay.
        hide_w = hide_e = 0
        while total(*shown(hide_w, hide_e)) > width:
            can_w = len(west) - 2 - hide_w >= 1
            can_e = len(east) - 2 - hide_e >= 1
            if can_w and (len(west) - hide_w >= len(east) - hide_e or not can_e):
                hide_w += 1
            elif can_e:
                hide_e += 1
            else:
                break
        west, east = shown(hide_w, hide_e)

    col = 0
    west_mark = marks.get(W)
    if west_mark:
        text, style = west_mark
        canvas.put(0, col - len(text) - 1, text, style)
    spinner_col = 0
    for tok in [*west, middle, *east]:
        if tok is middle:
            spinner_col = col
        canvas.put(-1, col, tok.top, tok.style)
        canvas.put(0, col, tok.mid, tok.style)
        canvas.put(1, col, tok.bot, tok.style)
        col += tok.width
    east_mark = marks.get(E)
    if east_mark:
        text, style = east_mark
        canvas.put(0, col + 1, text, style)
    if layout.spinner >= 0:
        # N arm upwards, S arm downwards, from the spinner's column
        row = -2
        for tid, outer in layout.arms[N]:
            tile = ALL_TILES[tid]
            inner = tile.other(outer)
            style = LAST if tid == last else ""
            if tile.is_double:
                canvas.put(row, spinner_col - 1, f"[{inner}│{outer}]", style)
                row -= 1
            else:
                canvas.put(row, spinner_col, f"└{inner}┘", style)
                canvas.put(row - 1, spinner_col, "├─┤", style)
                canvas.put(row - 2, spinner_col, f"┌{outer}┐", style)
                row -= 3
        if N in marks:
            canvas.put(row, spinner_col, marks[N][0], marks[N][1])
        row = 2
        for tid, outer in layout.arms[S]:
            tile = ALL_TILES[tid]
            inner = tile.other(outer)
            style = LAST if tid == last else ""
            if tile.is_double:
                canvas.put(row, spinner_col - 1, f"[{inner}│{outer}]", style)
                row += 1
            else:
                canvas.put(row, spinner_col, f"┌{inner}┐", style)
                canvas.put(row + 1, spinner_col, "├─┤", style)
                canvas.put(row + 2, spinner_col, f"└{outer}┘", style)
                row += 3
        if S in marks:
            canvas.put(row, spinner_col, marks[S][0], marks[S][1])
    return canvas


def layout_text(layout: Layout, last: int | None = None, width: int | None = None) -> list[Text]:
    return layout_canvas(layout, last, width).texts()


def layout_lines(layout: Layout, last: int | None = None, width: int | None = None) -> list[str]:
    """The drawing as plain strings (for logs, doctests and tests)."""
    return [t.plain for t in layout_text(layout, last, width)]


# -- the hand and the moves -------------------------------------------------------------------


def hand_text(hand: Sequence[Tile], playable: set[Tile]) -> Text:
    out = Text()
    for i, tile in enumerate(hand):
        if i:
            out.append(" ")
        out.append(f"[{tile.low}│{tile.high}]", PLAYABLE if tile in playable else "")
    return out


def projected(view: View, action: Action) -> tuple[Layout, int] | None:
    """The layout after a play, and what the play would score (0 where Fives and Threes would
    discard it for passing the target)."""
    tile = action.tile
    if tile is None:
        return None
    lay = view.layout.copy()
    total = lay.place(tile.id, action.end if action.end is not None else W)
    cfg = view.config
    if view.seat is None:
        return lay, cfg.game.play_points[total]
    return lay, cfg.counted_points(total, view.scores[cfg.side_of(view.seat)])


def move_lines(tr: Tr, view: View) -> list[Text]:
    """The legal actions, numbered, each with the sentence it would make."""
    out = []
    game = view.config.game
    for i, action in enumerate(view.legal, 1):
        line = Text()
        line.append(f"{i:>3}  ", "bold")
        line.append(action_text(tr, action, game))
        after = projected(view, action)
        if after is not None and game.ends_score:
            lay, points = after
            line.append("   → " + play_sentence(tr, view.config, lay, points), COUNTS if points else DIM)
        elif after is not None:
            line.append("   → " + tr("log.open_ends", ends=ends_text(after[0])), DIM)
        out.append(line)
    return out


# -- the table --------------------------------------------------------------------------------


def _sheet(view: View, side: int, width: int) -> Text:
    score = view.scores[side]
    game = view.config.game
    if game.score_sheet == "track":
        rows = track_rows(score, 61 if width >= 100 else 30)
        return Text("\n".join(rows), "cyan")
    if game.score_sheet == "tally":
        rows = tally_rows(score)
        if not rows[0]:  # no fifty yet: the strokes alone, on one row
            return Text(rows[1], "cyan")
        return Text("\n".join(rows), "cyan")
    return Text("")


def _apart(tr: Tr, view: View, side: int) -> str:
    if view.config.game.score_sheet != "tally":
        return ""
    _, _, apart = tally_parts(view.scores[side])
    return tr("sheet.apart", n=fmt_score(apart)) if apart else ""


def table(
    tr: Tr,
    names: Names,
    view: View,
    *,
    width: int,
    last: int | None = None,
    show_hand: bool = True,
    legend: bool = True,
) -> list[RenderableType]:
    """What a seat sees of the table (its view only)."""
    cfg = view.config
    game = cfg.game
    parts: list[RenderableType] = []
    # scores, with the sheet of the game's tradition beside the plain totals
    scores = Table.grid(padding=(0, 2))
    scores.add_column(no_wrap=True, vertical="middle")
    scores.add_column(justify="right", no_wrap=True, vertical="middle")
    scores.add_column(no_wrap=True)
    for side in range(cfg.sides):
        total = Text(fmt_score(view.scores[side]), "bold")
        sheet = _sheet(view, side, width)
        apart = _apart(tr, view, side)
        if apart:  # on the strokes' row, beside the tally
            rows = sheet.split("\n")
            middle = 1 if len(rows) == 3 else 0
            rows[middle].append(("  " if rows[middle].plain else "") + apart, DIM)
            sheet = Text("\n").join(rows)
        scores.add_row(Text(names.side(side)), total, sheet)
    parts.append(scores)
    if game.score_sheet == "tally":
        parts.append(Text(tr("sheet.tally_legend"), DIM))
    elif game.score_sheet == "track":
        parts.append(Text(tr("sheet.track_legend", target=cfg.target), DIM))
    # the players' tiles, the stock, the turn
    seats = []
    for seat in range(cfg.players):
        if view.out[seat]:
            what = tr("table.out")
        else:
            what = tr.tiles(view.hand_sizes[seat])
        style = "bold" if seat == view.turn else ""
        mark = "▶ " if seat == view.turn else ""
        seats.append(Text(f"{mark}{names.seat_long(seat)}: {what}", style, no_wrap=True))
    parts.append(Columns(seats, padding=(0, 3)))
    dealt = cfg.players * cfg.hand_size
    if game.drawing:
        parts.append(Text(tr("table.stock", tiles=tr.tiles(view.stock))))
    else:
        parts.append(Text(tr("table.no_stock", n=28 - dealt), DIM))
    # the layout
    parts.append(Text(""))
    lay = view.layout
    if lay.count == 0:
        parts.append(Text(tr("table.empty")))
    else:
        for line in layout_text(lay, last, width=max(40, width - 2)):
            line.no_wrap = True
            line.overflow = "crop"
            parts.append(line)
        parts.append(Text(""))
        if game.play_scoring == "none":
            parts.append(Text(tr("table.open_ends", ends=ends_text(lay)), "bold"))
        else:
            parts.append(Text(tr("table.ends", sum=lay.sentence()), "bold"))
        if legend:
            key = "table.legend_spinner" if game.spinner else "table.legend"
            parts.append(Text(tr(key), DIM))
    parts.append(Text(""))
    if view.turn is not None:
        parts.append(Text(tr("table.turn", who=names.seat_long(view.turn)), "bold"))
    if show_hand and view.seat is not None:
        playable = {a.tile for a in view.legal if a.tile is not None}
        pips = sum(t.pips for t in view.hand)
        head = (
            tr("table.your_hand")
            if view.seat == names.me
            else tr("table.hand_of", who=names.seat_long(view.seat))
        )
        line = Text(head + " ", "bold")
        line.append_text(hand_text(view.hand, playable))
        line.append("  " + tr("table.hand_info", tiles=tr.tiles(len(view.hand)), pips=pips), DIM)
        parts.append(line)
    return parts
