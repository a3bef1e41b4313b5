"""``fives serve``: the browser game on http://HOST:PORT, with an embedded SQLite store.

Prints the address to open, then serves until interrupted (Ctrl-C). Unfinished tables in the
database come back where they were.
"""

from __future__ import annotations

import argparse
import errno
import logging
import socket
import sys
from typing import Any

from fives.cli.errors import UsageError

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    from fives.server.settings import Settings

    d = Settings()  # every default below is the server's own
    p = sub.add_parser(
        "serve",
        help="serve the browser game (lobby, tables, bots, replays)",
        description="Serve the browser game. Open the printed address in a browser.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    p.add_argument("--db", default=d.db, metavar="URL",
                   help=f"the database: a SQLite file (a path or sqlite:///path; default {d.db}) "
                        "or postgresql://user:pass@host:port/name (several processes)")
    p.add_argument("--turn-time", type=float, default=d.turn_time, metavar="S",
                   help=f"the turn clock offered by default, in seconds (0: off; default "
                        f"{d.turn_time:g})")
    p.add_argument("--bot-delay", type=float, default=d.bot_delay, metavar="S",
                   help=f"a bot's average thinking time in seconds (default {d.bot_delay:g}; "
                        "0: instant)")
    p.add_argument("--forced-delay", type=float, default=d.forced_delay, metavar="S",
                   help=f"pause before a forced draw or pass is made (default {d.forced_delay:g})")
    p.add_argument("--round-pause", type=float, default=d.round_pause, metavar="S",
                   help=f"with a clock, the longest wait between rounds (default {d.round_pause:g})")
    p.add_argument("--bot-workers", type=int, default=d.bot_workers, metavar="N",
                   help=f"processes for the heavier bots, shared fairly by the tables (default "
                        f"one per core: {d.bot_workers}; 0: think inline)")
    p.add_argument("--create-rate", type=float, default=d.create_rate, metavar="N",
                   help=f"tables one address may create per minute (default {d.create_rate:g}; "
                        "0: no limit)")
    p.add_argument("--max-connections", type=int, default=d.max_connections, metavar="N",
                   help=f"open connections in all (default {d.max_connections}, within the "
                        "descriptor limit)")
    p.add_argument("--connections-per-address", type=int, default=d.connections_per_address,
                   metavar="N", help=f"open connections per client address (default "
                                     f"{d.connections_per_address})")
    p.add_argument("--trusted-proxies", default=d.trusted_proxies, metavar="ADDRS",
                   help="comma-separated addresses of reverse proxies whose X-Forwarded-For is "
                        "believed (default: none)")
    p.add_argument("--allowed-origins", default=d.allowed_origins, metavar="ORIGINS",
                   help="comma-separated origins (https://host) besides the server's own whose "
                        "pages may use it (default: none)")
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
    from fives.server.guard import fd_budget
    from fives.server.serving import loop_name, parser_name, uvicorn_config
    from fives.store import StoreError
    from fives.store.open import upgrade

    for name in ("turn_time", "bot_delay", "forced_delay", "round_pause", "create_rate"):
        if getattr(args, name) < 0:
            raise UsageError(f"--{name.replace('_', '-')} cannot be negative")
    for name in ("max_connections", "connections_per_address"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1")
    if args.turn_time and args.turn_time < 3:
        raise UsageError("--turn-time is 0 (off) or at least 3 seconds")
    try:
        upgrade(args.db)  # the schema up to date, and a clear line if it cannot be opened
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    fd_budget(raise_soft=True)  # as many connections as the system allows this process
    settings = Settings(
        db=args.db,
        turn_time=args.turn_time,
        bot_delay=args.bot_delay,
        forced_delay=args.forced_delay,
        round_pause=args.round_pause,
        bot_workers=max(0, args.bot_workers),
        create_rate=args.create_rate,
        max_connections=args.max_connections,
        connections_per_address=args.connections_per_address,
        trusted_proxies=args.trusted_proxies,
        allowed_origins=args.allowed_origins,
        dev_seeds=args.dev_seeds,
    )
    sock = _bind(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    config = uvicorn_config(create_app(settings), settings, log_level=args.log_level)
    server = uvicorn.Server(config)
    print(f"fives: serving on http://{shown}:{port}/ (database {args.db}; {loop_name()}, "
          f"{parser_name()}; Ctrl-C to stop)", flush=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("fives: stopped", file=sys.stderr)
    return 0
