"""How many terminal columns text takes, counted code point by code point as terminals lay text
out: the one place where the terminal game's widths are decided.

A terminal gives each code point its cells by the C library's ``wcwidth`` (tmux, xterm, GNOME
Terminal and every VTE terminal, Konsole): a Devanagari letter and a vowel sign that follows it
(a spacing mark, Unicode category Mc: ``ा ि ी ो ौ ः``) a column each, a virama (``्``) or a
nasal mark (``ं ँ``) none. So ``गोटी`` takes 4 columns, the conjunct ``क्ष`` 2 and ``थ्री`` 3, even
where the font draws a conjunct narrower: the cells are the terminal's, not the font's.

rich, and so Textual which measures with rich, counts spacing marks as no column at all; the
``wcwidth`` package counts a conjunct with its vowel sign as one cluster of two. Either way a
Hindi line came out wider on the screen than it was laid out: the line overran its panel, a
separator or a number at its edge was lost (``2 + 4 + + 5 = 15``, measured in tmux 3.3 at 80
columns). :func:`install` makes rich measure text of the Indic scripts as the terminal does
(and never cut a cluster in two), and leaves every other text to rich as it is.

>>> install()
>>> from rich.cells import cell_len, chop_cells
>>> cell_len("गोटी"), width("गोटी"), width("क्ष"), width("थ्री"), width("स्कोर पत्रक")
(4, 4, 2, 3, 9)
>>> chop_cells("गोटी", 2)
['गो', 'टी']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import wcwidth

__all__ = ["breaks_cluster", "install", "width"]

#: a virama joins the consonant after it into one cluster
VIRAMA = "\u094d"
#: the Indic scripts' blocks (Devanagari to Sinhala), where rich's widths go wrong
_INDIC = re.compile("[\u0900-\u0dff]")


def width(text: str) -> int:
    """The columns ``text`` takes in a terminal: the sum of its code points' (a spacing mark
    one, every other mark, joiner and control none)."""
    return sum(_columns(ch) for ch in text)


@cache
def _columns(ch: str) -> int:
    if unicodedata.category(ch) == "Mc":
        return 1
    return max(int(wcwidth.wcwidth(ch)), 0)


def breaks_cluster(left: str, right: str) -> bool:
    """Whether a cut between ``left`` and ``right`` splits a grapheme cluster (a mark without
    its letter, or a virama cut from the consonant it joins)."""
    if not left or not right:
        return False
    if unicodedata.category(right[0]).startswith("M") or right[0] in "\u200c\u200d":
        return True
    return left[-1] == VIRAMA


def _with_spacing_marks(widths: Sequence[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """rich's table of (first, last, columns) code point ranges, with every spacing mark at
    one column (for the few places that measure one character at a time)."""
    out: list[tuple[int, int, int]] = []
    for start, end, cols in widths:
        if cols != 0:
            out.append((start, end, cols))
            continue
        run: int | None = None
        for c in range(start, end + 1):
            if unicodedata.category(chr(c)) == "Mc":
                if run is not None:
                    out.append((run, c - 1, 0))
                    run = None
            elif run is None:
                run = c
        if run is not None:
            out.append((run, end, 0))
    return out


def _clusters(text: str) -> tuple[list[tuple[int, int, int]], int]:
    """rich's ``split_graphemes`` answer, from wcwidth's clusters: (start, end, columns) spans."""
    spans = []
    total = 0
    start = 0
    for cluster in wcwidth.iter_graphemes(text):
        cols = width(cluster)
        spans.append((start, start + len(cluster), cols))
        start += len(cluster)
        total += cols
    return spans, total


_installed = False


def install() -> None:
    """Make rich (and with it Textual) measure Indic text by clusters. Idempotent."""
    global _installed
    if _installed:
        return
    import rich.cells as cells

    load_table: Callable[..., Any] = cells.load_cell_table
    cell_len: Callable[[str, str], int] = cells._cell_len
    split: Callable[[str, str], tuple[list[tuple[int, int, int]], int]] = cells.split_graphemes

    @cache
    def load(unicode_version: str = "auto") -> Any:
        table = load_table(unicode_version)
        return table._replace(widths=_with_spacing_marks(table.widths))

    def measured(text: str, unicode_version: str = "auto") -> int:
        if _INDIC.search(text):
            return width(text)
        return cell_len(text, unicode_version)

    def graphemes(text: str, unicode_version: str = "auto") -> tuple[list[tuple[int, int, int]], int]:
        if _INDIC.search(text):
            return _clusters(text)
        return split(text, unicode_version)

    # rich looks these names up in its module on every call, so one assignment serves every
    # module that imported cell_len, chop_cells or set_cell_size by name.
    cells.load_cell_table = load  # type: ignore[attr-defined, unused-ignore]
    cells._cell_len = measured
    cells.split_graphemes = graphemes
    cells.get_character_cell_size.cache_clear()
    cells.cached_cell_len.cache_clear()
    _installed = True
