"""The terminal's words: every text a player reads comes from the ``tui.*`` catalogue keys."""

from __future__ import annotations

from fractions import Fraction

from fives.core.record import score_json
from fives.core.state import Score
from fives.i18n import t

__all__ = ["Tr", "fmt_score"]


def fmt_score(x: Score | float) -> str:
    """A score as text: whole numbers plainly, a half point as ``.5``."""
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else str(x)
    return str(score_json(x if isinstance(x, (int, Fraction)) else int(x)))


class Tr:
    """``tr("key", n=1)`` is ``t("tui.key", lang, n=1)``."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, key: str, /, **params: object) -> str:
        return t("tui." + key, self.lang, **params)

    def points(self, n: Score | float) -> str:
        """``1 point`` / ``10 points`` / ``2.5 points``."""
        return self("point" if n == 1 else "points", n=fmt_score(n))

    def tiles(self, n: int) -> str:
        return self("tile_count_one" if n == 1 else "tile_count", n=n)
