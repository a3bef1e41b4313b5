"""``fives serve``: the browser game on http://HOST:PORT, with an embedded SQLite store, or
as one of many processes sharing PostgreSQL and Redis (``--db postgresql://… --redis redis://…``,
``--workers N`` on one machine; docs/cluster.md).

Prints the address to open, then serves until interrupted (Ctrl-C). Unfinished tables in the
database come back where they were.
"""

from __future__ import annotations

import argparse
import errno
import importlib.util
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
    p.add_argument("--redis", default=d.redis, metavar="URL",
                   help="Redis between the server processes of one site (redis://host:port/0); "
                        "needs a postgresql:// --db")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="server processes on this machine sharing the port (default 1; more "
                        "need --db postgresql://… and --redis)")
    p.add_argument("--lease", type=float, default=d.lease, metavar="S",
                   help=f"with --redis: a process that stops renewing its lease for this long is "
                        f"taken for dead and its tables move (default {d.lease:g})")
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
    p.add_argument("--identity-rate", type=float, default=d.identity_rate, metavar="N",
                   help=f"new identities, device links and bot accounts one address may make "
                        f"per minute (default {d.identity_rate:g})")
    p.add_argument("--pairing-rate", type=float, default=d.pairing_rate, metavar="N",
                   help=f"pairing queue joins one address may make per minute (default "
                        f"{d.pairing_rate:g})")
    p.add_argument("--bot-offer", type=float, default=d.bot_offer, metavar="S",
                   help=f"seconds in the pairing queue before bots are offered (default "
                        f"{d.bot_offer:g})")
    p.add_argument("--archive-after", type=float, default=d.archive_after / 86400, metavar="DAYS",
                   help=f"archive a finished match's deals and actions this many days after it "
                        f"ended: its record keeps them (default {d.archive_after / 86400:g}; "
                        "0: never)")
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
    p.add_argument("--log-format", default="text", choices=["text", "json"],
                   help="json: one object a line, with the process and the table (default text)")
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


def _logging(level: str, form: str) -> None:
    handler = logging.StreamHandler()
    if form == "json":
        from fives.server.logs import JsonFormatter

        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s [%(process)d]: %(message)s"))
    logging.basicConfig(level=level.upper(), handlers=[handler])


def _serve(settings: Any, sock: socket.socket, log_level: str) -> None:
    """One server process on the listening socket, until it is told to stop."""
    import uvicorn

    from fives.server import create_app
    from fives.server.serving import uvicorn_config

    config = uvicorn_config(create_app(settings), settings, log_level=log_level)
    uvicorn.Server(config).run(sockets=[sock])


def run(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("uvicorn") is None:
        raise UsageError("the server needs its extras: pip install 'fives[server]'")
    from fives.server.guard import fd_budget
    from fives.server.serving import loop_name, parser_name
    from fives.server.settings import Settings
    from fives.store import StoreError, is_postgres
    from fives.store.open import upgrade, where

    for name in ("turn_time", "bot_delay", "forced_delay", "round_pause", "create_rate",
                 "archive_after", "identity_rate", "pairing_rate", "bot_offer"):
        if getattr(args, name) < 0:
            raise UsageError(f"--{name.replace('_', '-')} cannot be negative")
    for name in ("max_connections", "connections_per_address"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1")
    if args.turn_time and args.turn_time < 3:
        raise UsageError("--turn-time is 0 (off) or at least 3 seconds")
    if not 0.3 <= args.lease <= 60:
        raise UsageError("--lease must be 0.3 to 60 seconds")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.redis and not is_postgres(args.db):
        raise UsageError("--redis shares tables between processes: it needs --db postgresql://… "
                         "(a SQLite file serves one process)")
    if args.workers > 1 and not args.redis:
        raise UsageError("--workers above 1 needs --db postgresql://… and --redis redis://…")
    if args.redis and not args.redis.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError(f"--redis must be redis://host:port/db, not {args.redis}")
    try:
        upgrade(args.db)  # the schema up to date, and a clear line if it cannot be opened
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    fd_budget(raise_soft=True)  # as many connections as the system allows this process
    settings = Settings(
        db=args.db,
        redis=args.redis,
        lease=args.lease,
        turn_time=args.turn_time,
        bot_delay=args.bot_delay,
        forced_delay=args.forced_delay,
        round_pause=args.round_pause,
        bot_workers=max(0, args.bot_workers),
        create_rate=args.create_rate,
        identity_rate=args.identity_rate,
        pairing_rate=args.pairing_rate,
        bot_offer=args.bot_offer,
        archive_after=args.archive_after * 86400,
        max_connections=args.max_connections,
        connections_per_address=args.connections_per_address,
        trusted_proxies=args.trusted_proxies,
        allowed_origins=args.allowed_origins,
        dev_seeds=args.dev_seeds,
    )
    sock = _bind(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    _logging(args.log_level, args.log_format)
    workers = f", {args.workers} workers" if args.workers > 1 else ""
    print(f"fives: serving on http://{shown}:{port}/ (database {where(args.db)}{workers}; "
          f"{loop_name()}, {parser_name()}; Ctrl-C to stop)", flush=True)
    try:
        if args.workers > 1:
            from fives.server.workers import prepare_metrics, supervise

            prepare_metrics()  # before any metric exists
            supervise(args.workers, sock, lambda s: _serve(settings, s, args.log_level))
        else:
            _serve(settings, sock, args.log_level)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("fives: stopped", file=sys.stderr)
    return 0
