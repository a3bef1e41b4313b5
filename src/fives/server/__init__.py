"""The browser game's server: Starlette on uvicorn, one authoritative table per match.

``create_app(Settings(...))`` builds the ASGI app; ``fives serve`` runs it.
"""

from typing import TYPE_CHECKING

from fives.server.settings import Settings

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from fives.store.base import Store

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings | None = None, store: "Store | None" = None) -> "Starlette":
    """The ASGI app (imported lazily, so the engine and CLI never need Starlette)."""
    from fives.server.app import create_app as _create

    return _create(settings, store)
