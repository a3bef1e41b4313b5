"""Score sheets in the games' traditions, always beside the plain totals.

- All Fives (AF-13; Muggins scores in fives too): the paper tally, one stroke per 5 points, a 50
  drawn as a large X with a small x in each of the four spaces around it; half points (the
  three-player split) are kept apart so the plain score stays exact.
- Fives and Threes: a 61-hole track (a cribbage board), the peg at the score.

>>> tally_rows(65)
['╲x╱    ', 'x╳x │││', '╱x╲    ']
>>> tally_rows(0)
['', '', '']
>>> track_rows(7, width=61)
['●●●●● ●◆··· ····· ····· ····· ····· ····· ····· ····· ····· ····· ····· ·']
>>> track_rows(35, width=30)[0]
'●●●●● ●●●●● ●●●●● ●●●●● ●●●●● ●●●●●'
"""

from __future__ import annotations

from fractions import Fraction

from fives.core.outcome import Score

__all__ = ["TRACK_HOLES", "tally_parts", "tally_rows", "track_rows"]

TRACK_HOLES = 61
_FIFTY = ("╲x╱", "x╳x", "╱x╲")


def tally_parts(score: Score) -> tuple[int, int, Score]:
    """(fifties, strokes, apart): ``score = 50 * fifties + 5 * strokes + apart``.

    >>> tally_parts(Fraction(115, 2))
    (1, 1, Fraction(5, 2))
    """
    whole = int(score // 5)
    apart = score - 5 * whole
    if isinstance(apart, Fraction) and apart.denominator == 1:
        apart = int(apart)
    return whole // 10, whole % 10, apart


def tally_rows(score: Score) -> list[str]:
    """Three text rows: a 50-mark per fifty, then a stroke per five (not the part kept apart)."""
    fifties, strokes, _ = tally_parts(score)
    rows = ["", "", ""]
    for i in range(fifties):
        for r in range(3):
            rows[r] += (" " if i else "") + _FIFTY[r]
    if strokes:
        pad = " " if fifties else ""
        rows[1] += pad + "│" * strokes
        rows[0] += pad + " " * strokes if fifties else ""
        rows[2] += pad + " " * strokes if fifties else ""
    return rows


def track_rows(score: Score, width: int = TRACK_HOLES) -> list[str]:
    """The 61-hole track: ``●`` holes passed, ``◆`` the peg, ``·`` holes ahead, in groups of
    five; split into rows of ``width`` holes (61 for one row)."""
    peg = int(score)
    cells = []
    for hole in range(1, TRACK_HOLES + 1):
        if hole < peg:
            cells.append("●")
        elif hole == peg:
            cells.append("◆")
        else:
            cells.append("·")
    rows = []
    for start in range(0, TRACK_HOLES, width):
        chunk = cells[start : start + width]
        text = ""
        for i, c in enumerate(chunk):
            if i and (start + i) % 5 == 0:
                text += " "
            text += c
        rows.append(text)
    if len(rows) > 1 and len(rows[-1].replace(" ", "")) == 1:  # the 61st hole joins the row
        last = rows.pop()
        rows[-1] += " " + last
    return rows
