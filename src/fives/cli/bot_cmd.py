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
from fives.cli.errors import UsageError, keyed_text
from fives.cli.options import add_lang_option, lang_of
from fives.i18n import default_language, t


def register(sub: Any) -> None:
    lang = default_language()
    p = sub.add_parser(
        "bot", help=t("cli.botcmd.help", lang), description=t("cli.botcmd.description", lang)
    )
    p.add_argument("name", metavar="NAME", help=t("cli.botcmd.name", lang))
    p.add_argument("--seed", type=int, default=0, metavar="S", help=t("cli.botcmd.seed", lang))
    add_lang_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    try:
        name = BotName.parse(args.name)
    except BotError as exc:
        raise UsageError(keyed_text("bot", exc, lang), lang) from None
    if name.outside:
        raise UsageError(t("cli.botcmd.err.outside", lang), lang)
    bot = name.make()
    try:
        return serve(bot, args.seed, sys.stdin, sys.stdout, sys.stderr)
    except KeyboardInterrupt:
        return 0
    finally:
        bot.close()
