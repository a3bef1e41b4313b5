"""Text padded to terminal columns, not to characters: a Hindi column heading such as
``स्कोर`` is five characters but four columns, so padding by ``len`` leaves the columns of a
table out of line. With the terminal extras installed the widths are the terminal game's
(:mod:`fives.tui.widths`, measured by ``wcwidth``); without them, a close count from the
standard library (a combining mark or a format character takes no column)."""

from __future__ import annotations

import unicodedata

__all__ = ["ljust", "rjust", "width"]


def _stdlib_width(text: str) -> int:
    return sum(unicodedata.category(ch) not in ("Mn", "Me", "Cf") for ch in text)


try:
    from fives.tui.widths import width as _width
except ImportError:  # the core and the CLI need no terminal extras
    _width = _stdlib_width


def width(text: str) -> int:
    """The columns ``text`` takes in a terminal."""
    return _width(text) if not text.isascii() else len(text)


def ljust(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    return " " * max(0, columns - width(text)) + text
