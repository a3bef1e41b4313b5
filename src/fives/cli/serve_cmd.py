"""``fives serve``: the browser game on http://HOST:PORT, with an embedded SQLite store.

Prints the address to open, then serves until interrupted (Ctrl-C). Unfinished tables in the
database come back where they were.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import socket
import sys
from typing import Any

from fives.cli.errors import UsageError

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the browser game (lobby, tables, bots, replays)",
        description="Serve the browser game. Open the printed address in a browser.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    p.add_argument("--db", default="fives.sqlite3", metavar="PATH",
                   help="the SQLite database file (default fives.sqlite3)")
    p.add_argument("--turn-time", type=float, default=15.0, metavar="S",
                   help="the turn clock offered by default, in seconds (0: off; default 15)")
    p.add_argument("--bot-delay", type=float, default=1.0, metavar="S",
                   help="a bot's average thinking time in seconds (default 1; 0: instant)")
    p.add_argument("--forced-delay", type=float, default=0.6, metavar="S",
                   help="pause before a forced draw or pass is made (default 0.6)")
    p.add_argument("--round-pause", type=float, default=30.0, metavar="S",
                   help="with a clock, the longest wait between rounds (default 30)")
    p.add_argument("--bot-workers", type=int, default=1, metavar="N",
                   help="processes for the heavier bots (default 1; 0: think inline)")
    p.add_argument("--create-rate", type=float, default=30.0, metavar="N",
                   help="tables one address may create per minute (default 30; 0: no limit)")
    p.add_argument("--dev-seeds", action="store_true",
                   help="development and tests only: let a client choose a table's seed, "
                        "which predicts every hand (off: deals are the server's secret)")
    p.add_argument("--log-level", default="warning",
                   choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=run)


def _bind(host: str, port: int) -> socket.socket:
    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, not {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise UsageError(f"cannot listen on {host}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {host} is already in use (try --port 0)") from None
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(2048)
    sock.setblocking(False)
    return sock


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        raise UsageError("the server needs its extras: pip install 'fives[server]'") from None
    from fives.server import Settings, create_app
    from fives.store import StoreError, open_store

    for name in ("turn_time", "bot_delay", "forced_delay", "round_pause", "create_rate"):
        if getattr(args, name) < 0:
            raise UsageError(f"--{name.replace('_', '-')} cannot be negative")
    if args.turn_time and args.turn_time < 3:
        raise UsageError("--turn-time is 0 (off) or at least 3 seconds")
    try:
        open_store(args.db).close()
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    settings = Settings(
        db=args.db,
        turn_time=args.turn_time,
        bot_delay=args.bot_delay,
        forced_delay=args.forced_delay,
        round_pause=args.round_pause,
        bot_workers=max(0, args.bot_workers),
        create_rate=args.create_rate,
        dev_seeds=args.dev_seeds,
    )
    sock = _bind(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    config = uvicorn.Config(
        create_app(settings),
        log_level=args.log_level,
        access_log=False,
        ws_max_size=64 * 1024,
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    print(f"fives: serving on http://{shown}:{port}/ (database {args.db}; Ctrl-C to stop)",
          flush=True)
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("fives: stopped", file=sys.stderr)
    return 0
