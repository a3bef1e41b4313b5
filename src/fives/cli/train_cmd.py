"""``fives train play-model``: fit how the other seats are taken to play (the search bots'
model of them, :mod:`fives.bots.playmodel`) on matches the engine plays itself, and write the
model file the package ships. Seeded: the same seed, matches and bots write the same file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from fives.bots import BotError, BotName
from fives.cli.errors import UsageError, keyed_text
from fives.cli.options import lang_of
from fives.core.games import GAMES, Config, RulesError
from fives.i18n import LANGUAGES, default_language, reason_text, t
from fives.phrasing import os_error_text

#: where the package keeps the model (the default output)
SHIPPED = Path(__file__).resolve().parents[1] / "bots" / "play_model.json"


def register(sub: Any) -> None:
    lang = default_language()
    p = sub.add_parser("train", help=t("cli.train.help", lang),
                       description=t("cli.train.description", lang))
    what = p.add_subparsers(dest="what", required=True)
    m = what.add_parser("play-model", help=t("cli.train.play_model", lang),
                        description=t("cli.train.play_model", lang))
    m.add_argument("--seed", type=int, default=2026, metavar="S", help=t("cli.train.seed", lang))
    m.add_argument("--matches", type=int, default=6, metavar="M",
                   help=t("cli.train.matches", lang))
    m.add_argument("--bots", default="hard,medium", metavar="LIST",
                   help=t("cli.train.bots", lang))
    m.add_argument("--games", default=",".join(sorted(GAMES)), metavar="LIST",
                   help=t("cli.train.games", lang))
    m.add_argument("--out", default=str(SHIPPED), metavar="FILE", help=t("cli.train.out", lang))
    m.add_argument("--lang", choices=LANGUAGES, help=t("cli.opt.lang", lang))
    m.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from fives.bots.training import train

    lang = lang_of(args)
    if not 1 <= args.matches <= 1000:
        raise UsageError(t("cli.train.bad_matches", lang, n=args.matches), lang)
    games = [g.strip() for g in args.games.split(",")]
    for game in games:
        try:
            Config.make(game, 2)
        except RulesError as exc:
            raise UsageError(reason_text(exc, lang=lang), lang) from None
    bots = [b.strip() for b in args.bots.split(",")]
    for name in bots:
        try:
            outside = BotName.parse(name).outside
        except BotError as exc:
            raise UsageError(keyed_text("bot", exc, lang), lang) from None
        if outside:  # the model is of how our bots play, fitted in this process
            raise UsageError(t("cli.train.no_outside", lang, name=name), lang)
    data = train(args.seed, args.matches, bots, games,
                 progress=lambda line: print(line, file=sys.stderr))
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(t("cli.err.write", lang, path=args.out, why=os_error_text(exc, lang)),
                         lang) from None
    print(t("cli.train.written", lang, path=args.out), file=sys.stderr)
    return 0
