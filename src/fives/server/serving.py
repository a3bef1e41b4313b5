"""The app under uvicorn, with every limit in force: one place for ``fives serve``, the tests
and the benchmark, so what is measured and tested is what runs.

uvloop and httptools are used when installed (the ``server`` extra brings them with
``uvicorn[standard]``), else asyncio's loop and h11.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
from typing import Any

import uvicorn

from fives.server.guard import ConnectionGuard, RateLimitedLog, guarded_protocols
from fives.server.settings import Settings

__all__ = ["loop_name", "parser_name", "running_loop_name", "uvicorn_config"]


def loop_name() -> str:
    """The event loop ``fives serve`` runs: ``uvloop`` when installed, else ``asyncio``."""
    return "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"


def parser_name() -> str:
    """The HTTP parser: ``httptools`` when installed, else ``h11``."""
    return "httptools" if importlib.util.find_spec("httptools") is not None else "h11"


def _quiet_floods() -> None:
    """Accept errors (out of descriptors) and protocol warnings come in floods under attack:
    each kind is logged a few times per period, then counted."""
    for name in ("asyncio", "uvicorn.error", "fives.server"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RateLimitedLog) for f in logger.filters):
            logger.addFilter(RateLimitedLog())


def uvicorn_config(app: Any, settings: Settings, **overrides: Any) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` (from :func:`fives.server.create_app`, which holds
    the connection guard): the event loop, the guarded HTTP and WebSocket protocols, and the
    limits uvicorn itself enforces."""
    guard: ConnectionGuard = app.state.guard
    http, ws = guarded_protocols(guard)
    _quiet_floods()
    options: dict[str, Any] = dict(
        loop=loop_name(),
        http=http,
        ws=ws,
        log_level="warning",
        access_log=False,
        # Forwarded headers are read by the app itself, and only from the configured proxies
        # (RequestGuard keeps the real peer first); uvicorn's own default trusts 127.0.0.1.
        proxy_headers=False,
        server_header=False,
        ws_max_size=settings.max_message * 4,
        ws_ping_interval=settings.ws_ping,
        ws_ping_timeout=settings.ws_ping,
        timeout_keep_alive=settings.keep_alive,
        # uvicorn's own cap answers 503 past it; the guard caps connections below it (a little
        # room: a connection closed to make room is counted until it is gone)
        limit_concurrency=guard.max_total + 64,
        backlog=2048,
        h11_max_incomplete_event_size=settings.max_head,
        timeout_graceful_shutdown=2,
    )
    options.update(overrides)
    return uvicorn.Config(app, **options)


def running_loop_name() -> str:
    """The event loop this code runs on (for the startup line and the tests)."""
    return "uvloop" if type(asyncio.get_running_loop()).__module__.startswith("uvloop") else "asyncio"
