"""fives: the domino platform for the "fives" family of games.

The rules engine lives in :mod:`fives.core` (standard library only, no I/O). Where it was
compiled (see :mod:`fives.compiled`), the compiled modules are checked against their sources
before anything imports them.
"""

from fives.compiled import install as _install_core

_install_core()

from fives.core.tiles import Action, Tile  # noqa: E402  (after the build check, on purpose)

__all__ = ["Action", "Tile", "__version__"]
__version__ = "0.1.0"
