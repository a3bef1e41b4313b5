"""The browser game's server: Starlette on uvicorn, one authoritative table per match.

``create_app(Settings(...))`` builds the ASGI app; ``fives serve`` runs it.
"""

from fives.server.settings import Settings

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings | None = None):  # type: ignore[no-untyped-def]
    from fives.server.app import create_app as _create

    return _create(settings)
