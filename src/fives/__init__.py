"""fives: the domino platform for the "fives" family of games.

The rules engine lives in :mod:`fives.core` (standard library only, no I/O).
"""

from fives.core.tiles import Action, Tile

__all__ = ["Action", "Tile", "__version__"]
__version__ = "0.1.0"
