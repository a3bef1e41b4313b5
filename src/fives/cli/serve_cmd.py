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
from pathlib import Path
from typing import Any

from fives.bots import BotError, BotName
from fives.cli.errors import UsageError, keyed_text
from fives.cli.options import add_lang_option, lang_of
from fives.i18n import default_language, t
from fives.phrasing import os_error_text

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    from fives.server.settings import Settings

    d = Settings()  # every default below is the server's own
    lang = default_language()

    def say(key: str, value: object = None) -> str:
        shown = f"{value:g}" if isinstance(value, float) else value
        return t(f"cli.serve.{key}", lang, value=shown, db=d.db)

    p = sub.add_parser("serve", help=say("help"), description=say("description"))
    p.add_argument("--host", default="127.0.0.1", help=say("host"))
    p.add_argument("--port", type=int, default=8000, help=say("port"))
    p.add_argument("--db", default=d.db, metavar="URL", help=say("db"))
    p.add_argument("--redis", default=d.redis, metavar="URL", help=say("redis"))
    p.add_argument("--workers", type=int, default=1, metavar="N", help=say("workers"))
    p.add_argument("--lease", type=float, default=d.lease, metavar="S", help=say("lease", d.lease))
    p.add_argument("--turn-time", type=float, default=d.turn_time, metavar="S",
                   help=say("turn_time", d.turn_time))
    p.add_argument("--bot-delay", type=float, default=d.bot_delay, metavar="S",
                   help=say("bot_delay", d.bot_delay))
    p.add_argument("--forced-delay", type=float, default=d.forced_delay, metavar="S",
                   help=say("forced_delay", d.forced_delay))
    p.add_argument("--round-pause", type=float, default=d.round_pause, metavar="S",
                   help=say("round_pause", d.round_pause))
    p.add_argument("--bot-workers", type=int, default=d.bot_workers, metavar="N",
                   help=say("bot_workers", d.bot_workers))
    p.add_argument("--analysis-workers", type=int, default=d.analysis_workers, metavar="N",
                   help=say("analysis_workers", d.analysis_workers))
    p.add_argument("--analysis-bot", default=d.analysis_bot, metavar="LEVEL",
                   help=say("analysis_bot", d.analysis_bot))
    p.add_argument("--no-mine-puzzles", dest="mine_puzzles", action="store_false",
                   help=say("no_mine_puzzles", None))
    p.add_argument("--create-rate", type=float, default=d.create_rate, metavar="N",
                   help=say("create_rate", d.create_rate))
    p.add_argument("--identity-rate", type=float, default=d.identity_rate, metavar="N",
                   help=say("identity_rate", d.identity_rate))
    p.add_argument("--message-rate", type=float, default=d.rate, metavar="N",
                   help=say("message_rate", d.rate))
    p.add_argument("--pairing-rate", type=float, default=d.pairing_rate, metavar="N",
                   help=say("pairing_rate", d.pairing_rate))
    p.add_argument("--bot-offer", type=float, default=d.bot_offer, metavar="S",
                   help=say("bot_offer", d.bot_offer))
    p.add_argument("--archive-after", type=float, default=d.archive_after / 86400, metavar="DAYS",
                   help=say("archive_after", d.archive_after / 86400))
    p.add_argument("--max-connections", type=int, default=d.max_connections, metavar="N",
                   help=say("max_connections", d.max_connections))
    p.add_argument("--connections-per-address", type=int, default=d.connections_per_address,
                   metavar="N", help=say("connections_per_address", d.connections_per_address))
    p.add_argument("--trusted-proxies", default=d.trusted_proxies, metavar="ADDRS",
                   help=say("trusted_proxies"))
    p.add_argument("--allowed-origins", default=d.allowed_origins, metavar="ORIGINS",
                   help=say("allowed_origins"))
    p.add_argument("--events", default="", metavar="FILE", help=say("events"))
    p.add_argument("--dev-seeds", action="store_true", help=say("dev_seeds"))
    p.add_argument("--log-level", default="warning",
                   choices=["critical", "error", "warning", "info", "debug"], help=say("log_level"))
    p.add_argument("--log-format", default="text", choices=["text", "json"],
                   help=say("log_format"))
    add_lang_option(p)
    p.set_defaults(func=run)


def _bind(host: str, port: int, lang: str = "en") -> socket.socket:
    if not 0 <= port <= 65535:
        raise UsageError(t("cli.err.range", lang, option="--port", low=0, high=65535, value=port),
                         lang)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise UsageError(t("cli.serve.err.host", lang, host=host, why=exc.strerror), lang) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(t("cli.serve.err.port_used", lang, port=port, host=host),
                             lang) from None
        raise UsageError(t("cli.serve.err.listen", lang, host=host, port=port,
                           why=os_error_text(exc, lang)), lang) from None
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
    lang = lang_of(args)

    def refuse(key: str, **params: object) -> UsageError:
        return UsageError(t(key, lang, **params), lang)

    if importlib.util.find_spec("uvicorn") is None:
        raise refuse("cli.serve.err.extras")
    from fives.server.guard import fd_budget
    from fives.server.serving import loop_name, parser_name
    from fives.server.settings import Settings
    from fives.store import StoreError, is_postgres
    from fives.store.open import upgrade, where

    for name in ("turn_time", "bot_delay", "forced_delay", "round_pause", "create_rate",
                 "archive_after", "identity_rate", "pairing_rate", "bot_offer"):
        if getattr(args, name) < 0:
            raise refuse("cli.err.negative", option=f"--{name.replace('_', '-')}")
    if args.message_rate <= 0:
        raise refuse("cli.err.range", option="--message-rate", low=0.1, high=10000,
                     value=f"{args.message_rate:g}")
    for name in ("max_connections", "connections_per_address", "workers"):
        if getattr(args, name) < 1:
            raise refuse("cli.err.at_least", option=f"--{name.replace('_', '-')}", low=1,
                         value=getattr(args, name))
    if args.turn_time and args.turn_time < 3:
        raise refuse("cli.serve.err.clock")
    if not 0.3 <= args.lease <= 60:
        raise refuse("cli.err.range", option="--lease", low=0.3, high=60, value=f"{args.lease:g}")
    if args.redis and not is_postgres(args.db):
        raise refuse("cli.serve.err.redis_needs_pg")
    if args.workers > 1 and not args.redis:
        raise refuse("cli.serve.err.workers_need_redis")
    if args.redis and not args.redis.startswith(("redis://", "rediss://", "unix://")):
        raise refuse("cli.serve.err.redis_url", value=args.redis)
    try:
        analysis_bot = BotName.parse(args.analysis_bot)
    except BotError as exc:
        raise UsageError(keyed_text("bot", exc, lang), lang) from None
    if analysis_bot.outside:  # analyses run our own bots in the server's pool
        raise UsageError(t("cli.serve.analysis_outside", lang, name=args.analysis_bot), lang)
    if args.events:  # the schedule read now: a fault is one line before anything starts
        from fives.contests.schedule import ScheduleError, parse_schedule

        try:
            parse_schedule(Path(args.events).read_text(encoding="utf-8"))
        except OSError as exc:
            raise refuse("cli.events.read", path=args.events, why=os_error_text(exc, lang)) from None
        except UnicodeDecodeError as exc:
            raise refuse("cli.events.json", why=exc.reason) from None
        except ScheduleError as exc:
            raise UsageError(keyed_text("events", exc, lang), lang) from None
    try:
        upgrade(args.db)  # the schema up to date, and a clear line if it cannot be opened
    except StoreError as exc:
        raise UsageError(keyed_text("store", exc, lang), lang) from None
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
        analysis_workers=max(0, args.analysis_workers),
        analysis_bot=args.analysis_bot,
        mine_puzzles=args.mine_puzzles,
        create_rate=args.create_rate,
        identity_rate=args.identity_rate,
        pairing_rate=args.pairing_rate,
        rate=args.message_rate,
        bot_offer=args.bot_offer,
        archive_after=args.archive_after * 86400,
        events_file=args.events,
        event_lease=3 * args.lease,
        max_connections=args.max_connections,
        connections_per_address=args.connections_per_address,
        trusted_proxies=args.trusted_proxies,
        allowed_origins=args.allowed_origins,
        dev_seeds=args.dev_seeds,
    )
    sock = _bind(args.host, args.port, lang)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    _logging(args.log_level, args.log_format)
    workers = t("cli.serve.workers_n", lang, n=args.workers) if args.workers > 1 else ""
    print(t("cli.serve.serving", lang, url=f"http://{shown}:{port}/", db=where(args.db),
            workers=workers, loop=loop_name(), parser=parser_name()), flush=True)
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
    print(t("cli.serve.stopped", lang), file=sys.stderr)
    return 0
