"""Limits at the connection and request level, below the app: how many connections, how big
and how slow a request may be.

uvicorn bounds some of this itself and is configured to (``serving.uvicorn_config``: keep-alive
timeout, ``limit_concurrency``, h11's ``max_incomplete_event_size``, WebSocket frame size and
pings). What it leaves open is closed here:

- :class:`ConnectionGuard` counts the open connections per address and in total. A new
  connection over an address's share is refused with a 503; at the total cap the oldest
  connection still waiting for its request is closed to make room, so an idle flood cannot keep
  the lobby from being served.
- The HTTP protocol (httptools when installed, else h11) times out a request whose line and
  headers do not arrive in time (slowloris), and refuses heads over a size or a header count
  before they are held in memory.
- :class:`RequestGuard`, an ASGI middleware, reads a request body while counting it (refused
  with 413 past the limit, 408 when it trickles) and hands the app the body it read; it also
  keeps each connection's real peer, so that the app can drop a connection that cannot keep up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from fives.i18n import LANGUAGES, t
from fives.server.settings import Settings

__all__ = ["ConnectionGuard", "RequestGuard", "fd_budget", "guarded_protocols"]

log = logging.getLogger("fives.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the scope key that keeps a connection's TCP peer (before a trusted proxy's address is used)
PEER = "fives.peer"

#: descriptors kept back from connections: the database, logs, bot workers' pipes, listeners
_FD_RESERVE = 64


def fd_budget(raise_soft: bool = False) -> int:
    """How many connections the process can hold: its descriptor limit, less a reserve.
    ``raise_soft`` first lifts the soft limit to the hard one (``fives serve`` does)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if raise_soft and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return max(16, soft - _FD_RESERVE)


def _plain_response(status: int, reason: str, text: str) -> bytes:
    body = text.encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode() + body


class ConnectionGuard:
    """Open connections per address and in total, and the ones that could be let go."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.max_total = min(settings.max_connections, fd_budget())
        self.per_address = settings.connections_per_address
        self.trusted = settings.proxies  # many people behind one address
        self.peers: dict[Any, tuple[str, int]] = {}  # transport -> its peer
        self.transports: dict[tuple[str, int], Any] = {}  # peer -> transport
        self.by_address: Counter[str] = Counter()
        #: connections waiting for a request (nothing asked yet, or between requests), oldest
        #: first: the ones closed to make room
        self.waiting: OrderedDict[Any, Any] = OrderedDict()
        self.refused = 0
        self.evicted = 0

    def admit(self, transport: Any, peer: tuple[str, int] | None) -> bool:
        host = peer[0] if peer else "?"
        if host not in self.trusted and self.by_address[host] >= self.per_address:
            self.refused += 1
            return False
        if len(self.peers) >= self.max_total and not self._evict():
            self.refused += 1
            return False
        key = peer or ("?", id(transport))
        self.peers[transport] = key
        self.transports[key] = transport
        self.by_address[host] += 1
        return True

    def _evict(self) -> bool:
        while self.waiting:
            transport, protocol = self.waiting.popitem(last=False)
            if transport in self.peers:
                self.evicted += 1
                protocol.evict()
                self.release(transport)
                return True
        return False

    def release(self, transport: Any) -> None:
        peer = self.peers.pop(transport, None)
        self.waiting.pop(transport, None)
        if peer is None:
            return
        if self.transports.get(peer) is transport:
            del self.transports[peer]
        host = peer[0]
        self.by_address[host] -= 1
        if self.by_address[host] <= 0:
            del self.by_address[host]

    def wait(self, transport: Any, protocol: Any) -> None:
        self.waiting[transport] = protocol
        self.waiting.move_to_end(transport)

    def busy(self, transport: Any) -> None:
        self.waiting.pop(transport, None)

    def abort(self, peer: tuple[str, int] | None) -> bool:
        """Drop a connection at once, whatever is still unsent (a reader that never reads)."""
        transport = self.transports.get(tuple(peer)) if peer else None  # type: ignore[arg-type]
        if transport is None:
            return False
        transport.abort()
        return True

    @property
    def open(self) -> int:
        return len(self.peers)


class _HeadTooLarge(Exception):
    pass


_TOO_LARGE = (431, "Request Header Fields Too Large")


def guarded_protocols(guard: ConnectionGuard) -> tuple[type[asyncio.Protocol], type[Any]]:
    """uvicorn's HTTP and WebSocket protocols with the guard's limits. The HTTP parser is
    httptools when installed, else h11 (which bounds the head itself through
    ``h11_max_incomplete_event_size`` and leaves slow heads to the keep-alive timeout)."""
    from uvicorn.protocols.utils import get_remote_addr
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    settings = guard.settings
    base: Any
    try:
        import httptools
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as base

        parser = "httptools"
    except ImportError:
        from uvicorn.protocols.http.h11_impl import H11Protocol as base

        parser = "h11"
    precise = parser == "httptools"  # httptools tells where a request's head ends

    class GuardedHttp(base):  # type: ignore[misc, valid-type, unused-ignore]
        _refused = False
        _done = False
        _in_head = False
        _head_bytes = 0
        _parsed = 0
        _headers = 0
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            if not guard.admit(transport, get_remote_addr(transport)):
                self._refused = True
                transport.write(_plain_response(503, "Service Unavailable", "Too many connections"))
                transport.close()
                return
            super().connection_made(transport)
            guard.wait(transport, self)
            if precise:
                self._await_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_timer()
            if self._refused:
                return
            guard.release(self.transport)
            super().connection_lost(exc)

        def evict(self) -> None:
            """Closed to make room for a new connection."""
            self._done = True
            self._stop_timer()
            self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                guard.wait(self.transport, self)  # idle between requests (keep-alive)

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._in_head = False
            self._stop_timer()
            guard.busy(self.transport)
            super().handle_websocket_upgrade(*args)

        # -- the head of a request (httptools) ---------------------------------------------

        def _await_head(self) -> None:
            self._in_head = True
            self._head_bytes = 0
            self._parsed = 0
            self._headers = 0
            self._stop_timer()
            self._head_timer = self.loop.call_later(settings.head_timeout, self._head_late)

        def _stop_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_late(self) -> None:
            self._head_timer = None
            if self._in_head and not self._done:
                self._reject(408, "Request Timeout", "The request took too long to arrive")

        def _reject(self, status: int, reason: str, text: str) -> None:
            self._done = True
            self._stop_timer()
            guard.busy(self.transport)
            if not self.transport.is_closing():
                self.transport.write(_plain_response(status, reason, text))
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._done:
                return
            if not precise:
                super().data_received(data)
                return
            self._unset_keepalive_if_required()
            if self._in_head and self._head_bytes > settings.max_head:
                self._reject(*_TOO_LARGE, "The request head is too large")
                return
            try:
                self.parser.feed_data(data)
            except httptools.HttpParserCallbackError as exc:
                if isinstance(exc.__context__, _HeadTooLarge):
                    self._reject(*_TOO_LARGE, "The request head is too large")
                else:
                    self._reject(400, "Bad Request", "Invalid HTTP request received")
            except httptools.HttpParserError:
                self._reject(400, "Bad Request", "Invalid HTTP request received")
            except httptools.HttpParserUpgrade:
                if self._should_upgrade():
                    self.handle_websocket_upgrade()
                else:
                    self._unsupported_upgrade_warning()
            else:
                # Counted as it arrives (a chunk that ends the head is not: it may carry the
                # body), so a head never holds more than the limit and one read in memory.
                if self._in_head and not self._done:
                    self._head_bytes += len(data)
                    if self._head_bytes > settings.max_head:
                        self._reject(*_TOO_LARGE, "The request head is too large")

        def on_message_begin(self) -> None:
            if not self._in_head:
                self._await_head()
            super().on_message_begin()

        def _count(self, size: int) -> None:
            """The head as parsed (a whole head in one read is checked here)."""
            self._parsed += size
            if self._parsed > settings.max_head:
                raise _HeadTooLarge

        def on_url(self, url: bytes) -> None:
            self._count(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._headers += 1
            if self._headers > settings.max_headers:
                raise _HeadTooLarge
            self._count(len(name) + len(value) + 4)
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._in_head = False
            self._stop_timer()
            guard.busy(self.transport)  # a whole request: no longer one to let go
            super().on_headers_complete()

    assert AutoWebSocketsProtocol is not None, "the server needs websockets (fives[server])"

    class GuardedWebSocket(AutoWebSocketsProtocol):  # type: ignore[misc, valid-type]
        """After the upgrade the connection belongs to this protocol: it gives its slot back."""

        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self.transport)
            super().connection_lost(exc)

    return GuardedHttp, GuardedWebSocket


class RequestGuard:
    """ASGI middleware: the request's header count, its body read while counting (and not
    slower than allowed), and the connection's real peer kept in the scope."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        scope[PEER] = scope.get("client")
        if kind == "http":
            send = _with_security_headers(scope, send)
        if len(scope.get("headers", ())) > self.settings.max_headers:
            if kind == "http":
                await _refuse(scope, send, 431, "too_many_headers", {})
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        if not self._same_site(scope):
            # another site's page may not act here with its visitor's browser
            if kind == "http":
                await _refuse(scope, send, 403, "bad_origin", {})
            else:
                await send({"type": "websocket.close", "code": 4403})
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        if scope["method"] == "POST" and not _is_json(scope):
            # a form or text/plain POST is what another site can send without asking
            await _refuse(scope, send, 415, "bad_content_type", {})
            return
        limit = self.settings.max_body
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _refuse(scope, send, 413, "too_big", {"max": limit})
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            try:
                message = await asyncio.wait_for(receive(), self.settings.body_timeout)
            except TimeoutError:
                await _refuse(scope, send, 408, "too_slow", {})
                return
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _refuse(scope, send, 413, "too_big", {"max": limit})
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


    def _same_site(self, scope: Scope) -> bool:
        """No Origin (not a browser), or the page's origin is this server (its Host) or one
        of the allowed origins."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        if origin in self.settings.origins:
            return True
        try:
            parts = urlsplit(origin)
            port = parts.port
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return False  # "null" (a sandboxed frame, a file) and the like
        default = 443 if parts.scheme == "https" else 80
        host = _header(scope, b"host") or ""
        try:
            seen = urlsplit(f"//{host}")
            host_port = seen.port
        except ValueError:
            return False
        return (seen.hostname == parts.hostname.lower()
                and (host_port or default) == (port or default))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _is_json(scope: Scope) -> bool:
    kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
    return kind == "application/json"


def _with_security_headers(scope: Scope, send: Send) -> Send:
    """Every page and answer with a content security policy (scripts and connections from
    this server only), no framing, no referrer to other sites (a private table's invite is in
    its address), and no content-type guessing."""
    host = _header(scope, b"host") or ""
    policy = (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        f"img-src 'self' data:; connect-src 'self' ws://{host} wss://{host}; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
    extra = [
        (b"content-security-policy", policy.encode("latin-1", "replace")),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"same-origin"),
        (b"x-content-type-options", b"nosniff"),
    ]

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            have = {name.lower() for name, _ in message.get("headers", [])}
            message = dict(message)
            message["headers"] = [*message.get("headers", []),
                                  *((k, v) for k, v in extra if k not in have)]
        await send(message)

    return sending


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _scope_lang(scope: Scope) -> str:
    query = scope.get("query_string", b"").decode("latin-1")
    for part in query.split("&"):
        key, _, value = part.partition("=")
        if key == "lang" and value in LANGUAGES:
            return value
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            for item in value.decode("latin-1").split(","):
                code = item.split(";")[0].strip().split("-")[0].lower()
                if code in LANGUAGES:
                    return code
    return "en"


async def _refuse(scope: Scope, send: Send, status: int, code: str, params: dict[str, Any]) -> None:
    """A translated JSON error; the connection is closed after it (the rest of an oversized
    or slow request is not read)."""
    body = json.dumps(
        {"error": code, "message": t(f"web.error.{code}", _scope_lang(scope), **params)},
        ensure_ascii=False,
    ).encode()
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ],
    })
    await send({"type": "http.response.body", "body": body})


class RateLimitedLog(logging.Filter):
    """At most ``burst`` records of one kind per ``period`` seconds, then a count of those held
    back (a flood of accept errors must not fill the disk)."""

    def __init__(self, period: float = 10.0, burst: int = 5) -> None:
        super().__init__()
        self.period = period
        self.burst = burst
        self._seen: dict[tuple[str, str], tuple[float, int, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg)[:80])
        now = time.monotonic()
        start, count, held = self._seen.get(key, (now, 0, 0))
        if now - start >= self.period:
            if held:
                record.msg = f"{record.msg} ({held} more like it in the last {self.period:.0f} s)"
            start, count, held = now, 0, 0
        if count < self.burst:
            self._seen[key] = (start, count + 1, held)
            if len(self._seen) > 1000:
                self._seen.clear()
            return True
        self._seen[key] = (start, count, held + 1)
        return False
