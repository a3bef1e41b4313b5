"""The table in rich text, for the transcript (:mod:`fives.tui.session`) and the full-screen
app's panes (:mod:`fives.tui.app`): the layout (drawn by :mod:`fives.tui.drawing`), the scores
with their sheets, the other players' tile counts, the stock, the hand and the numbered moves.

>>> from fives.core.layout import Layout
>>> lay = Layout(spinner_rules=True)
>>> for a in ("1-4", "1-1@W", "4-4@E"):
...     _ = lay.place_text(a)
>>> [t.plain for t in layout_text(lay)]
['        ╔1╗     ┌4┐', 'W:1(+2) ╠═╣[1│4]├─┤ E:4(+8)', '        ╚1╝     └4┘']
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.columns import Columns
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from fives.core.layout import Layout
from fives.core.tiles import Action, Tile, W
from fives.core.view import View
from fives.phrasing import (
    Names,
    Tr,
    action_text,
    ends_text,
    fmt_score,
    play_sentence,
)
from fives.tui import drawing
from fives.tui.sheet import tally_parts, tally_rows, track_rows

__all__ = [
    "ends_line",
    "hand_line",
    "hand_text",
    "layout_text",
    "legend_text",
    "move_lines",
    "projected",
    "scores_table",
    "seat_texts",
    "sheet_text",
    "stock_text",
    "table",
]

COUNTS = "bold green"
DIM = "dim"
PLAYABLE = "bold green"
#: the drawing's tags as rich styles
STYLES = {
    drawing.SPINNER: "bold yellow",
    drawing.LAST: "bold cyan",
    drawing.SPINNER + " " + drawing.LAST: "bold yellow reverse",
    drawing.COUNTS: "bold green",
    drawing.ZERO: "dim",
    drawing.MARK: "bold",
}


def layout_text(
    layout: Layout,
    last: int | None = None,
    width: int | None = None,
    scoring: bool = True,
    height: int | None = None,
) -> list[Text]:
    """The layout drawn in at most ``width`` columns, one rich Text per row."""
    out = []
    for row in drawing.draw(layout, last, width, scoring, height).rows():
        line = Text(no_wrap=True, overflow="crop")
        for text, tag in row:
            line.append(text, STYLES.get(tag, ""))
        out.append(line)
    return out


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
            line.append("   → " + tr("log.open_ends", ends=ends_text(after[0], tr)), DIM)
        out.append(line)
    return out


# -- the table --------------------------------------------------------------------------------


def sheet_text(view: View, side: int, width: int) -> Text:
    """The side's score sheet: the tally (fives) or the 61 track; ``width`` fits the track."""
    score = view.scores[side]
    game = view.config.game
    if game.score_sheet == "track":
        rows = track_rows(score, 61 if width >= 100 else 30 if width >= 40 else 20)
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


def scores_table(tr: Tr, names: Names, view: View, *, width: int) -> list[RenderableType]:
    """The scores with the sheet of the game's tradition beside the plain totals, and the
    sheet's legend."""
    cfg = view.config
    game = cfg.game
    scores = Table.grid(padding=(0, 2))
    scores.add_column(no_wrap=True, vertical="middle")
    scores.add_column(justify="right", no_wrap=True, vertical="middle")
    scores.add_column(no_wrap=True)
    for side in range(cfg.sides):
        total = Text(fmt_score(view.scores[side]), "bold")
        sheet = sheet_text(view, side, width)
        apart = _apart(tr, view, side)
        if apart:  # on the strokes' row, beside the tally
            rows = sheet.split("\n")
            middle = 1 if len(rows) == 3 else 0
            rows[middle].append(("  " if rows[middle].plain else "") + apart, DIM)
            sheet = Text("\n").join(rows)
        scores.add_row(Text(names.side(side)), total, sheet)
    parts: list[RenderableType] = [scores]
    if game.score_sheet == "tally":
        parts.append(Text(tr("sheet.tally_legend"), DIM))
    elif game.score_sheet == "track":
        parts.append(Text(tr("sheet.track_legend", target=cfg.target), DIM))
    return parts


def seat_texts(tr: Tr, names: Names, view: View) -> list[Text]:
    """Each player's tiles in hand, the one to play marked."""
    out = []
    for seat in range(view.config.players):
        what = tr("table.out") if view.out[seat] else tr.tiles(view.hand_sizes[seat])
        style = "bold" if seat == view.turn else ""
        mark = "▶ " if seat == view.turn else ""
        out.append(Text(f"{mark}{names.seat_long(seat)}: {what}", style, no_wrap=True))
    return out


def stock_text(tr: Tr, view: View) -> Text:
    cfg = view.config
    if cfg.game.drawing:
        return Text(tr("table.stock", tiles=tr.tiles(view.stock)))
    return Text(tr("table.no_stock", tiles=tr.tiles(28 - cfg.players * cfg.hand_size)), DIM)


def ends_line(tr: Tr, view: View) -> Text:
    """The ends total with how it is found, or the open ends where plays never score."""
    lay = view.layout
    if not view.config.game.ends_score:
        return Text(tr("table.open_ends", ends=ends_text(lay, tr)), "bold")
    return Text(tr("table.ends", sum=lay.sentence()), "bold")


def legend_text(tr: Tr, view: View) -> Text:
    game = view.config.game
    return Text(tr(drawing.legend_key(game.ends_score, game.spinner)), DIM)


def hand_line(tr: Tr, names: Names, view: View) -> Text:
    playable = {a.tile for a in view.legal if a.tile is not None}
    pips = sum(t.pips for t in view.hand)
    head = (
        tr("table.your_hand")
        if view.seat == names.me
        else tr("table.hand_of", who=names.seat_long(view.seat or 0))
    )
    line = Text(head + " ", "bold")
    line.append_text(hand_text(view.hand, playable))
    line.append("  " + tr("table.hand_info", tiles=tr.tiles(len(view.hand)), pips=tr.pips(pips)), DIM)
    return line


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
    """What a seat sees of the table (its view only), top to bottom, for the transcript."""
    parts = scores_table(tr, names, view, width=width)
    parts.append(Columns(seat_texts(tr, names, view), padding=(0, 3)))
    parts.append(stock_text(tr, view))
    parts.append(Text(""))
    lay = view.layout
    if lay.count == 0:
        parts.append(Text(tr("table.empty")))
    else:
        scoring = view.config.game.ends_score
        parts.extend(layout_text(lay, last, width=max(40, width - 2), scoring=scoring))
        parts.append(Text(""))
        parts.append(ends_line(tr, view))
        if legend:
            parts.append(legend_text(tr, view))
    parts.append(Text(""))
    if view.turn is not None:
        parts.append(Text(tr("table.turn", who=names.seat_long(view.turn)), "bold"))
    if show_hand and view.seat is not None:
        parts.append(hand_line(tr, names, view))
    return parts
