"""``fives bot NAME [--seed S]``: run one of our bots as a protocol program (BOT-PROTOCOL.md).

It reads JSON lines on standard input, answers every ``act`` line with one
``{"action": ...}`` line on standard output, ignores the other types, logs on standard error,
and exits with status 0 at the end of its input.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from fives.bots import BotError, BotName
from fives.bots.protocol import serve
from fives.cli.errors import UsageError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "bot",
        help="run one of our bots as a bot-protocol program on stdin/stdout",
        description="Run one of our bots as a program speaking the bot protocol "
        "(BOT-PROTOCOL.md): JSON lines in on standard input, answers out on standard output.",
    )
    p.add_argument("name", metavar="NAME", help="the bot: random, easy, medium, hard, expert")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the bot's seed (default 0)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        name = BotName.parse(args.name)
    except BotError as exc:
        raise UsageError(str(exc)) from None
    if name.outside:
        raise UsageError("'fives bot' runs one of our bots; an outside program runs by itself")
    bot = name.make()
    try:
        return serve(bot, args.seed, sys.stdin, sys.stdout, sys.stderr)
    except KeyboardInterrupt:
        return 0
    finally:
        bot.close()
