"""The terminal's words: every text a player reads comes from the ``tui.*`` catalogue keys.

:class:`Tr` and :func:`fmt_score` live in :mod:`fives.phrasing`, shared with ``fives replay``.
"""

from __future__ import annotations

from fives.phrasing import Tr, fmt_score

__all__ = ["Tr", "fmt_score"]
